/*
 * costmodel_int.h - what the costmodel_*.c files share and nobody else
 * uses: the stage shapes and the pieces of one evaluation.
 */
#ifndef PARLEARN_CORE_COSTMODEL_INT_H
#define PARLEARN_CORE_COSTMODEL_INT_H

#include "core/engine/costmodel.h"

/*
 * Share of compute time lost while collectives run beside it: NCCL's
 * kernels take SMs and HBM bandwidth from the compute kernels. [CALC]
 * charges 0.15 of the overlapped time for every network of its A100 and
 * H100 systems ("processor_usage" in calculon systems/a100_80g.json and
 * h100_80g_nvl8.json, applied in calculon/llm/llm.py).
 */
#define CM_COMM_SM_SHARE	0.15

/* Bytes of PyTorch's fp32 "opmath" type, which bf16 is upcast to. */
#define CM_OPMATH	4.0

/* Compute that communication of t slows when a window hides it, s. */
static inline double
cm_comm_slowed(double t, double window)
{
	return CM_COMM_SM_SHARE * (t < window ? t : window);
}

/* The three kinds of pipeline stage whose load can differ. */
struct cm_stages {
	int	first;		/* layers on stage 0 */
	int	middle;		/* layers on a middle stage */
	int	last;		/* layers on stage p-1 */
};

/* One layer for one micro-batch on one GPU, by kind (costmodel_time.c). */
struct cm_layer_t {
	double	gemm;		/* matrix products, s */
	double	attn;		/* attention core, s */
	double	elem;		/* element-wise HBM traffic, s */
	int	kernels;	/* kernels launched */
};

/* Layers per stage, trimming first/last as Llama 3 did (see .c). */
void	cm_stage_layers(const struct cm_config *, struct cm_stages *);

/*
 * Layers in model chunk `chunk` (0 .. v-1) of stage r: Llama 3's missing
 * layers come out of the first chunk of the first stage and the last
 * chunk of the last stage ([LLAMA3] 3.3.2; costmodel.c).
 */
int	cm_chunk_layers(const struct cm_config *, int r, int chunk);

/* Element-wise work of one layer or of the loss, one micro-batch. */
struct cm_elem {
	double	fwd, bwd;	/* HBM bytes forward, backward */
	double	fwd_s, bwd_s;	/* their time, each kernel at the HBM
				 * efficiency of its size (cm_hbm_s) */
	int	kf, kb;		/* kernels launched forward, backward */
};

/* Time of k kernels moving `bytes` between them through HBM, s. */
double	cm_hbm_s(const struct cm_config *, double bytes, double kernels);

/*
 * Set while cm_valid_quick asks only whether a layout is valid: the
 * checks then skip translating and formatting the reason (gettext was a
 * seventh of a large search). CM_WHY(s) is _(s), or s untranslated.
 */
extern _Thread_local int cm_reason_quiet;
#define CM_WHY(s)	(cm_reason_quiet ? (s) : _(s))

/* Achieved fraction of HBM bandwidth of one kernel moving `bytes`. */
double	cm_hbm_eff(double bytes);

/* What cfg->kernels launches between the products (costmodel_kernels.c). */
void	cm_layer_elem(const struct cm_config *, struct cm_elem *);

/* Final norm and cross-entropy on the last stage, one micro-batch. */
void	cm_loss_elem(const struct cm_config *, struct cm_elem *);

/* The embedding's dense weight gradient on the first stage. */
void	cm_embed_elem(const struct cm_config *, struct cm_elem *);

/* 1 when Q, K, V (and gate, up) are separate products (PyTorch code). */
int	cm_split_products(const struct cm_config *);

/* HBM bytes of the optimizer step per parameter the GPU owns. */
double	cm_optimizer_bytes(const struct cm_config *);


/* Kernels the optimizer step launches over `own` parameters held in
 * `tensors` weight tensors. */
double	cm_optimizer_kernels(const struct cm_config *, double own,
	    double tensors);

/* 1 when bf16 runs as torch.autocast over fp32 weights (see .c). */
int	cm_autocast(const struct cm_config *);

