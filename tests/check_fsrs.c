/*
 * check_fsrs.c - the FSRS-6 scheduler against the reference
 * implementations' own test vectors (reference/srs.md §2) and the edges of
 * its state machine.
 */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/srs/fsrs.h"

#define TOL	1e-4		/* the references' own tolerance (srs.md §1.7) */
#define T0	1669725000	/* 2022-11-29 12:30:00 UTC, the py-fsrs start */


static struct fsrs_params P;

static void
setup(void)
{
	fsrs_params_default(&P);
	P.enable_fuzz = 0;
}

/* Review a new card with ratings[i] each at its due time, from t0. */
static void
run(const struct fsrs_params *p, const int *ratings, int n, int64_t id,
    struct fsrs_card *c, struct fsrs_log *log)
{
	int64_t now = T0;
	int i;

	fsrs_card_new(c, id, now);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(fsrs_review(p, c, (enum fsrs_rating)ratings[i],
		    now, c, log != NULL ? &log[i] : NULL), 0);
		now = c->due;
	}
}

/* --- reference vectors -------------------------------------------------- */

/* py-fsrs test_review_card, full trace of srs.md §2.1. */
START_TEST(test_pyfsrs_trace)
{
	static const int ratings[13] = { 3, 3, 3, 3, 3, 3, 1, 1, 3, 3, 3, 3, 3 };
	static const int ivl[13] = { 0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12,
	    21 };
	static const int64_t wait[13] = { 600, 0, 0, 0, 0, 0, 600, 600 };
	static const double s[13] = { 2.306500, 2.306500, 10.971048,
	    46.316858, 162.999816, 497.876555, 6.890413, 2.154598, 2.154598,
	    3.983123, 7.236254, 12.483044, 20.770357 };
	static const double d[13] = { 2.118104, 2.111214, 2.104331, 2.097455,
	    2.090586, 2.083724, 7.383202, 9.125105, 9.111208, 9.097325,
	    9.083456, 9.069601, 9.055760 };
	static const enum fsrs_state st[13] = { FSRS_LEARNING, FSRS_REVIEW,
	    FSRS_REVIEW, FSRS_REVIEW, FSRS_REVIEW, FSRS_REVIEW,
	    FSRS_RELEARNING, FSRS_RELEARNING, FSRS_REVIEW, FSRS_REVIEW,
	    FSRS_REVIEW, FSRS_REVIEW, FSRS_REVIEW };
	struct fsrs_card c;
	int64_t now = T0;
	int i;

	fsrs_card_new(&c, 1, now);
	for (i = 0; i < 13; i++) {
		ck_assert_int_eq(fsrs_review(&P, &c, ratings[i], now, &c, NULL),
		    0);
		ck_assert_int_eq((c.due - now) / 86400, ivl[i]);
		if (wait[i] != 0)
			ck_assert_int_eq(c.due - now, wait[i]);
		ck_assert_int_eq(c.state, st[i]);
		ck_assert_double_eq_tol(c.stability, s[i], TOL);
		ck_assert_double_eq_tol(c.difficulty, d[i], TOL);
		now = c.due;
	}
	ck_assert_int_eq(c.reps, 13);
	ck_assert_int_eq(c.lapses, 1);
	/* Review 12 was at 2024-12-01 13:00 UTC, so 13 at 2024-12-13. */
	ck_assert_int_eq(c.last_review, 1734094800);
}
END_TEST

START_TEST(test_retrievability_vectors)
{
	static const double ts_r[4] = { 1.0, 0.9, 0.84588465, 0.8093881 };
	static const double rs_t[6] = { 0, 1, 2, 3, 4, 5 };
	static const double rs_s[6] = { 1, 2, 3, 4, 4, 2 };
	static const double rs_r[6] = { 1.0, 0.9403443, 0.9253786, 0.9185229,
	    0.9, 0.8261359 };
	static const double d2_r[4] = { 1.0, 0.9, 0.84028935, 0.7985001 };
	double w[FSRS_N_PARAMS];
	int i;

	for (i = 0; i < 4; i++)
		ck_assert_double_eq_tol(fsrs_forgetting_curve(P.w, i, 1.0),
		    ts_r[i], 1e-7);
	for (i = 0; i < 6; i++)
		ck_assert_double_eq_tol(fsrs_forgetting_curve(P.w, rs_t[i],
		    rs_s[i]), rs_r[i], 1e-6);
	/* fsrs-rs test_current_retrievability uses decay 0.2. */
	memcpy(w, P.w, sizeof w);
	w[20] = 0.2;
	for (i = 0; i < 4; i++)
		ck_assert_double_eq_tol(fsrs_forgetting_curve(w, i, 1.0),
		    d2_r[i], 1e-6);
}
END_TEST

