/*
 * check_lab.c - lab scripts (schema, located errors, course references),
 * lab state and results (round trip, hostile input), the class table and
 * report, and the lab directory's drop box (modes, refused files, reset).
 */
#include <check.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/course/content.h"
#include "core/course/scenario.h"
#include "core/course/score.h"
#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "core/json.h"
#include "core/lab/lab.h"
#include "store/labdir.h"
#include "capture.h"

static const char good[] =
    "{\n"
    "  \"title\": \"T\",\n"
    "  \"steps\": [\n"
    "    { \"kind\": \"drop\", \"drop\": \"drop-01\", \"minutes\": 10,\n"
    "      \"talking_points\": [\"a\", \"b\"] },\n"
    "    { \"kind\": \"questions\", \"drop\": \"drop-03\",\n"
    "      \"questions\": [\"q1\", \"q2\"], \"minutes\": 5 },\n"
    "    { \"kind\": \"break\", \"title\": \"Coffee\", \"minutes\": 10 },\n"
    "    { \"kind\": \"scenario\", \"drop\": \"drop-10\",\n"
    "      \"scenario\": \"oom-4000\", \"minutes\": 20,\n"
    "      \"override\": { \"gpu\": \"h100-80gb\", \"gpus_per_node\": 4,\n"
    "      \"inter_bw\": 50 } }\n"
    "  ]\n"
    "}\n";

static struct lab_script *
parse(const char *text, struct pl_err *err)
{
	pl_err_clear(err);
	return lab_script_parse(text, "x.json", err);
}

START_TEST(script_fields)
{
	struct pl_err err;
	struct lab_script *ls = parse(good, &err);

	ck_assert_ptr_nonnull(ls);
	ck_assert_uint_eq(ls->n_steps, 4);
	ck_assert_int_eq(ls->minutes, 45);
	ck_assert_int_eq(ls->steps[0].kind, LAB_STEP_DROP);
	ck_assert_uint_eq(ls->steps[0].n_points, 2);
	ck_assert_str_eq(ls->steps[0].title, "drop drop-01");
	ck_assert_int_eq(ls->steps[1].kind, LAB_STEP_QUESTIONS);
	ck_assert_str_eq(ls->steps[1].questions[1], "q2");
	ck_assert_int_eq(ls->steps[2].kind, LAB_STEP_BREAK);
	ck_assert_ptr_null(ls->steps[2].drop);
	ck_assert_int_eq(ls->steps[3].has_override, 1);
	ck_assert_str_eq(ls->steps[3].override.gpu, "h100-80gb");
	ck_assert_int_eq(ls->steps[3].override.gpus_per_node, 4);
	ck_assert(ls->steps[3].override.inter_bw == 50);
	ck_assert(ls->steps[3].override.intra_bw == 0);
	lab_script_free(ls);
}
END_TEST

START_TEST(script_syntax_error_is_located)
{
	struct pl_err err;
	char buf[1200];

	ck_assert_ptr_null(parse("{\n  \"title\": \"T\",\n  \"steps\": [,]\n}\n",
	    &err));
	ck_assert_int_eq(err.line, 3);
	ck_assert_int_eq(err.col, 13);
	ck_assert_ptr_nonnull(strstr(pl_err_format(&err, buf, sizeof buf),
	    "x.json:3:13: "));
}
END_TEST

/* Each bad script and the JSON path its error must name. */
START_TEST(script_field_errors_name_the_path)
{
	static const struct {
		const char	*text;
		const char	*path;
	} bad[] = {
		{ "{\"steps\": []}", "title" },
		{ "{\"title\": \"T\", \"steps\": []}", "steps" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"quiz\", \"minutes\": 1}]}",
		    "steps[0].kind" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"break\", \"minutes\": 1}]}",
		    "steps[0].title" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"drop\", \"drop\": \"d\"}]}",
		    "steps[0].minutes" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"drop\", \"drop\": \"d\", \"minutes\": 999}]}",
		    "steps[0].minutes" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"questions\", \"drop\": \"d\", \"minutes\": 1}]}",
		    "steps[0].questions" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"drop\", \"drop\": \"d\", \"minutes\": 1, \"override\": {}}]}",
		    "steps[0].override" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"scenario\", \"drop\": \"d\", \"minutes\": 1}]}",
		    "steps[0].scenario" },
		{ "{\"title\": \"T\", \"steps\": [{\"kind\": \"drop\", \"drop\": \"d\", \"minutes\": 1, \"questions\": [\"a b\"]}]}",
		    "steps[0].questions[0]" },
	};
	struct pl_err err;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(parse(bad[i].text, &err) == NULL, "%zu", i);
		ck_assert_msg(strcmp(err.path, bad[i].path) == 0,
		    "case %zu: path \"%s\", want \"%s\"", i, err.path,
		    bad[i].path);
	}
}
END_TEST

START_TEST(script_checked_against_course)
{
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	struct pl_err err;
	struct lab_script *ls;
	const char *ids[16];
	enum lab_item_kind kinds[16];
	char buf[300];

	ck_assert_ptr_nonnull(c);
	ls = parse(good, &err);
	ck_assert_uint_eq(lab_script_check_course(ls, c, &probs), 0);
	/* A drop step with no list follows all of the drop's questions. */
	ck_assert_uint_eq(lab_step_items(&ls->steps[0], c, ids, kinds, 16), 4);
	ck_assert_uint_eq(lab_step_items(&ls->steps[3], c, ids, kinds, 16), 1);
	ck_assert_int_eq(kinds[0], LAB_ITEM_SCENARIO);
	ck_assert_str_eq(lab_step_title(&ls->steps[0], c, buf, sizeof buf),
	    "Drop 1: Three different things people call 'parallel'");
	ck_assert_str_eq(lab_step_title(&ls->steps[2], c, buf, sizeof buf),
	    "Coffee");
	lab_script_free(ls);
	ls = parse("{\"title\": \"T\", \"steps\": ["
	    "{\"kind\": \"drop\", \"drop\": \"drop-99\", \"minutes\": 1},"
	    "{\"kind\": \"questions\", \"drop\": \"drop-01\", \"minutes\": 1,"
	    " \"questions\": [\"q1\", \"nope\"]},"
	    "{\"kind\": \"scenario\", \"drop\": \"drop-01\", \"minutes\": 1,"
	    " \"scenario\": \"oom-4000\"}]}", &err);
	ck_assert_ptr_nonnull(ls);
	ck_assert_uint_eq(lab_script_check_course(ls, c, &probs), 3);
	ck_assert_str_eq(probs.items[0].path, "steps[0].drop");
	ck_assert_str_eq(probs.items[1].path, "steps[1].questions");
	ck_assert_str_eq(probs.items[2].path, "steps[2].scenario");
	lab_script_free(ls);
	content_problems_free(&probs);
	content_free(c);
}
END_TEST

