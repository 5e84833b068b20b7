/*
 * check_review.c - the review queue, limits, rollover, backlog, cram,
 * interval labels, statistics and TSV decks (core/review.h).
 *
 * Times are built from a fixed UTC instant so that every day boundary is
 * known: T0 = 2024-03-10 12:00:00 UTC.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/srs/review.h"

#define T0	((int64_t)1710072000)	/* 2024-03-10 12:00:00 UTC */
#define H	3600
#define D	86400

static struct fsrs_params P;

static void
setup(void)
{
	fsrs_params_default(&P);
	P.enable_fuzz = 0;
}

/* A card in the given state, due at due, with stability s. */
static struct review_item
item(const char *id, enum fsrs_state st, int64_t due, double s, int64_t added)
{
	struct review_item it;

	memset(&it, 0, sizeof it);
	it.id = id;
	it.added = added;
	fsrs_card_new(&it.card, review_card_seed(id), added);
	if (st != FSRS_NEW) {
		it.card.state = st;
		it.card.stability = s;
		it.card.difficulty = 5;
		it.card.due = due;
		it.card.last_review = due - (int64_t)(s * D);
		it.card.reps = 3;
	}
	return it;
}

static struct review_settings
settings(int n, int r, int roll)
{
	struct review_settings s = { n, r, roll };

	return s;
}

START_TEST(test_day_rollover)
{
	/* 2024-03-10 03:59 UTC still belongs to March 9 with rollover 4. */
	int64_t mar10 = 19792;	/* days since the epoch */

	ck_assert_int_eq(review_day(T0 - 8 * H - 60, 0, 4), mar10 - 1);
	ck_assert_int_eq(review_day(T0 - 8 * H, 0, 4), mar10);
	ck_assert_int_eq(review_day(T0 - 8 * H, 0, 0), mar10);
	ck_assert_int_eq(review_day(T0 - 12 * H - 1, 0, 0), mar10 - 1);
	/* UTC+2: local 04:00 is 02:00 UTC. */
	ck_assert_int_eq(review_day(T0 - 10 * H, 2 * H, 4), mar10);
	ck_assert_int_eq(review_day(T0 - 10 * H - 1, 2 * H, 4), mar10 - 1);
	ck_assert_int_eq(review_day_start(mar10, 0, 4), T0 - 8 * H);
	ck_assert_int_eq(review_day_start(mar10, 2 * H, 4), T0 - 10 * H);
	/* Before the epoch the floor still holds. */
	ck_assert_int_eq(review_day(-1, 0, 0), -1);
}
END_TEST

START_TEST(test_queue_order)
{
	struct review_item it[8];
	struct review_settings s = settings(20, 200, 4);
	struct review_today t = { 0, 0 };
	struct review_queue q;

	it[0] = item("new-a", FSRS_NEW, 0, 0, T0 - 300);
	it[1] = item("rev-late", FSRS_REVIEW, T0 - H, 10, 0);
	it[2] = item("learn-now", FSRS_LEARNING, T0 - 60, 1, 0);
	it[3] = item("rev-early", FSRS_REVIEW, T0 - 2 * D, 10, 0);
	it[4] = item("new-b", FSRS_NEW, 0, 0, T0 - 200);
	it[5] = item("learn-ahead", FSRS_RELEARNING, T0 + 600, 1, 0);
	it[6] = item("learn-later", FSRS_LEARNING, T0 + 3 * H, 1, 0);
	it[7] = item("rev-tomorrow", FSRS_REVIEW, T0 + D, 10, 0);
	ck_assert_int_eq(review_queue_build(&q, it, 8, &P, &s, &t, T0, 0), 0);
	ck_assert_uint_eq(q.n, 6);
	ck_assert_str_eq(it[q.order[0]].id, "learn-now");
	ck_assert_str_eq(it[q.order[1]].id, "rev-early");
	ck_assert_str_eq(it[q.order[2]].id, "rev-late");
	ck_assert_str_eq(it[q.order[3]].id, "new-a");
	ck_assert_str_eq(it[q.order[4]].id, "new-b");
	ck_assert_str_eq(it[q.order[5]].id, "learn-ahead");
	ck_assert_int_eq(q.n_learning, 3);
	ck_assert_int_eq(q.n_review, 2);
	ck_assert_int_eq(q.n_new, 2);
	ck_assert_int_eq(q.backlog, 0);
	ck_assert_int_eq(q.next_learning, T0 + 600);
	review_queue_free(&q);
}
END_TEST

