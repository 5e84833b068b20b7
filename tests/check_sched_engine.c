/*
 * check_sched_engine.c - ZB-H1 and DualPipe in the engine
 * (core/engine/costmodel_sched.c), each formula held to its source:
 * ZB-H1's bubble (p-1)(F+B-2W) against 1F1B's (p-1)(F+B) (arXiv
 * 2311.09241 section 3; deepseek-ai/DualPipe README's table, B the full
 * backward), a third of it when F, B and W take equal time; DualPipe's
 * (p/2-1)(F&B+B-3W), two stages' parameters, p+1 micro-batches of
 * activations (arXiv 2412.19437 Table 2); W from the engine's own
 * weight-gradient products; the layouts each refuses and the frameworks.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

/* Llama 3 70B on 64 H100s, DP 2 x TP 8 x PP 4, as Megatron-Core runs it. */
static void
llama(struct cm_config *c, enum pipe_schedule s)
{
	cm_config_default(c, hw_model_find(&cat, "llama3-70b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c->gpus = 64;
	c->dp = 2;
	c->tp = 8;
	c->pp = 4;
	c->global_batch = 64;
	c->micro_batch = 1;
	c->kernels = CM_KERNELS_FUSED;
	c->seq_parallel = 1;
	c->schedule = s;
}

START_TEST(zb_h1_is_a_third_of_1f1b_for_equal_f_b_w)
{
	struct cm_config c;
	struct cm_result r;
	double w, p;

	llama(&c, PIPE_ZB_H1);
	eval(&c, &r);
	p = c.pp;
	/* the engine's W for the pacing stage, then the formula with
	 * F = B_input = W: a micro-batch of 3W, 1F1B (p-1) 3W */
	(void)cm_sched_bubble(&c, &r, 0, 0, 0);
	w = r.t_wgrad_mb;
	ck_assert(w > 0);
	ck_assert_double_eq_tol(cm_sched_bubble(&c, &r, 3 * w, 2 * w, 0),
	    (p - 1) * w, 1e-15);
	ck_assert_double_eq_tol(cm_sched_bubble(&c, &r, 3 * w, 2 * w, 0) /
	    ((p - 1) * 3 * w), 1.0 / 3, 1e-12);
	/* other schedules keep the bubble they were given */
	c.schedule = PIPE_1F1B;
	ck_assert(cm_sched_bubble(&c, &r, 3 * w, 2 * w, 7.5) == 7.5);
}
END_TEST

START_TEST(zb_h1_step_against_1f1b)
{
	struct cm_config c;
	struct cm_result a, z;
	double p;

	llama(&c, PIPE_1F1B);
	eval(&c, &a);
	c.schedule = PIPE_ZB_H1;
	eval(&c, &z);
	p = c.pp;
	ck_assert_double_eq_tol(a.t_overhead, 0, 1e-12);	/* no host part */
	/* (p-1)(F+B-2W): 1F1B's bubble less 2 (p-1) W, all else equal */
	/* (the NICs' sharing, costmodel_net.c, moves both by a hair) */
	ck_assert_double_eq_tol(z.t_bubble, a.t_bubble - 2 * (p - 1) *
	    z.t_wgrad_mb, 1e-4);
	ck_assert_double_eq_tol(z.t_step, a.t_step - 2 * (p - 1) *
	    z.t_wgrad_mb, 1e-4);
	ck_assert(2 * (p - 1) * z.t_wgrad_mb > 0.1);
	ck_assert_double_eq_tol(z.t_compute, a.t_compute, 1e-12);
	/* activations as 1F1B's: p micro-batches on stage 0 */
	ck_assert_double_eq_tol(z.mem_total, a.mem_total, 1);
	ck_assert_double_eq_tol(cm_inflight_layers(&c, 0, 20, 32), 4 * 20,
	    1e-9);
	/* the share: bubble over bubble + m t_mb */
	ck_assert(z.bubble_fraction < a.bubble_fraction);
	ck_assert(z.bubble_fraction > 0);
}
END_TEST

START_TEST(w_is_the_weight_gradient_products)
{
	/* W: each linear's K x M by M x N product, the layers of the
	 * pacing stage, and the output layer's on the last stage */
	struct cm_config c;
	struct cm_result r;
	struct cm_linear l[CM_MAX_LINEARS];
	double w = 0, dgrad = 0;
	int i, n;

	llama(&c, PIPE_ZB_H1);
	eval(&c, &r);
	n = cm_layer_linears(&r.cfg, l);
	for (i = 0; i < n; i++) {
		w += l[i].count * cm_gemm_s(&r.cfg, l[i].k, l[i].m, l[i].n);
		dgrad += l[i].count * cm_gemm_s(&r.cfg, l[i].m, l[i].n,
		    l[i].k);
	}
	/* half the backward's FLOPs, near half its product time */
	ck_assert(fabs(w / (w + dgrad) - 0.5) < 0.1);
	w *= r.slow_layers;
	if (r.slow_stage == c.pp - 1)
		w += cm_gemm_s(&r.cfg, c.model.hidden, cm_rank_tokens(&r.cfg),
		    (double)c.model.vocab / c.tp);
	ck_assert_double_eq_tol(r.t_wgrad_mb, w, 1e-12);
}
END_TEST

START_TEST(dualpipe_bubble)
{
	struct cm_config c;
	struct cm_result r;
	double w, p;

	llama(&c, PIPE_DUALPIPE);
	eval(&c, &r);
	p = c.pp;
	w = r.t_wgrad_mb;
	ck_assert(w > 0);
	/* (p/2-1)(F&B + B - 3W), B the full backward: with F = B_in = W,
	 * F&B = 3W and B = 2W give (p/2-1) 2W */
	ck_assert_double_eq_tol(cm_sched_bubble(&c, &r, 3 * w, 2 * w, 0),
	    (p / 2 - 1) * 2 * w, 1e-15);
	ck_assert_double_eq_tol(cm_sched_bubble(&c, &r, 1, 0.6, 0),
	    (p / 2 - 1) * (1 + 0.6 - 3 * w), 1e-15);
	/* p = 2: no bubble */
	c.pp = 2;
	c.dp = 4;
	ck_assert_double_eq_tol(cm_sched_bubble(&c, &r, 3 * w, 2 * w, 0), 0,
	    1e-15);
}
END_TEST

START_TEST(dualpipe_memory)
{
	/* two stages' parameters, gradients and optimizer state (stage r
	 * and p-1-r: stage 0 holds the embedding and the output layer);
	 * activations of p+1 micro-batches */
	struct cm_config c;
	struct cm_result a, d;

	llama(&c, PIPE_1F1B);
	c.zero = 1;
	eval(&c, &a);
	c.schedule = PIPE_DUALPIPE;
	eval(&c, &d);
	ck_assert_double_eq_tol(d.mem_params / a.mem_params, 2, 1e-3);
	ck_assert_double_eq_tol(d.mem_grads / a.mem_grads, 2, 1e-3);
	ck_assert_double_eq_tol(d.mem_optim / a.mem_optim, 2, 1e-3);
	ck_assert_double_eq_tol(cm_inflight_layers(&c, 0, 20, 32), 5 * 20,
	    1e-9);
	ck_assert_double_eq_tol(cm_inflight_layers(&c, 3, 20, 32), 5 * 20,
	    1e-9);
	ck_assert(d.mem_act > a.mem_act);
}
END_TEST

START_TEST(dualpipe_hides_ep_and_pp)
{
	/* Mixtral with EP 8 in a node, PP 2 across nodes: F&B hides the
	 * all-to-alls and sends under the other chunk's compute */
	struct cm_config c;
	struct cm_result a, d;

	cm_config_default(&c, hw_model_find(&cat, "mixtral-8x7b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = 16;
	c.dp = 8;
	c.pp = 2;
	c.ep = 8;
	c.global_batch = 64;
	c.kernels = CM_KERNELS_FUSED;
	c.zero = 1;
	c.schedule = PIPE_1F1B;
	eval(&c, &a);
	ck_assert(a.t_ep_exposed > 0 && a.t_pp > 0);
	c.schedule = PIPE_DUALPIPE;
	eval(&c, &d);
	ck_assert_double_eq_tol(d.t_ep_exposed, 0, 1e-12);
	ck_assert_double_eq_tol(d.t_pp, 0, 1e-12);
	ck_assert_double_eq_tol(d.t_ep, a.t_ep, 1e-9);	/* still sent */
	ck_assert(d.t_comm_slowed > a.t_comm_slowed);	/* beside compute */
	ck_assert(d.t_step < a.t_step);
}
END_TEST

START_TEST(refusals)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;
	char why[512];

	llama(&c, PIPE_DUALPIPE);
	c.pp = 8;
	c.dp = 1;
	c.global_batch = 32;
	c.pp = 5;	/* 80 layers on 5 stages, 64 GPUs no more */
	c.gpus = 40;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "even PP"));
	llama(&c, PIPE_DUALPIPE);
	c.global_batch = 14;	/* m = 7: odd */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "micro-batch count"));
	c.global_batch = 12;	/* m = 6 < 2 x PP */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "2 x PP"));
	c.global_batch = 16;	/* m = 8 = 2 x PP */
	eval(&c, &r);
	llama(&c, PIPE_ZB_H1);
	c.pp = 1;
	c.dp = 8;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "PP >= 2"));
	/* no framework we read runs either with one stage a device */
	llama(&c, PIPE_ZB_H1);
	ck_assert_uint_eq(fw_runs(&c), 0);
	ck_assert_ptr_nonnull(strstr(fw_why_none(&c, why, sizeof why),
	    "zb-h1 schedule"));
	c.framework = CM_FW_PYTORCH;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "the zb-h1 schedule"));
	llama(&c, PIPE_DUALPIPE);
	ck_assert_uint_eq(fw_runs(&c), 0);
	c.schedule = PIPE_1F1B;
	ck_assert_uint_ne(fw_runs(&c), 0);
}
END_TEST