/* Phase 5's drop is a lab step like any other: its title and questions. */
START_TEST(script_on_phase_5)
{
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	struct pl_err err;
	struct lab_script *ls;
	const char *ids[16];
	enum lab_item_kind kinds[16];
	char buf[300];

	ck_assert_ptr_nonnull(c);
	ls = parse("{\"title\": \"T\", \"steps\": ["
	    "{\"kind\": \"drop\", \"drop\": \"drop-15\", \"minutes\": 15},"
	    "{\"kind\": \"questions\", \"drop\": \"drop-15\", \"minutes\": 5,"
	    " \"questions\": [\"q1\", \"q3\"]}]}", &err);
	ck_assert_ptr_nonnull(ls);
	ck_assert_uint_eq(lab_script_check_course(ls, c, &probs), 0);
	ck_assert_str_eq(lab_step_title(&ls->steps[0], c, buf, sizeof buf),
	    "Drop 15: Long context: when activations outgrow TP");
	ck_assert_uint_eq(lab_step_items(&ls->steps[0], c, ids, kinds, 16), 5);
	ck_assert_uint_eq(lab_step_items(&ls->steps[1], c, ids, kinds, 16), 2);
	ck_assert_str_eq(ids[1], "q3");
	lab_script_free(ls);
	content_problems_free(&probs);
	content_free(c);
}
END_TEST

START_TEST(example_labs_are_valid)
{
	static const char *const files[] = { "two-hour-intro.json",
	    "short-check.json", "real-run.json" };
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	struct lab_script *ls;
	struct pl_err err;
	char path[1024];
	size_t i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/labs/%s", TOP_SRCDIR, files[i]);
		ls = lab_script_load(path, &err);
		ck_assert_msg(ls != NULL, "%s: %s", path, err.msg);
		ck_assert_uint_eq(lab_script_check_course(ls, c, &probs), 0);
		lab_script_free(ls);
	}
	content_free(c);
}
END_TEST

START_TEST(state_round_trip)
{
	struct lab_state a = { 2, 5, 1000, 1300, "abc123" }, b;
	struct pl_err err;
	char *s = lab_state_to_json(&a);

	ck_assert_int_eq(lab_state_parse(s, "state.json", &b, &err), 0);
	ck_assert_int_eq(b.step, 2);
	ck_assert_int_eq(b.n_steps, 5);
	ck_assert_int_eq(b.step_started, 1300);
	ck_assert_str_eq(b.session, "abc123");
	free(s);
	ck_assert_int_eq(lab_state_parse("{\"session\": \"s\", \"steps\": 3,"
	    " \"step\": 3, \"started\": 0, \"step_started\": 0}", "s", &b, &err),
	    -1);
	ck_assert_str_eq(err.path, "step");
}
END_TEST

static void
mkresult(struct lab_result *r, const char *user, const char *profile,
    const char *session, int step)
{
	memset(r, 0, sizeof *r);
	snprintf(r->user, sizeof r->user, "%s", user);
	snprintf(r->profile, sizeof r->profile, "%s", profile);
	snprintf(r->session, sizeof r->session, "%s", session);
	r->step = step;
	r->step_since = 100;
	r->updated = 200;
}

START_TEST(result_round_trip_is_deterministic)
{
	struct lab_result a, b, c;
	struct pl_err err;
	char *sa, *sb, *sc;

	mkresult(&a, "ada", "p1", "S", 1);
	mkresult(&b, "ada", "p1", "S", 1);
	lab_result_add(&a, 0, LAB_ITEM_QUESTION, "q2", 0);
	lab_result_add(&a, 0, LAB_ITEM_QUESTION, "q2", 1);
	lab_result_add(&a, 1, LAB_ITEM_SCENARIO, "oom-4000", 1);
	lab_result_add(&a, 0, LAB_ITEM_QUESTION, "q1", 1);
	lab_result_add(&b, 0, LAB_ITEM_QUESTION, "q1", 1);
	lab_result_add(&b, 1, LAB_ITEM_SCENARIO, "oom-4000", 1);
	lab_result_set(&b, 0, LAB_ITEM_QUESTION, "q2", 2, 0, 1);
	ck_assert_int_eq(lab_result_set_tradeoff(&a, 1, "oom-4000",
	    "flash attention first"), 0);
	ck_assert_int_eq(lab_result_set_tradeoff(&b, 1, "oom-4000",
	    "flash attention first"), 0);
	sa = lab_result_to_json(&a);
	sb = lab_result_to_json(&b);
	ck_assert_str_eq(sa, sb);
	ck_assert_int_eq(lab_result_parse(sa, "r.json", &c, &err), 0);
	sc = lab_result_to_json(&c);
	ck_assert_str_eq(sa, sc);
	ck_assert_uint_eq(c.n_answers, 3);
	ck_assert_int_eq(lab_result_find(&c, 0, LAB_ITEM_QUESTION,
	    "q2")->attempts, 2);
	ck_assert_int_eq(lab_result_find(&c, 0, LAB_ITEM_QUESTION,
	    "q2")->first_correct, 0);
	ck_assert_str_eq(lab_result_find(&c, 1, LAB_ITEM_SCENARIO,
	    "oom-4000")->tradeoff, "flash attention first");
	ck_assert_int_eq(lab_result_add(&c, 0, LAB_ITEM_QUESTION, "../x", 1),
	    -1);
	free(sa);
	free(sb);
	free(sc);
	lab_result_free(&a);
	lab_result_free(&b);
	lab_result_free(&c);
}
END_TEST

START_TEST(result_hostile_input_refused)
{
	static const char *const bad[] = {
		"[]",
		"{\"user\": \"a\"}",
		"{\"user\": \"a\\u001b[2J\", \"profile\": \"p\", \"session\": \"s\","
		" \"step\": 0, \"step_since\": 0, \"updated\": 0, \"answers\": []}",
		"{\"user\": \"a\", \"profile\": \"p\", \"session\": \"s\", \"step\": -1,"
		" \"step_since\": 0, \"updated\": 0, \"answers\": []}",
		"{\"user\": \"a\", \"profile\": \"p\", \"session\": \"s\", \"step\": 0,"
		" \"step_since\": 0, \"updated\": 0, \"answers\": [{\"step\": 0,"
		" \"kind\": \"question\", \"id\": \"q1\", \"attempts\": 0,"
		" \"first_correct\": true, \"correct\": true}]}",
		"{\"user\": \"a\", \"profile\": \"p\", \"session\": \"s\", \"step\": 0,"
		" \"step_since\": 0, \"updated\": 0, \"answers\": [{\"step\": 0,"
		" \"kind\": \"essay\", \"id\": \"q1\", \"attempts\": 1,"
		" \"first_correct\": true, \"correct\": true}]}",
		/* A trade-off belongs to a scenario only. */
		"{\"user\": \"a\", \"profile\": \"p\", \"session\": \"s\", \"step\": 0,"
		" \"step_since\": 0, \"updated\": 0, \"answers\": [{\"step\": 0,"
		" \"kind\": \"question\", \"id\": \"q1\", \"attempts\": 1,"
		" \"first_correct\": true, \"correct\": true, \"tradeoff\": \"t\"}]}",
	};
	struct lab_result r;
	struct pl_err err;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		pl_err_clear(&err);
		ck_assert_msg(lab_result_parse(bad[i], "r", &r, &err) == -1,
		    "case %zu accepted", i);
		ck_assert_uint_eq(r.n_answers, 0);
	}
}
END_TEST

