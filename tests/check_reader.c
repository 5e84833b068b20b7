/*
 * check_reader.c - the reader's question logic (core/course/reader): which
 * block a key acts on, locking and retrying, Tab and Shift-Tab, reveal,
 * the marker (which answering never moves), answers off the page and
 * "done".
 *
 * Each test builds a drop by hand from blocks whose line counts are known
 * (text blocks are verbatim lines, which are never wrapped) and calls
 * reader_view() after every key, as the screen's draw does. Numeric
 * questions get their expected figure set directly (no catalog).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/reader.h"

#define WIDTH	70
#define MAXB	16

static struct content_option opts[3] = {
	{ "Data parallelism", 1, "It splits the batch." },
	{ "Tensor parallelism", 0, "It splits weight matrices." },
	{ "Pipeline parallelism", 0, "It splits the layers." },
};

static struct content_block blocks[MAXB];
static char texts[MAXB][512];
static struct content_drop drop;
static double expected[MAXB];

static void
setup(void)
{
	memset(blocks, 0, sizeof blocks);
	memset(&drop, 0, sizeof drop);
	drop.id = "drop-t";
	drop.title = "Test drop";
	drop.file = "test.json";
	drop.blocks = blocks;
}

/* A text block of n verbatim lines. */
static int
add_text(int n)
{
	int b = (int)drop.n_blocks++, i;
	size_t len = 0;

	blocks[b].kind = CONTENT_TEXT;
	texts[b][0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(texts[b] + len, sizeof texts[b] - len,
		    "%s  text %d.%d", i > 0 ? "\n" : "", b, i);
	blocks[b].text = texts[b];
	return b;
}

static int
add_question(enum content_qtype t)
{
	int b = (int)drop.n_blocks++;
	struct content_question *q = &blocks[b].question;

	blocks[b].kind = CONTENT_QUESTION;
	snprintf(texts[b], sizeof texts[b], "q%d", b);
	q->id = texts[b];
	q->type = t;
	q->prompt = "How many?";
	q->options = opts;
	q->n_options = 3;
	q->answer = "Because.";
	q->tolerance = 0.05;
	q->unit = "GB";
	return b;
}

/* A numeric question whose figure is want: prompt and input, 2 lines. */
static int
add_numeric(double want)
{
	int b = add_question(CONTENT_Q_NUMERIC);

	expected[b] = want;
	return b;
}

/* An animation: prompt and caption, 2 lines. */
static int
add_animation(void)
{
	int b = (int)drop.n_blocks++;

	blocks[b].kind = CONTENT_ANIMATION;
	blocks[b].animation.req.mode = "dp";
	blocks[b].animation.caption = "Watch.";
	return b;
}

static void
start(struct reader *r, int page)
{
	size_t i;

	ck_assert_int_eq(reader_init(r, &drop, NULL), 0);
	for (i = 0; i < drop.n_blocks; i++)
		if (blocks[i].kind == CONTENT_QUESTION &&
		    blocks[i].question.type == CONTENT_Q_NUMERIC)
			r->quiz[i].expected = expected[i];
	r->now = 1000;
	ck_assert_int_eq(reader_view(r, WIDTH, page), 0);
}

static void
view(struct reader *r)
{
	ck_assert_int_eq(reader_view(r, WIDTH, r->page), 0);
}

/* Type s into the reader key by key, drawing after each. */
static void
type(struct reader *r, const char *s, enum reader_effect want)
{
	for (; *s != '\0'; s++) {
		ck_assert_int_eq(reader_type(r, *s), want);
		view(r);
	}
}

static void
enter(struct reader *r, enum reader_effect want)
{
	ck_assert_int_eq(reader_enter(r), want);
	view(r);
}

/* First and last lines of block b in the layout. */
static void
lines_of(const struct reader *r, int b, int *first, int *last)
{
	size_t i;

	*first = *last = -1;
	for (i = 0; i < r->lo.n; i++)
		if (r->lo.lines[i].block == b &&
		    r->lo.lines[i].style != LAYOUT_BLANK) {
			if (*first < 0)
				*first = (int)i;
			*last = (int)i;
		}
}

static int
on_page(const struct reader *r, int line)
{
	return line >= r->top && line < r->top + r->page &&
	    line < (int)r->lo.n;
}

/*
 * The defect of issue 11: after paging down, digits typed for the question
 * on screen went to an earlier numeric question answered right, whose last
 * line was still on the page, re-graded it wrong and made a mistake card.
 */
START_TEST(digits_after_page_down_reach_the_question_on_screen)
{
	struct reader r;
	int q1, q2, anim, first, last;

	add_text(4);			/* lines 0-3 */
	anim = add_animation();		/* 4 blank, 5-6 */
	q1 = add_numeric(107.8);	/* 7 blank, 8-9 */
	add_text(3);
	q2 = add_numeric(13.48);
	add_text(10);
	start(&r, 10);
	ck_assert_int_eq(r.marked, anim);

	/* The animation is marked: digits reach no question (issue 22). */
	type(&r, "1", READER_NO_QUESTION);
	ck_assert_int_eq(r.marked, anim);
	ck_assert_str_eq(r.quiz[q1].input, "");
	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, q1);
	type(&r, "108", READER_CHANGED);
	ck_assert_int_eq(r.marked, q1);
	ck_assert_str_eq(r.quiz[q1].input, "108");
	enter(&r, READER_ANSWERED);
	ck_assert_int_eq(r.acted, q1);
	ck_assert(r.quiz[q1].correct);
	lines_of(&r, q1, &first, &last);
	ck_assert_int_eq(last, r.top + r.page - 1);	/* verdict at bottom */

	/* Page down: the verdict is the top line, the prompt is gone. */
	reader_scroll(&r, r.page - 1);
	view(&r);
	ck_assert_int_eq(r.top, last);
	ck_assert(!on_page(&r, first));
	lines_of(&r, q2, &first, &last);
	ck_assert(on_page(&r, first) && on_page(&r, last));
	ck_assert_int_eq(r.marked, q2);
	ck_assert_int_eq(reader_marker_line(&r), first);

	type(&r, "13.5", READER_CHANGED);
	enter(&r, READER_ANSWERED);
	ck_assert_int_eq(r.acted, q2);
	ck_assert(r.quiz[q2].correct);
	ck_assert_str_eq(r.quiz[q1].input, "108");
	ck_assert(r.quiz[q1].answered && r.quiz[q1].correct);
	ck_assert_int_eq(r.quiz[q1].attempts, 1);
	reader_free(&r);
}
END_TEST