START_TEST(test_limits)
{
	struct review_item it[10];
	struct review_settings s = settings(3, 200, 4);
	struct review_today t = { 0, 0 };
	struct review_queue q;
	char ids[10][8];
	int i;

	for (i = 0; i < 8; i++) {
		snprintf(ids[i], sizeof ids[i], "n%d", i);
		it[i] = item(ids[i], FSRS_NEW, 0, 0, T0 - 100 + i);
	}
	it[8] = item("r1", FSRS_REVIEW, T0 - D, 5, 0);
	it[9] = item("r2", FSRS_REVIEW, T0 - D, 5, 0);
	ck_assert_int_eq(review_queue_build(&q, it, 10, &P, &s, &t, T0, 0), 0);
	ck_assert_int_eq(q.n_new, 3);
	ck_assert_str_eq(it[q.order[2]].id, "n0");	/* added order */
	review_queue_free(&q);
	/* Two new cards already seen today: one left. */
	t.new_done = 2;
	review_queue_build(&q, it, 10, &P, &s, &t, T0, 0);
	ck_assert_int_eq(q.n_new, 1);
	review_queue_free(&q);
	/* More seen than the limit (the limit was lowered): none, not -1. */
	t.new_done = 9;
	review_queue_build(&q, it, 10, &P, &s, &t, T0, 0);
	ck_assert_int_eq(q.n_new, 0);
	ck_assert_uint_eq(q.n, 2);
	review_queue_free(&q);
	/* Anki v3: the review limit caps new cards too. */
	t.new_done = 0;
	s = settings(20, 3, 4);
	review_queue_build(&q, it, 10, &P, &s, &t, T0, 0);
	ck_assert_int_eq(q.n_review, 2);
	ck_assert_int_eq(q.n_new, 1);
	review_queue_free(&q);
	t.reviews_done = 3;
	review_queue_build(&q, it, 10, &P, &s, &t, T0, 0);
	ck_assert_int_eq(q.n_review, 0);
	ck_assert_int_eq(q.n_new, 0);
	ck_assert_int_eq(q.backlog, 2);
	ck_assert_int_eq(q.backlog_days, -1);	/* limit 0 left today */
	review_queue_free(&q);
}
END_TEST

START_TEST(test_rollover_due)
{
	struct review_item it[2];
	struct review_settings s = settings(20, 200, 4);
	struct review_today t = { 0, 0 };
	struct review_queue q;
	/* The day of T0 ends at 2024-03-11 04:00 UTC = T0 + 16 h. */
	int64_t end = T0 + 16 * H;

	it[0] = item("before", FSRS_REVIEW, end - 1, 5, 0);
	it[1] = item("after", FSRS_REVIEW, end, 5, 0);
	review_queue_build(&q, it, 2, &P, &s, &t, T0, 0);
	ck_assert_uint_eq(q.n, 1);
	ck_assert_str_eq(it[q.order[0]].id, "before");
	review_queue_free(&q);
	/* Rollover at midnight: the day ends 12 h after T0. */
	s.rollover_hour = 0;
	review_queue_build(&q, it, 2, &P, &s, &t, T0, 0);
	ck_assert_uint_eq(q.n, 0);
	review_queue_free(&q);
	/* One minute past 04:00 next day, both are due. */
	s.rollover_hour = 4;
	review_queue_build(&q, it, 2, &P, &s, &t, end + 60, 0);
	ck_assert_uint_eq(q.n, 2);
	review_queue_free(&q);
}
END_TEST

START_TEST(test_backlog)
{
	struct review_item it[10];
	struct review_settings s = settings(20, 4, 4);
	struct review_today t = { 0, 0 };
	struct review_queue q;
	char ids[10][8];
	double r, prev = -1;
	size_t i;

	/* All due 30 days ago; stability i+1 days: lower S, lower R. Put them
	 * in an order unrelated to R. */
	for (i = 0; i < 10; i++) {
		snprintf(ids[i], sizeof ids[i], "b%zu", i);
		it[i] = item(ids[i], FSRS_REVIEW, T0 - 30 * D + (int64_t)i,
		    (double)((i * 7) % 10 + 1), 0);
	}
	ck_assert_int_eq(review_queue_build(&q, it, 10, &P, &s, &t, T0, 0), 0);
	ck_assert_int_eq(q.due_total, 10);
	ck_assert_int_eq(q.n_review, 4);
	ck_assert_int_eq(q.backlog, 6);
	ck_assert_int_eq(q.backlog_days, 2);
	ck_assert_uint_eq(q.n, 4);
	for (i = 0; i < q.n; i++) {
		r = fsrs_retrievability(&P, &it[q.order[i]].card, T0);
		ck_assert(r >= prev);
		prev = r;
		/* The four lowest stabilities are 1, 2, 3, 4 days. */
		ck_assert(it[q.order[i]].card.stability <= 4.0);
	}
	review_queue_free(&q);
}
END_TEST

