/*
 * check_content.c - the course loader: valid files, every kind of broken
 * file, and the course that ships in lessons/ and flashcards/.
 */
#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "capture.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static const char *course_json =
    "{\"title\": \"T\", \"phases\": ["
    "{\"number\": 1, \"title\": \"One\"}, {\"number\": 2, \"title\": \"Two\"}]}";

static const char *drop_a =
    "{\n"
    "  \"id\": \"drop-a\", \"phase\": 1, \"number\": 2, \"title\": \"A\",\n"
    "  \"minutes\": 6,\n"
    "  \"blocks\": [\n"
    "    {\"kind\": \"text\", \"title\": \"Hi\", \"text\": \"Para one.\\n\\nPara two.\"},\n"
    "    {\"kind\": \"question\", \"id\": \"q1\", \"type\": \"single\",\n"
    "     \"prompt\": \"Pick\", \"options\": [\n"
    "       {\"text\": \"x\", \"correct\": true, \"explain\": \"yes\"},\n"
    "       {\"text\": \"y\", \"correct\": false, \"explain\": \"no\"}]},\n"
    "    {\"kind\": \"question\", \"id\": \"q2\", \"type\": \"numeric\",\n"
    "     \"prompt\": \"How much?\", \"engine\": {\"model\": \"llama2-7b\"},\n"
    "     \"quantity\": \"model_state_gb\", \"tolerance\": 0.1, \"unit\": \"GB\"},\n"
    "    {\"kind\": \"question\", \"id\": \"q3\", \"type\": \"reveal\",\n"
    "     \"prompt\": \"Why?\", \"answer\": \"Because.\"},\n"
    "    {\"kind\": \"animation\", \"mode\": \"pp\", \"schedule\": \"1f1b\",\n"
    "     \"microbatches\": 8, \"caption\": \"Watch\"}\n"
    "  ]\n"
    "}\n";

static const char *drop_b =
    "{\"id\": \"drop-b\", \"phase\": 2, \"number\": 1, \"title\": \"B\","
    " \"blocks\": [{\"kind\": \"text\", \"text\": \"b\"}]}";

static const char *deck =
    "{\"deck\": \"d1\", \"title\": \"Deck\", \"cards\": ["
    "{\"id\": \"c1\", \"drop\": \"drop-a\", \"front\": \"F\", \"back\": \"B\"},"
    "{\"id\": \"c2\", \"drop\": \"drop-b\", \"front\": \"F2\", \"back\": \"{answer} GB\","
    " \"engine\": {\"model\": \"llama2-7b\"}, \"quantity\": \"model_state_gb\"}]}";

static char *dir;

static void
setup(void)
{
	dir = test_tmpdir();
	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(test_write(dir, "lessons/course.json", course_json), 0);
	ck_assert_int_eq(test_write(dir, "lessons/1-x/01-a.json", drop_a), 0);
	ck_assert_int_eq(test_write(dir, "lessons/2-y/01-b.json", drop_b), 0);
	ck_assert_int_eq(test_write(dir, "flashcards/d1.json", deck), 0);
}

static void
teardown(void)
{
	test_rmrf(dir);
	free(dir);
}

/* Load and return the formatted first problem ("" if none). */
static struct content_course *
load(struct content_problems *p, char *first, size_t size)
{
	struct content_course *c;

	memset(p, 0, sizeof *p);
	c = content_load(dir, p);
	first[0] = '\0';
	if (p->n > 0)
		pl_err_format(&p->items[0], first, size);
	return c;
}

