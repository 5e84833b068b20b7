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

#include <cjson/cJSON.h>

#include "core/course/content.h"
#include "core/course/scenario.h"
#include "store/db.h"
#include "store/export.h"
#include "store/progress.h"
#include "store/scenario_tradeoff.h"
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

/*
 * Issue 23: the review log is in the CSV, a row per review (with 8 log
 * entries it had the header and no review row at all).
 */
START_TEST(csv_export_reviews)
{
	struct store *st = open_db("a.db");
	struct pl_err err;
	char *csv, *p, sql[512];
	int i, n;

	fill(st);
	ck_assert(fill_review(st));
	for (i = 1; i < 8; i++) {
		snprintf(sql, sizeof sql, "INSERT INTO review_log (profile_id,"
		    " card_id, reviewed, rating, duration_ms, elapsed_days,"
		    " scheduled_days, scheduled_s, state_before, state_after,"
		    " s_before, d_before, s_after, d_after) VALUES (1,"
		    " 'dp-limit', %d, %d, 2500, 1, 1, 86400, 2, 2, 2.5, 5.1,"
		    " 3, 5)", 1500 + 86400 * i, 1 + i % 4);
		ck_assert_int_eq(sqlite3_exec(st->db, sql, NULL, NULL, NULL),
		    SQLITE_OK);
	}
	csv = export_profile_csv(st, "ada", &err);
	ck_assert_ptr_nonnull(csv);
	for (n = 0, p = csv; (p = strstr(p, "\nreview,")) != NULL; p++)
		n++;
	ck_assert_int_eq(n, 8);
	ck_assert_ptr_nonnull(strstr(csv, "\nreview,,\"dp-limit\",,,1,0,1500,"
	    ",3\n"));
	ck_assert_ptr_nonnull(strstr(csv, "\nreview,,\"dp-limit\",,,2,2.5,"
	    "87900,,2\n"));
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

/*
 * A mutation of a good export: set the field at path (an object path with
 * [i] indices, e.g. "answers.0.attempt") to the JSON value, or delete it
 * when value is NULL.
 */
struct mutation {
	const char	*where;		/* dotted path; digits index arrays */
	const char	*value;		/* JSON text, or NULL to delete */
	const char	*path;		/* the path the refusal must name */
};

static const struct mutation mutations[] = {
	{ "answers.0.attempt", "-1", "answers[0].attempt" },
	{ "answers.0.attempt", "1e308", "answers[0].attempt" },
	{ "answers.0.attempt", "1.5", "answers[0].attempt" },
	{ "answers.0.attempt", "\"2\"", "answers[0].attempt" },
	{ "answers.0.correct", "99", "answers[0].correct" },
	{ "answers.0.correct", "true", "answers[0].correct" },
	{ "answers.0.seconds", "-3", "answers[0].seconds" },
	{ "answers.0.seconds", "1e308", "answers[0].seconds" },
	{ "answers.0.answered", "-1", "answers[0].answered" },
	{ "answers.0.answered", "1e300", "answers[0].answered" },
	{ "answers.0.response", "7", "answers[0].response" },
	{ "answers.0.response", "\"\\u001b[2J\"", "answers[0].response" },
	{ "answers.0.question", "\"\"", "answers[0].question" },
	{ "answers.0.drop", NULL, "answers[0].drop" },
	{ "answers.0", "[]", "answers[0]" },
	{ "drops.0.status", "7", "drops[0].status" },
	{ "drops.0.seconds", "-1", "drops[0].seconds" },
	{ "drops.0.position", "1e12", "drops[0].position" },
	{ "drops.0.started", "\"soon\"", "drops[0].started" },
	{ "drops.0.drop", "{}", "drops[0].drop" },
	{ "settings.0.value", "null", "settings[0].value" },
	{ "settings.0.key", "\"a\\u0007\"", "settings[0].key" },
	{ "profile.name", "\"\"", "profile.name" },
	{ "profile.name", "\"\\u001b]0;x\\u0007\"", "profile.name" },
	{ "profile.created", "-5", "profile.created" },
	{ "profile", "3", "profile" },
	{ "drops", "{}", "drops" },
	{ "answers", "null", "answers" },
	{ "review", "[]", "review" },
	{ "review.cards", "7", "review.cards" },
	{ "review.cards.0.state", "9", "review.cards[0].state" },
	{ "review.cards.0.stability", "-1", "review.cards[0].stability" },
	{ "review.cards.0.difficulty", "\"NaN\"", "review.cards[0].difficulty" },
	{ "review.cards.0.due", "1e999", "review.cards[0].due" },
	{ "review.cards.0.seed", "1e19", "review.cards[0].seed" },
	{ "review.cards.0.seed", "\"9223372036854775808\"", "review.cards[0].seed" },
	{ "review.cards.0.seed", "\"12ab\"", "review.cards[0].seed" },
	{ "review.cards.0.reps", "-2", "review.cards[0].reps" },
	{ "review.review_log.0.rating", "5", "review.review_log[0].rating" },
	{ "review.review_log.0.s_after", "-0.5", "review.review_log[0].s_after" },
	{ "review.review_log.0.card_id", "null", "review.review_log[0].card_id" },
	{ "review.user_cards", "[{\"card_id\": \"u:d:1\", \"deck\": \"d\\u001b\","
	  " \"front\": \"f\", \"back\": \"b\", \"created\": 1}]",
	  "review.user_cards[0].deck" },
	{ "version", "2", "version" },
};

/* Apply m to a copy of the export text. Caller frees. */
static char *
mutate(const char *text, const struct mutation *m)
{
	cJSON *root = cJSON_Parse(text), *parent = root, *v;
	char where[128], *part, *next, *out;

	ck_assert_ptr_nonnull(root);
	snprintf(where, sizeof where, "%s", m->where);
	for (part = where; (next = strchr(part, '.')) != NULL; part = next + 1) {
		*next = '\0';
		parent = part[0] >= '0' && part[0] <= '9' ?
		    cJSON_GetArrayItem(parent, atoi(part)) :
		    cJSON_GetObjectItem(parent, part);
		ck_assert_msg(parent != NULL, "no %s in the export", m->where);
	}
	if (part[0] >= '0' && part[0] <= '9') {
		v = cJSON_Parse(m->value);
		cJSON_ReplaceItemInArray(parent, atoi(part), v);
	} else if (m->value == NULL)
		cJSON_DeleteItemFromObject(parent, part);
	else {
		v = cJSON_Parse(m->value);
		ck_assert_msg(v != NULL, "bad test value %s", m->value);
		if (cJSON_GetObjectItem(parent, part) != NULL)
			cJSON_ReplaceItemInObject(parent, part, v);
		else
			cJSON_AddItemToObject(parent, part, v);
	}
	out = cJSON_Print(root);
	cJSON_Delete(root);
	return out;
}

START_TEST(import_checks_every_field)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct pl_err err;
	char *good, *bad;
	size_t i;
	int added;

	fill(st);
	ck_assert(fill_review(st));
	good = export_profile_json(st, "ada", NULL, &err);
	ck_assert_ptr_nonnull(good);
	for (i = 0; i < sizeof mutations / sizeof mutations[0]; i++) {
		bad = mutate(good, &mutations[i]);
		pl_err_clear(&err);
		added = 9;
		ck_assert_msg(export_import_json(st2, bad, "m.json", NULL, NULL,
		    &added, NULL, &err) == -1, "accepted %s = %s",
		    mutations[i].where, mutations[i].value);
		ck_assert_msg(strcmp(err.path, mutations[i].path) == 0,
		    "%s = %s: refused at \"%s\" (%s), not at %s",
		    mutations[i].where, mutations[i].value, err.path, err.msg,
		    mutations[i].path);
		ck_assert_str_eq(err.file, "m.json");
		ck_assert_int_eq(added, 0);
		free(bad);
	}
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM profiles"), 0);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 0);
	/* The good file goes in. */
	ck_assert_int_eq(export_import_json(st2, good, "m.json", NULL, NULL,
	    &added, NULL, &err), 0);
	free(good);
	store_close(st);
	store_close(st2);
}
END_TEST

