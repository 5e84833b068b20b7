/*
 * run_proc.h - one MPI process of `parlearn run`: who it is, its clock,
 * and how it gives up.
 *
 * No process ever waits without a deadline. Waits on MPI requests are
 * test loops (run_comm.c) that call run_fail() when --timeout passes;
 * the few MPI calls that have no non-blocking form (MPI_Init,
 * MPI_Comm_split, MPI_Finalize) run under run_guard(), an alarm that
 * prints one line and ends the process. Either way the job ends: mpirun
 * stops the other ranks when one aborts or exits, and under a launcher
 * that does not, each rank's own deadline ends it.
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
	RUN_FAULT_HANG		/* stop answering at its first backward pass */
};

/* Where a fault of PARLEARN_RUN_FAULT strikes. */
enum run_fault_at {
	RUN_AT_BACKWARD,	/* die:R, hang:R */
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

/* This process's rank as the launcher's environment says, or -1. */
int	run_env_rank(void);

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
 * Arm an alarm of the timeout for an MPI call that cannot be polled
 * (what names it in the message); run_unguard() disarms it. An alarm
 * that comes late, because this process itself was stopped, says so
 * instead of blaming another process.
 */
void	run_guard(const struct run_proc *, const char *what);
void	run_unguard(void);

/* Inject the fault, if any: called where a rank starts its backward. */
void	run_fault_point(const struct run_proc *);

/* Measure the clock offset against rank 0 and agree on the start t0. */
void	run_clock_sync(struct run_proc *);

#endif
