/*
 * check_schedule.c - the pipeline schedules: their op orders, their timing
 * and the bubble shares of reference/costmodel.md §e.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/schedule.h"

static const struct sched_op *
op_at(const struct sched *s, int stage, int i)
{
	return &s->ops[(size_t)stage * s->n_per_stage + i];
}

/* Stage's op i is (forward, mb, chunk). */
static void
expect_op(const struct sched *s, int stage, int i, int fwd, int mb, int c)
{
	const struct sched_op *o = op_at(s, stage, i);

	ck_assert_msg(o->forward == fwd && o->mb == mb && o->chunk == c,
	    "stage %d op %d: got %c%d.%d, want %c%d.%d", stage, i,
	    o->forward ? 'F' : 'B', o->mb, o->chunk, fwd ? 'F' : 'B', mb, c);
}

START_TEST(order_gpipe)
{
	struct sched s;
	int i;

	ck_assert_int_eq(sched_build(PIPE_GPIPE, 3, 4, 1, &s, NULL), 0);
	ck_assert_uint_eq(s.n_per_stage, 8);
	for (i = 0; i < 4; i++) {
		expect_op(&s, 1, i, 1, i, 0);
		expect_op(&s, 1, 4 + i, 0, i, 0);
	}
	sched_free(&s);
}
END_TEST

START_TEST(order_1f1b)
{
	struct sched s;

	ck_assert_int_eq(sched_build(PIPE_1F1B, 4, 8, 1, &s, NULL), 0);
	/* Stage 0 warms up with p-1 = 3 forwards, then alternates. */
	expect_op(&s, 0, 0, 1, 0, 0);
	expect_op(&s, 0, 2, 1, 2, 0);
	expect_op(&s, 0, 3, 1, 3, 0);
	expect_op(&s, 0, 4, 0, 0, 0);
	expect_op(&s, 0, 5, 1, 4, 0);
	expect_op(&s, 0, 15, 0, 7, 0);
	/* The last stage has no warm-up: F0 B0 F1 B1 ... */
	expect_op(&s, 3, 0, 1, 0, 0);
	expect_op(&s, 3, 1, 0, 0, 0);
	expect_op(&s, 3, 2, 1, 1, 0);
	sched_free(&s);
}
END_TEST

START_TEST(order_interleaved)
{
	struct sched s;

	/* Megatron, p = 2, m = 4, v = 2: stage 0 warms up 2(p-1)+(v-1)p = 4. */
	ck_assert_int_eq(sched_build(PIPE_INTERLEAVED, 2, 4, 2, &s, NULL), 0);
	expect_op(&s, 0, 0, 1, 0, 0);
	expect_op(&s, 0, 1, 1, 1, 0);
	expect_op(&s, 0, 2, 1, 0, 1);
	expect_op(&s, 0, 3, 1, 1, 1);
	expect_op(&s, 0, 4, 1, 2, 0);
	expect_op(&s, 0, 5, 0, 0, 1);	/* first backward: the last chunk */
	ck_assert_int_eq(sched_vstage(&s, 1, op_at(&s, 0, 2)), 3);
	sched_free(&s);
}
END_TEST

/* Every (microbatch, virtual stage) runs forward and backward once. */
START_TEST(every_op_once)
{
	static const int cfg[][4] = {
		{ PIPE_GPIPE, 4, 6, 1 }, { PIPE_1F1B, 3, 2, 1 },
		{ PIPE_1F1B, 4, 8, 1 }, { PIPE_INTERLEAVED, 2, 8, 3 },
		{ PIPE_INTERLEAVED, 4, 4, 2 }
	};
	int seen[2][64][16];
	struct sched s;
	size_t i, c;
	int st;

	for (c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
		memset(seen, 0, sizeof seen);
		ck_assert_int_eq(sched_build(cfg[c][0], cfg[c][1], cfg[c][2],
		    cfg[c][3], &s, NULL), 0);
		for (st = 0; st < s.p; st++)
			for (i = 0; i < s.n_per_stage; i++) {
				const struct sched_op *o = op_at(&s, st, (int)i);

				seen[o->forward][o->mb]
				    [sched_vstage(&s, st, o)]++;
			}
		for (i = 0; i < (size_t)s.m; i++)
			for (st = 0; st < s.p * s.v; st++)
				ck_assert(seen[0][i][st] == 1 &&
				    seen[1][i][st] == 1);
		sched_free(&s);
	}
}
END_TEST

static double
measured_bubble(struct sched *s, double tf, double tb)
{
	double f[64], b[64], span, busy;
	int k;

	for (k = 0; k < s->p * s->v; k++) {
		f[k] = tf / s->v;
		b[k] = tb / s->v;
	}
	span = sched_time(s, f, b, NULL);
	ck_assert(span > 0);
	busy = (double)s->m * (tf + tb) * s->p;
	return (s->p * span - busy) / (s->p * span);
}