/* Replace the drop-a file with text and return the one problem found. */
static void
expect_drop_problem(const char *text, const char *want)
{
	struct content_problems p;
	struct content_course *c;
	char first[2048], wantfull[2048];

	ck_assert_int_eq(test_write(dir, "lessons/1-x/01-a.json", text), 0);
	test_write(dir, "flashcards/d1.json", "{\"deck\": \"d1\", \"title\": \"D\","
	    " \"cards\": [{\"id\": \"c1\", \"drop\": \"drop-b\", \"front\": \"F\","
	    " \"back\": \"B\"}]}");
	c = load(&p, first, sizeof first);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(p.n, 1);
	snprintf(wantfull, sizeof wantfull, "%s/lessons/1-x/01-a.json%s", dir,
	    want);
	ck_assert_str_eq(first, wantfull);
	ck_assert_uint_eq(c->n_drops, 1);
	ck_assert_str_eq(c->drops[0].id, "drop-b");
	content_free(c);
	content_problems_free(&p);
}

START_TEST(loads_valid_course)
{
	struct content_problems p;
	struct content_course *c;
	const struct content_drop *a;
	char first[2048];

	c = load(&p, first, sizeof first);
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(p.n == 0, "unexpected problem: %s", first);
	ck_assert_str_eq(c->title, "T");
	ck_assert_uint_eq(c->n_phases, 2);
	ck_assert_uint_eq(c->n_drops, 2);
	/* sorted by number, not by folder */
	ck_assert_str_eq(c->drops[0].id, "drop-b");
	ck_assert_str_eq(c->drops[1].id, "drop-a");
	a = content_find_drop(c, "drop-a");
	ck_assert_ptr_nonnull(a);
	/* drop-a has the "minutes" older files carry: read without a
	 * problem and not kept (a drop's time is core/course/duration's). */
	ck_assert_uint_eq(a->n_blocks, 5);
	ck_assert_int_eq(a->blocks[0].kind, CONTENT_TEXT);
	ck_assert_str_eq(a->blocks[0].title, "Hi");
	ck_assert_str_eq(a->blocks[0].text, "Para one.\n\nPara two.");
	ck_assert_int_eq(a->blocks[1].question.type, CONTENT_Q_SINGLE);
	ck_assert_uint_eq(a->blocks[1].question.n_options, 2);
	ck_assert_int_eq(a->blocks[1].question.options[0].correct, 1);
	ck_assert_str_eq(a->blocks[1].question.options[1].explain, "no");
	ck_assert_int_eq(a->blocks[2].question.type, CONTENT_Q_NUMERIC);
	ck_assert_str_eq(a->blocks[2].question.quantity, "model_state_gb");
	ck_assert_double_eq_tol(a->blocks[2].question.tolerance, 0.1, 1e-12);
	ck_assert_str_eq(a->blocks[3].question.answer, "Because.");
	ck_assert_str_eq(a->blocks[4].animation.req.mode, "pp");
	ck_assert_int_eq(a->blocks[4].animation.req.microbatches, 8);
	ck_assert_uint_eq(c->n_decks, 1);
	ck_assert_uint_eq(c->n_cards, 2);
	ck_assert_str_eq(c->cards[1].deck, "d1");
	ck_assert_ptr_nonnull(c->cards[1].engine);
	ck_assert_ptr_null(content_find_drop(c, "nope"));
	content_free(c);
	content_problems_free(&p);
}
END_TEST

START_TEST(syntax_error_has_line_and_column)
{
	expect_drop_problem("{\n  \"id\": \"drop-a\"\n  \"phase\": 1\n}\n",
	    ":3:3: JSON syntax error");
}
END_TEST

START_TEST(truncated_file)
{
	expect_drop_problem("{\n  \"id\": \"drop-a\",\n",
	    ":3:1: unexpected end of file in JSON");
}
END_TEST

START_TEST(empty_file)
{
	expect_drop_problem("", ":1:1: unexpected end of file in JSON");
}
END_TEST

START_TEST(not_an_object)
{
	expect_drop_problem("[1, 2]", ":1:1: top level must be a JSON object");
}
END_TEST

START_TEST(missing_field)
{
	expect_drop_problem("{\"id\": \"drop-a\", \"phase\": 1, \"number\": 2,"
	    " \"minutes\": 6, \"blocks\": []}",
	    ": title: required field is missing");
}
END_TEST

