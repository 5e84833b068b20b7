/*
 * check_sim_ep.c - the toy's MoE variant and ep mode: the MoE model's
 * gradients are its true derivatives (router, experts, shared expert);
 * ep on 4 and 8 GPUs, with DP and with PP, gives the single device's
 * loss, gradients and update to 1e-9; tokens travel by dispatch and
 * combine to the devices of the experts they chose, twice each way per
 * layer and micro-batch; expert gradients are reduced only over the
 * devices holding them; an imbalanced router makes a straggler; bad
 * layouts are refused in one line.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim.h"
#include "core/sim/sim_moe.h"
#include "memfix.h"

static void
run_req(const struct sim_request *req, struct sim_config *cfg,
    struct sim_result *r)
{
	struct pl_err err;

	pl_err_clear(&err);
	ck_assert_msg(sim_config_build(req, cfg, &err) == 0, "%s", err.msg);
	ck_assert_msg(sim_run(cfg, r, &err) == 0, "%s", err.msg);
}

static const struct sim_moe variants[] = {
	{ 4, 2, 0, 0 },		/* Mixtral-like: top-2 of 4 */
	{ 4, 1, 1, 0 },		/* a shared expert and top-1 */
	{ 8, 2, 0, 2 },		/* imbalanced router */
};

/* Central differences of the MoE model's loss against its backward. */
START_TEST(moe_gradients_are_derivatives)
{
	static double p[SIM_NPARAMS];
	const struct sim_moe *m = &variants[_i];
	struct sim_request req;
	struct sim_config cfg;
	struct sim_result r;
	const double h = 1e-5;
	double up, down, fd, worst = 0.0;
	int i, big = 0;

	memset(&req, 0, sizeof req);
	req.mode = "single";
	req.moe = m->experts;
	req.top_k = m->top_k;
	req.shared_expert = m->shared;
	req.router_bias = m->router_bias;
	run_req(&req, &cfg, &r);
	sim_model_init(p);
	ck_assert_double_eq_tol(r.loss, sim_model_loss_moe(p, m), 1e-12);
	/* a different model from the dense one */
	ck_assert(fabs(r.loss - sim_model_loss(p)) > 1e-3);
	for (i = 0; i < SIM_NPARAMS; i += 13) {
		p[i] += h;
		up = sim_model_loss_moe(p, m);
		p[i] -= 2 * h;
		down = sim_model_loss_moe(p, m);
		p[i] += h;
		fd = (up - down) / (2 * h);
		ck_assert_msg(fabs(fd - r.grads[i]) < 1e-7, "param %d: "
		    "finite difference %.12g, backward %.12g", i, fd,
		    r.grads[i]);
		if (fabs(fd - r.grads[i]) > worst)
			worst = fabs(fd - r.grads[i]);
		big += fabs(r.grads[i]) > 1e-3;
	}
	ck_assert_int_gt(big, 250);
	sim_result_free(&r);
}
END_TEST

/* The router's own gradients (the last E columns of w1) are not 0. */
START_TEST(router_learns)
{
	struct sim_request req;
	struct sim_config cfg;
	struct sim_result r;
	int l, h, j, nz = 0;
	size_t w1 = 2 * SIM_HIDDEN + 4 * SIM_HIDDEN * SIM_HIDDEN +
	    4 * SIM_HIDDEN;

	memset(&req, 0, sizeof req);
	req.mode = "single";
	req.moe = 4;
	run_req(&req, &cfg, &r);
	for (l = 0; l < SIM_LAYERS; l++)
		for (h = 0; h < SIM_HIDDEN; h++)
			for (j = 0; j < 4; j++)
				nz += fabs(r.grads[(size_t)l * SIM_LAYER_PARAMS +
				    w1 + (size_t)h * SIM_FFN + SIM_FFN - 4 +
				    j]) > 1e-6;
	ck_assert_int_eq(nz, SIM_LAYERS * SIM_HIDDEN * 4);
	sim_result_free(&r);
}
END_TEST

static const struct {
	int	 gpus, ep, pp, experts, top_k, shared, bias, no_overlap;
	const char	*sched;
} layouts[] = {
	{ 4, 0, 0, 0, 0, 0, 0, 0, NULL },	/* EP 4, 8 experts top-2 */
	{ 4, 2, 0, 4, 2, 0, 0, 0, NULL },	/* EP 2 x EDP 2 */
	{ 8, 0, 0, 8, 1, 1, 0, 0, NULL },	/* EP 8, shared expert */
	{ 8, 4, 0, 8, 2, 0, 0, 1, NULL },	/* EP 4 x EDP 2, no overlap */
	{ 8, 2, 0, 4, 3, 0, 3, 0, NULL },	/* imbalanced */
	{ 8, 0, 2, 8, 2, 0, 0, 0, NULL },	/* PP 2 x EP 4, 1F1B */
	{ 8, 2, 2, 4, 2, 1, 0, 0, NULL },	/* PP 2 x EP 2 x EDP 2 */
	{ 8, 2, 4, 4, 2, 0, 0, 0, NULL },	/* PP 4 x EP 2 */
	{ 4, 0, 2, 8, 2, 0, 0, 0, "interleaved" },	/* 2 chunks a GPU */
	{ 8, 4, 2, 8, 2, 0, 0, 0, "gpipe" },
};

