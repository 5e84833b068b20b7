/*
 * sim_modes.h - inside the simulator: how a mode lays the toy model out
 * over devices, what each device holds, and the executor that runs one
 * step on that layout. Used by the sim_*.c files only.
 *
 * Every mode is one mesh (core/mesh/mesh.h): d replicas (data parallel)
 * x p pipeline stages x t tensor-parallel ranks in the default rank order,
 * TP innermost as Megatron places it (device rank = (r*p + s)*t + k), plus
 * the ZeRO-3 flag (parameters sharded over the d replicas). single is
 * 1x1x1, dp dx1x1, tp 1x1xt, pp 1xpx1, fsdp dx1x1 sharded, 3d 2x2x2.
 * cp puts t = its tp setting (1 by default) on TP, c = gcd(GPUs / t,
 * SIM_SEQ/2) ranks on the mesh's CP axis and the rest on DP; inside the
 * simulator its d "replicas" are DP x CP (the group the gradients are
 * summed over), replica r being data shard r/c and CP rank r%c.
 * ep is d x p x 1 with e expert-parallel ranks among each stage's d
 * replicas: replicas r with the same r/e form an EP group, EP rank r%e
 * holding experts (r%e)*E/e .. (sim_ep.c).
 *
 * Layers are 0-based here (events carry layer+1). Boundary j is the
 * input of layer j (j = 0 the data, j = SIM_LAYERS the output).
 */
#ifndef PARLEARN_CORE_SIM_MODES_H
#define PARLEARN_CORE_SIM_MODES_H

#include <stddef.h>

#include "core/mesh/mesh.h"
#include "core/sim/sim.h"
#include "core/sim/sim_block.h"

struct sim_layout {
	struct mesh	 mesh;		/* the devices; d, p, t are its degrees */
	int		 d;		/* gradient replicas: DP x CP (the
					   group gradients are summed over) */
	int		 c;		/* context-parallel ranks; replica r
					   is data shard r / c, CP rank r % c */
	int		 p;		/* pipeline stages */
	int		 t;		/* tensor-parallel ranks */
	int		 v;		/* chunks per stage */
	int		 m;		/* micro-batches per replica */
	int		 b;		/* sequences per micro-batch */
	int		 zero3;		/* 1: params, grads, Adam state sharded */
	int		 sp;		/* 1: sequence parallelism */
	int		 overlap;	/* 1: DP/ZeRO-3 collectives beside compute */
	int		 lps;		/* layers per virtual stage */
	enum pipe_schedule	 kind;		/* pipeline schedule */
	struct sim_moe	 moe;		/* the MLP: dense if experts 0 */
	int		 e;		/* expert-parallel ranks: replicas
					   r / e share their experts */
	int		 dual;		/* 1: DualPipe, stage s also holds
					   stage p-1-s's layers */
};

struct sim_ep_buf;

struct sim_dev {
	int	 r, s, k;		/* replica, stage, TP rank */
	double	*w;			/* parameters held (ZeRO-3: shards) */
	double	*g;			/* their gradients */
	double	*am, *av;		/* Adam moments, NULL until the step */
	size_t	 n_w;			/* values in w, g, am, av */
	size_t	 off[SIM_LAYERS];	/* layer's offset in w; SIZE_MAX if not held */
	double	*full[SIM_LAYERS];	/* ZeRO-3: gathered layer while in use */
	double	*fullg[SIM_LAYERS];	/* ZeRO-3: unsharded grads in backward */
	double	 full_at[SIM_LAYERS];	/* ZeRO-3: when full[l]'s gather ends */
	double	*act[SIM_LAYERS + 1][SIM_BATCH];	/* boundaries, Tl x H */
	double	*dact[SIM_LAYERS + 1][SIM_BATCH];	/* their gradients */
	double	*saved[SIM_LAYERS][SIM_BATCH];	/* struct sim_saved arrays */
	double	*wstash[SIM_LAYERS][SIM_BATCH];	/* split backward: what the
					   W pass reads (sim_wstash) */
	int	 bwd_done[SIM_LAYERS];	/* backward passes run, per layer */
	double	*part;			/* T x H: partial sums to reduce */
	double	*dwhole;		/* T x H: gradients to gather */
	double	*dh;			/* Tl x H: gradient after attention */
	double	*work;			/* backward scratch */
	struct sim_ep_buf *ep[SIM_LAYERS][SIM_BATCH];	/* EP: routing,
					   received tokens (sim_ep.c) */
	double	*spare[4];		/* DualPipe: the other pass's part,
					   dwhole, dh and work (sim_exec.c) */
	int	 lane;			/* whose scratch is in use: 0, 1 */
	double	 clock;			/* seconds: compute stream free */
	double	 comm;			/* seconds: communication stream free */
};

