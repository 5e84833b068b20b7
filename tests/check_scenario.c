/*
 * check_scenario.c - the six shipped scenarios (drops 10-15) graded by the
 * real engine on the real catalog: each start fails its goal, the layout
 * its worked solution describes passes, and drop 14's claims are judged
 * against the engine's numbers and the runner-up. A pass needs the right
 * diagnosis and a prediction within tolerance (issue 22). Also the
 * parser's located errors.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "core/course/playground.h"
#include "core/course/scenario.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static const struct content_scenario *
find_scenario(const char *drop_id)
{
	const struct content_drop *d = content_find_drop(course, drop_id);
	size_t i;

	ck_assert_msg(d != NULL, "no %s", drop_id);
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_SCENARIO)
			return &d->blocks[i].scenario;
	ck_abort_msg("%s has no scenario", drop_id);
	return NULL;
}

/* Everything one grading needs, heap-allocated (results are large). */
struct fixture {
	struct scenario		sc;
	struct cm_config	start_cfg;
	struct cm_result	start;
	struct cm_search	best;
	struct cm_result	r;
	struct sc_grade		g;
};

static struct fixture *
open_scenario(const char *drop_id)
{
	const struct content_scenario *cs = find_scenario(drop_id);
	struct fixture *f = calloc(1, sizeof *f);
	struct pl_err err;

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(scenario_parse(&f->sc, cs->raw, drop_id, "b", &err) == 0,
	    "%s", err.msg);
	ck_assert_msg(scenario_start(cs->raw, &cat, &f->start_cfg, drop_id,
	    "b", &err) == 0, "%s", err.msg);
	ck_assert_msg(cm_evaluate(&f->start_cfg, &f->start, &err) == 0, "%s",
	    err.msg);
	ck_assert_int_eq(cm_search(&f->start_cfg, CM_SEARCH_MAX, &f->best,
	    &err), 0);
	return f;
}

static void
close_scenario(struct fixture *f)
{
	scenario_free(&f->sc);
	free(f);
}

/* A trade-off as a learner might write it for (4, 4, 4) in drop 14. */
static const char tradeoff[] = "We give up throughput: about 12% of the "
    "step is exposed communication against 5% for the ZeRO-3 layout, to "
    "keep about 30 GB free";

/* What the learner brings: by default the right diagnosis and an exact
 * prediction (set by grade_with from the engine's figure). */
struct learner {
	int		diagnosis;	/* -2: the right one */
	int		predict;	/* 0 none, 1 exact, 2 given */
	double		prediction;
	unsigned	asserted;
	const char	*tradeoff;
	int		reveal;
};

static int
grade_with(struct fixture *f, const struct cm_config *cfg,
    const struct learner *l)
{
	struct sc_attempt a;
	struct pl_err err;
	int ok = cm_evaluate(cfg, &f->r, &err) == 0;

	memset(&a, 0, sizeof a);
	a.asserted = l->asserted;
	a.tradeoff = l->tradeoff;
	a.diagnosis = l->diagnosis == -2 ? f->sc.diagnosis.right :
	    l->diagnosis;
	a.predicted = l->predict != 0;
	a.prediction = l->prediction;
	a.reveal = l->reveal;
	if (ok && l->predict == 1)
		ck_assert_int_eq(cm_quantity(&f->r, f->sc.prediction.quantity,
		    &a.prediction), 0);
	scenario_grade(&f->sc, ok ? &f->r : NULL, ok ? NULL : err.msg,
	    &f->start, &f->best, &a, &f->g);
	return f->g.pass;
}

/* Grade cfg with a trade-off written; returns the pass flag. */
static int
grade_tradeoff(struct fixture *f, const struct cm_config *cfg,
    unsigned asserted, const char *text)
{
	struct learner l = { -2, 1, 0, asserted, text, 0 };

	return grade_with(f, cfg, &l);
}

static int
grade(struct fixture *f, const struct cm_config *cfg, unsigned asserted)
{
	return grade_tradeoff(f, cfg, asserted, tradeoff);
}