/* Snapshot of every block's answer state, to see which one a key changed. */
static void
snapshot(const struct reader *r, struct quiz_state *out)
{
	memcpy(out, r->quiz, drop.n_blocks * sizeof *out);
}

/*
 * At every scroll position and page size: the marker is on the page, an
 * interactive block on the page is always marked, and an answer key
 * changes the marked block only, never a locked one.
 */
START_TEST(marker_is_on_the_page_and_keys_reach_only_it)
{
	struct quiz_state before[MAXB];
	static const int pages[] = { 3, 5, 8, 13 };
	struct reader r;
	int p, i, b, any, line, steps;
	enum reader_effect e;

	add_text(3);
	add_question(CONTENT_Q_SINGLE);
	add_numeric(10);
	add_text(6);
	add_animation();
	add_question(CONTENT_Q_REVEAL);
	add_numeric(5);
	add_text(2);
	for (p = 0; p < 4; p++) {
		start(&r, pages[p]);
		for (steps = 0; steps < 60; steps++) {
			any = 0;
			for (line = r.top; on_page(&r, line); line++) {
				b = r.lo.lines[line].block;
				if (blocks[b].kind != CONTENT_TEXT &&
				    r.lo.lines[line].style != LAYOUT_BLANK)
					any = 1;
			}
			ck_assert_int_eq(r.marked >= 0, any);
			if (r.marked >= 0)
				ck_assert(on_page(&r, reader_marker_line(&r)));
			snapshot(&r, before);
			e = reader_type(&r, steps % 2 ? '1' : '0');
			for (i = 0; i < (int)drop.n_blocks; i++) {
				if (memcmp(&before[i], &r.quiz[i],
				    sizeof before[i]) == 0)
					continue;
				ck_assert_int_eq(i, r.marked);
				ck_assert(!(before[i].answered &&
				    before[i].correct));
				ck_assert(on_page(&r, reader_marker_line(&r)));
			}
			if (e == READER_CHANGED && steps % 3 == 0)
				reader_enter(&r);
			view(&r);
			reader_scroll(&r, steps % 7 == 6 ? -2 : 1);
			view(&r);
		}
		reader_free(&r);
	}
}
END_TEST