struct sim_run {
	struct sim_layout	 lay;
	struct sim_shape	 sh;		/* one micro-batch on one rank */
	struct sim_cost		 cost;
	int			 n_dev;		/* d*p*t */
	struct sim_dev		*dev;		/* n_dev devices */
	struct sim_timeline	*tl;		/* where events go */
	double			 x[SIM_TOKENS * SIM_HIDDEN];	/* the batch */
	double			 target[SIM_TOKENS * SIM_HIDDEN];
	double			 mb_loss[SIM_BATCH][SIM_MAX_GPUS];	/* each
					   micro-batch's on each last-stage
					   device */
	int			 n_coll;	/* collectives so far (ids) */
	int			 oom;		/* an allocation failed */
};

/* The grid cfg asks for (sim.c); does not check it. */
void	sim_layout_of(const struct sim_config *, struct sim_layout *);

/* The bubble share lay's schedule gives by its formula, 0 without
 * stages (sim.c). */
double	sim_layout_bubble_formula(const struct sim_layout *);

/* The MoE variant's and ep's rules (sim_ep_check.c): 0, or -1 with a
 * one-line reason in err. */
int	sim_check_moe(const struct sim_config *, struct pl_err *);

/* Values in one ZeRO-3 shard of a layer: ceil(SIM_LAYER_PARAMS / d). */
size_t	sim_zero3_shard(const struct sim_layout *);

/* Device rank of replica r, stage s, TP rank k (the mesh's). */
int	sim_rank(const struct sim_layout *, int r, int s, int k);

/* The TP group of (r, s) and the DP group of (s, k) into g, by the mesh;
 * their sizes. */
int	sim_tp_group(const struct sim_layout *, int r, int s, int *g);
int	sim_dp_group(const struct sim_layout *, int s, int k, int *g);

/* The CP group of replica r's data shard on (s, k) into g; its size. */
int	sim_cp_group(const struct sim_layout *, int r, int s, int k, int *g);

/* The devices of stage s, replica-major, into out. Returns how many. */
int	sim_stage_devices(const struct sim_run *, int s, int *out);

/* A compute event of flops on device di (sim_layer.c), advancing its
 * clock. */
void	sim_compute(struct sim_run *, int di, enum sim_kind, enum sim_part,
	    int l, int mb, int chunk, double flops);

/*
 * Context parallelism (sim_cp.c): the attention of layer l, micro-batch
 * mb, on devices devs (n of them), over the ring of K/V blocks; the
 * output projection's result in each device's part. Backward: the same,
 * dK and dV travelling with the blocks, the input gradient in part.
 */
void	sim_cp_fwd_attn(struct sim_run *, const int *devs, int n, int l,
	    int mb, int chunk);
void	sim_cp_bwd_attn(struct sim_run *, const int *devs, int n, int l,
	    int mb, int chunk);

/*
 * Expert parallelism (sim_ep.c): the MoE MLP of layer l, micro-batch mb,
 * on the devices of a stage (replica-major, TP 1), tokens dispatched to
 * their experts' devices and combined back by all-to-alls in each EP
 * group; the result (forward: the MLP's output; backward: its input
 * gradient) in each device's part. It runs in four steps, in order, so
 * that another pass's compute can run while an all-to-all is in flight
 * (DualPipe's pairs, sim_exec.c). sim_ep_free drops a device's state.
 */
enum sim_ep_step {
	SIM_EP_LOCAL,		/* forward: route, shared expert; backward:
				   the shared expert's and gates' grads */
	SIM_EP_DISPATCH,	/* all-to-all out */
	SIM_EP_EXPERTS,		/* the experts' compute */
	SIM_EP_COMBINE,		/* all-to-all back, summed at the origin */
	SIM_EP_NSTEPS
};
void	sim_ep_fwd_step(struct sim_run *, const int *devs, int n, int l,
	    int mb, int chunk, enum sim_ep_step);
void	sim_ep_bwd_step(struct sim_run *, const int *devs, int n, int l,
	    int mb, int chunk, enum sim_ep_step);
void	sim_ep_free(struct sim_run *, int di, int l, int mb);

/*
 * EP's gradients and holdings (sim_ep_grads.c): the bucket of layer l on
 * stage s (non-expert values over DP, each expert over the devices that
 * hold it); the values of layers held by device di that are other
 * devices' experts; layer l's experts, on stage s, from the devices that
 * hold them into out (the full layout of one layer).
 */
