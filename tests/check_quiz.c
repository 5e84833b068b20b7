/*
 * check_quiz.c - grading answers and how answered questions are laid out.
 */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/answer.h"
#include "core/engine/hardware.h"
#include "core/course/layout.h"
#include "core/course/quiz.h"

static struct content_option opts[3] = {
	{ "Data parallelism", 1, "It splits the batch." },
	{ "Tensor parallelism", 0, "TP splits weight matrices." },
	{ "Pipeline parallelism", 1, "It splits layers." },
};

static struct content_question
question(enum content_qtype t)
{
	struct content_question q;

	memset(&q, 0, sizeof q);
	q.id = "q1";
	q.type = t;
	q.prompt = "Pick";
	q.options = opts;
	q.n_options = 3;
	q.tolerance = 0.05;
	q.unit = "GB";
	q.answer = "Because.";
	q.explain = "General explanation.";
	return q;
}

START_TEST(single_choice_replaces)
{
	struct content_question q = question(CONTENT_Q_SINGLE);
	struct quiz_state st;

	memset(&st, 0, sizeof st);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), -1);
	ck_assert_int_eq(quiz_choose(&q, &st, 1), 0);
	ck_assert_int_eq(quiz_choose(&q, &st, 0), 0);
	ck_assert_uint_eq(st.selected, 1u);
	ck_assert_int_eq(quiz_choose(&q, &st, 3), -1);
	ck_assert_int_eq(quiz_choose(&q, &st, -1), -1);
}
END_TEST

START_TEST(multiple_choice_needs_exact_set)
{
	struct content_question q = question(CONTENT_Q_MULTIPLE);
	struct quiz_state st;
	char resp[32];

	memset(&st, 0, sizeof st);
	quiz_choose(&q, &st, 0);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 0);
	quiz_choose(&q, &st, 2);
	quiz_choose(&q, &st, 1);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 0);
	quiz_choose(&q, &st, 1);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 1);
	ck_assert_int_eq(st.attempts, 3);
	quiz_response(&q, &st, resp, sizeof resp);
	ck_assert_str_eq(resp, "1,3");
}
END_TEST

START_TEST(numeric_tolerance)
{
	struct content_question q = question(CONTENT_Q_NUMERIC);
	struct quiz_state st;

	memset(&st, 0, sizeof st);
	st.expected = NAN;
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "112"), -1);
	st.expected = 112.0;
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "abc"), -1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "112x"), -1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "117.5"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "117.7"), 0);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "1.064e2"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "106.3"), 0);
	ck_assert_int_eq(st.attempts, 4);
	ck_assert(quiz_within(0.001, 0.0, 0.01));
	ck_assert(!quiz_within(0.1, 0.0, 0.01));
}
END_TEST

/* Submit v printed in full, as a learner would type it. */
static int
submit(const struct content_question *q, struct quiz_state *st, double v)
{
	char text[64];

	snprintf(text, sizeof text, "%.17g", v);
	return quiz_submit_numeric(q, st, text);
}

/*
 * The tolerance is relative and its edge is inclusive: |x - want| <=
 * tolerance |want|. Just inside (one part in 1e9 of want) passes, just
 * outside fails, on both sides, for several answers and tolerances.
 */
