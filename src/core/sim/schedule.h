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
 * ZB-H1 and DualPipe split some backward passes in two (sim_block.h): B,
 * the input gradients the previous stage waits for, and W, the weight
 * gradients run later from a first-in first-out queue. DualPipe runs two
 * pipelines over the same p devices in opposite directions: micro-batches
 * 0 .. m/2-1 enter at device 0 ("chunk" 0), m/2 .. m-1 at device p-1
 * (chunk 1); device i holds stage i of the first and stage p-1-i of the
 * second, so every device keeps two stages' parameters.
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


#define SCHED_MAX_MB	256	/* microbatches a schedule may have */

enum sched_pass {
	SCHED_F,		/* forward */
	SCHED_B,		/* the whole backward */
	SCHED_BI,		/* input gradients only; a SCHED_W follows */
	SCHED_W			/* weight gradients of an earlier SCHED_BI */
};

struct sched_op {
	enum sched_pass	 pass;
	int	 forward;	/* 1 if pass is SCHED_F */
	int	 mb;		/* microbatch, 0-based */
	int	 chunk;		/* model chunk on this stage, 0-based (< v);
				   DualPipe: the direction */
	int	 pair;		/* DualPipe's F&B: this forward and the next
				   op, a backward, start together */
	double	 start;		/* seconds, set by sched_time() */
	double	 end;		/* seconds, set by sched_time() */
};

struct sched {
	enum pipe_schedule	 kind;
	int		 p;		/* stages (devices) */
	int		 m;		/* microbatches */
	int		 v;		/* chunks per stage, 1 unless interleaved */
	size_t		 n_per_stage;	/* room per stage, 3*m*v */
	size_t		*n_ops;		/* ops of stage s: n_ops[s] */
	struct sched_op	*ops;		/* stage-major: ops[s*n_per_stage + i] */
};

/*
 * Build the op order. p >= 1, m >= 1, v >= 1; v must be 1 unless kind is
 * PIPE_INTERLEAVED, which needs m a multiple of p when p > 1. DualPipe
 * needs p even and m even and at least 2p; DualPipeV is refused.
 * Returns 0, or -1 with err filled (bad arguments, ENOMEM).
 * Free with sched_free().
 */
int	sched_build(enum pipe_schedule, int p, int m, int v, struct sched *,
	    struct pl_err *);
void	sched_free(struct sched *);

/*
 * Time the ops. t_f[k] and t_b[k] are the forward and whole backward
 * seconds of one microbatch on virtual stage k (sched_nvstages entries
 * each), t_w[k] the weight-gradient part of t_b[k] (NULL: none; a
 * SCHED_BI then takes t_b - t_w, a SCHED_W t_w); t_comm[k] is the
 * seconds a transfer between virtual stages k and k+1 takes when they
 * sit on different stages (the last unused; NULL for all zero).
 * Fills start/end of every op, earliest possible under the order. Returns
 * the makespan in seconds, or -1 if the order deadlocks (a bug).
 */
double	sched_time(struct sched *, const double *t_f, const double *t_b,
	    const double *t_w, const double *t_comm);

/*
 * The share of a stage's step the schedule's formula leaves idle, for a
 * micro-batch's forward F = 1, whole backward B = 2 and w its weight
 * part (W, in units of F): (p-1)/(vm+p-1) for GPipe, 1F1B and
 * interleaved; ZB-H1 idles (p-1)(F+B-2W) and DualPipe (p/2-1)(F&B+B-3W),
 * F&B = F+B, against m(F+B) of work (costmodel_sched.c has the sources).
 */
double	sched_bubble_share(enum pipe_schedule, int p, int m, int v, double w);

/* Virtual stages a microbatch passes: p*v (DualPipe: p). */
int	sched_nvstages(const struct sched *);

/* The op's virtual stage: chunk*p + stage (DualPipe: its position on the
 * op's pipeline, stage or p-1-stage). */
int	sched_vstage(const struct sched *, int stage, const struct sched_op *);

/* The stage (device) that runs virtual stage vs of microbatch mb. */
int	sched_stage_of(const struct sched *, int vs, int mb);

/* The direction (chunk) microbatch mb takes under DualPipe, else 0. */
int	sched_direction(const struct sched *, int mb);


#endif
