/*
 * check_sim.c - the toy transformer simulator: the model's gradients are
 * its true derivatives; every mode gives the single run's loss, gradients
 * and update; the collectives are the frameworks' (TP's four all-reduces
 * per layer, SP's gathers and scatters, DDP's buckets during backward,
 * ZeRO-3's three collectives per layer) and go round the ring chunk by
 * chunk; the bubble is the formula's; events say what they carry.
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
run_cfg(const struct sim_request *req, struct sim_result *r)
{
	struct sim_config cfg;
	struct pl_err err;

	pl_err_clear(&err);
	ck_assert_msg(sim_config_build(req, &cfg, &err) == 0, "%s", err.msg);
	ck_assert_msg(sim_run(&cfg, r, &err) == 0, "%s", err.msg);
}

static void
run_ok(const char *mode, int gpus, int m, const char *sched, int v,
    int compute_only, struct sim_result *r)
{
	struct sim_request req;

	memset(&req, 0, sizeof req);
	req.mode = mode;
	req.gpus = gpus;
	req.microbatches = m;
	req.schedule = sched;
	req.vstages = v;
	req.compute_only = compute_only;
	run_cfg(&req, r);
}

START_TEST(sizes)
{
	int t;

	/* g1, Wq/Wk/Wv/Wo, their biases, g2, W1, b1, W2, b2. */
	ck_assert_int_eq(SIM_LAYER_PARAMS, 16 + 4 * 256 + 4 * 16 + 16 +
	    1024 + 64 + 1024 + 16);
	ck_assert_int_eq(SIM_NPARAMS, 4 * 3248);
	ck_assert_uint_eq(sim_layer_size(1), SIM_LAYER_PARAMS);
	/* A TP rank holds 1/t of the split matrices and all of g1, bo, g2, b2. */
	for (t = 2; t <= 4; t *= 2)
		ck_assert_uint_eq(t * sim_layer_size(t), SIM_LAYER_PARAMS +
		    (size_t)(t - 1) * 4 * SIM_HIDDEN);
}
END_TEST

START_TEST(layer_map_round_trip)
{
	static double full[SIM_LAYER_PARAMS], back[SIM_LAYER_PARAMS];
	double loc[SIM_LAYER_PARAMS];
	int i, k;

	for (i = 0; i < SIM_LAYER_PARAMS; i++)
		full[i] = i + 1;
	for (k = 3; k >= 0; k--) {
		sim_layer_map(4, k, loc, full, 1);
		sim_layer_map(4, k, loc, back, 0);
	}
	for (i = 0; i < SIM_LAYER_PARAMS; i++)
		ck_assert_double_eq(back[i], full[i]);
}
END_TEST

START_TEST(gradients_are_derivatives)
{
	static double p[SIM_NPARAMS];
	struct sim_result r;
	const double h = 1e-5;
	double up, down, fd, worst = 0.0;
	int i, big = 0;

	run_ok("single", 1, 1, NULL, 0, 0, &r);
	sim_model_init(p);
	ck_assert_double_eq_tol(r.loss, sim_model_loss(p), 1e-12);
	for (i = 0; i < SIM_NPARAMS; i += 53) {
		p[i] += h;
		up = sim_model_loss(p);
		p[i] -= 2 * h;
		down = sim_model_loss(p);
		p[i] += h;
		fd = (up - down) / (2 * h);
		ck_assert_msg(fabs(fd - r.grads[i]) < 1e-7, "param %d: "
		    "finite difference %.12g, backward %.12g", i, fd,
		    r.grads[i]);
		if (fabs(fd - r.grads[i]) > worst)
			worst = fabs(fd - r.grads[i]);
		big += fabs(r.grads[i]) > 1e-3;
	}
	/* Most sampled gradients are far above the tolerance. */
	ck_assert_int_gt(big, 150);
	ck_assert_double_eq(r.max_grad_error, 0.0);
	sim_result_free(&r);
}
END_TEST

