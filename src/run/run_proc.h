/*
 * run_proc.h - one MPI process of `parlearn run`: who it is, its clock,
 * and how it gives up.
 *
 * No process ever waits without a deadline. Waits on MPI requests are
 * test loops (run_wait.c) that call run_give_up() when --timeout passes;
 * the few MPI calls that have no non-blocking form (MPI_Init,
 * MPI_Comm_split, MPI_Finalize) run under run_guard() (run_guard.c), a
 * watching thread that does the same. Either way the line names the rank
 * that did not come, from the progress file (run_progress.h), and the
 * job ends: mpirun stops the other ranks when one aborts or exits, and
 * under a launcher that does not, each rank's own deadline ends it.
 * Time a process spends stopped itself does not count as waiting.
 *
 * Clock: MPI_Wtime on each host, shifted by an offset measured against
 * rank 0 (run_clock.c), minus the start of the step, so all ranks'
 * events are on rank 0's clock.
 */
#ifndef PARLEARN_RUN_PROC_H
#define PARLEARN_RUN_PROC_H

#include <stdarg.h>

enum run_fault {
	RUN_FAULT_NONE,
	RUN_FAULT_DIE,		/* SIGKILL itself at its first backward pass */
	RUN_FAULT_HANG,		/* stop answering at its first backward pass */
	RUN_FAULT_STOP		/* SIGSTOP itself there */
};

/* Where a fault of PARLEARN_RUN_FAULT strikes. */
enum run_fault_at {
	RUN_AT_BACKWARD,	/* die:R, hang:R, stop:R */
	RUN_AT_INIT,		/* die-init:R, stop-init:R: as MPI_Init starts */
	RUN_AT_FINALIZE		/* die-finalize:R, stop-finalize:R */
};

struct run_proc {
	int		 rank;		/* in MPI_COMM_WORLD */
	int		 size;
	double		 timeout;	/* seconds any one wait may take */
	double		 offset;	/* rank 0's clock minus this one's */
	double		 rtt;		/* round trip of the best clock probe */
	double		 t0;		/* rank 0's clock at the step's start */
	enum run_fault	 fault;		/* from PARLEARN_RUN_FAULT */
};

/* Fill rank, size, timeout and the fault this rank is asked to inject. */
void	run_proc_init(struct run_proc *, double timeout);

/* This process's rank and the job's size as the launcher's environment
   says, or -1. */
int	run_env_rank(void);
int	run_env_size(void);

/*
 * Inject a fault of PARLEARN_RUN_FAULT at MPI_Init or MPI_Finalize, if
 * rank is the one it names: die- kills the process, stop- stops it
 * (SIGSTOP), as a debugger or an overloaded node would.
 */
void	run_fault_edge(int rank, enum run_fault_at);

/* Seconds since the step's start on rank 0's clock. */
double	run_now(const struct run_proc *);

/*
 * Print "parlearn run: rank R: MESSAGE" as one line on stderr and abort
 * the whole job with exit code 2.
 */
void	run_fail(const struct run_proc *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));

/*
 * A wait for what took the timeout: print one line naming the ranks
 * that did not come (or, if none can be named, saying that another
 * process died or hung) and end the job. in_call: said from the guard's
 * thread while an MPI call is under way, so the process just exits.
 */
void	run_give_up(const struct run_proc *, const char *what, int in_call)
	    __attribute__((noreturn));

/*
 * Watch an MPI call that cannot be polled for the timeout: where says
 * what this rank does ("while starting MPI"), what what it waits for
 * ("MPI to start"); run_unguard() ends the watch.
 */
void	run_guard(const struct run_proc *, const char *where,
	    const char *what);
void	run_unguard(void);

/* Inject the fault, if any: called where a rank starts its backward. */
void	run_fault_point(const struct run_proc *);

/* Measure the clock offset against rank 0 and agree on the start t0. */
void	run_clock_sync(struct run_proc *);

#endif
