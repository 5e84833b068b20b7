/*
 * costmodel.h - memory, time and throughput of one DP x TP x PP training
 * layout, and a search over every valid layout.
 *
 * The formulas and their sources are in reference/costmodel.md; each one is
 * cited beside its code. Units: bytes, seconds, FLOPs, FLOP/s, bytes/s,
 * parameters (not billions) unless a name says otherwise. GB = 1e9 bytes.
 *
 * Use: cm_config_default, then set the model, GPU and knobs (or
 * cm_config_from_json), then cm_evaluate or cm_search. Nothing allocates;
 * results are plain structs the caller owns.
 */
#ifndef PARLEARN_CORE_COSTMODEL_H
#define PARLEARN_CORE_COSTMODEL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/pipeline.h"
#include "core/engine/hardware.h"
#include "core/mesh/mesh.h"

enum cm_recompute { CM_RECOMPUTE_NONE, CM_RECOMPUTE_SELECTIVE,
	CM_RECOMPUTE_FULL };
enum cm_optimizer { CM_OPT_ADAM, CM_OPT_SGD };
/*
 * How the optimizer step runs (costmodel_kernels.c): auto is the
 * framework's (foreach under eager and compiled kernels, the fused Adam
 * of Megatron / Apex under fused); foreach, fused and for-loop are
 * torch.optim's three paths (foreach=True, fused=True, foreach=False).
 */
enum cm_opt_impl { CM_OPT_IMPL_AUTO, CM_OPT_IMPL_FOREACH, CM_OPT_IMPL_FUSED,
	CM_OPT_IMPL_FORLOOP };
/*
 * fp8: the linear layers' matrix products in FP8 with bf16 weights,
 * activations and everything else, as Transformer Engine and torchao
 * float8 train (costmodel_fp8.c); the recipe says how it scales.
 */
enum cm_precision { CM_PREC_BF16, CM_PREC_FP32, CM_PREC_FP8 };
enum cm_fp8_recipe { CM_FP8_TENSORWISE, CM_FP8_ROWWISE, CM_FP8_DELAYED,
	CM_FP8_MXFP8 };
/*
 * Attention kernel: "flash" is the fastest fused kernel for the GPU
 * (FlashAttention-2 on Ampere; FlashAttention-3 / cuDNN on Hopper, as
 * Transformer Engine and recent PyTorch pick it), "flash2" is
 * FlashAttention-2 everywhere (PyTorch's SDPA default on Hopper before its
 * cuDNN backend became the default), "plain" materialises the scores.
 */
enum cm_attention { CM_ATTN_FLASH, CM_ATTN_PLAIN, CM_ATTN_FLASH2 };
/*
 * How context parallelism exchanges K and V (costmodel_cp.c): pass-KV
 * round a ring, an all-gather (Llama 3), or Ulysses' all-to-alls.
 */
enum cm_cp_impl { CM_CP_RING, CM_CP_ALLGATHER, CM_CP_ULYSSES };

/*
 * Which kernels the framework launches between the matrix products
 * (costmodel_kernels.c): PyTorch eager (composite RMSNorm, rotary
 * embedding and SwiGLU as several element-wise kernels, separate Q, K, V
 * and gate/up products, GQA heads copied, fp32 cross-entropy, foreach
 * AdamW), torch.compile (the element-wise chains fused, products and the
 * optimizer as in eager), or fused (Megatron-Core / Transformer Engine:
 * fused norms, rotary, bias-activation, merged QKV and gate/up products,
 * fused cross-entropy, fused Adam).
 */
enum cm_kernels { CM_KERNELS_EAGER, CM_KERNELS_COMPILED, CM_KERNELS_FUSED };

/*
 * How ZeRO-3 gathers its weights: one collective per layer, prefetched
 * behind the previous layer (PyTorch FSDP, DeepSpeed since PR 1188), or
 * one synchronous collective per weight tensor with nothing in flight
 * behind compute (DeepSpeed's ZeRO-3 as released in 2021).
 */
enum cm_gather { CM_GATHER_LAYER, CM_GATHER_PARAM };

/*
 * How collectives and products are priced (issue 25 part 6): ring is one
 * ring on NCCL's Simple protocol with the measured bus bandwidth, tuned is
 * NCCL's own choice of algorithm and protocol by message size
 * (costmodel_nccl.c); rule is the shape rule of costmodel_time.c, tiled
 * prices wave and tile quantization on the GPU's SMs (costmodel_gemm.c),
 * combined (the default) the slower of the two. The collectives' default
 * is ring: see costmodel_nccl.h for why; costmodel_gemm.h for the products.
 */