static const struct {
	const char	*mode;
	int		 gpus, m;
	const char	*sched;
	int		 v, sp, no_overlap;
} equiv[] = {
	{ "dp", 2, 1, NULL, 0, 0, 0 }, { "dp", 4, 1, NULL, 0, 0, 0 },
	{ "dp", 4, 2, NULL, 0, 0, 1 }, { "dp", 8, 2, NULL, 0, 0, 0 },
	{ "tp", 2, 1, NULL, 0, 0, 0 }, { "tp", 4, 1, NULL, 0, 0, 0 },
	{ "tp", 4, 2, NULL, 0, 1, 0 }, { "tp", 2, 1, NULL, 0, 1, 0 },
	{ "pp", 2, 4, "gpipe", 0, 0, 0 }, { "pp", 4, 8, "gpipe", 0, 0, 0 },
	{ "pp", 2, 8, "1f1b", 0, 0, 0 }, { "pp", 4, 16, "1f1b", 0, 0, 0 },
	{ "pp", 4, 1, "1f1b", 0, 0, 0 }, { "pp", 2, 4, "interleaved", 2, 0, 0 },
	{ "pp", 2, 8, "interleaved", 2, 0, 0 },
	{ "pp", 1, 4, "interleaved", 4, 0, 0 },
	{ "fsdp", 2, 1, NULL, 0, 0, 0 }, { "fsdp", 4, 1, NULL, 0, 0, 0 },
	{ "fsdp", 4, 2, NULL, 0, 0, 1 }, { "fsdp", 8, 2, NULL, 0, 0, 0 },
	{ "3d", 8, 8, "1f1b", 0, 0, 0 }, { "3d", 8, 4, "gpipe", 0, 1, 0 },
	{ "3d", 8, 2, "1f1b", 0, 1, 1 },
	{ "3d", 8, 4, "interleaved", 2, 1, 0 },
	{ "cp", 2, 1, NULL, 0, 0, 0 }, { "cp", 4, 1, NULL, 0, 0, 0 },
	{ "cp", 4, 2, NULL, 0, 0, 1 }, { "cp", 2, 4, NULL, 0, 0, 0 }
};

START_TEST(mode_matches_single)
{
	static double init[SIM_NPARAMS];
	struct sim_request req;
	struct sim_result ref, r;

	run_ok("single", 1, 1, NULL, 0, 0, &ref);
	memset(&req, 0, sizeof req);
	req.mode = equiv[_i].mode;
	req.gpus = equiv[_i].gpus;
	req.microbatches = equiv[_i].m;
	req.schedule = equiv[_i].sched;
	req.vstages = equiv[_i].v;
	req.seq_parallel = equiv[_i].sp;
	req.no_overlap = equiv[_i].no_overlap;
	run_cfg(&req, &r);
	ck_assert_msg(r.max_loss_error < 1e-9 && r.max_grad_error < 1e-9 &&
	    r.max_param_error < 1e-9, "%s gpus %d m %d: loss error %g, grad "
	    "error %g, param error %g", equiv[_i].mode, equiv[_i].gpus,
	    equiv[_i].m, r.max_loss_error, r.max_grad_error,
	    r.max_param_error);
	/* The update really moved the parameters, the same way. */
	ck_assert(fabs(r.params[100] - ref.params[100]) < 1e-10);
	sim_model_init(init);
	ck_assert(fabs(r.params[100] - init[100]) > 1e-4);
	ck_assert_int_eq(r.tl.n_devices, equiv[_i].gpus);
	sim_result_free(&ref);
	sim_result_free(&r);
}
END_TEST

static const struct {
	int		 p, m;
	const char	*sched;
	int		 v;
} bub[] = {
	{ 2, 4, "gpipe", 0 }, { 4, 8, "gpipe", 0 }, { 2, 8, "1f1b", 0 },
	{ 4, 8, "1f1b", 0 }, { 4, 16, "1f1b", 0 }, { 4, 2, "1f1b", 0 },
	{ 2, 4, "interleaved", 2 }, { 2, 8, "interleaved", 2 },
	{ 2, 2, "interleaved", 2 }, { 1, 4, "interleaved", 4 }
};

START_TEST(bubble_compute_only_is_formula)
{
	struct sim_result r;
	int v = bub[_i].v ? bub[_i].v : 1;
	double want = pipe_bubble_fraction(bub[_i].p, bub[_i].m, v);

	run_ok("pp", bub[_i].p, bub[_i].m, bub[_i].sched, bub[_i].v, 1, &r);
	ck_assert_msg(fabs(r.bubble - want) < 1e-9, "%s p=%d m=%d v=%d: "
	    "measured %.12f, formula %.12f", bub[_i].sched, bub[_i].p,
	    bub[_i].m, v, r.bubble, want);
	ck_assert_double_eq_tol(r.bubble_formula, want, 1e-15);
	sim_result_free(&r);
}
END_TEST