/* 1 if value passes as the prediction for cfg, all else right. */
static int
predicts(struct fixture *f, const struct cm_config *cfg, double value)
{
	struct learner l = { -2, 2, value, 0, tradeoff, 0 };

	grade_with(f, cfg, &l);
	return f->g.prediction.pass;
}

START_TEST(drop10_oom)
{
	struct fixture *f = open_scenario("drop-10");
	struct cm_config c = f->start_cfg;

	ck_assert(!f->start.fits);
	ck_assert(!grade(f, &f->start_cfg, 0));
	ck_assert(!f->g.crit[0].pass);		/* fits */
	ck_assert(f->g.crit[1].pass);		/* same throughput */
	/* The solution: selective recomputation, layout unchanged. */
	c.recompute = CM_RECOMPUTE_SELECTIVE;
	ck_assert(grade(f, &c, 0));
	ck_assert(f->g.share_start >= 0.8 && f->g.share_start < 1.0);
	/* Flash attention or micro-batch 1 also pass; full recompute misses. */
	c = f->start_cfg;
	c.attention = CM_ATTN_FLASH;
	ck_assert(grade(f, &c, 0));
	c = f->start_cfg;
	c.recompute = CM_RECOMPUTE_FULL;
	ck_assert(!grade(f, &c, 0));
	ck_assert(f->g.crit[0].pass && !f->g.crit[1].pass);
	/* gpus, seq, global batch are locked, and so is the layout: TP 8
	 * would fit at about 0.86 of the start by spreading every term
	 * thinner, which the lesson argues against and the brief rules
	 * out (the checkpoints are sharded for TP 4). */
	ck_assert(f->sc.locked & (1u << PG_GPUS));
	ck_assert(f->sc.locked & (1u << PG_SEQ));
	ck_assert(!(f->sc.locked & (1u << PG_RECOMPUTE)));
	ck_assert(f->sc.locked & (1u << PG_TP));
	ck_assert(f->sc.locked & (1u << PG_DP));
	ck_assert(f->sc.locked & (1u << PG_PP));
	c = f->start_cfg;
	c.tp = 8;
	c.dp = 4;
	ck_assert(grade(f, &c, 0));
	ck_assert(f->g.share_start > 0.8 && f->g.share_start < 0.9);
	ck_assert(!pg_same_knobs(&c, &f->start_cfg, f->sc.locked));
	/* The lesson's count for selective recomputation, 26.8 GB, is
	 * within the prediction's tolerance of the engine's figure. */
	c = f->start_cfg;
	c.recompute = CM_RECOMPUTE_SELECTIVE;
	ck_assert(predicts(f, &c, 4096.0 * 2 * 5120 * 16 * 40 / 1e9));
	close_scenario(f);
}
END_TEST

/*
 * Drop 15: Llama 3 8B at 131,072 tokens on 32 H100s, TP 8 x DP 4, OOMs on
 * its activations. Every fix the engine says fits within the floor passes
 * (CP 4, full recomputation, CP 2 with it); what does not fit or falls
 * under the floor fails, and the locked sequence, batch and TP cannot
 * move. The prediction holds the cost of the fix: the unfixed step time
 * passes for CP 4 and fails for full recomputation.
 */