enum cm_nccl_model { CM_COLL_RING, CM_COLL_TUNED };
enum cm_gemm_model { CM_GEMM_COMBINED, CM_GEMM_RULE, CM_GEMM_TILED };

/*
 * Which framework a layout is priced as (framework_setup.c): auto prices
 * a single layout with the settings as given (PyTorch eager defaults) and
 * makes the search price every layout once per framework that runs it;
 * the others set the kernels, gradient and reduce dtypes, optimizer and
 * pipeline sends as that framework runs them (each CM_FW_x is 1 + its
 * enum fw_id, framework.h).
 */
enum cm_framework { CM_FW_AUTO, CM_FW_MEGATRON, CM_FW_DEEPSPEED,
	CM_FW_PYTORCH };

/* Setup knobs given explicitly (cm_config.setup_set): a framework's
 * pricing leaves them as set. */
#define CM_SET_KERNELS		(1u << 0)
#define CM_SET_GRAD_DTYPE	(1u << 1)
#define CM_SET_REDUCE_DTYPE	(1u << 2)
#define CM_SET_OPT_IMPL		(1u << 3)
#define CM_SET_PP_SENDS		(1u << 4)
#define CM_SET_BUCKET		(1u << 5)

/* PyTorch DDP's gradient bucket: bucket_cap_mb = 25 MiB
 * (torch/nn/parallel/distributed.py). */
#define CM_DDP_BUCKET_BYTES	(25.0 * 1048576)

/*
 * The parallel axes, their degrees' product, the rank numbering and where
 * each axis's groups sit are the mesh's (core/mesh/mesh.h); a config's
 * rank_order is a mesh order: 0, tp-pp-dp, puts the TP ranks of a group
 * on consecutive GPUs (one node), then the PP stages, then the replicas
 * (Megatron-LM, [LLAMA3] Figure 5); dp-pp-tp makes TP the outermost axis,
 * the classic misconfiguration that lays a TP group one rank per node.
 */

