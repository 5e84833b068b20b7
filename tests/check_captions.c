/*
 * check_captions.c - every animation block's caption states only what its
 * trace shows.
 *
 * Each block of the course is run through the same config builder the
 * player uses (core/course/animation.c), and every claim its caption makes
 * that can be counted is checked against the timeline: all-reduces per
 * layer and per step, a gradient bucket reduced while backward still
 * runs, no traffic in the forward pass, the bubble and its equality across
 * schedules, the micro-batches stage 0 keeps, the sends per micro-batch,
 * the bytes a ring moves. A claim names the words of the caption that make
 * it, so rewording a caption without its claim, or a caption with no
 * claim at all, fails here.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/animation.h"
#include "core/course/content.h"
#include "core/sim/sim_knob.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

enum claim_kind {
	C_NO_BYTES,		/* nothing crosses between devices */
	C_LAYER_ORDER,		/* L1..L4 forward, L4..L1 backward, then Adam */
	C_TP_HEADS,		/* attention heads per GPU == v */
	C_AR_PER_LAYER,		/* dev 0, layer 1, mb 0: v forward, v backward
				   all-reduces of activations */
	C_AR_PER_STEP,		/* all-reduces on dev 0 in the step == v */
	C_AR_SIZE,		/* a TP all-reduce sums b*s*h values */
	C_TP_BLOCKING,		/* nothing computes during a TP all-reduce */
	C_COMM_SHARE,		/* dev 0's share of the step in blocking
				   collectives == v +- tol */
	C_SHARDS_DIFFER,	/* device d computes on shard d of B/d seqs */
	C_NO_TRAFFIC_FWD,	/* no transfer before the first backward */
	C_ONLY_WEIGHT_GRADS,	/* every transfer carries weight gradients */
	C_BUCKET_PER_LAYER,	/* one gradient all-reduce per layer, each
				   starting when that layer's backward ends */
	C_BUCKET_DURING_BWD,	/* L4's bucket overlaps dev 0's L3 backward */
	C_LAST_BUCKET_ONLY,	/* only L1's bucket ends after backward */
	C_RING_FACTOR,		/* dev 0 sends v x its gradient bytes */
	C_OPT_TOGETHER,		/* Adam starts at one moment on every GPU */
	C_BUBBLE,		/* measured bubble == v +- tol */
	C_SAME_BUBBLE_AS,	/* within tol of another block's bubble */
	C_SAME_STEP_AS,		/* within tol (share) of its step time */
	C_PEAK_IN_FLIGHT,	/* most micro-batches dev 0 holds at once */
	C_SENDS_PER_MB,		/* forward (and backward) sends of mb 0 by
				   replica 0, TP rank 0 == v */
	C_COMPARE_BUBBLE,	/* the compared run's bubble == v +- tol */
	C_COMPARE_SENDS,	/* the compared run's sends per mb == v */
	C_COMPARE_BYTES,	/* bytes moved / the compared run's == v */
	C_HOLDS,		/* dev 0 computes exactly the layers in mask v */
	C_COLL_PER_LAYER,	/* ZeRO-3: collectives of layer 1, mb 0 == v */
	C_SHARD_SHARE,		/* ZeRO-3: dev 0 holds 1/v of the parameters */
	C_DP_AT_END,		/* gradient collectives start once the last
				   micro-batch's backward has begun */
	C_KV_HOPS,		/* CP: dev 0 sends its K/V v times in layer
				   1's forward, to G1, each beside attention */
	C_KV_GRAD_HOPS,		/* CP: layer 1's backward sends K/V as often
				   as its forward and K/V gradients v times */
	C_KV_WAITS,		/* CP: dev 0's idle spells in the forward that
				   end as a K/V block arrives, per layer == v */
	C_EP_HELD,		/* EP: experts dev 0 gets tokens for in layer
				   1's forward == v */
	C_EP_PEERS,		/* EP: GPUs dev 0 dispatches to in layer 1's
				   forward == v, and gets combines from */
	C_EP_SENT,		/* EP: experts dev 0 dispatches tokens for in
				   layer 1's forward == v, none its own */
	C_EP_BWD,		/* EP: dev 0's layer 1 backward sends both
				   all-to-alls as often as its forward */
	C_W_DEVICES,		/* the devices that run W passes (a split
				   backward's weight gradients): bit mask v */
	C_MIRROR,		/* dev 0 all-reduces with device v only, and
				   after its last compute */
	C_A2A_HIDDEN,		/* EP: share of the all-to-alls' time under
				   compute == v +- tol (all GPUs) */
	C_COMPARE_A2A_HIDDEN,	/* the same of the compared run */
	C_A2A_SHARE		/* EP: every GPU's all-to-all time < v of
				   the step */
};

struct claim {
	const char	*drop;		/* drop id */
	int		 block;		/* block index in the drop */
	const char	*says;		/* the caption's words for it */
	enum claim_kind	 kind;
	double		 v, tol;
	int		 other;		/* block of the same drop, C_SAME_* */
};

