/*
 * check_progress_score.c - a drop's score and status read back from the
 * answers table (store/progress_score), and a defense's trade-off saved
 * with its attempt (store/scenario_tradeoff), against a real database in
 * $TMPDIR and the shipped course's drop 14 (questions and an incident).
 */
#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/course/content.h"
#include <math.h>

#include "store/cards.h"
#include "store/progress.h"
#include "store/progress_score.h"
#include "store/scenario_tradeoff.h"
#include "storefix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static struct storefix		 fx;
static struct store		*st;
static struct content_course	*course;
static const struct content_drop *d14;
static int64_t			 prof;

static void
setup(void)
{
	storefix_open(&fx, "check_score");
	st = fx.st;
	course = fx.course;
	prof = fx.prof;
	d14 = content_find_drop(course, "drop-14");
	ck_assert_ptr_nonnull(d14);
}

static void
teardown(void)
{
	fx.st = st;	/* a test may have reopened the store */
	storefix_close(&fx);
}

static int
q_int(const char *sql)
{
	return storefix_int(st, sql);
}

static void
answer(const char *qid, int correct, const char *resp, int64_t when)
{
	struct pl_err err;

	ck_assert_int_eq(store_answer_add(st, prof, "drop-14", qid, correct,
	    resp, 3.0, when, NULL, &err), 0);
}

static enum curriculum_status
status14(struct drop_score *sc)
{
	enum curriculum_status s;
	struct pl_err err;

	ck_assert_int_eq(store_drop_score(st, prof, course, d14, sc, &s, &err),
	    0);
	return s;
}

/* A review of card id at Unix time when, rated rating. */
static void
review(const char *id, int64_t when, int rating)
{
	char sql[512];

	snprintf(sql, sizeof sql, "INSERT INTO review_log (profile_id, "
	    "card_id, reviewed, rating, elapsed_days, scheduled_days, "
	    "scheduled_s, state_before, state_after, s_before, d_before, "
	    "s_after, d_after) VALUES (%lld, '%s', %lld, %d, 0, 1, 86400, 0, "
	    "2, 0, 0, 3, 5);", (long long)prof, id, (long long)when, rating);
	ck_assert_int_eq(sqlite3_exec(st->db, sql, NULL, NULL, NULL),
	    SQLITE_OK);
}

/* A question's right answer as quiz_response writes it. */
static void
right_answer(const struct content_question *q, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	if (q->type == CONTENT_Q_REVEAL) {
		snprintf(buf, size, "got");
		return;
	}
	for (i = 0; i < q->n_options; i++)
		if (q->options[i].correct)
			n += (size_t)snprintf(buf + n, size - n, "%s%zu",
			    n > 0 ? "," : "", i + 1);
	if (n == 0)
		snprintf(buf, size, "1");
}