struct cm_config {
	struct hw_model		model;		/* architecture (copied) */
	struct hw_gpu		gpu;		/* GPU type (copied) */
	int			gpus;		/* n, GPUs in the job */
	int			gpus_per_node;	/* g */
	int			nvlink_domain;	/* GPUs per NVLink domain,
						 * 0: the node */
	double			intra_bw;	/* per GPU per direction, bytes/s */
	double			inter_bw;	/* per GPU per direction, bytes/s */
	double			intra_lat_s;	/* alpha inside a node, s */
	double			inter_lat_s;	/* alpha across nodes, s */
	double			power_limit;	/* W, 0 = the GPU's TDP */
	double			intra_eff;	/* achieved/nominal NVLink, 0..1 */
	double			inter_eff;	/* achieved/nominal network, 0..1 */
	long			global_batch;	/* B, samples per step */
	int			micro_batch;	/* b, samples */
	/* The degrees d, t, p, by axis of the mesh or by name; the names
	 * in enum mesh_axis order (costmodel_mesh.c checks it). */
	union {
		int		degree[MESH_N_AXES];
		struct {
			int	dp, tp, pp, cp;
		};
	};
	int			zero;		/* ZeRO stage 0..3 (FSDP = 3) */
	enum cm_recompute	recompute;
	int			seq_parallel;	/* bool */
	enum pipe_schedule	schedule;
	int			virtual_stages;	/* v (interleaved), else 1 */
	enum cm_optimizer	optimizer;	/* adam, or sgd with momentum */
	enum cm_precision	precision;
	enum cm_fp8_recipe	fp8_recipe;	/* under precision fp8 */
	int			fp8_attention;	/* bool: attention's products
						 * in FP8 too (TE's fp8_dpa) */
	enum cm_attention	attention;
	enum cm_cp_impl		cp_impl;	/* with cp > 1 */
	double			moe_imbalance;	/* busiest EP rank's routed
						 * tokens over the even share;
						 * 0, 1: even */
	double			capacity_factor; /* an expert takes at most
						  * this times its even share,
						  * the rest dropped; 0:
						  * dropless */
	int			etp;		/* expert TP: the experts split
						 * over etp ranks (dividing TP);
						 * 0: TP's degree */
	int			ep;		/* expert parallelism: routed
						 * experts over ep of the DP x CP
						 * ranks (costmodel_ep.c); 0, 1:
						 * none */
	int			dp_overlap;	/* bool: DP reduce overlaps bwd */
	int			pp_scatter_gather; /* bool: [NAR21] 4.1 split PP sends
						    * across TP ranks (Megatron); 0 =
						    * every TP rank sends the whole
						    * tensor (DeepSpeed's pipeline) */
	int			grad_accum_fp32; /* bool: 4-byte gradients (key
						  * grad_dtype; Megatron's main
						  * grads) */
	int			reduce_fp32;	/* bool: DP/ZeRO reduce gradients
						 * in fp32 (key reduce_dtype) */
	enum cm_opt_impl	optimizer_impl;	/* auto, foreach, fused, for-loop */
	double			bucket_bytes;	/* ZeRO 0-2 gradient (and ZeRO-1
						 * weight) collectives are this
						 * size, bytes */
	double			buffers_bytes;	/* CUDA context, workspaces, bytes */
	double			reserve_frac;	/* held back (fragmentation), 0..1 */
	/* Network, sharding and overlap (issue 12; costmodel.md f). */
	int			rank_order;	/* mesh order, innermost first */
	double			coll_base_s;	/* fixed cost per collective, s */
	int			reshard_after_forward; /* bool: ZeRO-3 frees
						    * gathered weights after the
						    * forward, gathers again in the
						    * backward (FSDP default) */
	int			hsdp;		/* bool: ZeRO-3 shards inside a
						    * node, replicates across */
	int			nvls;		/* bool: all-reduces inside a node
						 * use NVLink SHARP where the GPU
						 * has it (costmodel_net.c) */
	int			tp_overlap;	/* bool: TP collectives overlap
						    * the GEMMs (Megatron-Core TP
						    * overlap, PyTorch async TP) */
	int			ep_overlap;	/* bool: EP's all-to-alls run
						 * beside another micro-batch's
						 * compute (costmodel_ep.c) */
	double			kernel_issue_s;	/* host time to issue 1 kernel, s */
	int			cuda_graphs;	/* bool: captured regions launch
						 * as CUDA graphs (costmodel_host.c) */
	enum cm_kernels		kernels;	/* what runs between the products */
	enum cm_gather		weight_gather;	/* ZeRO-3 weight gathers */
	double			headroom;	/* search: least free share of GPU
						 * memory a ranked layout keeps,
						 * 0..1 (default 0.10) */
	int			any_framework;	/* bool: search also ranks layouts
						 * no framework runs (framework.h) */
	int			tp_in_node;	/* bool: search only layouts whose
						 * TP group stays in one node */
	unsigned		search_keep;	/* CM_KEEP_* bits: searched knobs
						 * the search leaves as set */
	enum cm_framework	framework;	/* priced as; auto: as set */
	enum cm_nccl_model	nccl_model;	/* ring (default) or tuned */
	enum cm_gemm_model	gemm_model;	/* combined (default), rule or
						 * tiled */
	unsigned		setup_set;	/* CM_SET_* bits: given keys */
};

/* Knobs cm_search varies unless cfg.search_keep holds them as set. */
#define CM_KEEP_MICRO_BATCH	(1u << 0)
#define CM_KEEP_SCHEDULE	(1u << 1)	/* schedule and v */
#define CM_KEEP_ZERO		(1u << 2)
#define CM_KEEP_RECOMPUTE	(1u << 3)
#define CM_KEEP_SP		(1u << 4)
#define CM_KEEP_FSDP		(1u << 5)	/* reshard_after_forward, hsdp */
#define CM_KEEP_EP		(1u << 6)

/* Limits the search and the reasons use. */
#define CM_MAX_REASONS		7
#define CM_REASON_LEN		200
#define CM_SEARCH_MAX		32
#define CM_TIE_TOL		0.03	/* step times within 3 % tie */

/* What a reason says about its layout. */
enum cm_effect {
	CM_NOTE,		/* a fact about this layout alone */
	CM_WIN,			/* better than the layout it is compared with */
	CM_LOSS			/* worse than it */
};

/*
 * One reason: a stable code for scripts ("tp_comm_share", "headroom" ...,
 * listed in costmodel_explain.c) and its translated sentence.
 */
struct cm_reason {
	const char		*code;		/* static, never NULL once set */
	enum cm_effect		 effect;
	int			 vs;		/* rank row (1-based) compared
						 * with, 0 for none */
	char			 text[CM_REASON_LEN];
};