static const struct claim claims[] = {
	{ "drop-01", 1, "not one byte leaves the GPU", C_NO_BYTES, 0, 0, 0 },
	{ "drop-01", 1, "comes back from L4 to L1", C_LAYER_ORDER, 0, 0, 0 },
	{ "drop-01", 1, "the optimizer step ends the step", C_LAYER_ORDER, 0,
	    0, 0 },
	{ "drop-02", 1, "each fed a different quarter", C_SHARDS_DIFFER, 0, 0,
	    0 },
	{ "drop-02", 1, "forward passes run side by side with no traffic",
	    C_NO_TRAFFIC_FWD, 0, 0, 0 },
	{ "drop-02", 1, "Gradients are the only thing that moves",
	    C_ONLY_WEIGHT_GRADS, 0, 0, 0 },
	{ "drop-02", 1, "each layer's are all-reduced as soon as its backward "
	    "is done", C_BUCKET_PER_LAYER, 0, 0, 0 },
	{ "drop-03", 2, "one of the four attention heads", C_TP_HEADS, 1, 0,
	    0 },
	{ "drop-03", 2, "four all-reduces in each layer", C_AR_PER_LAYER, 2, 0,
	    0 },
	{ "drop-03", 2, "sixteen in the step", C_AR_PER_STEP, 16, 0, 0 },
	{ "drop-03", 2, "Nothing computes during them", C_TP_BLOCKING, 0, 0,
	    0 },
	{ "drop-04", 4, "three quarters of the grid is bubble", C_BUBBLE, 0.75,
	    0.015, 0 },
	{ "drop-04", 5, "3/11 of the step", C_BUBBLE, 3.0 / 11, 0.015, 0 },
	{ "drop-04", 5, "activations of all 8 micro-batches", C_PEAK_IN_FLIGHT,
	    8, 0, 0 },
	{ "drop-05", 2, "each fed its own quarter of the batch",
	    C_SHARDS_DIFFER, 0, 0, 0 },
	{ "drop-05", 2, "sends nothing between GPUs", C_NO_TRAFFIC_FWD, 0, 0,
	    0 },
	{ "drop-05", 2, "while L3 is still computing", C_BUCKET_DURING_BWD, 0,
	    0, 0 },
	{ "drop-05", 2, "one bucket per layer", C_BUCKET_PER_LAYER, 0, 0, 0 },
	{ "drop-05", 2, "one bucket per layer", C_AR_PER_STEP, 4, 0, 0 },
	{ "drop-05", 2, "only L1's is left once backward ends",
	    C_LAST_BUCKET_ONLY, 0, 0, 0 },
	{ "drop-05", 2, "one and a half times its gradient bytes",
	    C_RING_FACTOR, 1.5, 0, 0 },
	{ "drop-05", 2, "apply the same Adam update together", C_OPT_TOGETHER,
	    0, 0, 0 },
	{ "drop-06", 2, "halt twice going forward and twice coming back",
	    C_AR_PER_LAYER, 2, 0, 0 },
	{ "drop-06", 2, "a whole b·s·h activation", C_AR_SIZE, 0, 0, 0 },
	{ "drop-06", 2, "nothing else runs", C_TP_BLOCKING, 0, 0, 0 },
	{ "drop-06", 2, "Sixteen of them in the step", C_AR_PER_STEP, 16, 0,
	    0 },
	{ "drop-06", 2, "about a ninth of it", C_COMM_SHARE, 1.0 / 9, 0.02, 0 },
	{ "drop-07", 2, "about 27 % of the step", C_BUBBLE, 3.0 / 11, 0.015,
	    0 },
	{ "drop-07", 2, "activations of all 8 micro-batches",
	    C_PEAK_IN_FLIGHT, 8, 0, 0 },
	{ "drop-07", 4, "as long as GPipe's to within 1 %", C_SAME_STEP_AS, 0,
	    0.01, 2 },
	{ "drop-07", 4, "idle share matches to within a point",
	    C_SAME_BUBBLE_AS, 0, 0.01, 2 },
	{ "drop-07", 4, "never holds more than 4 micro-batches'",
	    C_PEAK_IN_FLIGHT, 4, 0, 0 },
	{ "drop-07", 6, "G0: L1 and L3", C_HOLDS, 0x5, 0, 0 },
	{ "drop-07", 6, "three times on the way forward instead of once",
	    C_SENDS_PER_MB, 3, 0, 0 },
	{ "drop-07", 6, "three times on the way forward instead of once",
	    C_COMPARE_SENDS, 1, 0, 0 },
	{ "drop-07", 6, "about 11 %", C_BUBBLE, 1.0 / 9, 0.015, 0 },
	{ "drop-07", 6, "idles about 1/5", C_COMPARE_BUBBLE, 0.2, 0.015, 0 },
	{ "drop-08", 2, "TP pairs exchange partial sums inside every layer",
	    C_AR_PER_LAYER, 2, 0, 0 },
	{ "drop-08", 2, "once per micro-batch in each direction",
	    C_SENDS_PER_MB, 1, 0, 0 },
	{ "drop-08", 2, "talk only at the end of backward", C_DP_AT_END, 0, 0,
	    0 },
	{ "drop-09", 3, "holding only its quarter", C_SHARD_SHARE, 4, 0, 0 },
	{ "drop-09", 3, "three per layer", C_COLL_PER_LAYER, 3, 0, 0 },
	{ "drop-11", 2, "twice in the forward pass and twice in the backward",
	    C_AR_PER_LAYER, 2, 0, 0 },
	{ "drop-11", 2, "about a ninth of the toy's step", C_COMM_SHARE,
	    1.0 / 9, 0.02, 0 },
	{ "drop-12", 2, "3 idle slots out of 7, 43%", C_BUBBLE, 3.0 / 7, 0.015,
	    0 },
	{ "drop-12", 5, "three times as many hand-offs", C_COMPARE_BYTES, 3, 0,
	    0 },
	{ "drop-14", 2, "TP pairs swap partial sums inside every layer",
	    C_AR_PER_LAYER, 2, 0, 0 },
	{ "drop-14", 2, "pass one activation per micro-batch", C_SENDS_PER_MB,
	    1, 0, 0 },
	{ "drop-14", 2, "only at the end of their backward pass", C_DP_AT_END,
	    0, 0, 0 },
	{ "drop-15", 3, "passes its keys and values to its neighbour three "
	    "times", C_KV_HOPS, 3, 0, 0 },
	{ "drop-15", 3, "runs attention on each block beside the hop",
	    C_KV_HOPS, 3, 0, 0 },
	{ "drop-15", 3, "the blocks go round once more and their gradients "
	    "take four hops", C_KV_GRAD_HOPS, 4, 0, 0 },
	{ "drop-15", 3, "each layer shows two short waits for keys and values",
	    C_KV_WAITS, 2, 0, 0 },
	{ "drop-15", 3, "one bucket per layer", C_BUCKET_PER_LAYER, 0, 0, 0 },
	{ "drop-15", 3, "apply the same Adam update together", C_OPT_TOGETHER,
	    0, 0, 0 },
	{ "drop-15", 3, "all four layers on its own quarter", C_HOLDS, 0xf, 0,
	    0 },
	{ "drop-16", 2, "Each GPU holds two of the eight experts", C_EP_HELD, 2,
	    0, 0 },
	{ "drop-16", 2, "the six experts it does not hold", C_EP_SENT, 6, 0,
	    0 },
	{ "drop-16", 2, "to the three other GPUs (dispatch)", C_EP_PEERS, 3, 0,
	    0 },
	{ "drop-16", 2, "come back the same way (combine)", C_EP_PEERS, 3, 0,
	    0 },
	{ "drop-16", 2, "Backward runs both all-to-alls again", C_EP_BWD, 0, 0,
	    0 },
	{ "drop-16", 2, "all-reduced one bucket per layer", C_AR_PER_STEP, 4,
	    0, 0 },
	{ "drop-16", 2, "its own quarter of the batch", C_SHARDS_DIFFER, 0, 0,
	    0 },
	{ "drop-17", 2, "G1 to G3 split some backward passes", C_W_DEVICES,
	    0xe, 0, 0 },
	{ "drop-17", 2, "G0 keeps plain 1F1B", C_W_DEVICES, 0xe, 0, 0 },
	{ "drop-17", 2, "idles about 13 %", C_BUBBLE, 0.134, 0.015, 0 },
	{ "drop-17", 2, "1F1B beside it idles about 28 %", C_COMPARE_BUBBLE,
	    0.279, 0.015, 0 },
	{ "drop-17", 6, "G0 L1 with L4", C_HOLDS, 0x9, 0, 0 },
	{ "drop-17", 6, "even so the step idles about 8 %", C_BUBBLE, 0.084,
	    0.015, 0 },
	{ "drop-17", 6, "G0 with G3", C_MIRROR, 3, 0, 0 },
	{ "drop-17", 7, "each GPU holds two of the experts", C_EP_HELD, 2, 0,
	    0 },
	{ "drop-17", 7, "each GPU holds two of the experts and all four layers",
	    C_HOLDS, 0xf, 0, 0 },
	{ "drop-17", 7, "About 42 % of the all-to-all time runs under compute",
	    C_A2A_HIDDEN, 0.42, 0.015, 0 },
	{ "drop-17", 7, "1F1B beside it hides none", C_COMPARE_A2A_HIDDEN, 0,
	    0.005, 0 },
	{ "drop-17", 7, "take under 2 % of each GPU's step", C_A2A_SHARE, 0.02,
	    0, 0 }
};
#define N_CLAIMS	(sizeof claims / sizeof claims[0])