START_TEST(read_attempted_done_mastered)
{
	struct drop_score sc;
	struct score_record *r;
	struct pl_err err;
	const char *first = NULL;
	char resp[64];
	size_t i, n;
	int64_t t = 1700000000;		/* 2023-11-14, a weekday at 22:13 */

	ck_assert_int_eq(status14(&sc), CURRICULUM_NEW);
	ck_assert_int_ge(sc.questions, 3);
	ck_assert_int_eq(sc.reveals, 1);
	ck_assert_int_eq(sc.incidents, 1);
	/* Read to the end, nothing answered: read, not done. */
	ck_assert_int_eq(store_drop_finish(st, prof, "drop-14", t, &err), 0);
	ck_assert_int_eq(status14(&sc), CURRICULUM_READ);
	/* Every question answered wrong once: attempted is not done. */
	for (i = 0; i < d14->n_blocks; i++) {
		const struct content_block *b = &d14->blocks[i];

		if (b->kind == CONTENT_QUESTION)
			answer(b->question.id, 0, b->question.type ==
			    CONTENT_Q_NUMERIC ? "0.9" : "9", ++t);
	}
	answer("scenario:defend-70b#diagnosis", 1, "1", ++t);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 0, "dp=8 tp=8 pp=1", "too short", 30, ++t, &err),
	    0);
	ck_assert_int_eq(status14(&sc), CURRICULUM_ATTEMPTED);
	ck_assert_int_eq(sc.attempted, sc.questions);
	ck_assert_int_eq(sc.earned, 0);
	/* Now each right; the first question only after a second miss. */
	for (i = 0; i < d14->n_blocks; i++) {
		const struct content_block *b = &d14->blocks[i];

		if (b->kind != CONTENT_QUESTION)
			continue;
		if (first == NULL && b->question.type != CONTENT_Q_REVEAL) {
			first = b->question.id;
			answer(first, 0, "3", ++t);
		}
		right_answer(&b->question, resp, sizeof resp);
		answer(b->question.id, 1, resp, ++t);
	}
	ck_assert_int_eq(status14(&sc), CURRICULUM_ATTEMPTED);	/* incident */
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 1, "dp=4 tp=4 pp=4", "TP 4 pays some NVLink time "
	    "for a third of the memory free", 60, ++t, &err), 0);
	ck_assert_int_eq(status14(&sc), CURRICULUM_DONE);
	ck_assert_int_eq(sc.incidents_passed, 1);
	ck_assert_int_eq(sc.done_at, t);
	/* Multiple choice and numeric are earned on the second try; the
	 * single choice and the first question (three tries) are not; the
	 * incident is (its first diagnosis was right). */
	ck_assert_int_lt(sc.earned, sc.items);
	ck_assert_int_gt(sc.earned, 0);
	ck_assert_int_eq(store_drop_records(st, prof, d14, &r, &n, &err), 0);
	for (i = 0; i < n; i++) {
		if (r[i].scenario) {
			ck_assert_str_eq(r[i].id, "defend-70b");
			ck_assert_int_eq(r[i].attempts, 2);
			ck_assert_int_eq(r[i].diagnosed, 1);
			ck_assert(r[i].earned && r[i].last_right);
			ck_assert(!r[i].first_right);
		} else if (strcmp(r[i].id, first) == 0) {
			ck_assert_int_eq(r[i].attempts, 3);
			ck_assert(!r[i].earned && !r[i].first_right);
			ck_assert(r[i].last_right && r[i].over);
		} else
			ck_assert(!r[i].first_right && r[i].right);
	}
	free(r);
	/* Mastered: every card of the drop recalled on a later day. The
	 * drop-14 deck cards, and a mistake card of its own. */
	for (i = 0, n = 0; i < course->n_cards; i++)
		if (strcmp(course->cards[i].drop, "drop-14") == 0) {
			review(course->cards[i].id, t + 60, 3);	/* same day */
			n++;
		}
	ck_assert_uint_gt(n, 0);
	ck_assert_int_eq(status14(&sc), CURRICULUM_DONE);
	ck_assert_int_eq(sc.cards, (int)n);
	ck_assert_int_eq(sc.recalled, 0);
	for (i = 0; i < course->n_cards; i++)
		if (strcmp(course->cards[i].drop, "drop-14") == 0)
			review(course->cards[i].id, t + 3 * 86400,
			    i % 2 == 0 ? 1 : 3);	/* Again is no recall */
	ck_assert_int_eq(status14(&sc), CURRICULUM_DONE);
	for (i = 0; i < course->n_cards; i++)
		if (strcmp(course->cards[i].drop, "drop-14") == 0)
			review(course->cards[i].id, t + 4 * 86400, 2);
	ck_assert_int_eq(status14(&sc), CURRICULUM_MASTERED);
	ck_assert_int_eq(sc.recalled, sc.cards);
	/* Another profile sees none of it. */
	{
		struct store_drop_progress p;
		enum curriculum_status s;
		int64_t other;

		ck_assert_int_eq(store_profile(st, "grace", 1000, &other, &err),
		    0);
		ck_assert_int_eq(store_drop_get(st, other, "drop-14", &p, &err),
		    0);
		ck_assert_int_eq(store_drop_score(st, other, course, d14, &sc,
		    &s, &err), 0);
		ck_assert_int_eq(s, CURRICULUM_NEW);
		ck_assert_int_eq(sc.attempted, 0);
	}
}
END_TEST

/* A mistake card of the drop must be recalled too. */
START_TEST(mistake_cards_count_for_mastery)
{
	struct drop_score sc;
	struct pl_err err;
	char resp[64];
	size_t i;
	int64_t t = 1700000000;
	const struct content_question *q = NULL;

	for (i = 0; i < d14->n_blocks; i++) {
		const struct content_block *b = &d14->blocks[i];

		if (b->kind != CONTENT_QUESTION)
			continue;
		if (q == NULL && b->question.type == CONTENT_Q_SINGLE)
			q = &b->question;
		right_answer(&b->question, resp, sizeof resp);
		answer(b->question.id, 1, resp, ++t);
	}
	ck_assert_ptr_nonnull(q);
	answer("scenario:defend-70b#diagnosis", 1, "1", ++t);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 1, "dp=4", "text", 60, ++t, &err), 0);
	ck_assert_int_eq(store_cards_add_question(st, prof, "drop-14", q, NAN,
	    t, &err), 0);
	for (i = 0; i < course->n_cards; i++)
		if (strcmp(course->cards[i].drop, "drop-14") == 0)
			review(course->cards[i].id, t + 2 * 86400, 3);
	ck_assert_int_eq(status14(&sc), CURRICULUM_DONE);
	ck_assert_int_eq(sc.recalled, sc.cards - 1);
	snprintf(resp, sizeof resp, "q:drop-14:%s", q->id);
	review(resp, t + 2 * 86400, 4);
	ck_assert_int_eq(status14(&sc), CURRICULUM_MASTERED);
	ck_assert_int_eq(sc.score, 1);
}
END_TEST