struct cm_result {
	struct cm_config	cfg;		/* the layout evaluated */
	int			valid;		/* bool: the layout is possible */
	long			microbatches;	/* m = B / (b d) */
	int			stage_layers;	/* layers on the busiest stage */
	int			slow_stage;	/* the stage pacing the step:
						 * 0, p - 1 or 1 for a middle */
	int			slow_dense;	/* its dense layers (models
						 * with dense_layers) */
	int			slow_layers;	/* all its layers */
	double			params;		/* N, whole model, parameters */
	double			params_active;	/* a token's (MoE: k experts) */
	double			params_gpu;	/* on the most loaded GPU */
	double			mem_params;	/* bytes per GPU (worst stage) */
	double			mem_grads;	/* bytes */
	double			mem_optim;	/* bytes */
	double			mem_act;	/* bytes */
	double			mem_other;	/* the five below, bytes */
	double			mem_buffers;	/* context, workspaces */
	double			mem_nccl;	/* NCCL's per communicator */
	double			mem_gathered;	/* ZeRO-3 weights held whole:
						 * the layers in flight, or
						 * the stage's under PP */
	double			mem_grads_whole; /* ZeRO-3 gradients held
						  * unsharded before their
						  * reduce-scatter */
	double			mem_fp8;	/* FP8 weight copies, bytes */
	double			mem_total;	/* bytes */
	double			mem_gpu;	/* capacity, bytes */
	double			mem_usable;	/* capacity minus reserve, bytes */
	int			fits;		/* bool: mem_total <= usable */
	double			act_layer;	/* activations of 1 layer, 1 mb, B */
	double			flops_model;	/* per step, FLOPs */
	double			flops_hw;	/* per step incl. recompute, FLOPs */
	double			eta;		/* achieved / peak on the layers */
	double			t_fwd_mb;	/* 1 micro-batch fwd on stage, s */
	double			t_bwd_mb;	/* 1 micro-batch bwd on stage, s */
	double			t_compute;	/* m micro-batches of compute, s */
	double			t_tp;		/* TP collectives per step, s */
	double			t_pp;		/* PP send/recv per step, s */
	double			t_cp;		/* CP K/V exchange per step, s */
	double			t_cp_exposed;	/* the part attention does not
						 * hide, s */
	double			cp_bytes;	/* CP bytes per GPU per step */
	double			t_ep;		/* EP all-to-alls per step, s */
	double			t_ep_exposed;	/* of them on the critical
						 * path (all without ep_overlap) */
	double			ep_bytes;	/* EP bytes per GPU per step */
	double			mem_cp;		/* CP's K/V in flight, bytes (in
						 * buffers) */
	double			t_dp;		/* DP/ZeRO collectives total, s */
	double			t_dp_exposed;	/* part not hidden by bwd, s */
	double			t_exposed_comm;	/* tp + pp + dp exposed, s */
	double			t_bubble;	/* pipeline idle time, s */
	double			t_optimizer;	/* optimizer step (HBM bound), s */
	double			t_gemm;		/* matrix products in t_compute, s */
	double			t_attn;		/* attention core in t_compute, s */
	double			t_elementwise;	/* norms, activations, residual
						    * adds, dropout, softmax, loss
						    * through HBM in t_compute, s */
	double			t_dp_copies;	/* of it, PyTorch's copies
						 * around the DP collectives
						 * (FSDP2, DDP), s */
	double			t_overhead;	/* host-bound kernel issue not
						    * hidden by GPU work, s */
	double			t_host_fwd;	/* host issuing forwards, s/step */
	double			t_host_bwd;	/* backwards (recompute incl.) */
	double			t_host_opt;	/* optimizer step and collectives */
	double			t_tp_exposed;	/* TP time on the critical path */
	double			t_comm_slowed;	/* compute slowed by the
						 * collectives hidden behind
						 * it (a part of t_step), s */
	double			t_nic_shared;	/* step time added because groups
						 * crossing nodes share the NICs
						 * with DP/ZeRO traffic (part of
						 * the tp/pp/dp exposed times and
						 * the bubble), s */
	double			dp_bytes;	/* DP/ZeRO bytes per GPU per step */
	long			dp_collectives;	/* DP/ZeRO collectives per step */
	/* Each axis's group and its bus bandwidth (a PP hop's for PP). */
	struct mesh_span	group[MESH_N_AXES];
	double			group_bw[MESH_N_AXES];
	double			t_step;		/* s */
	double			bubble_fraction; /* (p-1)/(v m + p-1) */
	double			tokens_per_s;	/* tokens/s, whole job */
	double			tflops_per_gpu;	/* model FLOP/s per GPU / 1e12 */
	double			hw_tflops_per_gpu; /* hardware FLOP/s / 1e12 */
	double			mfu;		/* model FLOPs utilisation, 0..1 */
	double			hfu;		/* hardware FLOPs utilisation */
	int			tp_inter;	/* bool: TP group crosses nodes */
	int			pp_inter;	/* bool: a PP hop crosses nodes */
	int			dp_inter;	/* bool: DP group crosses nodes */
	double			headroom;	/* free share of GPU memory:
						 * 1 - mem_total / mem_gpu */
	unsigned		frameworks;	/* FW_BIT set (framework.h) */
	unsigned		priced_as;	/* FW_BIT set this row's price
						 * is for (0: as set) */
	int			rank;		/* in a search: tie-aware rank,
						 * 1 = best; 0 outside a search */
	int			tied;		/* bool: shares its rank */
	int			n_reasons;
	struct cm_reason	reasons[CM_MAX_REASONS];
};