START_TEST(drop15_oom_128k)
{
	struct fixture *f = open_scenario("drop-15");
	struct cm_config c = f->start_cfg;
	double step0 = f->start.t_step;

	ck_assert(!f->start.fits);
	ck_assert(!grade(f, &f->start_cfg, 0));
	ck_assert(!f->g.crit[0].pass);
	ck_assert(f->sc.locked & (1u << PG_SEQ));
	ck_assert(f->sc.locked & (1u << PG_GLOBAL_BATCH));
	ck_assert(f->sc.locked & (1u << PG_TP));
	ck_assert(!(f->sc.locked & (1u << (PG_AXES + MESH_CP))));
	ck_assert(!(f->sc.locked & (1u << PG_DP)));
	ck_assert(!(f->sc.locked & (1u << PG_RECOMPUTE)));
	/* CP 4 in place of DP 4: fits, the ring hidden, almost no cost. */
	c.cp = 4;
	c.dp = 1;
	ck_assert(pg_same_knobs(&c, &f->start_cfg, f->sc.locked));
	ck_assert_msg(grade(f, &c, 0), "%s", f->g.crit[1].text);
	ck_assert(f->g.share_start > 0.99);
	ck_assert(predicts(f, &c, step0));
	/* Full recomputation alone fits, at about 0.77 of the start. */
	c = f->start_cfg;
	c.recompute = CM_RECOMPUTE_FULL;
	ck_assert(grade(f, &c, 0));
	ck_assert(f->g.share_start >= 0.75 && f->g.share_start < 0.8);
	/* Its cost is part of the prediction: a third more compute. */
	ck_assert(predicts(f, &c, step0 * 4 / 3));
	ck_assert(!predicts(f, &c, step0));
	/* CP 2 alone does not fit; with full recomputation it does. */
	c = f->start_cfg;
	c.cp = 2;
	c.dp = 2;
	ck_assert(!grade(f, &c, 0));
	ck_assert(!f->g.crit[0].pass);
	c.recompute = CM_RECOMPUTE_FULL;
	ck_assert(grade(f, &c, 0));
	/* ZeRO-3 shards the 16 GB of states, not the activations. */
	c = f->start_cfg;
	c.zero = 3;
	ck_assert(!grade(f, &c, 0));
	/* PP 4 with full recomputation fits but falls under the floor. */
	c = f->start_cfg;
	c.pp = 4;
	c.dp = 1;
	c.recompute = CM_RECOMPUTE_FULL;
	ck_assert(!grade(f, &c, 0));
	ck_assert(f->g.crit[0].pass && !f->g.crit[1].pass);
	/* A shorter sequence would fit; it is locked. */
	c = f->start_cfg;
	c.model.seq = 32768;
	ck_assert(!pg_same_knobs(&c, &f->start_cfg, f->sc.locked));
	close_scenario(f);
}
END_TEST

/*
 * Drop 16's incident: Mixtral 8x7B with TP 8 filling each node and EP 8,
 * whose ranks are one per node. Over every TP, EP, recomputation,
 * micro-batch, sequence parallelism and rank order the learner can set
 * (the model, cluster, batch, sequence, ZeRO and PP locked), a layout
 * passes only when EP > 1 and its EP group shares a node with TP x EP
 * <= 8: dropping EP or laying it across nodes does not meet the floor.
 */
START_TEST(drop16_ep_across_nodes)
{
	struct fixture *f = open_scenario("drop-16");
	struct cm_config c = f->start_cfg;
	static const int deg[] = { 1, 2, 4, 8 };
	int ti, ei, rc, mb, sp, order, passed = 0;

	ck_assert(f->start.fits);
	ck_assert(f->start.t_ep > f->start.t_compute);
	ck_assert(!grade(f, &f->start_cfg, 0));
	ck_assert(f->sc.locked & (1u << PG_ZERO));
	ck_assert(f->sc.locked & (1u << PG_PP));
	ck_assert(!(f->sc.locked & (1u << PG_EP)));
	ck_assert(!(f->sc.locked & (1u << PG_TP)));
	/* The solution: TP 1, DP 64, EP 8 inside a node. */
	c.tp = 1;
	c.dp = 64;
	ck_assert(pg_same_knobs(&c, &f->start_cfg, f->sc.locked));
	ck_assert_msg(grade(f, &c, 0), "%s", f->g.crit[1].text);
	ck_assert(predicts(f, &c, f->r.t_step * 1.1));
	ck_assert(!predicts(f, &c, f->start.t_step));
	for (ti = 0; ti < 4; ti++)
		for (ei = 0; ei < 4; ei++)
			for (rc = 0; rc < 3; rc++)
				for (mb = 1; mb <= 4; mb *= 2)
					for (sp = 0; sp < 2; sp++)
						for (order = 0; order < MESH_N_ORDERS;
						    order++) {
		c = f->start_cfg;
		c.tp = deg[ti];
		c.dp = 64 / deg[ti];
		c.ep = deg[ei];
		c.recompute = (enum cm_recompute)rc;
		c.micro_batch = mb;
		c.seq_parallel = sp;
		c.rank_order = order;
		if (!grade(f, &c, 0))
			continue;
		passed++;
		ck_assert_msg(c.ep > 1 && c.tp * c.ep <= 8 &&
		    f->r.group[MESH_DP].per_node >= c.ep,
		    "TP %d EP %d order %d passes", c.tp, c.ep, order);
	}
	ck_assert_int_gt(passed, 0);
	/* The locked knobs cannot move. */
	c = f->start_cfg;
	c.zero = 3;
	ck_assert(!pg_same_knobs(&c, &f->start_cfg, f->sc.locked));
	c = f->start_cfg;
	c.pp = 2;
	ck_assert(!pg_same_knobs(&c, &f->start_cfg, f->sc.locked));
	c = f->start_cfg;
	c.global_batch = 32;
	ck_assert(!pg_same_knobs(&c, &f->start_cfg, f->sc.locked));
	close_scenario(f);
}
END_TEST