/* With real transfer costs the bubble stays within 1.5 points. */
START_TEST(bubble_with_transfers_near_formula)
{
	struct sim_result r;
	int v = bub[_i].v ? bub[_i].v : 1;
	double want = pipe_bubble_fraction(bub[_i].p, bub[_i].m, v);

	run_ok("pp", bub[_i].p, bub[_i].m, bub[_i].sched, bub[_i].v, 0, &r);
	ck_assert_msg(r.bubble >= want - 1e-9 && r.bubble < want + 0.015,
	    "%s p=%d m=%d: measured %.4f, formula %.4f", bub[_i].sched,
	    bub[_i].p, bub[_i].m, r.bubble, want);
	sim_result_free(&r);
}
END_TEST

START_TEST(gpipe_and_1f1b_same_bubble)
{
	struct sim_result g, f;
	int m;

	for (m = 4; m <= 16; m *= 2) {
		run_ok("pp", 4, m, "gpipe", 0, 0, &g);
		run_ok("pp", 4, m, "1f1b", 0, 0, &f);
		ck_assert_msg(fabs(g.bubble - f.bubble) < 0.01, "m=%d: gpipe "
		    "%.4f, 1f1b %.4f", m, g.bubble, f.bubble);
		ck_assert(fabs(g.step_time - f.step_time) < 0.01 * g.step_time);
		sim_result_free(&g);
		sim_result_free(&f);
	}
}
END_TEST

START_TEST(no_bubble_without_pipeline)
{
	struct sim_result r;

	run_ok("dp", 4, 1, NULL, 0, 0, &r);
	ck_assert_double_eq_tol(r.bubble, 0.0, 1e-12);
	ck_assert_double_eq(r.bubble_formula, 0.0);
	sim_result_free(&r);
	run_ok("tp", 4, 1, NULL, 0, 0, &r);
	ck_assert_double_eq_tol(r.bubble, 0.0, 1e-12);
	sim_result_free(&r);
}
END_TEST

/* Sorted; no device runs two busy events at once; idle fills the gaps. */
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
		if (!sim_event_is_busy(e) && e->kind != SIM_IDLE)
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

/* Each send has its receive; the consumer starts after it arrives. */
static void
check_sends(const struct sim_timeline *tl)
{
	size_t i, j, n_send = 0;
	int found, used;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *s = &tl->ev[i];
		int fwd = s->what == SIM_P_ACTS;

		if (s->kind != SIM_SEND)
			continue;
		n_send++;
		ck_assert(s->what == SIM_P_ACTS || s->what == SIM_P_ACT_GRADS);
		for (found = 0, used = 0, j = 0; j < tl->n_ev; j++) {
			const struct sim_event *r = &tl->ev[j];

			if (r->kind == SIM_RECV && r->device == s->peer &&
			    r->peer == s->device && r->layer == s->layer &&
			    r->microbatch == s->microbatch &&
			    r->start == s->start) {
				ck_assert_uint_eq(r->bytes, s->bytes);
				ck_assert(r->what == s->what);
				found++;
			}
			if (r->device == s->peer && r->microbatch ==
			    s->microbatch && ((fwd && r->kind == SIM_FORWARD &&
			    r->layer == s->layer + 1) || (!fwd &&
			    r->kind == SIM_BACKWARD && r->layer == s->layer - 1))) {
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

	run_ok("pp", 4, 8, "1f1b", 0, 0, &r);
	check_stream(&r.tl);
	check_sends(&r.tl);
	/* 3 boundaries x 8 micro-batches x 2 ways x 2 x 8 x 16 doubles. */
	ck_assert_uint_eq(r.bytes_moved, 3 * 8 * 2 * (2 * 8 * 16 * 8));
	sim_result_free(&r);
	run_ok("pp", 2, 4, "interleaved", 2, 0, &r);
	check_stream(&r.tl);
	check_sends(&r.tl);
	/* Interleaving: 3 boundaries of virtual stages, not 1. */
	ck_assert_uint_eq(r.bytes_moved, 3 * 4 * 2 * (4 * 8 * 16 * 8));
	sim_result_free(&r);
	run_ok("3d", 8, 4, "1f1b", 0, 0, &r);
	check_stream(&r.tl);
	check_sends(&r.tl);
	sim_result_free(&r);
	run_ok("fsdp", 4, 2, NULL, 0, 0, &r);
	check_stream(&r.tl);
	sim_result_free(&r);
}
END_TEST

/* Count device dev's events of kind k (and, if what >= 0, payload). */
static int
count(const struct sim_timeline *tl, int dev, enum sim_kind k, int what)
{
	size_t i;
	int n = 0;

	for (i = 0; i < tl->n_ev; i++)
		n += tl->ev[i].device == dev && tl->ev[i].kind == k &&
		    (what < 0 || (int)tl->ev[i].what == what);
	return n;
}

START_TEST(tp_four_all_reduces_per_layer)
{
	struct sim_cost c = sim_cost_default();
	struct sim_result r;
	double S = SIM_TOKENS * SIM_HIDDEN * 8.0;
	size_t i;
	int d, l;

	run_ok("tp", 4, 1, NULL, 0, 0, &r);
	for (d = 0; d < 4; d++) {
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_REDUCE, -1), 16);
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_REDUCE, SIM_P_ACTS), 8);
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_REDUCE,
		    SIM_P_ACT_GRADS), 8);
		/* Each in 2(n-1) = 6 ring steps of one chunk. */
		ck_assert_int_eq(count(&r.tl, d, SIM_RING_STEP, -1), 16 * 6);
	}
	for (i = 0; i < r.tl.n_ev; i++) {
		const struct sim_event *e = &r.tl.ev[i];

		if (e->kind == SIM_ALL_REDUCE) {
			/* 2(n-1)/n S bytes in 2(n-1) alpha + that / B. */
			ck_assert_uint_eq(e->bytes, (size_t)(1.5 * S));
			ck_assert_double_eq_tol(e->end - e->start, 6 *
			    c.alpha_intra + 1.5 * S / c.bw_intra, 1e-12);
			ck_assert(!e->overlap && e->microbatch == 0);
			ck_assert_int_eq(e->peer, (e->device + 1) % 4);
		}
	}
	/* Per layer: 2 forward, 2 backward, on device 0. */
	for (l = 1; l <= 4; l++) {
		int f = 0, b = 0;

		for (i = 0; i < r.tl.n_ev; i++) {
			const struct sim_event *e = &r.tl.ev[i];

			if (e->device != 0 || e->kind != SIM_ALL_REDUCE ||
			    e->layer != l)
				continue;
			f += e->what == SIM_P_ACTS;
			b += e->what == SIM_P_ACT_GRADS;
		}
		ck_assert_int_eq(f, 2);
		ck_assert_int_eq(b, 2);
	}
	sim_result_free(&r);
}
END_TEST

