/*
 * check_lesson_engines.c - every engine configuration the course carries
 * opens as the app opens it (cm_config_from_json, then cm_evaluate) and
 * fits, unless its block is marked "expect": "oom" (an incident that
 * starts out of memory, a question whose premise is a model too big for
 * its GPU); those must indeed not fit. Issue 25: drop 5's and drop 7's
 * configurations said "does not fit" when opened, and nothing said so.
 *
 * The configurations are found in the raw files, not through the loader:
 * every object under a key "engine" or "start" in lessons/ and
 * flashcards/, so a place the loader does not hand out is still opened;
 * the loader's own walk (engine_fit_each, which check-content uses) must
 * find as many. A lab step that puts an incident on the room's cluster
 * (labs/, "override") must keep the incident's premise too.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/course/content.h"
#include "core/course/engine_fit.h"
#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "core/json.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static size_t n_opened, n_oom;

static cJSON *
read_json(const char *path)
{
	struct pl_err err;
	char *text = pl_read_file(path, NULL, &err);
	cJSON *o;

	ck_assert_msg(text != NULL, "%s: %s", path, err.msg);
	o = cJSON_Parse(text);
	ck_assert_msg(o != NULL, "%s does not parse", path);
	free(text);
	return o;
}

/* Open one configuration and hold it to what its block expects. */
static void
open_one(const char *where, const cJSON *config, const cJSON *holder)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(holder, "expect");
	int oom = cJSON_IsString(e) && strcmp(e->valuestring, "oom") == 0;
	struct cm_result *r = calloc(1, sizeof *r);
	struct cm_config c;
	struct pl_err err;

	ck_assert_ptr_nonnull(r);
	ck_assert_msg(e == NULL || cJSON_IsString(e), "%s: expect", where);
	ck_assert_msg(cm_config_from_json(&c, config, &cat, where, "", &err) ==
	    0, "%s: %s", where, err.msg);
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s: %s", where,
	    err.msg);
	ck_assert_msg(r->valid, "%s: not a valid layout", where);
	if (oom)
		ck_assert_msg(!r->fits, "%s is marked \"expect\": \"oom\" but "
		    "fits: %.1f GB of %.1f GB usable", where, r->mem_total / 1e9,
		    r->mem_usable / 1e9);
	else
		ck_assert_msg(r->fits, "%s does not fit when opened: %.1f GB "
		    "of %.1f GB usable", where, r->mem_total / 1e9,
		    r->mem_usable / 1e9);
	n_opened++;
	n_oom += oom;
	free(r);
}

/* Every object under "engine" or "start", anywhere below j. */
static void
walk(const char *file, const cJSON *j)
{
	const cJSON *it;
	char where[4608];

	cJSON_ArrayForEach(it, j) {
		if (cJSON_IsObject(it) && it->string != NULL &&
		    (strcmp(it->string, "engine") == 0 ||
		    strcmp(it->string, "start") == 0)) {
			snprintf(where, sizeof where, "%s (%s)", file,
			    it->string);
			open_one(where, it, j);
		} else if (cJSON_IsObject(it) || cJSON_IsArray(it))
			walk(file, it);
	}
}

/* Every .json under dir, one level of subdirectories deep. */
static void
walk_dir(const char *dir, int depth)
{
	struct dirent *de;
	struct stat st;
	char path[4096];
	size_t len;
	DIR *d = opendir(dir);
	cJSON *o;

	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		len = strlen(de->d_name);
		if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			o = read_json(path);
			walk(path, o);
			cJSON_Delete(o);
		} else if (depth > 0 && stat(path, &st) == 0 &&
		    S_ISDIR(st.st_mode))
			walk_dir(path, depth - 1);
	}
	closedir(d);
}

static void
count_item(const struct engine_fit_item *it, void *arg)
{
	size_t *n = arg;

	(void)it;
	(*n)++;
}

START_TEST(every_configuration_opens_as_it_should)
{
	struct content_problems probs;
	size_t from_loader = 0, k;

	n_opened = n_oom = 0;
	walk_dir(TOP_SRCDIR "/lessons", 1);
	walk_dir(TOP_SRCDIR "/flashcards", 0);
	/* 25 in lessons and flashcards when this was written */
	ck_assert_uint_ge(n_opened, 25);
	/* the incidents of drops 10, 14 and 15 start out of memory */
	ck_assert_uint_ge(n_oom, 3);
	engine_fit_each(course, count_item, &from_loader);
	ck_assert_uint_eq(from_loader, n_opened);
	/* check-content's walk agrees: no problem in the shipped course */
	memset(&probs, 0, sizeof probs);
	ck_assert_int_eq(engine_fit_check_course(&cat, course, &probs), 0);
	for (k = 0; k < probs.n; k++)
		fprintf(stderr, "%s\n", probs.items[k].msg);
	content_problems_free(&probs);
}
END_TEST

/* A scenario's start as a lab step lays its override over it. */
static void
lab_step(const char *file, const cJSON *step)
{
	const cJSON *ov = cJSON_GetObjectItemCaseSensitive(step, "override");
	const cJSON *drop = cJSON_GetObjectItemCaseSensitive(step, "drop");
	const cJSON *sid = cJSON_GetObjectItemCaseSensitive(step, "scenario");
	const struct content_drop *d;
	const cJSON *it, *raw = NULL;
	cJSON *start;
	char where[4608];
	size_t i;

	if (ov == NULL)
		return;
	ck_assert(cJSON_IsString(drop) && cJSON_IsString(sid));
	d = content_find_drop(course, drop->valuestring);
	ck_assert_ptr_nonnull(d);
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_SCENARIO &&
		    strcmp(d->blocks[i].scenario.id, sid->valuestring) == 0)
			raw = d->blocks[i].scenario.raw;
	ck_assert_ptr_nonnull(raw);
	start = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(raw, "start"),
	    1);
	cJSON_ArrayForEach(it, ov) {
		cJSON_DeleteItemFromObjectCaseSensitive(start, it->string);
		cJSON_AddItemToObject(start, it->string, cJSON_Duplicate(it, 1));
	}
	snprintf(where, sizeof where, "%s (%s on the room's cluster)", file,
	    sid->valuestring);
	open_one(where, start, raw);
	cJSON_Delete(start);
}