START_TEST(wrong_type)
{
	expect_drop_problem("{\"id\": \"drop-a\", \"phase\": 1, \"number\": 2,"
	    " \"title\": \"A\", \"summary\": 6, \"blocks\": []}",
	    ": summary: must be a string");
}
END_TEST

START_TEST(out_of_range)
{
	expect_drop_problem("{\"id\": \"drop-a\", \"phase\": 1, \"number\": 0,"
	    " \"title\": \"A\", \"blocks\": []}",
	    ": number: must be between 1 and 99");
}
END_TEST

START_TEST(bad_id)
{
	expect_drop_problem("{\"id\": \"Drop A\", \"phase\": 1, \"number\": 2,"
	    " \"title\": \"A\", \"minutes\": 5, \"blocks\": []}",
	    ": id: must be lowercase letters, digits and '-'");
}
END_TEST

START_TEST(unknown_phase)
{
	expect_drop_problem("{\"id\": \"drop-a\", \"phase\": 9, \"number\": 2,"
	    " \"title\": \"A\", \"minutes\": 5, \"blocks\": []}",
	    ": phase: no such phase in course.json");
}
END_TEST

START_TEST(no_blocks)
{
	expect_drop_problem("{\"id\": \"drop-a\", \"phase\": 1, \"number\": 2,"
	    " \"title\": \"A\", \"minutes\": 5, \"blocks\": []}",
	    ": blocks: must be an array of at least one block");
}
END_TEST

#define HEAD "{\"id\": \"drop-a\", \"phase\": 1, \"number\": 2, \"title\": \"A\"," \
	" \"minutes\": 5, \"blocks\": [{\"kind\": \"text\", \"text\": \"t\"}, "

START_TEST(unknown_block_kind)
{
	expect_drop_problem(HEAD "{\"kind\": \"video\"}]}",
	    ": blocks[1].kind: must be text, question, animation or scenario");
}
END_TEST

START_TEST(single_choice_two_correct)
{
	expect_drop_problem(HEAD "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"single\", \"prompt\": \"p\", \"options\": ["
	    "{\"text\": \"a\", \"correct\": true, \"explain\": \"e\"},"
	    "{\"text\": \"b\", \"correct\": true, \"explain\": \"e\"}]}]}",
	    ": blocks[1].options: a single-choice question needs exactly one correct option");
}
END_TEST

START_TEST(option_without_explanation)
{
	expect_drop_problem(HEAD "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"multiple\", \"prompt\": \"p\", \"options\": ["
	    "{\"text\": \"a\", \"correct\": true, \"explain\": \"e\"},"
	    "{\"text\": \"b\", \"correct\": false}]}]}",
	    ": blocks[1].options[1].explain: required field is missing");
}
END_TEST

START_TEST(numeric_with_typed_answer)
{
	expect_drop_problem(HEAD "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"numeric\", \"prompt\": \"p\", \"answer\": 112}]}",
	    ": blocks[1].answer: numeric answers come from the engine: use \"engine\" and \"quantity\", not a typed answer");
}
END_TEST

START_TEST(numeric_unknown_quantity)
{
	expect_drop_problem(HEAD "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"numeric\", \"prompt\": \"p\", \"engine\": {},"
	    " \"quantity\": \"vibes\"}]}",
	    ": blocks[1].quantity: unknown quantity");
}
END_TEST

/* "expect" (issue 25): "fits" or "oom", and only beside a configuration. */
START_TEST(expect_checked)
{
	expect_drop_problem(HEAD "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"numeric\", \"prompt\": \"p\", \"engine\": {},"
	    " \"expect\": \"crash\", \"quantity\": \"mfu\", \"unit\": \"%\"}]}",
	    ": blocks[1].expect: must be \"fits\" or \"oom\"");
	expect_drop_problem(HEAD "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"reveal\", \"prompt\": \"p\", \"answer\": \"a\","
	    " \"expect\": \"oom\"}]}",
	    ": blocks[1].expect: only a block with an engine configuration "
	    "(\"engine\" or \"start\") says what it expects");
	expect_drop_problem(HEAD "{\"kind\": \"text\", \"text\": \"t\","
	    " \"expect\": \"oom\"}]}",
	    ": blocks[1].expect: only a block with an engine configuration "
	    "(\"engine\" or \"start\") says what it expects");
}
END_TEST