START_TEST(import_refuses_repeated_keys)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct mutation m = { "answers.1", NULL, "answers[1]" };
	struct pl_err err;
	char *good, *bad;
	cJSON *root, *arr;

	fill(st);
	good = export_profile_json(st, "ada", NULL, &err);
	/* Row 1 becomes a copy of row 0: same drop, question and attempt. */
	root = cJSON_Parse(good);
	arr = cJSON_GetObjectItem(root, "answers");
	cJSON_ReplaceItemInArray(arr, 1, cJSON_Duplicate(
	    cJSON_GetArrayItem(arr, 0), 1));
	bad = cJSON_Print(root);
	cJSON_Delete(root);
	ck_assert_int_eq(export_import_json(st2, bad, "d.json", NULL, NULL,
	    NULL, NULL, &err), -1);
	ck_assert_str_eq(err.path, m.path);
	ck_assert_ptr_nonnull(strstr(err.msg, "answers[0]"));
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 0);
	free(bad);
	free(good);
	store_close(st);
	store_close(st2);
}
END_TEST

START_TEST(import_says_what_is_wrong_with_the_whole)
{
	static const char *const texts[] = { "[]", "null", "3", "\"x\"" };
	struct store *st = open_db("a.db");
	struct pl_err err;
	size_t i;

	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		pl_err_clear(&err);
		ck_assert_int_eq(export_import_json(st, texts[i], "w.json", NULL,
		    NULL, NULL, NULL, &err), -1);
		ck_assert_msg(strstr(err.msg, "JSON object") != NULL,
		    "%s: \"%s\"", texts[i], err.msg);
		ck_assert_str_eq(err.file, "w.json");
	}
	store_close(st);
}
END_TEST