/* Ring steps go reduce-scatter then all-gather, chunk (i-q-1) then (i-q). */
START_TEST(ring_steps_chunk_by_chunk)
{
	struct sim_result r;
	const struct sim_event *e;
	int id = -1, steps = 0, i;

	run_ok("tp", 4, 1, NULL, 0, 0, &r);
	for (i = 0; i < (int)r.tl.n_ev; i++) {
		e = &r.tl.ev[i];
		if (e->kind != SIM_RING_STEP)
			continue;
		if (id < 0)
			id = e->collective;
		if (e->collective != id)
			continue;
		steps++;
		ck_assert_int_eq(e->ring_steps, 6);
		ck_assert_int_eq(e->peer, (e->device + 1) % 4);
		ck_assert_uint_eq(e->bytes, SIM_TOKENS * SIM_HIDDEN * 8 / 4);
		if (e->ring_step < 3) {
			ck_assert(e->phase == SIM_REDUCE_SCATTER);
			ck_assert_int_eq(e->ring_chunk, ((e->device -
			    e->ring_step - 1) % 4 + 4) % 4);
		} else {
			ck_assert(e->phase == SIM_ALL_GATHER);
			ck_assert_int_eq(e->ring_chunk, ((e->device -
			    (e->ring_step - 3)) % 4 + 4) % 4);
		}
	}
	ck_assert_int_eq(steps, 6 * 4);
	sim_result_free(&r);
}
END_TEST

/*
 * CP on 4: per layer and device, 3 K/V sends forward to the next device
 * (pass-KV), 3 again backward and 4 dK/dV sends (the last returns them
 * to their owner); each K/V block is 2 x T x H doubles of the device's
 * 32 rows, each beside an attention step. The activations a device
 * holds at most are a quarter of single's.
 */
static size_t
acts_peak(const struct sim_result *r, int dev)
{
	size_t i, m = 0;

	for (i = 0; i < r->tl.n_mem; i++)
		if (r->tl.mem[i].device == dev &&
		    r->tl.mem[i].bytes[SIM_MEM_ACTS] > m)
			m = r->tl.mem[i].bytes[SIM_MEM_ACTS];
	return m;
}