START_TEST(numeric_tolerance_boundary)
{
	static const double wants[] = { 112, 13.03314432, 0.35, 1.3157e9,
	    -40, 7.0 / 103 };
	static const double tols[] = { 0.01, 0.02, 0.05, 0.1, 0.25 };
	struct content_question q = question(CONTENT_Q_NUMERIC);
	struct quiz_state st;
	size_t i, j;

	memset(&st, 0, sizeof st);
	for (i = 0; i < sizeof wants / sizeof wants[0]; i++) {
		for (j = 0; j < sizeof tols / sizeof tols[0]; j++) {
			double w = wants[i], e = tols[j] * fabs(w);
			double in = 1e-9 * fabs(w);

			q.tolerance = tols[j];
			st.expected = w;
			ck_assert_msg(submit(&q, &st, w + e - in) == 1,
			    "%g +%g: just inside above", w, tols[j]);
			ck_assert_msg(submit(&q, &st, w - e + in) == 1,
			    "%g +%g: just inside below", w, tols[j]);
			ck_assert_msg(submit(&q, &st, w + e + in) == 0,
			    "%g +%g: just outside above", w, tols[j]);
			ck_assert_msg(submit(&q, &st, w - e - in) == 0,
			    "%g +%g: just outside below", w, tols[j]);
		}
	}
	/* Exactly on the edge counts: 5 % of 200 is 10. */
	q.tolerance = 0.05;
	st.expected = 200;
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "210"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "190"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "210.000001"), 0);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "189.999999"), 0);
	ck_assert(quiz_within(210, 200, 0.05));
	ck_assert(!quiz_within(nextafter(210, 300), 200, 0.05));
	ck_assert(!quiz_within(nextafter(190, 0), 200, 0.05));
	/* Tolerance 0: only the figure itself. */
	ck_assert(quiz_within(112, 112, 0));
	ck_assert(!quiz_within(nextafter(112, 113), 112, 0));
	/* An expected 0 takes the tolerance as absolute. */
	ck_assert(quiz_within(0.05, 0, 0.05));
	ck_assert(quiz_within(-0.05, 0, 0.05));
	ck_assert(!quiz_within(0.0500001, 0, 0.05));
}
END_TEST

START_TEST(reveal_needs_reveal_first)
{
	struct quiz_state st;

	memset(&st, 0, sizeof st);
	ck_assert_int_eq(quiz_self_grade(&st, QUIZ_SELF_GOT), -1);
	st.revealed = 1;
	ck_assert_int_eq(quiz_self_grade(&st, QUIZ_SELF_PARTLY), 0);
	ck_assert_int_eq(quiz_self_grade(&st, QUIZ_SELF_GOT), 1);
}
END_TEST

/*
 * The forms a learner may type (issue 14): a percentage where a fraction
 * is asked, a ratio, scientific notation, and the locale's decimal comma.
 */
START_TEST(numeric_forms)
{
	struct content_question q = question(CONTENT_Q_NUMERIC);
	struct quiz_state st;

	memset(&st, 0, sizeof st);
	q.quantity = "bubble_fraction";
	q.unit = "of the step";
	q.tolerance = 0.02;
	st.expected = 3.0 / 11;			/* 0.2727 */
	ck_assert(quiz_wants_fraction(&q));
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "27%"), 1);
	ck_assert_double_eq_tol(st.given, 0.27, 1e-12);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "27.3 %"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "3/11"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "2.727e-1"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "0.27"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "3/0"), -1);
	/* 27 where a fraction is asked: a format slip, no answer, and no
	 * try counted (issue 22). */
	st.attempts = 0;
	st.answered = 0;
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "27"), QUIZ_NOT_FRACTION);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "1.2"), QUIZ_NOT_FRACTION);
	ck_assert_int_eq(st.attempts, 0);
	ck_assert_int_eq(st.answered, 0);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "1"), 0);
	ck_assert_int_eq(st.attempts, 1);
	/* GB is not a fraction: 27% is read as 27. */
	q = question(CONTENT_Q_NUMERIC);
	q.quantity = "model_state_gb";
	ck_assert(!quiz_wants_fraction(&q));
	st.expected = 27;
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "27%"), 1);
	st.expected = 107.8;
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "1.078E2"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "107,8"), -1);
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) {
		ck_assert_msg(getenv("CI") == NULL || strcmp(getenv("CI"),
		    "true") != 0, "de_DE.UTF-8 must exist under CI");
		return;
	}
	/* German: the decimal comma, and '.' still works. */
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "107,8"), 1);
	ck_assert_double_eq_tol(st.given, 107.8, 1e-9);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "107.8"), 1);
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "10,78e1"), 1);
	setlocale(LC_NUMERIC, "C");
}
END_TEST