START_TEST(class_table_and_most_missed)
{
	struct pl_err err;
	struct lab_script *ls = parse(good, &err);
	struct lab_result r[4];
	struct lab_class cl;
	char *csv, *json;
	size_t k;

	mkresult(&r[0], "ada", "p", "S", 1);
	mkresult(&r[1], "bob", "p", "S", 1);
	mkresult(&r[2], "cy", "p", "S", 0);
	mkresult(&r[3], "old", "p", "OTHER", 0);
	lab_result_add(&r[0], 1, LAB_ITEM_QUESTION, "q1", 1);
	lab_result_add(&r[0], 1, LAB_ITEM_QUESTION, "q2", 0);
	lab_result_add(&r[0], 1, LAB_ITEM_QUESTION, "q2", 1);
	lab_result_add(&r[1], 1, LAB_ITEM_QUESTION, "q2", 0);
	lab_result_add(&r[2], 1, LAB_ITEM_QUESTION, "q1", 0);
	lab_result_add(&r[3], 1, LAB_ITEM_QUESTION, "q1", 0);
	lab_result_add(&r[3], 1, LAB_ITEM_QUESTION, "q1", 0);
	ck_assert_int_eq(lab_class_build(ls, NULL, r, 4, "S", &cl), 0);
	ck_assert_uint_eq(cl.n_students, 3);
	ck_assert_int_eq(cl.on_step[0], 1);
	ck_assert_int_eq(cl.on_step[1], 2);
	/* step 1 q1, q2 and step 3's scenario */
	ck_assert_uint_eq(cl.n_items, 3);
	for (k = 0; k < cl.n_items; k++)
		if (strcmp(cl.items[k].id, "q2") == 0) {
			ck_assert_int_eq(cl.items[k].right, 1);
			ck_assert_int_eq(cl.items[k].wrong, 1);
			ck_assert_int_eq(cl.items[k].missed, 2);
		}
	ck_assert_int_ge(cl.most_missed, 0);
	ck_assert_str_eq(cl.items[cl.most_missed].id, "q2");
	lab_class_free(&cl);
	/* A defense's trade-off goes with its scenario record (issue 14). */
	ck_assert_int_eq(lab_result_set_tradeoff(&r[0], 3, "oom-4000", "x"),
	    -1);
	lab_result_add(&r[0], 3, LAB_ITEM_SCENARIO, "oom-4000", 1);
	ck_assert_int_eq(lab_result_set_tradeoff(&r[0], 3, "oom-4000",
	    "Selective recompute costs \"10%\"\x1b[31m"), 0);
	ck_assert_str_eq(r[0].answers[r[0].n_answers - 1].tradeoff,
	    "Selective recompute costs \"10%\"");
	csv = lab_report_csv(ls, NULL, r, 4, "S");
	/* The columns from before, in their order; the grading's after. */
	ck_assert_ptr_nonnull(strstr(csv, "user,profile,step,step_title,row,"
	    "item,attempts,first_correct,correct,right,wrong,scenarios_solved,"
	    "status,tradeoff,first_try_right,right_after_feedback,earned,"
	    "guess_flags,answered,not_earned,guessing,mean_attempts,refused\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    "\"ada\",\"p\",2,\"questions drop-03\",question,q2,2,0,1,,,,right,"
	    ",0,0,0,,,,,,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    "\"bob\",\"p\",2,\"questions drop-03\",step,,,,,0,1,0,current,"
	    ",,,,,,,,,\n"));
	ck_assert_ptr_nonnull(strstr(csv, ",scenario,oom-4000,1,1,1,,,,right,"
	    "\"Selective recompute costs \"\"10%\"\"\",1,0,1,,,,,,\n"));
	ck_assert_ptr_null(strstr(csv, "\"old\""));
	json = lab_report_json(ls, NULL, r, 4, "S");
	ck_assert_ptr_nonnull(strstr(json, "\"most_missed\""));
	ck_assert_ptr_nonnull(strstr(json, "\"tradeoff\":\t\"Selective "
	    "recompute costs \\\"10%\\\"\""));
	free(csv);
	free(json);
	for (k = 0; k < 4; k++)
		lab_result_free(&r[k]);
	lab_script_free(ls);
}
END_TEST

/* A result written before the grading fields parses, with them 0. */
START_TEST(result_from_before_the_grading_parses)
{
	static const char old[] =
	    "{\"version\": 1, \"user\": \"a\", \"profile\": \"p\", \"session\":"
	    " \"s\", \"step\": 0, \"step_since\": 5, \"updated\": 6, \"answers\":"
	    " [{\"step\": 0, \"kind\": \"question\", \"id\": \"q1\", \"attempts\":"
	    " 2, \"first_correct\": false, \"correct\": true}]}";
	const struct lab_answer *a;
	struct lab_result r;
	struct pl_err err;
	char *json;

	pl_err_clear(&err);
	ck_assert_int_eq(lab_result_parse(old, "r", &r, &err), 0);
	a = lab_result_find(&r, 0, LAB_ITEM_QUESTION, "q1");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->attempts, 2);
	ck_assert_int_eq(a->correct, 1);
	ck_assert_int_eq(a->earned, 0);
	ck_assert_int_eq(a->after_feedback, 0);
	ck_assert_int_eq(a->all_ticked, 0);
	ck_assert_int_eq(a->followed, 0);
	/* Written back, it says so. */
	json = lab_result_to_json(&r);
	ck_assert_ptr_nonnull(strstr(json, "\"correct\":true,\"earned\":false,"
	    "\"after_feedback\":false,\"all_ticked\":false,\"followed\":false"));
	free(json);
	lab_result_free(&r);
}
END_TEST

