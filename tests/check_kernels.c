/*
 * check_kernels.c - core/engine/costmodel_kernels.c: what PyTorch eager,
 * torch.compile and fused (Megatron-Core / Transformer Engine) kernels cost
 * between the matrix products, held to the per-op byte counts the module
 * documents (each kernel reads its inputs and writes its outputs once;
 * e = 2 bytes bf16, o = 4 bytes fp32 opmath), and what each framework
 * keeps for the backward. Also the attention kernel choice (flash2) and
 * the settings' round trip through the one builder and the result JSON.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/hardware.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

#define H100_HBM	(0.9 * 3350e9)	/* HBM_EFF x datasheet, bytes/s */

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

/*
 * A small Llama-style model: 2 layers, h 1024, 8 heads of 128 with 2 K/V
 * heads (K, V 256 wide), SwiGLU 2816, vocabulary 256, s 512, on two H100s
 * under ZeRO-3 (so no autocast casts of whole weights), one micro-batch.
 */
static void
small_llama(struct cm_config *c, enum cm_kernels k)
{
	struct hw_model m = *hw_model_find(&cat, "llama3-8b");

	m.layers = 2;
	m.hidden = 1024;
	m.heads = 8;
	m.kv_heads = 2;
	m.ffn = 2816;
	m.vocab = 256;
	m.seq = 512;
	cm_config_default(c, &m, hw_gpu_find(&cat, "h100-80gb"));
	c->dp = c->gpus = 2;
	c->zero = 3;
	c->global_batch = 2;
	c->recompute = CM_RECOMPUTE_NONE;
	c->kernels = k;
}

START_TEST(elementwise_bytes)
{
	/* Bytes per token, from the per-op counts of costmodel_kernels.c:
	 * h 1024, q 1024, k 256, f 2816, V 256. */
	const double h = 1024, q = 1024, k = 256, f = 2816, V = 256;
	const double sb = 512, big = 1 << 18;
	double want[3], layer, loss[3], np;
	struct cm_config c;
	struct cm_result r;
	struct cm_elem el, lo, em;
	int i;

	/* eager: RMSNorm 4e+7o = 36 / 8e+19o = 92 per element, twice;
	 * residual adds 6 + 6; SwiGLU silu + mul 10 / 18 per f; rotary
	 * 2e+4o = 20 each way over q + k; repeat_kv 2e(k+q) each way;
	 * the attention output copy 2e q each way. Loss: the final norm
	 * (36 + 92) h and 2e + 8o = 36 per logit. */
	layer = 2 * 36 * h + 12 * h + 10 * f + 20 * (q + k) + 4 * (k + q) +
	    4 * q;
	layer += 2 * 92 * h + 12 * h + 18 * f + 20 * (q + k) + 4 * (k + q) +
	    4 * q;
	/* the gradients wq, wk, wv and w1, w3 send to their shared input,
	 * summed by 3 add kernels (3e each) */
	layer += 3 * 6 * h;
	want[CM_KERNELS_EAGER] = layer;
	loss[CM_KERNELS_EAGER] = 128 * h + 36 * V;
	/* compiled: norms, adds, SwiGLU and rotary as fused kernels move
	 * them; repeat_kv and the copy stay; the loss reads and writes the
	 * bf16 logits once each way (8 per logit) */
	layer = 2 * 4 * h + 12 * h + 6 * f + 4 * (q + k) + 4 * (k + q) +
	    4 * q;
	layer += 2 * 6 * h + 12 * h + 10 * f + 4 * (q + k) + 4 * (k + q) +
	    4 * q;
	layer += 3 * 2 * h;	/* the norm backward reads 3 more gradients */
	want[CM_KERNELS_COMPILED] = layer;
	loss[CM_KERNELS_COMPILED] = 10 * h + 8 * V;
	/* fused: no repeat_kv (GQA inside the attention kernel), no copy;
	 * fp32 cross-entropy 16 per logit */
	layer = 2 * 4 * h + 12 * h + 6 * f + 4 * (q + k);
	layer += 2 * 6 * h + 12 * h + 10 * f + 4 * (q + k);
	want[CM_KERNELS_FUSED] = layer;
	loss[CM_KERNELS_FUSED] = 10 * h + 16 * V;
	for (i = 0; i < 3; i++) {
		small_llama(&c, (enum cm_kernels)i);
		cm_layer_elem(&c, &el);
		cm_loss_elem(&c, &lo);
		cm_embed_elem(&c, &em);
		ck_assert_double_eq_tol((el.fwd + el.bwd) / (sb * want[i]), 1,
		    1e-12);
		ck_assert_double_eq_tol((lo.fwd + lo.bwd) / (sb * loss[i]), 1,
		    1e-12);
		/* the dense embedding gradient: zero V x h, add the rows */
		ck_assert_double_eq_tol(em.fwd + em.bwd, 2 * V * h +
		    6 * sb * h, 1e-6);
		/* every kernel of a 2^18-token micro-batch and a 2^18-row
		 * vocabulary moves 100 MB or more: HBM at 0.9 throughout */
		c.model.seq = (int)big;
		c.model.vocab = (int)big;
		eval(&c, &r);
		np = i == CM_KERNELS_EAGER ? 128 * h : 10 * h;
		ck_assert_double_eq_tol(r.t_elementwise * H100_HBM /
		    (2 * big * want[i] + big * np + big * big * (loss[i] -
		    np) / V + 2 * big * h + 6 * big * h), 1, 1e-12);
	}
	ck_assert(want[CM_KERNELS_EAGER] > 3 * want[CM_KERNELS_FUSED]);
}
END_TEST

