/*
 * check_playground.c - the playground's knob model on the real catalog:
 * stepping values, keeping DP x TP x PP = GPUs (and which partner moves
 * when a degree changes, under every set of locks), locks, the delta of every
 * figure against the previous setting, invalid combinations, the layout
 * text and the rank of a layout in the search.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "core/course/playground.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static struct pg_state *pg;

static void
setup(void)
{
	struct cm_config c;

	catfix_setup();
	pg = calloc(1, sizeof *pg);
	ck_assert_ptr_nonnull(pg);
	ck_assert_int_eq(pg_default_config(&cat, &c), 0);
	pg_init(pg, &cat, &c, 0);
}

static void
teardown(void)
{
	free(pg);
	catfix_teardown();
}

START_TEST(default_is_valid)
{
	ck_assert(pg->cur_valid);
	ck_assert(!pg->have_prev);
	ck_assert_str_eq(pg->cfg.model.name, "llama2-13b");
	ck_assert_int_eq(pg->cfg.dp * pg->cfg.tp * pg->cfg.pp, pg->cfg.gpus);
	ck_assert(pg->cur.fits);
	ck_assert_double_eq(pg_delta(pg, PG_F_T_STEP), 0);
}
END_TEST

START_TEST(tp_adjusts_dp)
{
	struct cm_result before = pg->cur;
	char v[64];

	/* 16 GPUs, TP 2 x PP 2 x DP 4: TP up to 4 takes DP to 2. */
	ck_assert_int_eq(pg_change(pg, PG_TP, +1), 1);
	ck_assert_int_eq(pg->cfg.tp, 4);
	ck_assert_int_eq(pg->cfg.dp, 2);
	ck_assert_int_eq(pg->cfg.gpus, 16);
	ck_assert_ptr_nonnull(strstr(pg->note, "DP degree set to 2"));
	ck_assert(pg->cur_valid && pg->have_prev);
	/* Every figure's delta is the difference of the two engine runs. */
	ck_assert_double_eq_tol(pg_delta(pg, PG_F_T_STEP),
	    pg->cur.t_step - before.t_step, 1e-12);
	ck_assert_double_eq_tol(pg_delta(pg, PG_F_MEM_PARAMS),
	    pg->cur.mem_params - before.mem_params, 1e-3);
	ck_assert(pg_delta(pg, PG_F_MEM_PARAMS) < 0);	/* half the weights */
	ck_assert_double_eq_tol(pg_delta(pg, PG_F_TOKENS),
	    pg->cur.tokens_per_s - before.tokens_per_s, 1e-6);
	pg_knob_value(pg, PG_TP, v, sizeof v);
	ck_assert_str_eq(v, "4");
	/* Back down and the figures return exactly. */
	ck_assert_int_eq(pg_change(pg, PG_TP, -1), 1);
	ck_assert_int_eq(pg->cfg.dp, 4);
	ck_assert_double_eq(pg->cur.t_step, before.t_step);
}
END_TEST

START_TEST(gpus_adjust_dp)
{
	ck_assert_int_eq(pg_change(pg, PG_GPUS, +1), 1);
	ck_assert_int_eq(pg->cfg.gpus, 24);
	ck_assert_int_eq(pg->cfg.dp, 6);
	/* 1024 samples do not split over 6 replicas: the engine says so. */
	ck_assert(!pg->cur_valid);
	ck_assert(strlen(pg->why) > 0);
	ck_assert_int_eq(pg_change(pg, PG_GPUS, -1), 1);
	ck_assert_int_eq(pg_change(pg, PG_GPUS, -1), 1);
	ck_assert_int_eq(pg->cfg.gpus, 12);
	ck_assert_int_eq(pg->cfg.dp, 3);
}
END_TEST

START_TEST(locks)
{
	struct cm_config c = pg->cfg;

	pg_init(pg, &cat, &c, (1u << PG_GPUS) | (1u << PG_DP));
	ck_assert_int_eq(pg_change(pg, PG_GPUS, +1), -1);
	ck_assert_ptr_nonnull(strstr(pg->note, "locked"));
	ck_assert_int_eq(pg->cfg.gpus, 16);
	/* DP locked: TP takes its factor from PP. */
	ck_assert_int_eq(pg_change(pg, PG_TP, +1), 1);
	ck_assert_int_eq(pg->cfg.tp, 4);
	ck_assert_int_eq(pg->cfg.pp, 1);
	ck_assert_int_eq(pg->cfg.dp, 4);
	ck_assert(pg_same_knobs(&pg->cfg, &c, pg->locked));
}
END_TEST

