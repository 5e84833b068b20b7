/*
 * check_sim.c - the toy-model simulator: every mode gives the single run's
 * loss, gradients and update; the single run's gradients are the true
 * derivatives; the bubble measured on pipeline timelines is the formula;
 * the event stream and byte counts are what the ring and the schedule say.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim.h"
#include "core/sim/sim_model.h"

static void
run_ok(enum sim_mode mode, int gpus, int m, enum pipe_schedule k, int v,
    int compute_only, struct sim_result *r)
{
	struct sim_config cfg;
	struct pl_err err;

	sim_config_default(&cfg, mode, gpus);
	cfg.microbatches = m;
	cfg.schedule = k;
	cfg.vstages = v;
	if (compute_only)
		cfg.cost = sim_cost_compute_only();
	pl_err_clear(&err);
	ck_assert_msg(sim_run(&cfg, r, &err) == 0, "%s: %s",
	    sim_mode_name(mode), err.msg);
}

/* The loss of the full model at params, computed here from the kernels. */
static double
loss_at(const double *params)
{
	static double x[SIM_BATCH * SIM_WIDTH], t[SIM_BATCH * SIM_WIDTH];
	double a[SIM_BATCH * SIM_WIDTH], z[SIM_BATCH * SIM_WIDTH];
	double dy[SIM_BATCH * SIM_WIDTH];
	const double *p;
	int l;

	sim_model_data(x, t);
	memcpy(a, x, sizeof a);
	for (l = 0; l < SIM_LAYERS; l++) {
		p = params + (size_t)l * SIM_LAYER_PARAMS;
		sim_mm(a, p, z, SIM_BATCH, SIM_WIDTH, SIM_WIDTH);
		sim_add_bias(z, p + SIM_WIDTH * SIM_WIDTH, SIM_BATCH, SIM_WIDTH);
		if (l < SIM_LAYERS - 1)
			sim_tanh(z, SIM_BATCH * SIM_WIDTH);
		memcpy(a, z, sizeof a);
	}
	return sim_loss(a, t, SIM_BATCH, dy);
}

START_TEST(single_gradients_are_derivatives)
{
	static double p[SIM_NPARAMS];
	struct sim_result r;
	const double h = 1e-6;
	double up, down, fd, l0;
	int i;

	run_ok(SIM_SINGLE, 1, 1, PIPE_1F1B, 1, 0, &r);
	sim_model_init(p);
	l0 = loss_at(p);
	ck_assert_double_eq_tol(r.loss, l0, 1e-12);
	for (i = 0; i < SIM_NPARAMS; i += 37) {
		p[i] += h;
		up = loss_at(p);
		p[i] -= 2 * h;
		down = loss_at(p);
		p[i] += h;
		fd = (up - down) / (2 * h);
		ck_assert_msg(fabs(fd - r.grads[i]) < 1e-8, "param %d: "
		    "finite difference %.12g, backward %.12g", i, fd,
		    r.grads[i]);
	}
	ck_assert(fabs(r.grads[5]) > 1e-4);
	ck_assert_double_eq(r.max_grad_error, 0.0);
	sim_result_free(&r);
}
END_TEST

