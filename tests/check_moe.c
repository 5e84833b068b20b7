/*
 * check_moe.c - mixture-of-experts models and a head size apart from
 * hidden / heads (core/engine/hw_moe.c, costmodel_linears.c,
 * costmodel_moe.c): the presets' total and active parameters against
 * their model cards, FLOPs and MFU on the active parameters, memory on
 * all of them, the experts' products on their own small shapes, the
 * router outside FP8, what eager PyTorch's loop over the experts costs
 * the host, the activations a MoE layer keeps, and bad shapes refused.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

static void
cfg(struct cm_config *c, const char *model, int gpus)
{
	const struct hw_model *m = hw_model_find(&cat, model);

	ck_assert_msg(m != NULL, "no preset %s", model);
	cm_config_default(c, m, hw_gpu_find(&cat, "h100-80gb"));
	c->gpus = gpus;
	c->degree[MESH_DP] = gpus;
	c->global_batch = gpus;
}

/* The same model with a dense MLP of a token's width: k + shared
 * experts side by side, no router. */
static struct hw_model
dense_twin(const struct hw_model *m)
{
	struct hw_model d = *m;

	d.ffn = (m->top_k + m->shared_experts) * m->expert_ffn;
	d.experts = d.top_k = d.shared_experts = d.expert_ffn = 0;
	return d;
}

START_TEST(presets_match_their_cards)
{
	/* Mixtral paper: 46.7B total, 12.9B active ("13B"); Qwen3
	 * report: 30.5B / 3.3B and 235B / 22B */
	static const struct { const char *name; double all, act, tol; } p[] = {
		{ "mixtral-8x7b", 46.7e9, 12.9e9, 0.01 },
		{ "qwen3-30b-a3b", 30.5e9, 3.3e9, 0.02 },
		{ "qwen3-235b-a22b", 235e9, 22e9, 0.02 },
	};
	size_t i;

	for (i = 0; i < sizeof p / sizeof p[0]; i++) {
		const struct hw_model *m = hw_model_find(&cat, p[i].name);
		double all, act;

		ck_assert_ptr_nonnull(m);
		all = cm_params(m);
		act = cm_params_active(m);
		ck_assert_msg(fabs(all / p[i].all - 1) < p[i].tol,
		    "%s: %.3g parameters", p[i].name, all);
		ck_assert_msg(fabs(act / p[i].act - 1) < p[i].tol + 0.02,
		    "%s: %.3g active", p[i].name, act);
	}
}
END_TEST

START_TEST(head_dim_sets_the_attention_width)
{
	/* Qwen3-30B-A3B: 32 heads of 128 on a 2048-wide model: Q and O are
	 * 2048 x 4096, K and V 2048 x 512; a head_dim equal to hidden /
	 * heads changes nothing */
	const struct hw_model *q = hw_model_find(&cat, "qwen3-30b-a3b");
	struct hw_model l = *hw_model_find(&cat, "llama3-8b"), l2 = l;
	double attn = 2.0 * 2048 * 4096 + 2.0 * 2048 * 512, moe;

	ck_assert_double_eq(hw_q_width(q), 4096);
	moe = 128.0 * 3 * 2048 * 768 + 2048.0 * 128;
	ck_assert_double_eq_tol(cm_params(q), 48 * (attn + moe + 2 * 2048 +
	    2 * 128) + 2.0 * 151936 * 2048 + 2048, 1);
	l2.head_dim = 128;
	ck_assert_double_eq(cm_params(&l2), cm_params(&l));
	ck_assert_double_eq(cm_flops_model(&l2, 8), cm_flops_model(&l, 8));
}
END_TEST

START_TEST(flops_count_active_memory_counts_all)
{
	/* Model FLOPs are the dense twin's plus the router's 6 B s h E
	 * per layer; the weights in memory are all E experts' */
	struct cm_config c;
	struct cm_result r;
	const struct hw_model *m = hw_model_find(&cat, "mixtral-8x7b");
	struct hw_model d = dense_twin(m);
	double B = 8, s = m->seq, router;

	router = 6 * B * s * m->layers * (double)m->hidden * m->experts;
	ck_assert_double_eq_tol(cm_flops_model(m, B), cm_flops_model(&d, B) +
	    router, 1e-9 * cm_flops_model(m, B));
	cfg(&c, "mixtral-8x7b", 8);
	c.global_batch = 8;
	c.zero = 3;
	eval(&c, &r);
	ck_assert_double_eq_tol(r.params, cm_params(m), 1);
	ck_assert_double_eq_tol(r.params_active, cm_params_active(m), 1);
	/* ZeRO-3 over 8: each GPU keeps an eighth of all the bf16 weights */
	ck_assert_msg(fabs(r.mem_params / (2 * r.params / 8) - 1) < 0.01,
	    "params %g GB", r.mem_params / 1e9);
	ck_assert_double_eq_tol(r.mfu, r.flops_model / (r.t_step * 8 *
	    c.gpu.peak_flops), 1e-12);
	ck_assert_double_eq_tol(r.flops_model, cm_flops_model(m, 8), 1);
}
END_TEST