START_TEST(drop11_tp_across_nodes)
{
	struct fixture *f = open_scenario("drop-11");
	struct cm_config c = f->start_cfg;

	/* The start lays each TP rank in its own node: one NIC per GPU. */
	ck_assert(!grade(f, &f->start_cfg, 0));
	ck_assert_int_eq(f->start.group[MESH_TP].per_node, 1);
	/* TP 8 with the order left as it is still spreads over nodes. */
	c.tp = 8;
	c.pp = 8;
	c.dp = 2;
	ck_assert(!grade(f, &c, 0));
	ck_assert(f->r.tp_inter);
	/* Ranks back in blocks, TP innermost: TP 16 is 8 per node and
	 * faster, but still leaves the node; TP 8 passes. */
	c = f->start_cfg;
	c.rank_order = 0;	/* tp-pp-dp */
	ck_assert(!grade(f, &c, 0));
	ck_assert_int_eq(f->r.group[MESH_TP].per_node, 8);
	ck_assert(f->r.tokens_per_s > 2 * f->start.tokens_per_s);
	c.tp = 8;
	c.pp = 8;
	c.dp = 2;
	ck_assert_msg(grade(f, &c, 0), "share of best %.3f", f->g.share_best);
	ck_assert(f->g.share_best >= 0.8);
	/* The lesson's count: 12 layers x 768 micro-batches x 1.8 ms. */
	c.pp = 8;
	c.dp = 2;
	ck_assert(predicts(f, &c, 12 * 768 * 1.8e-3));
	c.pp = 16;
	c.dp = 1;
	ck_assert(grade(f, &c, 0));
	close_scenario(f);
}
END_TEST

START_TEST(drop12_bubble)
{
	struct fixture *f = open_scenario("drop-12");
	struct cm_config c = f->start_cfg;

	ck_assert(!grade(f, &f->start_cfg, 0));
	ck_assert_double_eq_tol(f->start.bubble_fraction, 15.0 / 43, 1e-9);
	c.tp = 4;
	c.pp = 4;
	ck_assert(grade(f, &c, 0));
	ck_assert_double_eq_tol(f->r.bubble_fraction, 3.0 / 31, 1e-9);
	ck_assert(predicts(f, &c, 0.097));
	ck_assert(!predicts(f, &c, 3.0 / 59));
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 2;
	ck_assert(grade(f, &c, 0));
	ck_assert_double_eq_tol(f->r.bubble_fraction, 3.0 / 59, 1e-9);
	/* TP 16 x PP 1 has no bubble but leaves the node. */
	c = f->start_cfg;
	c.tp = 16;
	c.pp = 1;
	ck_assert(!grade(f, &c, 0));
	close_scenario(f);
}
END_TEST

/*
 * The loophole of issue 14: TP 8 x PP 2 with the plain attention kernel
 * fits, keeps TP in a node and cuts the bubble to 1/29, yet runs slower
 * than the layout the incident opened on. The floor against the start
 * fails it, and only it.
 */
