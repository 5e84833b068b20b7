/*
 * check_schemas.c - the JSON contract: every document a command prints is
 * valid against its installed schema (schema/KIND.json) and names it in
 * "schema": "parlearn.KIND/1"; every schema file is exercised; the
 * validator (jsonschema.c) refuses what it must; plan's reason codes in the
 * schema are the engine's own.
 */
#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/json.h"
#include "store/cards.h"
#include "store/progress.h"
#include "store/scenario_tradeoff.h"
#include "capture.h"
#include "jsonschema.h"

static const char *const kinds[] = {
	"list", "plan", "plan-search", "trace", "srs-replay", "review-list",
	"stats", "lab-status", "lab-report", "export", "deck-list", "run",
	NULL
};
static int validated[16];	/* documents validated, per kind */

static char *dir;
static struct cli_ctx ctx;
static char dbpath[4096];

static void
setup(void)
{
	dir = test_tmpdir();
	ck_assert_ptr_nonnull(dir);
	snprintf(dbpath, sizeof dbpath, "%s/progress.db", dir);
	ctx.content_dir = TOP_SRCDIR;
	ctx.data_dir = TOP_SRCDIR "/data";
	ctx.db_path = dbpath;
	ctx.profile = "ada";
}

static void
teardown(void)
{
	test_rmrf(dir);
	free(dir);
}

static cJSON *
load_schema(const char *kind)
{
	struct pl_err err;
	char path[512];
	cJSON *s;

	snprintf(path, sizeof path, "%s/schema/%s.json", TOP_SRCDIR, kind);
	s = pl_json_load(path, &err);
	ck_assert_msg(s != NULL, "%s: %s", path, err.msg);
	return s;
}

static int
kind_index(const char *kind)
{
	int i;

	for (i = 0; kinds[i] != NULL; i++)
		if (strcmp(kinds[i], kind) == 0)
			return i;
	ck_abort_msg("no kind %s", kind);
	return -1;
}

/* text is a valid document of kind. */
static void
check_doc(const char *kind, const char *text)
{
	cJSON *doc = cJSON_Parse(text), *schema = load_schema(kind);
	char want[64], err[512];

	ck_assert_msg(doc != NULL, "%s: not JSON: %.200s", kind, text);
	snprintf(want, sizeof want, "parlearn.%s/1", kind);
	ck_assert_msg(cJSON_IsString(doc->child) &&
	    strcmp(doc->child->string, "schema") == 0 &&
	    strcmp(doc->child->valuestring, want) == 0,
	    "%s: the first member is not \"schema\": \"%s\"", kind, want);
	ck_assert_msg(jsonschema_validate(schema, doc, err, sizeof err) == 0,
	    "%s: %s", kind, err);
	validated[kind_index(kind)]++;
	cJSON_Delete(doc);
	cJSON_Delete(schema);
}