START_TEST(invalid_shows_reason)
{
	struct cm_config c = pg->cfg;

	/* 40 layers: PP 3 does not divide them, and 16 is not 3 x ... */
	c.pp = 3;
	pg_apply(pg, &c);
	ck_assert(!pg->cur_valid);
	ck_assert(strlen(pg->why) > 0);
	ck_assert_double_eq(pg_delta(pg, PG_F_T_STEP), 0);
	/* The previous valid result is kept for the next delta. */
	ck_assert(pg->have_prev);
	c.pp = 2;
	pg_apply(pg, &c);
	ck_assert(pg->cur_valid);
	ck_assert_double_eq(pg_delta(pg, PG_F_T_STEP), 0);
}
END_TEST

START_TEST(enums_and_ends)
{
	char v[64];

	ck_assert_int_eq(pg_change(pg, PG_ZERO, -1), 1);
	ck_assert_int_eq(pg_change(pg, PG_ZERO, -1), 0);	/* at 0 */
	ck_assert_str_eq(pg->note, "ZeRO stage: 0 is the first value; there "
	    "is none before it.");
	ck_assert_int_eq(pg_change(pg, PG_RECOMPUTE, +1), 1);
	pg_knob_value(pg, PG_RECOMPUTE, v, sizeof v);
	ck_assert_str_eq(v, "full");
	ck_assert_int_eq(pg_change(pg, PG_RECOMPUTE, +1), 0);
	ck_assert_str_eq(pg->note, "Recompute: full is the last value; there "
	    "is none after it.");
	ck_assert_int_eq(pg_change(pg, PG_SCHEDULE, +1), 1);
	ck_assert_int_eq(pg->cfg.schedule, PIPE_INTERLEAVED);
	ck_assert_int_eq(pg->cfg.virtual_stages, 2);
	ck_assert(pg->cur_valid);
	ck_assert_int_eq(pg_change(pg, PG_VSTAGES, -1), 1);
	ck_assert_int_eq(pg->cfg.schedule, PIPE_1F1B);
	ck_assert_int_eq(pg_change(pg, PG_MICRO_BATCH, +1), 1);
	ck_assert_int_eq(pg->cfg.micro_batch, 2);
	ck_assert_int_eq(pg_change(pg, PG_SEQ, +1), 1);
	ck_assert_int_eq(pg->cfg.model.seq, 8192);
	ck_assert_int_eq(pg_change(pg, PG_GPU, -1), 1);
	ck_assert_str_eq(pg->cfg.gpu.name, "a100-80gb");
	ck_assert_int_eq(pg_change(pg, PG_MODEL, +1), 1);
	ck_assert_str_eq(pg->cfg.model.name, "llama2-70b");
	ck_assert_int_eq(pg_change(pg, PG_ATTENTION, +1), 1);
	pg_knob_value(pg, PG_ATTENTION, v, sizeof v);
	ck_assert_str_eq(v, "plain");
}
END_TEST

/* Every knob, turned past both ends of its list, says where it stopped. */
START_TEST(every_end_says_so)
{
	int k, dir, n, rc;
	char want[PG_NOTE_LEN], val[64];

	for (k = 0; k < PG_N_KNOBS; k++)
		for (dir = -1; dir <= 1; dir += 2) {
			for (n = 0; n < 20000 && (rc = pg_change(pg,
			    (enum pg_knob)k, dir)) == 1; n++)
				;
			ck_assert_msg(rc == 0, "%s never ends", pg_knob_name(
			    (enum pg_knob)k));
			pg_knob_value(pg, (enum pg_knob)k, val, sizeof val);
			snprintf(want, sizeof want, "%s: %s is the %s value; "
			    "there is none %s it.", pg_knob_label(
			    (enum pg_knob)k), val, dir > 0 ? "last" : "first",
			    dir > 0 ? "after" : "before");
			ck_assert_str_eq(pg->note, want);
		}
	/* A change that moves clears the note. */
	ck_assert_int_eq(pg_change(pg, PG_ZERO, -1), 1);
	ck_assert_str_eq(pg->note, "");
}
END_TEST

/*
 * The change since the start stays measured from pg_init's result across
 * several changes, while the change since the previous setting follows
 * the last step.
 */