START_TEST(autocast_bytes)
{
	/* One GPU without ZeRO: torch.autocast over fp32 weights. The
	 * residual stream is fp32, so the norms read fp32 (the eager
	 * RMSNorm's casts vanish: 7o / 23o), each of the 5 separate
	 * products casts its input (4 + 2 each way), their gradients sum in
	 * fp32 (3 adds of 12 bytes, compiled: 3 reads of 4), and the
	 * residual adds move 4 + 2 + 4 forward and 3 x 4 backward. */
	const double h = 1024, q = 1024, k = 256, f = 2816;
	const double sb = 512;
	double want[2], rest;
	struct cm_config c;
	struct cm_elem el;
	struct cm_result a, b;
	int i;

	/* SwiGLU, rotary, repeat_kv and the copy as without autocast */
	rest = 10 * f + 20 * (q + k) + 4 * (k + q) + 4 * q +
	    18 * f + 20 * (q + k) + 4 * (k + q) + 4 * q;
	want[CM_KERNELS_EAGER] = rest + 2 * (28 + 92) * h + 2 * 5 * 6 * h +
	    3 * 12 * h + 20 * h + 24 * h;
	rest = 6 * f + 4 * (q + k) + 4 * (k + q) + 4 * q +
	    10 * f + 4 * (q + k) + 4 * (k + q) + 4 * q;
	want[CM_KERNELS_COMPILED] = rest + 2 * (6 + 10) * h + 3 * 4 * h +
	    20 * h + 24 * h;
	for (i = 0; i < 2; i++) {
		small_llama(&c, (enum cm_kernels)i);
		c.dp = c.gpus = 1;
		c.zero = 0;
		c.global_batch = 1;
		ck_assert_int_eq(cm_autocast(&c), 1);
		cm_layer_elem(&c, &el);
		ck_assert_double_eq_tol((el.fwd + el.bwd) / (sb * want[i]), 1,
		    1e-12);
	}
	/* FSDP and Megatron do not autocast */
	c.zero = 3;
	ck_assert_int_eq(cm_autocast(&c), 0);
	c.zero = 0;
	c.kernels = CM_KERNELS_FUSED;
	ck_assert_int_eq(cm_autocast(&c), 0);
	/* and autocast keeps more: fp32 norm inputs (2 x 2 bytes of h)
	 * and one bf16 cast per extra product (3 x 2 bytes of h) */
	small_llama(&c, CM_KERNELS_EAGER);
	c.dp = c.gpus = 1;
	c.global_batch = 1;
	c.zero = 3;
	eval(&c, &a);
	c.zero = 0;
	eval(&c, &b);
	ck_assert_double_eq_tol(b.mem_act - a.mem_act, 2 * sb * (4 + 6) * h,
	    1e-3);
}
END_TEST