START_TEST(ep_matches_single)
{
	struct sim_request req;
	struct sim_config cfg;
	struct sim_result r;

	memset(&req, 0, sizeof req);
	req.mode = "ep";
	req.gpus = layouts[_i].gpus;
	req.ep = layouts[_i].ep;
	req.pp = layouts[_i].pp;
	req.moe = layouts[_i].experts;
	req.top_k = layouts[_i].top_k;
	req.shared_expert = layouts[_i].shared;
	req.router_bias = layouts[_i].bias;
	req.no_overlap = layouts[_i].no_overlap;
	req.schedule = layouts[_i].sched;
	run_req(&req, &cfg, &r);
	ck_assert_int_eq(r.v, layouts[_i].sched != NULL &&
	    strcmp(layouts[_i].sched, "interleaved") == 0 ? 2 : 1);
	ck_assert_int_eq(r.ep, layouts[_i].ep ? layouts[_i].ep :
	    layouts[_i].gpus / (layouts[_i].pp ? layouts[_i].pp : 1));
	ck_assert_int_eq(r.pp, layouts[_i].pp ? layouts[_i].pp : 1);
	ck_assert(r.moe.experts > 0);
	fprintf(stderr, "ep layout %d: loss %.3g grads %.3g params %.3g\n",
	    (int)_i, r.max_loss_error, r.max_grad_error, r.max_param_error);
	ck_assert_double_lt(r.max_loss_error, 1e-9);
	ck_assert_double_lt(r.max_grad_error, 1e-9);
	ck_assert_double_lt(r.max_param_error, 1e-9);
	ck_assert(r.max_grad_error + r.max_param_error > 0.0 ||
	    r.max_loss_error == 0.0);
	/* a straggler's group members start their next pass when they
	 * are free, not before */
	test_compute_disjoint(&r.tl);
	sim_result_free(&r);
}
END_TEST

/* Dispatch and combine: per layer and micro-batch two each way, every
 * token's k slots travel to the expert's device and back. */
START_TEST(tokens_travel_to_their_experts)
{
	struct sim_request req;
	struct sim_config cfg;
	struct sim_result r;
	const struct sim_event *e;
	long sent[2][2] = { { 0 } }, kept = 0, fwd_rows = 0;
	size_t i;
	int owner, per;

	memset(&req, 0, sizeof req);
	req.mode = "ep";
	req.gpus = 4;
	run_req(&req, &cfg, &r);
	per = r.moe.experts / r.ep;
	for (i = 0; i < r.tl.n_ev; i++) {
		e = &r.tl.ev[i];
		if (e->kind == SIM_SEND && (e->what == SIM_P_DISPATCH ||
		    e->what == SIM_P_COMBINE)) {
			ck_assert_int_ge(e->expert, 0);
			ck_assert_int_gt(e->tokens, 0);
			ck_assert_uint_eq(e->bytes, (size_t)e->tokens *
			    SIM_HIDDEN * sizeof(double));
			owner = e->expert / per;
			/* dispatch goes to the expert's device, combine
			 * comes from it */
			ck_assert_int_eq(e->what == SIM_P_DISPATCH ? e->peer :
			    e->device, owner);
			ck_assert_int_ne(e->device, e->peer);
			sent[e->what == SIM_P_COMBINE][e->microbatch < 0 ? 0 :
			    0] += e->tokens;
		}
		if (e->kind == SIM_FORWARD && e->expert >= 0) {
			ck_assert_int_eq(e->expert / per, e->device);
			fwd_rows += e->tokens;
		}
		kept += e->kind == SIM_RECV && e->what == SIM_P_DISPATCH;
	}
	/* every slot of every token, each layer, went to some expert */
	ck_assert_int_eq(fwd_rows, (long)SIM_LAYERS * SIM_TOKENS * 2);
	/* forward and backward each dispatch and combine the same rows */
	ck_assert_int_eq(sent[0][0], sent[1][0]);
	ck_assert_int_gt(sent[0][0], 0);
	ck_assert_int_gt(kept, 0);
	sim_result_free(&r);
}
END_TEST

/* With an imbalanced router the device of expert 0 gets most tokens,
 * and the others wait for it. */
START_TEST(imbalanced_router_straggles)
{
	struct sim_request req;
	struct sim_config cfg;
	struct sim_result even, skew;
	long rows[SIM_MAX_GPUS] = { 0 };
	size_t i;
	int d;

	memset(&req, 0, sizeof req);
	req.mode = "ep";
	req.gpus = 4;
	req.moe = 4;
	run_req(&req, &cfg, &even);
	req.router_bias = 8;
	run_req(&req, &cfg, &skew);
	for (i = 0; i < skew.tl.n_ev; i++)
		if (skew.tl.ev[i].kind == SIM_FORWARD &&
		    skew.tl.ev[i].expert >= 0)
			rows[skew.tl.ev[i].device] += skew.tl.ev[i].tokens;
	/* every token picks expert 0 (top-2: half the slots) */
	ck_assert_int_eq(rows[0], (long)SIM_LAYERS * SIM_TOKENS);
	for (d = 1; d < 4; d++)
		ck_assert_int_lt(rows[d], rows[0] / 2);
	ck_assert_double_gt(skew.step_time, even.step_time * 1.1);
	ck_assert_double_gt(skew.bubble, even.bubble + 0.05);
	ck_assert_double_lt(skew.max_grad_error, 1e-9);
	sim_result_free(&even);
	sim_result_free(&skew);
}
END_TEST