START_TEST(cp_ring_passes_kv)
{
	struct sim_result r, one;
	const struct sim_event *e;
	size_t kv = 2 * (SIM_TOKENS / 4) * SIM_HIDDEN * 8;
	int fwd = 0, bwd = 0, dkv = 0, steps = 0, i;

	run_ok("cp", 4, 1, NULL, 0, 0, &r);
	ck_assert_int_eq(r.cp, 4);
	ck_assert_int_eq(r.dp, 1);
	for (i = 0; i < (int)r.tl.n_ev; i++) {
		e = &r.tl.ev[i];
		if (e->device != 1 || e->layer != 2)
			continue;
		if (e->kind == SIM_FORWARD && e->part == SIM_PART_ATTN)
			steps++;
		if (e->kind != SIM_SEND)
			continue;
		ck_assert_int_eq(e->peer, 2);
		ck_assert_uint_eq(e->bytes, kv);
		ck_assert(e->what == SIM_P_KV || e->what == SIM_P_KV_GRADS);
		if (e->what == SIM_P_KV_GRADS)
			dkv++;
		else if (e->start < r.tl.ev[r.tl.n_ev - 1].start / 2)
			fwd++;
		else
			bwd++;
	}
	ck_assert_int_eq(steps, 4);
	ck_assert_int_eq(fwd, 3);
	ck_assert_int_eq(bwd, 3);
	ck_assert_int_eq(dkv, 4);
	run_ok("single", 1, 1, NULL, 0, 0, &one);
	for (i = 0; i < 4; i++)
		ck_assert_uint_le(acts_peak(&r, i), acts_peak(&one, 0) / 4);
	sim_result_free(&one);
	sim_result_free(&r);
}
END_TEST

/* CP with DP: 8 GPUs as 2 replicas of CP 4, 16 as 4 of CP 4. */
START_TEST(cp_with_dp_matches_single)
{
	static const int lay[2][2] = { { 8, 4 }, { 16, 4 } };
	struct sim_request req;
	struct sim_result r;

	memset(&req, 0, sizeof req);
	req.mode = "cp";
	req.gpus = lay[_i][0];
	run_cfg(&req, &r);
	ck_assert_int_eq(r.cp, lay[_i][1]);
	ck_assert_int_eq(r.dp, lay[_i][0] / lay[_i][1]);
	ck_assert_msg(r.max_loss_error < 1e-12 && r.max_grad_error < 1e-12 &&
	    r.max_param_error < 1e-9, "cp %d of %d: %g %g %g", lay[_i][1],
	    lay[_i][0], r.max_loss_error, r.max_grad_error,
	    r.max_param_error);
	sim_result_free(&r);
}
END_TEST

/*
 * CP with TP inside each CP rank: TP 2 x CP 2 on 4 GPUs, TP 2 x CP 4 and
 * TP 4 x CP 2 on 8, DP 2 x TP 2 x CP 4 on 16, with and without overlap.
 */
START_TEST(cp_with_tp_matches_single)
{
	static const int lay[4][4] = {
		/* gpus, tp, cp, dp */
		{ 4, 2, 2, 1 }, { 8, 2, 4, 1 }, { 8, 4, 2, 1 }, { 16, 2, 4, 2 }
	};
	struct sim_request req;
	struct sim_result r;

	memset(&req, 0, sizeof req);
	req.mode = "cp";
	req.gpus = lay[_i % 4][0];
	req.tp = lay[_i % 4][1];
	req.no_overlap = _i >= 4;
	run_cfg(&req, &r);
	ck_assert_int_eq(r.tp, lay[_i % 4][1]);
	ck_assert_int_eq(r.cp, lay[_i % 4][2]);
	ck_assert_int_eq(r.dp, lay[_i % 4][3]);
	ck_assert_msg(r.max_loss_error < 1e-12 && r.max_grad_error < 1e-12 &&
	    r.max_param_error < 1e-9, "tp %d cp %d dp %d: %g %g %g",
	    r.tp, r.cp, r.dp, r.max_loss_error, r.max_grad_error,
	    r.max_param_error);
	sim_result_free(&r);
}
END_TEST

/*
 * TP 2 x CP 4 on 8 GPUs: the ring runs between the GPUs of one TP rank
 * (G0 -> G2 -> G4 -> G6, TP innermost), each block half the heads' K/V,
 * and TP's two all-reduces forward and two backward per layer run inside
 * each TP pair (G0, G1) beside it.
 */
