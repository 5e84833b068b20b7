/*
 * run_exec.h - one training step of the toy transformer on this MPI
 * process, which is one device of the simulator's grid (sim_modes.h):
 * replica r, pipeline stage s, TP rank k, world rank (r*p + s)*t + k.
 *
 * The process holds only its shard: its stage's layers, cut for its TP
 * rank, or with ZeRO-3 its 1/d of every layer. It runs its stage's
 * passes in the order the schedule (sched_build) gives them, the block
 * arithmetic of sim_block.h in between the real collectives and sends of
 * run_comm.h, in the same order as the simulator's device does, so every
 * value is the one the simulator computes.
 */
#ifndef PARLEARN_RUN_EXEC_H
#define PARLEARN_RUN_EXEC_H

#include "core/sim/schedule.h"
#include "core/sim/sim_modes.h"
#include "run/run_comm.h"

struct run_ep_buf;

struct run_exec {
	struct run_proc		*proc;
	struct run_comm		 comm;
	struct run_group	 tp;		/* ranks of (r, s) */
	struct run_group	 dp;		/* ranks of (s, k) */
	struct run_group	 ep;		/* EP: the EP group, me = r % e */
	struct run_group	 edp;		/* EP: holders of our experts */
	struct run_group	 mirror;	/* DualPipe: stages s and p-1-s
						   of (r, k) */
	struct sim_layout	 lay;
	struct sim_shape	 sh;
	struct sched		 sc;
	struct sim_timeline	 tl;		/* this rank's events */
	int			 r, s, k;	/* replica (DP x CP: data shard
						   r / c, CP rank r % c), stage,
						   TP rank */
	double			*w, *g;		/* parameters held, gradients */
	double			*am, *av;	/* Adam moments */
	size_t			 n_w;
	size_t			 off[SIM_LAYERS];	/* SIZE_MAX: not held */
	double			*full[SIM_LAYERS];	/* ZeRO-3 gathered */
	double			*fullg[SIM_LAYERS];	/* ZeRO-3 unsharded grads */
	int			 full_h[SIM_LAYERS];	/* gather in flight, -1 */
	double			*act[SIM_LAYERS + 1][SIM_BATCH];
	double			*dact[SIM_LAYERS + 1][SIM_BATCH];
	double			*saved[SIM_LAYERS][SIM_BATCH];
	double			*wstash[SIM_LAYERS][SIM_BATCH];	/* split
						   backward: for the W pass */
	int			 bwd_done[SIM_LAYERS];
	double			*part, *dwhole, *dh, *work;
	double			*spare[4];	/* DualPipe: the pair's other
						   pass's part, dwhole, dh,
						   work (run_exec.c) */
	int			 lane;		/* whose scratch is in use */
	double			 loss[SIM_BATCH];	/* this rank's, NAN none */
	double			 x[SIM_TOKENS * SIM_HIDDEN];
	double			 target[SIM_TOKENS * SIM_HIDDEN];
	int			 backward_seen;	/* for the fault point */
	struct run_ep_buf	*ep_buf[SIM_LAYERS][SIM_BATCH];	/* EP state */
};

/*
 * Set up this rank for cfg: its groups, its shard of the initial
 * parameters, its buffers. Collective over all ranks.
 */
void	run_exec_init(struct run_exec *, struct run_proc *,
	    const struct sim_config *, enum run_reduce);

/* Run the step: the pipeline, the remaining reductions, Adam. */
void	run_exec_step(struct run_exec *);

void	run_exec_free(struct run_exec *);

/* Inside run_exec.c and run_layer.c. ---------------------------------- */

/* n zeroed doubles accounted as kind on this rank's timeline. */
double	*run_alloc(struct run_exec *, enum sim_mem_kind, size_t n);
void	 run_free(struct run_exec *, enum sim_mem_kind, double **p, size_t n);

/*
 * Layer l's forward and backward for micro-batch mb (chunk: for events)
 * in sim_layer.c's steps (sim_layer_step_kind); split 1 leaves the
 * weights' products to run_layer_weights, the W pass.
 */
void	run_layer_forward_step(struct run_exec *, int l, int mb, int chunk,
	    int step);
void	run_layer_backward_step(struct run_exec *, int l, int mb, int chunk,
	    int split, int step);
void	run_layer_weights(struct run_exec *, int l, int mb, int chunk);

/*
 * Context parallelism (run_cp.c): layer l's attention over the CP
 * group's K/V ring, the output projection in part; backward the input
 * gradient in part. run_cp_computed records an attention compute event
 * from t0 to now (run_layer.c).
 */
void	run_cp_fwd_attn(struct run_exec *, int l, int mb, int chunk,
	    const struct sim_lparams *w, struct sim_saved *sv);
void	run_cp_bwd_attn(struct run_exec *, int l, int mb, int chunk,
	    const struct sim_lparams *w, const struct sim_lparams *g,
	    const struct sim_saved *sv);
void	run_cp_computed(struct run_exec *, enum sim_kind, int l, int mb,
	    int chunk, double t0);

/*
 * Expert parallelism (run_ep.c): layer l's MoE MLP in sim_ep.c's four
 * steps, the EP group's dispatch and combine started as
 * MPI_Ialltoallv (DISPATCH, COMBINE) and finished by run_ep_settle, which
 * waits for the one in flight and puts what it brought where the pass
 * reads it (forward: the MLP's output in part; backward: its input
 * gradient in part). Its state is freed after the backward; the
 * gradient bucket of layer l (non-expert values over DP, this rank's
 * experts over the EDP group).
 */
void	run_ep_fwd_step(struct run_exec *, int l, int mb, int chunk,
	    const struct sim_lparams *w, struct sim_saved *sv,
	    enum sim_ep_step);
void	run_ep_bwd_step(struct run_exec *, int l, int mb, int chunk,
	    const struct sim_lparams *w, const struct sim_lparams *g,
	    const struct sim_saved *sv, enum sim_ep_step);
void	run_ep_settle(struct run_exec *, int l, int mb,
	    const struct sim_lparams *w, const struct sim_lparams *g,
	    const struct sim_saved *sv);
void	run_ep_free(struct run_exec *, int l, int mb);
void	run_ep_bucket(struct run_exec *, int l, int overlap);

/* After the pipeline: DP without overlap, sequence-parallel gradients;
 * then DualPipe's sum of the two copies of each layer. */
void	run_grads_finish(struct run_exec *);

#endif
