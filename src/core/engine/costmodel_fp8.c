/*
 * costmodel_fp8.c - FP8 training as Transformer Engine (TE) and torchao
 * float8 run it: what "--precision fp8" means to the engine.
 *
 * FP8 mixed precision: the matrix products of the transformer layers'
 * linear layers (QKV, attention output, MLP) run in FP8, E4M3 forward and
 * E5M2 gradients, with bf16 weights, activations, gradients and fp32
 * master weights and optimizer state exactly as bf16 training keeps them.
 * What stays in bf16: attention (torchao converts nn.Linear modules only;
 * TE runs FP8 attention only when asked, fp8_dpa, off by default), norms,
 * the loss, the embedding and the output layer (torchtitan's float8
 * converter is configured with filter_fqns=["output"], pytorch/torchtitan
 * b5bcd76 torchtitan/components/quantization/float8.md; Megatron-Core's
 * output layer is tensor_parallel.ColumnParallelLinear, not a TE module,
 * unless an MXFP8 output projection is asked for, megatron/core/models/
 * gpt/gpt_model.py).
 *
 * FP8 attention (fp8_attention) is Transformer Engine's FP8 dot-product
 * attention, which Megatron-Core turns on with fp8_dot_product_attention
 * (megatron/core/transformer/transformer_config.py, NVIDIA/Megatron-LM
 * d98e8a6; off by default) and which runs cuDNN's sdpa_fp8_forward and
 * sdpa_fp8_backward (cudnn-frontend 1.3.0 release notes). torchao and
 * DeepSpeed have none: only Megatron runs it. Its speed: FlashAttention-3
 * (arXiv 2407.08608, abstract) reaches 740 TFLOP/s in bf16 ("75 %
 * utilization" of the H100's 989) and "close to 1.2 PFLOPs/s" in FP8, of
 * a 1,979 peak: the FP8 kernel runs at (1200 / 1979) / (740 / 989) = 0.81
 * of the bf16 kernel's fraction of its peak, which the engine applies to
 * the flash forward at the FP8 peak. Only forward speeds are published
 * (FlashAttention-3 has no FP8 backward); the backward is priced at the
 * bf16 kernel's speed, so FP8 attention's gain here is a lower bound. TE
 * saves the FP8 Q, K and V for the backward: one byte less per element.
 *
 * Sources (pytorch/ao 36027d8, torchao/testing/training/roofline_utils.py,
 * and torchao/float8/README.md; NVIDIA/Megatron-LM d98e8a6):
 *
 * Products. The FP8 peak per GPU is the catalog's fp8_tflops (datasheets,
 * gpus.json). An FP8 product runs through the engine's per-shape rule
 * (cm_gemm_eta) at that peak, with its operands read at one byte (MX
 * block scales, 1 per 32 elements, read besides) and its bf16 output
 * written at two, as roofline_utils.py's get_individual_gemm_time_sympy
 * counts them; then at CM_FP8_GEMM_REL of bf16's sustained fraction. That
 * factor is read off torchao's published microbenchmark (torchao/float8/
 * README.md at pytorch/ao 0cf1281, "Example 2"): a linear of M, K, N =
 * 4096, 8192, 16384, forward and backward, runs 1.39x faster in float8
 * than in bf16 on an H100. At bf16's burst fraction (0.80, reference/
 * h100-gemm.md) the three bf16 products take 4.17 ms and the norm and
 * sigmoid around them about 0.15; the float8 step is then 3.11 ms, of
 * which roofline_utils.py's tensorwise casts (1.48 GB through HBM) take
 * about 0.5: the three FP8 products take about 2.45 ms where twice bf16's
 * speed would give 2.09, so FP8 products reach 2.09 / 2.45 = 0.85 of
 * bf16's fraction of peak. roofline_utils.py itself assumes the same
 * fraction for both (pct_achievable_gemm_tops 0.78), and its README says
 * the FP8 speedup only "approaches 2x" as M, K, N grow.
 *
 * Casts (roofline_utils.py, get_tensor_memory_traffic_ovhd_s; bytes per
 * element of the bf16 tensor, n = its elements). Each product casts its
 * input (M x K), its weight (K x N) and, backward, the output gradient
 * (M x N). An input's amax read rides in the kernel that made it when
 * the kernels fuse (torch.compile, TE's fused norm + cast), else it is a
 * pass of its own (2 bytes):
 *   tensorwise  input, gradient: amax 2 (0 fused) + one cast kernel that
 *               reads 2 and writes the row- and column-major FP8 copies 2;
 *               weight: amax 2, cast for the forward 3, cast again for the
 *               backward 3 (torchao saves the bf16 weight, float8_linear.py
 *               save_for_backward(input_hp, weight_hp_t)).
 *   rowwise     input, gradient: a kernel writes the FP8 rows and a bf16
 *               transpose (2 + 1 + 2, 3 fused), another casts the
 *               transpose (3); weight 3 forward, transpose 4 and cast 3
 *               backward. rowwise runs the weight-gradient product in FP8
 *               too (only rowwise_with_gw_hp keeps it in bf16).
 *   mxfp8       two casts (1 x 32 blocks along each dimension), 3 each (1
 *               fused), plus one E8M0 scale byte per 32 elements written.
 *   delayed     TE's DelayedScaling scales with the amax history of
 *               earlier steps, so one cast-transpose kernel reads 2 and
 *               writes both FP8 copies 2 (fused into the norm: 2), and
 *               records the amax as it goes; no amax pass.
 * A tensorwise amax reduction ends with a second small kernel (stage 2).
 * TE keeps its FP8 weights and their transposes from the first
 * micro-batch of a step to the last (is_first_microbatch, which Megatron
 * passes), so under fused kernels a weight is cast once per step (read 2,
 * amax 2 for current scaling, write both copies 2, and the MX scales);
 * torchao casts it again in every micro-batch.
 *
 * Memory. TE's cached FP8 weights and transposes: 2 bytes per linear
 * parameter of the stage (+ 2/32 of MX scales). torchao holds one layer's
 * FP8 weights at a time (forward copy, then the backward one): 2 bytes
 * per parameter of one layer. TE saves the FP8 casts of the linear
 * layers' inputs for the backward (the two normed inputs, the attention
 * output and the MLP activation: one byte less per element); torchao
 * saves the bf16 input and casts it again.
 *
 * FSDP2 (torchtitan docs/float8.md, enable_fsdp_float8_all_gather):
 * tensorwise Float8Linear weights are cast to FP8 before the all-gather,
 * so ZeRO-3 gathers one byte per linear parameter; the norms stay bf16.
 * torchao's rowwise recipe gathers bf16 (its README's benchmark table:
 * "rowwise with bfloat16 all-gather").
 *
 * MFU of an FP8 run is taken over the bf16 dense peak, as torchtitan
 * (get_peak_flops: bf16 figures) and NVIDIA report it, so an FP8 run that
 * is 1.3x faster shows 1.3x the MFU; the JSON also gives it over the FP8
 * peak.
 */