START_TEST(drop12_regression_fails)
{
	struct fixture *f = open_scenario("drop-12");
	struct cm_config c = f->start_cfg;
	int i, floor = -1;

	c.tp = 8;
	c.pp = 2;
	c.attention = CM_ATTN_PLAIN;
	ck_assert(!grade(f, &c, 0));
	for (i = 0; i < f->g.n_crit; i++) {
		if (f->sc.goal[i].kind == SC_MIN_SHARE_START)
			floor = i;
		else
			ck_assert_msg(f->g.crit[i].pass, "%s",
			    f->g.crit[i].text);
	}
	ck_assert_int_ge(floor, 0);
	ck_assert(!f->g.crit[floor].pass);
	ck_assert(f->r.tokens_per_s < f->start.tokens_per_s);
	ck_assert_double_eq_tol(f->r.bubble_fraction, 1.0 / 29, 1e-9);
	/* The cluster is part of the incident: it cannot be changed. */
	ck_assert((f->sc.locked & SC_LOCKED_ALWAYS) == SC_LOCKED_ALWAYS);
	close_scenario(f);
}
END_TEST

/* Every shipped incident locks its cluster and has a floor on the start. */
START_TEST(every_incident_locks_and_floors)
{
	const char *drops[] = { "drop-10", "drop-11", "drop-12", "drop-13",
	    "drop-14", "drop-15", "drop-16" };
	size_t i;
	int j, floor;

	for (i = 0; i < sizeof drops / sizeof drops[0]; i++) {
		struct fixture *f = open_scenario(drops[i]);

		ck_assert_msg((f->sc.locked & SC_LOCKED_ALWAYS) ==
		    SC_LOCKED_ALWAYS, "%s", drops[i]);
		for (j = 0, floor = 0; j < f->sc.n_goal; j++)
			floor |= f->sc.goal[j].kind == SC_MIN_SHARE_START;
		ck_assert_msg(floor, "%s has no floor", drops[i]);
		close_scenario(f);
	}
}
END_TEST

START_TEST(drop13_choose_30b)
{
	struct fixture *f = open_scenario("drop-13");
	struct cm_config c = f->start_cfg;

	ck_assert(!grade(f, &f->start_cfg, 0));
	ck_assert(f->g.crit[0].pass);		/* the draft fits */
	c.tp = 2;
	c.pp = 4;
	c.dp = 4;
	c.recompute = CM_RECOMPUTE_NONE;
	ck_assert_msg(grade(f, &c, 0), "share of best %.3f", f->g.share_best);
	ck_assert(f->g.share_best >= 0.85);
	/* Many layouts sit within a few percent: beyond the listed 32. */
	ck_assert_int_ge(f->g.rank, 0);
	/* The lesson's count, 26.25 GB of states and 12 GB of activations
	 * plus 2 GB of buffers, is within the tolerance. */
	ck_assert(predicts(f, &c, 40.2));
	/* The team runs ZeRO-1 without recomputation: both are locked, so
	 * the ranking's FSDP-style top row is not a layout it may use, and
	 * the pass needs the lesson's argument (less TP, more DP). */
	ck_assert(f->sc.locked & (1u << PG_ZERO));
	ck_assert(f->sc.locked & (1u << PG_RECOMPUTE));
	ck_assert_int_eq(f->best.top[0].cfg.zero, 3);
	ck_assert(!pg_same_knobs(&f->best.top[0].cfg, &f->start_cfg,
	    f->sc.locked));
	fprintf(stderr, "drop 13 solution: %.3f of best, rank %d\n",
	    f->g.share_best, f->g.rank);
	close_scenario(f);
}
END_TEST