/* Mixed-precision casts per parameter per micro-batch (autocast). */
double	cm_amp_bytes(const struct cm_config *, double microbatches);

/* Activations eager autograd saves beyond the fused set, one layer, B. */
double	cm_act_extra_layer(const struct cm_config *);

/* Bytes per logit the loss holds at its peak. */
double	cm_loss_act_bytes(const struct cm_config *);

/*
 * Elements of each weight tensor of one layer on one TP rank, as the
 * framework creates them (fused QKV or separate Q, K, V ...): up to max
 * into elems; returns how many.
 */
int	cm_layer_tensors(const struct cm_config *, double *elems, int max);

/* Element size of weights and activations, bytes (2 bf16, 4 fp32). */
double	cm_elem_bytes(const struct cm_config *);

/* Parameters of one transformer layer held by one TP rank. */
double	cm_layer_params_rank(const struct cm_config *);

/*
 * The host (costmodel_host.c, where each figure's source is): seconds
 * per operator or launch, from published measurements.
 */
#define CM_HOST_PY_OP_S			6.8e-6	/* op from Python */
#define CM_HOST_CPP_OP_S		1.0e-6	/* op from C++ */
#define CM_HOST_NODE_S			3.5e-6	/* autograd engine, a node */
#define CM_HOST_LAUNCH_S		3.0e-6	/* cuLaunchKernel */
#define CM_HOST_INDUCTOR_KERNEL_S	6.8e-6	/* Inductor, a kernel */
#define CM_HOST_INDUCTOR_GRAPH_S	37.5e-6	/* Inductor, a graph call */
#define CM_HOST_GRAPH_LAUNCH_S		3.5e-6	/* cudaGraphLaunch */
#define CM_HOST_MODULE_S		5.0e-6	/* nn.Module __call__ */
#define CM_HOST_CHECKPOINT_S		350e-6	/* torch.utils.checkpoint call */

/* A stage's kernels for one micro-batch, as the host issues them. */
struct cm_host_in {
	int	layers;
	double	lkf, lkb;	/* one layer's forward, backward kernels */
	double	lkr;		/* one layer's recomputed forward kernels */
	double	xkf, xkb;	/* embedding, logits and loss */
	double	lcast;		/* autocast's weight casts, one layer */
};

/* Host time of one micro-batch's forward and backward, s. */
struct cm_host_mb {
	double	fwd, bwd;
};

void	cm_host_mb(const struct cm_config *, const struct cm_host_in *,
	    struct cm_host_mb *);

/* Host time of the optimizer step launching `kernels`, s. */
double	cm_host_optimizer(const struct cm_config *, double kernels);

/* Host time to launch n DP/ZeRO collectives, s. */
double	cm_host_collectives(const struct cm_config *, double n);

/*
 * Time the GPU waits for the host over a step of m micro-batches (host
 * h, GPU gf + gb each), the collectives' host time hc, the optimizer's
 * host ho and GPU go time, s.
 */
double	cm_host_exposed(double m, const struct cm_host_mb *h, double gf,
	    double gb, double hc, double ho, double go);

/* Fill the memory fields of r (cfg, microbatches set). */
void	cm_memory(const struct cm_config *, struct cm_result *r);

/* Fill the time fields of r (memory and params already set). */
void	cm_time(const struct cm_config *, struct cm_result *r);

/*
 * DP / ZeRO / FSDP traffic of one step (costmodel_dp.c): fills t_dp,
 * t_dp_exposed, dp_bytes, dp_collectives and the DP group and its
 * bandwidth from
 * params_gpu, stage_layers, microbatches, t_fwd_mb and t_bwd_mb.
 */
void	cm_dp_time(const struct cm_config *, struct cm_result *r);

/*
 * The copies PyTorch runs on the compute stream around its DP
 * collectives, for one micro-batch on the busiest stage, s: FSDP2's into
 * the layers' parameters after each all-gather (*fwd, and *bwd when the
 * backward gathers again) and into the reduce-scatter's input (*bwd);
 * DDP's into its buckets and back (*bwd, once a step). 0 for other
 * frameworks (costmodel_dp.c).
 */