struct cm_search {
	struct cm_result	top[CM_SEARCH_MAX]; /* best first, eligible */
	int			n_top;
	int			max;		/* list size asked for */
	long			evaluated;	/* layouts evaluated */
	long			fitting;	/* of those, how many fit */
	long			low_headroom;	/* fit, but keep less free memory
						 * than cfg.headroom */
	long			no_framework;	/* fit with headroom, but no
						 * framework runs them */
	long			eligible;	/* fit, headroom, framework */
	struct cm_result	closest;	/* when none is eligible: the
						 * nearest to it (see .c) */
	int			have_closest;	/* bool */
};

/* Why a result is left out of the ranking (cm_search_excluded). */
enum cm_exclusion {
	CM_EX_NONE,		/* eligible: ranked */
	CM_EX_INVALID,		/* not a valid layout */
	CM_EX_FIT,		/* does not fit in usable memory */
	CM_EX_HEADROOM,		/* fits with less than cfg.headroom free */
	CM_EX_FRAMEWORK		/* no framework runs it (any_framework off) */
};

/*
 * Defaults: 1 GPU of gpu, 8 GPUs per node, links and per-step latencies
 * from the GPU entry, link efficiencies as NCCL measures them (NVLink 0.77,
 * network 0.96), NCCL's 8.4 us base latency per collective, rank order
 * tp-pp-dp, micro-batch 1, global batch from the model or 512, layout
 * 1x1x1, ZeRO 0, selective recompute, no SP, 1F1B, v = 1, Adam, bf16,
 * flash attention, DP overlap on, TP overlap off, ZeRO-3 resharding after
 * the forward, per-layer ZeRO-3 gathers, no HSDP, 10 us to issue a kernel,
 * PyTorch eager kernels (see costmodel_kernels.c for why), buffers 1 GB
 * (context and workspaces; NCCL's are added per communicator), reserve
 * 5 %; the search asks for 10 % free memory and a framework that runs the
 * layout.
 */
void	cm_config_default(struct cm_config *, const struct hw_model *,
	    const struct hw_gpu *);

/*
 * Use [CALC]'s derated bandwidth fractions (NVLink 0.65, InfiniBand 0.9,
 * from its A100 system file) instead of NCCL's measured ones.
 */
void	cm_config_realistic(struct cm_config *);

/*
 * Layer-equivalents of activations stage r (0-based) of `layers` layers
 * holds at its peak with m micro-batches ([KOR22] 4.2.3): L on stage 0
 * under 1F1B, m L/p under GPipe; interleaved, the chunk forwards
 * Megatron's schedule runs before the first backward, each with its own
 * chunk's layers (layers is then taken from cfg), L (1 + (p-1)/(p v)) on
 * stage 0 with equal chunks.
 */
double	cm_inflight_layers(const struct cm_config *, int r, int layers,
	    long m);

/* The ranges every configuration is held to, whoever built it. */
#define CM_BW_MIN_GBS	1e-3		/* link bandwidth, GB/s per GPU */
#define CM_BW_MAX_GBS	1e6
#define CM_GPUS_MAX	10000000	/* as costmodel_json's bound */
#define CM_BATCH_MAX	100000000	/* global batch, samples */

/*
 * The ranges alone (GPUs, batches, bandwidths within the bounds above),
 * checked before any arithmetic so none can overflow or lose meaning.
 * 0, or -1 with err naming the allowed range.
 */
int	cm_check_ranges(const struct cm_config *, struct pl_err *err);

/*
 * Check a configuration before evaluating: cm_check_ranges, then the
 * model and the layout. Returns 0, or -1 with err->msg saying why in
 * plain words (DP x TP x PP != GPUs, TP not dividing heads, batch not
 * divisible, ...).
 */
int	cm_validate(const struct cm_config *, struct pl_err *err);