START_TEST(bubble_matches_formula)
{
	static const int cfg[][4] = {
		{ PIPE_GPIPE, 2, 4, 1 }, { PIPE_GPIPE, 4, 8, 1 },
		{ PIPE_GPIPE, 8, 64, 1 }, { PIPE_1F1B, 2, 8, 1 },
		{ PIPE_1F1B, 4, 8, 1 }, { PIPE_1F1B, 4, 2, 1 },
		{ PIPE_1F1B, 8, 64, 1 }, { PIPE_INTERLEAVED, 2, 4, 2 },
		{ PIPE_INTERLEAVED, 4, 8, 2 }, { PIPE_INTERLEAVED, 8, 64, 3 },
		{ PIPE_INTERLEAVED, 4, 4, 4 }, { PIPE_INTERLEAVED, 3, 9, 2 }
	};
	struct sched s;
	size_t c;
	double got, want;

	for (c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
		ck_assert_int_eq(sched_build(cfg[c][0], cfg[c][1], cfg[c][2],
		    cfg[c][3], &s, NULL), 0);
		got = measured_bubble(&s, 1.0, 2.0);
		want = pipe_bubble_fraction(cfg[c][1], cfg[c][2], cfg[c][3]);
		ck_assert_msg(fabs(got - want) < 1e-9, "%s p=%d m=%d v=%d: "
		    "%.12f vs %.12f", pipe_schedule_name(cfg[c][0]), cfg[c][1],
		    cfg[c][2], cfg[c][3], got, want);
		sched_free(&s);
	}
}
END_TEST

START_TEST(makespan)
{
	struct sched s;
	double f[4] = { 1, 1, 1, 1 }, b[4] = { 2, 2, 2, 2 };

	/* [NAR21] eq. 1: (m + p - 1)(t_f + t_b). */
	ck_assert_int_eq(sched_build(PIPE_1F1B, 4, 8, 1, &s, NULL), 0);
	ck_assert_double_eq_tol(sched_time(&s, f, b, NULL), 33.0, 1e-12);
	sched_free(&s);
	/* Interleaved: (m + (p-1)/v)(t_f + t_b) with chunks of t/v. */
	ck_assert_int_eq(sched_build(PIPE_INTERLEAVED, 2, 4, 2, &s, NULL), 0);
	f[0] = f[1] = f[2] = f[3] = 0.5;
	b[0] = b[1] = b[2] = b[3] = 1.0;
	ck_assert_double_eq_tol(sched_time(&s, f, b, NULL), 13.5, 1e-12);
	sched_free(&s);
}
END_TEST

/* With a transfer time, every op waits for its input to arrive. */
START_TEST(dependencies_with_comm)
{
	struct sched s;
	double f[4] = { 1, 1.5, 1, 2 }, b[4] = { 2, 3, 2, 4 };
	double c[4] = { 0.25, 0.25, 0.25, 0 }, dep;
	size_t i, j;
	int st, s2;

	ck_assert_int_eq(sched_build(PIPE_1F1B, 4, 6, 1, &s, NULL), 0);
	ck_assert(sched_time(&s, f, b, c) > 0);
	for (st = 0; st < 4; st++)
		for (i = 0; i < s.n_per_stage; i++) {
			const struct sched_op *o = op_at(&s, st, (int)i);

			if (i > 0)
				ck_assert(o->start >= op_at(&s, st,
				    (int)i - 1)->end);
			s2 = o->forward ? st - 1 : st + 1;
			if (s2 < 0 || s2 > 3)
				continue;
			for (j = 0; j < s.n_per_stage; j++) {
				const struct sched_op *d = op_at(&s, s2, (int)j);

				if (d->forward != o->forward || d->mb != o->mb)
					continue;
				dep = d->end + 0.25;
				ck_assert(o->start >= dep - 1e-12);
			}
		}
	sched_free(&s);
}
END_TEST

START_TEST(published_shares)
{
	/* reference/costmodel.md §e examples. */
	ck_assert_double_eq_tol(pipe_bubble_fraction(8, 64, 1), 0.098592, 5e-7);
	ck_assert_double_eq_tol(pipe_bubble_fraction(8, 64, 3), 0.035176, 5e-7);
	ck_assert_double_eq_tol(pipe_bubble_fraction(4, 8, 1), 0.272727, 5e-7);
	ck_assert_double_eq_tol(pipe_bubble_fraction(4, 8, 2), 0.157895, 5e-7);
	ck_assert_double_eq_tol(pipe_bubble_fraction(16, 32, 1), 0.319149,
	    5e-7);
}
END_TEST

START_TEST(bad_input)
{
	struct pl_err err;
	struct sched s;
	enum pipe_schedule k;

	pl_err_clear(&err);
	ck_assert_int_eq(sched_build(PIPE_INTERLEAVED, 4, 6, 2, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "multiple"));
	ck_assert_int_eq(sched_build(PIPE_1F1B, 2, 4, 2, &s, &err), -1);
	ck_assert_int_eq(sched_build(PIPE_GPIPE, 0, 4, 1, &s, &err), -1);
	ck_assert_int_eq(sched_build(PIPE_GPIPE, 2, 0, 1, &s, &err), -1);
	ck_assert_int_eq(pipe_schedule_parse("1f1b", &k), 0);
	ck_assert_int_eq(k, PIPE_1F1B);
	ck_assert_int_eq(pipe_schedule_parse("zigzag", &k), -1);
	ck_assert_str_eq(pipe_schedule_name(PIPE_INTERLEAVED), "interleaved");
}
END_TEST

static Suite *
schedule_suite(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc;

	tc = tcase_create("op orders");
	tcase_add_test(tc, order_gpipe);
	tcase_add_test(tc, order_1f1b);
	tcase_add_test(tc, order_interleaved);
	tcase_add_test(tc, every_op_once);
	suite_add_tcase(s, tc);
	tc = tcase_create("timing and bubble");
	tcase_add_test(tc, bubble_matches_formula);
	tcase_add_test(tc, makespan);
	tcase_add_test(tc, dependencies_with_comm);
	tcase_add_test(tc, published_shares);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad input");
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(schedule_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
