/*
 * check_sched_engine.c - ZB-H1 and DualPipe in the engine
 * (costmodel_sched.c) held to their sources: the bubble formulas of the
 * zero-bubble paper (arXiv 2311.09241, 3.1) and the DualPipe README's
 * table (deepseek-ai/DualPipe 3da1bbe), DualPipe's two copies of the
 * parameters and p + 1 micro-batches of activations, ZB-H1's memory equal
 * to 1F1B's, the conditions of DualPipe.step, and that no framework of
 * the three runs either (framework.c).
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"
#include "core/engine/hardware.h"
#include "catfix.h"

/* Bubble in micro-batch times, F = B(input) = W = 1: tmb = F + B + W. */
START_TEST(formulas)
{
	struct cm_config c;
	int p;

	memset(&c, 0, sizeof c);
	c.virtual_stages = 1;
	for (p = 2; p <= 32; p *= 2) {
		double one, zb, dual;

		c.pp = p;
		c.schedule = PIPE_1F1B;
		one = cm_sched_bubble_slots(&c, 3, 1, 1);
		c.schedule = PIPE_ZB_H1;
		zb = cm_sched_bubble_slots(&c, 3, 1, 1);
		c.schedule = PIPE_DUALPIPE;
		dual = cm_sched_bubble_slots(&c, 3, 1, 1);
		/* 1F1B (p-1)(F+B); ZB-H1 (p-1)(F+B-2W): a third of it */
		ck_assert_double_eq_tol(one, p - 1, 1e-12);
		ck_assert_double_eq_tol(zb * 3, one, 1e-12);
		/* DualPipe (p/2-1)(F&B+B-3W), F&B = F+B = 3, B = 2 */
		ck_assert_double_eq_tol(dual * 3, (p / 2 - 1) * (3 + 2 - 3.0),
		    1e-12);
	}
	/* W larger than F + B - 2W allows: no negative bubble */
	c.pp = 8;
	c.schedule = PIPE_ZB_H1;
	ck_assert_double_eq(cm_sched_bubble_slots(&c, 2, 1, 1.5), 0);
	/* an edge device of dualpipe.py pairs m - 3p/2 + 1 micro-batches */
	c.schedule = PIPE_DUALPIPE;
	ck_assert_double_eq(cm_sched_paired(&c, 40), 40 - 12 + 1);
	c.schedule = PIPE_1F1B;
	ck_assert_double_eq(cm_sched_paired(&c, 40), 32);
}
END_TEST