START_TEST(duplicate_question_id)
{
	expect_drop_problem(HEAD "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"reveal\", \"prompt\": \"p\", \"answer\": \"a\"},"
	    "{\"kind\": \"question\", \"id\": \"q\","
	    " \"type\": \"reveal\", \"prompt\": \"p\", \"answer\": \"a\"}]}",
	    ": blocks[2].id: question id is used twice in this drop");
}
END_TEST

START_TEST(bad_animation_mode)
{
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"zz\","
	    " \"caption\": \"c\"}]}",
	    ": blocks[1].mode: must be single, dp, tp, pp, fsdp, 3d, cp or "
	    "ep");
}
END_TEST

/* The animation keys trace's switches became: typed, known, runnable. */
START_TEST(bad_animation_settings)
{
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"tp\","
	    " \"sequence_parallel\": \"yes\", \"caption\": \"c\"}]}",
	    ": blocks[1].sequence_parallel: must be true or false");
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"dp\","
	    " \"no_overlap\": 1, \"caption\": \"c\"}]}",
	    ": blocks[1].no_overlap: must be true or false");
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"pp\","
	    " \"compute_only\": \"on\", \"caption\": \"c\"}]}",
	    ": blocks[1].compute_only: must be true or false");
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"tp\","
	    " \"sequence-parallel\": true, \"caption\": \"c\"}]}",
	    ": blocks[1].sequence-parallel: is not an animation key (mode, "
	    "gpus, microbatches, schedule, virtual_stages, tp, moe, top_k, "
	    "shared_expert, router_bias, ep, pp, "
	    "sequence_parallel, no_overlap, compute_only, caption)");
	/* Each setting valid alone, but not a run the toy can make. */
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"pp\","
	    " \"sequence_parallel\": true, \"caption\": \"c\"}]}",
	    ": blocks[1]: sequence parallelism splits a tensor-parallel group: "
	    "it needs tp or 3d");
	/* a block's tp splits CP ranks, as trace's --tp does */
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"dp\","
	    " \"tp\": 2, \"caption\": \"c\"}]}",
	    ": blocks[1]: tp 2 splits each CP rank: it needs mode cp (tp mode "
	    "takes its degree from the GPUs)");
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"pp\","
	    " \"gpus\": 3, \"caption\": \"c\"}]}",
	    ": blocks[1]: 3 stages x 1 virtual stages do not divide the "
	    "model's 4 layers");
	/* ep's layouts: EP must divide the experts, top-k at most E */
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"ep\","
	    " \"gpus\": 4, \"ep\": 3, \"caption\": \"c\"}]}",
	    ": blocks[1]: ep 3 does not divide the 8 experts");
	expect_drop_problem(HEAD "{\"kind\": \"animation\", \"mode\": \"ep\","
	    " \"moe\": 2, \"top_k\": 3, \"caption\": \"c\"}]}",
	    ": blocks[1]: top-k 3 is more than the 2 experts");
}
END_TEST

START_TEST(scenario_without_goal)
{
	expect_drop_problem(HEAD "{\"kind\": \"scenario\", \"id\": \"s\","
	    " \"title\": \"t\", \"brief\": \"b\", \"solution\": \"s\","
	    " \"start\": {}}]}",
	    ": blocks[1].goal: must be an object holding the success criteria");
}
END_TEST

START_TEST(invalid_utf8)
{
	expect_drop_problem("{\n \"id\": \"drop-a\", \"title\": \"caf\xc3\x28\"}",
	    ":2:31: invalid UTF-8 in file");
}
END_TEST

