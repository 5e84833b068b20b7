/*
 * check_sim_sched.c - ZB-H1 and DualPipe in the toy simulator: every
 * layout they run gives the single device's loss, gradients and update;
 * W passes are real weight-gradient products run later; the bubble is
 * the zero-bubble paper's under compute-only timing and DualPipe's stays
 * inside its README's; a DualPipe device holds two stages' parameters and
 * sums its gradients with its mirror; its F&B pairs hide one pass's EP
 * all-to-alls under the other's compute.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim.h"
#include "core/sim/sim_block.h"
#include "core/sim/sim_model.h"
#include "memfix.h"

static void
run(const char *mode, int gpus, int m, const char *sched, int pp, int ep,
    int compute_only, struct sim_result *r)
{
	struct sim_request req;
	struct sim_config cfg;
	struct pl_err err;

	memset(&req, 0, sizeof req);
	req.mode = mode;
	req.gpus = gpus;
	req.microbatches = m;
	req.schedule = sched;
	req.pp = pp;
	req.ep = ep;
	req.compute_only = compute_only;
	pl_err_clear(&err);
	ck_assert_msg(sim_config_build(&req, &cfg, &err) == 0, "%s", err.msg);
	ck_assert_msg(sim_run(&cfg, r, &err) == 0, "%s", err.msg);
}

static const struct {
	const char	*mode;
	int		 gpus, m;
	const char	*sched;
	int		 pp, ep;
} lay[] = {
	{ "pp", 2, 4, "zb-h1", 0, 0 }, { "pp", 4, 8, "zb-h1", 0, 0 },
	{ "pp", 4, 4, "zb-h1", 0, 0 }, { "pp", 4, 16, "zb-h1", 0, 0 },
	{ "pp", 2, 4, "dualpipe", 0, 0 }, { "pp", 4, 8, "dualpipe", 0, 0 },
	{ "pp", 4, 16, "dualpipe", 0, 0 }, { "3d", 8, 8, "zb-h1", 0, 0 },
	{ "3d", 8, 4, "dualpipe", 0, 0 }, { "ep", 4, 4, "dualpipe", 2, 0 },
	{ "ep", 8, 4, "dualpipe", 2, 2 }, { "ep", 8, 4, "zb-h1", 2, 4 },
	{ "ep", 8, 8, "dualpipe", 4, 2 }
};

START_TEST(equal_to_one_device)
{
	struct sim_result r;

	run(lay[_i].mode, lay[_i].gpus, lay[_i].m, lay[_i].sched, lay[_i].pp,
	    lay[_i].ep, 0, &r);
	ck_assert_msg(r.max_loss_error < 1e-9 && r.max_grad_error < 1e-9 &&
	    r.max_param_error < 1e-9, "%s %s on %d: loss %.3g grads %.3g "
	    "params %.3g", lay[_i].mode, lay[_i].sched, lay[_i].gpus,
	    r.max_loss_error, r.max_grad_error, r.max_param_error);
	test_compute_disjoint(&r.tl);
	sim_result_free(&r);
}
END_TEST

/* Compute events with part "weights" on device dev. */
static int
w_passes(const struct sim_result *r, int dev)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->tl.n_ev; i++)
		if (r->tl.ev[i].device == dev &&
		    r->tl.ev[i].kind == SIM_BACKWARD &&
		    r->tl.ev[i].part == SIM_PART_WEIGHTS)
			n++;
	return n;
}

/*
 * ZB-H1 on 4 stages and 8 micro-batches: stage s > 0 splits s + 1 +
 * (3 - s) backward passes (its first s steady ones, the last, the
 * drain's),
 * one W event per layer each; stage 0 splits none; 1F1B none. A W pass
 * takes the weight products' FLOPs and starts after its B.
 */
START_TEST(w_passes_are_deferred)
{
	struct sim_result r, f;
	const struct sim_event *e, *b;
	size_t i, j;
	int s;

	run("pp", 4, 8, "zb-h1", 0, 0, 1, &r);
	run("pp", 4, 8, "1f1b", 0, 0, 1, &f);
	ck_assert_int_eq(w_passes(&r, 0), 0);
	for (s = 1; s < 4; s++)
		ck_assert_int_eq(w_passes(&r, s), s + 1 + (3 - s));
	for (s = 0; s < 4; s++)
		ck_assert_int_eq(w_passes(&f, s), 0);
	for (i = 0; i < r.tl.n_ev; i++) {
		e = &r.tl.ev[i];
		if (e->part != SIM_PART_WEIGHTS)
			continue;
		for (j = 0; j < r.tl.n_ev; j++) {
			b = &r.tl.ev[j];
			if (b->device == e->device && b->kind == SIM_BACKWARD &&
			    b->part == SIM_PART_ATTN &&
			    b->layer == e->layer &&
			    b->microbatch == e->microbatch)
				ck_assert(b->end <= e->start + 1e-15);
		}
	}
	sim_result_free(&r);
	sim_result_free(&f);
}
END_TEST