START_TEST(test_next_interval_vector)
{
	static const int want[10] = { 3116769, 34793, 2508, 387, 90, 27, 9, 3,
	    1, 1 };
	int i;

	for (i = 0; i < 10; i++)
		ck_assert_int_eq(fsrs_next_interval(P.w, 1.0, (i + 1) / 10.0,
		    INT_MAX), want[i]);
}
END_TEST

START_TEST(test_initial_state)
{
	static const double d0[4] = { 6.4133, 5.11217071, 2.11810397, 1.0 };
	static const int sched[4] = { 0, 0, 0, 8 };
	struct fsrs_card c, out;
	struct fsrs_log log;
	int g;

	for (g = 1; g <= 4; g++) {
		ck_assert_double_eq_tol(fsrs_init_difficulty(P.w, g), d0[g - 1],
		    1e-8);
		ck_assert_double_eq(fsrs_init_stability(P.w, g), P.w[g - 1]);
		fsrs_card_new(&c, 7, T0);
		fsrs_review(&P, &c, g, T0, &out, &log);
		ck_assert_int_eq(log.scheduled_days, sched[g - 1]);
		ck_assert_double_eq(out.stability, P.w[g - 1]);
	}
	/* ts-fsrs: the Easy card is at 90.25% when due, 8 days later. */
	ck_assert_double_eq_tol(fsrs_retrievability(&P, &out, out.due),
	    0.9024733, 1e-7);
}
END_TEST

START_TEST(test_memory_formulas)
{
	static const double nd[4] = { 8.341763, 6.6659956, 4.990228, 3.3144615 };
	static const double rec[4] = { 25.602541, 28.226582, 58.656002,
	    127.226685 };
	static const double fgt[4] = { 1.0525396, 1.1894329, 1.3680838,
	    1.584989 };
	static const double sts[4] = { 1.596818, 5.0, 5.0, 8.12961 };
	int i;

	for (i = 0; i < 4; i++) {
		ck_assert_double_eq_tol(fsrs_next_difficulty(P.w, 5.0, i + 1),
		    nd[i], 1e-6);
		ck_assert_double_eq_tol(fsrs_recall_stability(P.w, i + 1, 5.0,
		    0.9 - 0.1 * i, i + 1), rec[i], TOL);
		ck_assert_double_eq_tol(fsrs_forget_stability(P.w, i + 1, 5.0,
		    0.9 - 0.1 * i), fgt[i], 1e-6);
		ck_assert_double_eq_tol(fsrs_short_term_stability(P.w, 5.0,
		    i + 1), sts[i], 1e-6);
	}
}
END_TEST

/* --- parameters ---------------------------------------------------------- */

START_TEST(test_defaults)
{
	fsrs_params_default(&P);
	ck_assert_double_eq(P.w[0], 0.212);
	ck_assert_double_eq(P.w[20], 0.1542);
	ck_assert_double_eq(P.desired_retention, 0.9);
	ck_assert_int_eq(P.n_learning_steps, 2);
	ck_assert_int_eq(P.learning_steps[0], 60);
	ck_assert_int_eq(P.learning_steps[1], 600);
	ck_assert_int_eq(P.n_relearning_steps, 1);
	ck_assert_int_eq(P.relearning_steps[0], 600);
	ck_assert_int_eq(P.maximum_interval, 36500);
	ck_assert_int_ne(P.enable_fuzz, 0);
	ck_assert_int_eq(fsrs_params_check(&P, NULL), 0);
}
END_TEST

