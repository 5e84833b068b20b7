/*
 * check_cli.c - the subcommands list and check-content, called as main()
 * calls them, with their output captured and parsed.
 */
#include <check.h>
#include <locale.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "store/progress.h"
#include "capture.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* A reveal question (core/course/duration: 60 s besides its words). */
#define REVEAL(id)	"{\"kind\": \"question\", \"id\": \"" id "\", " \
	"\"type\": \"reveal\", \"prompt\": \"Why?\", \"answer\": \"So.\"}"

static char *dir;
static char dbpath[4096];
static struct cli_ctx ctx;

static void
setup(void)
{
	dir = test_tmpdir();
	ck_assert_ptr_nonnull(dir);
	test_write(dir, "c/lessons/course.json", "{\"title\": \"T\", \"phases\": ["
	    "{\"number\": 1, \"title\": \"One\"}, {\"number\": 2, \"title\": \"Two\"}]}");
	test_write(dir, "c/lessons/1/01.json", "{\"id\": \"drop-01\", \"phase\": 1,"
	    " \"number\": 1, \"title\": \"First\", \"minutes\": 6, \"blocks\":"
	    " [{\"kind\": \"text\", \"text\": \"x\"}]}");
	test_write(dir, "c/lessons/1/02.json", "{\"id\": \"drop-02\", \"phase\": 1,"
	    " \"number\": 2, \"title\": \"Second\", \"minutes\": 7, \"blocks\":"
	    " [{\"kind\": \"text\", \"text\": \"x\"}, " REVEAL("r1") ", "
	    REVEAL("r2") ", " REVEAL("r3") "]}");
	test_write(dir, "c/lessons/2/03.json", "{\"id\": \"drop-03\", \"phase\": 2,"
	    " \"number\": 3, \"title\": \"Third\", \"minutes\": 8, \"blocks\":"
	    " [{\"kind\": \"text\", \"text\": \"x\"}]}");
	snprintf(dbpath, sizeof dbpath, "%s/db/progress.db", dir);
	ctx.content_dir = NULL;
	ctx.db_path = dbpath;
	ctx.profile = "ada";
	ctx.data_dir = TOP_SRCDIR "/data";
}

static void
teardown(void)
{
	test_rmrf(dir);
	free(dir);
}

static void
content_dir(char *buf, size_t size)
{
	snprintf(buf, size, "%s/c", dir);
	ctx.content_dir = buf;
}

/* Mark drop-02 started and drop-01 done for profile ada. */
static void
make_progress(void)
{
	struct pl_err err;
	struct store *st = store_open(dbpath, &err);
	int64_t id;

	ck_assert_ptr_nonnull(st);
	ck_assert_int_eq(store_profile(st, "ada", 1000, &id, &err), 0);
	ck_assert_int_eq(store_drop_finish(st, id, "drop-01", 1001, &err), 0);
	ck_assert_int_eq(store_drop_visit(st, id, "drop-02", 0, 5, 1002,
	    &err), 0);
	store_close(st);
}

