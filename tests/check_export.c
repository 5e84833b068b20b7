/*
 * check_export.c - profile export and import: the export is deterministic,
 * carries every row, and importing it restores the profile without ever
 * duplicating a row, in one transaction.
 */
#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/export.h"
#include "store/progress.h"
#include "capture.h"

static char *tmp;

static struct store *
open_db(const char *name)
{
	struct pl_err err;
	char path[1024];
	struct store *st;

	snprintf(path, sizeof path, "%s/%s", tmp, name);
	st = store_open(path, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	return st;
}

static int
count(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	int n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(st->db, sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* A profile "ada" with progress, four answers and two settings. */
static void
fill(struct store *st)
{
	struct pl_err err;
	int64_t id;

	ck_assert_int_eq(store_profile(st, "ada", 1000, &id, &err), 0);
	ck_assert_int_eq(store_drop_visit(st, id, "drop-02", 3, 40, 1100,
	    &err), 0);
	ck_assert_int_eq(store_drop_visit(st, id, "drop-01", 7, 90, 1050,
	    &err), 0);
	ck_assert_int_eq(store_drop_finish(st, id, "drop-01", 1060, &err), 0);
	ck_assert_int_eq(store_answer_add(st, id, "drop-01", "q2", 0, "b",
	    4.5, 1051, NULL, &err), 0);
	ck_assert_int_eq(store_answer_add(st, id, "drop-01", "q2", 1,
	    "=cmd\"x", 2.0, 1052, NULL, &err), 0);
	ck_assert_int_eq(store_answer_add(st, id, "drop-01", "q1", 1, "a",
	    1.25, 1053, NULL, &err), 0);
	ck_assert_int_eq(store_answer_add(st, id, "drop-10",
	    "scenario:oom-4000", 1, "zero 3", 60, 1200, NULL, &err), 0);
	ck_assert_int_eq(store_setting_set(st, id, "resume", "home", &err), 0);
	ck_assert_int_eq(store_setting_set(st, id, "a.first", "1", &err), 0);
}

/*
 * A reviewed card, when this build's schema has the review tables (issue
 * 7). Returns 1 if the rows went in.
 */
static int
fill_review(struct store *st)
{
	return sqlite3_exec(st->db, "INSERT INTO cards (profile_id, card_id,"
	    " seed, due, added) VALUES (1, 'dp-limit', 7, 5000, 1000);"
	    "INSERT INTO review_log (profile_id, card_id, reviewed, rating,"
	    " elapsed_days, scheduled_days, scheduled_s, state_before,"
	    " state_after, s_before, d_before, s_after, d_after) VALUES"
	    " (1, 'dp-limit', 1500, 3, 0, 1, 86400, 0, 1, 0, 0, 2.5, 5.1);",
	    NULL, NULL, NULL) == SQLITE_OK;
}

static void
setup(void)
{
	tmp = test_tmpdir();
}

static void
teardown(void)
{
	test_rmrf(tmp);
	free(tmp);
}

START_TEST(export_is_deterministic_and_complete)
{
	struct store *st = open_db("a.db");
	struct pl_err err;
	char *a, *b;

	fill(st);
	a = export_profile_json(st, "ada", NULL, &err);
	b = export_profile_json(st, "ada", NULL, &err);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a, b);
	ck_assert_ptr_nonnull(strstr(a, "\"format\":\t\"parlearn-profile\""));
	/* Sorted: drop-01 before drop-02, q1 before q2, attempts in order. */
	ck_assert(strstr(a, "\"drop-01\"") < strstr(a, "\"drop-02\""));
	ck_assert(strstr(a, "\"q1\"") < strstr(a, "\"q2\""));
	ck_assert_ptr_nonnull(strstr(a, "\"review\":\t"));
	ck_assert_ptr_nonnull(strstr(a, "\"scenario\":\t\"oom-4000\","));
	ck_assert_ptr_nonnull(strstr(a, "\"solved\":\ttrue"));
	ck_assert_ptr_null(export_profile_json(st, "nobody", NULL, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "nobody"));
	free(a);
	free(b);
	store_close(st);
}
END_TEST

START_TEST(import_round_trips_without_duplicates)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct pl_err err;
	char *a, *b;
	int added;

	fill(st);
	a = export_profile_json(st, "ada", NULL, &err);
	ck_assert_int_eq(export_import_json(st2, a, "a.json", NULL, NULL, &added,
	    NULL, &err), 0);
	ck_assert_int_eq(added, count(st, "SELECT count(*) FROM drop_progress")
	    + count(st, "SELECT count(*) FROM answers") +
	    count(st, "SELECT count(*) FROM settings"));
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 4);
	b = export_profile_json(st2, "ada", NULL, &err);
	ck_assert_str_eq(a, b);
	free(b);
	/* Again, into the same database: no new answers. */
	ck_assert_int_eq(export_import_json(st2, a, "a.json", NULL, NULL, &added,
	    NULL, &err), 0);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 4);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM drop_progress"), 2);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM settings"),
	    count(st, "SELECT count(*) FROM settings"));
	b = export_profile_json(st2, "ada", NULL, &err);
	ck_assert_str_eq(a, b);
	free(b);
	/* Into the original: nothing changes either. */
	ck_assert_int_eq(export_import_json(st, a, "a.json", NULL, NULL, &added,
	    NULL, &err), 0);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM answers"), 4);
	free(a);
	/* Review rows travel too, once. */
	if (fill_review(st)) {
		a = export_profile_json(st, "ada", NULL, &err);
		ck_assert_ptr_nonnull(strstr(a, "\"dp-limit\""));
		ck_assert_int_eq(export_import_json(st2, a, "a.json", NULL, NULL,
		    &added, NULL, &err), 0);
		ck_assert_int_eq(export_import_json(st2, a, "a.json", NULL, NULL,
		    &added, NULL, &err), 0);
		ck_assert_int_eq(count(st2, "SELECT count(*) FROM review_log"), 1);
		b = export_profile_json(st2, "ada", NULL, &err);
		ck_assert_str_eq(a, b);
		free(b);
	} else
		a = export_profile_json(st, "ada", NULL, &err);
	/* Under another name: a second profile with the same rows. */
	ck_assert_int_eq(export_import_json(st2, a, "a.json", "ada-copy", NULL,
	    &added, NULL, &err), 0);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 8);
	ck_assert_str_eq(err.msg, "");
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM profiles"), 2);
	free(a);
	store_close(st);
	store_close(st2);
}
END_TEST

