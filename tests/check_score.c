/*
 * check_score.c - what a drop's answers add up to (core/course/score):
 * read is not done; done needs every question attempted and every
 * incident passed; an item is earned within two answers (before the
 * reader gives the answer away); mastered needs every item earned; the
 * course summary adds the drops up. Also answers shown again when a drop
 * is reopened (quiz_restore, reader_restore).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/reader.h"
#include "core/course/score.h"

static struct content_option opts[2] = {
	{ "Yes", 1, "Right." }, { "No", 0, "Wrong." }
};
static struct content_block blocks[4];
static struct content_drop drop;

/* A drop: text, a single-choice q1, a numeric q2, the incident "inc". */
static void
setup(void)
{
	memset(blocks, 0, sizeof blocks);
	memset(&drop, 0, sizeof drop);
	blocks[0].kind = CONTENT_TEXT;
	blocks[0].text = "Read this.";
	blocks[1].kind = CONTENT_QUESTION;
	blocks[1].question.id = "q1";
	blocks[1].question.type = CONTENT_Q_SINGLE;
	blocks[1].question.prompt = "Yes?";
	blocks[1].question.options = opts;
	blocks[1].question.n_options = 2;
	blocks[2].kind = CONTENT_QUESTION;
	blocks[2].question.id = "q2";
	blocks[2].question.type = CONTENT_Q_NUMERIC;
	blocks[2].question.prompt = "How many GB?";
	blocks[2].question.quantity = "model_state_gb";
	blocks[2].question.unit = "GB";
	blocks[2].question.tolerance = 0.05;
	blocks[3].kind = CONTENT_SCENARIO;
	blocks[3].scenario.id = "inc";
	blocks[3].scenario.title = "Incident";
	blocks[3].scenario.brief = "It broke.";
	drop.id = "drop-x";
	drop.blocks = blocks;
	drop.n_blocks = 4;
}

static struct score_record
rec(const char *id, int scenario, int attempts, int earned, int first,
    int last, const char *response)
{
	struct score_record r;

	memset(&r, 0, sizeof r);
	strcpy(r.id, id);
	r.scenario = scenario;
	r.attempts = attempts;
	r.earned = earned;
	r.first_right = first;
	r.last_right = last;
	strcpy(r.response, response);
	return r;
}

START_TEST(read_is_not_done)
{
	struct drop_score s;

	score_drop(&drop, NULL, 0, 1, &s);
	ck_assert_int_eq(s.questions, 2);
	ck_assert_int_eq(s.incidents, 1);
	ck_assert_int_eq(s.items, 3);
	ck_assert(!s.done);
	ck_assert_int_eq(score_status(CURRICULUM_READ, &s), CURRICULUM_READ);
	ck_assert_int_eq(score_status(CURRICULUM_STARTED, &s),
	    CURRICULUM_STARTED);
}
END_TEST

START_TEST(done_needs_every_question_and_the_incident)
{
	struct score_record r[3];
	struct drop_score s;

	/* q1 wrong then right (earned); q2 wrong three times. */
	r[0] = rec("q1", 0, 2, 1, 0, 1, "1");
	r[1] = rec("q2", 0, 3, 0, 0, 0, "12");
	score_drop(&drop, r, 2, 1, &s);
	ck_assert_int_eq(s.attempted, 2);
	ck_assert_int_eq(s.first_right, 0);
	ck_assert_int_eq(s.earned, 1);
	ck_assert(!s.done);		/* the incident has not passed */
	/* A failed incident is not passed either. */
	r[2] = rec("inc", 1, 2, 0, 0, 0, "");
	score_drop(&drop, r, 3, 1, &s);
	ck_assert(!s.done);
	r[2] = rec("inc", 1, 3, 1, 0, 1, "");
	score_drop(&drop, r, 3, 0, &s);
	ck_assert(s.done);		/* done without having read the end */
	ck_assert(!s.mastered);
	ck_assert_int_eq(s.incidents_passed, 1);
	ck_assert_double_eq_tol(s.score, 2.0 / 3, 1e-12);
	ck_assert_int_eq(score_status(CURRICULUM_STARTED, &s),
	    CURRICULUM_DONE);
	/* q2 earned too: mastered. */
	r[1] = rec("q2", 0, 2, 1, 0, 1, "107.8");
	score_drop(&drop, r, 3, 1, &s);
	ck_assert(s.mastered);
	ck_assert_double_eq(s.score, 1);
	ck_assert_int_eq(score_status(CURRICULUM_READ, &s),
	    CURRICULUM_MASTERED);
	/* A record of a question the drop no longer has changes nothing. */
	r[0] = rec("gone", 0, 1, 1, 1, 1, "1");
	score_drop(&drop, r, 3, 1, &s);
	ck_assert(!s.done);
	ck_assert_int_eq(s.attempted, 1);
}
END_TEST