START_TEST(list_json_contract)
{
	char *argv[] = { "list", "--json", NULL }, cdir[4200];
	struct capture c;
	cJSON *doc, *root, *ph, *d;

	content_dir(cdir, sizeof cdir);
	make_progress();
	capture_run(cli_list_main, &ctx, 2, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	doc = cJSON_Parse(c.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring,
	    "parlearn.list/1");
	/* Drop 2's three reveal questions take 3 x 60 s: 1 + 3 + 1 minutes,
	 * of which drop 1's is done. */
	ck_assert_int_eq(cJSON_GetObjectItem(doc, "minutes")->valueint, 5);
	ck_assert_int_eq(cJSON_GetObjectItem(doc, "minutes_left")->valueint, 4);
	root = cJSON_GetObjectItem(doc, "phases");
	ck_assert(cJSON_IsArray(root));
	ck_assert_int_eq(cJSON_GetArraySize(root), 2);
	ph = cJSON_GetArrayItem(root, 0);
	ck_assert_int_eq(cJSON_GetObjectItem(ph, "phase")->valueint, 1);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(ph, "drops")), 2);
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(ph, "drops"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(d, "id")->valuestring, "drop-01");
	ck_assert_int_eq(cJSON_GetObjectItem(d, "number")->valueint, 1);
	ck_assert_str_eq(cJSON_GetObjectItem(d, "title")->valuestring, "First");
	/* The typed "minutes" (6) are ignored: two words take the shortest
	 * time shown, a minute (core/course/duration). */
	ck_assert_int_eq(cJSON_GetObjectItem(d, "minutes")->valueint, 1);
	ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "done");
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(ph, "drops"), 1);
	ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "started");
	ph = cJSON_GetArrayItem(root, 1);
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(ph, "drops"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "new");
	cJSON_Delete(doc);
	capture_free(&c);
}
END_TEST

START_TEST(list_other_profile_sees_nothing)
{
	char *argv[] = { "list", "--json", NULL }, cdir[4200];
	struct capture c;
	cJSON *root, *d;

	content_dir(cdir, sizeof cdir);
	make_progress();
	ctx.profile = "grace";
	capture_run(cli_list_main, &ctx, 2, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	root = cJSON_Parse(c.out);
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(root, "phases"), 0), "drops"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "new");
	cJSON_Delete(root);
	capture_free(&c);
}
END_TEST

START_TEST(list_text)
{
	char *argv[] = { "list", NULL }, cdir[4200];
	struct capture c;

	content_dir(cdir, sizeof cdir);
	make_progress();
	capture_run(cli_list_main, &ctx, 1, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Phase 1: One (1/2 done)"));
	ck_assert_ptr_nonnull(strstr(c.out, "Second"));
	ck_assert_ptr_nonnull(strstr(c.out, "started"));
	capture_free(&c);
}
END_TEST

START_TEST(list_usage_errors)
{
	char *a1[] = { "list", "--bogus", NULL }, *a2[] = { "list", "extra", NULL };
	char *a3[] = { "list", "--help", NULL }, cdir[4200];
	struct capture c;

	content_dir(cdir, sizeof cdir);
	capture_run(cli_list_main, &ctx, 2, a1, &c);
	ck_assert_int_eq(c.rc, 1);
	capture_free(&c);
	capture_run(cli_list_main, &ctx, 2, a2, &c);
	ck_assert_int_eq(c.rc, 1);
	ck_assert_ptr_nonnull(strstr(c.err, "unexpected argument 'extra'"));
	capture_free(&c);
	capture_run(cli_list_main, &ctx, 2, a3, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Usage: parlearn list"));
	capture_free(&c);
}
END_TEST

START_TEST(list_bad_course_exits_2)
{
	char *argv[] = { "list", NULL }, cdir[4200];
	struct capture c;

	content_dir(cdir, sizeof cdir);
	test_write(dir, "c/lessons/course.json", "{\"title\": \"T\",\n \"phases\": [}");
	capture_run(cli_list_main, &ctx, 1, argv, &c);
	ck_assert_int_eq(c.rc, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "lessons/course.json:2:13: JSON syntax error"));
	ck_assert_ptr_null(strchr(strchr(c.err, '\n') + 1, '\n'));
	capture_free(&c);
}
END_TEST

START_TEST(list_skips_bad_drop_with_warning)
{
	char *argv[] = { "list", "--json", NULL }, cdir[4200];
	struct capture c;
	cJSON *root;

	content_dir(cdir, sizeof cdir);
	test_write(dir, "c/lessons/1/02.json", "{\"id\": 3}");
	capture_run(cli_list_main, &ctx, 2, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.err, "warning: skipped"));
	ck_assert_ptr_nonnull(strstr(c.err, "02.json: id: must be a string"));
	root = cJSON_Parse(c.out);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(root, "phases"), 0),
	    "drops")), 1);
	cJSON_Delete(root);
	capture_free(&c);
}
END_TEST