/*
 * Evaluate one layout into r (fully overwritten). Returns 0, or -1 with
 * err set when cm_validate refuses the configuration.
 */
int	cm_evaluate(const struct cm_config *, struct cm_result *r,
	    struct pl_err *err);

/* Fill r->reasons with plain-word reasons (done by cm_evaluate). */
void	cm_explain(struct cm_result *r);

/*
 * The ZeRO stage as a table shows it: "0" .. "3", with "H" for HSDP and
 * "K" when ZeRO 3 keeps the gathered weights from forward to backward
 * (reshard_after_forward off, no PP): "3", "3H", "3K", "3HK". Returns buf.
 */
char	*cm_zero_label(const struct cm_config *, char *buf, size_t size);

/*
 * Replace the reasons of each listed row of s with what it wins and loses
 * against the rows next to it, computed from the results (done by
 * cm_search). s->top[i].rank must be set.
 */
void	cm_explain_ranked(struct cm_search *s);

/*
 * Every valid layout for cfg's model, cluster and global batch: DP x TP x
 * PP = GPUs, TP a power of two up to 8 g dividing the heads, PP dividing
 * L (see costmodel_search.c), each ZeRO stage (for ZeRO 3 with and without
 * reshard after forward and HSDP), recompute mode, micro-batch 1, 2, 4, 8,
 * SP and interleaving, except the knobs cfg.search_keep holds, plus cfg's
 * own layout when it is valid. Every other setting (attention, precision,
 * optimizer, links, TP overlap ...) is kept as cfg has it. Ranks the eligible ones (cm_search_excluded) by
 * step time, keeps the best max_top (<= CM_SEARCH_MAX), best per (d, t,
 * p, b, schedule, v), sets their tie-aware rank (within CM_TIE_TOL of a
 * tier's first row = same rank) and their comparative reasons. Returns 0
 * or -1 with err set when cfg cannot be searched (bad model, no GPUs).
 */
int	cm_search(const struct cm_config *, int max_top, struct cm_search *s,
	    struct pl_err *err);

/* Whether r would be ranked under its cfg's headroom and framework rule. */
enum cm_exclusion	cm_search_excluded(const struct cm_result *r);

/*
 * Why r is left out of the ranking, one translated sentence into buf
 * (empty when it is eligible). Returns buf.
 */
char	*cm_search_why_excluded(const struct cm_result *r, char *buf,
	    size_t size);

/*
 * The tie-aware rank r would take in s's list: r is put in place of any
 * listed row with its (d, t, p, b, schedule, v) and the tiers recounted.
 * Returns that rank (1 = best or tied with it), 0 when it falls beyond a
 * full list, -1 when r is excluded (cm_search_excluded); *tied (if not
 * NULL) says whether it shares that rank.
 */
int	cm_search_rank(const struct cm_search *s, const struct cm_result *r,
	    int *tied);

/* 1 if a and b have the same (d, t, p, b, schedule, v), else 0. */
int	cm_same_shape(const struct cm_config *a, const struct cm_config *b);

/* Parameter count of a model (section b), parameters. */
double	cm_params(const struct hw_model *);

/* Expert parallelism's degree: cfg->ep, or 1 (costmodel_ep.c). */
int	cm_ep(const struct cm_config *);
/* Expert tensor parallelism's degree: cfg->etp, or TP's. */
int	cm_etp(const struct cm_config *);

/* Parameters one token uses: cm_params but a MoE layer's k + shared
 * experts only. */
double	cm_params_active(const struct hw_model *);

/* Parameters used in matrix products, N_mm (section c). */
double	cm_params_matmul(const struct hw_model *);

/* Model FLOPs for B samples, general form (section c). */
double	cm_flops_model(const struct hw_model *, double samples);

/* Hardware FLOPs for B samples with recompute mode rc (section c). */
double	cm_flops_hw(const struct hw_model *, double samples,
	    enum cm_recompute rc);

/*
 * Activation bytes of one layer, one micro-batch of b samples, on one
 * GPU, per [KOR22] Table 2 generalised (costmodel_memory.c).
 */
double	cm_act_layer_bytes(const struct cm_config *);

/* Ring collective times (section f); bw bytes/s, lat_s per step. */
double	cm_allreduce_s(double bytes, int n, double bw, double lat_s);
double	cm_allgather_s(double bytes, int n, double bw, double lat_s);
double	cm_sendrecv_s(double bytes, double bw, double lat_s);

