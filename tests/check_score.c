/*
 * check_score.c - what a learner's answers add up to (core/course/score,
 * issue 22): a question is earned within its counting tries, a format
 * slip is no answer, rule-1 answers earn on the first try only, reveal
 * questions are never items; an incident is earned when it passed with
 * its first diagnosis right; attempted, done and mastered (with recall
 * on a later day); the course summary. Also answers shown again when a
 * drop is reopened (quiz_restore, reader_restore).
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
static struct content_option many[4] = {
	{ "A", 1, "a" }, { "B", 0, "b" }, { "C", 1, "c" }, { "D", 0, "d" }
};
static struct content_block blocks[5];
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
	blocks[4].kind = CONTENT_QUESTION;
	blocks[4].question.id = "q3";
	blocks[4].question.type = CONTENT_Q_REVEAL;
	blocks[4].question.prompt = "Why?";
	blocks[4].question.answer = "Because.";
	drop.id = "drop-x";
	drop.blocks = blocks;
	drop.n_blocks = 5;
}

/* Grade question block b from answers given as "R:resp" or "W:resp"
 * (right / wrong), rule 2, one second apart from t. */
static struct score_record
graded(int b, int rule, int64_t t, const char *const *answers, size_t n)
{
	struct score_attempt a[8];
	struct score_record r;
	size_t i;

	for (i = 0; i < n; i++) {
		a[i].correct = answers[i][0] == 'R';
		a[i].rule = rule;
		a[i].response = answers[i] + 2;
		a[i].at = t + (int64_t)i;
	}
	score_question(&blocks[b].question, a, n, &r);
	return r;
}

#define GRADE(b, rule, t, ...) graded((b), (rule), (t), \
	(const char *const[]){ __VA_ARGS__ }, \
	sizeof (const char *const[]){ __VA_ARGS__ } / sizeof (const char *))

static struct score_record
incident(int64_t t, const char *checks, const char *diag)
{
	struct score_attempt c[8], d[8];
	struct score_record r;
	size_t i, n = strlen(checks), nd = strlen(diag);

	for (i = 0; i < n; i++)
		c[i] = (struct score_attempt){ checks[i] == 'R', SCORE_RULE,
		    "", t + (int64_t)i };
	for (i = 0; i < nd; i++)
		d[i] = (struct score_attempt){ diag[i] == 'R', SCORE_RULE,
		    "1", t + (int64_t)i };
	score_incident("inc", c, n, d, nd, &r);
	return r;
}

START_TEST(question_rules)
{
	struct score_record r;

	/* A single choice earns on its first answer only. */
	r = GRADE(1, 2, 100, "W:2", "R:1");
	ck_assert(!r.earned && r.right && r.over);
	ck_assert_int_eq(r.attempts, 2);
	ck_assert_int_eq(r.right_at, 101);
	r = GRADE(1, 2, 100, "R:1");
	ck_assert(r.earned && r.first_right && !r.after_feedback);
	/* Numeric: right on the second counting try is earned, after
	 * feedback; on the third it is not. */
	r = GRADE(2, 2, 100, "W:50", "R:107.8");
	ck_assert(r.earned && r.after_feedback && !r.first_right);
	r = GRADE(2, 2, 100, "W:50", "W:60", "R:107.8");
	ck_assert(!r.earned && r.right);
	/* Rule 1 (its feedback showed the size): the first try only, and a
	 * right answer straight after a numeric miss followed it. */
	r = GRADE(2, 1, 100, "W:50", "R:107.8");
	ck_assert(!r.earned && r.right && r.followed);
	r = GRADE(2, 1, 100, "R:107.8");
	ck_assert(r.earned && !r.followed);
	/* Over: out of counting tries, not right. */
	r = GRADE(2, 2, 100, "W:50");
	ck_assert(!r.over);
	r = GRADE(2, 2, 100, "W:50", "W:51");
	ck_assert(r.over && !r.right);
	/* A reveal question is never earned. */
	r = GRADE(4, 2, 100, "R:got");
	ck_assert(r.reveal && !r.earned);
}
END_TEST

/* "20" saved for a fraction under rule 1 is a slip: not an answer. */
START_TEST(format_slip_is_no_answer)
{
	struct score_record r;

	blocks[2].question.quantity = "bubble_fraction";
	blocks[2].question.unit = "fraction";
	r = GRADE(2, 1, 100, "W:20", "R:0.2");
	ck_assert_int_eq(r.attempts, 1);
	ck_assert(r.earned && r.first_right);
}
END_TEST

/* Every option ticked is flagged, and never right (quiz.c grades it). */
START_TEST(every_option_ticked)
{
	struct score_record r;

	blocks[1].question.type = CONTENT_Q_MULTIPLE;
	blocks[1].question.options = many;
	blocks[1].question.n_options = 4;
	r = GRADE(1, 2, 100, "W:1,2,3,4", "R:1,3");
	ck_assert(r.all_ticked && r.earned && r.after_feedback);
	r = GRADE(1, 2, 100, "W:1,2", "R:1,3");
	ck_assert(!r.all_ticked);
}
END_TEST

START_TEST(incident_rules)
{
	struct score_record r;

	r = incident(100, "WR", "R");
	ck_assert(r.right && r.earned && !r.first_right);
	ck_assert_int_eq(r.right_at, 101);
	/* Passed after a wrong first diagnosis: passed, not earned. */
	r = incident(100, "R", "WR");
	ck_assert(r.right && !r.earned);
	/* Passed before diagnoses existed (rule 1): not earned. */
	r = incident(100, "R", "");
	ck_assert(r.right && !r.earned);
	r = incident(100, "WW", "R");
	ck_assert(!r.right && !r.earned);
	ck_assert_int_eq(r.attempts, 2);
}
END_TEST