START_TEST(delta_since_start)
{
	struct cm_result start = pg->cur, mid;

	ck_assert(pg_has_base(pg, PG_VS_START));
	ck_assert(!pg_has_base(pg, PG_VS_PREV));
	ck_assert_double_eq(pg_delta_from(pg, PG_F_T_STEP, PG_VS_START), 0);
	ck_assert_int_eq(pg_change(pg, PG_TP, +1), 1);		/* TP 4 */
	mid = pg->cur;
	ck_assert_int_eq(pg_change(pg, PG_MICRO_BATCH, +1), 1);	/* mb 2 */
	ck_assert(pg->cur_valid);
	ck_assert_double_eq_tol(pg_delta_from(pg, PG_F_T_STEP, PG_VS_PREV),
	    pg->cur.t_step - mid.t_step, 1e-12);
	ck_assert_double_eq_tol(pg_delta_from(pg, PG_F_T_STEP, PG_VS_START),
	    pg->cur.t_step - start.t_step, 1e-12);
	ck_assert_double_eq_tol(pg_delta_from(pg, PG_F_MEM_PARAMS,
	    PG_VS_START), pg->cur.mem_params - start.mem_params, 1e-3);
	/* TP 2 -> 4 halved the weights per GPU since the start. */
	ck_assert_double_eq_tol(pg_delta_from(pg, PG_F_MEM_PARAMS,
	    PG_VS_START), -start.mem_params / 2, 0.01 * start.mem_params);
	ck_assert(pg_delta_from(pg, PG_F_T_STEP, PG_VS_START) !=
	    pg_delta_from(pg, PG_F_T_STEP, PG_VS_PREV));
	/* pg_apply of the start brings the change since the start to 0. */
	pg_apply(pg, &start.cfg);
	ck_assert_double_eq(pg_delta_from(pg, PG_F_T_STEP, PG_VS_START), 0);
	ck_assert(pg_delta_from(pg, PG_F_T_STEP, PG_VS_PREV) != 0);
}
END_TEST

START_TEST(knob_names)
{
	enum pg_knob k;
	int i;

	for (i = 0; i < PG_N_KNOBS; i++) {
		ck_assert_int_eq(pg_knob_parse(pg_knob_name((enum pg_knob)i),
		    &k), 0);
		ck_assert_int_eq(k, i);
		ck_assert(strlen(pg_knob_label(k)) > 0);
	}
	ck_assert_int_eq(pg_knob_parse("warp", &k), -1);
}
END_TEST

START_TEST(layout_text)
{
	char buf[300];

	pg_layout_text(&pg->cfg, buf, sizeof buf);
	ck_assert_str_eq(buf, "dp=4 tp=2 pp=2 mb=1 zero=1 recompute=selective "
	    "sp=on schedule=1f1b v=1 attention=flash seq=4096 gb=1024 gpus=16 "
	    "gpn=8 model=llama2-13b gpu=h100-80gb");
}
END_TEST

/*
 * Rank order is a knob: laying TP outermost (dp-pp-tp) puts the two ranks
 * of each TP pair 8 apart, in different nodes, and the step slows; the
 * layout text names the order only when it is not the default.
 */
START_TEST(rank_order_knob)
{
	double tokens = pg->cur.tokens_per_s;
	char v[64], buf[300];
	int i;

	ck_assert(!pg->cur.tp_inter);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(pg_change(pg, PG_RANK_ORDER, +1), 1);
	ck_assert_int_eq(pg_change(pg, PG_RANK_ORDER, +1), 0);
	pg_knob_value(pg, PG_RANK_ORDER, v, sizeof v);
	ck_assert_str_eq(v, "dp-pp-tp");
	ck_assert(pg->cur_valid && pg->cur.tp_inter);
	ck_assert_int_eq(pg->cur.group[MESH_TP].per_node, 1);
	ck_assert(pg->cur.tokens_per_s < tokens);
	pg_layout_text(&pg->cfg, buf, sizeof buf);
	ck_assert_ptr_nonnull(strstr(buf, " order=dp-pp-tp"));
	ck_assert_int_eq(pg_knob_parse("rank_order", &(enum pg_knob){ 0 }), 0);
}
END_TEST

START_TEST(rank_in_search)
{
	struct cm_search *s = malloc(sizeof *s);
	struct pl_err err;
	int r;

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(cm_search(&pg->cfg, CM_SEARCH_MAX, s, &err), 0);
	ck_assert_int_gt(s->n_top, 1);
	/* The best layout ranks first; applying #2 takes #2's tie-aware
	 * rank (1 when it is within 3 % of #1). */
	pg_apply(pg, &s->top[0].cfg);
	ck_assert_int_eq(pg_rank(s, &pg->cur), 1);
	pg_apply(pg, &s->top[1].cfg);
	ck_assert_double_eq_tol(pg->cur.t_step, s->top[1].t_step, 1e-12);
	r = pg_rank(s, &pg->cur);
	ck_assert_int_eq(r, s->top[1].rank);
	ck_assert_int_eq(r, s->top[1].t_step > s->top[0].t_step *
	    (1 + CM_TIE_TOL) ? 2 : 1);
	free(s);
}
END_TEST