START_TEST(right_answer_is_locked_until_retry)
{
	struct reader r;
	int q;

	q = add_question(CONTENT_Q_SINGLE);
	add_numeric(112);
	start(&r, 30);
	ck_assert_int_eq(r.marked, q);
	type(&r, "1", READER_CHANGED);
	enter(&r, READER_ANSWERED);
	ck_assert(r.quiz[q].correct);
	/* The marker stays on the question answered right. */
	ck_assert_int_eq(r.marked, q);
	ck_assert_int_eq(reader_type(&r, '2'), READER_LOCKED);
	ck_assert_uint_eq(r.quiz[q].selected, 1u);
	ck_assert_int_eq(reader_enter(&r), READER_NONE);
	ck_assert_int_eq(r.quiz[q].attempts, 1);

	ck_assert_int_eq(reader_retry(&r), READER_CHANGED);
	view(&r);
	ck_assert(!r.quiz[q].answered);
	ck_assert_uint_eq(r.quiz[q].selected, 0u);
	type(&r, "2", READER_CHANGED);
	enter(&r, READER_ANSWERED);
	ck_assert(!r.quiz[q].correct);
	ck_assert_int_eq(r.quiz[q].attempts, 2);
	/* A wrong answer is not locked, so retry has nothing to open. */
	ck_assert_int_eq(r.marked, q);
	ck_assert_int_eq(reader_retry(&r), READER_NONE);
	reader_free(&r);
}
END_TEST

START_TEST(numeric_locked_and_wrong_answers)
{
	struct reader r;
	int q;

	q = add_numeric(112);
	start(&r, 30);
	type(&r, "100", READER_CHANGED);
	enter(&r, READER_ANSWERED);
	ck_assert(!r.quiz[q].correct);
	/* Wrong: retried in place, Backspace and digits work. */
	ck_assert_int_eq(reader_erase(&r), READER_CHANGED);
	ck_assert_int_eq(reader_erase(&r), READER_CHANGED);
	type(&r, "12", READER_CHANGED);
	ck_assert_str_eq(r.quiz[q].input, "112");
	enter(&r, READER_ANSWERED);
	ck_assert(r.quiz[q].correct);
	ck_assert_int_eq(r.quiz[q].attempts, 2);
	/* Right: locked against digits, Backspace and Enter. */
	type(&r, "4", READER_LOCKED);
	ck_assert_int_eq(reader_erase(&r), READER_LOCKED);
	ck_assert_int_eq(reader_enter(&r), READER_NONE);
	ck_assert_str_eq(r.quiz[q].input, "112");
	ck_assert_int_eq(r.quiz[q].attempts, 2);
	/* Text that is not a number, and a question with no figure. */
	ck_assert_int_eq(reader_retry(&r), READER_CHANGED);
	ck_assert_str_eq(r.quiz[q].input, "");
	type(&r, "1-", READER_CHANGED);
	ck_assert_int_eq(reader_enter(&r), READER_NOT_NUMBER);
	r.quiz[q].expected = NAN;
	ck_assert_int_eq(reader_enter(&r), READER_NO_FIGURE);
	reader_free(&r);
}
END_TEST

START_TEST(reveal_acts_on_the_marked_question_only)
{
	struct reader r;
	int choice, rev, far;

	choice = add_question(CONTENT_Q_SINGLE);
	rev = add_question(CONTENT_Q_REVEAL);
	add_text(20);
	far = add_question(CONTENT_Q_REVEAL);
	start(&r, 12);
	ck_assert_int_eq(r.marked, choice);
	/* The choice question is marked: r reveals nothing. */
	ck_assert_int_eq(reader_reveal(&r), READER_NONE);
	ck_assert(!r.quiz[rev].revealed);
	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, rev);
	ck_assert_int_eq(reader_reveal(&r), READER_CHANGED);
	view(&r);
	ck_assert(r.quiz[rev].revealed);
	ck_assert(!r.quiz[choice].answered);
	type(&r, "3", READER_ANSWERED);
	ck_assert(r.quiz[rev].correct);
	ck_assert_int_eq(r.marked, rev);
	/* Revealed already; the one further down stays hidden. */
	ck_assert_int_eq(reader_reveal(&r), READER_NONE);
	ck_assert(!r.quiz[far].revealed);
	/* Self-grades before revealing do nothing. */
	reader_scroll(&r, (int)r.lo.n);
	view(&r);
	ck_assert_int_eq(r.marked, far);
	ck_assert_int_eq(reader_type(&r, '3'), READER_NONE);
	ck_assert(!r.quiz[far].answered);
	reader_free(&r);
}
END_TEST