START_TEST(result_grading_fields_checked)
{
#define ANSWER(x) "{\"user\": \"a\", \"profile\": \"p\", \"session\": \"s\"," \
	" \"step\": 0, \"step_since\": 0, \"updated\": 0, \"answers\": [" x "]}"
	static const char *const bad[] = {
		/* Right after feedback is earned, on a second try. */
		ANSWER("{\"step\": 0, \"kind\": \"question\", \"id\": \"q1\","
		    " \"attempts\": 2, \"first_correct\": false, \"correct\":"
		    " true, \"after_feedback\": true}"),
		ANSWER("{\"step\": 0, \"kind\": \"question\", \"id\": \"q1\","
		    " \"attempts\": 1, \"first_correct\": true, \"correct\":"
		    " true, \"earned\": true, \"after_feedback\": true}"),
		/* Guess flags are a question's. */
		ANSWER("{\"step\": 0, \"kind\": \"scenario\", \"id\": \"s1\","
		    " \"attempts\": 1, \"first_correct\": true, \"correct\":"
		    " true, \"all_ticked\": true}"),
		ANSWER("{\"step\": 0, \"kind\": \"run\", \"id\": \"run\","
		    " \"attempts\": 1, \"first_correct\": true, \"correct\":"
		    " true, \"followed\": true}"),
		ANSWER("{\"step\": 0, \"kind\": \"question\", \"id\": \"q1\","
		    " \"attempts\": 1, \"first_correct\": true, \"correct\":"
		    " true, \"earned\": 1}"),
	};
	static const char good_one[] = ANSWER("{\"step\": 0, \"kind\":"
	    " \"question\", \"id\": \"q1\", \"attempts\": 2, \"first_correct\":"
	    " false, \"correct\": true, \"earned\": true, \"after_feedback\":"
	    " true, \"all_ticked\": true, \"followed\": true}");
#undef ANSWER
	const struct lab_answer *a;
	struct lab_result r;
	struct pl_err err;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		pl_err_clear(&err);
		ck_assert_msg(lab_result_parse(bad[i], "r", &r, &err) == -1,
		    "case %zu accepted", i);
		ck_assert_msg(strncmp(err.path, "answers[0]", 10) == 0,
		    "case %zu: %s", i, err.path);
	}
	ck_assert_int_eq(lab_result_parse(good_one, "r", &r, &err), 0);
	a = lab_result_find(&r, 0, LAB_ITEM_QUESTION, "q1");
	ck_assert(a->earned && a->after_feedback && a->all_ticked &&
	    a->followed);
	lab_result_free(&r);
}
END_TEST

/* One more answer, against the question's counting tries. */
START_TEST(answer_earns_within_the_counting_tries)
{
	static const struct {
		int	tries;
		int	correct[3];	/* -1 ends */
		int	earned, after;
	} t[] = {
		{ 2, { 0, 1, -1 }, 1, 1 },	/* numeric: after feedback */
		{ 1, { 0, 1, -1 }, 0, 0 },	/* single: one try only */
		{ 2, { 1, 0, -1 }, 1, 0 },	/* first try; a later miss */
		{ 2, { 0, 0, 1 }, 0, 0 },	/* out of tries */
		{ 0, { 1, -1, -1 }, 0, 0 },	/* self-graded */
	};
	const struct lab_answer *a;
	struct lab_result r;
	size_t i, k;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		mkresult(&r, "a", "p", "S", 0);
		for (k = 0; k < 3 && t[i].correct[k] >= 0; k++)
			ck_assert_int_eq(lab_result_answer(&r, 0,
			    LAB_ITEM_QUESTION, "q1", t[i].correct[k],
			    t[i].tries), 0);
		a = lab_result_find(&r, 0, LAB_ITEM_QUESTION, "q1");
		ck_assert_int_eq(a->attempts, (int)k);
		ck_assert_msg(a->earned == t[i].earned, "case %zu earned", i);
		ck_assert_msg(a->after_feedback == t[i].after, "case %zu", i);
		lab_result_free(&r);
	}
}
END_TEST

/* score_question's record of question qid of drop-01 from answers. */
static void
graded(const struct content_course *c, const char *qid,
    const struct score_attempt *a, size_t n, struct score_record *rec)
{
	const struct content_drop *d = content_find_drop(c, "drop-01");
	size_t i;

	ck_assert_ptr_nonnull(d);
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_QUESTION &&
		    strcmp(d->blocks[i].question.id, qid) == 0) {
			score_question(&d->blocks[i].question, a, n, rec);
			return;
		}
	ck_abort_msg("drop-01 has no %s", qid);
}

/* The class item (step 0, question id). */
static const struct lab_item_stat *
item0(const struct lab_class *cl, const char *id)
{
	size_t k;

	for (k = 0; k < cl->n_items; k++)
		if (cl->items[k].step == 0 &&
		    cl->items[k].kind == LAB_ITEM_QUESTION &&
		    strcmp(cl->items[k].id, id) == 0)
			return &cl->items[k];
	ck_abort_msg("no item %s", id);
	return NULL;
}

/*
 * Issue 22: a synthetic class on drop-01 (q1 single, q2 numeric, q3
 * multiple with options 1, 2 and 4 right, q4 reveal), graded by
 * score_question from answers. ada: q1 right; q2 wrong then right (after
 * feedback); q4 self-graded got it. bob: q2 wrong then right under the
 * old rule, whose diagnostic showed the miss (followed, not earned); q3
 * every option ticked, then right (earned after feedback, flagged). cy:
 * q1 wrong; q3 every option ticked twice; q4 not answered.
 */