START_TEST(cp_with_tp_rings_and_reduces)
{
	struct sim_request req;
	struct sim_result r;
	const struct sim_event *e;
	size_t kv = 2 * (SIM_TOKENS / 4) * (SIM_HIDDEN / 2) * 8;
	int sends = 0, ar = 0, i;

	memset(&req, 0, sizeof req);
	req.mode = "cp";
	req.gpus = 8;
	req.tp = 2;
	run_cfg(&req, &r);
	for (i = 0; i < (int)r.tl.n_ev; i++) {
		e = &r.tl.ev[i];
		if (e->device != 0)
			continue;
		if (e->kind == SIM_SEND && e->what == SIM_P_KV) {
			ck_assert_int_eq(e->peer, 2);
			ck_assert_uint_eq(e->bytes, kv);
			sends++;
		}
		if (e->kind == SIM_ALL_REDUCE && e->what !=
		    SIM_P_WEIGHT_GRADS) {
			ck_assert_int_eq(e->peer, 1);
			ar++;
		}
		/* the gradients are summed over CP (and DP) ranks */
		if (e->kind == SIM_ALL_REDUCE && e->what ==
		    SIM_P_WEIGHT_GRADS)
			ck_assert_int_eq(e->peer, 2);
	}
	/* 3 K/V sends forward and 3 backward in each of 4 layers */
	ck_assert_int_eq(sends, 4 * 6);
	ck_assert_int_eq(ar, 4 * 4);
	sim_result_free(&r);
}
END_TEST

/* What does not combine says so, and cp without --tp is as before. */
START_TEST(cp_with_tp_refused)
{
	static const struct { const char *mode; int gpus, tp, sp; } bad[] = {
		{ "cp", 2, 2, 0 },	/* one CP rank left */
		{ "cp", 6, 4, 0 },	/* tp does not divide the GPUs */
		{ "cp", 8, 3, 0 },	/* nor the heads */
		{ "cp", 8, 2, 1 },	/* sequence parallel */
		{ "dp", 4, 2, 0 },	/* tp inside cp only */
		{ "cp", 8, 8, 0 }	/* more than the heads */
	};
	struct sim_request req;
	struct sim_config cfg;
	struct pl_err err;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&req, 0, sizeof req);
		req.mode = bad[i].mode;
		req.gpus = bad[i].gpus;
		req.tp = bad[i].tp;
		req.seq_parallel = bad[i].sp;
		pl_err_clear(&err);
		ck_assert_msg(sim_config_build(&req, &cfg, &err) != 0,
		    "case %zu was accepted", i);
		ck_assert(err.msg[0] != '\0');
	}
	memset(&req, 0, sizeof req);
	req.mode = "cp";
	req.gpus = 8;
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), 0);
	ck_assert_int_le(cfg.tp, 1);
}
END_TEST

START_TEST(sp_gathers_and_scatters)
{
	struct sim_request req;
	struct sim_result r, plain;
	int d;

	memset(&req, 0, sizeof req);
	req.mode = "tp";
	req.seq_parallel = 1;
	run_cfg(&req, &r);
	run_ok("tp", 4, 1, NULL, 0, 0, &plain);
	for (d = 0; d < 4; d++) {
		/* [KOR22] §4.2.2: 4 all-gathers + 4 reduce-scatters a layer. */
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_GATHER, -1), 16);
		ck_assert_int_eq(count(&r.tl, d, SIM_REDUCE_SCATTER, -1), 16);
		/* One all-reduce: the norms' and biases' gradients. */
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_REDUCE,
		    SIM_P_WEIGHT_GRADS), 1);
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_REDUCE, SIM_P_ACTS),
		    0);
	}
	/* Same volume as the all-reduces, plus that small one. */
	ck_assert_uint_eq(r.bytes_moved, plain.bytes_moved + 4 * 2 * 3 *
	    (4 * SIM_LAYERS * SIM_HIDDEN / 4) * 8);
	sim_result_free(&r);
	sim_result_free(&plain);
}
END_TEST

/* The end of the last backward event on dev. */
static double
last_backward(const struct sim_timeline *tl, int dev)
{
	double t = 0.0;
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].device == dev && tl->ev[i].kind == SIM_BACKWARD &&
		    tl->ev[i].end > t)
			t = tl->ev[i].end;
	return t;
}

/* The start of the first backward event. */
static double
first_backward(const struct sim_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind == SIM_BACKWARD)
			return tl->ev[i].start;
	return INFINITY;
}

