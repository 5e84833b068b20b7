/*
 * check_schedule.c - the pipeline schedules: their op orders, their timing
 * and the bubble shares of reference/costmodel.md §e.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
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
	ck_assert_uint_eq(s.n_ops[1], 8);
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

/* Stage st's order as text: F forward, B whole backward, b input
 * gradients only, W weight gradients, each with its microbatch; a '+'
 * after a forward that starts together with the next op. */
static const char *
order_text(const struct sched *s, int st, char *buf, size_t n)
{
	static const char pass[] = "FBbW";
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n_ops[st] && len + 8 < n; i++) {
		const struct sched_op *o = op_at(s, st, (int)i);

		len += (size_t)snprintf(buf + len, n - len, "%s%c%d%s",
		    i > 0 ? " " : "", pass[o->pass], o->mb, o->pair ? "+" : "");
	}
	return buf;
}

/*
 * ZB-H1 as the zero-bubble authors patch Megatron's 1F1B (zb-h1-quick-
 * start): stage 0 is 1F1B; stage s splits the backward of its first s
 * steady micro-batches, of the last and of the drain's, and runs the W
 * passes in the drain. The orders below come from that loop, transcribed
 * apart from schedule.c and run for p = 4, m = 8.
 */
START_TEST(order_zbh1)
{
	struct sched s;
	char buf[512];

	ck_assert_int_eq(sched_build(PIPE_ZB_H1, 4, 8, 1, &s, NULL), 0);
	ck_assert_str_eq(order_text(&s, 0, buf, sizeof buf),
	    "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7");
	ck_assert_str_eq(order_text(&s, 1, buf, sizeof buf),
	    "F0 F1 F2 b0 F3 B1 F4 B2 F5 B3 F6 B4 F7 b5 W0 b6 W5 b7 W6 W7");
	ck_assert_str_eq(order_text(&s, 3, buf, sizeof buf),
	    "F0 b0 F1 b1 F2 b2 F3 B3 F4 B4 F5 B5 F6 B6 F7 b7 W0 W1 W2 W7");
	sched_free(&s);
}
END_TEST

/*
 * DualPipe.step (deepseek-ai/DualPipe, dualpipe/dualpipe.py) for p = 4,
 * m = 8, transcribed apart from schedule.c and run: micro-batches 0-3
 * enter at device 0, 4-7 at device 3; device 0 holds stage 0 of the
 * first and stage 3 of the second direction.
 */
START_TEST(order_dualpipe)
{
	struct sched s;
	char buf[512];

	ck_assert_int_eq(sched_build(PIPE_DUALPIPE, 4, 8, 1, &s, NULL), 0);
	ck_assert_str_eq(order_text(&s, 0, buf, sizeof buf),
	    "F0 F1 F2 F4 b4 W4 F5 F3+ B5 F6+ B0 B6 F7+ B1 B7 b2 W2 b3 W3");
	ck_assert_str_eq(order_text(&s, 3, buf, sizeof buf),
	    "F4 F5 F6 F0 b0 W0 F1 F7+ B1 F2+ B4 B2 F3+ B5 B3 b6 W6 b7 W7");
	/* a middle device runs its first pair apart */
	ck_assert_str_eq(order_text(&s, 1, buf, sizeof buf),
	    "F0 F4 F1 F5 F2 B4 F6+ B0 F3+ B5 F7+ B1 B6 B2 b7 b3 W7 W3");
	ck_assert_int_eq(sched_vstage(&s, 0, op_at(&s, 0, 3)), 3);
	ck_assert_int_eq(sched_stage_of(&s, 3, 4), 0);
	ck_assert_int_eq(sched_stage_of(&s, 3, 3), 3);
	sched_free(&s);
}
END_TEST

/* Split schedules: one forward and one backward (whole or B) per
 * (microbatch, virtual stage), on the stage that holds it, and one W
 * after every B, later on the same stage. */