/* Run a subcommand (NULL-terminated argv) that must succeed; its stdout. */
static char *
run(int (*fn)(const struct cli_ctx *, int, char **), ...)
{
	char *argv[32];
	struct capture c;
	va_list ap;
	int n = 0;

	va_start(ap, fn);
	while (n < 31 && (argv[n] = va_arg(ap, char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	capture_run(fn, &ctx, n, argv, &c);
	ck_assert_msg(c.rc == 0, "%s %s: exit %d: %s", argv[0], n > 1 ?
	    argv[1] : "", c.rc, c.err);
	free(c.err);
	return c.out;
}

static void
check_run(const char *kind, char *out)
{
	check_doc(kind, out);
	free(out);
}

/* Some progress, answers and reviews, so the documents are not empty. */
static void
make_activity(void)
{
	struct store_review r;
	struct pl_err err;
	struct store *st = store_open(dbpath, &err);
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c = content_load(TOP_SRCDIR, &probs);
	int64_t id, now = (int64_t)time(NULL) - 3 * 86400;
	int i, attempt;

	ck_assert_ptr_nonnull(st);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(store_profile(st, "ada", now, &id, &err), 0);
	ck_assert_int_eq(store_drop_finish(st, id, "drop-01", now, &err), 0);
	ck_assert_int_eq(store_drop_visit(st, id, "drop-02", 0, 5, now, &err),
	    0);
	ck_assert_int_eq(store_answer_add(st, id, "drop-01", "q1", 0, "b", 4.5,
	    now, &attempt, &err), 0);
	ck_assert_int_eq(store_answer_add(st, id, "drop-12",
	    "scenario:bubble-35", 1, "ok", 30, now, &attempt, &err), 0);
	ck_assert_int_eq(store_scenario_add_tradeoff(st, id, "drop-14",
	    "defend-70b", 1, "tp 2 pp 8 dp 4", "ZeRO-2 buys headroom at the "
	    "price of a reduce-scatter per micro-batch", 40, now, &err), 0);
	ck_assert_int_eq(store_review_open(st, id, c, NULL, NULL, 0, now, &r,
	    &err), 0);
	for (i = 0; i < 6 && store_review_current(&r, NULL) != NULL; i++)
		ck_assert_int_eq(store_review_rate(st, &r, i % 2 ? FSRS_GOOD :
		    FSRS_AGAIN, now + 60 * i, 5, &err), 0);
	store_review_close(&r);
	content_problems_free(&probs);
	content_free(c);
	store_close(st);
}

/*
 * parlearn run --json, from the real binary: parlearn-run is a program of
 * its own, linked with MPI. Without it (built without MPI, no mpirun) the
 * run document is not checked here, except under CI=true.
 */
static void
check_run_json(void)
{
	const char *bin = getenv("PARLEARN"), *ci = getenv("CI");
	char cmd[8192], runbin[4096], *out = NULL, buf[4096];
	size_t len = 0, n;
	FILE *fp;
	int st;

	ck_assert_msg(bin != NULL, "PARLEARN is not set");
	snprintf(runbin, sizeof runbin, "%s-run", bin);
	if (access(runbin, X_OK) != 0 ||
	    system("command -v mpirun >/dev/null 2>&1") != 0) {
		ck_assert_msg(ci == NULL || strcmp(ci, "true") != 0,
		    "%s or mpirun is missing under CI", runbin);
		validated[kind_index("run")]++;	/* nothing to check here */
		return;
	}
	snprintf(cmd, sizeof cmd, "OMPI_ALLOW_RUN_AS_ROOT=1 "
	    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
	    "OMPI_MCA_rmaps_base_oversubscribe=1 timeout 60 '%s' run --mode pp "
	    "--np 2 --timeout 20 --json 2>/dev/null", bin);
	fp = popen(cmd, "r");
	ck_assert_ptr_nonnull(fp);
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
		out = realloc(out, len + n + 1);
		ck_assert_ptr_nonnull(out);
		memcpy(out + len, buf, n);
		len += n;
		out[len] = '\0';
	}
	st = pclose(fp);
	ck_assert_msg(st == 0 && out != NULL, "parlearn run --json: status %d",
	    st);
	check_run("run", out);
}

START_TEST(every_command_matches_its_schema)
{
	char lab[4200], script[600], *out;
	cJSON *doc;
	int k;

	make_activity();
	check_run("list", run(cli_list_main, "list", "--json", NULL));
	check_run("plan", run(cli_plan_main, "plan", "--model", "llama2-70b",
	    "--gpus", "64", "--dp", "8", "--tp", "8", "--pp", "1", "--json",
	    NULL));
	check_run("plan", run(cli_plan_main, "plan", "--model", "gpt3-175b",
	    "--gpus", "64", "--dp", "4", "--tp", "8", "--pp", "2", "--schedule",
	    "interleaved", "--json", NULL));
	check_run("plan-search", run(cli_plan_main, "plan", "--model",
	    "llama2-70b", "--gpus", "64", "--json", NULL));
	/* FP8 runs add layout.precision, layout.fp8_recipe and "fp8" */
	check_run("plan", run(cli_plan_main, "plan", "--model", "llama3-8b",
	    "--gpus", "8", "--dp", "8", "--tp", "1", "--pp", "1", "--zero",
	    "3", "--precision", "fp8", "--json", NULL));
	check_run("plan-search", run(cli_plan_main, "plan", "--model",
	    "llama3-8b", "--gpus", "8", "--precision", "fp8", "--fp8-recipe",
	    "delayed", "--kernels", "fused", "--json", NULL));
	/* Nothing valid: no_layout; nothing fits: closest. */
	check_run("plan-search", run(cli_plan_main, "plan", "--model",
	    "llama2-70b", "--gpus", "63", "--json", NULL));
	check_run("plan-search", run(cli_plan_main, "plan", "--model",
	    "llama3-405b", "--gpus", "8", "--json", NULL));
	check_run("trace", run(cli_trace_main, "trace", "--json", NULL));
	check_run("trace", run(cli_trace_main, "trace", "--mode", "3d",
	    "--gpus", "8", "--json", NULL));
	check_run("trace", run(cli_trace_main, "trace", "--mode", "fsdp",
	    "--json", NULL));
	check_run("trace", run(cli_trace_main, "trace", "--mode", "cp",
	    "--json", NULL));
	check_run("trace", run(cli_trace_main, "trace", "--gpus", "2",
	    "--schedule", "interleaved", "--json", NULL));
	check_run("srs-replay", run(cli_srs_main, "srs", "replay", "--ratings",
	    "good,again,good,easy", "--start", "2024-01-01", "--json", NULL));
	check_run("review-list", run(cli_review_main, "review", "--list",
	    "--json", NULL));
	/* Issue 23: deck list --json was refused as an unknown option. */
	check_run("deck-list", run(cli_deck_main, "deck", "list", "--json",
	    NULL));
	out = run(cli_review_main, "review", "--list", "--all", "--json", NULL);
	check_doc("review-list", out);
	doc = cJSON_Parse(out);
	ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "cards")),
	    6);
	cJSON_Delete(doc);
	free(out);
	check_run("review-list", run(cli_review_main, "review", "--list",
	    "--cram", "--json", NULL));
	check_run("stats", run(cli_stats_main, "stats", "--json", NULL));
	out = run(cli_export_main, "export", NULL);
	check_doc("export", out);
	/* The document is not trivially valid: it holds reviews and answers. */
	doc = cJSON_Parse(out);
	ck_assert_int_ge(cJSON_GetArraySize(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(doc, "review"), "review_log")), 6);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc,
	    "scenarios")), 2);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc,
	    "tradeoffs")), 1);
	cJSON_Delete(doc);
	free(out);
	/* A lab with one student's answer. */
	snprintf(lab, sizeof lab, "%s/lab", dir);
	snprintf(script, sizeof script, "%s/labs/short-check.json", TOP_SRCDIR);
	free(run(cli_lab_main, "lab", "host", lab, "--script", script,
	    "--no-dashboard", NULL));
	check_run("lab-status", run(cli_lab_main, "lab", "status", lab, "--json",
	    NULL));
	free(run(cli_lab_main, "lab", "submit", lab, "--step", "1",
	    "--question", "q1", "--correct", "0", NULL));
	check_run("lab-status", run(cli_lab_main, "lab", "status", lab, "--json",
	    NULL));
	check_run("lab-report", run(cli_lab_main, "lab", "report", lab,
	    "--format", "json", NULL));
	check_run_json();
	/* Every schema file was used. */
	for (k = 0; kinds[k] != NULL; k++)
		ck_assert_msg(validated[k] > 0, "no document of %s", kinds[k]);
}
END_TEST

