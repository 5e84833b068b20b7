/*
 * check_mla.c - DeepSeek-V3 and GPT-OSS-120B in the engine (hw_mla.c,
 * costmodel_layers.c, costmodel_linears.c, costmodel_ep.c): parameters
 * against the published counts, MLA's products, dense first layers priced
 * per stage, MTP modules on the last stage, sliding-window attention's
 * FLOPs, EP's all-to-alls hidden by Megatron-Core's batch-level overlap,
 * and bad shapes refused.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/framework.h"
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
	c->global_batch = 8L * gpus;
}

START_TEST(deepseek_v3_counts_as_published)
{
	/* report (arXiv 2412.19437) 4.2: 671B total; README_WEIGHTS.md:
	 * 36.6B activated, counting the output head and not the input
	 * embedding (a lookup), which the engine's active_params keeps */
	const struct hw_model *m = hw_model_find(&cat, "deepseek-v3");
	double emb, act;

	ck_assert_ptr_nonnull(m);
	emb = (double)m->vocab * m->hidden;
	act = cm_params_active(m) - emb;
	ck_assert_msg(fabs(cm_params(m) / 671e9 - 1) < 0.01, "%.4g",
	    cm_params(m));
	ck_assert_msg(fabs(act / 36.6e9 - 1) < 0.01, "%.4g active", act);
	/* the report's "37B" is that figure rounded: within its rounding */
	ck_assert_msg(act > 36.5e9 && act < 37.5e9, "%.4g", act);
	/* by hand: MLA 187,107,328 + 2 norms a layer; 3 dense MLPs of
	 * 3 h 18432; 58 MoE layers of 257 experts of 3 h 2048 and the
	 * router h x 256; embeddings untied; final norm */
	{
		double h = 7168, attn = h * 1536 + 1536 + 1536 * 128 * 192.0 +
		    h * 576 + 512 + 512 * 128 * 256.0 + 128 * 128 * h;
		double dense = attn + 3 * h * 18432 + 2 * h;
		double moe = attn + 257 * 3 * h * 2048 + h * 256 + 2 * h;

		ck_assert_double_eq(attn, 187107328);
		ck_assert_double_eq_tol(cm_params(m), 3 * dense + 58 * moe +
		    2 * emb + h, 1);
	}
}
END_TEST

START_TEST(gpt_oss_counts_as_published)
{
	/* model card (arXiv 2508.10925) Table 1: 116.83B total, 5.13B
	 * active (output head counted, input embedding not); "117B" and
	 * "5.1B" in its text */
	const struct hw_model *m = hw_model_find(&cat, "gpt-oss-120b");
	double act;

	ck_assert_ptr_nonnull(m);
	act = cm_params_active(m) - (double)m->vocab * m->hidden;
	ck_assert_msg(fabs(cm_params(m) / 117e9 - 1) < 0.02, "%.4g",
	    cm_params(m));
	ck_assert_msg(fabs(act / 5.1e9 - 1) < 0.02, "%.4g active", act);
	ck_assert_msg(fabs(cm_params(m) / 116.83e9 - 1) < 0.001, "%.5g",
	    cm_params(m));
	ck_assert_msg(fabs(act / 5.13e9 - 1) < 0.002, "%.4g", act);
}
END_TEST

START_TEST(mla_prices_its_own_products)
{
	/* one rank, no EP: the products' weights are MLA's five matrices,
	 * the 256 experts and the shared one, not GQA's 2 h a d_h + 2 h k
	 * d_h; under TP 8 the down-projections stay whole */
	struct cm_config c;
	const struct hw_model *m;
	double h = 7168, e3 = 3 * h * 2048, attn1, attn8;

	cfg(&c, "deepseek-v3", 8);
	m = &c.model;
	c.kernels = CM_KERNELS_FUSED;
	attn1 = hw_attn_params(m, 1);
	ck_assert_double_eq(attn1, 187107328 - 512 - 1536);
	ck_assert_double_eq_tol(cm_fp8_layer_linear_params(&c),
	    attn1 + 257 * e3, 1);
	/* activations: a wider query latent keeps 4 bytes more a token
	 * (its norm's input and the up-projection's) */
	{
		struct cm_config w = c;
		double sb = cm_rank_tokens(&c);

		w.model.q_lora_rank += 512;
		ck_assert_double_eq_tol(cm_act_layer_bytes(&w) -
		    cm_act_layer_bytes(&c), 4 * sb * 512, 1e-6 * sb);
		ck_assert_double_eq(cm_mla_act(&c, 1), 2 * 128 * (2 * 192 +
		    2 * 128.0) + 4 * (1536 + 512) + 2 * 64);
	}
	/* K and V per head: 192 and 128 wide, what CP sends */
	ck_assert_double_eq(2 * cm_kv_width(&c), (192.0 + 128) * 128);
	c.degree[MESH_DP] = 1;
	c.degree[MESH_TP] = 8;
	attn8 = h * 1536 + h * 576 + (attn1 - h * 1536 - h * 576) / 8;
	ck_assert_double_eq_tol(cm_fp8_layer_linear_params(&c),
	    attn8 + 257 * e3 / 8, 1);
}
END_TEST