/*
 * Which partner keeps DP x TP x PP = GPUs when a degree changes, from the
 * default 16 GPUs = DP 4 x TP 2 x PP 2 (llama2-13b, 40 layers): the order
 * is GPUs: DP, PP; DP: GPUs, PP, TP; TP: DP, PP; PP: DP, TP, skipping
 * locked knobs and values no partner can balance. With every partner
 * locked the plain next value is taken and the note says so.
 */
#define L(k)	(1u << (k))
static const struct {
	enum pg_knob	 knob;
	int		 dir;
	unsigned	 locked;
	int		 gpus, dp, tp, pp;	/* after the change */
	const char	*note;			/* part of pg->note */
} partner_cases[] = {
	{ PG_GPUS, +1, 0, 24, 6, 2, 2, "DP degree set to 6" },
	{ PG_GPUS, +1, L(PG_DP), 24, 4, 2, 3, "PP degree set to 3" },
	{ PG_GPUS, +1, L(PG_DP) | L(PG_PP), 24, 4, 2, 2, "No unlocked knob" },
	{ PG_GPUS, -1, 0, 12, 3, 2, 2, "DP degree set to 3" },
	{ PG_DP, +1, 0, 24, 6, 2, 2, "GPUs set to 24" },
	/* GPUs fixed: DP 5, 6, 7 leave no integer PP; 8 takes PP to 1. */
	{ PG_DP, +1, L(PG_GPUS), 16, 8, 2, 1, "PP degree set to 1" },
	{ PG_DP, +1, L(PG_GPUS) | L(PG_PP), 16, 8, 1, 2, "TP degree set to 1" },
	{ PG_DP, +1, L(PG_GPUS) | L(PG_PP) | L(PG_TP), 16, 5, 2, 2,
	    "No unlocked knob" },
	{ PG_DP, -1, L(PG_GPUS), 16, 2, 2, 4, "PP degree set to 4" },
	{ PG_TP, +1, 0, 16, 2, 4, 2, "DP degree set to 2" },
	{ PG_TP, -1, 0, 16, 8, 1, 2, "DP degree set to 8" },
	{ PG_TP, +1, L(PG_DP), 16, 4, 4, 1, "PP degree set to 1" },
	{ PG_TP, +1, L(PG_DP) | L(PG_PP), 16, 4, 4, 2, "No unlocked knob" },
	/* PP 3 leaves no integer DP for 16 GPUs: PP 4 takes DP to 2. */
	{ PG_PP, +1, 0, 16, 2, 2, 4, "DP degree set to 2" },
	{ PG_PP, -1, 0, 16, 8, 2, 1, "DP degree set to 8" },
	{ PG_PP, +1, L(PG_DP), 16, 4, 1, 4, "TP degree set to 1" },
	{ PG_PP, +1, L(PG_DP) | L(PG_TP), 16, 4, 2, 3, "No unlocked knob" },
};
#undef L

START_TEST(partner_order)
{
	struct cm_config c = pg->cfg;
	const char *name = pg_knob_name(partner_cases[_i].knob);

	pg_init(pg, &cat, &c, partner_cases[_i].locked);
	ck_assert_int_eq(pg_change(pg, partner_cases[_i].knob,
	    partner_cases[_i].dir), 1);
	ck_assert_msg(pg->cfg.gpus == partner_cases[_i].gpus &&
	    pg->cfg.dp == partner_cases[_i].dp &&
	    pg->cfg.tp == partner_cases[_i].tp &&
	    pg->cfg.pp == partner_cases[_i].pp,
	    "case %d (%s %+d): gpus %d dp %d tp %d pp %d, want %d %d %d %d",
	    _i, name, partner_cases[_i].dir, pg->cfg.gpus, pg->cfg.dp,
	    pg->cfg.tp, pg->cfg.pp, partner_cases[_i].gpus,
	    partner_cases[_i].dp, partner_cases[_i].tp, partner_cases[_i].pp);
	ck_assert_msg(strstr(pg->note, partner_cases[_i].note) != NULL,
	    "case %d (%s): note \"%s\", want \"%s\"", _i, name, pg->note,
	    partner_cases[_i].note);
	/* Locked knobs never move. */
	ck_assert(pg_same_knobs(&pg->cfg, &c, pg->locked));
	/* Balanced unless the note says nothing could balance it. */
	if (strstr(partner_cases[_i].note, "No unlocked") == NULL)
		ck_assert_int_eq(pg->cfg.dp * pg->cfg.tp * pg->cfg.pp,
		    pg->cfg.gpus);
}
END_TEST