START_TEST(test_legacy_weights)
{
	static const double w17[17] = { 0.4, 0.6, 2.4, 5.8, 4.93, 0.94, 0.86,
	    0.01, 1.49, 0.14, 0.94, 2.18, 0.05, 0.34, 1.26, 0.29, 2.61 };
	static const double want[21] = { 0.4, 0.6, 2.4, 5.8, 6.81, 0.44675013,
	    1.36, 0.01, 1.49, 0.14, 0.94, 2.18, 0.05, 0.34, 1.26, 0.29, 2.61, 0,
	    0, 0, 0.5 };
	struct pl_err err;
	double w19[19];
	int i;

	ck_assert_int_eq(fsrs_params_set_weights(&P, w17, 17, &err), 0);
	for (i = 0; i < 21; i++)
		ck_assert_double_eq_tol(P.w[i], want[i], 1e-7);
	fsrs_params_default(&P);
	memcpy(w19, P.w, sizeof w19);
	w19[0] = 0.3;
	ck_assert_int_eq(fsrs_params_set_weights(&P, w19, 19, &err), 0);
	ck_assert_double_eq(P.w[0], 0.3);
	ck_assert_double_eq(P.w[19], 0.0);
	ck_assert_double_eq(P.w[20], 0.5);
	/* FSRS-5 decay: FACTOR = 19/81, so R(1, 1) = 0.9 still. */
	ck_assert_double_eq_tol(fsrs_forgetting_curve(P.w, 1, 1), 0.9, 1e-12);
}
END_TEST

START_TEST(test_bad_params)
{
	struct fsrs_params before;
	struct pl_err err;
	double w[FSRS_N_PARAMS];

	memcpy(w, P.w, sizeof w);
	before = P;
	ck_assert_int_eq(fsrs_params_set_weights(&P, w, 20, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "17, 19 or 21"));
	w[7] = 0.8;
	ck_assert_int_eq(fsrs_params_set_weights(&P, w, 21, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "w7"));
	w[7] = NAN;
	ck_assert_int_eq(fsrs_params_set_weights(&P, w, 21, &err), -1);
	ck_assert_mem_eq(&P, &before, sizeof P);
	ck_assert_int_eq(fsrs_params_set_retention(&P, 0.69, &err), -1);
	ck_assert_int_eq(fsrs_params_set_retention(&P, 0.98, &err), -1);
	ck_assert_int_eq(fsrs_params_set_retention(&P, NAN, &err), -1);
	ck_assert_double_eq(P.desired_retention, 0.9);
	ck_assert_int_eq(fsrs_params_set_retention(&P, 0.70, &err), 0);
	ck_assert_int_eq(fsrs_params_set_retention(&P, 0.97, &err), 0);
	P.learning_steps[1] = 0;
	ck_assert_int_eq(fsrs_params_check(&P, &err), -1);
	P.learning_steps[1] = 600;
	P.maximum_interval = 0;
	ck_assert_int_eq(fsrs_params_check(&P, &err), -1);
	P.maximum_interval = 1;
	ck_assert_int_eq(fsrs_params_check(&P, &err), 0);
}
END_TEST

/* --- learning steps ------------------------------------------------------ */

/* py-fsrs test_*_learning_steps (srs.md §2.7). */
START_TEST(test_new_card_ratings)
{
	static const enum fsrs_state st[4] = { FSRS_LEARNING, FSRS_LEARNING,
	    FSRS_LEARNING, FSRS_REVIEW };
	static const int step[4] = { 0, 0, 1, 0 };
	static const int64_t wait[4] = { 60, 330, 600, 8 * 86400 };
	struct fsrs_card c, out;
	int g;

	for (g = 1; g <= 4; g++) {
		fsrs_card_new(&c, 1, T0);
		fsrs_review(&P, &c, g, T0, &out, NULL);
		ck_assert_int_eq(out.state, st[g - 1]);
		ck_assert_int_eq(out.step, step[g - 1]);
		ck_assert_int_eq(out.due - T0, wait[g - 1]);
		ck_assert_int_eq(out.reps, 1);
		ck_assert_int_eq(out.lapses, 0);
	}
	fsrs_review(&P, &out, FSRS_GOOD, T0, &out, NULL);
	ck_assert_int_eq(fsrs_review(&P, &c, 0, T0, &out, NULL), -1);
	ck_assert_int_eq(fsrs_review(&P, &c, 5, T0, &out, NULL), -1);
	c.state = 7;
	ck_assert_int_eq(fsrs_review(&P, &c, FSRS_GOOD, T0, &out, NULL), -1);
	c.state = FSRS_LEARNING;
	c.step = -1;
	ck_assert_int_eq(fsrs_review(&P, &c, FSRS_GOOD, T0, &out, NULL), -1);
}
END_TEST