/*
 * Compute only: ZB-H1's bubble is its formula, (p-1)(F+B-2W) idle, with
 * the toy's F, B and W; below 1F1B's at the same step. DualPipe's stays
 * at or under the README's (p/2-1)(F&B+B-3W), which counts a pair's wait
 * for both inputs as if F, B and W took equal time.
 */
START_TEST(bubbles_compute_only)
{
	static const int pm[][2] = { { 2, 4 }, { 4, 8 }, { 4, 16 }, { 2, 16 } };
	struct sim_result z, d, f;
	int c;

	for (c = 0; c < 4; c++) {
		run("pp", pm[c][0], pm[c][1], "zb-h1", 0, 0, 1, &z);
		run("pp", pm[c][0], pm[c][1], "dualpipe", 0, 0, 1, &d);
		run("pp", pm[c][0], pm[c][1], "1f1b", 0, 0, 1, &f);
		ck_assert_msg(fabs(z.bubble - z.bubble_formula) < 1e-9,
		    "p=%d m=%d: %.12f vs %.12f", pm[c][0], pm[c][1], z.bubble,
		    z.bubble_formula);
		ck_assert(z.bubble < 0.55 * f.bubble);
		ck_assert(z.step_time < f.step_time);
		ck_assert(d.bubble <= d.bubble_formula + 1e-12);
		ck_assert(d.bubble <= z.bubble + 1e-12);
		sim_result_free(&z);
		sim_result_free(&d);
		sim_result_free(&f);
	}
	/* p = 2: DualPipe's formula and the run leave no bubble */
	run("pp", 2, 8, "dualpipe", 0, 0, 1, &d);
	ck_assert_double_eq_tol(d.bubble, 0.0, 1e-12);
	ck_assert_double_eq_tol(d.bubble_formula, 0.0, 1e-15);
	sim_result_free(&d);
}
END_TEST

/*
 * DualPipe keeps two stages' parameters, gradients and Adam state a
 * device (device s holds stage s and p-1-s): twice 1F1B's. ZB-H1's W
 * passes keep their stash, yet its peak activations stay within 1F1B's
 * plus the stashes of the s deferred passes on stage s. Nothing is left
 * at the end.
 */
START_TEST(memory)
{
	struct sim_shape sh = { 2, 1, 0, 1 };
	struct sim_result d, z, f;
	size_t stash = sim_wstash_len(&sh) * 8, saved = sim_saved_len(&sh) * 8;
	int s;

	run("pp", 4, 8, "dualpipe", 0, 0, 0, &d);
	run("pp", 4, 8, "zb-h1", 0, 0, 0, &z);
	run("pp", 4, 8, "1f1b", 0, 0, 0, &f);
	for (s = 0; s < 4; s++) {
		ck_assert_uint_eq(test_last_mem(&d.tl, s)->bytes[SIM_MEM_PARAMS],
		    2 * SIM_LAYER_PARAMS * 8);
		ck_assert_uint_eq(test_last_mem(&d.tl, s)->bytes[SIM_MEM_OPTIM],
		    2 * 2 * SIM_LAYER_PARAMS * 8);
		ck_assert_uint_eq(test_last_mem(&f.tl, s)->bytes[SIM_MEM_PARAMS],
		    SIM_LAYER_PARAMS * 8);
		ck_assert_uint_le(test_peak_mem(&z.tl, s, SIM_MEM_ACTS),
		    test_peak_mem(&f.tl, s, SIM_MEM_ACTS) + (size_t)s * (stash + saved));
		ck_assert_uint_eq(test_last_mem(&d.tl, s)->bytes[SIM_MEM_ACTS], 0);
		ck_assert_uint_eq(test_last_mem(&z.tl, s)->bytes[SIM_MEM_ACTS], 0);
	}
	sim_result_free(&d);
	sim_result_free(&z);
	sim_result_free(&f);
}
END_TEST

