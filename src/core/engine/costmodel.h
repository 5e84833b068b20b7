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

#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/pipeline.h"
#include "core/engine/hardware.h"

enum cm_recompute { CM_RECOMPUTE_NONE, CM_RECOMPUTE_SELECTIVE,
	CM_RECOMPUTE_FULL };
enum cm_optimizer { CM_OPT_ADAM, CM_OPT_SGD };
enum cm_precision { CM_PREC_BF16, CM_PREC_FP32 };
enum cm_attention { CM_ATTN_FLASH, CM_ATTN_PLAIN };

struct cm_config {
	struct hw_model		model;		/* architecture (copied) */
	struct hw_gpu		gpu;		/* GPU type (copied) */
	int			gpus;		/* n, GPUs in the job */
	int			gpus_per_node;	/* g */
	double			intra_bw;	/* per GPU per direction, bytes/s */
	double			inter_bw;	/* per GPU per direction, bytes/s */
	double			intra_lat_s;	/* alpha inside a node, s */
	double			inter_lat_s;	/* alpha across nodes, s */
	double			intra_eff;	/* achieved/nominal NVLink, 0..1 */
	double			inter_eff;	/* achieved/nominal network, 0..1 */
	long			global_batch;	/* B, samples per step */
	int			micro_batch;	/* b, samples */
	int			dp, tp, pp;	/* degrees d, t, p */
	int			zero;		/* ZeRO stage 0..3 (FSDP = 3) */
	enum cm_recompute	recompute;
	int			seq_parallel;	/* bool */
	enum pipe_schedule	schedule;
	int			virtual_stages;	/* v (interleaved), else 1 */
	enum cm_optimizer	optimizer;	/* adam, or sgd with momentum */
	enum cm_precision	precision;
	enum cm_attention	attention;
	int			dp_overlap;	/* bool: DP reduce overlaps bwd */
	int			pp_scatter_gather; /* bool: [NAR21] 4.1 split PP sends
						    * across TP ranks (Megatron); 0 =
						    * every TP rank sends the whole
						    * tensor (DeepSpeed's pipeline) */
	int			grad_accum_fp32; /* bool: Megatron 4-byte grads */
	double			buffers_bytes;	/* context, NCCL, allocator, bytes */
	double			reserve_frac;	/* capacity held back, 0..1 */
};

/* Limits the search and the reasons use. */
#define CM_MAX_REASONS		6
#define CM_REASON_LEN		200
#define CM_SEARCH_MAX		32

struct cm_result {
	struct cm_config	cfg;		/* the layout evaluated */
	int			valid;		/* bool: the layout is possible */
	long			microbatches;	/* m = B / (b d) */
	int			stage_layers;	/* layers on the busiest stage */
	double			params;		/* N, whole model, parameters */
	double			params_gpu;	/* on the most loaded GPU */
	double			mem_params;	/* bytes per GPU (worst stage) */
	double			mem_grads;	/* bytes */
	double			mem_optim;	/* bytes */
	double			mem_act;	/* bytes */
	double			mem_other;	/* buffers, bytes */
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
	double			t_dp;		/* DP/ZeRO collectives total, s */
	double			t_dp_exposed;	/* part not hidden by bwd, s */
	double			t_exposed_comm;	/* tp + pp + dp exposed, s */
	double			t_bubble;	/* pipeline idle time, s */
	double			t_optimizer;	/* optimizer step (HBM bound), s */
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
	int			n_reasons;
	char			reasons[CM_MAX_REASONS][CM_REASON_LEN];
};

struct cm_search {
	struct cm_result	top[CM_SEARCH_MAX]; /* best first, fitting */
	int			n_top;
	long			evaluated;	/* layouts evaluated */
	long			fitting;	/* of those, how many fit */
	struct cm_result	closest;	/* when none fits: least over */
	int			have_closest;	/* bool */
};

/*
 * Defaults: 1 GPU of gpu, 8 GPUs per node, links from the GPU entry,
 * link efficiencies 1 (cm_config_realistic: [CALC]'s 0.65 / 0.9), micro-batch 1, global batch from the model or 512, layout
 * 1x1x1, ZeRO 0, selective recompute, no SP, 1F1B, v = 1, Adam, bf16,
 * flash attention, DP overlap on, buffers 1 GB, reserve 5 %.
 */