/*
 * Anki steps.rs rows where py-fsrs agrees: waits for Again, Hard, Good in
 * seconds; 0 for Hard or Good means the card graduates.
 */
static void
check_steps(const int64_t *steps, int n, int step, int64_t again,
    int64_t hard, int64_t good)
{
	struct fsrs_card c;
	struct fsrs_preview pv;

	memcpy(P.learning_steps, steps, n * sizeof *steps);
	P.n_learning_steps = n;
	fsrs_card_new(&c, 1, T0);
	c.state = FSRS_LEARNING;
	c.step = step;
	c.stability = 2.3065;
	c.difficulty = 2.118;
	c.last_review = T0 - 60;
	fsrs_preview(&P, &c, T0, &pv);
	ck_assert_int_eq(pv.card[0].due - T0, again);
	ck_assert_int_eq(pv.card[0].step, 0);
	if (hard > 0) {
		ck_assert_int_eq(pv.card[1].due - T0, hard);
		ck_assert_int_eq(pv.card[1].step, step);
	} else
		ck_assert_int_eq(pv.card[1].state, FSRS_REVIEW);
	if (good > 0) {
		ck_assert_int_eq(pv.card[2].due - T0, good);
		ck_assert_int_eq(pv.card[2].step, step + 1);
	} else
		ck_assert_int_eq(pv.card[2].state, FSRS_REVIEW);
	ck_assert_int_eq(pv.card[3].state, FSRS_REVIEW);
}

START_TEST(test_anki_steps_table)
{
	static const int64_t s10[1] = { 600 };
	static const int64_t s1_10[2] = { 60, 600 };
	static const int64_t s3[3] = { 60, 600, 6000 };

	check_steps(s10, 1, 0, 600, 900, 0);
	check_steps(s1_10, 2, 0, 60, 330, 600);
	check_steps(s1_10, 2, 1, 60, 600, 0);
	check_steps(s3, 3, 0, 60, 330, 600);
	check_steps(s3, 3, 1, 60, 600, 6000);
	check_steps(s3, 3, 2, 60, 6000, 0);
	/* Steps shortened under a card: Hard/Good graduate, Again restarts. */
	check_steps(s10, 1, 1, 600, 0, 0);
}
END_TEST

START_TEST(test_no_steps)
{
	struct fsrs_card c;

	P.n_learning_steps = 0;
	fsrs_card_new(&c, 1, T0);
	fsrs_review(&P, &c, FSRS_AGAIN, T0, &c, NULL);
	ck_assert_int_eq(c.state, FSRS_REVIEW);
	ck_assert_int_ge(c.due - T0, 86400);
	P.n_relearning_steps = 0;
	fsrs_review(&P, &c, FSRS_AGAIN, c.due, &c, NULL);
	ck_assert_int_eq(c.state, FSRS_REVIEW);
	ck_assert_int_ge(c.due - c.last_review, 86400);
	ck_assert_int_eq(c.lapses, 1);
}
END_TEST

START_TEST(test_lapse_cycle)
{
	static const int r[6] = { 3, 3, 3, 1, 2, 3 };
	struct fsrs_card c;
	struct fsrs_log log[6];

	run(&P, r, 4, 1, &c, log);
	ck_assert_int_eq(log[3].state_before, FSRS_REVIEW);
	ck_assert_int_eq(c.state, FSRS_RELEARNING);
	ck_assert_int_eq(c.step, 0);
	ck_assert_int_eq(c.due - c.last_review, 600);
	ck_assert_int_eq(c.lapses, 1);
	/* Hard on the single relearning step waits 1.5 x 10 min. */
	fsrs_review(&P, &c, FSRS_HARD, c.due, &c, &log[4]);
	ck_assert_int_eq(c.state, FSRS_RELEARNING);
	ck_assert_int_eq(c.due - c.last_review, 900);
	fsrs_review(&P, &c, FSRS_GOOD, c.due, &c, &log[5]);
	ck_assert_int_eq(c.state, FSRS_REVIEW);
	ck_assert_int_eq(c.step, 0);
	ck_assert_int_ge(c.due - c.last_review, 86400);
	ck_assert_int_eq(c.lapses, 1);
	ck_assert_int_eq(c.reps, 6);
}
END_TEST