static struct content_course *course;

static const struct content_block *
block_of(const char *drop, int i)
{
	const struct content_drop *d = content_find_drop(course, drop);

	ck_assert_msg(d != NULL, "no %s", drop);
	ck_assert_msg(i >= 0 && (size_t)i < d->n_blocks, "%s has no block %d",
	    drop, i);
	return &d->blocks[i];
}

static void
run_block(const struct content_block *b, struct sim_config *cfg,
    struct sim_result *r)
{
	struct pl_err err;

	ck_assert_int_eq(b->kind, CONTENT_ANIMATION);
	ck_assert_msg(animation_config(&b->animation, cfg, &err) == 0, "%s",
	    err.msg);
	ck_assert_msg(sim_run(cfg, r, &err) == 0, "%s", err.msg);
}

static int
is_transfer(const struct sim_event *e)
{
	return e->kind == SIM_SEND || e->kind == SIM_RING_STEP ||
	    sim_kind_is_collective(e->kind);
}

static double
first_backward(const struct sim_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind == SIM_BACKWARD)
			return tl->ev[i].start;
	return INFINITY;
}

/* The end of the last backward of layer (0: any) on dev. */
static double
backward_end(const struct sim_timeline *tl, int dev, int layer)
{
	double t = 0.0;
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].device == dev && tl->ev[i].kind == SIM_BACKWARD &&
		    (layer == 0 || tl->ev[i].layer == layer) &&
		    tl->ev[i].end > t)
			t = tl->ev[i].end;
	return t;
}