#include <stdio.h>

#include "i18n.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/framework.h"

#define MX_BLOCK	32.0

int
cm_fp8(const struct cm_config *c)
{
	return c->precision == CM_PREC_FP8;
}

int
cm_fp8_check(const struct cm_config *c, struct pl_err *err)
{
	if (c->fp8_attention && !cm_fp8(c)) {
		pl_err_set(err, NULL, 0, 0, "%s", _("fp8 attention needs "
		    "precision fp8"));
		return -1;
	}
	if (c->fp8_attention && c->attention != CM_ATTN_FLASH) {
		pl_err_set(err, NULL, 0, 0, "%s", _("fp8 attention needs the "
		    "fused attention kernel (attention flash)"));
		return -1;
	}
	if (!cm_fp8(c))
		return 0;
	if (c->gpu.fp8_flops <= 0) {
		pl_err_set(err, NULL, 0, 0, _("precision fp8 needs FP8 tensor "
		    "cores, which the %s has not (H100 and newer)"),
		    c->gpu.label);
		return -1;
	}
	if (c->fp8_recipe == CM_FP8_MXFP8 && !c->gpu.mx_formats) {
		pl_err_set(err, NULL, 0, 0, _("fp8 recipe mxfp8 needs "
		    "block-scaled tensor cores (Blackwell), which the %s has "
		    "not"), c->gpu.label);
		return -1;
	}
	return 0;
}