START_TEST(test_thousand_agains)
{
	struct fsrs_card c;
	int i;

	fsrs_card_new(&c, 1, T0);
	for (i = 0; i < 1000; i++) {
		fsrs_review(&P, &c, FSRS_AGAIN, c.due + 86400, &c, NULL);
		ck_assert(c.stability >= FSRS_S_MIN);
		ck_assert(c.difficulty >= 1.0 && c.difficulty <= 10.0);
	}
	/*
	 * D settles at the fixed point of Again's update, where damping and
	 * mean reversion balance: x = (1 - w7) (x + 2 w6 (10 - x) / 9)
	 * + w7 D0raw(4), x = 9.9779957.
	 */
	ck_assert_double_eq_tol(c.difficulty, 9.9779957, 1e-6);
}
END_TEST

START_TEST(test_repeated_easy)
{
	struct fsrs_card c;
	int i;

	fsrs_card_new(&c, 1, T0);
	for (i = 0; i < 10; i++)
		fsrs_review(&P, &c, FSRS_EASY, T0 + i / 10, &c, NULL);
	ck_assert_double_eq(c.difficulty, 1.0);
	ck_assert_int_eq(c.state, FSRS_REVIEW);
}
END_TEST

/* --- edge cases ---------------------------------------------------------- */

START_TEST(test_retention_extremes)
{
	static const int r[2] = { 3, 3 };
	struct fsrs_card c, out;
	double s;
	int prev70 = 0, prev97 = 0, i70, i90, i97;

	for (s = 0.5; s < 2000; s *= 1.3) {
		i70 = fsrs_next_interval(P.w, s, 0.70, 36500);
		i90 = fsrs_next_interval(P.w, s, 0.90, 36500);
		i97 = fsrs_next_interval(P.w, s, 0.97, 36500);
		ck_assert_int_ge(i70, i90);
		ck_assert_int_ge(i90, i97);
		ck_assert_int_ge(i70, prev70);
		ck_assert_int_ge(i97, prev97);
		prev70 = i70;
		prev97 = i97;
	}
	ck_assert_int_gt(prev70, 5 * prev97);
	/* The third Good of the trace (S = 10.971048): 11 days at 0.9. */
	run(&P, r, 2, 1, &c, NULL);
	fsrs_params_set_retention(&P, 0.70, NULL);
	fsrs_review(&P, &c, FSRS_GOOD, c.due, &out, NULL);
	ck_assert_double_eq_tol(out.stability, 10.971048, TOL);
	ck_assert_int_eq((out.due - out.last_review) / 86400, 102);
	fsrs_params_set_retention(&P, 0.97, NULL);
	fsrs_review(&P, &c, FSRS_GOOD, c.due, &out, NULL);
	ck_assert_int_eq((out.due - out.last_review) / 86400, 2);
}
END_TEST

/* A review card (S = 10.971, D = 2.1043, due in 11 d) seen 365 days late. */
START_TEST(test_year_late)
{
	static const int r[3] = { 3, 3, 3 };
	static const double s[4] = { 2.611564, 112.916463, 180.484542,
	    328.452870 };
	static const double d[4] = { 7.389976, 4.743716, 2.097455, 1.0 };
	static const int ivl[4] = { 0, 113, 180, 328 };
	struct fsrs_card c;
	struct fsrs_preview pv;
	int64_t late;
	int g;

	run(&P, r, 3, 1, &c, NULL);
	late = c.due + 365 * 86400;
	ck_assert_double_eq_tol(fsrs_retrievability(&P, &c, late), 0.5789985,
	    1e-7);
	fsrs_preview(&P, &c, late, &pv);
	for (g = 0; g < 4; g++) {
		ck_assert_int_eq(pv.log[g].elapsed_days, 376);
		ck_assert_double_eq_tol(pv.card[g].stability, s[g], TOL);
		ck_assert_double_eq_tol(pv.card[g].difficulty, d[g], TOL);
		ck_assert_int_eq(pv.log[g].scheduled_days, ivl[g]);
	}
	ck_assert_int_eq(pv.card[0].state, FSRS_RELEARNING);
	ck_assert_int_eq(pv.card[0].lapses, 1);
}
END_TEST