START_TEST(drop14_claims)
{
	struct fixture *f = open_scenario("drop-14");
	struct cm_config c = f->start_cfg;
	unsigned five = (1u << 5) - 1, all = (1u << 8) - 1, more_free;
	char want[SC_TEXT_LEN];
	int i;

	ck_assert_int_eq(f->sc.n_claims, 8);
	ck_assert(!f->start.fits);
	ck_assert(!grade(f, &f->start_cfg, 0));
	/* A layout that does not fit has no free share to print: the
	 * headroom claim says how much it is over, not "-77.2% free". */
	for (i = 0; i < 5; i++)
		if (f->sc.claims[i].check == SC_CLAIM_HEADROOM)
			break;
	ck_assert_int_lt(i, 5);
	ck_assert(!f->g.claims[i].holds);
	snprintf(want, sizeof want, "needs %.1f GB more than the %.1f GB "
	    "usable", (f->start.mem_total - f->start.mem_usable) / 1e9,
	    f->start.mem_usable / 1e9);
	ck_assert_str_eq(f->g.claims[i].text, want);
	for (i = 0; i < 8; i++)
		if (f->sc.claims[i].check == SC_CLAIM_MORE_FREE)
			break;
	ck_assert_int_lt(i, 8);
	more_free = 1u << i;
	/* (4, 4, 4) at ZeRO-1: not listed (its ZeRO-3 twin is), so it is
	 * held against the top row. The five fixed claims hold on both:
	 * they earn nothing. */
	c.tp = 4;
	c.pp = 4;
	c.dp = 4;
	c.zero = 1;
	ck_assert(!grade(f, &c, five));
	ck_assert_int_eq(f->g.runner, 0);
	for (i = 0; i < 5; i++)
		ck_assert(f->g.claims[i].holds && f->g.claims[i].holds_runner);
	ck_assert(!f->g.claims_ok);
	ck_assert(f->g.goal_ok && f->g.tradeoff_ok);
	/* More memory free than the runner-up sets it apart. */
	ck_assert_msg(grade(f, &c, five | more_free), "%s",
	    f->g.tradeoff.text);
	ck_assert(f->g.tradeoff.gives_up);
	fprintf(stderr, "drop 14 solution: %.3f of best, rank %d, %s\n",
	    f->g.share_best, f->g.rank, f->g.tradeoff.text);
	/* Asserting every claim asserts false ones (less communication,
	 * smaller bubble than the ZeRO-3 top row): fails. */
	ck_assert(!grade(f, &c, all));
	/* The trade-off is graded on content. */
	ck_assert(!grade_tradeoff(f, &c, five | more_free, NULL));
	ck_assert(!grade_tradeoff(f, &c, five | more_free,
	    "banana apple cherry grape lemon mango peach plum"));
	ck_assert(!grade_tradeoff(f, &c, five | more_free, "We keep about "
	    "30 GB of memory free on every card, a good margin for later"));
	ck_assert(!f->g.tradeoff.gives_up && f->g.tradeoff.confirmed);
	/* The exploit: the top row, all claims, fruit. */
	c = f->best.top[0].cfg;
	ck_assert(!grade_tradeoff(f, &c, all,
	    "banana apple cherry grape lemon mango peach plum"));
	ck_assert(!grade_tradeoff(f, &c, five,
	    "banana apple cherry grape lemon mango peach plum"));
	ck_assert(!f->g.claims_ok && !f->g.tradeoff_ok);
	/* TP 8 x PP 8 x DP 1 fits, but its exposed comm fails the claim:
	 * asserting it fails the defense. */
	c = f->start_cfg;
	c.tp = 8;
	c.pp = 8;
	c.dp = 1;
	ck_assert(!grade(f, &c, five | more_free));
	ck_assert(!f->g.claims[4].holds && !f->g.claims[4].pass);
	close_scenario(f);
}
END_TEST

