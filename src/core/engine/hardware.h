/*
 * hardware.h - the GPU and model catalogs (data/gpus.json, data/models.json).
 *
 * A catalog is loaded once, validated field by field, and then only read.
 * Every figure is stored in SI base units (bytes, FLOP/s, bytes/s, seconds)
 * whatever unit the JSON file uses; the file's own units are documented in
 * the loader (hardware.c). Sources: reference/costmodel.md sections g and h.
 */
#ifndef PARLEARN_CORE_HARDWARE_H
#define PARLEARN_CORE_HARDWARE_H

#include <stddef.h>

#include "core/err.h"

struct cJSON;

#define HW_NAME_MAX	32
/*
 * NCCL ring bus bandwidth over the NVLink rate inside a node where
 * gpus.json gives none: about 232 of 300 GB/s for an all-reduce over 8
 * NVSwitch-connected A100s (NVIDIA/nccl issue 1048).
 */
#define HW_NVLINK_EFF	0.77

/*
 * Figures a hardware file may say were fitted to the user's own
 * measurements (its "measured" object, written by parlearn calibrate).
 */
enum hw_measured { HW_MEAS_NVLINK_EFF, HW_MEAS_NVLS, HW_MEAS_INTRA_LAT,
	HW_MEAS_INTER_BW, HW_MEAS_INTER_LAT, HW_MEAS_GEMM, HW_MEAS_N };

/* The gpus.json key of each ("nvlink_efficiency" ...). */
extern const char *const hw_measured_keys[HW_MEAS_N];

struct hw_gpu {
	char	name[HW_NAME_MAX];	/* catalog key, e.g. "h100-80gb" */
	char	label[64];		/* human name, e.g. "H100 SXM5 80 GB" */
	double	mem_bytes;		/* HBM capacity, bytes */
	double	peak_flops;		/* dense bf16/fp16 tensor peak, FLOP/s */
	double	fp32_flops;		/* fp32 (non-tensor) peak, FLOP/s */
	double	fp8_flops;		/* dense FP8 tensor peak, FLOP/s;
					 * 0: no FP8 tensor cores */
	int	mx_formats;		/* bool: block-scaled MX formats
					 * (MXFP8) in the tensor cores */
	double	hbm_bw;			/* HBM bandwidth, bytes/s */
	double	nvlink_bw;		/* NVLink per GPU per direction, bytes/s */
	double	inter_bw;		/* default inter-node per GPU, bytes/s */
	double	intra_lat_s;		/* per ring step inside a node, s */
	double	inter_lat_s;		/* per ring step across nodes, s */
	double	gemm_eff;		/* sustained large-GEMM fraction of
					 * peak, 0..1 */
	double	flash2_ratio;		/* FlashAttention-2's speed over the
					 * fastest attention kernel of this
					 * GPU, 0..1 (1 where FA2 is it) */
	double	nvlink_eff;		/* NCCL ring bus bandwidth over the
					 * NVLink rate inside a node, 0..1 */
	double	nvls_bw;		/* NCCL NVLink SHARP all-reduce bus
					 * bandwidth on 8 GPUs of a node,
					 * bytes/s; 0 without NVLS */
	double	tdp_w;			/* board power limit as shipped, W;
					 * 0 if unknown */
	int	node_gpus;		/* GPUs per node; 0: 8 */
	int	sm_count;		/* streaming multiprocessors; 0:
					 * unknown (no wave quantization) */
	int	arch;			/* enum hw_arch; 0: unknown */
	int	domain_gpus;		/* GPUs per NVLink domain; 0: node */
	unsigned measured;		/* 1 << HW_MEAS_x: fitted to the
					 * user's measurements */
};

/*
 * Sustained clock (so tensor FLOP/s) under a power limit of cap_w W on a
 * GPU whose rated limit is tdp_w, as a fraction of the rated one: 1 at or
 * above the TDP, else (cap_w / tdp_w)^(1/3). Returns -1 if tdp_w is 0.
 */
double	hw_power_clock(double tdp_w, double cap_w);