START_TEST(search_tries_them_with_any_framework)
{
	struct cm_config c;
	struct cm_search *s = malloc(sizeof *s);
	struct pl_err err;
	int i, zb = 0, dual = 0;

	ck_assert_ptr_nonnull(s);
	llama(&c, PIPE_1F1B);
	c.any_framework = 1;
	c.search_keep = CM_KEEP_MICRO_BATCH;
	ck_assert_int_eq(cm_search(&c, CM_SEARCH_MAX, s, &err), 0);
	for (i = 0; i < s->n_top; i++) {
		zb += s->top[i].cfg.schedule == PIPE_ZB_H1;
		dual += s->top[i].cfg.schedule == PIPE_DUALPIPE;
	}
	ck_assert_int_gt(zb + dual, 0);
	c.any_framework = 0;
	ck_assert_int_eq(cm_search(&c, CM_SEARCH_MAX, s, &err), 0);
	for (i = 0; i < s->n_top; i++)
		ck_assert(!cm_sched_new(&s->top[i].cfg));
	free(s);
}
END_TEST

static Suite *
sched_suite(void)
{
	Suite *s = suite_create("sched_engine");
	TCase *tc = tcase_create("zb-h1 and dualpipe");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, zb_h1_is_a_third_of_1f1b_for_equal_f_b_w);
	tcase_add_test(tc, zb_h1_step_against_1f1b);
	tcase_add_test(tc, w_is_the_weight_gradient_products);
	tcase_add_test(tc, dualpipe_bubble);
	tcase_add_test(tc, dualpipe_memory);
	tcase_add_test(tc, dualpipe_hides_ep_and_pp);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, search_tries_them_with_any_framework);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sched_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