START_TEST(seeds_round_trip_exactly)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct pl_err err;
	char *a, *b;
	int64_t seed = 0;
	sqlite3_stmt *s;

	fill(st);
	ck_assert(fill_review(st));
	/* 2^62 + 1 and -2^63: no double holds either. */
	ck_assert_int_eq(sqlite3_exec(st->db, "UPDATE cards SET seed ="
	    " 4611686018427387905", NULL, NULL, NULL), SQLITE_OK);
	a = export_profile_json(st, "ada", NULL, &err);
	ck_assert_ptr_nonnull(strstr(a, "\"4611686018427387905\""));
	ck_assert_int_eq(export_import_json(st2, a, "s.json", NULL, NULL, NULL,
	    NULL, &err), 0);
	ck_assert_int_eq(sqlite3_prepare_v2(st2->db, "SELECT seed FROM cards",
	    -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	seed = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	ck_assert(seed == 4611686018427387905LL);
	b = export_profile_json(st2, "ada", NULL, &err);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	store_close(st);
	store_close(st2);
}
END_TEST

/* A suspended card stays suspended through export and import; a file
 * written before suspension existed imports its cards active. */
START_TEST(suspended_round_trips)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db"),
	    *st3 = open_db("c.db");
	struct pl_err err;
	char *a, *b, *old;
	cJSON *doc, *cards, *k;
	sqlite3_stmt *s;

	fill(st);
	ck_assert(fill_review(st));
	ck_assert_int_eq(sqlite3_exec(st->db, "UPDATE cards SET suspended = 1",
	    NULL, NULL, NULL), SQLITE_OK);
	a = export_profile_json(st, "ada", NULL, &err);
	doc = cJSON_Parse(a);
	cards = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "review"),
	    "cards");
	ck_assert_int_gt(cJSON_GetArraySize(cards), 0);
	cJSON_ArrayForEach(k, cards)
		ck_assert_int_eq(cJSON_GetObjectItem(k, "suspended")->valueint,
		    1);
	ck_assert_int_eq(export_import_json(st2, a, "s.json", NULL, NULL, NULL,
	    NULL, &err), 0);
	ck_assert_int_eq(sqlite3_prepare_v2(st2->db, "SELECT COUNT(*) FROM "
	    "cards WHERE suspended = 1", -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(s, 0), cJSON_GetArraySize(cards));
	sqlite3_finalize(s);
	b = export_profile_json(st2, "ada", NULL, &err);
	ck_assert_str_eq(a, b);
	/* The same file without the field: imported, and active. */
	cJSON_ArrayForEach(k, cards)
		cJSON_DeleteItemFromObject(k, "suspended");
	old = cJSON_Print(doc);
	ck_assert_int_eq(export_import_json(st3, old, "o.json", NULL, NULL,
	    NULL, NULL, &err), 0);
	ck_assert_int_eq(sqlite3_prepare_v2(st3->db, "SELECT COUNT(*), "
	    "SUM(suspended) FROM cards", -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(s, 0), cJSON_GetArraySize(cards));
	ck_assert_int_eq(sqlite3_column_int(s, 1), 0);
	sqlite3_finalize(s);
	cJSON_Delete(doc);
	free(old);
	free(a);
	free(b);
	store_close(st);
	store_close(st2);
	store_close(st3);
}
END_TEST

START_TEST(unknown_drops_and_questions_are_kept_and_told)
{
	struct content_problems notes = { NULL, 0, 0 };
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct pl_err err;
	char *a;
	int64_t id;
	int added = 0;

	ck_assert_ptr_nonnull(c);
	fill(st);
	ck_assert_int_eq(store_profile(st, "ada", 1000, &id, &err), 0);
	ck_assert_int_eq(store_answer_add(st, id, "drop-77", "q1", 1, "a", 1,
	    1300, NULL, &err), 0);
	a = export_profile_json(st, "ada", c, &err);
	ck_assert_int_eq(export_import_json(st2, a, "u.json", NULL, c, &added,
	    &notes, &err), 0);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 5);
	/* Only drop-77 is not in the course: one note, naming its row. */
	ck_assert_uint_eq(notes.n, 1);
	ck_assert_ptr_nonnull(strstr(notes.items[0].msg, "\"drop-77\""));
	ck_assert_str_eq(notes.items[0].path, "answers[4]");
	content_problems_free(&notes);
	content_free(c);
	free(a);
	store_close(st);
	store_close(st2);
}
END_TEST