START_TEST(lab_overrides_keep_the_premise)
{
	static const char *const labs[] = { "short-check.json",
	    "two-hour-intro.json", "real-run.json", NULL };
	const cJSON *step;
	char path[4096];
	cJSON *o;
	size_t i;

	n_opened = 0;
	for (i = 0; labs[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/labs/%s", TOP_SRCDIR, labs[i]);
		o = read_json(path);
		cJSON_ArrayForEach(step, cJSON_GetObjectItemCaseSensitive(o,
		    "steps"))
			lab_step(path, step);
		cJSON_Delete(o);
	}
	ck_assert_uint_ge(n_opened, 2);
}
END_TEST

/* Open drop 15's incident start with keys laid over it; 1 if it fits. */
static int
drop15_fits(const char *over)
{
	char path[4096];
	cJSON *o = NULL, *start = NULL, *ov, *it;
	const cJSON *b;
	struct cm_result *r = calloc(1, sizeof *r);
	struct cm_config c;
	struct pl_err err;
	int fits;

	ck_assert_ptr_nonnull(r);
	snprintf(path, sizeof path, "%s/lessons/5-going-further/"
	    "15-long-context.json", TOP_SRCDIR);
	o = read_json(path);
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(o, "blocks"))
		if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		    b, "kind")), "scenario") == 0)
			start = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
			    b, "start"), 1);
	ck_assert_ptr_nonnull(start);
	ov = cJSON_Parse(over);
	ck_assert_ptr_nonnull(ov);
	cJSON_ArrayForEach(it, ov)
		cJSON_ReplaceItemInObjectCaseSensitive(start, it->string,
		    cJSON_Duplicate(it, 1));
	ck_assert_msg(cm_config_from_json(&c, start, &cat, path, "", &err) ==
	    0, "%s", err.msg);
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s", err.msg);
	ck_assert(r->valid);
	fits = r->fits;
	free(r);
	cJSON_Delete(ov);
	cJSON_Delete(start);
	cJSON_Delete(o);
	return fits;
}

/* Drop 15's incident as its brief and solution tell it: out of memory at
 * TP 8 x DP 4, fitting once CP 4 takes DP's place or with full
 * recomputation, not with CP 2 alone. */
START_TEST(drop15_incident_before_and_after)
{
	ck_assert(!drop15_fits("{}"));
	ck_assert(drop15_fits("{\"cp\": 4, \"dp\": 1}"));
	ck_assert(drop15_fits("{\"recompute\": \"full\"}"));
	ck_assert(!drop15_fits("{\"cp\": 2, \"dp\": 2}"));
	ck_assert(drop15_fits("{\"cp\": 2, \"dp\": 2, "
	    "\"recompute\": \"full\"}"));
}
END_TEST

/* The check itself: an unmarked configuration that does not fit fails. */
START_TEST(an_unmarked_oom_is_reported)
{
	struct content_course c;
	struct content_drop d;
	struct content_block b;
	struct content_problems probs;

	memset(&c, 0, sizeof c);
	memset(&d, 0, sizeof d);
	memset(&b, 0, sizeof b);
	memset(&probs, 0, sizeof probs);
	b.kind = CONTENT_QUESTION;
	b.question.engine = cJSON_Parse("{\"model\": \"llama2-7b\", \"gpu\": "
	    "\"a100-80gb\", \"gpus\": 1, \"dp\": 1, \"tp\": 1, \"pp\": 1}");
	d.blocks = &b;
	d.n_blocks = 1;
	d.file = "x.json";
	c.drops = &d;
	c.n_drops = 1;
	ck_assert_int_eq(engine_fit_check_course(&cat, &c, &probs), 1);
	ck_assert_ptr_nonnull(strstr(probs.items[0].msg, "does not fit"));
	content_problems_free(&probs);
	memset(&probs, 0, sizeof probs);
	b.question.expect_oom = 1;
	ck_assert_int_eq(engine_fit_check_course(&cat, &c, &probs), 0);
	cJSON_Delete(b.question.engine);
	b.question.engine = cJSON_Parse("{\"model\": \"llama2-7b\", \"gpu\": "
	    "\"a100-80gb\", \"gpus\": 8, \"dp\": 1, \"tp\": 8, \"pp\": 1}");
	ck_assert_int_eq(engine_fit_check_course(&cat, &c, &probs), 1);
	ck_assert_ptr_nonnull(strstr(probs.items[0].msg, "but fits"));
	content_problems_free(&probs);
	cJSON_Delete(b.question.engine);
}
END_TEST

static Suite *
engines_suite(void)
{
	Suite *s = suite_create("lesson engines");
	TCase *tc = tcase_create("opened as the app opens them");

	tcase_add_checked_fixture(tc, catfix_course_setup,
	    catfix_course_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_configuration_opens_as_it_should);
	tcase_add_test(tc, lab_overrides_keep_the_premise);
	tcase_add_test(tc, an_unmarked_oom_is_reported);
	tcase_add_test(tc, drop15_incident_before_and_after);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(engines_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