static const struct {
	enum sim_mode	 mode;
	int		 gpus, m;
	enum pipe_schedule	 k;
	int		 v;
} equiv[] = {
	{ SIM_DP, 2, 1, PIPE_1F1B, 1 }, { SIM_DP, 4, 1, PIPE_1F1B, 1 },
	{ SIM_DP, 3, 2, PIPE_1F1B, 1 }, { SIM_DP, 8, 1, PIPE_GPIPE, 1 },
	{ SIM_TP, 2, 1, PIPE_1F1B, 1 }, { SIM_TP, 4, 1, PIPE_1F1B, 1 },
	{ SIM_TP, 8, 2, PIPE_1F1B, 1 },
	{ SIM_PP, 2, 4, PIPE_GPIPE, 1 }, { SIM_PP, 4, 8, PIPE_GPIPE, 1 },
	{ SIM_PP, 2, 8, PIPE_1F1B, 1 }, { SIM_PP, 4, 6, PIPE_1F1B, 1 },
	{ SIM_PP, 4, 1, PIPE_1F1B, 1 }, { SIM_PP, 2, 4, PIPE_INTERLEAVED, 2 },
	{ SIM_PP, 2, 8, PIPE_INTERLEAVED, 2 },
	{ SIM_PP, 1, 4, PIPE_INTERLEAVED, 4 },
	{ SIM_FSDP, 2, 1, PIPE_1F1B, 1 }, { SIM_FSDP, 4, 1, PIPE_1F1B, 1 },
	{ SIM_FSDP, 3, 4, PIPE_1F1B, 1 }, { SIM_FSDP, 8, 2, PIPE_1F1B, 1 },
	{ SIM_3D, 8, 8, PIPE_1F1B, 1 }, { SIM_3D, 8, 4, PIPE_GPIPE, 1 },
	{ SIM_3D, 8, 2, PIPE_1F1B, 1 }
};

START_TEST(mode_matches_single)
{
	struct sim_result ref, r;

	run_ok(SIM_SINGLE, 1, 1, PIPE_1F1B, 1, 0, &ref);
	run_ok(equiv[_i].mode, equiv[_i].gpus, equiv[_i].m, equiv[_i].k,
	    equiv[_i].v, 0, &r);
	ck_assert_msg(r.max_grad_error < 1e-9 && r.max_param_error < 1e-9,
	    "%s gpus %d m %d: grad error %g, param error %g",
	    sim_mode_name(equiv[_i].mode), equiv[_i].gpus, equiv[_i].m,
	    r.max_grad_error, r.max_param_error);
	ck_assert_double_eq_tol(r.loss, ref.loss, 1e-9);
	/* The update really moved the parameters. */
	ck_assert(fabs(r.params[0] - ref.params[0]) < 1e-9);
	ck_assert_int_eq(r.tl.n_devices, equiv[_i].gpus);
	sim_result_free(&ref);
	sim_result_free(&r);
}
END_TEST

static const struct {
	enum sim_mode	 mode;
	int		 p, m;
	enum pipe_schedule	 k;
	int		 v;
} bub[] = {
	{ SIM_PP, 2, 4, PIPE_GPIPE, 1 }, { SIM_PP, 4, 8, PIPE_GPIPE, 1 },
	{ SIM_PP, 2, 8, PIPE_1F1B, 1 }, { SIM_PP, 4, 8, PIPE_1F1B, 1 },
	{ SIM_PP, 4, 12, PIPE_1F1B, 1 }, { SIM_PP, 4, 2, PIPE_1F1B, 1 },
	{ SIM_PP, 2, 4, PIPE_INTERLEAVED, 2 },
	{ SIM_PP, 2, 8, PIPE_INTERLEAVED, 2 },
	{ SIM_PP, 2, 6, PIPE_INTERLEAVED, 2 },
	{ SIM_3D, 2, 8, PIPE_1F1B, 1 }, { SIM_3D, 2, 4, PIPE_GPIPE, 1 }
};

START_TEST(bubble_on_timeline)
{
	struct sim_result r;
	double want = pipe_bubble_fraction(bub[_i].p, bub[_i].m, bub[_i].v);

	run_ok(bub[_i].mode, bub[_i].mode == SIM_3D ? 8 : bub[_i].p,
	    bub[_i].m, bub[_i].k, bub[_i].v, 1, &r);
	ck_assert_msg(fabs(r.bubble - want) < 1e-9, "%s p=%d m=%d v=%d: "
	    "measured %.12f, formula %.12f", pipe_schedule_name(bub[_i].k),
	    bub[_i].p, bub[_i].m, bub[_i].v, r.bubble, want);
	ck_assert_double_eq_tol(r.bubble_formula, want, 1e-15);
	sim_result_free(&r);
}
END_TEST