START_TEST(test_max_interval)
{
	struct fsrs_card c;
	int i, ivl = 0;

	P.maximum_interval = 30;
	fsrs_card_new(&c, 1, T0);
	for (i = 0; i < 12; i++) {
		fsrs_review(&P, &c, FSRS_EASY, c.due, &c, NULL);
		ivl = (int)((c.due - c.last_review) / 86400);
		ck_assert_int_le(ivl, 30);
	}
	ck_assert_int_eq(ivl, 30);
	ck_assert(c.stability > 1000);
	/* Stability itself is capped at 36500 days (fsrs-rs S_MAX). */
	for (i = 0; i < 40; i++)
		fsrs_review(&P, &c, FSRS_EASY, c.due + 3000 * 86400, &c, NULL);
	ck_assert_double_eq(c.stability, FSRS_S_MAX);
}
END_TEST

START_TEST(test_preview_and_retrievability)
{
	static const int r[3] = { 3, 3, 3 };
	struct fsrs_card c, one;
	struct fsrs_preview pv;
	struct fsrs_log log;
	int g;

	run(&P, r, 3, 1, &c, NULL);
	ck_assert_int_eq(fsrs_preview(&P, &c, c.due, &pv), 0);
	for (g = 1; g <= 4; g++) {
		fsrs_review(&P, &c, g, c.due, &one, &log);
		ck_assert_mem_eq(&pv.card[g - 1], &one, sizeof one);
		ck_assert_mem_eq(&pv.log[g - 1], &log, sizeof log);
	}
	/* R is 0.9 at due (interval == S when rounded), 1 just after review. */
	ck_assert_double_eq_tol(fsrs_retrievability(&P, &c, c.last_review), 1.0,
	    1e-12);
	ck_assert_double_eq_tol(fsrs_retrievability(&P, &c, c.last_review +
	    11 * 86400), fsrs_forgetting_curve(P.w, 11, c.stability), 1e-12);
	fsrs_card_new(&c, 1, T0);
	ck_assert_double_eq(fsrs_retrievability(&P, &c, T0 + 86400), 0.0);
	/* A clock that went backwards counts as a same-day review. */
	run(&P, r, 3, 1, &c, NULL);
	fsrs_review(&P, &c, FSRS_GOOD, c.last_review - 3600, &one, &log);
	ck_assert_double_eq_tol(one.stability, fsrs_short_term_stability(P.w,
	    c.stability, FSRS_GOOD), 1e-12);
	ck_assert_int_eq(log.elapsed_days, 0);
}
END_TEST

/* --- fuzz --------------------------------------------------------------- */