START_TEST(read_is_not_done)
{
	struct drop_score s;

	score_drop(&drop, NULL, 0, 1, &s);
	ck_assert_int_eq(s.questions, 2);
	ck_assert_int_eq(s.reveals, 1);
	ck_assert_int_eq(s.incidents, 1);
	ck_assert_int_eq(s.items, 3);
	ck_assert(!s.done);
	ck_assert_int_eq(score_status(CURRICULUM_READ, &s), CURRICULUM_READ);
	ck_assert_int_eq(score_status(CURRICULUM_STARTED, &s),
	    CURRICULUM_STARTED);
}
END_TEST

START_TEST(attempted_done_mastered)
{
	struct score_record r[4];
	struct drop_score s;

	/* Every item tried, nothing right: attempted, not done. */
	r[0] = GRADE(1, 2, 100, "W:2");
	r[1] = GRADE(2, 2, 100, "W:1", "W:2");
	r[2] = incident(100, "W", "W");
	r[3] = GRADE(4, 2, 100, "R:got");
	score_drop(&drop, r, 4, 1, &s);
	ck_assert(s.all_attempted && !s.done);
	ck_assert_int_eq(s.self_graded, 1);
	ck_assert_int_eq(s.earned, 0);
	ck_assert_int_eq(score_status(CURRICULUM_READ, &s),
	    CURRICULUM_ATTEMPTED);
	/* Issue 22: "done" with the last question still wrong is gone. */
	r[0] = GRADE(1, 2, 100, "R:1");
	r[2] = incident(200, "WR", "R");
	score_drop(&drop, r, 4, 1, &s);
	ck_assert(!s.done);
	/* Everything right: done, at the time the last item became right;
	 * the score counts what was earned (q1, the incident). */
	r[1] = GRADE(2, 2, 300, "W:1", "W:2", "R:107.8");
	score_drop(&drop, r, 4, 1, &s);
	ck_assert(s.done && !s.mastered);
	ck_assert_int_eq(s.done_at, 302);
	ck_assert_int_eq(s.right, 2);
	ck_assert_int_eq(s.earned, 2);
	ck_assert_double_eq_tol(s.score, 2.0 / 3, 1e-12);
	ck_assert_int_eq(score_status(CURRICULUM_STARTED, &s),
	    CURRICULUM_DONE);
	/* Mastered: every card of the drop recalled on a later day. */
	score_recall(&s, 3, 2);
	ck_assert(!s.mastered);
	score_recall(&s, 3, 3);
	ck_assert(s.mastered);
	ck_assert_int_eq(score_status(CURRICULUM_READ, &s),
	    CURRICULUM_MASTERED);
	score_recall(&s, 0, 0);
	ck_assert(!s.mastered);
	/* A record of a question the drop no longer has changes nothing. */
	strcpy(r[0].id, "gone");
	score_drop(&drop, r, 4, 1, &s);
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
	score_recall(&s, 2, 2);
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
	r[0] = GRADE(1, 2, 100, "R:1");
	r[1] = GRADE(2, 2, 100, "W:1", "W:1", "R:108");
	r[2] = incident(100, "R", "R");
	score_drop(&d[0], r, 3, 1, &s[0]);	/* done, 2/3 */
	r[1] = GRADE(2, 2, 100, "W:1", "R:108");
	score_drop(&d[1], r, 3, 1, &s[1]);	/* done, 3/3 */
	score_recall(&s[1], 1, 1);		/* and mastered */
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
	ck_assert_int_eq(sum.first_right, 2);
	ck_assert_int_eq(sum.after_feedback, 1);
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
	r[0] = GRADE(1, 2, 100, "W:2", "R:1");
	r[1] = GRADE(2, 2, 100, "W:partly");
	r[2] = incident(100, "R", "R");
	r[3] = GRADE(1, 2, 100, "R:1");
	strcpy(r[3].id, "q9");
	reader_restore(&rd, r, 4);
	ck_assert_uint_eq(rd.quiz[1].selected, 1u);
	ck_assert(rd.quiz[1].answered && rd.quiz[1].correct);
	ck_assert(!rd.quiz[1].earned);
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
	/* A numeric answer: its text back in the box, and the kind of
	 * mistake (2 bytes per parameter where 16 are needed). */
	blocks[2].question.type = CONTENT_Q_NUMERIC;
	memset(&st, 0, sizeof st);
	st.expected = 107.8;
	ck_assert_int_eq(quiz_restore(&blocks[2].question, &st, "13.5", 0, 1,
	    0), 0);
	ck_assert_str_eq(st.input, "13.5");
	ck_assert_double_eq(st.given, 13.5);
	ck_assert_int_eq(st.hint, QUIZ_HINT_BYTES);
	ck_assert(!quiz_figure_shown(&blocks[2].question, &st));
	/* Text that does not fit the question: nothing changes. */
	memset(&st, 0, sizeof st);
	ck_assert_int_eq(quiz_restore(&blocks[1].question, &st, "3", 1, 1, 1),
	    -1);
	ck_assert_int_eq(quiz_restore(&blocks[1].question, &st, "x", 1, 1, 1),
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
	tcase_add_test(tc, question_rules);
	tcase_add_test(tc, format_slip_is_no_answer);
	tcase_add_test(tc, every_option_ticked);
	tcase_add_test(tc, incident_rules);
	tcase_add_test(tc, read_is_not_done);
	tcase_add_test(tc, attempted_done_mastered);
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