/* The reasoning a check needs: the right cause, and the prediction. */
START_TEST(reasoning_required)
{
	struct fixture *f = open_scenario("drop-12");
	struct cm_config c = f->start_cfg;
	struct learner l = { -2, 1, 0, 0, NULL, 0 };
	int i;

	c.tp = 4;
	c.pp = 4;
	ck_assert(grade_with(f, &c, &l));
	l.diagnosis = -1;
	ck_assert(!grade_with(f, &c, &l));
	for (i = 0; i < f->sc.diagnosis.n_options; i++) {
		if (i == f->sc.diagnosis.right)
			continue;
		l.diagnosis = i;
		ck_assert(!grade_with(f, &c, &l));
		ck_assert(f->g.goal_ok && !f->g.diagnosis_ok);
	}
	l.diagnosis = -2;
	l.predict = 0;
	ck_assert(!grade_with(f, &c, &l));
	/* Off: the line gives neither the figure nor its direction. */
	l.predict = 2;
	l.prediction = 0.2;
	ck_assert(!grade_with(f, &c, &l));
	ck_assert_ptr_null(strstr(f->g.prediction.text, "0.09"));
	ck_assert_ptr_nonnull(strstr(f->g.prediction.text, "off"));
	l.reveal = 1;
	ck_assert(!grade_with(f, &c, &l));
	ck_assert_ptr_nonnull(strstr(f->g.prediction.text, "0.09677"));
	/* Typed as a percentage or a ratio, in either decimal separator. */
	ck_assert_int_eq(scenario_parse_prediction(&f->sc, "9.7%",
	    &l.prediction), 0);
	ck_assert_double_eq_tol(l.prediction, 0.097, 1e-12);
	ck_assert_int_eq(scenario_parse_prediction(&f->sc, "3/31",
	    &l.prediction), 0);
	ck_assert_int_eq(scenario_parse_prediction(&f->sc, "banana",
	    &l.prediction), -1);
	close_scenario(f);
}
END_TEST

/* Every incident asks for a cause with its evidence and a figure. */
START_TEST(every_incident_reasons)
{
	const char *drops[] = { "drop-10", "drop-11", "drop-12", "drop-13",
	    "drop-14", "drop-15", "drop-16" };
	size_t i;
	int j, right;

	for (i = 0; i < sizeof drops / sizeof drops[0]; i++) {
		struct fixture *f = open_scenario(drops[i]);
		const struct sc_diagnosis *d = &f->sc.diagnosis;

		ck_assert_int_ge(d->n_options, SC_MIN_OPTIONS);
		ck_assert_int_le(d->n_options, SC_MAX_OPTIONS);
		for (j = right = 0; j < d->n_options; j++)
			right += d->options[j].correct;
		ck_assert_int_eq(right, 1);
		ck_assert(d->options[d->right].correct);
		ck_assert(f->sc.prediction.tolerance > 0 &&
		    f->sc.prediction.tolerance <= 0.2);
		/* The start fails even with all the reasoning right. */
		ck_assert(!grade(f, &f->start_cfg, 0));
		close_scenario(f);
	}
}
END_TEST

START_TEST(invalid_layout_fails)
{
	struct fixture *f = open_scenario("drop-12");
	struct cm_config c = f->start_cfg;

	c.tp = 3;
	ck_assert(!grade(f, &c, 0));
	ck_assert(!f->g.valid);
	/* The engine's reason once, however many criteria the goal has. */
	ck_assert_int_gt(f->sc.n_goal, 1);
	ck_assert_int_eq(f->g.n_crit, 1);
	ck_assert(!f->g.crit[0].pass);
	ck_assert_ptr_nonnull(strstr(f->g.crit[0].text,
	    "not a valid layout, so no goal was checked: DP x TP x PP x CP = "));
	ck_assert_ptr_null(strstr(strstr(f->g.crit[0].text, "DP x TP") + 1,
	    "DP x TP"));
	close_scenario(f);
}
END_TEST

static struct pl_err perr;

static int
parse_text(const char *json)
{
	struct scenario sc;
	cJSON *o = cJSON_Parse(json);
	int rc;

	ck_assert_ptr_nonnull(o);
	rc = scenario_parse(&sc, o, "f.json", "blocks[3]", &perr);
	if (rc == 0)
		scenario_free(&sc);
	cJSON_Delete(o);
	return rc;
}

/* The parts every scenario needs, around a test's own goal. */
#define LOCKS	"\"locked\":[\"model\",\"gpu\",\"gpus\",\"gpus_per_node\"]"
#define FLOOR	"\"min_tokens_share_of_start\":1"
#define OPT(c)	"{\"text\":\"t\",\"correct\":" c ",\"explain\":\"e\"}"
#define DIAG	"\"diagnosis\":{\"prompt\":\"p\",\"options\":[" OPT("true") \
		"," OPT("false") "," OPT("false") "]}"
#define PRED	"\"prediction\":{\"prompt\":\"p\",\"quantity\":" \
		"\"bubble_fraction\",\"unit\":\"\",\"tolerance\":0.1}"