static int
count(const struct sim_timeline *tl, int dev, enum sim_kind k, int layer,
    int mb, int what)
{
	size_t i;
	int n = 0;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		n += e->device == dev && e->kind == k &&
		    (layer < 0 || e->layer == layer) &&
		    (mb < -1 || e->microbatch == mb) &&
		    (what < 0 || (int)e->what == what);
	}
	return n;
}

static void
check_layer_order(const struct sim_timeline *tl)
{
	int phase = 0, last = 0;
	size_t i;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->kind == SIM_FORWARD) {
			ck_assert_int_eq(phase, 0);
			ck_assert_int_ge(e->layer, last);
			last = e->layer;
		} else if (e->kind == SIM_BACKWARD) {
			if (phase == 0)
				last = SIM_LAYERS;
			phase = 1;
			ck_assert_int_le(e->layer, last);
			last = e->layer;
		} else if (e->kind == SIM_OPTIMIZER) {
			ck_assert_int_eq(phase, 1);
			ck_assert_int_eq(last, 1);
			phase = 2;
		}
	}
	ck_assert_int_eq(phase, 2);
}

static void
check_blocking(const struct sim_timeline *tl)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *a = &tl->ev[i];

		if (a->kind != SIM_ALL_REDUCE || a->what == SIM_P_WEIGHT_GRADS)
			continue;
		ck_assert(!a->overlap);
		for (j = 0; j < tl->n_ev; j++) {
			const struct sim_event *c = &tl->ev[j];

			if (c->device == a->device &&
			    sim_kind_is_compute(c->kind))
				ck_assert(c->end <= a->start + 1e-12 ||
				    c->start >= a->end - 1e-12);
		}
		n++;
	}
	ck_assert_int_gt(n, 0);
}

static double
comm_share(const struct sim_result *r)
{
	double busy = 0.0;
	size_t i;

	for (i = 0; i < r->tl.n_ev; i++) {
		const struct sim_event *e = &r->tl.ev[i];

		if (e->device == 0 && sim_kind_is_collective(e->kind) &&
		    !e->overlap)
			busy += e->end - e->start;
	}
	return busy / r->step_time;
}

static void
check_shards(const struct sim_result *r)
{
	size_t i;
	int seqs = SIM_BATCH / r->dp;

	ck_assert_int_gt(r->dp, 1);
	ck_assert_int_eq(seqs * r->dp, SIM_BATCH);
	for (i = 0; i < r->tl.n_ev; i++)
		if (sim_kind_is_compute(r->tl.ev[i].kind))
			ck_assert_int_eq(r->tl.ev[i].shard, r->tl.ev[i].device /
			    (r->tp * r->pp));
}

/* One gradient all-reduce per layer, each starting when its backward ends. */
static void
check_buckets(const struct sim_timeline *tl)
{
	int l;
	size_t i;

	for (l = 1; l <= SIM_LAYERS; l++) {
		ck_assert_int_eq(count(tl, 0, SIM_ALL_REDUCE, l, -2,
		    SIM_P_WEIGHT_GRADS), 1);
		for (i = 0; i < tl->n_ev; i++)
			if (tl->ev[i].device == 0 &&
			    tl->ev[i].kind == SIM_ALL_REDUCE &&
			    tl->ev[i].layer == l)
				ck_assert_double_eq_tol(tl->ev[i].start,
				    backward_end(tl, 0, l), 1e-12);
	}
}