START_TEST(experts_run_on_small_shapes)
{
	/* Qwen3-30B-A3B at micro-batch 1: 4096 tokens x top-8 over 128
	 * experts is 256 tokens an expert, and an expert's down projection
	 * is 768 deep: small products run further from the peak (the shape
	 * rule's tiles, and the memory bound as the weights are read for
	 * few tokens), so the MoE layer's products take longer than the
	 * dense twin's of the same FLOPs and the router's; at 16 samples
	 * a micro-batch the memory bound lifts and the gap narrows. */
	struct cm_config c, d;
	struct cm_result rm, rd;
	double small, large;

	cfg(&c, "qwen3-30b-a3b", 1);
	c.kernels = CM_KERNELS_FUSED;
	d = c;
	d.model = dense_twin(&c.model);
	eval(&c, &rm);
	eval(&d, &rd);
	small = rm.t_gemm / rd.t_gemm;
	c.micro_batch = d.micro_batch = 16;
	c.global_batch = d.global_batch = 16;
	eval(&c, &rm);
	eval(&d, &rd);
	large = rm.t_gemm / (rd.t_gemm);
	ck_assert_msg(small > 1.05, "moe / dense %g at b 1", small);
	ck_assert_msg(large < small && large > 1, "moe / dense %g at b 16, "
	    "%g at b 1", large, small);
}
END_TEST

START_TEST(router_stays_out_of_fp8)
{
	/* FP8 weights copy every linear but the router */
	struct cm_config c;
	const struct hw_model *m;
	double lin;

	cfg(&c, "mixtral-8x7b", 1);
	c.kernels = CM_KERNELS_FUSED;
	c.precision = CM_PREC_FP8;
	m = &c.model;
	lin = 4096.0 * (4096 + 2 * 1024) + 4096.0 * 4096 +
	    8 * 3.0 * 4096 * 14336;
	ck_assert_double_eq_tol(cm_fp8_layer_linear_params(&c), lin, 1);
	ck_assert_double_eq_tol(cm_layer_params_rank(&c) - lin,
	    m->hidden * (double)m->experts + 2 * 4096, 1);
}
END_TEST

START_TEST(eager_loops_over_the_experts)
{
	/* Hugging Face's loop: every expert's products and its index ops
	 * are kernels of their own, issued from Python; a grouped GEMM is
	 * one kernel for all E. Eager's host forward per layer exceeds
	 * compiled-free fused by at least E x 4 Python operators. */
	struct cm_config c, f;
	struct cm_result re, rf;

	cfg(&c, "qwen3-30b-a3b", 1);
	c.kernels = CM_KERNELS_EAGER;
	f = c;
	f.kernels = CM_KERNELS_FUSED;
	eval(&c, &re);
	eval(&f, &rf);
	ck_assert_msg(re.t_host_fwd - rf.t_host_fwd > 48 * 128 * 4 *
	    CM_HOST_PY_OP_S, "eager %g fused %g", re.t_host_fwd,
	    rf.t_host_fwd);
}
END_TEST

START_TEST(moe_layer_keeps_its_dispatch)
{
	/* besides its experts' MLPs (at a token's width), a MoE layer keeps
	 * k permuted copies of its input, the k expert outputs, and the
	 * router's fp32 scores: 4 k s b h + 8 s b E bytes */
	struct cm_config c, d;
	double sb, h, k, E;

	cfg(&c, "mixtral-8x7b", 1);
	c.recompute = CM_RECOMPUTE_NONE;
	d = c;
	d.model = dense_twin(&c.model);
	sb = c.model.seq;
	h = c.model.hidden;
	k = c.model.top_k;
	E = c.model.experts;
	ck_assert_double_eq_tol(cm_act_layer_bytes(&c) -
	    cm_act_layer_bytes(&d), 4 * k * sb * h + 8 * sb * E, 1);
	/* full recomputation keeps the layer's input only, either way */
	c.recompute = d.recompute = CM_RECOMPUTE_FULL;
	ck_assert_double_eq(cm_act_layer_bytes(&c), cm_act_layer_bytes(&d));
}
END_TEST

START_TEST(bad_shapes_are_refused)
{
	struct hw_model m = *hw_model_find(&cat, "llama3-8b");
	struct pl_err err;

	m.experts = 8;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "top_k"));
	m.top_k = 9;
	m.expert_ffn = 14336;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
	m.top_k = 2;
	ck_assert_int_eq(hw_model_check(&m, &err), 0);
	/* biased experts are GPT-OSS's, counted (check_mla.c) */
	m.biases = 1;
	ck_assert_int_eq(hw_model_check(&m, &err), 0);
	m.biases = 0;
	m.experts = 0;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "need experts"));
	/* a head size of its own frees heads from dividing hidden */
	m = *hw_model_find(&cat, "llama3-8b");
	m.heads = 24;
	m.kv_heads = 8;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
	m.head_dim = 128;
	ck_assert_int_eq(hw_model_check(&m, &err), 0);
}
END_TEST

static Suite *
moe_suite(void)
{
	Suite *s = suite_create("moe");
	TCase *tc = tcase_create("mixture of experts");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, presets_match_their_cards);
	tcase_add_test(tc, head_dim_sets_the_attention_width);
	tcase_add_test(tc, flops_count_active_memory_counts_all);
	tcase_add_test(tc, experts_run_on_small_shapes);
	tcase_add_test(tc, router_stays_out_of_fp8);
	tcase_add_test(tc, eager_loops_over_the_experts);
	tcase_add_test(tc, moe_layer_keeps_its_dispatch);
	tcase_add_test(tc, bad_shapes_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(moe_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