/*
 * Rows saved before issue 22 are rule 1 (the migration marks them): a
 * question answered right on its second try then earned; now it does
 * not, and nothing stored changes.
 */
START_TEST(old_rows_are_rule_one)
{
	struct score_record *r;
	struct pl_err err;
	size_t i, n;
	const char *qid = NULL;

	for (i = 0; i < d14->n_blocks && qid == NULL; i++)
		if (d14->blocks[i].kind == CONTENT_QUESTION &&
		    d14->blocks[i].question.type == CONTENT_Q_NUMERIC)
			qid = d14->blocks[i].question.id;
	ck_assert_ptr_nonnull(qid);
	answer(qid, 0, "1", 100);
	answer(qid, 1, "30", 101);
	ck_assert_int_eq(q_int("SELECT MIN(rule) FROM answers;"), 2);
	ck_assert_int_eq(store_drop_records(st, prof, d14, &r, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert(r[0].earned && r[0].after_feedback);
	free(r);
	/* As the 5 -> 6 migration leaves a database answered before it. */
	ck_assert_int_eq(sqlite3_exec(st->db, "UPDATE answers SET rule = 1;",
	    NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(store_drop_records(st, prof, d14, &r, &n, &err), 0);
	ck_assert(!r[0].earned && r[0].right && r[0].followed);
	ck_assert_int_eq(r[0].attempts, 2);
	free(r);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM answers;"), 2);
}
END_TEST

START_TEST(course_progress)
{
	enum curriculum_status *s = calloc(course->n_drops, sizeof *s);
	struct drop_score *sc = calloc(course->n_drops, sizeof *sc);
	struct pl_err err;
	int last;
	size_t i;

	ck_assert_int_eq(store_drop_visit(st, prof, "drop-02", 0, 5, 1500,
	    &err), 0);
	ck_assert_int_eq(store_drop_finish(st, prof, "drop-01", 1600, &err),
	    0);
	ck_assert_int_eq(store_course_progress(st, prof, course, s, sc, &last,
	    &err), 0);
	ck_assert_int_eq(s[0], CURRICULUM_READ);
	ck_assert_int_eq(s[1], CURRICULUM_STARTED);
	ck_assert_int_eq(last, 1);
	for (i = 2; i < course->n_drops; i++)
		ck_assert_int_eq(s[i], CURRICULUM_NEW);
	ck_assert_int_gt(sc[0].items, 0);
	ck_assert_double_eq(sc[0].score, 0);
	free(s);
	free(sc);
}
END_TEST

/* The trade-off is a row tied to its attempt; the latest is read back. */
START_TEST(tradeoff_rows)
{
	struct pl_err err;
	char buf[600];

	ck_assert_int_eq(q_int("PRAGMA user_version;"), STORE_SCHEMA_VERSION);
	ck_assert_int_ge(STORE_SCHEMA_VERSION, 4);
	ck_assert_int_eq(store_scenario_tradeoff(st, prof, "drop-14",
	    "defend-70b", buf, sizeof buf, &err), 0);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 0, "dp=8", NULL, 1, 3000, &err), 0);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 1, "dp=4", "first words", 1, 3001, &err), 0);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 1, "dp=4", "second words", 1, 3002, &err), 0);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM answers WHERE "
	    "question_id = 'scenario:defend-70b';"), 3);
	ck_assert_int_eq(q_int("SELECT MAX(attempt) FROM answers WHERE "
	    "question_id = 'scenario:defend-70b';"), 3);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM scenario_tradeoffs;"), 2);
	ck_assert_int_eq(q_int("SELECT a.attempt FROM scenario_tradeoffs t "
	    "JOIN answers a ON a.id = t.answer_id WHERE t.text = "
	    "'second words';"), 3);
	ck_assert_int_eq(store_scenario_tradeoff(st, prof, "drop-14",
	    "defend-70b", buf, sizeof buf, &err), 1);
	ck_assert_str_eq(buf, "second words");
	/* Deleting the attempt deletes its trade-off. */
	ck_assert_int_eq(sqlite3_exec(st->db, "DELETE FROM answers WHERE "
	    "attempt = 3;", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM scenario_tradeoffs;"), 1);
}
END_TEST

static Suite *
progress_score_suite(void)
{
	Suite *s = suite_create("progress_score");
	TCase *tc = tcase_create("round trip");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, read_attempted_done_mastered);
	tcase_add_test(tc, mistake_cards_count_for_mastery);
	tcase_add_test(tc, old_rows_are_rule_one);
	tcase_add_test(tc, course_progress);
	tcase_add_test(tc, tradeoff_rows);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(progress_score_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