static void
check_bucket_during(const struct sim_timeline *tl)
{
	double l3_start = INFINITY, l3_end = backward_end(tl, 0, 3);
	size_t i;
	int seen = 0;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].device == 0 && tl->ev[i].kind == SIM_BACKWARD &&
		    tl->ev[i].layer == 3 && tl->ev[i].start < l3_start)
			l3_start = tl->ev[i].start;
	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->device == 0 && e->kind == SIM_ALL_REDUCE &&
		    e->layer == 4) {
			ck_assert(e->start >= l3_start - 1e-12 &&
			    e->start < l3_end && e->overlap);
			seen = 1;
		}
	}
	ck_assert(seen);
}

static void
check_last_bucket(const struct sim_timeline *tl)
{
	double end = backward_end(tl, 0, 0);
	size_t i;
	int after = 0;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->device != 0 || e->kind != SIM_ALL_REDUCE ||
		    e->end <= end + 1e-12)
			continue;
		ck_assert_int_eq(e->layer, 1);
		after++;
	}
	ck_assert_int_eq(after, 1);
}

static void
check_ring_factor(const struct sim_timeline *tl, double factor)
{
	size_t i, sent = 0;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].device == 0 &&
		    sim_kind_is_collective(tl->ev[i].kind) &&
		    tl->ev[i].what == SIM_P_WEIGHT_GRADS)
			sent += tl->ev[i].bytes;
	ck_assert_double_eq_tol((double)sent, factor * SIM_NPARAMS * 8.0,
	    1e-9);
}

static void
check_opt_together(const struct sim_timeline *tl)
{
	double t = -1.0;
	size_t i;
	int n = 0;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind == SIM_OPTIMIZER) {
			if (t < 0)
				t = tl->ev[i].start;
			ck_assert_double_eq(tl->ev[i].start, t);
			n++;
		}
	ck_assert_int_eq(n, tl->n_devices);
}

/* The most micro-batches dev 0 has begun and not yet finished. */
static int
peak_in_flight(const struct sim_timeline *tl)
{
	double first[SIM_BATCH], last[SIM_BATCH];
	int mb, k, n, best = 0;
	size_t i;

	for (mb = 0; mb < SIM_BATCH; mb++) {
		first[mb] = INFINITY;
		last[mb] = -1.0;
	}
	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->device != 0 || !sim_kind_is_compute(e->kind))
			continue;
		if (e->kind == SIM_FORWARD && e->start < first[e->microbatch])
			first[e->microbatch] = e->start;
		if (e->kind == SIM_BACKWARD && e->end > last[e->microbatch])
			last[e->microbatch] = e->end;
	}
	for (mb = 0; mb < SIM_BATCH; mb++) {
		if (isinf(first[mb]))
			continue;
		for (n = 0, k = 0; k < SIM_BATCH; k++)
			n += first[k] <= first[mb] && last[k] > first[mb];
		if (n > best)
			best = n;
	}
	return best;
}

/* Forward sends of mb 0 from replica 0's TP rank 0; backward must match. */
static int
sends_per_mb(const struct sim_result *r)
{
	int fwd = 0, bwd = 0;
	size_t i;

	for (i = 0; i < r->tl.n_ev; i++) {
		const struct sim_event *e = &r->tl.ev[i];

		if (e->kind != SIM_SEND || e->microbatch != 0 ||
		    e->device % r->tp != 0 || e->device >= r->tp * r->pp)
			continue;
		fwd += e->what == SIM_P_ACTS;
		bwd += e->what == SIM_P_ACT_GRADS;
	}
	ck_assert_int_eq(fwd, bwd);
	return fwd;
}

static unsigned
held_by_dev0(const struct sim_timeline *tl)
{
	unsigned mask = 0;
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].device == 0 && sim_kind_is_compute(tl->ev[i].kind))
			mask |= 1u << (tl->ev[i].layer - 1);
	return mask;
}

static void
check_dp_at_end(const struct sim_result *r, int m)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < r->tl.n_ev; i++) {
		const struct sim_event *e = &r->tl.ev[i];
		double t = INFINITY;

		if (!sim_kind_is_collective(e->kind) ||
		    e->what != SIM_P_WEIGHT_GRADS)
			continue;
		for (j = 0; j < r->tl.n_ev; j++)
			if (r->tl.ev[j].device == e->device &&
			    r->tl.ev[j].kind == SIM_BACKWARD &&
			    r->tl.ev[j].microbatch == m - 1 &&
			    r->tl.ev[j].start < t)
				t = r->tl.ev[j].start;
		ck_assert(e->start >= t);
		n++;
	}
	ck_assert_int_gt(n, 0);
}

/* The run of sim_config_compare(cfg). */
static void
run_compare(const struct sim_config *cfg, struct sim_result *r)
{
	struct sim_config other;
	struct pl_err err;

	ck_assert_int_eq(sim_config_compare(cfg, &other), 0);
	ck_assert_int_eq(sim_run(&other, r, &err), 0);
}

