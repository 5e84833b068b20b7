/*
 * run_progress.h - where each process of a run last was, so that a wait
 * that times out names the rank that hung, not the one that waited.
 *
 * `parlearn run` creates one small file, a slot per rank, and hands it
 * to the job through PARLEARN_RUN_PROGRESS ("/proc/PID/fd/N TOKEN": the
 * file is unlinked at once, so nothing is left behind however the run
 * ends; the token, also in the file's header, keeps a rank on another
 * host from writing into whatever that path names there).
 * Each rank writes its pid, host and a phrase saying where it is
 * ("while starting MPI", "in the backward pass of micro-batch 0") into
 * its slot, and the time of its last sign of life: a rank that waits,
 * even inside MPI_Init or MPI_Finalize, refreshes that time every few
 * hundredths of a second, so a rank whose time is old has stopped (a
 * signal, a debugger, a hang) or died. MPI is not needed to read or
 * write it: it works before MPI_Init and after MPI_Finalize, and the
 * parent reads it too.
 *
 * Without the variable (a job that mpirun or srun started directly) or
 * on another host than the file's, nothing is written and the messages
 * fall back to "another process has died or hung".
 */
#ifndef PARLEARN_RUN_PROGRESS_H
#define PARLEARN_RUN_PROGRESS_H

#include <stddef.h>

#define RUN_PROGRESS_ENV	"PARLEARN_RUN_PROGRESS"

/* A longer pause in a process's own loop means it was itself stopped. */
#define RUN_PROGRESS_GAP	0.5

enum run_state {
	RUN_ST_NONE,		/* no record */
	RUN_ST_BUSY,		/* working; where says at what */
	RUN_ST_WAITING,		/* in a wait that refreshes its time */
	RUN_ST_GAVE_UP,		/* timed out or failed, ending */
	RUN_ST_DONE,		/* MPI finished */
	RUN_ST_ENDED		/* ended by SIGTERM (the launcher stopping it) */
};

/* Parent: create the file; env gets the variable's value. fd or -1. */
int	run_progress_create(char *env, size_t n);

/* Rank: open $PARLEARN_RUN_PROGRESS for rank (-1: not known yet). */
void	run_progress_open(int rank);

/* Rank: the rank once MPI knows it, if it was not known at open. */
void	run_progress_set_rank(int rank);

/* Rank: now busy at where (a phrase: "in the backward pass ..."). */
void	run_progress_busy(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

/* Rank: now waiting for what; run_progress_busy_again() ends it. */
void	run_progress_wait(const char *what);
void	run_progress_busy_again(void);

/* Rank: a sign of life (written at most every few hundredths of a s). */
void	run_progress_tick(void);

/* Rank: gave up or finished; where is kept. */
void	run_progress_state(enum run_state);

/*
 * Rank: note an ending by SIGTERM, how a launcher stops the others when
 * one rank died, so that the parent can tell the one that died by itself.
 */
void	run_progress_on_term(void);

/* CLOCK_MONOTONIC in seconds. */
double	run_progress_now(void);

/* Seconds without a sign of life after which a rank counts as hung. */
double	run_progress_stale(double timeout);

/*
 * The ranks of 0..size-1 but self that stopped, died or never appeared,
 * as one phrase in buf ("rank 2 (pid 4242 on host h) stopped answering
 * while starting MPI"). fd -1: this rank's own file. Returns how many
 * ranks the phrase names, 0 (buf empty) if none can be named.
 */
int	run_progress_blame(int fd, int self, int size, double stale,
	    char *buf, size_t n);

/*
 * After the job: the ranks whose process ended by itself (killed, crashed,
 * exited) rather than done, given up or stopped by the launcher, as
 * blame's phrase ("rank 2 (pid 4242 on host h) died while starting
 * MPI"); how many. Only for ranks on this host.
 */
int	run_progress_died(int fd, int size, char *buf, size_t n);

/*
 * A rank's last words: the line it prints to stderr as it gives up the
 * job, also kept in the file, after the size ranks' records, so that the
 * launcher can say it when the MPI runtime tore the job down before
 * relaying the rank's stderr (MPICH's Hydra under load). _get reads the
 * lowest rank's into buf: 1, or 0 if no rank left any.
 */
void	run_progress_last_words(int size, const char *line);
int	run_progress_last_words_get(int fd, int size, char *buf, size_t n);

/* Rank r's pid, host and where: 1, or 0 if it has no record. */
int	run_progress_get(int fd, int r, long *pid, char *host, size_t hn,
	    char *where, size_t wn);

#endif