/* Anki fuzz.rs with_review_fuzz table (srs.md §1.5). */
START_TEST(test_anki_fuzz_table)
{
	static const struct {
		double	ivl;
		int	min, max, f0, f5, f99;
	} t[] = {
		{ 1.0, 1, 1000, 1, 1, 1 }, { 2.49, 1, 1000, 2, 2, 2 },
		{ 2.5, 1, 1000, 2, 3, 4 }, { 7.0, 1, 1000, 5, 7, 9 },
		{ 17.0, 1, 1000, 14, 17, 20 }, { 37.0, 1, 1000, 33, 37, 41 },
		{ 2.0, 2, 1000, 2, 2, 2 }, { 2.0, 3, 1000, 3, 4, 4 },
		{ 2.0, 3, 3, 3, 3, 3 }, { 6.9, 3, 1000, 5, 7, 9 },
		{ 7.0, 3, 1000, 5, 7, 9 }, { 7.1, 3, 1000, 5, 7, 9 },
		{ 19.9, 3, 1000, 17, 20, 23 }, { 20.0, 3, 1000, 17, 20, 23 },
		{ 20.1, 3, 1000, 17, 20, 23 }, { 100.0, 101, 1000, 101, 105, 108 },
		{ 100.0, 1, 99, 92, 96, 99 }, { 100.0, 97, 103, 97, 100, 103 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		ck_assert_int_eq(fsrs_fuzz_interval(t[i].ivl, t[i].min,
		    t[i].max, 0.0), t[i].f0);
		ck_assert_int_eq(fsrs_fuzz_interval(t[i].ivl, t[i].min,
		    t[i].max, 0.5), t[i].f5);
		ck_assert_int_eq(fsrs_fuzz_interval(t[i].ivl, t[i].min,
		    t[i].max, 0.99), t[i].f99);
	}
	ck_assert_int_eq(fsrs_fuzz_interval(1.5, 1, 100, -1), 2);
	ck_assert_int_eq(fsrs_fuzz_interval(0.1, 1, 100, -1), 1);
	ck_assert_int_eq(fsrs_fuzz_interval(101, 1, 100, -1), 100);
}
END_TEST

START_TEST(test_fuzz_factor)
{
	double f, lo = 1, hi = 0;
	int64_t id;

	ck_assert_double_eq(fsrs_fuzz_factor(42, 3), fsrs_fuzz_factor(42, 3));
	ck_assert_double_eq(fsrs_fuzz_factor(42, 3), fsrs_fuzz_factor(43, 2));
	ck_assert_double_ne(fsrs_fuzz_factor(42, 3), fsrs_fuzz_factor(42, 4));
	for (id = 0; id < 10000; id++) {
		f = fsrs_fuzz_factor(id * 7919, 0);
		ck_assert(f >= 0.0 && f < 1.0);
		lo = fmin(lo, f);
		hi = fmax(hi, f);
	}
	ck_assert(lo < 0.001 && hi > 0.999);
}
END_TEST

/* Good on a review card of S = 10.971 (11 days): fuzzed into [9, 13]. */
START_TEST(test_fuzz_in_scheduler)
{
	static const int r[2] = { 3, 3 };
	struct fsrs_card c, a, b;
	int seen[15] = { 0 }, lo, hi, ivl, n = 0;
	int64_t id;

	fsrs_fuzz_bounds(fsrs_raw_interval(P.w, 10.971048, 0.9), 1, 36500,
	    &lo, &hi);
	ck_assert_int_eq(lo, 9);
	ck_assert_int_eq(hi, 13);
	P.enable_fuzz = 1;
	for (id = 1; id <= 300; id++) {
		run(&P, r, 2, id, &c, NULL);
		fsrs_review(&P, &c, FSRS_GOOD, c.due, &a, NULL);
		fsrs_review(&P, &c, FSRS_GOOD, c.due, &b, NULL);
		ck_assert_mem_eq(&a, &b, sizeof a);
		ck_assert_double_eq_tol(a.stability, 10.971048, TOL);
		ivl = (int)((a.due - a.last_review) / 86400);
		ck_assert_int_ge(ivl, 9);
		ck_assert_int_le(ivl, 13);
		seen[ivl]++;
	}
	for (ivl = 9; ivl <= 13; ivl++)
		n += seen[ivl] > 0;
	ck_assert_int_eq(n, 5);
	/* The interval before graduation (2.3 days) is below the fuzz range. */
	run(&P, r, 2, 77, &c, NULL);
	ck_assert_int_eq((c.due - c.last_review) / 86400, 2);
}
END_TEST

/* --- log and rebuild ----------------------------------------------------- */

static void
check_rebuild(int fuzz)
{
	struct fsrs_card live, again;
	struct fsrs_log log[40];
	int64_t now = T0;
	int i, g;

	P.enable_fuzz = fuzz;
	fsrs_card_new(&live, 99, now);
	for (i = 0; i < 40; i++) {
		g = 1 + (i * 7 + i / 3) % 4;
		fsrs_review(&P, &live, g, now, &live, &log[i]);
		if (i > 0)
			ck_assert_double_eq(log[i].s_before, log[i - 1].s_after);
		ck_assert_double_eq(log[i].s_after, live.stability);
		ck_assert_double_eq(log[i].d_after, live.difficulty);
		ck_assert_int_eq(log[i].state_after, live.state);
		ck_assert_int_eq(log[i].scheduled_s, live.due - now);
		/* Sometimes late, sometimes early, sometimes on time. */
		now = live.due + (i % 3 - 1) * 3 * 86400 * (i % 5 == 0);
	}
	ck_assert_int_eq(fsrs_rebuild(&P, 99, log, 40, &again), 0);
	ck_assert_mem_eq(&live, &again, sizeof live);
}

START_TEST(test_rebuild)
{
	check_rebuild(0);
	check_rebuild(1);
}
END_TEST

START_TEST(test_log_fields)
{
	static const int r[4] = { 3, 3, 3, 1 };
	struct fsrs_card c;
	struct fsrs_log log[4];

	run(&P, r, 4, 1, &c, log);
	ck_assert_int_eq(log[0].state_before, FSRS_NEW);
	ck_assert_int_eq(log[0].state_after, FSRS_LEARNING);
	ck_assert_double_eq(log[0].s_before, 0.0);
	ck_assert_int_eq(log[0].elapsed_days, 0);
	ck_assert_int_eq(log[0].scheduled_s, 600);
	ck_assert_int_eq(log[0].scheduled_days, 0);
	ck_assert_int_eq(log[1].scheduled_days, 2);
	ck_assert_int_eq(log[2].elapsed_days, 2);
	ck_assert_int_eq(log[3].elapsed_days, 11);
	ck_assert_int_eq(log[3].rating, FSRS_AGAIN);
	ck_assert_int_eq(log[3].state_before, FSRS_REVIEW);
	ck_assert_int_eq(log[3].state_after, FSRS_RELEARNING);
	ck_assert_double_eq_tol(log[3].d_before, 2.104331, TOL);
	ck_assert_double_eq_tol(log[3].d_after, 7.389976, TOL);
	ck_assert_int_eq(log[3].review_time, T0 + 600 + 13 * 86400);
	ck_assert_int_eq(fsrs_rebuild(&P, 1, log, 0, &c), 0);
	ck_assert_int_eq(c.state, FSRS_NEW);
	log[2].rating = 9;
	ck_assert_int_eq(fsrs_rebuild(&P, 1, log, 4, &c), -1);
}
END_TEST

/* --- names and formatting ------------------------------------------------ */

START_TEST(test_format_interval)
{
	static const struct {
		int64_t		 secs;
		const char	*want;
	} t[] = {
		{ -5, "0s" }, { 45, "45s" }, { 60, "1m" }, { 330, "6m" },
		{ 600, "10m" }, { 5400, "1.5h" }, { 7200, "2h" },
		{ 86400, "1d" }, { 3 * 86400, "3d" }, { 30 * 86400, "30d" },
		{ 64 * 86400, "2.1mo" }, { 183 * 86400, "6mo" },
		{ 365 * 86400, "1y" }, { 511 * 86400, "1.4y" },
		{ 36500LL * 86400, "100y" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		ck_assert_str_eq(fsrs_format_interval(t[i].secs, buf,
		    sizeof buf), t[i].want);
	ck_assert_str_eq(fsrs_rating_name(FSRS_HARD), "hard");
	ck_assert_str_eq(fsrs_rating_name(0), "?");
	ck_assert_str_eq(fsrs_state_name(FSRS_RELEARNING), "relearning");
	ck_assert_str_eq(fsrs_state_name(FSRS_NEW), "new");
}
END_TEST

static Suite *
fsrs_suite(void)
{
	Suite *s = suite_create("fsrs");
	TCase *tc;

	tc = tcase_create("reference vectors");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_pyfsrs_trace);
	tcase_add_test(tc, test_retrievability_vectors);
	tcase_add_test(tc, test_next_interval_vector);
	tcase_add_test(tc, test_initial_state);
	tcase_add_test(tc, test_memory_formulas);
	suite_add_tcase(s, tc);

	tc = tcase_create("parameters");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_legacy_weights);
	tcase_add_test(tc, test_bad_params);
	suite_add_tcase(s, tc);

	tc = tcase_create("learning steps");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_new_card_ratings);
	tcase_add_test(tc, test_anki_steps_table);
	tcase_add_test(tc, test_no_steps);
	tcase_add_test(tc, test_lapse_cycle);
	tcase_add_test(tc, test_thousand_agains);
	tcase_add_test(tc, test_repeated_easy);
	suite_add_tcase(s, tc);

	tc = tcase_create("edge cases");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_retention_extremes);
	tcase_add_test(tc, test_year_late);
	tcase_add_test(tc, test_max_interval);
	tcase_add_test(tc, test_preview_and_retrievability);
	suite_add_tcase(s, tc);

	tc = tcase_create("fuzz");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_anki_fuzz_table);
	tcase_add_test(tc, test_fuzz_factor);
	tcase_add_test(tc, test_fuzz_in_scheduler);
	suite_add_tcase(s, tc);

	tc = tcase_create("log and rebuild");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_rebuild);
	tcase_add_test(tc, test_log_fields);
	suite_add_tcase(s, tc);

	tc = tcase_create("formatting");
	tcase_add_test(tc, test_format_interval);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(fsrs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