START_TEST(hbm_efficiency_by_size)
{
	/* [CALC]'s memory efficiency by the bytes a kernel moves: 0.9 from
	 * 100 MB, 0.75 at 10 MB, 0.6 at 1 MB, 0.3 at 0.1 MB and below,
	 * interpolated in log size between them. */
	struct cm_config c;
	struct cm_result a, b;

	ck_assert_double_eq(cm_hbm_eff(1e9), 0.9);
	ck_assert_double_eq(cm_hbm_eff(100e6), 0.9);
	ck_assert_double_eq_tol(cm_hbm_eff(10e6), 0.75, 1e-12);
	ck_assert_double_eq_tol(cm_hbm_eff(1e6), 0.6, 1e-12);
	ck_assert_double_eq(cm_hbm_eff(1e3), 0.3);
	ck_assert_double_eq_tol(cm_hbm_eff(sqrt(10) * 1e6), 0.675, 1e-12);
	ck_assert(cm_hbm_eff(9.9e6) < cm_hbm_eff(10.1e6));
	/* the same kernels over 8x fewer tokens: each moves 8x fewer
	 * bytes at a lower efficiency, so more than 1/8 of the time */
	small_llama(&c, CM_KERNELS_EAGER);
	c.model.seq = 8192;
	eval(&c, &a);
	c.model.seq = 1024;
	eval(&c, &b);
	ck_assert(b.t_elementwise > 1.15 * a.t_elementwise / 8);
}
END_TEST

START_TEST(layernorm_and_gelu_are_native)
{
	/* A GPT-style model in eager PyTorch: nn.LayerNorm and F.gelu are
	 * single native kernels, so only the split products, the separate
	 * residual and dropout kernels and the loss differ from fused.
	 * 2^16 tokens keep every kernel above 100 MB (HBM at 0.9). */
	struct cm_config c;
	struct cm_result e, f;
	struct hw_model m = *hw_model_find(&cat, "gpt3-175b");
	double sbh, gain, tok = 65536;

	m.layers = 4;
	m.hidden = 2048;
	m.heads = m.kv_heads = 16;
	m.ffn = 8192;
	m.vocab = 2048;
	m.seq = (int)tok;
	m.dropout = 0;
	cm_config_default(&c, &m, hw_gpu_find(&cat, "a100-80gb"));
	c.dp = c.gpus = 2;	/* ZeRO-3: no autocast casts of whole weights */
	c.zero = 3;
	c.global_batch = 2;
	c.recompute = CM_RECOMPUTE_NONE;
	eval(&c, &e);
	c.kernels = CM_KERNELS_FUSED;
	eval(&c, &f);
	/* per layer the eager extra is the attention output copy (4 h each
	 * way) and the sum of the gradients wq, wk, wv send back (2 adds of
	 * 3e h); the loss 36 - 16 per logit and the final norm the same */
	sbh = tok * 2048;
	gain = (4 * (8 + 12) * sbh + (36 - 16) * tok * 2048) /
	    (0.9 * 2039e9);
	ck_assert_double_eq_tol(e.t_elementwise - f.t_elementwise, gain,
	    1e-12);
}
END_TEST