static void
check_other(const struct claim *c, const struct sim_result *r)
{
	static struct sim_result o;
	struct sim_config cfg;

	run_block(block_of(c->drop, c->other), &cfg, &o);
	if (c->kind == C_SAME_BUBBLE_AS)
		ck_assert_msg(fabs(r->bubble - o.bubble) < c->tol, "bubble "
		    "%.4f against %.4f", r->bubble, o.bubble);
	else
		ck_assert_msg(fabs(r->step_time - o.step_time) < c->tol *
		    o.step_time, "step %.4f against %.4f", r->step_time,
		    o.step_time);
	sim_result_free(&o);
}

/* EP: the share of every GPU's all-to-all time spent computing. */
static double
a2a_hidden(const struct sim_result *r)
{
	double h, all = sim_timeline_a2a(&r->tl, -1, &h);

	ck_assert(all > 0.0);
	return h / all;
}

static void
check_compared(const struct claim *c, const struct sim_config *cfg,
    const struct sim_result *r)
{
	static struct sim_result o;

	run_compare(cfg, &o);
	if (c->kind == C_COMPARE_A2A_HIDDEN)
		ck_assert_msg(fabs(a2a_hidden(&o) - c->v) < c->tol, "%.4f",
		    a2a_hidden(&o));
	else if (c->kind == C_COMPARE_BUBBLE)
		ck_assert_msg(fabs(o.bubble - c->v) < c->tol, "%.4f", o.bubble);
	else if (c->kind == C_COMPARE_SENDS)
		ck_assert_int_eq(sends_per_mb(&o), (int)c->v);
	else
		ck_assert_double_eq_tol((double)r->bytes_moved /
		    (double)o.bytes_moved, c->v, 1e-12);
	sim_result_free(&o);
}

/* K/V sends of dev 0 in layer 1 before (fwd: each beside compute) or
 * after the first backward. */
static int
kv_sends(const struct sim_timeline *tl, enum sim_payload what, int fwd)
{
	double fb = first_backward(tl);
	size_t i, j;
	int n = 0, beside;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->device != 0 || e->kind != SIM_SEND || e->what != what ||
		    e->layer != 1 || (e->start < fb) != fwd)
			continue;
		ck_assert_int_eq(e->peer, 1);
		for (beside = 0, j = 0; j < tl->n_ev; j++)
			beside |= tl->ev[j].device == 0 &&
			    sim_kind_is_compute(tl->ev[j].kind) &&
			    tl->ev[j].start < e->end && tl->ev[j].end > e->start;
		ck_assert_msg(beside || !fwd, "a K/V hop at %g s with nothing "
		    "computing", e->start);
		n++;
	}
	return n;
}

/*
 * EP, dev 0, layer 1, forward (before the first backward) or backward:
 * the transfers of kind k carrying what, counted, and the distinct
 * experts and peers among them (bit sets).
 */
static int
ep_moves(const struct sim_timeline *tl, enum sim_kind k,
    enum sim_payload what, int fwd, unsigned *experts, unsigned *peers)
{
	double fb = first_backward(tl);
	size_t i;
	int n = 0;

	*experts = *peers = 0;
	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->device != 0 || e->kind != k || e->what != what ||
		    e->layer != 1 || (e->start < fb) != fwd)
			continue;
		*experts |= e->expert >= 0 ? 1u << e->expert : 0;
		*peers |= e->peer >= 0 ? 1u << e->peer : 0;
		n++;
	}
	return n;
}

static int
bits(unsigned x)
{
	int n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

static void
check_ep(const struct claim *c, const struct sim_timeline *tl)
{
	unsigned held, sent, to, from, x;
	int fs, bs;

	ep_moves(tl, SIM_RECV, SIM_P_DISPATCH, 1, &held, &x);
	fs = ep_moves(tl, SIM_SEND, SIM_P_DISPATCH, 1, &sent, &to);
	ep_moves(tl, SIM_RECV, SIM_P_COMBINE, 1, &x, &from);
	switch (c->kind) {
	case C_EP_HELD:
		ck_assert_int_eq(bits(held), (int)c->v);
		break;
	case C_EP_SENT:
		ck_assert_int_eq(bits(sent), (int)c->v);
		ck_assert_uint_eq(sent & held, 0);
		break;
	case C_EP_PEERS:
		ck_assert_int_eq(bits(to), (int)c->v);
		ck_assert_uint_eq(from, to);
		ck_assert_uint_eq(to & 1u, 0);
		break;
	default:	/* C_EP_BWD */
		fs += ep_moves(tl, SIM_SEND, SIM_P_COMBINE, 1, &x, &x);
		bs = ep_moves(tl, SIM_SEND, SIM_P_DISPATCH, 0, &x, &x) +
		    ep_moves(tl, SIM_SEND, SIM_P_COMBINE, 0, &x, &x);
		ck_assert_int_gt(fs, 0);
		ck_assert_int_eq(bs, fs);
		break;
	}
}

/* Dev 0's forward idle spells that end as a K/V block of layer l lands. */
static int
kv_waits(const struct sim_timeline *tl, int l)
{
	double fb = first_backward(tl);
	size_t i, j;
	int n = 0;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *w = &tl->ev[i];

		if (w->device != 0 || w->kind != SIM_IDLE || w->start >= fb)
			continue;
		for (j = 0; j < tl->n_ev; j++) {
			const struct sim_event *e = &tl->ev[j];

			if (e->device == 0 && e->kind == SIM_RECV &&
			    e->what == SIM_P_KV && e->layer == l &&
			    fabs(e->end - w->end) < 1e-12) {
				n++;
				break;
			}
		}
	}
	return n;
}