/* DualPipe sums each layer's two copies: one all-reduce between device s
 * and p-1-s (two members), after the last backward, before Adam. */
START_TEST(mirror_all_reduce)
{
	struct sim_result d;
	const struct sim_event *e;
	double last_bwd[4] = { 0 }, opt = INFINITY;
	size_t i;
	int n = 0;

	run("pp", 4, 8, "dualpipe", 0, 0, 0, &d);
	for (i = 0; i < d.tl.n_ev; i++) {
		e = &d.tl.ev[i];
		if (sim_kind_is_compute(e->kind) && e->end > last_bwd[e->device])
			last_bwd[e->device] = e->end;
		if (e->kind == SIM_OPTIMIZER && e->start < opt)
			opt = e->start;
	}
	for (i = 0; i < d.tl.n_ev; i++) {
		e = &d.tl.ev[i];
		if (e->kind != SIM_ALL_REDUCE)
			continue;
		ck_assert(e->peer == 3 - e->device);
		ck_assert(e->start >= last_bwd[e->device] - 1e-15);
		ck_assert(e->end <= opt + 1e-15);
		n++;
	}
	ck_assert_int_gt(n, 0);
	sim_result_free(&d);
	/* 1F1B on one pipeline has nothing to sum */
	run("pp", 4, 8, "1f1b", 0, 0, 0, &d);
	for (i = 0; i < d.tl.n_ev; i++)
		ck_assert(d.tl.ev[i].kind != SIM_ALL_REDUCE);
	sim_result_free(&d);
}
END_TEST