void	cm_config_default(struct cm_config *, const struct hw_model *,
	    const struct hw_gpu *);

/*
 * Use [CALC]'s achieved-bandwidth fractions (NVLink 0.65, InfiniBand 0.9,
 * from its A100 system file) instead of the nominal 1.0.
 */
void	cm_config_realistic(struct cm_config *);

/*
 * Layer-equivalents of activations stage r (0-based) of `layers` layers
 * holds at its peak with m micro-batches ([KOR22] 4.2.3): L on stage 0
 * under 1F1B, L (1 + (p-1)/(p v)) interleaved, m L/p under GPipe.
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
 * Every valid layout for cfg's model, cluster and global batch: DP x TP x
 * PP = GPUs, TP a power of two up to 8 g dividing the heads, PP dividing
 * L (see costmodel_search.c), each ZeRO stage, recompute mode, micro-batch
 * 1, 2, 4, 8, SP and interleaving. Keeps the best max_top (<= CM_SEARCH_MAX)
 * fitting ones by step time, best per (d, t, p, b, schedule, v). The
 * layout fields of cfg are ignored. Returns 0 or -1 with err set when cfg
 * cannot be searched (bad model, no GPUs).
 */
int	cm_search(const struct cm_config *, int max_top, struct cm_search *s,
	    struct pl_err *err);

/* Parameter count of a model (section b), parameters. */
double	cm_params(const struct hw_model *);

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

/*
 * Achieved fraction of peak for an M x K by K x N bf16 product on gpu
 * (costmodel_time.c documents and sources the rule).
 */
double	cm_gemm_eta(const struct hw_gpu *, double m, double k, double n);

/*
 * Named quantity of a result for lessons: params_b, model_state_gb,
 * parameters_gb, gradients_gb, optimizer_gb, activations_gb,
 * memory_total_gb, bubble_fraction, step_time_s, tokens_per_s,
 * tflops_per_gpu, mfu, tp_comm_s, pp_comm_s, dp_comm_s (GB = 1e9 bytes).
 * Returns 0 and *out, or -1 for an unknown name.
 */
int	cm_quantity(const struct cm_result *, const char *name, double *out);

/* NULL-terminated list of the names cm_quantity knows. */
const char *const	*cm_quantity_names(void);

/*
 * Fill cfg from a JSON object (a lesson's "config"): keys model or
 * params/layers/hidden/heads/kv_heads/ffn/vocab/seq, gpu, gpus,
 * gpus_per_node, intra_bw, inter_bw (GB/s), global_batch, micro_batch, dp,
 * tp, pp, zero, recompute, seq_parallel, schedule, virtual_stages,
 * optimizer, precision, attention, mlp. Absent keys keep defaults. Unknown
 * keys are refused. Errors: "FILE: PATH.KEY: message" in err, -1.
 */
int	cm_config_from_json(struct cm_config *cfg, const cJSON *obj,
	    const struct hw_catalog *cat, const char *file, const char *path,
	    struct pl_err *err);

/*
 * The plan JSON contract for one result (layout, memory_bytes, time_s ...).
 * Returns a new object the caller frees with cJSON_Delete, or NULL.
 */
cJSON	*cm_result_json(const struct cm_result *);

/* Words used in options and JSON: "1f1b", "selective", "flash" ... */
const char	*cm_recompute_name(enum cm_recompute);
const char	*cm_optimizer_name(enum cm_optimizer);
const char	*cm_precision_name(enum cm_precision);
const char	*cm_attention_name(enum cm_attention);

/* Word to enum; return 0, or -1 for an unknown word. */
int	cm_recompute_parse(const char *, enum cm_recompute *);
int	cm_optimizer_parse(const char *, enum cm_optimizer *);
int	cm_precision_parse(const char *, enum cm_precision *);
int	cm_attention_parse(const char *, enum cm_attention *);
int	cm_mlp_parse(const char *, enum hw_mlp *);

#endif