START_TEST(class_grading_columns)
{
	const struct score_attempt right1 = { 1, SCORE_RULE, "1", 1 };
	const struct score_attempt wrong1 = { 0, SCORE_RULE, "2", 1 };
	const struct score_attempt q2[] = { { 0, SCORE_RULE, "100", 1 },
	    { 1, SCORE_RULE, "208", 2 } };
	const struct score_attempt q2old[] = { { 0, 1, "20.8", 1 },
	    { 1, 1, "208", 2 } };
	const struct score_attempt q3[] = { { 0, SCORE_RULE, "1,2,3,4,5", 1 },
	    { 1, SCORE_RULE, "1,2,4", 2 } };
	const struct score_attempt q3all[] = { { 0, SCORE_RULE, "1,2,3,4,5", 1 },
	    { 0, SCORE_RULE, "1,2,3,4,5", 2 } };
	const struct score_attempt got = { 1, SCORE_RULE, "got", 1 };
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	struct pl_err err;
	struct lab_script *ls = parse(good, &err);
	struct lab_result r[3];
	struct score_record rec;
	struct lab_class cl;
	const struct lab_item_stat *it;
	cJSON *doc, *q, *a;
	char *csv, *json;
	int i;

	ck_assert_ptr_nonnull(c);
	mkresult(&r[0], "ada", "p", "S", 0);
	mkresult(&r[1], "bob", "p", "S", 0);
	mkresult(&r[2], "cy", "p", "S", 0);
	graded(c, "q1", &right1, 1, &rec);
	ck_assert_int_eq(lab_result_set_score(&r[0], 0, LAB_ITEM_QUESTION,
	    &rec), 0);
	graded(c, "q2", q2, 2, &rec);
	lab_result_set_score(&r[0], 0, LAB_ITEM_QUESTION, &rec);
	graded(c, "q4", &got, 1, &rec);
	lab_result_set_score(&r[0], 0, LAB_ITEM_QUESTION, &rec);
	graded(c, "q2", q2old, 2, &rec);
	lab_result_set_score(&r[1], 0, LAB_ITEM_QUESTION, &rec);
	graded(c, "q3", q3, 2, &rec);
	lab_result_set_score(&r[1], 0, LAB_ITEM_QUESTION, &rec);
	graded(c, "q1", &wrong1, 1, &rec);
	lab_result_set_score(&r[2], 0, LAB_ITEM_QUESTION, &rec);
	graded(c, "q3", q3all, 2, &rec);
	lab_result_set_score(&r[2], 0, LAB_ITEM_QUESTION, &rec);
	/* A record with no counted answer is none. */
	memset(&rec, 0, sizeof rec);
	snprintf(rec.id, sizeof rec.id, "q4");
	ck_assert_int_eq(lab_result_set_score(&r[2], 0, LAB_ITEM_QUESTION,
	    &rec), -1);
	ck_assert_ptr_null(lab_result_find(&r[2], 0, LAB_ITEM_QUESTION, "q4"));

	ck_assert_int_eq(lab_class_build(ls, c, r, 3, "S", &cl), 0);
	it = item0(&cl, "q1");
	ck_assert_int_eq(it->answered, 2);
	ck_assert_int_eq(it->first_right, 1);
	ck_assert_int_eq(it->after_feedback, 0);
	ck_assert_int_eq(it->earned, 1);
	ck_assert_int_eq(it->not_earned, 1);
	ck_assert_int_eq(it->attempts, 2);
	ck_assert_int_eq(it->guessing, 0);
	it = item0(&cl, "q2");
	ck_assert_int_eq(it->answered, 2);
	ck_assert_int_eq(it->first_right, 0);
	ck_assert_int_eq(it->after_feedback, 1);
	ck_assert_int_eq(it->earned, 1);
	ck_assert_int_eq(it->not_earned, 1);
	ck_assert_int_eq(it->attempts, 4);
	ck_assert_int_eq(it->followed, 1);
	ck_assert_int_eq(it->all_ticked, 0);
	ck_assert_int_eq(it->guessing, 1);
	ck_assert(lab_item_mean_attempts(it) == 2);
	it = item0(&cl, "q3");
	ck_assert_int_eq(it->right, 1);
	ck_assert_int_eq(it->wrong, 1);
	ck_assert_int_eq(it->after_feedback, 1);
	ck_assert_int_eq(it->earned, 1);
	ck_assert_int_eq(it->not_earned, 1);
	ck_assert_int_eq(it->all_ticked, 2);
	ck_assert_int_eq(it->guessing, 2);
	it = item0(&cl, "q4");
	ck_assert_int_eq(it->self_graded, 1);
	ck_assert_int_eq(it->answered, 1);
	ck_assert_int_eq(it->earned, 0);
	ck_assert_int_eq(it->not_earned, 0);
	lab_class_free(&cl);

	csv = lab_report_csv(ls, c, r, 3, "S");
	ck_assert_ptr_nonnull(csv);
	/* Per student: first_try_right, right_after_feedback, earned,
	 * guess_flags after the columns from before. */
	ck_assert_ptr_nonnull(strstr(csv,
	    ",question,q2,2,0,1,,,,right,,0,1,1,,,,,,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    ",question,q2,2,0,1,,,,right,,0,0,0,followed-diagnostic,,,,,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    ",question,q3,2,0,1,,,,right,,0,1,1,all-ticked,,,,,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    ",question,q3,2,0,0,,,,wrong,,0,0,0,all-ticked,,,,,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    ",question,q4,0,0,0,,,,unanswered,,0,0,0,,,,,,\n"));
	/* Per question, the class: attempts, right, wrong, kind, first try,
	 * after feedback, earned, answered, not earned, guessing, mean. */
	ck_assert_ptr_nonnull(strstr(csv,
	    ",class,q1,2,,,1,1,,question,,1,0,1,,2,1,0,1.00,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    ",class,q2,4,,,2,0,,question,,0,1,1,,2,1,1,2.00,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    ",class,q3,4,,,1,1,,question,,0,1,1,,2,1,2,2.00,\n"));
	ck_assert_ptr_nonnull(strstr(csv,
	    ",class,q4,1,,,1,0,,self-graded,,1,0,0,,1,,0,1.00,\n"));
	/* Class rows come after every student's. */
	ck_assert_ptr_null(strstr(strstr(csv, ",class,"), "\"cy\""));
	free(csv);

	json = lab_report_json(ls, c, r, 3, "S");
	doc = cJSON_Parse(json);
	ck_assert_ptr_nonnull(doc);
	cJSON_ArrayForEach(q, cJSON_GetObjectItem(doc, "questions"))
		if (strcmp(cJSON_GetObjectItem(q, "id")->valuestring,
		    "q2") == 0 && cJSON_GetObjectItem(q, "step")->valueint == 1)
			break;
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(cJSON_GetObjectItem(q, "answered")->valueint, 2);
	ck_assert_int_eq(cJSON_GetObjectItem(q, "first_try_right")->valueint, 0);
	ck_assert_int_eq(cJSON_GetObjectItem(q,
	    "right_after_feedback")->valueint, 1);
	ck_assert_int_eq(cJSON_GetObjectItem(q, "earned")->valueint, 1);
	ck_assert_int_eq(cJSON_GetObjectItem(q, "not_earned")->valueint, 1);
	ck_assert_int_eq(cJSON_GetObjectItem(q, "attempts")->valueint, 4);
	ck_assert(cJSON_GetObjectItem(q, "mean_attempts")->valuedouble == 2);
	ck_assert_int_eq(cJSON_GetObjectItem(q,
	    "followed_diagnostic")->valueint, 1);
	ck_assert_int_eq(cJSON_GetObjectItem(q, "guessing")->valueint, 1);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(q, "self_graded")));
	/* bob's q2 answer carries its flag. */
	a = NULL;
	i = 0;
	cJSON_ArrayForEach(q, cJSON_GetObjectItem(doc, "table"))
		if (i++ == 1)
			a = cJSON_GetObjectItem(q, "answers");
	ck_assert_ptr_nonnull(a);
	cJSON_ArrayForEach(q, a)
		if (strcmp(cJSON_GetObjectItem(q, "id")->valuestring, "q2") == 0)
			break;
	ck_assert_ptr_nonnull(q);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(q, "earned")));
	ck_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(q,
	    "guess_flags"), 0)->valuestring, "followed-diagnostic");
	cJSON_Delete(doc);
	free(json);
	for (i = 0; i < 3; i++)
		lab_result_free(&r[i]);
	lab_script_free(ls);
	content_free(c);
}
END_TEST