START_TEST(test_cram)
{
	struct review_item it[3];
	struct review_queue q;

	it[0] = item("c-new", FSRS_NEW, 0, 0, T0);
	it[1] = item("c-strong", FSRS_REVIEW, T0 + 50 * D, 100, 0);
	it[2] = item("c-weak", FSRS_REVIEW, T0 - 5 * D, 2, 0);
	ck_assert_int_eq(review_cram_build(&q, it, 3, &P, T0), 0);
	ck_assert_uint_eq(q.n, 3);
	ck_assert_str_eq(it[q.order[0]].id, "c-weak");
	ck_assert_str_eq(it[q.order[2]].id, "c-new");
	review_cram_rate(&q, FSRS_AGAIN);
	ck_assert_uint_eq(q.n, 3);
	ck_assert_str_eq(it[q.order[2]].id, "c-weak");
	review_cram_rate(&q, FSRS_GOOD);
	review_cram_rate(&q, FSRS_EASY);
	ck_assert_uint_eq(q.n, 1);
	review_cram_rate(&q, FSRS_HARD);
	ck_assert_uint_eq(q.n, 0);
	review_cram_rate(&q, FSRS_HARD);	/* empty: nothing happens */
	review_queue_free(&q);
}
END_TEST

START_TEST(test_labels)
{
	struct fsrs_card c;
	char l[4][16];

	fsrs_card_new(&c, 1, T0);
	ck_assert_int_eq(review_labels(&P, &c, T0, l), 0);
	ck_assert_str_eq(l[0], "1m");
	ck_assert_str_eq(l[1], "6m");	/* (1 + 10) / 2 = 5.5 min */
	ck_assert_str_eq(l[2], "10m");
	ck_assert_str_eq(l[3], "8d");
	c.state = (enum fsrs_state)9;
	ck_assert_int_eq(review_labels(&P, &c, T0, l), -1);
}
END_TEST

START_TEST(test_figures)
{
	struct review_figures f;
	struct fsrs_card c, out;
	struct fsrs_log l1, l2;

	memset(&f, 0, sizeof f);
	fsrs_card_new(&c, 1, T0);
	fsrs_review(&P, &c, FSRS_EASY, T0, &out, &l1);
	fsrs_review(&P, &out, FSRS_AGAIN, T0 + 9 * D, &out, &l2);
	review_figures_add(&f, &l1, 10, 0);
	review_figures_add(&f, &l2, 5, 0);
	ck_assert_int_eq(f.rated, 2);
	ck_assert_int_eq(f.new_seen, 1);
	ck_assert_int_eq(f.reviews, 1);
	ck_assert_int_eq(f.reviews_passed, 0);
	ck_assert_int_eq(f.by_rating[0], 1);
	ck_assert_int_eq(f.seconds, 15);
	review_figures_add(&f, &l2, 5, 1);
	ck_assert_int_eq(f.rated, 1);
	ck_assert_int_eq(f.reviews, 0);
	ck_assert_int_eq(f.by_rating[0], 0);
}
END_TEST

/* --- statistics ------------------------------------------------------ */

struct lines {
	char	buf[16384];
	size_t	n;
	int	count;
	size_t	widest;
};

static void
grab(const char *s, size_t n, void *arg)
{
	struct lines *l = arg;

	if (l->n + n + 2 < sizeof l->buf) {
		memcpy(l->buf + l->n, s, n);
		l->n += n;
		l->buf[l->n++] = '\n';
		l->buf[l->n] = '\0';
	}
	if (n > l->widest)
		l->widest = n;
	l->count++;
}