/* The parameter bytes device dev holds at the end of the step. */
static size_t
params_held(const struct sim_timeline *tl, int dev)
{
	size_t i, m = 0;

	for (i = 0; i < tl->n_mem; i++)
		if (tl->mem[i].device == dev)
			m = tl->mem[i].bytes[SIM_MEM_PARAMS];
	return m;
}

/* Expert gradients go only over the devices holding the expert: EP 2
 * on 4 GPUs reduces the non-expert values over 4 and each EP rank's
 * experts over 2; a device is charged for its own experts only. */
START_TEST(expert_data_parallel)
{
	struct sim_request req;
	struct sim_config cfg;
	struct sim_result r, dp;
	const struct sim_event *e;
	int n4 = 0, n2 = 0;
	size_t i;

	memset(&req, 0, sizeof req);
	req.mode = "ep";
	req.gpus = 4;
	req.ep = 2;
	req.moe = 4;
	run_req(&req, &cfg, &r);
	for (i = 0; i < r.tl.n_ev; i++) {
		e = &r.tl.ev[i];
		if (e->kind != SIM_ALL_REDUCE || e->what != SIM_P_WEIGHT_GRADS)
			continue;
		n4 += e->ring_steps == 2 * 3;
		n2 += e->ring_steps == 2 * 1;
	}
	/* per layer: one over the 4, one over each pair, on every member */
	ck_assert_int_eq(n4, SIM_LAYERS * 4);
	ck_assert_int_eq(n2, SIM_LAYERS * 2 * 2);
	/* the same model under plain DP holds every expert everywhere */
	req.mode = "dp";
	req.ep = 0;
	run_req(&req, &cfg, &dp);
	ck_assert_uint_lt(params_held(&r.tl, 0), params_held(&dp.tl, 0));
	/* 2 of 4 experts: each expert's w1, b1, w2 columns */
	ck_assert_uint_eq(params_held(&dp.tl, 0) - params_held(&r.tl, 0),
	    (size_t)SIM_LAYERS * 2 * (2 * SIM_HIDDEN + 1) *
	    ((SIM_FFN - 4) / 4) * sizeof(double));
	ck_assert_double_lt(fabs(r.loss - dp.loss), 1e-12);
	sim_result_free(&r);
	sim_result_free(&dp);
}
END_TEST

START_TEST(bad_layouts)
{
	static const struct {
		const char	*mode;
		int		 gpus, moe, top_k, ep, pp;
		const char	*msg;
	} bad[] = {
		{ "ep", 4, 8, 0, 3, 0, "ep 3 does not divide the 8 experts" },
		{ "ep", 4, 2, 3, 0, 0, "top-k 3 is more than the 2 experts" },
		{ "ep", 4, 6, 0, 0, 0, "ep 4 does not divide the 6 experts" },
		{ "ep", 8, 8, 0, 8, 2, "ep 8 does not divide the 4 DP ranks "
		    "of a stage (EP ranks are taken from them)" },
		{ "tp", 4, 4, 0, 0, 0, "the MoE variant runs in single, dp, "
		    "pp, fsdp and ep, not tp" },
		{ "dp", 4, 4, 0, 2, 0, "ep and pp set the layout of mode ep: "
		    "use --mode ep" },
		{ "ep", 6, 8, 0, 2, 4, "pp 4 must divide the 6 GPUs and the "
		    "model's 4 layers" },
		{ "ep", 4, 17, 0, 1, 0, "moe must be between 1 and 16 "
		    "experts, not 17" },
	};
	struct sim_request req;
	struct sim_config cfg;
	struct pl_err err;

	memset(&req, 0, sizeof req);
	req.mode = bad[_i].mode;
	req.gpus = bad[_i].gpus;
	req.moe = bad[_i].moe;
	req.top_k = bad[_i].top_k;
	req.ep = bad[_i].ep;
	req.pp = bad[_i].pp;
	pl_err_clear(&err);
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_str_eq(err.msg, bad[_i].msg);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("sim_ep");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, moe_gradients_are_derivatives, 0,
	    sizeof variants / sizeof variants[0]);
	tcase_add_test(tc, router_learns);
	tcase_add_loop_test(tc, ep_matches_single, 0,
	    sizeof layouts / sizeof layouts[0]);
	tcase_add_test(tc, tokens_travel_to_their_experts);
	tcase_add_test(tc, imbalanced_router_straggles);
	tcase_add_test(tc, expert_data_parallel);
	tcase_add_loop_test(tc, bad_layouts, 0, 8);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