START_TEST(duplicate_drop_number)
{
	struct content_problems p;
	struct content_course *c;
	char first[2048];

	test_write(dir, "lessons/2-y/02-c.json", "{\"id\": \"drop-c\", \"phase\":"
	    " 2, \"number\": 1, \"title\": \"C\", \"minutes\": 7, \"blocks\":"
	    " [{\"kind\": \"text\", \"text\": \"c\"}]}");
	c = load(&p, first, sizeof first);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_ptr_nonnull(strstr(first, "02-c.json: number: drop number 1 is already used by"));
	ck_assert_uint_eq(c->n_drops, 2);
	content_free(c);
	content_problems_free(&p);
}
END_TEST

START_TEST(escape_sequences_removed)
{
	struct content_problems p;
	struct content_course *c;
	char first[2048];

	test_write(dir, "lessons/2-y/01-b.json", "{\"id\": \"drop-b\", \"phase\":"
	    " 2, \"number\": 1, \"title\": \"B\\u001b[2J\\u001b]0;owned\\u0007ok\","
	    " \"minutes\": 7, \"blocks\": [{\"kind\": \"text\", \"text\":"
	    " \"a\\u0007b\\tc\\u009bd\\u001b[31me\\nf\"}]}");
	c = load(&p, first, sizeof first);
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(p.n == 0, "%s", first);
	ck_assert_str_eq(content_find_drop(c, "drop-b")->title, "Bok");
	ck_assert_str_eq(content_find_drop(c, "drop-b")->blocks[0].text,
	    "ab cde\nf");
	content_free(c);
	content_problems_free(&p);
}
END_TEST

START_TEST(card_for_unknown_drop)
{
	struct content_problems p;
	struct content_course *c;
	char first[2048];

	test_write(dir, "flashcards/d2.json", "{\"deck\": \"d2\", \"title\": \"D\","
	    " \"cards\": [{\"id\": \"c9\", \"drop\": \"drop-z\", \"front\": \"F\","
	    " \"back\": \"B\"}]}");
	c = load(&p, first, sizeof first);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_ptr_nonnull(strstr(first, "d2.json: cards[0]: card names drop \"drop-z\", which is not loaded"));
	ck_assert_uint_eq(c->n_decks, 1);
	ck_assert_uint_eq(c->n_cards, 2);
	content_free(c);
	content_problems_free(&p);
}
END_TEST

START_TEST(duplicate_card_id)
{
	struct content_problems p;
	struct content_course *c;
	char first[2048];

	test_write(dir, "flashcards/d2.json", "{\"deck\": \"d2\", \"title\": \"D\","
	    " \"cards\": [{\"id\": \"c1\", \"drop\": \"drop-a\", \"front\": \"F\","
	    " \"back\": \"B\"}]}");
	c = load(&p, first, sizeof first);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_ptr_nonnull(strstr(first, "cards[0]: card id \"c1\" is malformed or used by another card"));
	content_free(c);
	content_problems_free(&p);
}
END_TEST

START_TEST(missing_course_file)
{
	struct content_problems p;
	char path[2048], first[2048];

	snprintf(path, sizeof path, "%s/lessons/course.json", dir);
	remove(path);
	ck_assert_ptr_null(load(&p, first, sizeof first));
	ck_assert_uint_eq(p.n, 1);
	ck_assert_ptr_nonnull(strstr(first, "course.json: No such file or directory"));
	content_problems_free(&p);
}
END_TEST

START_TEST(oversized_file)
{
	struct content_problems p;
	struct content_course *c;
	char first[2048], *big;
	size_t n = 5u * 1024 * 1024;

	big = malloc(n + 1);
	memset(big, ' ', n);
	big[n] = '\0';
	test_write(dir, "lessons/1-x/01-a.json", big);
	free(big);
	c = load(&p, first, sizeof first);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(first, "01-a.json: file is larger than"));
	content_free(c);
	content_problems_free(&p);
}
END_TEST