/*
 * Drop 14's defense: three attempts, the first and third with a written
 * trade-off (quotes, a comma and non-ASCII text in it).
 */
static const char trade1[] = "TP 8 x PP 2 fits, but the bubble of 1/9 "
    "costs more than the \"free\" NVLink saves";
static const char trade3[] = "ZeRO-2 keeps 15 % free, paid for by a "
    "reduce-scatter per micro-batch \xe2\x80\x94 worth it here";

static void
fill_defense(struct store *st)
{
	struct pl_err err;

	ck_assert_int_eq(store_scenario_add_tradeoff(st, 1, "drop-14",
	    "defend-70b", 0, "tp 8 pp 2 dp 4", trade1, 50, 1400, &err), 0);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, 1, "drop-14",
	    "defend-70b", 0, "tp 8 pp 1 dp 8", NULL, 20, 1410, &err), 0);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, 1, "drop-14",
	    "defend-70b", 1, "tp 2 pp 8 dp 4", trade3, 70, 1420, &err), 0);
}

/* The trade-offs in db, each as "profile|attempt|text", in one string. */
static char *
tradeoff_rows(struct store *st)
{
	static char buf[4096];
	sqlite3_stmt *s;
	size_t n = 0;

	buf[0] = '\0';
	ck_assert_int_eq(sqlite3_prepare_v2(st->db, "SELECT p.name, a.attempt,"
	    " t.text FROM scenario_tradeoffs t JOIN answers a ON a.id ="
	    " t.answer_id JOIN profiles p ON p.id = a.profile_id WHERE"
	    " a.question_id = 'scenario:defend-70b' ORDER BY p.name,"
	    " a.attempt", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW && n < sizeof buf)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s|%d|%s\n",
		    (const char *)sqlite3_column_text(s, 0),
		    sqlite3_column_int(s, 1), (const char *)
		    sqlite3_column_text(s, 2));
	sqlite3_finalize(s);
	return buf;
}