/* Collective kinds for cm_coll_s. */
enum cm_coll { CM_ALLREDUCE, CM_ALLGATHER, CM_REDUCESCATTER, CM_SENDRECV };

/*
 * The config's layout as a mesh (its degrees, rank order and GPUs per
 * node), and its degree on axis a, read and set: the field each axis
 * keeps in struct cm_config is named once, in costmodel_mesh.c.
 */
void	cm_mesh(const struct cm_config *, struct mesh *);
int	cm_degree(const struct cm_config *, enum mesh_axis a);
void	cm_set_degree(struct cm_config *, enum mesh_axis a, int degree);
/* Where axis a's degree sits in struct cm_config (an int). */
size_t	cm_degree_offset(enum mesh_axis a);
/* The GPUs the layout asks for: the degrees' product (0 on overflow). */
long	cm_layout_gpus(const struct cm_config *);

/*
 * Where the group of `axis` sits under cfg's rank order and GPUs per node
 * (costmodel_net.c).
 */
void	cm_group_of(const struct cm_config *, enum mesh_axis axis,
	    struct mesh_span *g);

/*
 * Bus bandwidth a group gets, bytes/s: NVLink inside a node; across nodes
 * min(NVLink, k x NIC) with k = ranks of the group per node (NCCL stripes
 * its channels over every NIC of the node), times the link efficiencies.
 */
double	cm_group_bw(const struct cm_config *, const struct mesh_span *g);

/*
 * Bus bandwidth of an all-reduce on g with NVLink SHARP, bytes/s; 0 where
 * it does not apply (off, no NVLS on the GPU, fewer than 5 ranks, or a
 * group across nodes).
 */
double	cm_nvls_bw(const struct cm_config *, const struct mesh_span *g);

/*
 * The NVLink SHARP bus bandwidth axis a's all-reduces get in r, or 0 when
 * that axis does not all-reduce (TP under SP, PP, DP under ZeRO) or NVLS
 * does not apply to its group.
 */
double	cm_axis_nvls_bw(const struct cm_result *r, enum mesh_axis a);

/*
 * Time of one collective of `bytes` (the whole array, as nccl-tests count
 * S) over group g: ring bandwidth term plus NCCL's ring latency model
 * (a base cost, then one step per hop, network steps slower), s.
 */
double	cm_coll_s(const struct cm_config *, enum cm_coll kind,
	    const struct mesh_span *g, double bytes);

/*
 * Achieved fraction of peak for an M x K by K x N bf16 product on gpu
 * (costmodel_time.c documents and sources the rule).
 */
double	cm_gemm_eta(const struct hw_gpu *, double m, double k, double n);

/*
 * The same by cfg's gemm_model, on the GPU g (cfg's, or its FP8 view), for
 * one of `groups` products that run in one launch (1: alone).
 */
double	cm_gemm_eta_of(const struct cm_config *, const struct hw_gpu *g,
	    double m, double k, double n, double groups);

/*
 * Named quantity of a result for lessons, one of cm_quantity_names(); each
 * name says its field and unit ("gradients_gb" = mem_grads / 1e9; GB = 1e9
 * bytes; tests/check_vocabulary.c holds every one). Returns 0 and *out, or
 * -1 for an unknown name.
 */
int	cm_quantity(const struct cm_result *, const char *name, double *out);

/* NULL-terminated list of the names cm_quantity knows. */
const char *const	*cm_quantity_names(void);

/* The GPU a configuration gets when it names none (catalog key). */
#define CM_DEFAULT_GPU		"h100-80gb"

/* v when the interleaved schedule is chosen without virtual stages. */
#define CM_INTERLEAVED_V	2

/* CM_DEFAULT_GPU from cat, else cat's first GPU, else NULL. Borrowed. */
const struct hw_gpu	*cm_default_gpu(const struct hw_catalog *cat);

/*
 * The keys of an engine configuration: one table that the builder
 * (cm_config_from_json) reads and from which `parlearn plan` makes its
 * options (--name with '-' for '_'; a BOOL key also gives --no-name).
 */
enum cm_key_kind {
	CM_KEY_NAME,		/* a catalog name: model, gpu */
	CM_KEY_INT,		/* an integer in [lo, hi] */
	CM_KEY_NUMBER,		/* a number in [lo, hi], stored times scale */
	CM_KEY_WORD,		/* one of words[] */
	CM_KEY_BOOL		/* true or false */
};
enum cm_key_group { CM_GROUP_MODEL, CM_GROUP_CLUSTER, CM_GROUP_BATCH,
	CM_GROUP_LAYOUT, CM_GROUP_SETUP, CM_GROUP_SEARCH, CM_N_GROUPS };