/*
 * The diagnostic a first miss gets instead of the figure names one kind
 * of mistake, and only when exactly one cause explains the ratio.
 */
START_TEST(numeric_hints)
{
	static const double t2[] = { 2, 4, 4 }, t4[] = { 4, 8, 32 };

	/* GB typed as MB, or bytes as GB. */
	ck_assert_int_eq(quiz_numeric_hint(107800, 107.8, 1, NULL, 0),
	    QUIZ_HINT_UNITS);
	ck_assert_int_eq(quiz_numeric_hint(107.8e-9, 107.8, 1, NULL, 0),
	    QUIZ_HINT_UNITS);
	/* 2 bytes per parameter where 16 are needed: 1/8, memory only. */
	ck_assert_int_eq(quiz_numeric_hint(13.48, 107.8, 1, NULL, 0),
	    QUIZ_HINT_BYTES);
	ck_assert_int_eq(quiz_numeric_hint(80.85, 107.8, 1, NULL, 0),
	    QUIZ_HINT_BYTES);
	ck_assert_int_eq(quiz_numeric_hint(80.85, 107.8, 0, NULL, 0),
	    QUIZ_HINT_NONE);
	/* A time off by two: counted once, happens twice. */
	ck_assert_int_eq(quiz_numeric_hint(0.5, 1.0, 0, NULL, 0),
	    QUIZ_HINT_TWICE);
	ck_assert_int_eq(quiz_numeric_hint(2.02, 1.0, 0, NULL, 0),
	    QUIZ_HINT_TWICE);
	ck_assert_int_eq(quiz_numeric_hint(-1, 1.0, 0, NULL, 0),
	    QUIZ_HINT_SIGN);
	/* No cause: nothing specific, and never a size or direction. */
	ck_assert_int_eq(quiz_numeric_hint(3.1, 1.0, 0, NULL, 0),
	    QUIZ_HINT_NONE);
	ck_assert_int_eq(quiz_numeric_hint(0.3, 1.0, 0, NULL, 0),
	    QUIZ_HINT_NONE);
	ck_assert_int_eq(quiz_numeric_hint(-3, 1.0, 0, NULL, 0),
	    QUIZ_HINT_NONE);
	/* Off by a degree of the layout (DP 32): per GPU vs per group. */
	ck_assert_int_eq(quiz_numeric_hint(3.2, 0.1, 0, t4, 3),
	    QUIZ_HINT_GROUP);
	/* Off by TP x PP = 32, a product of two degrees. */
	ck_assert_int_eq(quiz_numeric_hint(32, 1, 0, t4, 3),
	    QUIZ_HINT_GROUP);
	/*
	 * Drop 13 q1 (issue 22): a missing division by t = 2 of a memory
	 * figure is a factor of 2, a degree and a ratio of bytes counts at
	 * once; no single cause, so no named one (it said "bytes").
	 */
	ck_assert_int_eq(quiz_numeric_hint(54.4, 27.2, 1, t2, 3),
	    QUIZ_HINT_NONE);
	/* 4 = TP 4 and 16/4 bytes: ambiguous too. */
	ck_assert_int_eq(quiz_numeric_hint(40, 10, 1, t4, 3),
	    QUIZ_HINT_NONE);
	ck_assert_int_eq(quiz_numeric_hint(40, 10, 0, t4, 3),
	    QUIZ_HINT_GROUP);
}
END_TEST

/* The degrees a question's configuration names, those above 1. */
START_TEST(question_degrees)
{
	struct content_question q = question(CONTENT_Q_NUMERIC);
	double d[QUIZ_MAX_DEGREES];

	ck_assert_uint_eq(quiz_degrees(&q, d), 0);
	q.engine = cJSON_Parse("{\"tp\": 2, \"pp\": 1, \"dp\": 4, "
	    "\"gpus\": 8}");
	ck_assert_ptr_nonnull(q.engine);
	ck_assert_uint_eq(quiz_degrees(&q, d), 3);
	ck_assert_double_eq(d[0], 2);
	ck_assert_double_eq(d[1], 4);
	ck_assert_double_eq(d[2], 8);
	cJSON_Delete(q.engine);
}
END_TEST