START_TEST(list_unusable_database_exits_2)
{
	char *argv[] = { "list", NULL }, cdir[4200];
	struct capture c;

	content_dir(cdir, sizeof cdir);
	test_write(dir, "db/progress.db", "this is not a database, and it is long "
	    "enough to have a header that sqlite reads and rejects.............");
	capture_run(cli_list_main, &ctx, 1, argv, &c);
	ck_assert_int_eq(c.rc, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "progress.db: file is not a database"));
	capture_free(&c);
}
END_TEST

/* Every line is FILE:LINE:COL: message, as editors' quickfix reads it. */
static void
quickfix_lines(const char *text, int want)
{
	regex_t re;
	char line[2048];
	const char *p, *nl;
	int n = 0;

	ck_assert_int_eq(regcomp(&re, "^[^: ][^:]*:[0-9]+:[0-9]+: [^ ]",
	    REG_EXTENDED | REG_NOSUB), 0);
	for (p = text; *p != '\0'; p = nl + 1, n++) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
		ck_assert_msg(regexec(&re, line, 0, NULL, 0) == 0,
		    "not FILE:LINE:COL: message: %s", line);
	}
	regfree(&re);
	ck_assert_int_eq(n, want);
}

START_TEST(check_content_valid_and_invalid)
{
	char cdir[4200], *a1[] = { "check-content", NULL, NULL };
	char *a2[] = { "check-content", "a", "b", NULL };
	struct capture c;

	content_dir(cdir, sizeof cdir);
	capture_run(cli_check_content_main, &ctx, 1, a1, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "3 drops, 0 decks, 0 cards, 0 problems"));
	capture_free(&c);
	test_write(dir, "c/lessons/2/03.json", "{\"id\": \"drop-03\",\n\"phase\": }");
	test_write(dir, "c/flashcards/x.json", "{\"deck\": \"x\", \"title\": \"X\", \"cards\": 5}");
	a1[1] = cdir;
	ctx.content_dir = "/nonexistent";
	capture_run(cli_check_content_main, &ctx, 2, a1, &c);
	ck_assert_int_eq(c.rc, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "lessons/2/03.json:2:10: JSON syntax error"));
	/* A problem found after parsing is located too: the value of "cards"
	 * is at column 38 of line 1. */
	ck_assert_ptr_nonnull(strstr(c.err, "flashcards/x.json:1:38: cards: must be an array of at least one card"));
	ck_assert_ptr_nonnull(strstr(c.out, "2 drops, 0 decks, 0 cards, 2 problems"));
	quickfix_lines(c.err, 2);
	capture_free(&c);
	capture_run(cli_check_content_main, &ctx, 3, a2, &c);
	ck_assert_int_eq(c.rc, 1);
	capture_free(&c);
}
END_TEST

START_TEST(check_content_shipped)
{
	char *argv[] = { "check-content", NULL };
	struct capture c;

	ctx.content_dir = TOP_SRCDIR;
	capture_run(cli_check_content_main, &ctx, 1, argv, &c);
	ck_assert_msg(c.rc == 0, "check-content failed: %s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "17 drops"));
	capture_free(&c);
}
END_TEST

static Suite *
cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc;

	tc = tcase_create("list");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, list_json_contract);
	tcase_add_test(tc, list_other_profile_sees_nothing);
	tcase_add_test(tc, list_text);
	tcase_add_test(tc, list_usage_errors);
	tcase_add_test(tc, list_bad_course_exits_2);
	tcase_add_test(tc, list_skips_bad_drop_with_warning);
	tcase_add_test(tc, list_unusable_database_exits_2);
	suite_add_tcase(s, tc);

	tc = tcase_create("check-content");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, check_content_valid_and_invalid);
	tcase_add_test(tc, check_content_shipped);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	sr = srunner_create(cli_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