struct cm_key {
	const char		*name;	/* JSON key, [a-z][a-z0-9_]* */
	enum cm_key_kind	 kind;
	enum cm_key_group	 group;	/* heading in plan --help */
	double			 lo, hi; /* INT, NUMBER: accepted range */
	double			 scale;	/* NUMBER: field = value x scale */
	const char *const	*words;	/* WORD: the words, NULL-terminated */
	long			 off;	/* field in struct cm_config, or -1 */
	size_t			 size;	/* its size, bytes */
	/* A BOOL key without a field calls hook(cfg, value) instead. */
	void			(*hook)(struct cm_config *, int on);
	const char		*arg;	/* placeholder in --help, or NULL */
	const char		*help;	/* one line for --help, marked N_ */
};

/* The keys, terminated by an entry with name NULL. */
const struct cm_key	*cm_keys(void);

/* The key called name, or NULL. */
const struct cm_key	*cm_key_find(const char *name);

/* A group's heading, translated ("Model"). */
const char		*cm_key_group_name(enum cm_key_group);

/*
 * The one configuration builder: fill cfg from an engine configuration
 * (a lesson's "engine", a scenario's "start", a card's "engine", or
 * `parlearn plan`'s options gathered into an object). Keys are those of
 * cm_keys(); absent keys keep the defaults of cm_config_default, and these
 * rules apply once, here: without "model" the sizes layers, hidden, heads,
 * ffn, vocab and seq are required and the model is "custom" of the family
 * its mlp names (see custom_family in costmodel_keys.c); kv_heads defaults
 * to heads; gpus to dp x tp x pp; virtual_stages to CM_INTERLEAVED_V under
 * the interleaved schedule; gpu to CM_DEFAULT_GPU. Unknown keys are
 * refused. Errors: -1 with err = "FILE: PATH.KEY: message" (err->path is
 * PATH.KEY, just KEY when path is "").
 */
int	cm_config_from_json(struct cm_config *cfg, const cJSON *obj,
	    const struct hw_catalog *cat, const char *file, const char *path,
	    struct pl_err *err);

/*
 * The plan JSON contract for one result (layout, memory_bytes, time_s ...,
 * headroom, frameworks, reasons as {code, effect, text}, and rank and tie
 * for a search row). Returns a new object the caller frees with
 * cJSON_Delete, or NULL.
 */
cJSON	*cm_result_json(const struct cm_result *);

/*
 * A whole search: candidates (cm_result_json each), evaluated, fitting,
 * excluded counts, headroom_fraction, any_framework, tie_tolerance_fraction
 * and the closest layout when none is ranked. New object, or NULL.
 */
cJSON	*cm_search_json(const struct cm_search *);

/* Words used in options and JSON: "1f1b", "selective", "flash" ... */
const char	*cm_recompute_name(enum cm_recompute);
const char	*cm_optimizer_name(enum cm_optimizer);
const char	*cm_opt_impl_name(enum cm_opt_impl);
const char	*cm_precision_name(enum cm_precision);
const char	*cm_fp8_recipe_name(enum cm_fp8_recipe);
const char	*cm_attention_name(enum cm_attention);
const char	*cm_cp_impl_name(enum cm_cp_impl);
const char	*cm_kernels_name(enum cm_kernels);
const char	*cm_gather_name(enum cm_gather);
const char	*cm_framework_name(enum cm_framework);
const char	*cm_gemm_model_name(enum cm_gemm_model);
const char	*cm_nccl_model_name(enum cm_nccl_model);

/* The optimizer implementation cfg runs (auto resolved by its kernels). */
enum cm_opt_impl cm_opt_impl_of(const struct cm_config *);

/* Word to enum; return 0, or -1 for an unknown word. */
int	cm_recompute_parse(const char *, enum cm_recompute *);
int	cm_optimizer_parse(const char *, enum cm_optimizer *);
int	cm_opt_impl_parse(const char *, enum cm_opt_impl *);
int	cm_precision_parse(const char *, enum cm_precision *);
int	cm_fp8_recipe_parse(const char *, enum cm_fp8_recipe *);
int	cm_attention_parse(const char *, enum cm_attention *);
int	cm_cp_impl_parse(const char *, enum cm_cp_impl *);
int	cm_kernels_parse(const char *, enum cm_kernels *);
int	cm_gather_parse(const char *, enum cm_gather *);
int	cm_framework_parse(const char *, enum cm_framework *);
int	cm_mlp_parse(const char *, enum hw_mlp *);

#endif