/*
 * Counting tries (issue 22): a single choice earns on its first answer
 * only; multiple choice and numeric on the first or second. Ticking
 * every option is wrong unless every option is right.
 */
START_TEST(counting_tries_and_earned)
{
	struct content_question q = question(CONTENT_Q_SINGLE);
	struct quiz_state st;

	ck_assert_int_eq(quiz_counting_tries(&q), 1);
	q.n_options = 2;		/* one right option: "Data parallelism" */
	memset(&st, 0, sizeof st);
	quiz_choose(&q, &st, 1);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 0);
	ck_assert(quiz_over(&q, &st));
	quiz_choose(&q, &st, 0);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 1);
	ck_assert(!st.earned);

	q = question(CONTENT_Q_MULTIPLE);
	ck_assert_int_eq(quiz_counting_tries(&q), 2);
	memset(&st, 0, sizeof st);
	quiz_choose(&q, &st, 0);
	quiz_choose(&q, &st, 1);
	quiz_choose(&q, &st, 2);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 0);
	ck_assert_int_eq(quiz_choice_mistake(&q, &st), QUIZ_CHOICE_EXTRA);
	ck_assert(!quiz_over(&q, &st));
	quiz_choose(&q, &st, 1);
	quiz_choose(&q, &st, 2);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 0);
	ck_assert_int_eq(quiz_choice_mistake(&q, &st), QUIZ_CHOICE_MISSING);
	ck_assert(quiz_over(&q, &st));
	quiz_choose(&q, &st, 2);
	ck_assert_int_eq(quiz_submit_choice(&q, &st), 1);
	ck_assert(!st.earned);

	q = question(CONTENT_Q_NUMERIC);
	memset(&st, 0, sizeof st);
	st.expected = 100;
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "50"), 0);
	ck_assert(!quiz_figure_shown(&q, &st));
	ck_assert_int_eq(quiz_submit_numeric(&q, &st, "100"), 1);
	ck_assert(st.earned);
	ck_assert_int_eq(quiz_counting_tries(&(struct content_question){
	    .type = CONTENT_Q_REVEAL }), 0);
}
END_TEST

static int
has_line(const struct layout *lo, const char *text, enum layout_style style)
{
	size_t i;

	for (i = 0; i < lo->n; i++)
		if (strcmp(lo->lines[i].text, text) == 0 &&
		    lo->lines[i].style == style)
			return 1;
	return 0;
}

/* The lines of style `style`, joined by spaces, contain text. */
static int
has_text(const struct layout *lo, const char *text, enum layout_style style)
{
	char all[4096] = "";
	size_t i, n = 0;

	for (i = 0; i < lo->n && n + 2 < sizeof all; i++)
		if (lo->lines[i].style == style)
			n += (size_t)snprintf(all + n, sizeof all - n, "%s ",
			    lo->lines[i].text);
	return strstr(all, text) != NULL;
}