/* Bit d set if device d runs a W pass. */
static unsigned
w_devices(const struct sim_timeline *tl)
{
	unsigned m = 0;
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind == SIM_BACKWARD &&
		    tl->ev[i].part == SIM_PART_WEIGHTS)
			m |= 1u << tl->ev[i].device;
	return m;
}

/* Dev 0's all-reduces: some, every one with peer, after its compute. */
static void
check_mirror(const struct sim_timeline *tl, int peer)
{
	double last = 0.0;
	size_t i;
	int n = 0;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].device == 0 && sim_kind_is_compute(tl->ev[i].kind)
		    && tl->ev[i].end > last)
			last = tl->ev[i].end;
	for (i = 0; i < tl->n_ev; i++) {
		if (tl->ev[i].device != 0 || tl->ev[i].kind != SIM_ALL_REDUCE)
			continue;
		ck_assert_int_eq(tl->ev[i].peer, peer);
		ck_assert(tl->ev[i].start >= last - 1e-15);
		n++;
	}
	ck_assert_int_gt(n, 0);
}

static void
check_claim(const struct claim *c, const struct sim_config *cfg,
    const struct sim_result *r)
{
	const struct sim_timeline *tl = &r->tl;
	size_t i;
	double h;

	switch (c->kind) {
	case C_NO_BYTES:
		ck_assert_uint_eq(r->bytes_moved, 0);
		break;
	case C_LAYER_ORDER:
		check_layer_order(tl);
		break;
	case C_TP_HEADS:
		ck_assert_int_eq(SIM_HEADS / r->tp, (int)c->v);
		break;
	case C_AR_PER_LAYER:
		ck_assert_int_eq(count(tl, 0, SIM_ALL_REDUCE, 1, 0, SIM_P_ACTS),
		    (int)c->v);
		ck_assert_int_eq(count(tl, 0, SIM_ALL_REDUCE, 1, 0,
		    SIM_P_ACT_GRADS), (int)c->v);
		break;
	case C_AR_PER_STEP:
		ck_assert_int_eq(count(tl, 0, SIM_ALL_REDUCE, -1, -2, -1),
		    (int)c->v);
		break;
	case C_AR_SIZE:
		for (i = 0; i < tl->n_ev; i++)
			if (tl->ev[i].kind == SIM_ALL_REDUCE)
				ck_assert_double_eq_tol((double)tl->ev[i].bytes,
				    2.0 * (r->tp - 1) / r->tp * SIM_TOKENS /
				    cfg->microbatches * SIM_HIDDEN * 8, 1e-9);
		break;
	case C_TP_BLOCKING:
		check_blocking(tl);
		break;
	case C_COMM_SHARE:
		ck_assert_msg(fabs(comm_share(r) - c->v) < c->tol, "share %.4f",
		    comm_share(r));
		break;
	case C_SHARDS_DIFFER:
		check_shards(r);
		break;
	case C_NO_TRAFFIC_FWD:
		for (i = 0; i < tl->n_ev; i++)
			ck_assert(!is_transfer(&tl->ev[i]) ||
			    tl->ev[i].start >= first_backward(tl));
		break;
	case C_ONLY_WEIGHT_GRADS:
		for (i = 0; i < tl->n_ev; i++)
			ck_assert(!is_transfer(&tl->ev[i]) ||
			    tl->ev[i].what == SIM_P_WEIGHT_GRADS);
		break;
	case C_BUCKET_PER_LAYER:
		check_buckets(tl);
		break;
	case C_BUCKET_DURING_BWD:
		check_bucket_during(tl);
		break;
	case C_LAST_BUCKET_ONLY:
		check_last_bucket(tl);
		break;
	case C_RING_FACTOR:
		check_ring_factor(tl, c->v);
		break;
	case C_OPT_TOGETHER:
		check_opt_together(tl);
		break;
	case C_BUBBLE:
		ck_assert_msg(fabs(r->bubble - c->v) < c->tol, "bubble %.4f",
		    r->bubble);
		break;
	case C_SAME_BUBBLE_AS:
	case C_SAME_STEP_AS:
		check_other(c, r);
		break;
	case C_PEAK_IN_FLIGHT:
		ck_assert_int_eq(peak_in_flight(tl), (int)c->v);
		break;
	case C_SENDS_PER_MB:
		ck_assert_int_eq(sends_per_mb(r), (int)c->v);
		break;
	case C_COMPARE_BUBBLE:
	case C_COMPARE_A2A_HIDDEN:
	case C_COMPARE_SENDS:
	case C_COMPARE_BYTES:
		check_compared(c, cfg, r);
		break;
	case C_HOLDS:
		ck_assert_uint_eq(held_by_dev0(tl), (unsigned)c->v);
		break;
	case C_COLL_PER_LAYER:
		ck_assert_int_eq(count(tl, 0, SIM_ALL_GATHER, 1, 0, -1) +
		    count(tl, 0, SIM_REDUCE_SCATTER, 1, 0, -1), (int)c->v);
		break;
	case C_SHARD_SHARE:
		/* Its own shard, all the time; the gathered layers apart. */
		ck_assert_int_eq(r->dp, (int)c->v);
		for (i = 0; i < tl->n_mem; i++)
			if (tl->mem[i].device == 0)
				ck_assert_uint_eq(tl->mem[i].bytes[SIM_MEM_PARAMS],
				    SIM_NPARAMS * 8 / (int)c->v);
		break;
	case C_DP_AT_END:
		check_dp_at_end(r, cfg->microbatches);
		break;
	case C_KV_HOPS:
		ck_assert_int_eq(r->cp, 4);
		ck_assert_int_eq(kv_sends(tl, SIM_P_KV, 1), (int)c->v);
		break;
	case C_KV_GRAD_HOPS:
		ck_assert_int_eq(kv_sends(tl, SIM_P_KV, 0),
		    kv_sends(tl, SIM_P_KV, 1));
		ck_assert_int_eq(kv_sends(tl, SIM_P_KV_GRADS, 0), (int)c->v);
		break;
	case C_KV_WAITS:
		for (i = 1; i <= SIM_LAYERS; i++)
			ck_assert_int_eq(kv_waits(tl, (int)i), (int)c->v);
		break;
	case C_EP_HELD:
	case C_EP_SENT:
	case C_EP_PEERS:
	case C_EP_BWD:
		ck_assert_str_eq(sim_mode_name(cfg->mode), "ep");
		check_ep(c, tl);
		break;
	case C_W_DEVICES:
		ck_assert_uint_eq(w_devices(tl), (unsigned)c->v);
		break;
	case C_MIRROR:
		check_mirror(tl, (int)c->v);
		break;
	case C_A2A_HIDDEN:
		ck_assert_msg(fabs(a2a_hidden(r) - c->v) < c->tol, "%.4f",
		    a2a_hidden(r));
		break;
	case C_A2A_SHARE:
		for (i = 0; i < (size_t)tl->n_devices; i++)
			ck_assert_double_lt(sim_timeline_a2a(tl, (int)i, &h),
			    c->v * r->step_time);
		break;
	}
}