START_TEST(dp_buckets_overlap_backward)
{
	struct sim_request req;
	struct sim_result r, no;
	int layer = SIM_LAYERS, n = 0;
	size_t i;

	run_ok("dp", 4, 1, NULL, 0, 0, &r);
	for (i = 0; i < r.tl.n_ev; i++) {
		const struct sim_event *e = &r.tl.ev[i];

		if (e->device != 0 || e->kind != SIM_ALL_REDUCE)
			continue;
		/* L4's bucket first, then L3's ... as their backward ends. */
		ck_assert_int_eq(e->layer, layer--);
		ck_assert(e->what == SIM_P_WEIGHT_GRADS && e->overlap);
		ck_assert_uint_eq(e->bytes, 2 * 3 * SIM_LAYER_PARAMS / 4 * 8);
		if (n++ == 0)
			ck_assert(e->start < last_backward(&r.tl, 0));
	}
	ck_assert_int_eq(n, 4);
	/* No traffic at all during the forward pass. */
	for (i = 0; i < r.tl.n_ev; i++)
		if (r.tl.ev[i].kind == SIM_SEND ||
		    r.tl.ev[i].kind == SIM_RING_STEP ||
		    sim_kind_is_collective(r.tl.ev[i].kind))
			ck_assert(r.tl.ev[i].start >= first_backward(&r.tl));
	memset(&req, 0, sizeof req);
	req.mode = "dp";
	req.no_overlap = 1;
	run_cfg(&req, &no);
	ck_assert_int_eq(count(&no.tl, 0, SIM_ALL_REDUCE, -1), 1);
	for (i = 0; i < no.tl.n_ev; i++)
		if (no.tl.ev[i].kind == SIM_ALL_REDUCE)
			ck_assert(no.tl.ev[i].start >=
			    last_backward(&no.tl, 0) - 1e-15 &&
			    !no.tl.ev[i].overlap);
	/* Same bytes; hiding the buckets makes the step shorter. */
	ck_assert_uint_eq(r.bytes_moved, no.bytes_moved);
	ck_assert(r.step_time < no.step_time);
	sim_result_free(&r);
	sim_result_free(&no);
}
END_TEST

START_TEST(dp_shards_differ)
{
	struct sim_result r;
	size_t i;

	run_ok("dp", 4, 1, NULL, 0, 0, &r);
	for (i = 0; i < r.tl.n_ev; i++)
		if (sim_kind_is_compute(r.tl.ev[i].kind))
			ck_assert_int_eq(r.tl.ev[i].shard, r.tl.ev[i].device);
	sim_result_free(&r);
}
END_TEST

START_TEST(zero3_three_collectives_per_layer)
{
	struct sim_result r;
	size_t i, gathered_peak = 0;
	int d, m = 2;

	run_ok("fsdp", 4, m, NULL, 0, 0, &r);
	for (d = 0; d < 4; d++) {
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_GATHER, SIM_P_PARAMS),
		    2 * SIM_LAYERS * m);
		ck_assert_int_eq(count(&r.tl, d, SIM_REDUCE_SCATTER,
		    SIM_P_WEIGHT_GRADS), SIM_LAYERS * m);
		ck_assert_int_eq(count(&r.tl, d, SIM_ALL_REDUCE, -1), 0);
	}
	for (i = 0; i < r.tl.n_mem; i++)
		if (r.tl.mem[i].bytes[SIM_MEM_GATHER] > gathered_peak)
			gathered_peak = r.tl.mem[i].bytes[SIM_MEM_GATHER];
	/* A gathered layer and its gradients at least, never the model. */
	ck_assert_uint_ge(gathered_peak, 2 * SIM_LAYER_PARAMS * 8);
	ck_assert_uint_lt(gathered_peak, (size_t)SIM_NPARAMS * 8 * 2);
	sim_result_free(&r);
}
END_TEST

START_TEST(memory_samples)
{
	struct sim_shape sh = { 2, 1, 0, 1 };
	struct sim_result r, g;
	const struct sim_mem_sample *m;
	size_t per_mb;
	int d;

	run_ok("dp", 4, 1, NULL, 0, 0, &r);
	m = test_last_mem(&r.tl, 2);
	ck_assert_uint_eq(m->bytes[SIM_MEM_PARAMS], SIM_NPARAMS * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_GRADS], SIM_NPARAMS * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_OPTIM], 2 * SIM_NPARAMS * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_ACTS], 0);
	sim_result_free(&r);
	/* ZeRO-3 keeps a quarter of everything. */
	run_ok("fsdp", 4, 1, NULL, 0, 0, &r);
	m = test_last_mem(&r.tl, 1);
	ck_assert_uint_eq(m->bytes[SIM_MEM_PARAMS], SIM_NPARAMS / 4 * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_OPTIM], 2 * SIM_NPARAMS / 4 * 8);
	ck_assert_uint_eq(m->bytes[SIM_MEM_GATHER], 0);
	sim_result_free(&r);
	/* Stage 0 keeps a micro-batch's input and saved tensors until its
	 * backward: GPipe all 8, 1F1B at most p = 4 ([NAR21] §2.2.1). */
	per_mb = (2 * SIM_SEQ * SIM_HIDDEN + sim_saved_len(&sh)) * 8;
	run_ok("pp", 4, 8, "1f1b", 0, 0, &r);
	run_ok("pp", 4, 8, "gpipe", 0, 0, &g);
	ck_assert_uint_ge(test_peak_mem(&g.tl, 0, SIM_MEM_ACTS), 8 * per_mb);
	ck_assert_uint_le(test_peak_mem(&r.tl, 0, SIM_MEM_ACTS), 4 * per_mb + per_mb / 2);
	ck_assert_uint_ge(test_peak_mem(&r.tl, 0, SIM_MEM_ACTS), 4 * per_mb);
	for (d = 0; d < 4; d++)
		ck_assert_uint_eq(test_last_mem(&r.tl, d)->bytes[SIM_MEM_ACTS], 0);
	sim_result_free(&r);
	sim_result_free(&g);
}
END_TEST