/* A lab directory with the good script; caller frees both strings. */
static char *
make_lab(char **tmp)
{
	struct pl_err err;
	struct lab_state st = { 0, 4, 1, 1, "S1" };
	char *dir;

	*tmp = test_tmpdir();
	dir = malloc(strlen(*tmp) + 8);
	sprintf(dir, "%s/lab", *tmp);
	ck_assert_int_eq(labdir_create(dir, good, &err), 0);
	ck_assert_int_eq(labdir_write_state(dir, &st, &err), 0);
	return dir;
}

START_TEST(labdir_modes_and_own_result)
{
	struct lab_result r, back;
	struct pl_err err;
	struct stat sb;
	char *tmp, *dir = make_lab(&tmp), path[2048], name[200];

	snprintf(path, sizeof path, "%s/results", dir);
	ck_assert_int_eq(lstat(path, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 07777, 03733);
	mkresult(&r, "", "my prof/1", "S1", 0);
	ck_assert_int_eq(labdir_whoami(r.user, sizeof r.user), 0);
	lab_result_add(&r, 0, LAB_ITEM_QUESTION, "q1", 1);
	ck_assert_int_eq(labdir_submit(dir, &r, &err), 0);
	ck_assert_int_eq(labdir_submit(dir, &r, &err), 0);	/* replace */
	ck_assert_int_eq(labdir_result_name(r.user, r.profile, name,
	    sizeof name), 0);
	ck_assert_ptr_nonnull(strstr(name, "@my%20prof%2F1.json"));
	snprintf(path, sizeof path, "%s/results/%s", dir, name);
	ck_assert_int_eq(lstat(path, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 0777, 0600);
	mkresult(&back, r.user, r.profile, "", 0);
	ck_assert_int_eq(labdir_read_own(dir, &back, &err), 1);
	ck_assert_uint_eq(back.n_answers, 1);
	lab_result_free(&back);
	mkresult(&back, r.user, "nobody-yet", "", 0);
	ck_assert_int_eq(labdir_read_own(dir, &back, &err), 0);
	lab_result_free(&r);
	test_rmrf(tmp);
	free(tmp);
	free(dir);
}
END_TEST

/*
 * The student screen's write (labdir_submit) merges with the file under
 * the lock: every field of a record survives, the grading's and a
 * trade-off included, and `lab submit`'s answer counts its tries.
 */
START_TEST(labdir_submit_keeps_the_grading)
{
	struct score_record rec;
	struct lab_result r, back;
	const struct lab_answer *a;
	struct pl_err err;
	char *tmp, *dir = make_lab(&tmp);

	mkresult(&r, "", "grades", "S1", 0);
	ck_assert_int_eq(labdir_whoami(r.user, sizeof r.user), 0);
	memset(&rec, 0, sizeof rec);
	snprintf(rec.id, sizeof rec.id, "q3");
	rec.attempts = 2;
	rec.earned = rec.after_feedback = rec.right = rec.last_right = 1;
	rec.all_ticked = 1;
	ck_assert_int_eq(lab_result_set_score(&r, 0, LAB_ITEM_QUESTION, &rec),
	    0);
	snprintf(rec.id, sizeof rec.id, "oom-4000");
	rec.scenario = 1;
	rec.after_feedback = 0;
	ck_assert_int_eq(lab_result_set_score(&r, 3, LAB_ITEM_SCENARIO, &rec),
	    0);
	ck_assert_int_eq(lab_result_find(&r, 3, LAB_ITEM_SCENARIO,
	    "oom-4000")->all_ticked, 0);
	ck_assert_int_eq(lab_result_set_tradeoff(&r, 3, "oom-4000", "TP 2"), 0);
	ck_assert_int_eq(labdir_submit(dir, &r, &err), 0);
	ck_assert_int_eq(labdir_submit(dir, &r, &err), 0);
	/* Another terminal: a numeric question (2 tries), wrong then right. */
	mkresult(&back, r.user, "grades", "S1", 0);
	ck_assert_int_eq(labdir_submit_answer(dir, &back, 0, LAB_ITEM_QUESTION,
	    "q2", 0, 2, NULL, 1000, &err), 0);
	lab_result_free(&back);
	mkresult(&back, r.user, "grades", "S1", 0);
	ck_assert_int_eq(labdir_submit_answer(dir, &back, 0, LAB_ITEM_QUESTION,
	    "q2", 1, 2, NULL, 1001, &err), 0);
	lab_result_free(&back);
	ck_assert_int_eq(labdir_submit(dir, &r, &err), 0);
	mkresult(&back, r.user, "grades", "", 0);
	ck_assert_int_eq(labdir_read_own(dir, &back, &err), 1);
	a = lab_result_find(&back, 0, LAB_ITEM_QUESTION, "q3");
	ck_assert_ptr_nonnull(a);
	ck_assert(a->earned && a->after_feedback && a->all_ticked &&
	    !a->followed && a->attempts == 2);
	a = lab_result_find(&back, 3, LAB_ITEM_SCENARIO, "oom-4000");
	ck_assert_ptr_nonnull(a);
	ck_assert(a->earned && !a->after_feedback && a->correct);
	ck_assert_ptr_nonnull(a->tradeoff);
	ck_assert_str_eq(a->tradeoff, "TP 2");
	a = lab_result_find(&back, 0, LAB_ITEM_QUESTION, "q2");
	ck_assert_ptr_nonnull(a);
	ck_assert(a->attempts == 2 && !a->first_correct && a->earned &&
	    a->after_feedback);
	lab_result_free(&back);
	lab_result_free(&r);
	test_rmrf(tmp);
	free(tmp);
	free(dir);
}
END_TEST

START_TEST(labdir_scan_refuses_bad_files)
{
	struct labdir_scan sc;
	struct lab_result r;
	struct pl_err err;
	char *tmp, *dir = make_lab(&tmp), path[2048], target[2048], me[64];
	char cmd[4400], *big;
	FILE *fp;

	mkresult(&r, "", "good", "S1", 0);
	labdir_whoami(r.user, sizeof r.user);
	snprintf(me, sizeof me, "%s", r.user);
	lab_result_add(&r, 0, LAB_ITEM_QUESTION, "q1", 1);
	ck_assert_int_eq(labdir_submit(dir, &r, &err), 0);
	/* A symlink to someone else's file. */
	snprintf(target, sizeof target, "%s/results/%s@good.json", dir, me);
	snprintf(path, sizeof path, "%s/results/%s@link.json", dir, me);
	ck_assert_int_eq(symlink(target, path), 0);
	/* Garbage, a bad name, an oversized file, a mismatched profile. */
	snprintf(path, sizeof path, "%s/results/%s@junk.json", dir, me);
	fp = fopen(path, "w");
	fputs("{\"user\": [1, 2", fp);
	fclose(fp);
	snprintf(path, sizeof path, "%s/results/notes.txt", dir);
	fp = fopen(path, "w");
	fclose(fp);
	snprintf(path, sizeof path, "%s/results/%s@big.json", dir, me);
	fp = fopen(path, "w");
	big = calloc(1, LABDIR_RESULT_MAX + 10);
	memset(big, ' ', LABDIR_RESULT_MAX + 9);
	fputs(big, fp);
	fclose(fp);
	free(big);
	snprintf(path, sizeof path, "%s/results/%s@other.json", dir, me);
	snprintf(cmd, sizeof cmd, "cp '%s/results/%s@good.json' '%s'",
	    dir, me, path);
	ck_assert_int_eq(system(cmd), 0);
	/* As root, a file owned by another user under our name. */
	if (geteuid() == 0) {
		snprintf(path, sizeof path, "%s/results/%s@foreign.json", dir,
		    me);
		fp = fopen(path, "w");
		fputs("{}", fp);
		fclose(fp);
		ck_assert_int_eq(chown(path, 1, 1), 0);
	}
	ck_assert_int_eq(labdir_scan(dir, &sc, &err), 0);
	ck_assert_uint_eq(sc.n, 1);
	ck_assert_str_eq(sc.results[0].profile, "good");
	ck_assert_uint_eq(sc.n_problems, geteuid() == 0 ? 6 : 5);
	labdir_scan_free(&sc);
	lab_result_free(&r);
	test_rmrf(tmp);
	free(tmp);
	free(dir);
}
END_TEST

/*
 * One student, two terminals: a `lab submit` process and a student screen
 * (which writes its whole result from a copy read at start) write at the
 * same time. Every attempt of every submit is counted, and the screen's
 * own answer survives too.
 */
#define SUBMITS	150

static void
submitter(const char *dir, const char *q, int n)
{
	struct lab_result r;
	struct pl_err err;
	int i;

	for (i = 0; i < n; i++) {
		mkresult(&r, "", "twin", "S1", 0);
		labdir_whoami(r.user, sizeof r.user);
		if (labdir_submit_answer(dir, &r, 0, LAB_ITEM_QUESTION, q,
		    i & 1, 2, NULL, 1000 + i, &err) != 0)
			_exit(1);
		lab_result_free(&r);
	}
	_exit(0);
}

START_TEST(labdir_two_terminals_lose_nothing)
{
	struct lab_result r, screen;
	struct pl_err err;
	char *tmp, *dir = make_lab(&tmp);
	const struct lab_answer *a;
	pid_t p1, p2;
	int st1, st2, i;

	if ((p1 = fork()) == 0)
		submitter(dir, "q1", SUBMITS);
	if ((p2 = fork()) == 0)
		submitter(dir, "q2", SUBMITS);
	/* Meanwhile the screen writes its stale copy, again and again. */
	mkresult(&screen, "", "twin", "S1", 0);
	labdir_whoami(screen.user, sizeof screen.user);
	lab_result_set(&screen, 0, LAB_ITEM_SCENARIO, "oom-4000", 2, 0, 1);
	for (i = 0; i < SUBMITS / 3; i++)
		ck_assert_int_eq(labdir_submit(dir, &screen, &err), 0);
	ck_assert_int_eq(waitpid(p1, &st1, 0), p1);
	ck_assert_int_eq(waitpid(p2, &st2, 0), p2);
	ck_assert(WIFEXITED(st1) && WEXITSTATUS(st1) == 0);
	ck_assert(WIFEXITED(st2) && WEXITSTATUS(st2) == 0);
	mkresult(&r, screen.user, "twin", "", 0);
	ck_assert_int_eq(labdir_read_own(dir, &r, &err), 1);
	a = lab_result_find(&r, 0, LAB_ITEM_QUESTION, "q1");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->attempts, SUBMITS);
	a = lab_result_find(&r, 0, LAB_ITEM_QUESTION, "q2");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->attempts, SUBMITS);
	ck_assert_ptr_nonnull(lab_result_find(&r, 0, LAB_ITEM_SCENARIO,
	    "oom-4000"));
	lab_result_free(&r);
	lab_result_free(&screen);
	test_rmrf(tmp);
	free(tmp);
	free(dir);
}
END_TEST