START_TEST(tab_moves_through_the_drop_and_stops_at_the_ends)
{
	struct reader r;
	int a, b, c, first, last;

	add_text(2);
	a = add_question(CONTENT_Q_SINGLE);
	add_text(15);
	b = add_animation();
	add_text(15);
	c = add_numeric(1);
	add_text(15);
	start(&r, 8);
	ck_assert_int_eq(r.marked, a);
	ck_assert_int_eq(reader_tab(&r, -1), READER_EDGE);
	ck_assert_int_eq(r.marked, a);

	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, b);
	lines_of(&r, b, &first, &last);
	ck_assert(on_page(&r, first) && on_page(&r, last));
	ck_assert_int_eq(reader_marker_line(&r), first);

	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, c);
	ck_assert(on_page(&r, reader_marker_line(&r)));
	ck_assert_int_eq(reader_tab(&r, 1), READER_EDGE);
	ck_assert_int_eq(r.marked, c);

	ck_assert_int_eq(reader_tab(&r, -1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, b);
	ck_assert_int_eq(reader_tab(&r, -1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, a);
	ck_assert(on_page(&r, reader_marker_line(&r)));
	reader_free(&r);
}
END_TEST

/* A Tab choice holds while the page stays; moving the page re-places it. */
START_TEST(tab_choice_holds_until_the_page_moves)
{
	struct reader r;
	int a, b;

	a = add_numeric(1);
	b = add_numeric(2);
	add_text(30);
	start(&r, 10);
	ck_assert_int_eq(r.marked, a);
	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	view(&r);
	view(&r);
	ck_assert_int_eq(r.marked, b);
	type(&r, "2", READER_CHANGED);
	ck_assert_str_eq(r.quiz[b].input, "2");
	ck_assert_str_eq(r.quiz[a].input, "");
	reader_scroll(&r, 1);	/* a's prompt leaves the page */
	view(&r);
	ck_assert_int_eq(r.marked, b);	/* the first waiting one left */
	reader_scroll(&r, -1);
	view(&r);
	ck_assert_int_eq(r.marked, a);
	reader_free(&r);
}
END_TEST

/*
 * Issue 22: after a right answer the marker stays, even with a waiting
 * question below it on the page; Tab then moves it by exactly one.
 */
START_TEST(right_answer_leaves_the_marker_and_tab_moves_one)
{
	struct reader r;
	int a, b, c;

	a = add_numeric(4);
	b = add_question(CONTENT_Q_SINGLE);
	c = add_numeric(104);
	start(&r, 30);
	type(&r, "4", READER_CHANGED);
	enter(&r, READER_ANSWERED);
	ck_assert(r.quiz[a].correct);
	ck_assert_int_eq(r.marked, a);
	view(&r);
	ck_assert_int_eq(r.marked, a);
	/* Digits do not slip into b: a is locked and says so. */
	type(&r, "1", READER_LOCKED);
	ck_assert_uint_eq(r.quiz[b].selected, 0u);
	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, b);
	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, c);
	ck_assert_int_eq(reader_tab(&r, -1), READER_CHANGED);
	view(&r);
	ck_assert_int_eq(r.marked, b);
	type(&r, "1", READER_CHANGED);
	enter(&r, READER_ANSWERED);
	ck_assert(r.quiz[b].correct);
	ck_assert_int_eq(r.marked, b);
	ck_assert_str_eq(r.quiz[c].input, "");
	reader_free(&r);
}
END_TEST

/*
 * A marked question whose options are below the page: a digit ticks
 * nothing, it scrolls them onto the page; pressed again it ticks.
 */