START_TEST(a_drop_without_items)
{
	struct drop_score s;

	drop.n_blocks = 1;
	score_drop(&drop, NULL, 0, 0, &s);
	ck_assert(!s.done);
	score_drop(&drop, NULL, 0, 1, &s);
	ck_assert(s.done);
	ck_assert(!s.mastered);
	ck_assert_int_eq(score_status(CURRICULUM_READ, &s), CURRICULUM_DONE);
}
END_TEST

START_TEST(course_summary)
{
	struct content_drop d[3];
	struct content_course c;
	struct drop_score s[3];
	enum curriculum_status st[3];
	struct course_summary sum;
	struct score_record r[3];

	memset(&c, 0, sizeof c);
	d[0] = d[1] = d[2] = drop;
	c.drops = d;
	c.n_drops = 3;
	r[0] = rec("q1", 0, 1, 1, 1, 1, "1");
	r[1] = rec("q2", 0, 3, 0, 0, 1, "108");
	r[2] = rec("inc", 1, 1, 1, 1, 1, "");
	score_drop(&d[0], r, 3, 1, &s[0]);	/* done, 2/3 */
	r[1] = rec("q2", 0, 1, 1, 1, 1, "108");
	score_drop(&d[1], r, 3, 1, &s[1]);	/* mastered */
	score_drop(&d[2], NULL, 0, 1, &s[2]);	/* read */
	st[0] = score_status(CURRICULUM_READ, &s[0]);
	st[1] = score_status(CURRICULUM_READ, &s[1]);
	st[2] = score_status(CURRICULUM_READ, &s[2]);
	score_course(&c, s, st, &sum);
	ck_assert_int_eq(sum.drops, 3);
	ck_assert_int_eq(sum.done, 2);
	ck_assert_int_eq(sum.mastered, 1);
	ck_assert_int_eq(sum.read, 1);
	ck_assert_int_eq(sum.items, 9);
	ck_assert_int_eq(sum.earned, 5);
	ck_assert_int_eq(sum.first_right, 3);
	ck_assert_int_eq(sum.weakest, 0);
	ck_assert(!sum.complete);
	st[2] = CURRICULUM_DONE;
	score_course(&c, s, st, &sum);
	ck_assert(sum.complete);
}
END_TEST

/* A reopened drop shows the answers saved before, locked when right. */
START_TEST(answers_shown_again)
{
	struct score_record r[4];
	struct quiz_state st;
	struct reader rd;

	blocks[2].question.type = CONTENT_Q_REVEAL;
	blocks[2].question.answer = "Because.";
	ck_assert_int_eq(reader_init(&rd, &drop, NULL), 0);
	r[0] = rec("q1", 0, 2, 1, 0, 1, "1");
	r[1] = rec("q2", 0, 1, 0, 0, 0, "partly");
	r[2] = rec("inc", 1, 1, 1, 1, 1, "dp=2");
	r[3] = rec("q9", 0, 1, 1, 1, 1, "1");
	reader_restore(&rd, r, 4);
	ck_assert_uint_eq(rd.quiz[1].selected, 1u);
	ck_assert(rd.quiz[1].answered && rd.quiz[1].correct);
	ck_assert_int_eq(rd.quiz[1].attempts, 2);
	ck_assert(rd.quiz[2].revealed && rd.quiz[2].answered);
	ck_assert_int_eq(rd.quiz[2].self, QUIZ_SELF_PARTLY);
	ck_assert(!rd.quiz[2].correct);
	ck_assert(rd.dirty);
	/* The right answer is locked, as one given in this visit. */
	ck_assert_int_eq(reader_view(&rd, 80, 40), 0);
	rd.marked = 1;
	ck_assert_int_eq(reader_type(&rd, '2'), READER_LOCKED);
	reader_free(&rd);
	/* A numeric answer: its text back in the box, and the hint. */
	blocks[2].question.type = CONTENT_Q_NUMERIC;
	memset(&st, 0, sizeof st);
	st.expected = 107.8;
	ck_assert_int_eq(quiz_restore(&blocks[2].question, &st, "13.5", 0, 1),
	    0);
	ck_assert_str_eq(st.input, "13.5");
	ck_assert_double_eq(st.given, 13.5);
	ck_assert_int_eq(st.hint, QUIZ_HINT_BYTES);
	ck_assert(!quiz_figure_shown(&st));
	/* Text that does not fit the question: nothing changes. */
	memset(&st, 0, sizeof st);
	ck_assert_int_eq(quiz_restore(&blocks[1].question, &st, "3", 1, 1),
	    -1);
	ck_assert_int_eq(quiz_restore(&blocks[1].question, &st, "x", 1, 1),
	    -1);
	ck_assert(!st.answered);
}
END_TEST

static Suite *
score_suite(void)
{
	Suite *s = suite_create("score");
	TCase *tc = tcase_create("drops");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, read_is_not_done);
	tcase_add_test(tc, done_needs_every_question_and_the_incident);
	tcase_add_test(tc, a_drop_without_items);
	tcase_add_test(tc, course_summary);
	tcase_add_test(tc, answers_shown_again);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(score_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