/* Union of the intervals [a[i], b[i]) (sorted here), in place; count. */
static size_t
merge(double *a, double *b, size_t n)
{
	size_t i, j, k = 0;
	double t;

	for (i = 1; i < n; i++)	/* insertion sort by start: n is small */
		for (j = i; j > 0 && a[j - 1] > a[j]; j--) {
			t = a[j], a[j] = a[j - 1], a[j - 1] = t;
			t = b[j], b[j] = b[j - 1], b[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		if (k > 0 && a[i] <= b[k - 1]) {
			if (b[i] > b[k - 1])
				b[k - 1] = b[i];
			continue;
		}
		a[k] = a[i];
		b[k++] = b[i];
	}
	return k;
}

/*
 * Seconds of device dev's all-to-all receives (dispatch and combine)
 * during which it computes, into *hidden; all of them, returned.
 */
static double
a2a_hidden(const struct sim_result *r, int dev, double *hidden)
{
	size_t n = r->tl.n_ev, i, j, nc = 0, nx = 0;
	double *ca = calloc(n, sizeof *ca), *cb = calloc(n, sizeof *cb);
	double *xa = calloc(n, sizeof *xa), *xb = calloc(n, sizeof *xb);
	double all = 0.0, lo, hi;
	const struct sim_event *e;

	ck_assert(ca != NULL && cb != NULL && xa != NULL && xb != NULL);
	for (i = 0; i < n; i++) {
		e = &r->tl.ev[i];
		if (e->device != dev)
			continue;
		if (sim_kind_is_compute(e->kind)) {
			ca[nc] = e->start;
			cb[nc++] = e->end;
		} else if (e->kind == SIM_RECV && (e->what == SIM_P_DISPATCH ||
		    e->what == SIM_P_COMBINE)) {
			xa[nx] = e->start;
			xb[nx++] = e->end;
		}
	}
	nx = merge(xa, xb, nx);
	*hidden = 0.0;
	for (i = 0; i < nx; i++) {
		all += xb[i] - xa[i];
		for (j = 0; j < nc; j++) {
			lo = xa[i] > ca[j] ? xa[i] : ca[j];
			hi = xb[i] < cb[j] ? xb[i] : cb[j];
			if (hi > lo)
				*hidden += hi - lo;
		}
	}
	free(ca);
	free(cb);
	free(xa);
	free(xb);
	return all;
}

/*
 * EP 2 x PP 2 on 4 GPUs, 8 micro-batches: under 1F1B a device waits out
 * every all-to-all; under DualPipe the pair's other pass computes while
 * one pass's tokens travel (DeepSeek-V3 report, section 3.2.1), and the
 * device still runs one compute at a time. Only the pairs overlap (the
 * warm-up and the drain's lone passes cannot), so at least a third of
 * the all-to-all time is hidden, not all; the step is shorter and the
 * gradients are the single device's.
 */
START_TEST(pairs_hide_all_to_alls)
{
	struct sim_result d, f;
	double all_d = 0, hid_d = 0, all_f = 0, hid_f = 0, h;
	int dev;

	run("ep", 4, 8, "dualpipe", 2, 0, 0, &d);
	run("ep", 4, 8, "1f1b", 2, 0, 0, &f);
	test_compute_disjoint(&d.tl);
	test_compute_disjoint(&f.tl);
	for (dev = 0; dev < 4; dev++) {
		all_d += a2a_hidden(&d, dev, &h);
		hid_d += h;
		all_f += a2a_hidden(&f, dev, &h);
		hid_f += h;
		ck_assert_uint_eq(test_last_mem(&d.tl, dev)->bytes[SIM_MEM_ACTS],
		    0);
		/* never below zero: a wrapped size_t would be huge */
		ck_assert_uint_lt(test_peak_mem(&d.tl, dev, SIM_MEM_ACTS),
		    (size_t)1 << 24);
	}
	ck_assert(all_d > 0 && all_f > 0);
	/* what trace and the player print: the same sums */
	ck_assert_double_eq_tol(sim_timeline_a2a(&d.tl, -1, &h), all_d, 1e-12);
	ck_assert_double_eq_tol(h, hid_d, 1e-12);
	ck_assert_double_eq_tol(sim_timeline_a2a(&f.tl, -1, &h), all_f, 1e-12);
	ck_assert_double_eq_tol(h, hid_f, 1e-12);
	ck_assert_msg(hid_d > all_d / 3, "DualPipe hides %.3g of %.3g s",
	    hid_d, all_d);
	ck_assert_msg(hid_f < all_f / 100, "1F1B hides %.3g of %.3g s",
	    hid_f, all_f);
	ck_assert(d.max_grad_error < 1e-9 && d.max_param_error < 1e-9);
	sim_result_free(&d);
	sim_result_free(&f);
}
END_TEST

/* Memory changes recorded out of time order (two interleaved passes)
 * are summed again in time order when the timeline is finished. */
START_TEST(memory_out_of_order)
{
	struct sim_timeline tl;

	ck_assert_int_eq(sim_timeline_init(&tl, 1), 0);
	ck_assert_int_eq(sim_timeline_mem(&tl, 0, 1.0, SIM_MEM_ACTS, 100), 0);
	ck_assert_int_eq(sim_timeline_mem(&tl, 0, 4.0, SIM_MEM_ACTS, -100), 0);
	ck_assert_int_eq(sim_timeline_mem(&tl, 0, 2.0, SIM_MEM_ACTS, 50), 0);
	ck_assert_int_eq(sim_timeline_mem(&tl, 0, 3.0, SIM_MEM_ACTS, -50), 0);
	ck_assert_int_eq(sim_timeline_finish(&tl), 0);
	ck_assert_uint_eq(tl.mem[0].bytes[SIM_MEM_ACTS], 100);
	ck_assert_uint_eq(tl.mem[1].bytes[SIM_MEM_ACTS], 150);
	ck_assert_uint_eq(tl.mem[2].bytes[SIM_MEM_ACTS], 100);
	ck_assert_uint_eq(tl.mem[3].bytes[SIM_MEM_ACTS], 0);
	ck_assert_uint_eq(sim_timeline_peak(&tl, 0), 150);
	sim_timeline_free(&tl);
}
END_TEST

START_TEST(refused)
{
	struct sim_request req;
	struct sim_config cfg;
	struct pl_err err;

	memset(&req, 0, sizeof req);
	req.mode = "pp";
	req.gpus = 4;
	req.microbatches = 4;
	req.schedule = "dualpipe";
	pl_err_clear(&err);
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "twice the stages"));
	req.microbatches = 8;
	req.schedule = "dualpipev";
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "DualPipeV"));
	req.mode = "dp";
	req.schedule = "dualpipe";
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "pipeline stages"));
}
END_TEST

static Suite *
sim_sched_suite(void)
{
	Suite *s = suite_create("sim_sched");
	TCase *tc = tcase_create("zb-h1 and dualpipe");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, equal_to_one_device, 0,
	    (int)(sizeof lay / sizeof lay[0]));
	tcase_add_test(tc, w_passes_are_deferred);
	tcase_add_test(tc, bubbles_compute_only);
	tcase_add_test(tc, memory);
	tcase_add_test(tc, mirror_all_reduce);
	tcase_add_test(tc, pairs_hide_all_to_alls);
	tcase_add_test(tc, memory_out_of_order);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sim_sched_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