START_TEST(layout_shows_verdict_and_explanations)
{
	struct content_block b[1];
	struct content_drop d;
	struct quiz_state st[1];
	struct layout lo;

	memset(&d, 0, sizeof d);
	memset(b, 0, sizeof b);
	memset(st, 0, sizeof st);
	b[0].kind = CONTENT_QUESTION;
	b[0].question = question(CONTENT_Q_MULTIPLE);
	d.blocks = b;
	d.n_blocks = 1;

	ck_assert_int_eq(layout_drop(&d, st, 100, &lo), 0);
	ck_assert(has_line(&lo, "[ ] 1) Data parallelism", LAYOUT_OPTION));
	ck_assert(has_line(&lo, "Press numbers to choose every right option, then Enter to check.", LAYOUT_NOTE));
	layout_free(&lo);

	/* Every option ticked: wrong, and nothing marks an option. */
	quiz_choose(&b[0].question, &st[0], 0);
	quiz_choose(&b[0].question, &st[0], 1);
	quiz_choose(&b[0].question, &st[0], 2);
	ck_assert_int_eq(quiz_submit_choice(&b[0].question, &st[0]), 0);
	ck_assert_int_eq(layout_drop(&d, st, 100, &lo), 0);
	ck_assert(has_line(&lo, "Not yet: at least one option you ticked is wrong. One more try counts.", LAYOUT_WRONG));
	ck_assert(!has_line(&lo, "2) TP splits weight matrices.", LAYOUT_EXPLAIN));
	ck_assert(!has_line(&lo, "1) It splits the batch.", LAYOUT_EXPLAIN));
	ck_assert(!has_line(&lo, "3) It splits layers.", LAYOUT_EXPLAIN));
	ck_assert(!has_line(&lo, "General explanation.", LAYOUT_EXPLAIN));
	layout_free(&lo);

	/* The second counting try misses: the question is over, and the
	 * reader explains every option chosen and every right one. */
	st[0].selected = 2u;
	quiz_submit_choice(&b[0].question, &st[0]);
	ck_assert_int_eq(layout_drop(&d, st, 100, &lo), 0);
	ck_assert(has_line(&lo, "2) TP splits weight matrices.", LAYOUT_EXPLAIN));
	ck_assert(has_line(&lo, "1) It splits the batch.", LAYOUT_EXPLAIN));
	ck_assert(has_line(&lo, "3) It splits layers.", LAYOUT_EXPLAIN));
	ck_assert(has_line(&lo, "General explanation.", LAYOUT_EXPLAIN));
	layout_free(&lo);

	st[0].selected = 5u;
	quiz_submit_choice(&b[0].question, &st[0]);
	ck_assert_int_eq(layout_drop(&d, st, 100, &lo), 0);
	ck_assert(has_line(&lo, "Right.", LAYOUT_RIGHT));
	layout_free(&lo);
}
END_TEST

START_TEST(layout_numeric_and_reveal)
{
	struct content_block b[2];
	struct content_drop d;
	struct quiz_state st[2];
	struct layout lo;

	memset(&d, 0, sizeof d);
	memset(b, 0, sizeof b);
	memset(st, 0, sizeof st);
	b[0].kind = CONTENT_QUESTION;
	b[0].question = question(CONTENT_Q_NUMERIC);
	b[1].kind = CONTENT_QUESTION;
	b[1].question = question(CONTENT_Q_REVEAL);
	d.blocks = b;
	d.n_blocks = 2;
	strcpy(st[0].input, "12");
	st[0].expected = 112.0;
	ck_assert_int_eq(layout_drop(&d, st, 100, &lo), 0);
	ck_assert(has_line(&lo, "Your answer: 12_ GB", LAYOUT_INPUT));
	ck_assert(has_text(&lo, "You grade yourself: it is kept with your answers, not counted in your score.", LAYOUT_NOTE));
	layout_free(&lo);
	quiz_submit_numeric(&b[0].question, &st[0], "12");
	st[1].revealed = 1;
	ck_assert_int_eq(layout_drop(&d, st, 100, &lo), 0);
	/* A first miss: no figure, no size, no direction. */
	ck_assert(has_line(&lo, "Not yet. Go through your working once more, step by step, against the formula in the text.",
	    LAYOUT_WRONG));
	ck_assert(!has_line(&lo, "General explanation.", LAYOUT_EXPLAIN));
	ck_assert(!has_line(&lo, "Not quite: the cost model gives 112 GB; you said 12.", LAYOUT_WRONG));
	layout_free(&lo);
	quiz_submit_numeric(&b[0].question, &st[0], "12");
	ck_assert_int_eq(layout_drop(&d, st, 100, &lo), 0);
	ck_assert(has_line(&lo, "Not quite: the cost model gives 112 GB; you said 12.", LAYOUT_WRONG));
	ck_assert(has_line(&lo, "General explanation.", LAYOUT_EXPLAIN));
	ck_assert(has_line(&lo, "Because.", LAYOUT_EXPLAIN));
	ck_assert(has_line(&lo, "How did you do? 1 missed it, 2 partly, 3 got it.", LAYOUT_NOTE));
	layout_free(&lo);
}
END_TEST

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/*
 * Every numeric question and card that ships is answered by the engine:
 * the loader refuses typed answers, and here each configuration evaluates.
 */
