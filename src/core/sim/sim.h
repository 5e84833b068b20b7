/*
 * sim.h - the toy model trained for one step on simulated devices.
 *
 * The model: 4 fully connected layers of width 16 (16 -> 16 -> 16 -> 16
 * -> 16), tanh after layers 1-3, identity after layer 4, and the loss
 * L = 1/(2B) * sum over the batch of |y - target|^2 on a fixed batch of
 * B = 48 samples drawn from a seeded PRNG (splitmix64). Everything is
 * computed in double precision. One step is forward, backward and one
 * Adam update (lr 1e-3, betas 0.9/0.999, eps 1e-8).
 *
 * Each mode lays the model out over devices as the real scheme does, each
 * device with its own buffers; data crosses devices only through the ring
 * collectives and sends of sim_collective.c, which copy the values and
 * record events. The run is checked against the single-device reference:
 * every mode must give the same loss, gradients and updated parameters to
 * rounding (a few ulps), far inside 1e-9.
 *
 * Time is simulated from a cost rule (sim_cost_default() documents it):
 * compute = FLOPs / device speed; a transfer = alpha + bytes / bandwidth;
 * ring collectives as in reference/costmodel.md §f.
 */
#ifndef PARLEARN_CORE_SIM_H
#define PARLEARN_CORE_SIM_H

#include <stddef.h>

#include "core/err.h"
#include "core/sim/schedule.h"
#include "core/sim/timeline.h"

#define SIM_LAYERS	4	/* layers in the toy model */
#define SIM_WIDTH	16	/* every layer is SIM_WIDTH x SIM_WIDTH */
#define SIM_BATCH	48	/* samples in the fixed batch */
#define SIM_NPARAMS	(SIM_LAYERS * (SIM_WIDTH * SIM_WIDTH + SIM_WIDTH))

enum sim_mode {
	SIM_SINGLE,
	SIM_DP,
	SIM_TP,
	SIM_PP,
	SIM_FSDP,
	SIM_3D
};

struct sim_cost {
	double	 flops;		/* device speed, FLOP/s */
	double	 alpha_intra;	/* latency per transfer/ring step in a node, s */
	double	 bw_intra;	/* link bandwidth inside a node, B/s */
	double	 alpha_inter;	/* same across nodes, s */
	double	 bw_inter;	/* same across nodes, B/s */
	int	 gpus_per_node;	/* devices per node */
	double	 adam_flops;	/* FLOPs per parameter of an Adam update */
};

struct sim_config {
	enum sim_mode	 mode;
	int		 gpus;		/* devices; 8 for SIM_3D, 1 for single */
	int		 microbatches;	/* per pipeline (per replica) */
	enum pipe_schedule	 schedule;	/* pp and 3d; others run one stage */
	int		 vstages;	/* chunks per device, interleaved only */
	struct sim_cost	 cost;
};

struct sim_result {
	double			 loss;		/* the step's loss */
	double			 max_grad_error;	/* max |g - g_single| */
	double			 max_param_error;	/* same, after the update */
	/*
	 * Idle share of the compute window, measured on the timeline (see
	 * sim_timeline_bubble). Transfers make stages wait, so with the
	 * default cost it exceeds bubble_formula; with
	 * sim_cost_compute_only() it equals it for pp and 3d.
	 */
	double			 bubble;	/* share, 0..1 */
	double			 bubble_formula;	/* (p-1)/(v*m+p-1), 0 if p = 1 */
	size_t			 bytes_moved;	/* bytes sent, all devices */
	double			 step_time;	/* seconds, end of the timeline */
	int			 dp, tp, pp;	/* the layout: replicas, TP, stages */
	double			 grads[SIM_NPARAMS];	/* full-layout gradients */
	double			 params[SIM_NPARAMS];	/* full-layout, after step */
	struct sim_timeline	 tl;		/* the events, sorted */
};

/*
 * The documented cost constants (a toy device, not a GPU):
 *   device speed          1e9 FLOP/s (1 GFLOP/s)
 *   inside a node         alpha 1 us,  4e9 B/s (4 GB/s)
 *   across nodes          alpha 4 us,  1e9 B/s (1 GB/s)
 *   gpus per node         4
 *   Adam                  10 FLOPs per parameter
 * Compute per layer and microbatch of b samples: forward 2*b*16*16 FLOPs,
 * backward twice that (input and weight gradients); bias, tanh and the
 * loss are not counted. A group or pair whose devices sit in one node uses
 * the intra-node figures, else the inter-node ones.
 */
struct sim_cost	sim_cost_default(void);

/* The same with every transfer free (alpha 0, infinite bandwidth). */
struct sim_cost	sim_cost_compute_only(void);

/*
 * A config for mode with gpus devices and the defaults: microbatches 8 for
 * pp and 3d (1 otherwise), schedule 1F1B, vstages 1, sim_cost_default().
 */
void	sim_config_default(struct sim_config *, enum sim_mode, int gpus);

/*
 * Check a config without running it. Returns 0, or -1 with err holding a
 * one-line reason (stages that do not divide the layers, microbatches that
 * do not divide the batch, 3d without 8 devices, ...).
 */
int	sim_config_check(const struct sim_config *, struct pl_err *);

/*
 * Run one training step under cfg and also the single-device reference,
 * fill res (its timeline owned by res: free with sim_result_free()).
 * Returns 0, or -1 with err filled on a bad config or ENOMEM; res is then
 * empty and safe to free.
 */
int	sim_run(const struct sim_config *, struct sim_result *,
	    struct pl_err *);
void	sim_result_free(struct sim_result *);

/* "single", "dp", "tp", "pp", "fsdp", "3d"; sim_mode_parse returns -1. */
const char	*sim_mode_name(enum sim_mode);
int		 sim_mode_parse(const char *, enum sim_mode *);

#endif
