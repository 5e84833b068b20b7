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

	ck_assert_int_eq(store_drop_score(st, prof, d14, sc, &s, &err), 0);
	return s;
}

START_TEST(read_then_done_then_mastered)
{
	struct drop_score sc;
	struct score_record *r;
	struct pl_err err;
	const char *first = NULL;
	size_t i, n;
	int64_t t = 2000;

	ck_assert_int_eq(status14(&sc), CURRICULUM_NEW);
	ck_assert_int_ge(sc.questions, 4);
	ck_assert_int_eq(sc.incidents, 1);
	/* Read to the end, nothing answered: read, not done. */
	ck_assert_int_eq(store_drop_finish(st, prof, "drop-14", t, &err), 0);
	ck_assert_int_eq(status14(&sc), CURRICULUM_READ);
	/* Every question answered; the first one wrong twice, then right. */
	for (i = 0; i < d14->n_blocks; i++) {
		const struct content_block *b = &d14->blocks[i];

		if (b->kind != CONTENT_QUESTION)
			continue;
		if (first == NULL) {
			first = b->question.id;
			answer(first, 0, "2", ++t);
			answer(first, 0, "3", ++t);
		}
		answer(b->question.id, 1, "1", ++t);
	}
	ck_assert_int_eq(status14(&sc), CURRICULUM_READ);	/* incident */
	ck_assert_int_eq(sc.attempted, sc.questions);
	ck_assert_int_eq(sc.earned, sc.questions - 1);
	/* The incident: failed, then passed with a trade-off. */
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 0, "dp=8 tp=8 pp=1", "too short", 30, ++t, &err),
	    0);
	ck_assert_int_eq(status14(&sc), CURRICULUM_READ);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, prof, "drop-14",
	    "defend-70b", 1, "dp=4 tp=4 pp=4", "TP 4 pays some NVLink time "
	    "for a third of the memory free", 60, ++t, &err), 0);
	ck_assert_int_eq(status14(&sc), CURRICULUM_DONE);
	ck_assert_int_eq(sc.incidents_passed, 1);
	ck_assert_double_eq_tol(sc.score, (double)(sc.items - 1) / sc.items,
	    1e-12);
	/* Records: the first question took three answers, not earned. */
	ck_assert_int_eq(store_drop_records(st, prof, "drop-14", &r, &n,
	    &err), 0);
	ck_assert_uint_eq(n, (size_t)sc.questions + 1);
	for (i = 0; i < n; i++) {
		if (r[i].scenario) {
			ck_assert_str_eq(r[i].id, "defend-70b");
			ck_assert_int_eq(r[i].attempts, 2);
			ck_assert(r[i].earned && r[i].last_right);
			ck_assert(!r[i].first_right);
		} else if (strcmp(r[i].id, first) == 0) {
			ck_assert_int_eq(r[i].attempts, 3);
			ck_assert(!r[i].earned && !r[i].first_right);
			ck_assert(r[i].last_right);
			ck_assert_str_eq(r[i].response, "1");
		} else
			ck_assert(r[i].earned && r[i].first_right);
	}
	free(r);
	/* Another profile sees none of it. */
	{
		struct store_drop_progress p;
		enum curriculum_status s;
		int64_t other;

		ck_assert_int_eq(store_profile(st, "grace", 1000, &other, &err),
		    0);
		ck_assert_int_eq(store_drop_get(st, other, "drop-14", &p, &err),
		    0);
		ck_assert_int_eq(store_drop_score(st, other, d14, &sc, &s,
		    &err), 0);
		ck_assert_int_eq(s, CURRICULUM_NEW);
		ck_assert_int_eq(sc.attempted, 0);
	}
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
	tcase_add_test(tc, read_then_done_then_mastered);
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