START_TEST(shipped_numeric_answers_come_from_the_engine)
{
	struct content_problems p = { NULL, 0, 0 };
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	struct hw_catalog cat;
	struct pl_err err;
	size_t i, j, want = 0;
	char buf[2048];
	int n;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(hw_catalog_load(&cat, TOP_SRCDIR "/data", &err), 0);
	for (i = 0; i < c->n_drops; i++)
		for (j = 0; j < c->drops[i].n_blocks; j++)
			if (c->drops[i].blocks[j].kind == CONTENT_QUESTION &&
			    c->drops[i].blocks[j].question.type ==
			    CONTENT_Q_NUMERIC)
				want++;
	for (i = 0; i < c->n_cards; i++)
		if (c->cards[i].engine != NULL)
			want++;
	n = answer_check_course(&cat, c, &p);
	for (i = 0; i < p.n; i++)
		fprintf(stderr, "%s\n", pl_err_format(&p.items[i], buf,
		    sizeof buf));
	ck_assert_uint_eq(p.n, 0);
	ck_assert_uint_ge(want, 20);
	ck_assert_int_eq(n, (int)want);
	content_problems_free(&p);
	hw_catalog_free(&cat);
	content_free(c);
}
END_TEST

/* Llama 2 7B's model state by the 16-bytes rule, through a lesson config. */
START_TEST(engine_answer_for_a_lesson_config)
{
	struct hw_catalog cat;
	struct pl_err err;
	cJSON *cfg;
	double v;

	ck_assert_int_eq(hw_catalog_load(&cat, TOP_SRCDIR "/data", &err), 0);
	cfg = cJSON_Parse("{\"model\": \"llama2-7b\", \"gpu\": \"h200-141gb\"}");
	ck_assert_int_eq(answer_engine(&cat, cfg, "model_state_gb", "x.json",
	    "blocks[1].engine", &v, &err), 0);
	ck_assert_double_eq_tol(v, 16 * 6.738e9 / 1e9, 0.2);
	ck_assert_int_eq(answer_engine(&cat, cfg, "vibes", "x.json",
	    "blocks[1].engine", &v, &err), -1);
	cJSON_Delete(cfg);
	cfg = cJSON_Parse("{\"model\": \"llama2-7b\", \"gpus\": 8, \"tp\": 3}");
	ck_assert_int_eq(answer_engine(&cat, cfg, "mfu", "x.json",
	    "blocks[1].engine", &v, &err), -1);
	ck_assert_str_eq(err.file, "x.json");
	cJSON_Delete(cfg);
	hw_catalog_free(&cat);
}
END_TEST

/* Problems answer_check_giveaways finds for a question after text. */
static size_t
giveaways(const struct hw_catalog *cat, const char *text, const char *quantity,
    const char *unit)
{
	struct content_problems p = { NULL, 0, 0 };
	struct content_block b[3];
	struct content_course c;
	struct content_drop d;
	size_t n;

	memset(b, 0, sizeof b);
	memset(&d, 0, sizeof d);
	memset(&c, 0, sizeof c);
	b[0].kind = CONTENT_TEXT;
	b[0].text = (char *)text;
	b[1].kind = CONTENT_QUESTION;
	b[1].question = question(CONTENT_Q_SINGLE);
	b[1].question.prompt = "Which axis?";
	b[2].kind = CONTENT_QUESTION;
	b[2].question = question(CONTENT_Q_NUMERIC);
	b[2].question.prompt = "Llama 2 70B at TP 8: model state per GPU?";
	b[2].question.quantity = (char *)quantity;
	b[2].question.unit = (char *)unit;
	b[2].question.engine = cJSON_Parse("{\"model\": \"llama2-70b\", "
	    "\"gpu\": \"a100-80gb\", \"gpus\": 16, \"tp\": 8, \"pp\": 2, "
	    "\"dp\": 1, \"global_batch\": 8}");
	d.file = "x.json";
	d.blocks = b;
	d.n_blocks = 3;
	c.drops = &d;
	c.n_drops = 1;
	answer_check_giveaways(cat, &c, &p);
	n = p.n;
	if (n > 0)
		ck_assert_str_eq(p.items[0].file, "x.json");
	cJSON_Delete(b[2].question.engine);
	content_problems_free(&p);
	return n;
}