/*
 * The EP knob: hidden for a dense model; for Mixtral 8x7B on 64 GPUs it
 * steps 1, 2, 4, 8 and stops at the 8 experts, refuses an EP that does not
 * divide DP, and survives a TP change that moves DP (EP 8 at TP 8 puts one
 * rank per node; at TP 1 the 8 EP ranks share a node and the step is
 * more than twice as fast).
 */
START_TEST(ep_knob)
{
	const struct hw_model *m = hw_model_find(&cat, "mixtral-8x7b");
	struct cm_config c;
	double slow;
	char v[32], buf[300];

	ck_assert(!pg_knob_shown(pg, PG_EP));
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), 0);
	ck_assert_ptr_nonnull(m);
	cm_config_default(&c, m, cm_default_gpu(&cat));
	c.gpus = 64;
	c.gpus_per_node = 8;
	c.dp = 8;
	c.tp = 8;
	c.pp = 1;
	c.zero = 1;
	c.global_batch = 64;
	c.recompute = CM_RECOMPUTE_FULL;
	c.kernels = CM_KERNELS_FUSED;
	pg_init(pg, &cat, &c, 0);
	ck_assert(pg->cur_valid);
	ck_assert(pg_knob_shown(pg, PG_EP));
	pg_knob_value(pg, PG_EP, v, sizeof v);
	ck_assert_str_eq(v, "1");
	ck_assert_int_eq(pg_change(pg, PG_EP, -1), 0);
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), 1);
	ck_assert_int_eq(pg->cfg.ep, 2);
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), 1);
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), 1);
	ck_assert_int_eq(pg->cfg.ep, 8);
	ck_assert(pg->cur_valid);
	ck_assert(pg->cur.t_ep > 0);
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), 0);	/* 16 > 8 experts */
	ck_assert_int_eq(pg->cfg.ep, 8);
	slow = pg->cur.tokens_per_s;
	while (pg->cfg.tp > 1)
		ck_assert_int_eq(pg_change(pg, PG_TP, -1), 1);
	ck_assert_int_eq(pg->cfg.dp, 64);
	ck_assert_int_eq(pg->cfg.ep, 8);
	ck_assert(pg->cur_valid);
	ck_assert(pg->cur.tokens_per_s > 2 * slow);
	pg_layout_text(&pg->cfg, buf, sizeof buf);
	ck_assert_ptr_nonnull(strstr(buf, " ep=8"));
	ck_assert(!pg_same_knobs(&pg->cfg, &c, 1u << PG_EP));
	/* DP 2: EP 2 divides it, EP 4 does not. */
	c.gpus = 16;
	c.dp = 2;
	pg_init(pg, &cat, &c, 0);
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), 1);
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), 0);
	ck_assert_int_eq(pg->cfg.ep, 2);
	/* Locked in a scenario. */
	pg_init(pg, &cat, &c, 1u << PG_EP);
	ck_assert_int_eq(pg_change(pg, PG_EP, +1), -1);
	ck_assert_int_le(pg->cfg.ep, 1);
}
END_TEST

static Suite *
playground_suite(void)
{
	Suite *s = suite_create("playground");
	TCase *tc = tcase_create("knobs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, default_is_valid);
	tcase_add_test(tc, tp_adjusts_dp);
	tcase_add_test(tc, gpus_adjust_dp);
	tcase_add_test(tc, locks);
	tcase_add_loop_test(tc, partner_order, 0,
	    (int)(sizeof partner_cases / sizeof partner_cases[0]));
	tcase_add_test(tc, invalid_shows_reason);
	tcase_add_test(tc, enums_and_ends);
	tcase_add_test(tc, every_end_says_so);
	tcase_add_test(tc, delta_since_start);
	tcase_add_test(tc, knob_names);
	tcase_add_test(tc, layout_text);
	tcase_add_test(tc, rank_in_search);
	tcase_add_test(tc, rank_order_knob);
	tcase_add_test(tc, ep_knob);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(playground_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