START_TEST(tradeoffs_round_trip)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct pl_err err;
	char *a, *b, want[2048], got[700], *csv;
	cJSON *root, *rows;
	int added;

	fill(st);
	fill_defense(st);
	a = export_profile_json(st, "ada", NULL, &err);
	ck_assert_ptr_nonnull(a);
	root = cJSON_Parse(a);
	rows = cJSON_GetObjectItem(root, "tradeoffs");
	ck_assert_int_eq(cJSON_GetArraySize(rows), 2);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0),
	    "question")->valuestring, "scenario:defend-70b");
	ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1),
	    "attempt")->valueint, 3);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1),
	    "text")->valuestring, trade3);
	cJSON_Delete(root);
	snprintf(want, sizeof want, "ada|1|%s\nada|3|%s\n", trade1, trade3);
	ck_assert_str_eq(tradeoff_rows(st), want);
	/* Into an empty database: the same rows, the same export. */
	ck_assert_int_eq(export_import_json(st2, a, "t.json", NULL, NULL,
	    &added, NULL, &err), 0);
	ck_assert_str_eq(tradeoff_rows(st2), want);
	ck_assert_int_eq(store_scenario_tradeoff(st2, 1, "drop-14",
	    "defend-70b", got, sizeof got, &err), 1);
	ck_assert_str_eq(got, trade3);
	b = export_profile_json(st2, "ada", NULL, &err);
	ck_assert_str_eq(a, b);
	free(b);
	/* Again: none duplicated. */
	ck_assert_int_eq(export_import_json(st2, a, "t.json", NULL, NULL,
	    &added, NULL, &err), 0);
	ck_assert_str_eq(tradeoff_rows(st2), want);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 7);
	/* Under another name: the copy's trade-offs hang on its own answers. */
	ck_assert_int_eq(export_import_json(st2, a, "t.json", "bea", NULL,
	    &added, NULL, &err), 0);
	snprintf(want, sizeof want, "ada|1|%s\nada|3|%s\nbea|1|%s\n"
	    "bea|3|%s\n", trade1, trade3, trade1, trade3);
	ck_assert_str_eq(tradeoff_rows(st2), want);
	/* CSV carries them as rows of their own. */
	csv = export_profile_csv(st, "ada", &err);
	ck_assert_ptr_nonnull(csv);
	ck_assert_ptr_nonnull(strstr(csv, "\ntradeoff,\"drop-14\","
	    "\"scenario:defend-70b\",3,,,,,,\"ZeRO-2 keeps"));
	free(csv);
	free(a);
	store_close(st);
	store_close(st2);
}
END_TEST

/*
 * Issue 23: what import refuses is neither stored nor exported. A
 * trade-off an older parlearn stored with a bidi override, a C1 control
 * and invalid UTF-8 exports in a form import takes back.
 */
START_TEST(tradeoffs_import_rule)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct pl_err err;
	char *a;
	int added;

	fill(st);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, 1, "drop-14",
	    "defend-70b", 0, "tp 8", "evil \xe2\x80\xae" "x", 5, 1400, &err),
	    -1);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM scenario_tradeoffs"),
	    0);
	fill_defense(st);
	ck_assert_int_eq(sqlite3_exec(st->db, "UPDATE scenario_tradeoffs SET"
	    " text = 'a' || char(8238) || 'b' || char(133) || 'c' ||"
	    " CAST(x'ff80' AS TEXT) || 'd'", NULL, NULL, NULL), SQLITE_OK);
	a = export_profile_json(st, "ada", NULL, &err);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(export_import_json(st2, a, "t.json", NULL, NULL,
	    &added, NULL, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM scenario_tradeoffs"),
	    2);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM scenario_tradeoffs"
	    " WHERE text LIKE 'a%b%c%d'"), 2);
	free(a);
	store_close(st);
	store_close(st2);
}
END_TEST