START_TEST(dense_layers_have_no_all_to_all)
{
	/* PP 1, EP 8: the all-to-alls run in the 58 MoE layers only; the
	 * same model with every layer MoE pays them 61 times */
	struct cm_config c, u;
	struct cm_result r, ru;

	cfg(&c, "deepseek-v3", 64);
	c.ep = 8;
	c.zero = 1;
	c.kernels = CM_KERNELS_FUSED;
	u = c;
	u.model.dense_layers = 0;
	eval(&c, &r);
	eval(&u, &ru);
	ck_assert(r.t_ep > 0);
	ck_assert_double_eq_tol(r.t_ep * 61, ru.t_ep * 58, 1e-9 * ru.t_ep);
	ck_assert_int_eq(r.slow_dense, 3);
	ck_assert_double_eq_tol(r.t_ep_exposed, r.t_ep, 1e-12);
}
END_TEST

START_TEST(stage_memory_counts_dense_layers)
{
	/* TP 1, PP 1, EP 1: a rank holds every parameter; under EP 8 the
	 * 58 MoE layers hold 32 of the 256 experts and the 3 dense layers
	 * their whole MLP */
	struct cm_config c;
	struct cm_result r;
	const struct hw_model *m;
	double h = 7168, attn, emb;

	cfg(&c, "deepseek-v3", 8);
	m = &c.model;
	c.zero = 1;
	eval(&c, &r);
	ck_assert_double_eq_tol(r.params_gpu, cm_params(m), 1);
	/* the MTP module's layer and projection live on the (last) stage */
	c.model.mtp = 1;
	eval(&c, &r);
	ck_assert_double_eq_tol(r.params_gpu, cm_params(m), 1);
	c.model.mtp = 0;
	c.ep = 8;
	eval(&c, &r);
	attn = hw_attn_params(m, 0);
	emb = 2.0 * m->vocab * h;
	ck_assert_double_eq_tol(r.params_gpu, 3 * (attn + 3 * h * 18432 +
	    2 * h) + 58 * (attn + (32 + 1) * 3 * h * 2048 + h * 256 + 2 * h) +
	    emb + h, 1);
}
END_TEST

START_TEST(slowest_stage_paces_the_pipeline)
{
	/* MTP 1 makes 62 pipeline layers: PP 2 puts 3 dense + 28 MoE on
	 * stage 0 and 30 MoE + the MTP module (and its head) on stage 1,
	 * which is slower and is named */
	struct cm_config c;
	struct cm_result r;

	cfg(&c, "deepseek-v3", 64);
	c.model.mtp = 1;
	c.degree[MESH_DP] = 32;
	c.degree[MESH_PP] = 2;
	c.ep = 8;
	c.zero = 1;
	c.kernels = CM_KERNELS_FUSED;
	eval(&c, &r);
	ck_assert_int_eq(r.slow_stage, 1);
	ck_assert_int_eq(r.slow_dense, 0);
	ck_assert_int_eq(r.slow_layers, 31);
	/* MTP adds its layer's parameters and a projection 2h x h */
	ck_assert_double_eq_tol(cm_params(&c.model) - cm_params(
	    hw_model_find(&cat, "deepseek-v3")), hw_layer_params(&c.model, 0,
	    0) + 2.0 * 7168 * 7168 + 2 * 7168, 1);
	/* without MTP, 61 layers leave PP 2 one short and PP 16 three */
	c.model.mtp = 0;
	c.ep = 4;
	c.degree[MESH_DP] = 4;
	c.degree[MESH_PP] = 16;
	ck_assert_int_eq(cm_valid_quick(&c), -1);
	c.model.mtp = 1;
	ck_assert_int_eq(cm_valid_quick(&c), 0);
}
END_TEST

