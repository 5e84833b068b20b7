/*
 * sim.h - the toy transformer (sim_model.h) trained for one step on
 * simulated devices.
 *
 * Each mode lays the model out over devices as the frameworks do, each
 * device with its own buffers; data crosses devices only through the ring
 * collectives and sends of sim_collective.c, which copy the values chunk
 * by chunk and record events. The run is checked against the
 * single-device reference: every mode gives the same loss, gradients and
 * updated parameters to rounding, far inside 1e-9.
 *
 *   dp     PyTorch DDP: every device a full replica on its shard of the
 *          batch; each layer's gradients form a bucket that all-reduces
 *          on a communication stream as soon as the layer's backward is
 *          done (overlap), or all in one all-reduce after the backward
 *          pass (no overlap).
 *   tp     Megatron-LM: attention split by heads, the MLP by columns then
 *          rows; two all-reduces forward and two backward per layer, or
 *          with sequence parallelism two all-gathers and two
 *          reduce-scatters each way.
 *   pp     GPipe, 1F1B or interleaved 1F1B over stages of layers, or
 *          ZB-H1 and DualPipe with the backward split into B and W
 *          (schedule.h); DualPipe's device s also holds stage p-1-s
 *          and sums those gradients with device p-1-s before Adam.
 *   fsdp   ZeRO-3 / PyTorch FSDP: parameters, gradients and Adam state
 *          sharded over the replicas; each layer all-gathered before its
 *          forward and again before its backward, its gradients
 *          reduce-scattered after; with overlap the next layer's gather
 *          is prefetched on a communication stream.
 *   3d     DP 2 x PP 2 x TP 2 on 8 devices, TP innermost.
 *   cp     context parallelism (Megatron-Core): every device holds two
 *          load-balanced chunks of every sequence; attention runs over
 *          a ring of K/V blocks with an online softmax (sim_ring.h,
 *          sim_cp.c); gradients are summed over the CP group. With
 *          tp > 1 each CP rank is itself a TP group of tp devices,
 *          splitting heads and the MLP as tp mode does (3D-style
 *          TP x CP x DP, TP innermost).
 *   ep     expert parallelism (Megatron-Core): the MoE variant
 *          (sim_moe.h) with its experts split over ep ranks taken from
 *          the DP ranks, E/ep a device; tokens go to their experts'
 *          devices by an all-to-all (dispatch) and come back by another
 *          (combine), twice again backward (sim_ep.c). With pp > 1 the
 *          GPUs are DP x PP, EP inside each stage's DP ranks.
 *
 * Time comes from a cost rule (sim_cost_default() documents it): compute
 * = FLOPs / device speed, a ring step or send = alpha + bytes / bandwidth
 * (reference/costmodel.md §f), scaled so that the toy's compute and
 * transfers keep the ratio a real model has on real hardware.
 */
#ifndef PARLEARN_CORE_SIM_H
#define PARLEARN_CORE_SIM_H

#include <stddef.h>

#include "core/err.h"
#include "core/mesh/mesh.h"
#include "core/sim/schedule.h"
#include "core/sim/sim_model.h"
#include "core/sim/sim_moe.h"
#include "core/sim/timeline.h"

#define SIM_MAX_GPUS	64	/* devices a run may have */
#define SIM_SCALE	512	/* the toy stands for a model this much wider
				   and with sequences this much longer */

enum sim_mode {
	SIM_SINGLE,
	SIM_DP,
	SIM_TP,
	SIM_PP,
	SIM_FSDP,
	SIM_3D,
	SIM_CP,
	SIM_EP
};
#define SIM_NMODES	8

struct sim_cost {
	double	 flops;		/* device speed, FLOP/s */
	double	 alpha_intra;	/* latency per ring step or send in a node, s */
	double	 bw_intra;	/* link bandwidth per direction in a node, B/s */
	double	 alpha_inter;	/* same across nodes, s */
	double	 bw_inter;	/* same across nodes, B/s */
	int	 gpus_per_node;	/* devices per node */
	double	 adam_s;	/* Adam update time per parameter, s */
};