#define REASON	"," DIAG "," PRED

START_TEST(bad_input)
{
	ck_assert_int_eq(parse_text("{\"goal\":{\"fits\":true," FLOOR "},"
	    "\"locked\":[\"model\",\"gpu\",\"gpus\",\"gpus_per_node\","
	    "\"tp\"]" REASON "}"), 0);
	/* The diagnosis and the prediction are required, with located
	 * errors. */
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "}," PRED
	    "}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].diagnosis");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "}," DIAG
	    "}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].prediction");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "},"
	    "\"diagnosis\":{\"prompt\":\"p\",\"options\":[" OPT("true")
	    "," OPT("false") "," OPT("true") "]}," PRED "}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].diagnosis.options[2].correct");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "},"
	    "\"diagnosis\":{\"prompt\":\"p\",\"options\":[" OPT("false")
	    "," OPT("false") "," OPT("false") "]}," PRED "}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].diagnosis.options");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "},"
	    "\"diagnosis\":{\"prompt\":\"p\",\"options\":[" OPT("true")
	    "," OPT("false") "]}," PRED "}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].diagnosis.options");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "},"
	    "\"diagnosis\":{\"prompt\":\"p\",\"options\":[" OPT("true")
	    "," OPT("false") ",{\"text\":\"t\",\"correct\":1,"
	    "\"explain\":\"e\"}]}," PRED "}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].diagnosis.options[2].correct");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "}," DIAG
	    ",\"prediction\":{\"prompt\":\"p\",\"quantity\":\"speed\","
	    "\"unit\":\"\",\"tolerance\":0.1}}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].prediction.quantity");
	ck_assert_int_eq(parse_text("{\"goal\":{\"fits\":true," FLOOR "},"
	    "\"locked\":[\"gpus\",\"warp\"]}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].locked[1]");
	/* An incident locks its model and cluster. */
	ck_assert_int_eq(parse_text("{\"goal\":{\"fits\":true," FLOOR "},"
	    "\"locked\":[\"model\",\"gpu\",\"gpus\"]}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].locked");
	ck_assert_int_eq(parse_text("{\"goal\":{\"fits\":true," FLOOR
	    "}}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].locked");
	/* Its goal has a throughput floor against the start. */
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{\"fits\":true,"
	    "\"max_bubble\":0.1}}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].goal");
	ck_assert_ptr_nonnull(strstr(perr.msg, "min_tokens_share_of_start"));
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{\"max_bubble\":2}}"),
	    -1);
	ck_assert_str_eq(perr.path, "blocks[3].goal.max_bubble");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{\"speed\":1}}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].goal.speed");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{}}"), -1);
	ck_assert_int_eq(parse_text("{" LOCKS "}"), -1);
	ck_assert_str_eq(perr.path, "blocks[3].goal");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "},"
	    "\"claims\":[{\"id\":\"a\",\"text\":\"t\",\"check\":\"fast\"}]}"),
	    -1);
	ck_assert_str_eq(perr.path, "blocks[3].claims[0].check");
	ck_assert_int_eq(parse_text("{" LOCKS ",\"goal\":{" FLOOR "},"
	    "\"claims\":[{\"id\":\"a\",\"check\":\"fits\"}]}"), -1);
}
END_TEST

static Suite *
scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("shipped scenarios");

	tcase_add_checked_fixture(tc, catfix_course_setup,
	    catfix_course_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, drop10_oom);
	tcase_add_test(tc, drop15_oom_128k);
	tcase_add_test(tc, drop16_ep_across_nodes);
	tcase_add_test(tc, drop11_tp_across_nodes);
	tcase_add_test(tc, drop12_bubble);
	tcase_add_test(tc, drop12_regression_fails);
	tcase_add_test(tc, every_incident_locks_and_floors);
	tcase_add_test(tc, drop13_choose_30b);
	tcase_add_test(tc, drop14_claims);
	tcase_add_test(tc, invalid_layout_fails);
	tcase_add_test(tc, reasoning_required);
	tcase_add_test(tc, every_incident_reasons);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad input");
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(scenario_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