START_TEST(digit_with_options_off_the_page_scrolls_to_them_first)
{
	struct reader r;
	int q, first, last;

	add_text(3);			/* lines 0-2 */
	q = add_question(CONTENT_Q_SINGLE);	/* 3 blank, prompt 4 */
	add_text(10);
	start(&r, 5);
	ck_assert_int_eq(r.top, 0);
	ck_assert_int_eq(r.marked, q);
	ck_assert_int_eq(reader_type(&r, '2'), READER_OFFSCREEN);
	ck_assert_uint_eq(r.quiz[q].selected, 0u);
	view(&r);
	ck_assert_int_eq(r.marked, q);
	for (first = -1, last = 0; last < (int)r.lo.n; last++)
		if (r.lo.lines[last].block == q &&
		    r.lo.lines[last].style == LAYOUT_OPTION) {
			ck_assert(on_page(&r, last));
			first = last;
		}
	ck_assert_int_ge(first, 0);
	type(&r, "2", READER_CHANGED);
	ck_assert_uint_eq(r.quiz[q].selected, 2u);
	/* Enter with the options off the page checks nothing either. */
	reader_scroll(&r, -(int)r.lo.n);
	view(&r);
	ck_assert_int_eq(r.marked, q);
	enter(&r, READER_OFFSCREEN);
	ck_assert(!r.quiz[q].answered);
	lines_of(&r, q, &first, &last);
	ck_assert(on_page(&r, last));
	reader_free(&r);
}
END_TEST

/*
 * After Enter the options and the feedback are all on the page, even when
 * that leaves the prompt above it (the block is one line too long).
 */
/* Tick 2 and 3, check, untick and tick 3, check: the second miss ends
 * the counting tries (core/course/quiz.h), so the explanations come. */
static void
two_misses(struct reader *r, int q)
{
	type(r, "2", READER_CHANGED);
	type(r, "3", READER_CHANGED);
	enter(r, READER_ANSWERED);
	ck_assert(!r->quiz[q].correct);
	ck_assert_int_eq(r->marked, q);
	type(r, "3", READER_CHANGED);
	type(r, "3", READER_CHANGED);
	enter(r, READER_ANSWERED);
	ck_assert(quiz_over(&r->drop->blocks[q].question, &r->quiz[q]));
}

/*
 * After Enter the options and the feedback are all on the page, even when
 * that leaves the prompt above it (the block is one line too long).
 */
START_TEST(view_shows_the_options_and_feedback_a_key_changed)
{
	struct reader r;
	int q, first, last, i, n;

	q = add_question(CONTENT_Q_MULTIPLE);	/* prompt, 3 options, note */
	add_text(10);
	/* How long the block is once over, on a page that holds it all. */
	start(&r, 60);
	two_misses(&r, q);
	view(&r);
	lines_of(&r, q, &first, &last);
	n = last - first + 1;
	ck_assert_int_gt(n, 6);		/* prompt, 3 options, verdict, why */
	ck_assert_int_eq(r.lo.lines[last].style, LAYOUT_EXPLAIN);
	reader_free(&r);
	/* A page one line shorter than the block. */
	start(&r, n - 1);
	two_misses(&r, q);
	view(&r);
	lines_of(&r, q, &first, &last);
	ck_assert(on_page(&r, last));
	for (i = first + 1; i <= last; i++)
		ck_assert(on_page(&r, i));
	ck_assert(!on_page(&r, first));
	ck_assert(on_page(&r, reader_marker_line(&r)));
	reader_free(&r);
}
END_TEST

START_TEST(enter_opens_the_marked_animation)
{
	struct reader r;
	int anim, q;

	anim = add_animation();
	q = add_question(CONTENT_Q_SINGLE);
	start(&r, 20);
	ck_assert_int_eq(r.marked, anim);
	ck_assert_int_eq(reader_enter(&r), READER_OPEN);
	ck_assert_int_eq(r.acted, anim);
	/* Answer keys reach no question; the animation stays marked. */
	ck_assert_int_eq(reader_type(&r, '.'), READER_NO_QUESTION);
	ck_assert_int_eq(reader_type(&r, '2'), READER_NO_QUESTION);
	ck_assert_int_eq(reader_reveal(&r), READER_NO_QUESTION);
	ck_assert_int_eq(r.marked, anim);
	ck_assert_uint_eq(r.quiz[q].selected, 0u);
	reader_free(&r);
}
END_TEST