START_TEST(no_bubble_without_pipeline)
{
	struct sim_result r;

	run_ok(SIM_DP, 4, 1, PIPE_1F1B, 1, 0, &r);
	ck_assert_double_eq_tol(r.bubble, 0.0, 1e-12);
	sim_result_free(&r);
	/* Communication adds waiting to a real pipeline's bubble. */
	run_ok(SIM_PP, 4, 8, PIPE_1F1B, 1, 0, &r);
	ck_assert(r.bubble > pipe_bubble_fraction(4, 8, 1) + 1e-3);
	sim_result_free(&r);
}
END_TEST

/* Sorted; no device runs two busy ops at once; idle fills the gaps. */
static void
check_stream(const struct sim_timeline *tl)
{
	double *busy_end = calloc((size_t)tl->n_devices, sizeof *busy_end);
	double *covered = calloc((size_t)tl->n_devices, sizeof *covered);
	size_t i;
	int d;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (i > 0)
			ck_assert(e->start >= tl->ev[i - 1].start);
		ck_assert(e->end >= e->start);
		if (e->kind == SIM_SEND || e->kind == SIM_RECV)
			continue;
		ck_assert_msg(e->start >= busy_end[e->device] - 1e-12,
		    "device %d: %s at %g overlaps", e->device,
		    sim_kind_name(e->kind), e->start);
		busy_end[e->device] = e->end;
		covered[e->device] += e->end - e->start;
	}
	for (d = 0; d < tl->n_devices; d++)
		ck_assert_double_eq_tol(covered[d], tl->t_end, 1e-12);
	free(busy_end);
	free(covered);
}

/* Each send has its receive; the consumer waits for it. */
static void
check_sends(const struct sim_timeline *tl)
{
	size_t i, j, n_send = 0;
	int found, used, fwd;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *s = &tl->ev[i];

		if (s->kind != SIM_SEND)
			continue;
		n_send++;
		/* All forwards of a microbatch end before its backwards. */
		for (fwd = 0, j = 0; j < tl->n_ev; j++)
			if (tl->ev[j].kind == SIM_FORWARD &&
			    tl->ev[j].microbatch == s->microbatch &&
			    tl->ev[j].end >= s->start)
				fwd = 1;
		for (found = 0, used = 0, j = 0; j < tl->n_ev; j++) {
			const struct sim_event *r = &tl->ev[j];

			if (r->kind == SIM_RECV && r->device == s->peer &&
			    r->peer == s->device && r->layer == s->layer &&
			    r->microbatch == s->microbatch &&
			    r->start == s->start) {
				ck_assert(r->start >= s->start);
				ck_assert(r->end >= s->end);
				ck_assert_uint_eq(r->bytes, s->bytes);
				found++;
			}
			/* The forward of the next layer on the receiver. */
			if (fwd && r->device == s->peer &&
			    r->kind == SIM_FORWARD &&
			    r->layer == s->layer + 1 &&
			    r->microbatch == s->microbatch) {
				ck_assert(r->start >= s->end - 1e-15);
				used = 1;
			}
			if (!fwd && r->device == s->peer &&
			    r->kind == SIM_BACKWARD &&
			    r->layer == s->layer - 1 &&
			    r->microbatch == s->microbatch) {
				ck_assert(r->start >= s->end - 1e-15);
				used = 1;
			}
		}
		ck_assert_int_eq(found, 1);
		ck_assert(used);
	}
	ck_assert(n_send > 0);
}