START_TEST(split_every_op_once)
{
	static const int cfg[][3] = {
		{ PIPE_ZB_H1, 4, 8 }, { PIPE_ZB_H1, 2, 3 }, { PIPE_ZB_H1, 8, 8 },
		{ PIPE_ZB_H1, 3, 9 }, { PIPE_DUALPIPE, 4, 8 },
		{ PIPE_DUALPIPE, 2, 4 }, { PIPE_DUALPIPE, 8, 20 },
		{ PIPE_DUALPIPE, 6, 14 }
	};
	int f[64][8], b[64][8], bi[64][8], w[64][8], vs;
	struct sched s;
	size_t c, i;
	int st, mb;

	for (c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
		memset(f, 0, sizeof f);
		memset(b, 0, sizeof b);
		memset(bi, 0, sizeof bi);
		memset(w, 0, sizeof w);
		ck_assert_int_eq(sched_build(cfg[c][0], cfg[c][1], cfg[c][2], 1,
		    &s, NULL), 0);
		for (st = 0; st < s.p; st++)
			for (i = 0; i < s.n_ops[st]; i++) {
				const struct sched_op *o = op_at(&s, st, (int)i);

				vs = sched_vstage(&s, st, o);
				ck_assert_int_eq(sched_stage_of(&s, vs, o->mb),
				    st);
				if (o->pass == SCHED_F)
					f[o->mb][vs]++;
				else if (o->pass == SCHED_B)
					b[o->mb][vs]++;
				else if (o->pass == SCHED_BI)
					bi[o->mb][vs]++;
				else {
					ck_assert_int_eq(bi[o->mb][vs], 1);
					w[o->mb][vs]++;
				}
			}
		for (mb = 0; mb < s.m; mb++)
			for (vs = 0; vs < sched_nvstages(&s); vs++)
				ck_assert(f[mb][vs] == 1 &&
				    b[mb][vs] + bi[mb][vs] == 1 &&
				    w[mb][vs] == bi[mb][vs]);
		sched_free(&s);
	}
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
			for (i = 0; i < s.n_ops[st]; i++) {
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
measured_bubble(struct sched *s, double tf, double tb, double tw)
{
	double f[64], b[64], w[64], span, busy;
	int k;

	for (k = 0; k < sched_nvstages(s); k++) {
		f[k] = tf / s->v;
		b[k] = tb / s->v;
		w[k] = tw / s->v;
	}
	span = sched_time(s, f, b, w, NULL);
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
		got = measured_bubble(&s, 1.0, 2.0, 0.0);
		want = pipe_bubble_fraction(cfg[c][1], cfg[c][2], cfg[c][3]);
		ck_assert_msg(fabs(got - want) < 1e-9, "%s p=%d m=%d v=%d: "
		    "%.12f vs %.12f", pipe_schedule_name(cfg[c][0]), cfg[c][1],
		    cfg[c][2], cfg[c][3], got, want);
		sched_free(&s);
	}
}
END_TEST

/*
 * With F = B = W (a whole backward of 2 with a weight part of 1) ZB-H1
 * idles (p-1) a stage, a third of 1F1B's 3(p-1) (arXiv 2311.09241 §3.1),
 * and DualPipe (p/2-1)(F&B + B - 3W) = p-2, the DualPipe README's bubble;
 * sched_bubble_share gives the same shares.
 */
START_TEST(split_bubbles)
{
	static const int cfg[][3] = {
		{ PIPE_ZB_H1, 4, 8 }, { PIPE_ZB_H1, 2, 8 }, { PIPE_ZB_H1, 8, 32 },
		{ PIPE_ZB_H1, 4, 4 }, { PIPE_ZB_H1, 3, 9 },
		{ PIPE_DUALPIPE, 4, 8 }, { PIPE_DUALPIPE, 8, 16 },
		{ PIPE_DUALPIPE, 8, 32 }, { PIPE_DUALPIPE, 6, 12 },
		{ PIPE_DUALPIPE, 2, 4 }
	};
	struct sched s, one;
	double got, want, idle, idle_1f1b;
	size_t c;
	int p, m;

	for (c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
		p = cfg[c][1];
		m = cfg[c][2];
		ck_assert_int_eq(sched_build(cfg[c][0], p, m, 1, &s, NULL), 0);
		got = measured_bubble(&s, 1.0, 2.0, 1.0);
		idle = cfg[c][0] == PIPE_ZB_H1 ? p - 1.0 : p - 2.0;
		want = idle / (3.0 * m + idle);
		ck_assert_msg(fabs(got - want) < 1e-12, "%s p=%d m=%d: %.12f "
		    "vs %.12f", pipe_schedule_name(cfg[c][0]), p, m, got, want);
		ck_assert_double_eq_tol(sched_bubble_share(cfg[c][0], p, m, 1,
		    1.0), want, 1e-12);
		if (cfg[c][0] == PIPE_ZB_H1) {
			ck_assert_int_eq(sched_build(PIPE_1F1B, p, m, 1, &one,
			    NULL), 0);
			got = measured_bubble(&one, 1.0, 2.0, 1.0);
			idle_1f1b = got * 3.0 * m / (1.0 - got);
			ck_assert_double_eq_tol(idle_1f1b, 3.0 * idle, 1e-9);
			sched_free(&one);
		}
		sched_free(&s);
	}
}
END_TEST

/* When W takes no longer than F or B - W (so in the toy, whose W is F
 * without the attention scores), ZB-H1 idles (p-1)(F + B - 2W), B whole. */
START_TEST(zbh1_unequal)
{
	static const double fbw[][3] = {
		{ 1.0, 2.0, 0.8 }, { 1.0, 2.0, 0.5 }, { 1.0, 3.0, 1.0 },
		{ 1.2, 2.2, 1.0 }
	};
	struct sched s;
	double got, idle, busy;
	size_t c;

	ck_assert_int_eq(sched_build(PIPE_ZB_H1, 4, 8, 1, &s, NULL), 0);
	for (c = 0; c < sizeof fbw / sizeof fbw[0]; c++) {
		got = measured_bubble(&s, fbw[c][0], fbw[c][1], fbw[c][2]);
		busy = 8 * (fbw[c][0] + fbw[c][1]);
		idle = 3 * (fbw[c][0] + fbw[c][1] - 2 * fbw[c][2]);
		ck_assert_double_eq_tol(got, idle / (busy + idle), 1e-12);
	}
	sched_free(&s);
}
END_TEST

START_TEST(makespan)
{
	struct sched s;
	double f[4] = { 1, 1, 1, 1 }, b[4] = { 2, 2, 2, 2 };

	/* [NAR21] eq. 1: (m + p - 1)(t_f + t_b). */
	ck_assert_int_eq(sched_build(PIPE_1F1B, 4, 8, 1, &s, NULL), 0);
	ck_assert_double_eq_tol(sched_time(&s, f, b, NULL, NULL), 33.0, 1e-12);
	sched_free(&s);
	/* Interleaved: (m + (p-1)/v)(t_f + t_b) with chunks of t/v. */
	ck_assert_int_eq(sched_build(PIPE_INTERLEAVED, 2, 4, 2, &s, NULL), 0);
	f[0] = f[1] = f[2] = f[3] = 0.5;
	b[0] = b[1] = b[2] = b[3] = 1.0;
	ck_assert_double_eq_tol(sched_time(&s, f, b, NULL, NULL), 13.5, 1e-12);
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
	ck_assert(sched_time(&s, f, b, NULL, c) > 0);
	for (st = 0; st < 4; st++)
		for (i = 0; i < s.n_ops[st]; i++) {
			const struct sched_op *o = op_at(&s, st, (int)i);

			if (i > 0)
				ck_assert(o->start >= op_at(&s, st,
				    (int)i - 1)->end);
			s2 = o->forward ? st - 1 : st + 1;
			if (s2 < 0 || s2 > 3)
				continue;
			for (j = 0; j < s.n_ops[s2]; j++) {
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
	ck_assert_int_eq(sched_build(PIPE_DUALPIPE, 3, 6, 1, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "DualPipe"));
	ck_assert_int_eq(sched_build(PIPE_DUALPIPE, 4, 6, 1, &s, &err), -1);
	ck_assert_int_eq(sched_build(PIPE_DUALPIPE, 4, 9, 1, &s, &err), -1);
	ck_assert_int_eq(sched_build(PIPE_DUALPIPEV, 4, 8, 1, &s, &err), -1);
	ck_assert_int_eq(sched_build(PIPE_ZB_H1, 4, 8, 2, &s, &err), -1);
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
	tcase_add_test(tc, order_zbh1);
	tcase_add_test(tc, order_dualpipe);
	tcase_add_test(tc, split_every_op_once);
	suite_add_tcase(s, tc);
	tc = tcase_create("timing and bubble");
	tcase_add_test(tc, bubble_matches_formula);
	tcase_add_test(tc, split_bubbles);
	tcase_add_test(tc, zbh1_unequal);
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