/* A file written before trade-offs were exported still imports. */
START_TEST(tradeoffs_absent_in_older_files)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct mutation m = { "tradeoffs", NULL, "" };
	struct pl_err err;
	char *a, *old;

	fill(st);
	fill_defense(st);
	a = export_profile_json(st, "ada", NULL, &err);
	old = mutate(a, &m);
	ck_assert_ptr_null(strstr(old, "tradeoffs"));
	ck_assert_int_eq(export_import_json(st2, old, "o.json", NULL, NULL,
	    NULL, NULL, &err), 0);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 7);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM scenario_tradeoffs"),
	    0);
	/* The full file then adds just the trade-offs, to those answers. */
	ck_assert_int_eq(export_import_json(st2, a, "a.json", NULL, NULL,
	    NULL, NULL, &err), 0);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers"), 7);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM scenario_tradeoffs"),
	    2);
	free(old);
	free(a);
	store_close(st);
	store_close(st2);
}
END_TEST

/*
 * Answers keep the grading rule they were given under (issue 22): the
 * export writes it, import restores it, and a file from before the rule
 * existed imports its answers as rule 1.
 */
START_TEST(answers_keep_their_rule)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct store *st3 = open_db("c.db");
	struct pl_err err;
	char *a, *old;
	cJSON *doc, *arr, *it;

	fill(st);
	ck_assert_int_eq(sqlite3_exec(st->db, "UPDATE answers SET rule = 1 "
	    "WHERE id = (SELECT MIN(id) FROM answers);", NULL, NULL, NULL),
	    SQLITE_OK);
	a = export_profile_json(st, "ada", NULL, &err);
	ck_assert_ptr_nonnull(strstr(a, "\"rule\":"));
	ck_assert_int_eq(export_import_json(st2, a, "a.json", NULL, NULL,
	    NULL, NULL, &err), 0);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers WHERE "
	    "rule = 1"), 1);
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM answers WHERE "
	    "rule = 2"), count(st, "SELECT count(*) FROM answers") - 1);
	ck_assert_int_ge(count(st, "SELECT count(*) FROM answers"), 2);
	/* Without the key, as parlearn wrote it before: all rule 1. */
	doc = cJSON_Parse(a);
	arr = cJSON_GetObjectItem(doc, "answers");
	cJSON_ArrayForEach(it, arr)
		cJSON_DeleteItemFromObject(it, "rule");
	old = cJSON_Print(doc);
	ck_assert_ptr_null(strstr(old, "\"rule\""));
	ck_assert_int_eq(export_import_json(st3, old, "o.json", NULL, NULL,
	    NULL, NULL, &err), 0);
	ck_assert_int_eq(count(st3, "SELECT count(*) FROM answers WHERE "
	    "rule = 1"), count(st, "SELECT count(*) FROM answers"));
	cJSON_Delete(doc);
	free(old);
	free(a);
	store_close(st);
	store_close(st2);
	store_close(st3);
}
END_TEST

static const struct mutation trade_mutations[] = {
	{ "tradeoffs.0.text", "\"\"", "tradeoffs[0].text" },
	{ "tradeoffs.0.text", "\"cut\\u001b[2J\"", "tradeoffs[0].text" },
	{ "tradeoffs.0.text", "\"line\\nbreak\"", "tradeoffs[0].text" },
	{ "tradeoffs.0.text", "42", "tradeoffs[0].text" },
	{ "tradeoffs.0.text", NULL, "tradeoffs[0].text" },
	{ "tradeoffs.0.attempt", "0", "tradeoffs[0].attempt" },
	{ "tradeoffs.0.attempt", "2.5", "tradeoffs[0].attempt" },
	{ "tradeoffs.0.drop", "null", "tradeoffs[0].drop" },
	{ "tradeoffs.0.question", "\"\"", "tradeoffs[0].question" },
	/* Well formed, but no attempt of the file has that key. */
	{ "tradeoffs.0.attempt", "9", "tradeoffs[0]" },
	{ "tradeoffs.0.drop", "\"drop-13\"", "tradeoffs[0]" },
	/* A trade-off belongs to a scenario attempt, not a question's. */
	{ "tradeoffs.0.question", "\"q1\"", "tradeoffs[0]" },
	{ "tradeoffs.0", "\"text\"", "tradeoffs[0]" },
	{ "tradeoffs", "{}", "tradeoffs" },
	{ "tradeoffs", "null", "tradeoffs" },
};