START_TEST(import_bad_file_changes_nothing)
{
	struct store *st = open_db("a.db");
	struct pl_err err;
	int added = 5;

	ck_assert_int_eq(export_import_json(st, "{\"format\": \"other\","
	    " \"version\": 1}", "x.json", NULL, NULL, &added, NULL, &err), -1);
	ck_assert_str_eq(err.path, "format");
	ck_assert_int_eq(added, 0);
	/* An answer with no question: the whole import is rolled back. */
	ck_assert_int_eq(export_import_json(st, "{\"format\":"
	    " \"parlearn-profile\", \"version\": 1, \"profile\": {\"name\":"
	    " \"bo\"}, \"drops\": [{\"drop\": \"drop-01\", \"status\": 1,"
	    " \"seconds\": 1, \"position\": 0}], \"answers\": [{\"drop\":"
	    " \"drop-01\"}], \"settings\": []}", "y.json", NULL, NULL,
	    &added, NULL, &err),
	    -1);
	ck_assert_str_eq(err.path, "answers[0].question");
	ck_assert_int_eq(count(st, "SELECT count(*) FROM profiles"), 0);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM drop_progress"), 0);
	ck_assert_int_eq(export_import_json(st, "{\"format\": ", "z.json",
	    NULL, NULL, &added, NULL, &err), -1);
	ck_assert_int_eq(err.line, 1);
	store_close(st);
}
END_TEST

START_TEST(csv_export)
{
	struct store *st = open_db("a.db");
	struct pl_err err;
	char *csv;

	fill(st);
	csv = export_profile_csv(st, "ada", &err);
	ck_assert_ptr_nonnull(csv);
	ck_assert_ptr_eq(strstr(csv, "kind,drop,item,"), csv);
	ck_assert_ptr_nonnull(strstr(csv, "\nanswer,\"drop-01\",\"q2\",2,1,,2,1052,,\"'=cmd\"\"x\"\n"));
	ck_assert_ptr_nonnull(strstr(csv, "\nsetting,,\"a.first\",,,,,,,\"1\"\n"));
	free(csv);
	store_close(st);
}
END_TEST

START_TEST(answer_summary)
{
	struct store *st = open_db("a.db");
	struct pl_err err;
	int first, corr;

	fill(st);
	ck_assert_int_eq(export_answer_summary(st, 1, "drop-01", "q2", &first,
	    &corr, &err), 2);
	ck_assert_int_eq(first, 0);
	ck_assert_int_eq(corr, 1);
	ck_assert_int_eq(export_answer_summary(st, 1, "drop-01", "q9", &first,
	    &corr, &err), 0);
	store_close(st);
}
END_TEST

static Suite *
export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("export and import");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, export_is_deterministic_and_complete);
	tcase_add_test(tc, import_round_trips_without_duplicates);
	tcase_add_test(tc, import_bad_file_changes_nothing);
	tcase_add_test(tc, csv_export);
	tcase_add_test(tc, answer_summary);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	sr = srunner_create(export_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