double
cm_fp8_gemm_s(const struct cm_config *c, double m, double k, double n,
    double groups)
{
	struct hw_gpu g = c->gpu;
	double in = m * k + k * n, out = m * n, rd = 1, eta;

	if (c->fp8_recipe == CM_FP8_MXFP8)
		rd += 1 / MX_BLOCK;
	g.peak_flops = c->gpu.fp8_flops;
	/* cm_gemm_eta counts 2 bytes for every element read and written */
	g.hbm_bw *= 2 * (in + out) / (rd * in + 2 * out);
	eta = cm_gemm_eta_of(c, &g, m, k, n, groups) * CM_FP8_GEMM_REL;
	return eta > 0 ? 2 * m * k * n / (g.peak_flops * eta) : 0;
}

double
cm_fp8_attn_speedup(const struct cm_config *c)
{
	if (!cm_fp8(c) || !c->fp8_attention || c->gpu.peak_flops <= 0)
		return 1;
	return c->gpu.fp8_flops / c->gpu.peak_flops * CM_FP8_ATTN_REL;
}

void
cm_fp8_linear_s(const struct cm_config *c, double m, double k, double n,
    double groups, double *fwd, double *bwd)
{
	*fwd += cm_fp8_gemm_s(c, m, k, n, groups);
	*bwd += cm_fp8_gemm_s(c, m, n, k, groups) +
	    cm_fp8_gemm_s(c, k, m, n, groups);
}

/* Micro-batches per step (the weight cache lasts that long). */
static double
microbatches(const struct cm_config *c)
{
	double m = (double)c->global_batch / ((double)c->micro_batch * c->dp);

	return m >= 1 ? m : 1;
}

/* One kernel group: bytes and kernels into x's forward or backward. */
static void
add(const struct cm_config *c, struct cm_elem *x, int bwd, double bytes,
    int kernels)
{
	double s = cm_hbm_s(c, bytes, kernels);

	if (bwd) {
		x->bwd += bytes;
		x->bwd_s += s;
		x->kb += kernels;
	} else {
		x->fwd += bytes;
		x->fwd_s += s;
		x->kf += kernels;
	}
}

/* Casts of an activation or gradient of n elements (input, grad_output). */
static void
cast_act(const struct cm_config *c, double n, int bwd, struct cm_elem *x)
{
	int fused = c->kernels != CM_KERNELS_EAGER;

	switch (c->fp8_recipe) {
	case CM_FP8_TENSORWISE:
		add(c, x, bwd, ((fused ? 0 : 2) + 4) * n, (fused ? 0 : 1) + 2);
		break;
	case CM_FP8_ROWWISE:
		add(c, x, bwd, ((fused ? 3 : 5) + 3) * n, 2);
		break;
	case CM_FP8_MXFP8:
		add(c, x, bwd, ((fused ? 1 : 3) + 3 + 2 / MX_BLOCK) * n, 2);
		break;
	case CM_FP8_DELAYED:
		add(c, x, bwd, (fused ? 2 : 4) * n, 1);
		break;
	}
}

/* Casts of a weight of n elements, per micro-batch. */
static void
cast_weight(const struct cm_config *c, double n, struct cm_elem *x)
{
	double once;

	if (c->kernels == CM_KERNELS_FUSED) {	/* TE: once per step */
		once = 2 + 2;	/* read, both FP8 copies */
		if (c->fp8_recipe == CM_FP8_TENSORWISE)
			once += 2;	/* current scaling's amax pass */
		if (c->fp8_recipe == CM_FP8_MXFP8)
			once += 2 / MX_BLOCK;
		add(c, x, 0, once * n / microbatches(c), 1);
		return;
	}
	switch (c->fp8_recipe) {
	case CM_FP8_TENSORWISE:
		add(c, x, 0, (2 + 3) * n, 3);
		add(c, x, 1, 3 * n, 1);
		break;
	case CM_FP8_ROWWISE:
		add(c, x, 0, 3 * n, 1);
		add(c, x, 1, (4 + 3) * n, 2);
		break;
	case CM_FP8_MXFP8:
		add(c, x, 0, (3 + 1 / MX_BLOCK) * n, 1);
		add(c, x, 1, (3 + 1 / MX_BLOCK) * n, 1);
		break;
	case CM_FP8_DELAYED:
		add(c, x, 0, 4 * n, 1);
		break;
	}
}

/* count products of M x K by K x N cast in one kernel each (grouped) */
static void
cast_products(const struct cm_config *c, double m, double k, double n,
    double count, struct cm_elem *x)
{
	cast_act(c, count * m * k, 0, x);
	cast_weight(c, count * k * n, x);
	cast_act(c, count * m * n, 1, x);
}