START_TEST(products_split_in_pytorch)
{
	/* PyTorch code keeps wq, wk, wv and w1, w3 as separate products;
	 * Megatron-Core merges QKV and gate/up. With GQA the K and V
	 * products are narrow and run below the large-GEMM efficiency. */
	struct cm_config c;
	struct cm_result r[3];
	int i;

	for (i = 0; i < 3; i++) {
		small_llama(&c, (enum cm_kernels)i);
		eval(&c, &r[i]);
	}
	ck_assert_double_eq(r[0].t_gemm, r[1].t_gemm);
	ck_assert(r[0].t_gemm > r[2].t_gemm);
	ck_assert_double_eq(r[0].flops_model, r[2].flops_model);
}
END_TEST

START_TEST(optimizer_and_casts)
{
	/* torch.optim.AdamW's foreach path: 80 bytes per parameter over fp32
	 * weights, gradients and moments, clip_grad_norm_ 12 more; fused Adam
	 * 34 and the gradient buffer cleared. On one GPU without ZeRO,
	 * autocast casts every weight in (6 bytes) and its gradient out (6)
	 * each micro-batch, and adds it into .grad after the first (12). */
	struct cm_config c;
	struct cm_result e, f, e2;
	double el[16], k;

	small_llama(&c, CM_KERNELS_EAGER);
	c.dp = c.gpus = 1;
	c.zero = 0;
	c.global_batch = 1;
	eval(&c, &e);
	ck_assert_double_eq_tol(e.t_optimizer * H100_HBM / (92 *
	    e.params_gpu), 1, 1e-12);
	c.kernels = CM_KERNELS_FUSED;
	eval(&c, &f);
	ck_assert_double_eq_tol(f.t_optimizer * H100_HBM / (34 *
	    f.params_gpu + f.mem_grads), 1, 1e-12);
	c.kernels = CM_KERNELS_EAGER;
	c.global_batch = 2;	/* two micro-batches */
	eval(&c, &e2);
	/* per micro-batch: 12 bytes of casts, plus 12 x 1/2 of adding, in
	 * one kernel per weight tensor for each of the three */
	k = 2 * cm_layer_tensors(&c, el, 16) * 3.0;
	ck_assert_double_eq_tol(e2.t_elementwise / 2 - e.t_elementwise,
	    cm_hbm_s(&c, 18 * e.params_gpu, k) -
	    cm_hbm_s(&c, 12 * e.params_gpu, k), 1e-15);
	ck_assert(cm_hbm_s(&c, 6 * e.params_gpu, k) > 6 * e.params_gpu /
	    H100_HBM);
}
END_TEST

START_TEST(eager_activations)
{
	/* What eager autograd keeps beyond the fused set, per layer: the
	 * fp32 copy in each RMSNorm (o h, twice), the fp32 inputs of the
	 * rotary multiply (o (q + k)), the repeated K and V (2e (q - k)),
	 * SiLU's output (e f); and the loss's logits: eager 2 + 3 x 4 = 14
	 * bytes each (bf16 logits, fp32 log-softmax output, both fp32
	 * gradients), compiled 4, fused 4 (fp32, gradient in place). */
	const double h = 1024, q = 1024, k = 256, f = 2816, V = 256;
	const double sb = 512;
	struct cm_config c;
	struct cm_result r[3];
	double extra = 2 * 4 * h + 4 * (q + k) + 4 * (q - k) + 2 * f;
	int i;

	for (i = 0; i < 3; i++) {
		small_llama(&c, (enum cm_kernels)i);
		eval(&c, &r[i]);
	}
	ck_assert_double_eq_tol(r[0].mem_act - r[2].mem_act,
	    sb * (2 * extra + (14 - 4) * V), 1e-3);
	ck_assert_double_eq_tol(r[1].mem_act, r[2].mem_act, 1e-3);
	/* a checkpointed layer keeps only its input; the recomputed one
	 * holds the eager set */
	for (i = 0; i < 3; i += 2) {
		small_llama(&c, (enum cm_kernels)i);
		c.recompute = CM_RECOMPUTE_FULL;
		eval(&c, &r[i]);
	}
	ck_assert_double_eq_tol(r[0].mem_act - r[2].mem_act,
	    sb * (extra + (14 - 4) * V), 1e-3);
}
END_TEST