START_TEST(tradeoffs_checked_like_every_field)
{
	struct store *st = open_db("a.db"), *st2 = open_db("b.db");
	struct pl_err err;
	char *good, *bad, big[SC_TRADEOFF_LEN + 8];
	struct mutation m = { "tradeoffs.0.text", big, "tradeoffs[0].text" };
	cJSON *root, *arr;
	size_t i;
	int added;

	fill(st);
	fill_defense(st);
	good = export_profile_json(st, "ada", NULL, &err);
	ck_assert_ptr_nonnull(good);
	for (i = 0; i <= sizeof trade_mutations / sizeof trade_mutations[0];
	    i++) {
		const struct mutation *mu = i < sizeof trade_mutations /
		    sizeof trade_mutations[0] ? &trade_mutations[i] : &m;

		/* Last: one byte more than the playground lets a learner
		 * type (SC_TRADEOFF_LEN counts the NUL). */
		big[0] = '"';
		memset(big + 1, 'w', SC_TRADEOFF_LEN);
		snprintf(big + 1 + SC_TRADEOFF_LEN, sizeof big - 1 -
		    SC_TRADEOFF_LEN, "\"");
		bad = mutate(good, mu);
		pl_err_clear(&err);
		added = 9;
		ck_assert_msg(export_import_json(st2, bad, "m.json", NULL, NULL,
		    &added, NULL, &err) == -1, "accepted %s = %.40s", mu->where,
		    mu->value);
		ck_assert_msg(strcmp(err.path, mu->path) == 0, "%s = %.40s: "
		    "refused at \"%s\" (%s), not at %s", mu->where, mu->value,
		    err.path, err.msg, mu->path);
		ck_assert_int_eq(added, 0);
		free(bad);
	}
	/* SC_TRADEOFF_LEN - 1 bytes is still fine. */
	big[SC_TRADEOFF_LEN] = '"';
	big[SC_TRADEOFF_LEN + 1] = '\0';
	bad = mutate(good, &m);
	ck_assert_int_eq(export_import_json(st2, bad, "m.json", NULL, NULL,
	    NULL, NULL, &err), 0);
	free(bad);
	/* A repeated key names both rows. */
	root = cJSON_Parse(good);
	arr = cJSON_GetObjectItem(root, "tradeoffs");
	cJSON_AddItemToArray(arr, cJSON_Duplicate(cJSON_GetArrayItem(arr, 0),
	    1));
	bad = cJSON_Print(root);
	cJSON_Delete(root);
	ck_assert_int_eq(export_import_json(st2, bad, "d.json", "cy", NULL,
	    NULL, NULL, &err), -1);
	ck_assert_str_eq(err.path, "tradeoffs[2]");
	ck_assert_ptr_nonnull(strstr(err.msg, "tradeoffs[0]"));
	ck_assert_int_eq(count(st2, "SELECT count(*) FROM profiles"), 1);
	free(bad);
	free(good);
	store_close(st);
	store_close(st2);
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
	tcase_add_test(tc, csv_export_reviews);
	tcase_add_test(tc, answer_summary);
	tcase_add_test(tc, import_checks_every_field);
	tcase_add_test(tc, import_refuses_repeated_keys);
	tcase_add_test(tc, import_says_what_is_wrong_with_the_whole);
	tcase_add_test(tc, seeds_round_trip_exactly);
	tcase_add_test(tc, suspended_round_trips);
	tcase_add_test(tc, unknown_drops_and_questions_are_kept_and_told);
	tcase_add_test(tc, tradeoffs_round_trip);
	tcase_add_test(tc, tradeoffs_import_rule);
	tcase_add_test(tc, tradeoffs_absent_in_older_files);
	tcase_add_test(tc, answers_keep_their_rule);
	tcase_add_test(tc, tradeoffs_checked_like_every_field);
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