START_TEST(windowed_layers_see_their_window)
{
	/* GPT-OSS: 18 of 36 layers see 128 of 4096 keys, so the attention
	 * FLOPs are (18 + 18 x 128 / 4096) / 36 of full attention's */
	const struct hw_model *m = hw_model_find(&cat, "gpt-oss-120b");
	struct hw_model full = *m;
	double s = m->seq, a, af;

	full.sliding_window = 0;
	a = cm_flops_model(m, 1) - 6 * s * cm_params_matmul(m);
	af = cm_flops_model(&full, 1) - 6 * s * cm_params_matmul(&full);
	ck_assert_double_eq_tol(a / af, (18 + 18 * 128 / s) / 36, 1e-12);
	ck_assert_double_eq(af, 12 * s * s * 36 * 64 * 64.0);
	/* and the flash kernels' time by as much */
	{
		struct cm_config c, cf;
		struct cm_result r, rf;

		cfg(&c, "gpt-oss-120b", 8);
		c.kernels = CM_KERNELS_FUSED;
		cf = c;
		cf.model.sliding_window = 0;
		eval(&c, &r);
		eval(&cf, &rf);
		ck_assert_double_eq_tol(r.t_attn / rf.t_attn,
		    (18 + 18 * 128 / s) / 36, 1e-12);
	}
}
END_TEST

START_TEST(ep_overlap_hides_behind_the_other_microbatch)
{
	/* Megatron-Core's --overlap-moe-expert-parallel-comm: with m micro-
	 * batches and one stage, m - 1 pair up and hide their all-to-alls
	 * behind the partner's compute; one micro-batch hides nothing */
	struct cm_config c;
	struct cm_result r, o;

	cfg(&c, "deepseek-v3", 64);
	c.ep = 64;
	c.zero = 1;
	c.kernels = CM_KERNELS_FUSED;
	c.global_batch = 64 * 4;
	eval(&c, &r);
	c.ep_overlap = 1;
	eval(&c, &o);
	ck_assert_double_eq_tol(o.t_ep, r.t_ep, 1e-12 * r.t_ep);
	ck_assert(o.t_ep_exposed < r.t_ep_exposed);
	ck_assert(o.t_ep_exposed >= r.t_ep / 4 - 1e-12);
	ck_assert(o.t_step < r.t_step);
	ck_assert_uint_eq(cm_ep_frameworks(&c), FW_BIT(FW_MEGATRON));
	ck_assert_double_eq(cm_ep_exposed_mb(&c, 2, 1, 4),
	    (3 * 1.0 + 1 * 2.0) / 4);
	ck_assert_double_eq(cm_ep_exposed_mb(&c, 2, 3, 1), 2);
	c.global_batch = 64;
	eval(&c, &o);
	ck_assert_double_eq_tol(o.t_ep_exposed, o.t_ep, 1e-12);
}
END_TEST

START_TEST(bad_latent_shapes_are_refused)
{
	struct hw_model m = *hw_model_find(&cat, "deepseek-v3");
	struct pl_err err;

	ck_assert_int_eq(hw_model_check(&m, &err), 0);
	m.kv_lora_rank = 0;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "kv_lora_rank"));
	m.kv_lora_rank = 512;
	m.kv_heads = 8;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
	m.kv_heads = 128;
	m.dense_layers = 61;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "dense_layers"));
	m = *hw_model_find(&cat, "llama3-8b");
	m.dense_layers = 2;
	ck_assert_int_eq(hw_model_check(&m, &err), -1);
}
END_TEST

static Suite *
mla_suite(void)
{
	Suite *s = suite_create("mla");
	TCase *tc = tcase_create("deepseek-v3 and gpt-oss");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, deepseek_v3_counts_as_published);
	tcase_add_test(tc, gpt_oss_counts_as_published);
	tcase_add_test(tc, mla_prices_its_own_products);
	tcase_add_test(tc, dense_layers_have_no_all_to_all);
	tcase_add_test(tc, stage_memory_counts_dense_layers);
	tcase_add_test(tc, slowest_stage_paces_the_pipeline);
	tcase_add_test(tc, windowed_layers_see_their_window);
	tcase_add_test(tc, ep_overlap_hides_behind_the_other_microbatch);
	tcase_add_test(tc, bad_latent_shapes_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(mla_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