START_TEST(kernel_issue)
{
	/* Eager PyTorch launches several kernels per op where fused kernels
	 * launch one: on a toy model the host-bound step is longer. */
	struct cm_config c;
	struct cm_result e, f;
	struct hw_model m = *hw_model_find(&cat, "llama2-7b");

	m.layers = 4;
	m.hidden = 256;
	m.heads = m.kv_heads = 4;
	m.ffn = 1024;
	m.seq = 128;
	m.vocab = 1000;
	cm_config_default(&c, &m, hw_gpu_find(&cat, "h100-80gb"));
	c.global_batch = 1;
	eval(&c, &e);
	c.kernels = CM_KERNELS_FUSED;
	eval(&c, &f);
	ck_assert(e.t_overhead > 0 && f.t_overhead > 0);
	ck_assert(e.t_compute > 2 * f.t_compute);
}
END_TEST

START_TEST(flash2_on_hopper)
{
	/* FlashAttention-2 on H100 runs at 329 of the 631 TFLOP/s cuDNN and
	 * FlashAttention-3 reach (pytorch/pytorch issue 142132): gpus.json's
	 * flash2_ratio 0.52; on A100 it is the fastest kernel there is. */
	struct cm_config c;
	struct cm_result a, b;

	small_llama(&c, CM_KERNELS_EAGER);
	eval(&c, &a);
	c.attention = CM_ATTN_FLASH2;
	eval(&c, &b);
	ck_assert_double_eq_tol(b.t_attn / a.t_attn, 1 / 0.52, 1e-12);
	ck_assert_double_eq(b.mem_act, a.mem_act);
	c.gpu = *hw_gpu_find(&cat, "a100-80gb");
	c.attention = CM_ATTN_FLASH;
	eval(&c, &a);
	c.attention = CM_ATTN_FLASH2;
	eval(&c, &b);
	ck_assert_double_eq(b.t_attn, a.t_attn);
}
END_TEST

START_TEST(flash_head_size)
{
	/* The same attention FLOPs in heads of 64 run slower than in heads
	 * of 128 (FlashAttention-3 paper, Figure 5, H100 forward): the
	 * fastest Hopper kernel 648 -> 497 TFLOP/s, FlashAttention-2
	 * 370 -> 324, also on an A100, where it is the fastest kernel. */
	static const struct {
		const char		*gpu;
		enum cm_attention	 attn;
		double			 ratio;	/* time at 64 over 128 */
	} rows[] = {
		{ "h100-80gb", CM_ATTN_FLASH, 648.0 / 497 },
		{ "h100-80gb", CM_ATTN_FLASH2, 370.0 / 324 },
		{ "a100-80gb", CM_ATTN_FLASH, 370.0 / 324 },
	};
	struct cm_config c;
	struct cm_result r64, r128, r96;
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		small_llama(&c, CM_KERNELS_FUSED);
		c.gpu = *hw_gpu_find(&cat, rows[i].gpu);
		c.attention = rows[i].attn;
		c.model.heads = 8;	/* 1024 / 8 = 128 */
		eval(&c, &r128);
		c.model.heads = 16;	/* 64 */
		c.model.kv_heads = 4;
		eval(&c, &r64);
		ck_assert_double_eq_tol(r64.t_attn / r128.t_attn, rows[i].ratio,
		    1e-9);
	}
	/* heads of 96 fall in between */
	small_llama(&c, CM_KERNELS_FUSED);
	c.model.hidden = 1536;
	c.model.heads = 16;
	c.model.kv_heads = 4;
	eval(&c, &r96);
	c.model.heads = 12;	/* 128 */
	eval(&c, &r128);
	ck_assert(r96.t_attn > r128.t_attn && r96.t_attn < r128.t_attn *
	    648.0 / 497);
}
END_TEST