/*
 * A numeric question may not ask for a figure printed just above it
 * (issue 14), even across a question asked before it; another unit, or a
 * number of a range in another unit, is not the figure.
 */
START_TEST(giveaway_check)
{
	struct content_problems p = { NULL, 0, 0 };
	struct content_course *c;
	struct hw_catalog cat;
	struct pl_err err;
	char text[200];
	double v;
	cJSON *cfg;

	ck_assert_int_eq(hw_catalog_load(&cat, TOP_SRCDIR "/data", &err), 0);
	cfg = cJSON_Parse("{\"model\": \"llama2-70b\", \"gpu\": "
	    "\"a100-80gb\", \"gpus\": 16, \"tp\": 8, \"pp\": 2, \"dp\": 1, "
	    "\"global_batch\": 8}");
	ck_assert_int_eq(answer_engine(&cat, cfg, "model_state_gb", "x", "",
	    &v, &err), 0);
	cJSON_Delete(cfg);
	snprintf(text, sizeof text, "Each GPU keeps about %.0f GB of state.",
	    v);
	ck_assert_uint_eq(giveaways(&cat, text, "model_state_gb", "GB"), 1);
	snprintf(text, sizeof text, "A send of %.0f MB per micro-batch.", v);
	ck_assert_uint_eq(giveaways(&cat, text, "model_state_gb", "GB"), 0);
	snprintf(text, sizeof text, "NICs of %.0f or 400 Gb/s.", v);
	ck_assert_uint_eq(giveaways(&cat, text, "model_state_gb", "GB"), 0);
	snprintf(text, sizeof text, "Counted with 16 bytes: %.2f.", v * 1.2);
	ck_assert_uint_eq(giveaways(&cat, text, "model_state_gb", "GB"), 0);
	/* The shipped course asks for no figure it has just printed. */
	c = content_load(TOP_SRCDIR, NULL);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(answer_check_giveaways(&cat, c, &p), 0);
	content_problems_free(&p);
	content_free(c);
	hw_catalog_free(&cat);
}
END_TEST

static Suite *
quiz_suite(void)
{
	Suite *s = suite_create("quiz");
	TCase *tc = tcase_create("grading");

	tcase_add_test(tc, single_choice_replaces);
	tcase_add_test(tc, multiple_choice_needs_exact_set);
	tcase_add_test(tc, numeric_tolerance);
	tcase_add_test(tc, numeric_tolerance_boundary);
	tcase_add_test(tc, numeric_forms);
	tcase_add_test(tc, numeric_hints);
	tcase_add_test(tc, question_degrees);
	tcase_add_test(tc, counting_tries_and_earned);
	tcase_add_test(tc, reveal_needs_reveal_first);
	suite_add_tcase(s, tc);
	tc = tcase_create("feedback layout");
	tcase_add_test(tc, layout_shows_verdict_and_explanations);
	tcase_add_test(tc, layout_numeric_and_reveal);
	suite_add_tcase(s, tc);
	tc = tcase_create("numeric answers from the engine");
	tcase_add_test(tc, shipped_numeric_answers_come_from_the_engine);
	tcase_add_test(tc, engine_answer_for_a_lesson_config);
	tcase_add_test(tc, giveaway_check);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	sr = srunner_create(quiz_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