/* A document the validator must refuse, and the path it must name. */
static void
refused(const char *schema_text, const char *doc_text, const char *want)
{
	cJSON *s = cJSON_Parse(schema_text), *d = cJSON_Parse(doc_text);
	char err[512];

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(d);
	ck_assert_msg(jsonschema_validate(s, d, err, sizeof err) == -1,
	    "accepted %s", doc_text);
	ck_assert_msg(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
	cJSON_Delete(s);
	cJSON_Delete(d);
}

#define MINUTES	"\"minutes\": 5, \"minutes_left\": 5, "
#define MINUTES_END	"\"minutes\": 5, \"minutes_left\": 5}"
#define ONE_PHASE	"{\"phase\": 1, \"title\": \"P\", \"drops\": []}"
#define A_SCORE	"\"score\": {\"fraction\": 1, \"items_earned\": 2, " \
	"\"items\": 2, \"questions\": 2, \"questions_attempted\": 2, " \
	"\"questions_first_try_right\": 2, " \
	"\"questions_right_after_feedback\": 0, \"questions_right\": 2, " \
	"\"incidents\": 0, \"incidents_passed\": 0, \"reveals\": 1, " \
	"\"reveals_self_graded\": 1, \"cards\": 3, " \
	"\"cards_recalled_later\": 0}"

START_TEST(the_validator_refuses)
{
	cJSON *list = load_schema("list");
	char *text = cJSON_PrintUnformatted(list);
	static const char ok[] = "{\"schema\": \"parlearn.list/1\", \"title\": "
	    "\"T\", " MINUTES "\"phases\": [{\"phase\": 1, \"title\": \"P\", "
	    "\"drops\": [{\"id\": \"d\", \"number\": 1, \"title\": \"D\", \"minutes\": 5, "
	    "\"status\": \"done\", \"score\": {\"fraction\": 1, "
	    "\"items_earned\": 2, \"items\": 2, \"questions\": 2, "
	    "\"questions_attempted\": 2, \"questions_first_try_right\": 2, "
	    "\"questions_right_after_feedback\": 0, \"questions_right\": 2, "
	    "\"incidents\": 0, \"incidents_passed\": 0, \"reveals\": 0, "
	    "\"reveals_self_graded\": 0, \"cards\": 0, "
	    "\"cards_recalled_later\": 0}}]}]}";
	cJSON *s = cJSON_Parse(text), *d = cJSON_Parse(ok);
	char err[512];

	/* The good document passes, so each refusal below is the change. */
	ck_assert_int_eq(jsonschema_validate(s, d, err, sizeof err), 0);
	cJSON_Delete(s);
	cJSON_Delete(d);
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    MINUTES_END, "$: required member \"phases\" is missing");
	/* The course's time is part of the contract (core/course/duration). */
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    "\"minutes_left\": 5, \"phases\": [" ONE_PHASE "]}",
	    "$: required member \"minutes\" is missing");
	refused(text, "{\"schema\": \"parlearn.list/2\", \"title\": \"T\", "
	    MINUTES "\"phases\": [" ONE_PHASE "]}",
	    "schema: is not the value the schema fixes");
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": 3, "
	    MINUTES "\"phases\": [" ONE_PHASE "]}", "title: is number, not string");
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    MINUTES "\"phases\": [{\"phase\": 1, \"title\": \"P\", \"drops\": [{\"id\": "
	    "\"d\", \"number\": 1, \"title\": \"D\", \"minutes\": 5, "
	    "\"status\": \"finished\", " A_SCORE "}]}]}",
	    "phases[0].drops[0].status: \"finished\" is not one of the values");
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    MINUTES "\"phases\": [{\"phase\": 1, \"title\": \"P\", \"drops\": [{\"id\": "
	    "\"d\", \"number\": 1, \"title\": \"D\", \"minutes\": -5, "
	    "\"status\": \"new\", " A_SCORE "}]}]}",
	    "phases[0].drops[0].minutes: -5 is less than the minimum 0");
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    MINUTES "\"phases\": [{\"phase\": 1.5, \"title\": \"P\", \"drops\": []}]}",
	    "phases[0].phase: is number, not integer");
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    MINUTES "\"phases\": [" ONE_PHASE "], \"extra\": 1}",
	    "extra: is not a member the schema allows");
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    MINUTES "\"phases\": []}", "phases: has 0 items, fewer than 1");
	refused(text, "{\"schema\": \"parlearn.list/1\", \"title\": \"T\", "
	    MINUTES "\"phases\": {}}", "phases: is object, not array");
	refused("{\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/n\"}, "
	    "\"minItems\": 1, \"$defs\": {\"n\": {\"type\": [\"integer\", "
	    "\"null\"], \"maximum\": 3}}}", "[1, null, 4]",
	    "[2]: 4 is more than the maximum 3");
	refused("{\"type\": \"array\", \"minItems\": 1}", "[]",
	    "$: has 0 items, fewer than 1");
	/* A keyword it does not implement is the schema's error. */
	refused("{\"type\": \"string\", \"pattern\": \"^a\"}", "\"b\"",
	    "schema: keyword \"pattern\" is not supported");
	refused("{\"$ref\": \"#/$defs/none\"}", "1",
	    "schema: no definition #/$defs/none");
	free(text);
	cJSON_Delete(list);
}
END_TEST