void	cm_dp_copies(const struct cm_config *, const struct cm_result *r,
	    double *fwd, double *bwd);

/*
 * The data-parallel group ZeRO-3 shards over: the whole DP group, or
 * under HSDP its ranks inside one node (costmodel_dp.c).
 */
void	cm_shard_group(const struct cm_config *, struct mesh_span *g);

/*
 * Slow down the traffic of groups that cross nodes on the same NICs while
 * DP/ZeRO traffic runs behind compute (costmodel_net.c); after cm_time.
 */
void	cm_nic_share(const struct cm_config *, struct cm_result *r);

/* cm_validate without formatting a message; returns 0 or -1. */
int	cm_valid_quick(const struct cm_config *);

/* Evaluate a validated cfg without reasons (search inner loop). */
void	cm_evaluate_quick(const struct cm_config *, struct cm_result *r);

/* cm_evaluate_quick in two halves: memory, headroom and frameworks (the
 * setup of cfg's framework applied), then the times from r->cfg. */
void	cm_evaluate_memory(const struct cm_config *, struct cm_result *r);
void	cm_evaluate_time(struct cm_result *r);

/*
 * cm_search's grid of layouts (layout_grid.c): the mesh's walk over the
 * axis table (mesh_walk.c: TP each power of two up to 8 x GPUs per node,
 * for each TP every PP up to the layers, DP the rest, each dividing what
 * is left), without TP groups across nodes when cfg.tp_in_node. Heads,
 * batch and memory are not looked at here. Walk it with
 *	cm_grid_start(&g, c); while (cm_grid_next(&g)) cm_grid_apply(&g, c);
 */
struct cm_grid {
	const struct cm_config	*cfg;
	struct mesh_walk	 walk;	/* degree[]: the current layout */
};

void	cm_grid_start(struct cm_grid *, const struct cm_config *);
int	cm_grid_next(struct cm_grid *);	/* 1 with a layout, 0 at the end */
/* Set c's degrees to the current layout; is c's layout the current one? */
void	cm_grid_apply(const struct cm_grid *, struct cm_config *c);
int	cm_grid_is(const struct cm_grid *, const struct cm_config *c);

/*
 * One layer's matrix products on one rank for one micro-batch
 * (costmodel_linears.c): M x K by K x N, count of them (E for the
 * experts' grouped product), what kind.
 */
#define CM_LINEAR_ROUTER	1	/* MoE router: unsplit, never FP8 */
#define CM_LINEAR_EXPERT	2	/* a routed expert's, count = E */
#define CM_MAX_LINEARS		12
struct cm_linear {
	double	m, k, n, count;
	int	routed;			/* 0 or a CM_LINEAR_ kind */
};
int	cm_layer_linears(const struct cm_config *, struct cm_linear *);

/*
 * Expert parallelism (costmodel_ep.c): its degree (1 without), why it
 * cannot run, its all-to-alls for one MoE layer and micro-batch (bytes a
 * rank sends forward; forward and backward times, recompute included),
 * and the frameworks that run it (FW_BIT set; all without EP).
 */
struct cm_ep_layer {
	double	bytes, fwd, bwd;
	int	in_domain;		/* the group is in one NVLink domain */
};
/* One layer's routed-expert parameters on a TP rank, all E of them; and
 * in the whole layer. */
double		 cm_layer_routed_rank(const struct cm_config *);
double		 cm_layer_routed_all(const struct cm_config *);
/* Tokens a rank dispatches to the experts per micro-batch: its own under
 * expert TP 1, the TP group's gathered under expert TP = TP. */
double		 cm_moe_tokens(const struct cm_config *);
const char	*cm_ep_invalid(const struct cm_config *);
/* The busiest EP rank's routed tokens over the even share (>= 1). */
double		 cm_moe_load(const struct cm_config *);
void		 cm_ep_layer(const struct cm_config *, struct cm_ep_layer *);
unsigned	 cm_ep_frameworks(const struct cm_config *);