/* GPU generation (gpus.json "arch"); NCCL's tuning tables index by it. */
enum hw_arch { HW_ARCH_UNKNOWN, HW_ARCH_VOLTA, HW_ARCH_AMPERE,
    HW_ARCH_HOPPER, HW_ARCH_BLACKWELL };

enum hw_mlp { HW_MLP_GELU, HW_MLP_SWIGLU };
enum hw_norm { HW_NORM_LAYER, HW_NORM_RMS };

struct hw_model {
	char		name[HW_NAME_MAX];	/* catalog key or "custom" */
	int		layers;			/* L, transformer layers */
	int		hidden;			/* h, model width */
	int		heads;			/* a, query heads */
	int		kv_heads;		/* k, key/value heads (GQA) */
	int		ffn;			/* f, MLP inner size */
	int		vocab;			/* V, (padded) vocabulary */
	int		seq;			/* s, tokens per sample */
	enum hw_mlp	mlp;
	enum hw_norm	norm;
	int		tied;			/* input and output embedding shared */
	int		learned_pos;		/* learned position table (s x h) */
	int		biases;			/* linear layers carry biases */
	int		dropout;		/* trained with dropout (masks
						 * stored, dropout kernels run) */
	long		global_batch;		/* default B, samples; 0 if none */
	double		params;			/* given count, parameters; 0 = derive */
	int		head_dim;		/* d_h when not h / a (Qwen3: 128
						 * at h 2048, a 32); 0 = h / a */
	int		qk_norm;		/* RMSNorm on each head's Q and K */
	/* Mixture of experts (hw_moe.c); experts 0 = a dense MLP */
	int		experts;		/* E, routed experts per layer */
	int		top_k;			/* experts each token goes to */
	int		shared_experts;		/* experts every token goes to */
	int		expert_ffn;		/* one expert's MLP inner size */
	int		dense_layers;		/* first layers with a dense MLP
						 * of width ffn (DeepSeek-V3: 3) */
	/* Multi-head latent attention (hw_mla.c); kv_lora_rank 0 = none */
	int		q_lora_rank;		/* Q's compressed width; 0 = plain */
	int		kv_lora_rank;		/* K and V's compressed latent */
	int		rope_head_dim;		/* decoupled RoPE part of head_dim,
						 * one key shared by all heads */
	int		v_head_dim;		/* V's width a head; 0 = head_dim */
	/* Attention pattern (hw_mla.c) */
	int		sliding_window;		/* tokens a windowed layer sees;
						 * 0 = every layer full */
	int		window_every;		/* 1 in window_every layers full,
						 * the rest windowed (GPT-OSS: 2) */
	int		attn_sinks;		/* a learned sink logit a head */
	int		mtp;			/* multi-token prediction depth D
						 * (--mtp), modules on top */
};

/* Layers the pipeline splits: the model's and its MTP modules' (on the
 * last stage, with the output head they share). */
#define CM_PIPE_LAYERS(m)	((m)->layers + (m)->mtp)

/* Multi-head latent attention (MLA). */
#define HW_MLA(m)	((m)->kv_lora_rank > 0)

/* The shape needs hw_mla.c's parameter count (MLA, dense layers, MTP,
 * attention sinks, biased experts). */
int	hw_model_extended(const struct hw_model *m);

/* One layer's parameters (hw_mla.c): dense 1 gives the dense MLP, active
 * 1 a token's experts only. */
double	hw_layer_params(const struct hw_model *m, int dense, int active);

/* Attention's parameters a layer (projections, MLA's norms, biases,
 * sinks); matrices 1: the matrices only. */
double	hw_attn_params(const struct hw_model *m, int matrices);

/* Parameters a token multiplies by in all layers and MTP modules and the
 * output layer: N_mm of reference c. */
double	hw_matmul_params(const struct hw_model *m);

/* Attention scores' width a layer, averaged over the layers: a (d_qk +
 * d_v) / 2 times the share of the sequence a query sees (1 full). */
double	hw_attn_width(const struct hw_model *m);