START_TEST(claim_holds)
{
	const struct claim *c = &claims[_i];
	const struct content_block *b = block_of(c->drop, c->block);
	static struct sim_result r;
	struct sim_config cfg;

	ck_assert_msg(strstr(b->animation.caption, c->says) != NULL,
	    "%s block %d: the caption no longer says \"%s\"", c->drop,
	    c->block, c->says);
	run_block(b, &cfg, &r);
	check_claim(c, &cfg, &r);
	sim_result_free(&r);
}
END_TEST

/* Every animation block of the course has its claims checked here. */
START_TEST(every_caption_checked)
{
	size_t d, b, k;
	int found, blocks = 0;

	for (d = 0; d < course->n_drops; d++)
		for (b = 0; b < course->drops[d].n_blocks; b++) {
			if (course->drops[d].blocks[b].kind != CONTENT_ANIMATION)
				continue;
			for (found = 0, k = 0; k < N_CLAIMS; k++)
				found |= strcmp(claims[k].drop,
				    course->drops[d].id) == 0 &&
				    claims[k].block == (int)b;
			ck_assert_msg(found, "%s block %zu: its caption has no "
			    "checked claim", course->drops[d].id, b);
			blocks++;
		}
	ck_assert_int_ge(blocks, 18);
}
END_TEST

static void
setup(void)
{
	course = content_load(TOP_SRCDIR, NULL);
	ck_assert_ptr_nonnull(course);
}

static void
teardown(void)
{
	content_free(course);
	course = NULL;
}

int
main(void)
{
	Suite *s = suite_create("captions");
	TCase *tc = tcase_create("claims against the trace");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, every_caption_checked);
	tcase_add_loop_test(tc, claim_holds, 0, (int)N_CLAIMS);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
