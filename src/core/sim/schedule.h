/*
 * schedule.h - pipeline schedules: which forward and backward passes each
 * pipeline stage runs, in what order, and when.
 *
 * A pipeline of p stages (devices) runs m microbatches through p*v virtual
 * stages; virtual stage k = chunk*p + stage lives on stage (k mod p).
 * GPipe runs every forward then every backward; 1F1B (PipeDream-Flush)
 * warms up with p-s-1 forwards on stage s and then alternates one forward,
 * one backward; interleaved 1F1B is Megatron-LM's schedule with v chunks per
 * device ([NAR21] §2.2.2; reference/costmodel.md §e).
 *
 * sched_time() places the ops in time: an op starts when its stage is free
 * and its input is there (the previous virtual stage's forward, or the next
 * one's backward, plus a transfer time when they are on different stages).
 */
#ifndef PARLEARN_CORE_SCHEDULE_H
#define PARLEARN_CORE_SCHEDULE_H

#include <stddef.h>

#include "core/err.h"
#include "core/pipeline.h"


struct sched_op {
	int	 forward;	/* 1 forward, 0 backward */
	int	 mb;		/* microbatch, 0-based */
	int	 chunk;		/* model chunk on this stage, 0-based (< v) */
	double	 start;		/* seconds, set by sched_time() */
	double	 end;		/* seconds, set by sched_time() */
};

struct sched {
	enum pipe_schedule	 kind;
	int		 p;		/* stages (devices) */
	int		 m;		/* microbatches */
	int		 v;		/* chunks per stage, 1 unless interleaved */
	size_t		 n_per_stage;	/* ops per stage, 2*m*v */
	struct sched_op	*ops;		/* stage-major: ops[s*n_per_stage + i] */
};

/*
 * Build the op order. p >= 1, m >= 1, v >= 1; v must be 1 unless kind is
 * PIPE_INTERLEAVED, which needs m a multiple of p when p > 1.
 * Returns 0, or -1 with err filled (bad arguments, ENOMEM).
 * Free with sched_free().
 */
int	sched_build(enum pipe_schedule, int p, int m, int v, struct sched *,
	    struct pl_err *);
void	sched_free(struct sched *);

/*
 * Time the ops. t_f[k] and t_b[k] are the forward and backward seconds of
 * one microbatch on virtual stage k (p*v entries each); t_comm[k] is the
 * seconds a transfer between virtual stages k and k+1 takes when they sit
 * on different stages (p*v entries, the last unused; NULL for all zero).
 * Fills start/end of every op, earliest possible under the order. Returns
 * the makespan in seconds, or -1 if the order deadlocks (a bug).
 */
double	sched_time(struct sched *, const double *t_f, const double *t_b,
	    const double *t_comm);

/* The op's virtual stage, chunk*p + stage. */
int	sched_vstage(const struct sched *, int stage, const struct sched_op *);


#endif