START_TEST(labdir_reset_archives)
{
	struct lab_result r;
	struct labdir_scan sc;
	struct lab_state st;
	struct pl_err err;
	char *tmp, *dir = make_lab(&tmp), arch[2048], path[2100];
	struct stat sb;

	mkresult(&r, "", "p", "S1", 0);
	labdir_whoami(r.user, sizeof r.user);
	ck_assert_int_eq(labdir_submit(dir, &r, &err), 0);
	ck_assert_int_eq(labdir_reset(dir, 1700000000, arch, sizeof arch,
	    &err), 0);
	ck_assert_ptr_nonnull(strstr(arch, "archive-20231114-221320"));
	snprintf(path, sizeof path, "%s/results", arch);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(labdir_read_state(dir, &st, &err), 0);
	ck_assert_int_eq(st.step, 0);
	ck_assert_str_ne(st.session, "S1");
	ck_assert_int_eq(labdir_scan(dir, &sc, &err), 0);
	ck_assert_uint_eq(sc.n, 0);
	labdir_scan_free(&sc);
	test_rmrf(tmp);
	free(tmp);
	free(dir);
}
END_TEST

/* The host moves the lab; the student's screen follows or stays. */
START_TEST(student_follows_the_instructor)
{
	struct lab_state was = { 2, 5, 0, 0, "s1" }, now = was;
	int view;

	now.step = 3;
	view = 2;			/* on the lab's step: follows */
	ck_assert_int_eq(lab_follow(&was, &now, 5, &view), LAB_FOLLOW_STEP);
	ck_assert_int_eq(view, 3);
	view = 1;			/* looking back: stays */
	ck_assert_int_eq(lab_follow(&was, &now, 5, &view), LAB_FOLLOW_KEEP);
	ck_assert_int_eq(view, 1);

	now.step = 0;			/* the lab goes back */
	view = 1;			/* now ahead of the lab: follows */
	ck_assert_int_eq(lab_follow(&was, &now, 5, &view), LAB_FOLLOW_STEP);
	ck_assert_int_eq(view, 0);
	now.step = 1;
	view = 1;			/* looking back at the new step */
	ck_assert_int_eq(lab_follow(&was, &now, 5, &view), LAB_FOLLOW_KEEP);
	ck_assert_int_eq(view, 1);

	now.step = 2;			/* same step: nothing */
	view = 0;
	ck_assert_int_eq(lab_follow(&was, &now, 5, &view), LAB_FOLLOW_NONE);
	ck_assert_int_eq(view, 0);

	snprintf(now.session, sizeof now.session, "s2");
	now.step = 4;			/* a reset: a new session's step */
	ck_assert_int_eq(lab_follow(&was, &now, 5, &view), LAB_FOLLOW_RESET);
	ck_assert_int_eq(view, 4);

	view = 2;			/* another script, or a bad step */
	ck_assert_int_eq(lab_follow(&was, &now, 6, &view), LAB_FOLLOW_NONE);
	now.step = 5;
	ck_assert_int_eq(lab_follow(&was, &now, 5, &view), LAB_FOLLOW_NONE);
	ck_assert_int_eq(view, 2);
}
END_TEST