START_TEST(event_stream)
{
	struct sim_result r;

	run_ok(SIM_PP, 4, 8, PIPE_1F1B, 1, 0, &r);
	check_stream(&r.tl);
	check_sends(&r.tl);
	/* 2 sends per boundary per microbatch: 3 boundaries x 8 x 2. */
	ck_assert_uint_eq(r.bytes_moved, 48u * 8 * 16 * 6 / 8 * 8);
	sim_result_free(&r);
	run_ok(SIM_PP, 2, 4, PIPE_INTERLEAVED, 2, 0, &r);
	check_stream(&r.tl);
	check_sends(&r.tl);
	sim_result_free(&r);
	run_ok(SIM_3D, 8, 4, PIPE_1F1B, 1, 0, &r);
	check_stream(&r.tl);
	check_sends(&r.tl);
	sim_result_free(&r);
	run_ok(SIM_FSDP, 4, 2, PIPE_1F1B, 1, 0, &r);
	check_stream(&r.tl);
	sim_result_free(&r);
}
END_TEST

/* Every event of kind k carries bytes and lasts secs. */
static int
check_kind(const struct sim_timeline *tl, enum sim_kind k, size_t bytes,
    double secs)
{
	size_t i;
	int n = 0;

	for (i = 0; i < tl->n_ev; i++) {
		if (tl->ev[i].kind != k)
			continue;
		ck_assert_uint_eq(tl->ev[i].bytes, bytes);
		ck_assert_double_eq_tol(tl->ev[i].end - tl->ev[i].start, secs,
		    1e-15);
		n++;
	}
	return n;
}

START_TEST(ring_bytes)
{
	struct sim_cost c = sim_cost_default();
	struct sim_result r;
	double S;

	/* DP, n = 4 in one node: 2(n-1)/n S bytes, costmodel.md §f time. */
	run_ok(SIM_DP, 4, 1, PIPE_1F1B, 1, 0, &r);
	S = SIM_NPARAMS * 8.0;
	ck_assert_int_eq(check_kind(&r.tl, SIM_ALL_REDUCE, 13056,
	    2.0 * 3 / 4 * S / c.bw_intra + 6 * c.alpha_intra), 4);
	ck_assert_uint_eq(r.bytes_moved, 4 * 13056);
	sim_result_free(&r);
	/* DP over 8 devices spans two nodes: inter-node link. */
	run_ok(SIM_DP, 8, 1, PIPE_1F1B, 1, 0, &r);
	ck_assert_int_eq(check_kind(&r.tl, SIM_ALL_REDUCE, 2 * 7 * 1088,
	    2.0 * 7 / 8 * S / c.bw_inter + 14 * c.alpha_inter), 8);
	sim_result_free(&r);
	/* FSDP, n = 4: each layer of 272 values gathered twice, scattered once. */
	run_ok(SIM_FSDP, 4, 1, PIPE_1F1B, 1, 0, &r);
	S = 272 * 8.0;
	ck_assert_int_eq(check_kind(&r.tl, SIM_ALL_GATHER, 1632,
	    0.75 * S / c.bw_intra + 3 * c.alpha_intra), 4 * 4 * 2);
	ck_assert_int_eq(check_kind(&r.tl, SIM_REDUCE_SCATTER, 1632,
	    0.75 * S / c.bw_intra + 3 * c.alpha_intra), 4 * 4);
	sim_result_free(&r);
	/* TP, t = 2: one all-reduce per pair forward and backward, 48 x 16. */
	run_ok(SIM_TP, 2, 1, PIPE_1F1B, 1, 0, &r);
	S = 48 * 16 * 8.0;
	ck_assert_int_eq(check_kind(&r.tl, SIM_ALL_REDUCE, (size_t)S,
	    S / c.bw_intra + 2 * c.alpha_intra), 2 * 4);
	sim_result_free(&r);
}
END_TEST

/* The last memory sample of a device. */
static const struct sim_mem_sample *
last_mem(const struct sim_timeline *tl, int dev)
{
	const struct sim_mem_sample *m = NULL;
	size_t i;

	for (i = 0; i < tl->n_mem; i++)
		if (tl->mem[i].device == dev)
			m = &tl->mem[i];
	ck_assert_ptr_nonnull(m);
	return m;
}