struct sim_config {
	enum sim_mode	 mode;
	int		 gpus;		/* devices; 8 for 3d, 1 for single */
	int		 microbatches;	/* per pipeline (per replica) */
	enum pipe_schedule	 schedule;	/* pp and 3d; others run one stage */
	int		 vstages;	/* chunks per device, interleaved only */
	int		 seq_parallel;	/* 1: TP with sequence parallelism */
	int		 overlap;	/* 1: DP buckets and ZeRO-3 collectives on
					   a stream beside compute */
	int		 compute_only;	/* 1: every transfer takes no time */
	int		 tp;		/* cp: TP ranks inside each CP rank
					   (0 or 1: none) */
	struct sim_moe	 moe;		/* experts 0: the dense model */
	int		 ep;		/* ep: expert-parallel ranks */
	int		 pp;		/* ep: pipeline stages (0 or 1: none) */
	struct sim_cost	 cost;		/* the hardware */
};

/*
 * What a caller asks for, as `parlearn trace` options or an animation
 * block's keys give it: NULL or 0 leaves a field to the default.
 */
struct sim_request {
	const char	*mode;		/* NULL: "pp" */
	int		 gpus;		/* 0: 4 (single 1, 3d 8) */
	int		 microbatches;	/* 0: 8 for pp and 3d, else 1 */
	const char	*schedule;	/* NULL: "1f1b" */
	int		 vstages;	/* 0: 2 for interleaved pp, else 1 */
	int		 seq_parallel;	/* 1: on */
	int		 no_overlap;	/* 1: overlap off */
	int		 compute_only;	/* 1: on */
	int		 tp;		/* cp: TP ranks per CP rank; 0: 1 */
	int		 moe;		/* routed experts; 0: dense (ep: 8) */
	int		 top_k;		/* experts a token goes to; 0: 2 */
	int		 shared_expert;	/* 1: a shared expert */
	int		 router_bias;	/* added to expert 0's choice score */
	int		 ep;		/* ep: EP ranks; 0: every GPU of a stage */
	int		 pp;		/* ep: pipeline stages; 0: 1 */
};

struct sim_result {
	double			 loss;		/* the step's loss */
	double			 max_loss_error;	/* |loss - loss_single| */
	double			 max_grad_error;	/* max |g - g_single| */
	double			 max_param_error;	/* same, after the update */
	/*
	 * Idle share of the compute window, measured on the timeline (see
	 * sim_timeline_bubble). Transfers make stages wait, so with the
	 * default cost it is a little above bubble_formula; with
	 * compute_only it equals it for pp and 3d.
	 */
	double			 bubble;	/* share, 0..1 */
	double			 bubble_formula;	/* (p-1)/(v*m+p-1), 0 if p = 1 */
	size_t			 bytes_moved;	/* bytes sent, all devices */
	double			 step_time;	/* seconds, end of the timeline */
	/* layout: replicas, TP, stages by axis of the mesh or by name
	 * (in enum mesh_axis order), and chunks per stage */
	union {
		int		 degree[MESH_N_AXES];
		struct {
			int	 dp, tp, pp, cp;
		};
	};
	int			 v;
	enum pipe_schedule	 schedule;	/* the pipeline's, when pp > 1 */
	int			 ep;		/* expert-parallel ranks, 1 none */
	struct sim_moe		 moe;		/* the model variant run */
	double			 grads[SIM_NPARAMS];	/* full-layout gradients */
	double			 params[SIM_NPARAMS];	/* full-layout, after step */
	struct sim_timeline	 tl;		/* the events, sorted */
};