void	sim_ep_bucket(struct sim_run *, int s, int l, int overlap);
size_t	sim_ep_unheld(const struct sim_run *, int di);
/* The EP rank holding value x of a layer (full layout), -1: not an
 * expert's. */
int	sim_ep_owner_of(const struct sim_layout *, size_t x);
void	sim_ep_collect(struct sim_run *, int l, int s, double *out, int grads);

/* Allocate n zeroed values on a device, accounted as kind at time t. */
double	*sim_dev_alloc(struct sim_run *, int dev, enum sim_mem_kind,
	    size_t n, double t);
/* Free them (p may be NULL), accounting at time t; sets *p to NULL. */
void	 sim_dev_free(struct sim_run *, int dev, enum sim_mem_kind,
	    double **p, size_t n, double t);

/* Layer l's parameters and gradients on device di (ZeRO-3: gathered). */
void	sim_dev_layer(struct sim_run *, int di, int l, struct sim_lparams *w,
	    struct sim_lparams *g);

/*
 * The forward and backward of layer l for micro-batch mb on every device
 * of stage s (sim_layer.c): compute, TP collectives, ZeRO-3 gathers and
 * scatters. chunk is the pipeline model chunk, for the events.
 *
 * A pass over a layer runs in steps, 0 to SIM_LAYER_NSTEPS - 1, in
 * order; sim_layer_step_kind says what each is for the run's layout:
 * nothing (skip it), compute (holds the device), or an all-to-all in
 * flight (EP's dispatch and combine, which another pass's compute may
 * hide).
 */
#define SIM_LAYER_NSTEPS	6
enum sim_step_kind { SIM_STEP_NONE, SIM_STEP_COMPUTE, SIM_STEP_COMM };
enum sim_step_kind sim_layer_step_kind(const struct sim_layout *,
	    int forward, int step);
/*
 * One pass of stage s as steps (sim_cursor.c): l is the next layer, 0 to
 * lps-1 in the pass's order (sim_cursor_layer: the model layer), lps the
 * hand-over; step the next step in it. sim_cursor_peek skips the steps
 * that do nothing and gives the kind of the next: NONE once the pass is
 * over, COMM for the hand-over (it only sends) until the caller sets
 * handed.
 */
struct sim_cursor {
	int		 s, vs, mb, chunk;
	enum sched_pass	 pass;
	int		 forward;
	int		 l, step, handed;
};
void	sim_cursor_init(struct sim_cursor *, const struct sim_layout *,
	    const struct sched *, int s, const struct sched_op *);
int	sim_cursor_layer(const struct sim_layout *, const struct sim_cursor *);
enum sim_step_kind sim_cursor_peek(const struct sim_layout *,
	    struct sim_cursor *);
void	sim_layer_forward_step(struct sim_run *, int s, int l, int mb,
	    int chunk, int step);
/* split 1: the input gradients only (B), the weights' products left to
 * sim_layer_weights (W), which also launches the layer's gradient
 * collectives (sim_grads_layer_done). */
void	sim_layer_backward_step(struct sim_run *, int s, int l, int mb,
	    int chunk, int split, int step);
void	sim_layer_weights(struct sim_run *, int s, int l, int mb, int chunk);

/*
 * ZeRO-3 (sim_grads.c): make sure layer l's gather has been issued on
 * every replica (prefetch), backward adding a gradient buffer.
 */
void	sim_zero3_fetch(struct sim_run *, int l, int mb, int backward);

/*
 * Gradients (sim_grads.c): after layer l's backward of one micro-batch
 * on stage s, launch the DP bucket if it was the last; after the
 * pipeline, the remaining reductions (DP without overlap, the replicated
 * parameters' gradients under sequence parallelism).
 */
void	sim_grads_layer_done(struct sim_run *, int s, int l, int mb);
void	sim_grads_finish(struct sim_run *);

/*
 * Every stage's passes in sc's order (sim_pipeline.c): the micro-batches
 * loaded, the loss computed, the boundaries sent. Returns 0, or -1 on
 * ENOMEM or a schedule that deadlocks.
 */
int	sim_run_pipeline(struct sim_run *, const struct sched *);

/*
 * Run one step of lay under cost, recording into tl (initialised by the
 * caller for d*p*t devices). Fills *loss and the full-layout gradients and
 * updated parameters. Returns 0, or -1 on ENOMEM or a schedule bug.
 */
int	sim_exec(const struct sim_layout *, const struct sim_cost *,
	    struct sim_timeline *, double *loss, double *grads,
	    double *params);

#endif