/* The course that ships: 17 drops in 5 phases, titles from the outline. */
START_TEST(shipped_course_is_valid)
{
	static const char *titles[17] = {
		"Three different things people call 'parallel'",
		"Same model, different examples, sum the gradients",
		"Cut the matmul, not the batch",
		"Stack the layers across machines",
		"One forward pass under pure data parallelism",
		"Activations crossing the fabric every layer",
		"Microbatches filling the pipeline",
		"Stack DP, TP, and PP on the same eight GPUs",
		"Counting bytes per GPU under each regime",
		"Your 13B training run just crashed at step 4,000",
		"Your throughput dropped 40% after moving to a bigger cluster",
		"Your pipeline has a 35% bubble and you can't increase M",
		"Choose (DP, TP, PP) for a 30B model on 32 GPUs",
		"Defend a (DP, TP, PP) tuple for a 70B model on 64 GPUs",
		"Long context: when activations outgrow TP",
		"Sparse models: experts and expert parallelism",
		"Pipeline schedules: zero bubble and DualPipe",
	};
	static const int phase[17] = { 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4,
	    5, 5, 5 };
	struct content_problems p = { NULL, 0, 0 };
	struct content_course *c;
	char buf[2048];
	size_t i;

	c = content_load(TOP_SRCDIR, &p);
	ck_assert_ptr_nonnull(c);
	for (i = 0; i < p.n; i++)
		fprintf(stderr, "%s\n", pl_err_format(&p.items[i], buf,
		    sizeof buf));
	ck_assert_uint_eq(p.n, 0);
	ck_assert_uint_eq(c->n_phases, 5);
	ck_assert_uint_eq(c->n_drops, 17);
	for (i = 0; i < 17; i++) {
		ck_assert_int_eq(c->drops[i].number, (int)i + 1);
		ck_assert_str_eq(c->drops[i].title, titles[i]);
		ck_assert_int_eq(c->drops[i].phase, phase[i]);
		ck_assert_int_eq(c->drops[i].blocks[0].kind, CONTENT_TEXT);
	}
	content_free(c);
	content_problems_free(&p);
}
END_TEST

static Suite *
content_suite(void)
{
	Suite *s = suite_create("content");
	TCase *tc;

	tc = tcase_create("valid files");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, loads_valid_course);
	tcase_add_test(tc, escape_sequences_removed);
	suite_add_tcase(s, tc);

	tc = tcase_create("malformed files");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, syntax_error_has_line_and_column);
	tcase_add_test(tc, truncated_file);
	tcase_add_test(tc, empty_file);
	tcase_add_test(tc, not_an_object);
	tcase_add_test(tc, missing_field);
	tcase_add_test(tc, wrong_type);
	tcase_add_test(tc, out_of_range);
	tcase_add_test(tc, bad_id);
	tcase_add_test(tc, unknown_phase);
	tcase_add_test(tc, no_blocks);
	tcase_add_test(tc, unknown_block_kind);
	tcase_add_test(tc, single_choice_two_correct);
	tcase_add_test(tc, option_without_explanation);
	tcase_add_test(tc, numeric_with_typed_answer);
	tcase_add_test(tc, numeric_unknown_quantity);
	tcase_add_test(tc, expect_checked);
	tcase_add_test(tc, duplicate_question_id);
	tcase_add_test(tc, bad_animation_mode);
	tcase_add_test(tc, bad_animation_settings);
	tcase_add_test(tc, scenario_without_goal);
	tcase_add_test(tc, invalid_utf8);
	tcase_add_test(tc, duplicate_drop_number);
	tcase_add_test(tc, card_for_unknown_drop);
	tcase_add_test(tc, duplicate_card_id);
	tcase_add_test(tc, missing_course_file);
	tcase_add_test(tc, oversized_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("shipped course");
	tcase_add_test(tc, shipped_course_is_valid);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	sr = srunner_create(content_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