void
cm_fp8_cast_elem(const struct cm_config *c, double m, double k, double n,
    struct cm_elem *x)
{
	if (cm_fp8(c))
		cast_products(c, m, k, n, 1, x);
}

void
cm_fp8_layer_elem(const struct cm_config *c, struct cm_elem *x)
{
	struct cm_linear l[CM_MAX_LINEARS];
	int i, n;

	if (!cm_fp8(c))
		return;
	n = cm_layer_linears(c, l);
	for (i = 0; i < n; i++) {
		if (l[i].routed == CM_LINEAR_ROUTER)
			continue;
		cast_products(c, l[i].m, l[i].k, l[i].n, l[i].count, x);
	}
}

double
cm_fp8_layer_linear_params(const struct cm_config *c)
{
	struct cm_linear l[CM_MAX_LINEARS];
	double p = 0;
	int i, n = cm_layer_linears(c, l);

	for (i = 0; i < n; i++)
		if (l[i].routed != CM_LINEAR_ROUTER)
			p += l[i].count * l[i].k * l[i].n;
	return p;
}

double
cm_fp8_weight_bytes(const struct cm_config *c, int layers, double scale)
{
	double per = 2, lin;

	if (!cm_fp8(c))
		return 0;
	lin = cm_fp8_layer_linear_params(c) * scale;
	if (c->fp8_recipe == CM_FP8_MXFP8)
		per += 2 / MX_BLOCK;
	if (c->kernels == CM_KERNELS_FUSED)	/* TE's cache, whole stage */
		return per * lin * layers;
	return per * lin;			/* torchao: one layer at a time */
}

double
cm_fp8_act_saving(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	double sb = cm_rank_tokens(c), t = c->tp;
	double sp = c->seq_parallel ? t : 1.0;

	if (!cm_fp8(c) || c->kernels != CM_KERNELS_FUSED ||
	    c->recompute == CM_RECOMPUTE_FULL)
		return 0;
	/* one byte less per element: both normed inputs, the attention
	 * output, the MLP activation (the down projection's input); with
	 * FP8 attention Q, K and V as well */
	return sb * (2 * m->hidden / sp + hw_q_width(m) / t +
	    hw_mlp_token_width(m) / t +
	    (c->fp8_attention ? hw_q_width(m) / t + 2 * cm_kv_width(c) : 0));
}

double
cm_fp8_gather_scale(const struct cm_config *c)
{
	double all = cm_layer_params_rank(c), lin;

	if (!cm_fp8(c) || c->zero < 3 || c->fp8_recipe != CM_FP8_TENSORWISE ||
	    c->kernels == CM_KERNELS_FUSED || all <= 0)
		return 1;
	lin = cm_fp8_layer_linear_params(c);
	return (lin * 1 + (all - lin) * 2) / (all * 2);
}

/*
 * Megatron-Core runs TE's recipes: megatron/core/enums.py Fp8Recipe has
 * delayed, tensorwise (current scaling), mxfp8 and blockwise; no rowwise.
 * torchao (torchtitan) has tensorwise and rowwise (float8 config.py
 * Float8LinearRecipeName) and MXFP8 in torchao.prototype.mx_formats;
 * delayed scaling was deleted (pytorch/ao d370196, "delete delayed
 * scaling from torchao.float8"). DeepSpeed has no FP8 of its own: it
 * trains TE modules, and its test (microsoft/DeepSpeed 38327e0,
 * tests/unit/runtime/half_precision/test_fp8.py) runs TE's DelayedScaling
 * across the ZeRO stages; that is the recipe counted for it.
 */
unsigned
cm_fp8_frameworks(const struct cm_config *c)
{
	if (!cm_fp8(c))
		return FW_ALL;
	if (c->fp8_attention)	/* TE's FP8 dot-product attention */
		return c->fp8_recipe == CM_FP8_ROWWISE ? 0 :
		    FW_BIT(FW_MEGATRON);
	switch (c->fp8_recipe) {
	case CM_FP8_TENSORWISE:
	case CM_FP8_MXFP8:
		return FW_BIT(FW_MEGATRON) | FW_BIT(FW_PYTORCH);
	case CM_FP8_ROWWISE:
		return FW_BIT(FW_PYTORCH);
	case CM_FP8_DELAYED:
		return FW_BIT(FW_MEGATRON) | FW_BIT(FW_DEEPSPEED);
	}
	return 0;
}