/* One layer's MLP parameters: dense 1 the dense MLP, active 1 a token's
 * experts, matrices 1 without biases. */
double	hw_mlp_params_ext(const struct hw_model *m, int dense, int active,
	    int matrices);

/* One MTP module's parameters beyond its transformer layer: its two
 * RMSNorms and the 2h x h projection (DeepSeek-V3 report 2.2). */
double	hw_mtp_extra_params(const struct hw_model *m);

/* V's width a head (v_head_dim or head_dim) and the attention output's. */
double	hw_v_head_dim(const struct hw_model *m);

/* Extended keys of models.json and their checks (hw_mla.c). */
int	hw_parse_model_mla(const struct cJSON *o, struct hw_model *m,
	    const char *file, const char *path, struct pl_err *err);
int	hw_model_check_mla(const struct hw_model *m, struct pl_err *err);

/* d_h: head_dim, or hidden / heads. */
double	hw_head_dim(const struct hw_model *);

/* Width of Q and of the attention output, heads x d_h. */
double	hw_q_width(const struct hw_model *);

/* models.json's optional head_dim, qk_norm and MoE keys into m. */
int	hw_parse_model_moe(const struct cJSON *o, struct hw_model *m,
	    const char *file, const char *path, struct pl_err *err);

/* The MoE keys agree (experts with top_k and expert_ffn, or none). */
int	hw_model_check_moe(const struct hw_model *m, struct pl_err *err);

/* Inner MLP width one token's work runs at: f, or (k + shared) f_e. */
double	hw_mlp_token_width(const struct hw_model *m);

/* The MLP inner size TP splits: ffn, or expert_ffn under MoE. */
int	hw_split_ffn(const struct hw_model *m);

/* One layer's MLP matrix parameters: all (active 0) or a token's (1). */
double	hw_mlp_params(const struct hw_model *m, int active);

struct hw_catalog {
	struct hw_gpu	*gpus;
	size_t		 n_gpus;
	struct hw_model	*models;
	size_t		 n_models;
};

/*
 * Load data_dir/gpus.json and data_dir/models.json into cat (zeroed first).
 * Returns 0, or -1 with err set to "FILE: PATH: message" (the catalog is
 * then empty and needs no free). Free with hw_catalog_free.
 */
int	hw_catalog_load(struct hw_catalog *cat, const char *data_dir,
	    struct pl_err *err);

/* Load one file into cat (appending). Same errors as hw_catalog_load. */
int	hw_load_gpus(struct hw_catalog *cat, const char *path,
	    struct pl_err *err);
int	hw_load_models(struct hw_catalog *cat, const char *path,
	    struct pl_err *err);

/* One gpus.json entry (object o at JSON path path) into g, SI units. */
int	hw_parse_gpu(const struct cJSON *o, struct hw_gpu *g, const char *file,
	    const char *path, struct pl_err *err);

/*
 * A user's own GPU from file (--hardware): one gpus.json entry as the
 * whole file, or a gpus.json-like {"gpus": [...]}; want picks an entry by
 * name (NULL: the file must hold exactly one). Errors carry FILE:LINE:COL.
 */
int	hw_gpu_load_user(const char *file, const char *want, struct hw_gpu *g,
	    struct pl_err *err);

/* Free what the catalog owns and zero it. NULL does nothing. */
void	hw_catalog_free(struct hw_catalog *cat);

/* Entry named name (exact), or NULL. Borrowed from cat. */
const struct hw_gpu	*hw_gpu_find(const struct hw_catalog *cat,
			    const char *name);
const struct hw_model	*hw_model_find(const struct hw_catalog *cat,
			    const char *name);

/*
 * Check a model's shape: every size positive, kv_heads dividing heads,
 * heads dividing hidden. Returns 0 or -1 with err->msg set (no file).
 */
int	hw_model_check(const struct hw_model *m, struct pl_err *err);

/* Names as words: "gelu", "swiglu", "layernorm", "rmsnorm". */
const char	*hw_mlp_name(enum hw_mlp);
const char	*hw_norm_name(enum hw_norm);

#endif