START_TEST(builder_defaults)
{
	struct sim_request req;
	struct sim_config cfg, def;
	struct pl_err err;

	memset(&req, 0, sizeof req);
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), 0);
	sim_config_default(&def, SIM_PP, 4);
	ck_assert(cfg.mode == SIM_PP && cfg.gpus == 4 &&
	    cfg.microbatches == 8 && cfg.schedule == PIPE_1F1B &&
	    cfg.vstages == 1 && cfg.overlap && !cfg.seq_parallel &&
	    !cfg.compute_only);
	req.schedule = "interleaved";
	req.gpus = 2;
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), 0);
	ck_assert_int_eq(cfg.vstages, 2);
	req.mode = "3d";
	req.gpus = 0;
	req.schedule = NULL;
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), 0);
	ck_assert_int_eq(cfg.gpus, 8);
	req.mode = "single";
	req.gpus = 4;
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), 0);
	ck_assert_int_eq(cfg.gpus, 1);
	req.mode = "nope";
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "nope"));
	req.mode = "pp";
	req.schedule = "zigzag";
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "zigzag"));
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
	cfg.microbatches = 3;
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "batch"));
	sim_config_default(&cfg, SIM_3D, 4);
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "8"));
	sim_config_default(&cfg, SIM_TP, 8);
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "heads"));
	sim_config_default(&cfg, SIM_DP, 4);
	cfg.seq_parallel = 1;
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	sim_config_default(&cfg, SIM_PP, 2);
	cfg.schedule = PIPE_INTERLEAVED;
	cfg.vstages = 3;
	ck_assert_int_eq(sim_config_check(&cfg, &err), -1);
	cfg.vstages = 2;
	cfg.microbatches = 1;
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

	tc = tcase_create("the model");
	tcase_add_test(tc, sizes);
	tcase_add_test(tc, layer_map_round_trip);
	tcase_add_test(tc, gradients_are_derivatives);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	tc = tcase_create("every mode equals single");
	tcase_add_loop_test(tc, mode_matches_single, 0,
	    (int)(sizeof equiv / sizeof equiv[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("bubble");
	tcase_add_loop_test(tc, bubble_compute_only_is_formula, 0,
	    (int)(sizeof bub / sizeof bub[0]));
	tcase_add_loop_test(tc, bubble_with_transfers_near_formula, 0,
	    (int)(sizeof bub / sizeof bub[0]));
	tcase_add_test(tc, gpipe_and_1f1b_same_bubble);
	tcase_add_test(tc, no_bubble_without_pipeline);
	suite_add_tcase(s, tc);
	tc = tcase_create("collectives as the frameworks run them");
	tcase_add_test(tc, event_stream);
	tcase_add_test(tc, tp_four_all_reduces_per_layer);
	tcase_add_test(tc, ring_steps_chunk_by_chunk);
	tcase_add_test(tc, cp_ring_passes_kv);
	tcase_add_loop_test(tc, cp_with_dp_matches_single, 0, 2);
	tcase_add_loop_test(tc, cp_with_tp_matches_single, 0, 8);
	tcase_add_test(tc, cp_with_tp_rings_and_reduces);
	tcase_add_test(tc, cp_with_tp_refused);
	tcase_add_test(tc, sp_gathers_and_scatters);
	tcase_add_test(tc, dp_buckets_overlap_backward);
	tcase_add_test(tc, dp_shards_differ);
	tcase_add_test(tc, zero3_three_collectives_per_layer);
	tcase_add_test(tc, memory_samples);
	suite_add_tcase(s, tc);
	tc = tcase_create("configs");
	tcase_add_test(tc, builder_defaults);
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