START_TEST(done_once_the_last_line_was_on_a_page)
{
	struct reader r;

	add_text(30);
	add_numeric(3);
	start(&r, 10);
	ck_assert(!r.end_seen);
	reader_scroll(&r, 9);
	view(&r);
	ck_assert(!r.end_seen);
	reader_scroll(&r, (int)r.lo.n);
	view(&r);
	ck_assert(r.end_seen);
	reader_scroll(&r, -(int)r.lo.n);	/* stays seen */
	view(&r);
	ck_assert(r.end_seen);
	reader_free(&r);

	setup();
	add_text(3);
	start(&r, 10);				/* fits on one page */
	ck_assert(r.end_seen);
	reader_free(&r);
}
END_TEST

START_TEST(place_kept_across_widths_and_resume)
{
	struct reader r;
	int q;

	add_text(10);
	q = add_numeric(3);
	add_text(10);
	ck_assert_int_eq(reader_init(&r, &drop, NULL), 0);
	r.resume_block = q;
	ck_assert_int_eq(reader_top_block(&r), q);
	ck_assert_int_eq(reader_view(&r, WIDTH, 5), 0);
	ck_assert_int_eq(reader_top_block(&r), q);
	ck_assert_int_eq(reader_view(&r, 30, 5), 0);
	ck_assert_int_eq(reader_top_block(&r), q);
	ck_assert_int_eq(r.marked, q);
	reader_free(&r);
}
END_TEST

START_TEST(projector_pages_are_one_block)
{
	struct reader r;
	int anim, q, step;

	add_text(3);
	anim = add_animation();
	q = add_question(CONTENT_Q_SINGLE);
	ck_assert_int_eq(reader_init(&r, &drop, NULL), 0);
	step = reader_view_block(&r, WIDTH, 20);
	ck_assert_int_eq(step, 2);		/* 3 lines fit double-spaced */
	ck_assert_int_eq(r.page, 3);
	ck_assert_int_eq(r.marked, -1);
	reader_step(&r, 1);
	reader_view_block(&r, WIDTH, 20);
	ck_assert_int_eq(r.lo.lines[r.top].block, anim);
	ck_assert_int_eq(r.marked, anim);
	ck_assert_int_eq(reader_marker_line(&r), r.top);
	/* Tab goes to the next block's page; Shift-Tab back. */
	ck_assert_int_eq(reader_tab(&r, 1), READER_CHANGED);
	reader_view_block(&r, WIDTH, 20);
	ck_assert_int_eq(r.lo.lines[r.top].block, q);
	ck_assert_int_eq(r.marked, q);
	ck_assert(r.end_seen);
	ck_assert_int_eq(reader_tab(&r, -1), READER_CHANGED);
	reader_view_block(&r, WIDTH, 20);
	ck_assert_int_eq(r.lo.lines[r.top].block, anim);
	reader_step(&r, -1);
	reader_view_block(&r, WIDTH, 20);
	ck_assert_int_eq(r.top, 0);
	reader_free(&r);
}
END_TEST

static Suite *
reader_suite(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("the defect");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, digits_after_page_down_reach_the_question_on_screen);
	tcase_add_test(tc, marker_is_on_the_page_and_keys_reach_only_it);
	suite_add_tcase(s, tc);
	tc = tcase_create("answering");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, right_answer_is_locked_until_retry);
	tcase_add_test(tc, numeric_locked_and_wrong_answers);
	tcase_add_test(tc, reveal_acts_on_the_marked_question_only);
	tcase_add_test(tc, right_answer_leaves_the_marker_and_tab_moves_one);
	tcase_add_test(tc, digit_with_options_off_the_page_scrolls_to_them_first);
	tcase_add_test(tc, view_shows_the_options_and_feedback_a_key_changed);
	tcase_add_test(tc, enter_opens_the_marked_animation);
	suite_add_tcase(s, tc);
	tc = tcase_create("moving");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, tab_moves_through_the_drop_and_stops_at_the_ends);
	tcase_add_test(tc, tab_choice_holds_until_the_page_moves);
	tcase_add_test(tc, done_once_the_last_line_was_on_a_page);
	tcase_add_test(tc, place_kept_across_widths_and_resume);
	tcase_add_test(tc, projector_pages_are_one_block);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(reader_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