/* Llama 3 70B on 64 H100s, TP 8 x PP 4 x DP 2, 32 micro-batches. */
static void
llama70(struct cm_config *c, enum pipe_schedule s, struct cm_result *r)
{
	cm_config_default(c, hw_model_find(&cat, "llama3-70b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c->dp = 2;
	c->tp = 8;
	c->pp = 4;
	c->gpus = 64;
	c->global_batch = 64;
	c->schedule = s;
	ck_assert_int_eq(cm_evaluate(c, r, NULL), 0);
}

START_TEST(engine)
{
	struct cm_config c;
	struct cm_result one, zb, dual;
	char why[256];

	llama70(&c, PIPE_1F1B, &one);
	llama70(&c, PIPE_ZB_H1, &zb);
	llama70(&c, PIPE_DUALPIPE, &dual);
	ck_assert_int_eq(one.microbatches, 32);
	/* the same work, a smaller bubble: ZB-H1 takes 2W off each of the
	 * p - 1 slots, DualPipe halves the slots */
	ck_assert_double_eq_tol(zb.t_compute, one.t_compute, 1e-9);
	/* each chunk of DualPipe's m runs (and autocast casts) one stage's
	 * weights: its compute is 1F1B's, only the optimizer steps both */
	ck_assert_double_eq_tol(dual.t_compute / one.t_compute, 1, 1e-6);
	ck_assert_double_eq_tol(dual.t_optimizer / one.t_optimizer, 2, 0.05);
	ck_assert(zb.t_bubble < one.t_bubble);
	ck_assert(zb.t_bubble > one.t_bubble / 3);
	ck_assert(dual.t_bubble < zb.t_bubble);
	ck_assert(zb.bubble_fraction < one.bubble_fraction);
	ck_assert(dual.bubble_fraction < zb.bubble_fraction);
	/* ZB-H1 holds what 1F1B holds */
	ck_assert_double_eq_tol(zb.mem_total, one.mem_total, 1);
	/* DualPipe: two stages' weights, gradients and optimizer states,
	 * p + 1 micro-batches of activations where 1F1B's first stage
	 * holds p */
	/* (the most loaded stage may be another: within 0.1 %) */
	ck_assert_double_eq_tol(dual.mem_params / one.mem_params, 2, 1e-3);
	ck_assert_double_eq_tol(dual.mem_grads / one.mem_grads, 2, 1e-3);
	ck_assert_double_eq_tol(dual.mem_optim / one.mem_optim, 2, 1e-3);
	ck_assert_double_eq_tol(dual.mem_act / one.mem_act, 5.0 / 4, 0.02);
	/* no framework of the three runs either, and says why */
	ck_assert_uint_eq(zb.frameworks, 0);
	ck_assert_uint_eq(dual.frameworks, 0);
	ck_assert_ptr_nonnull(strstr(fw_why_none(&dual.cfg, why, sizeof why),
	    "DualPipe is DeepSeek's own"));
	ck_assert_uint_ne(one.frameworks & FW_BIT(FW_MEGATRON), 0);
}
END_TEST

/*
 * A DualPipe device holds stage r and its mirror p-1-r, as DualPipe's
 * example pairs full_modules[rank] with full_modules[pp_size - 1 - rank]:
 * with PP 2 both devices hold the whole model, DeepSeek-V3's dense first
 * layers and its MTP module included (twice the larger stage would not).
 */
START_TEST(mirror_stage)
{
	struct cm_config c;
	struct cm_result r;

	cm_config_default(&c, hw_model_find(&cat, "deepseek-v3"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.model.mtp = 1;
	c.dp = 8;
	c.tp = 1;
	c.pp = 2;
	c.gpus = 16;
	c.global_batch = 64;
	c.schedule = PIPE_DUALPIPE;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	ck_assert_double_eq_tol(r.params_gpu / r.params, 1, 1e-9);
}
END_TEST

/* DualPipe.step's asserts: p even, m even and at least 2p. */
START_TEST(conditions)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;

	cm_config_default(&c, hw_model_find(&cat, "llama3-70b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.dp = 2;
	c.tp = 8;
	c.pp = 4;
	c.gpus = 64;
	c.schedule = PIPE_DUALPIPE;
	c.global_batch = 14;	/* m = 7 */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "at least 2 x PP = 8"));
	c.global_batch = 16;	/* m = 8 */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), 0);
	c.global_batch = 18;	/* m = 9: odd */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	c.global_batch = 64;
	c.pp = 2;
	c.dp = 4;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), 0);
	c.schedule = PIPE_ZB_H1;
	c.pp = 1;
	c.dp = 8;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_str_eq(err.msg, "ZB-H1 needs PP >= 2 (PP is 1)");
}
END_TEST

/* The search ranks them only with any_framework (top rows of Llama 3
 * 70B on 64 H100s, where the bubble matters). */
START_TEST(search)
{
	static struct cm_search s;
	struct cm_config c;
	int i, n_new;

	cm_config_default(&c, hw_model_find(&cat, "llama3-70b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = 64;
	c.global_batch = 64;
	for (c.any_framework = 0; c.any_framework < 2; c.any_framework++) {
		ck_assert_int_eq(cm_search(&c, CM_SEARCH_MAX, &s, NULL), 0);
		for (i = 0, n_new = 0; i < s.n_top; i++)
			n_new += s.top[i].cfg.schedule == PIPE_ZB_H1 ||
			    s.top[i].cfg.schedule == PIPE_DUALPIPE;
		if (c.any_framework)
			ck_assert_int_gt(n_new, 0);
		else
			ck_assert_int_eq(n_new, 0);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sched_engine");
	TCase *tc = tcase_create("zb-h1 and dualpipe");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, formulas);
	tcase_add_test(tc, engine);
	tcase_add_test(tc, conditions);
	tcase_add_test(tc, mirror_stage);
	tcase_add_test(tc, search);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