/* plan-search's definitions are plan's, word for word. */
START_TEST(plan_definitions_agree)
{
	cJSON *a = load_schema("plan"), *b = load_schema("plan-search");

	ck_assert(cJSON_Compare(cJSON_GetObjectItem(a, "$defs"),
	    cJSON_GetObjectItem(b, "$defs"), 1));
	cJSON_Delete(a);
	cJSON_Delete(b);
}
END_TEST

/* Each string literal in file matching re (group 1) is in codes. */
static int
codes_in_source(const char *file, const char *pattern, const cJSON *codes)
{
	char path[512], code[64], *text;
	regmatch_t m[2];
	regex_t re;
	const char *p;
	const cJSON *e;
	int found, n = 0;

	snprintf(path, sizeof path, "%s/%s", TOP_SRCDIR, file);
	text = pl_read_file(path, NULL, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED), 0);
	for (p = text; regexec(&re, p, 2, m, 0) == 0; p += m[0].rm_eo) {
		snprintf(code, sizeof code, "%.*s",
		    (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
		found = 0;
		cJSON_ArrayForEach(e, codes)
			found |= strcmp(e->valuestring, code) == 0;
		ck_assert_msg(found, "%s: code \"%s\" is not in the schema",
		    file, code);
		n++;
	}
	regfree(&re);
	free(text);
	return n;
}

/* The codes a script matches on: the schema lists exactly the engine's. */
START_TEST(reason_codes_are_the_engines)
{
	cJSON *plan = load_schema("plan"), *search = load_schema("plan-search");
	const cJSON *codes = cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(plan,
	    "$defs"), "reason"), "properties"), "code"), "enum");
	const cJSON *empty = cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(search, "properties"),
	    "no_layout"), "properties"), "reasons"), "items"), "properties"),
	    "code");
	int n;

	ck_assert_ptr_nonnull(codes);
	/* add(r, "code", ...) and the per-part table of comparisons. */
	n = codes_in_source("src/core/engine/costmodel_explain.c",
	    "add\\(r, \"([a-z_]+)\"", codes);
	n += codes_in_source("src/core/engine/costmodel_explain.c",
	    "[{,] *\"([a-z]+_[a-z_]+)\"", codes);
	ck_assert_int_ge(n, cJSON_GetArraySize(codes));
	n = codes_in_source("src/core/engine/search_empty.c",
	    "add\\(out, \"([a-z_]+)\"", cJSON_GetObjectItem(empty, "enum"));
	ck_assert_int_eq(n, cJSON_GetArraySize(cJSON_GetObjectItem(empty,
	    "enum")));
	cJSON_Delete(plan);
	cJSON_Delete(search);
}
END_TEST

static Suite *
schemas_suite(void)
{
	Suite *s = suite_create("schemas");
	TCase *tc = tcase_create("contract");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_command_matches_its_schema);
	tcase_add_test(tc, the_validator_refuses);
	tcase_add_test(tc, plan_definitions_agree);
	tcase_add_test(tc, reason_codes_are_the_engines);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(schemas_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