static size_t
peak_acts(const struct sim_timeline *tl, int dev)
{
	size_t i, peak = 0;

	for (i = 0; i < tl->n_mem; i++)
		if (tl->mem[i].device == dev &&
		    tl->mem[i].bytes[SIM_MEM_ACTS] > peak)
			peak = tl->mem[i].bytes[SIM_MEM_ACTS];
	return peak;
}

START_TEST(memory_samples)
{
	struct sim_result r, g;
	const struct sim_mem_sample *m;
	int d;

	run_ok(SIM_DP, 4, 1, PIPE_1F1B, 1, 0, &r);
	m = last_mem(&r.tl, 2);
	ck_assert_uint_eq(m->bytes[SIM_MEM_PARAMS], SIM_NPARAMS * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_GRADS], SIM_NPARAMS * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_OPTIM], 2 * SIM_NPARAMS * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_ACTS], 0);
	sim_result_free(&r);
	/* FSDP keeps a quarter of everything (shards of 68 of 272). */
	run_ok(SIM_FSDP, 4, 1, PIPE_1F1B, 1, 0, &r);
	m = last_mem(&r.tl, 1);
	ck_assert_uint_eq(m->bytes[SIM_MEM_PARAMS], 4 * 68 * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_OPTIM], 2 * 4 * 68 * 8);
	ck_assert_uint_eq(sim_timeline_peak(&r.tl, 1) >= (4 * 68 + 272) * 8,
	    1);
	sim_result_free(&r);
	/* 1F1B holds at most p microbatches on stage 0, GPipe all m. */
	run_ok(SIM_PP, 4, 8, PIPE_1F1B, 1, 0, &r);
	run_ok(SIM_PP, 4, 8, PIPE_GPIPE, 1, 0, &g);
	/* Input and output of 6 x 16 doubles per microbatch in flight. */
	ck_assert_uint_ge(peak_acts(&g.tl, 0), 8 * 2 * 768);
	ck_assert_uint_ge(peak_acts(&r.tl, 0), 4 * 2 * 768);
	ck_assert_uint_le(peak_acts(&r.tl, 0), (4 * 2 + 2) * 768);
	for (d = 0; d < 4; d++)
		ck_assert_uint_eq(last_mem(&r.tl, d)->bytes[SIM_MEM_ACTS], 0);
	sim_result_free(&r);
	sim_result_free(&g);
}
END_TEST

START_TEST(bad_configs)
{
	struct sim_config cfg;
	struct sim_result r;
	struct pl_err err;

	sim_config_default(&cfg, SIM_PP, 3);
	ck_assert_int_eq(sim_run(&cfg, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "layers"));
	sim_result_free(&r);
	sim_config_default(&cfg, SIM_PP, 2);
	cfg.microbatches = 0;
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	cfg.microbatches = 5;
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "batch"));
	sim_config_default(&cfg, SIM_3D, 4);
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "8"));
	sim_config_default(&cfg, SIM_TP, 3);
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	sim_config_default(&cfg, SIM_PP, 2);
	cfg.schedule = PIPE_INTERLEAVED;
	cfg.vstages = 3;
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	cfg.vstages = 2;
	cfg.microbatches = 3;
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	cfg.microbatches = 4;
	ck_assert_int_eq(sim_config_check(&cfg, &err), 0);
}
END_TEST

static Suite *
sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc;

	tc = tcase_create("every mode equals single");
	tcase_add_test(tc, single_gradients_are_derivatives);
	tcase_add_loop_test(tc, mode_matches_single, 0,
	    (int)(sizeof equiv / sizeof equiv[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("bubble equals formula");
	tcase_add_loop_test(tc, bubble_on_timeline, 0,
	    (int)(sizeof bub / sizeof bub[0]));
	tcase_add_test(tc, no_bubble_without_pipeline);
	suite_add_tcase(s, tc);
	tc = tcase_create("event stream");
	tcase_add_test(tc, event_stream);
	tcase_add_test(tc, ring_bytes);
	tcase_add_test(tc, memory_samples);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad configs");
	tcase_add_test(tc, bad_configs);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sim_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