/*
 * The toy's hardware: an H100 SXM node, with the toy standing for the
 * same model SIM_SCALE (512) times wider and with sequences 512 times
 * longer (hidden 8192, ffn 32768, 4096 tokens per sequence: a 4-layer
 * slice of a 70B-class model). Scaling width and length by 512
 * multiplies every matmul's FLOPs by 512^3 and every tensor's elements
 * by 512^2; the toy keeps 8-byte doubles where training moves 2-byte
 * bf16, so a toy byte stands for 512^2/4 real bytes. Dividing the real
 * rates by these factors makes every toy operation take as long as its
 * scaled-up counterpart on the real machine, so the ratio of transfer to
 * compute time is the real one:
 *   device speed   769 TFLOP/s / 512^3 (8192-wide bf16 products on one
 *                  H100, reference/h100-gemm.md)
 *   in a node      NVLink 4, 450 GB/s per direction / (512^2/4)
 *                  (reference/costmodel.md §g), alpha 10 us per step (§f)
 *   across nodes   NDR InfiniBand, 50 GB/s per GPU / (512^2/4), 20 us
 *   gpus per node  8 (HGX H100)
 *   Adam           28 bytes of HBM traffic per parameter at 3.35 TB/s
 *                  (fp32 master, moments read and written, bf16 grad
 *                  and weight), times the 512^2 parameters a toy
 *                  parameter stands for
 * Times are therefore in real seconds of the scaled model; byte counts
 * stay the toy's own.
 */
struct sim_cost	sim_cost_default(void);

/* The same with every transfer free (alpha 0, infinite bandwidth). */
struct sim_cost	sim_cost_compute_only(void);

/*
 * The one config builder: the defaults, then what req asks for. Checks
 * the result (sim_config_check). Returns 0, or -1 with err holding a
 * one-line reason (unknown mode or schedule, a layout that does not fit
 * the model). Both `parlearn trace` and animation blocks go through it.
 */
int	sim_config_build(const struct sim_request *, struct sim_config *,
	    struct pl_err *);

/* The defaults for mode on gpus devices, as sim_config_build gives them. */
void	sim_config_default(struct sim_config *, enum sim_mode, int gpus);

/*
 * Check a config without running it. Returns 0, or -1 with err holding a
 * one-line reason (stages that do not divide the layers, micro-batches
 * that do not divide the batch, TP that does not divide the heads, ...).
 */
int	sim_config_check(const struct sim_config *, struct pl_err *);

/* The cost a run of cfg uses: cfg's, with transfers free if compute_only. */
struct sim_cost	sim_config_cost(const struct sim_config *);

/*
 * Run one training step under cfg and also the single-device reference,
 * fill res (its timeline owned by res: free with sim_result_free()).
 * Returns 0, or -1 with err filled on a bad config or ENOMEM; res is then
 * empty and safe to free.
 */
int	sim_run(const struct sim_config *, struct sim_result *,
	    struct pl_err *);
void	sim_result_free(struct sim_result *);
/* The largest |a[i] - b[i]| of n values: how far two runs' numbers differ. */
double	sim_max_diff(const double *a, const double *b, size_t n);

/*
 * Where a device sits in a run (sim_place.c): its data-parallel replica,
 * its pipeline stage (from 0: stage 0 is the first, on G0) and its
 * tensor-parallel rank, all from 0, and the layers it holds (bit l is
 * layer l+1: layers are named L1 to L4).
 */
struct sim_place {
	int		 replica, stage, tp_rank;
	unsigned	 layers;
};
void	sim_device_place(const struct sim_result *, int dev,
	    struct sim_place *);

/* The name lessons and screens give device dev: "G0", "G1", ... */
const char	*sim_device_name(int dev, char *buf, size_t n);

/* The layers of mask (bit l = layer l+1): "L1-L4" for three or more in a
 * row, else "L1 L3"; "" for none. */
const char	*sim_layers_text(unsigned mask, char *buf, size_t n);

/* The formula bubble_formula is by, for the schedule run:
 * "(p-1)/(v*m+p-1)", "(p-1)(F+B-2W)" or "(p/2-1)(F&B+B-3W)". */
const char	*sim_bubble_formula_text(const struct sim_result *);

/* "single", "dp", "tp", "pp", "fsdp", "3d", "cp", "ep"; sim_mode_parse returns -1. */
const char	*sim_mode_name(enum sim_mode);
int		 sim_mode_parse(const char *, enum sim_mode *);

#endif