START_TEST(plain_default)
{
	/* One plain default, eager, whatever the layout: changing TP or PP
	 * never swaps the kernels behind the learner's back. */
	const char *in = "{\"model\": \"llama2-70b\", \"dp\": 2, \"tp\": 8,"
	    " \"pp\": 4}";
	struct cm_config c;
	struct pl_err err;
	cJSON *o = cJSON_Parse(in);

	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err), 0);
	cJSON_Delete(o);
	ck_assert_int_eq(c.kernels, CM_KERNELS_EAGER);
	ck_assert_int_eq(c.weight_gather, CM_GATHER_LAYER);
	ck_assert_int_eq(c.attention, CM_ATTN_FLASH);
}
END_TEST

START_TEST(settings_round_trip)
{
	const char *in = "{\"model\": \"llama2-7b\", \"dp\": 8, \"tp\": 1,"
	    " \"pp\": 1, \"zero\": 3, \"kernels\": \"compiled\","
	    " \"attention\": \"flash2\", \"weight_gather\": \"param\"}";
	const char *const bad[] = {
	    "{\"model\": \"llama2-7b\", \"kernels\": \"jit\"}",
	    "{\"model\": \"llama2-7b\", \"weight_gather\": \"tensor\"}",
	    "{\"model\": \"llama2-7b\", \"attention\": \"flash3\"}", NULL };
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;
	cJSON *o = cJSON_Parse(in), *j, *l;
	enum cm_kernels k;
	enum cm_gather g;
	int i;

	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err), 0);
	cJSON_Delete(o);
	ck_assert_int_eq(c.kernels, CM_KERNELS_COMPILED);
	ck_assert_int_eq(c.attention, CM_ATTN_FLASH2);
	ck_assert_int_eq(c.weight_gather, CM_GATHER_PARAM);
	eval(&c, &r);
	j = cm_result_json(&r);
	l = cJSON_GetObjectItem(j, "layout");
	ck_assert_str_eq(cJSON_GetObjectItem(l, "kernels")->valuestring,
	    "compiled");
	ck_assert_str_eq(cJSON_GetObjectItem(l, "attention")->valuestring,
	    "flash2");
	ck_assert_str_eq(cJSON_GetObjectItem(l, "weight_gather")->valuestring,
	    "param");
	cJSON_Delete(j);
	for (i = 0; bad[i] != NULL; i++) {
		o = cJSON_Parse(bad[i]);
		ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json",
		    "engine", &err), -1);
		ck_assert_ptr_nonnull(strstr(err.msg, "unknown value"));
		cJSON_Delete(o);
	}
	ck_assert_int_eq(cm_kernels_parse("fused", &k), 0);
	ck_assert_int_eq(k, CM_KERNELS_FUSED);
	ck_assert_str_eq(cm_kernels_name(CM_KERNELS_EAGER), "eager");
	ck_assert_int_eq(cm_gather_parse("layer", &g), 0);
	ck_assert_int_eq(g, CM_GATHER_LAYER);
	ck_assert_int_eq(cm_gather_parse("x", &g), -1);
}
END_TEST

static Suite *
kernels_suite(void)
{
	Suite *s = suite_create("kernels");
	TCase *tc = tcase_create("what runs between the products");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, elementwise_bytes);
	tcase_add_test(tc, hbm_efficiency_by_size);
	tcase_add_test(tc, autocast_bytes);
	tcase_add_test(tc, layernorm_and_gelu_are_native);
	tcase_add_test(tc, products_split_in_pytorch);
	tcase_add_test(tc, optimizer_and_casts);
	tcase_add_test(tc, eager_activations);
	tcase_add_test(tc, kernel_issue);
	tcase_add_test(tc, flash2_on_hopper);
	tcase_add_test(tc, flash_head_size);
	suite_add_tcase(s, tc);
	tc = tcase_create("settings");
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, plain_default);
	tcase_add_test(tc, settings_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(kernels_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