START_TEST(test_stats)
{
	struct review_stats s;
	struct lines l;

	review_stats_init(&s, T0, 0, 4);
	review_stats_add_due(&s, T0 - 5 * D, 0, 4);	/* overdue: today */
	review_stats_add_due(&s, T0 + H, 0, 4);
	review_stats_add_due(&s, T0 + 2 * D, 0, 4);
	review_stats_add_due(&s, T0 + 40 * D, 0, 4);	/* beyond */
	ck_assert_int_eq(s.forecast[0], 2);
	ck_assert_int_eq(s.forecast[2], 1);
	review_stats_add_reviews(&s, T0, 3, 0, 4);
	review_stats_add_reviews(&s, T0 - D, 2, 0, 4);
	review_stats_add_reviews(&s, T0 - 3 * D, 1, 0, 4);
	review_stats_add_reviews(&s, T0 - 400 * D, 9, 0, 4);	/* too old */
	ck_assert_int_eq(s.heatmap[REVIEW_HEATMAP_DAYS - 1], 3);
	ck_assert_int_eq(s.heatmap[REVIEW_HEATMAP_DAYS - 2], 2);
	ck_assert_int_eq(review_stats_streak(&s), 2);
	ck_assert_int_eq(review_age_bucket(0), 0);
	ck_assert_int_eq(review_age_bucket(20), 1);
	ck_assert_int_eq(review_age_bucket(21), 2);
	ck_assert_int_eq(review_age_bucket(400), 3);
	s.ages[3].n = 8;
	s.ages[3].passed = 6;
	s.total_reviews = 6;
	memset(&l, 0, sizeof l);
	review_stats_lines(&s, 80, 0, grab, &l);
	ck_assert_ptr_nonnull(strstr(l.buf, "Due in the next 30 days: 3, today 2"));
	ck_assert_ptr_nonnull(strstr(l.buf, "Reviews in the past year: 6"));
	ck_assert_ptr_nonnull(strstr(l.buf, "75.0% (8)"));
	ck_assert_ptr_nonnull(strstr(l.buf, "streak: 2 days"));
	ck_assert(l.widest <= 80);
	/* At the narrowest width every line still fits (ASCII glyphs). */
	memset(&l, 0, sizeof l);
	review_stats_lines(&s, 40, 0, grab, &l);
	ck_assert(l.widest <= 40);
}
END_TEST

/* --- card text ------------------------------------------------------------ */

START_TEST(test_question_card)
{
	struct content_option o[3] = {
		{ "all-reduce", 1, NULL }, { "broadcast", 0, NULL },
		{ "reduce-scatter + all-gather", 1, NULL }
	};
	struct content_question q;
	char *f, *b;

	memset(&q, 0, sizeof q);
	q.type = CONTENT_Q_MULTIPLE;
	q.prompt = "Which sum gradients?";
	q.explain = "Both end with every rank holding the sum.";
	q.options = o;
	q.n_options = 3;
	ck_assert_int_eq(review_question_card(&q, NAN, &f, &b), 0);
	/* The card carries the options it asks about (issue 14). */
	ck_assert_str_eq(f, "Which sum gradients?\n\n1) all-reduce\n"
	    "2) broadcast\n3) reduce-scatter + all-gather");
	ck_assert_str_eq(b, "1) all-reduce\n3) reduce-scatter + all-gather\n\n"
	    "Both end with every rank holding the sum.");
	free(f);
	free(b);
	memset(&q, 0, sizeof q);
	q.type = CONTENT_Q_NUMERIC;
	q.prompt = "GB?";
	q.unit = "GB";
	ck_assert_int_eq(review_question_card(&q, 112.0, &f, &b), 0);
	ck_assert_str_eq(b, "112 GB");
	free(f);
	free(b);
}
END_TEST

START_TEST(test_card_back)
{
	struct content_card k;
	char *b;

	memset(&k, 0, sizeof k);
	k.back = "About {answer} GB, {answer} again.";
	b = review_card_back(&k, NULL);
	ck_assert_str_eq(b, "About ? GB, ? again.");
	free(b);
	ck_assert_int_eq(review_card_seed("x"), review_card_seed("x"));
	ck_assert(review_card_seed("x") != review_card_seed("y"));
	ck_assert(review_card_seed("p1-three-axes") >= 0);
}
END_TEST

START_TEST(test_settings)
{
	struct review_settings s;
	struct pl_err err;

	review_settings_default(&s);
	ck_assert_int_eq(s.new_per_day, 20);
	ck_assert_int_eq(s.reviews_per_day, 200);
	ck_assert_int_eq(s.rollover_hour, 4);
	ck_assert_int_eq(review_settings_check(&s, &err), 0);
	s.rollover_hour = 24;
	ck_assert_int_eq(review_settings_check(&s, &err), -1);
	s.rollover_hour = 0;
	s.new_per_day = -1;
	ck_assert_int_eq(review_settings_check(&s, &err), -1);
}
END_TEST

static Suite *
review_suite(void)
{
	Suite *s = suite_create("review");
	TCase *q = tcase_create("queue"), *x = tcase_create("stats and text");

	tcase_add_checked_fixture(q, setup, NULL);
	tcase_add_checked_fixture(x, setup, NULL);
	tcase_add_test(q, test_day_rollover);
	tcase_add_test(q, test_queue_order);
	tcase_add_test(q, test_limits);
	tcase_add_test(q, test_rollover_due);
	tcase_add_test(q, test_backlog);
	tcase_add_test(q, test_cram);
	tcase_add_test(q, test_labels);
	tcase_add_test(q, test_figures);
	tcase_add_test(q, test_settings);
	tcase_add_test(x, test_stats);
	tcase_add_test(x, test_question_card);
	tcase_add_test(x, test_card_back);
	suite_add_tcase(s, q);
	suite_add_tcase(s, x);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(review_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