/* A MoE layer's own memory-bound work (costmodel_moe.c): bytes and
 * kernels forward and backward. */
struct cm_moe_elem {
	double	fwd, bwd;
	int	kf, kb;
};
void	cm_moe_elem(const struct cm_config *, struct cm_moe_elem *);

/* K/V width on one TP rank, elements per token: the K/V heads split over
 * TP, or one head each once TP passes them ([MEGA-MEM]). */
double	cm_kv_width(const struct cm_config *);

/*
 * Context parallelism (costmodel_cp.c). Tokens of one micro-batch on one
 * rank: seq x micro-batch / cp.
 */
double	cm_rank_tokens(const struct cm_config *);
/* Why cfg's CP cannot run (sequence, kernel, heads), or NULL. */
const char	*cm_cp_invalid(const struct cm_config *);
/* One layer's K/V exchange for one micro-batch on one rank. */
struct cm_cp_layer {
	double	fwd, bwd;			/* transfer time, s */
	double	fwd_exposed, bwd_exposed;	/* not hidden by attention */
	double	bytes;				/* sent by the rank */
	double	buffers;			/* K/V in flight, bytes */
};
void	cm_cp_layer(const struct cm_config *, struct cm_result *,
	    double fwd_attn, double bwd_attn, struct cm_cp_layer *);
/* K/V in flight for one layer, bytes. */
double	cm_cp_buffers(const struct cm_config *);
/* FW_BIT set of the frameworks that run cfg's CP (all without CP). */
unsigned	cm_cp_frameworks(const struct cm_config *);

/* Attention scores' width a layer: a d_h, averaged past dense GQA
 * (MLA's d_qk and d_v, windowed layers; hw_mla.c). */
double	cm_attn_width(const struct hw_model *);

/* MLA's four projections before W_O (costmodel_linears.c); n of them. */
int	cm_mla_linears(const struct cm_config *, struct cm_linear *);

/* Non-uniform layers (costmodel_layers.c): c with a dense MLP in every
 * layer, and the dense layers on stage r (0, p - 1, or 1: the middle
 * stage with the fewest). */
void	cm_dense_config(const struct cm_config *, struct cm_config *);
int	cm_stage_dense(const struct cm_config *, int r);
double	cm_layer_params_rank_ext(const struct cm_config *);
double	cm_mla_act(const struct cm_config *, double sb);
void	cm_dense_memory(const struct cm_config *, int r, int layers, long mb,
	    double moe_act, double *held, double *sharded, double *act);

/* cm_gemm_eta_of, remembered per shape for the last GPU (costmodel_memo.c). */
double	cm_gemm_eta_memo(const struct cm_config *, const struct hw_gpu *,
	    double m, double k, double n, double groups);

/* count(m, active), remembered for the last model (costmodel_memo.c). */
double	cm_params_memo(const struct hw_model *, int active,
	    double (*count)(const struct hw_model *, int));

/* EP's all-to-alls a micro-batch leaves exposed (costmodel_ep.c). */
double	cm_ep_exposed_mb(const struct cm_config *, double a2a, double comp,
	    double m);

/*
 * ZB-H1 and DualPipe (costmodel_sched.c). split_backward: the schedule
 * runs B and W apart. invalid: why the schedule cannot run m micro-batches
 * on c's stages, or NULL. bubble_slots: the bubble in micro-batch times
 * tmb of the slowest stage, whose forward is f and weight gradient w.
 * paired: micro-batches whose forward runs beside another's backward.
 * param_copies: stages' weights a device holds. inflight: micro-batches
 * whose activations a DualPipe device holds at the peak.
 */
int	cm_sched_split_backward(const struct cm_config *);
const char *cm_sched_invalid(const struct cm_config *, long m);
double	cm_sched_bubble_slots(const struct cm_config *, double tmb, double f,
	    double w);
double	cm_sched_paired(const struct cm_config *, double m);
double	cm_sched_param_copies(const struct cm_config *);
double	cm_sched_inflight(const struct cm_config *, long m);

#endif