/* Students look back freely, never ahead of the lab. */
START_TEST(student_moves_back_not_ahead)
{
	struct lab_state st = { 2, 5, 0, 0, "s1" };

	ck_assert_int_eq(lab_view_move(&st, 2, 1), 2);
	ck_assert_int_eq(lab_view_move(&st, 1, 1), 2);
	ck_assert_int_eq(lab_view_move(&st, 2, -1), 1);
	ck_assert_int_eq(lab_view_move(&st, 0, -1), 0);
}
END_TEST

/*
 * The start configuration a scenario step opens, through the engine's
 * own config builder: the step's override lands in it, including the
 * bandwidths that the scenario's start does not name; the course's own
 * block is left as it was.
 */
static void
scenario_cfg(const struct lab_step *st, struct cm_config *cfg,
    struct cm_config *plain)
{
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	const struct content_drop *d = content_find_drop(c, st->drop);
	const struct content_scenario *sc;
	struct lab_scenario ov;
	struct hw_catalog cat;
	struct pl_err err;
	char path[1024];
	size_t i;

	ck_assert_ptr_nonnull(d);
	snprintf(path, sizeof path, "%s/data", TOP_SRCDIR);
	ck_assert_int_eq(hw_catalog_load(&cat, path, &err), 0);
	sc = lab_step_scenario(st, d, &ov);
	ck_assert_ptr_nonnull(sc);
	ck_assert_ptr_eq(sc, &ov.sc);
	ck_assert_int_eq(scenario_start(sc->raw, &cat, cfg, "x", "", &err), 0);
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_SCENARIO)
			ck_assert_int_eq(scenario_start(d->blocks[i].scenario.raw,
			    &cat, plain, "x", "", &err), 0);
	lab_scenario_free(&ov);
	lab_scenario_free(&ov);		/* twice is harmless */
	hw_catalog_free(&cat);
	content_free(c);
}

START_TEST(scenario_override_reaches_the_start)
{
	struct cm_config cfg, plain;
	struct lab_script *ls;
	struct lab_step st;
	struct pl_err err;
	char path[1024];

	/* short-check.json's last step: h100-80gb, 4 GPUs per node. */
	snprintf(path, sizeof path, "%s/labs/short-check.json", TOP_SRCDIR);
	ls = lab_script_load(path, &err);
	ck_assert_ptr_nonnull(ls);
	ck_assert_int_eq(ls->steps[ls->n_steps - 1].kind, LAB_STEP_SCENARIO);
	scenario_cfg(&ls->steps[ls->n_steps - 1], &cfg, &plain);
	ck_assert_str_eq(cfg.gpu.name, "h100-80gb");
	ck_assert_int_eq(cfg.gpus_per_node, 4);
	ck_assert_str_eq(plain.gpu.name, "a100-80gb");
	ck_assert_int_eq(plain.gpus_per_node, 8);
	ck_assert_int_eq(cfg.gpus, plain.gpus);
	ck_assert_int_eq(cfg.tp, plain.tp);
	lab_script_free(ls);

	/* Bandwidths drop 10's start does not name are added, not lost. */
	memset(&st, 0, sizeof st);
	st.kind = LAB_STEP_SCENARIO;
	st.drop = "drop-10";
	st.scenario = "oom-4000";
	st.has_override = 1;
	st.override.gpus = 16;
	st.override.intra_bw = 150;
	st.override.inter_bw = 12.5;
	scenario_cfg(&st, &cfg, &plain);
	ck_assert_int_eq(plain.gpus, 32);
	ck_assert_int_eq(cfg.gpus, 16);
	ck_assert_double_eq_tol(cfg.intra_bw, 150e9, 1);
	ck_assert_double_eq_tol(cfg.inter_bw, 12.5e9, 1);
	ck_assert_double_eq_tol(plain.intra_bw, 300e9, 1);
	ck_assert_double_eq_tol(plain.inter_bw, 25e9, 1);
}
END_TEST

START_TEST(scenario_step_without_override_or_scenario)
{
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	const struct content_drop *d = content_find_drop(c, "drop-11");
	struct lab_step st;
	struct lab_scenario ov;
	size_t i;

	memset(&st, 0, sizeof st);
	st.kind = LAB_STEP_SCENARIO;
	st.scenario = "tp-across-nodes";
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_SCENARIO)
			ck_assert_ptr_eq(lab_step_scenario(&st, d, &ov),
			    &d->blocks[i].scenario);
	ck_assert_int_eq(ov.owned, 0);
	st.scenario = "no-such-scenario";
	st.has_override = 1;
	ck_assert_ptr_null(lab_step_scenario(&st, d, &ov));
	lab_scenario_free(&ov);
	content_free(c);
}
END_TEST

static Suite *
lab_suite(void)
{
	Suite *s = suite_create("lab");
	TCase *tc = tcase_create("script schema");

	tcase_add_test(tc, script_fields);
	tcase_add_test(tc, script_syntax_error_is_located);
	tcase_add_test(tc, script_field_errors_name_the_path);
	tcase_add_test(tc, script_checked_against_course);
	tcase_add_test(tc, script_on_phase_5);
	tcase_add_test(tc, example_labs_are_valid);
	suite_add_tcase(s, tc);
	tc = tcase_create("state and results");
	tcase_add_test(tc, state_round_trip);
	tcase_add_test(tc, result_round_trip_is_deterministic);
	tcase_add_test(tc, result_hostile_input_refused);
	tcase_add_test(tc, class_table_and_most_missed);
	tcase_add_test(tc, result_from_before_the_grading_parses);
	tcase_add_test(tc, result_grading_fields_checked);
	tcase_add_test(tc, answer_earns_within_the_counting_tries);
	tcase_add_test(tc, class_grading_columns);
	suite_add_tcase(s, tc);
	tc = tcase_create("student screen");
	tcase_add_test(tc, student_follows_the_instructor);
	tcase_add_test(tc, student_moves_back_not_ahead);
	tcase_add_test(tc, scenario_override_reaches_the_start);
	tcase_add_test(tc, scenario_step_without_override_or_scenario);
	suite_add_tcase(s, tc);
	tc = tcase_create("lab directory");
	tcase_add_test(tc, labdir_modes_and_own_result);
	tcase_add_test(tc, labdir_submit_keeps_the_grading);
	tcase_add_test(tc, labdir_scan_refuses_bad_files);
	tcase_add_test(tc, labdir_reset_archives);
	tcase_add_test(tc, labdir_two_terminals_lose_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	umask(022);
	sr = srunner_create(lab_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
