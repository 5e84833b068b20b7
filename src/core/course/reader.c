/*
 * reader.c - the page and the marker: laying a drop out for the screen,
 * scrolling, and which block the keys act on (rules in reader.h).
 *
 * Invariant after every call: r->marked is -1 or an interactive block
 * with a non-blank line in [top, top + page). Answer keys are in
 * reader_answer.c.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/answer.h"
#include "core/course/reader.h"
#include "core/course/reader_int.h"

int
reader_init(struct reader *r, const struct content_drop *d,
    const struct hw_catalog *catalog)
{
	size_t i;

	memset(r, 0, sizeof *r);
	r->drop = d;
	r->marked = r->show = r->acted = -1;
	r->show_what = RD_SHOW_BLOCK;
	r->quiz = calloc(d->n_blocks + 1, sizeof *r->quiz);
	r->asked = calloc(d->n_blocks + 1, sizeof *r->asked);
	if (r->quiz == NULL || r->asked == NULL) {
		reader_free(r);
		return -1;
	}
	for (i = 0; i < d->n_blocks; i++) {
		const struct content_question *q = &d->blocks[i].question;
		struct pl_err err;

		r->quiz[i].expected = NAN;
		if (d->blocks[i].kind == CONTENT_QUESTION &&
		    q->type == CONTENT_Q_NUMERIC && catalog != NULL &&
		    answer_engine(catalog, q->engine, q->quantity, d->file, "",
		    &r->quiz[i].expected, &err) != 0)
			r->quiz[i].expected = NAN;
	}
	return 0;
}

void
reader_free(struct reader *r)
{
	layout_free(&r->lo);
	free(r->quiz);
	free(r->asked);
	r->quiz = NULL;
	r->asked = NULL;
}

int
rd_interactive(const struct reader *r, int b)
{
	return b >= 0 && (size_t)b < r->drop->n_blocks &&
	    r->drop->blocks[b].kind != CONTENT_TEXT;
}

int
rd_is_question(const struct reader *r, int b)
{
	return b >= 0 && (size_t)b < r->drop->n_blocks &&
	    r->drop->blocks[b].kind == CONTENT_QUESTION;
}

int
rd_locked(const struct reader *r, int b)
{
	return rd_is_question(r, b) && r->quiz[b].answered &&
	    r->quiz[b].correct;
}

/* End of the page: one past its last line. */
static int
page_end(const struct reader *r)
{
	int end = r->top + r->page;

	return end < (int)r->lo.n ? end : (int)r->lo.n;
}

/* First and last non-blank lines of block b; -1 when it has none. */
static void
block_lines(const struct reader *r, int b, int *first, int *last)
{
	size_t i;

	*first = *last = -1;
	for (i = layout_line_of_block(&r->lo, b); i < r->lo.n &&
	    r->lo.lines[i].block == b; i++)
		if (r->lo.lines[i].style != LAYOUT_BLANK) {
			if (*first < 0)
				*first = (int)i;
			*last = (int)i;
		}
}

/* First non-blank line of block b on the page, or -1. */
static int
first_on_page(const struct reader *r, int b)
{
	int i, end = page_end(r);

	for (i = r->top < 0 ? 0 : r->top; i < end; i++)
		if (r->lo.lines[i].block == b &&
		    r->lo.lines[i].style != LAYOUT_BLANK)
			return i;
	return -1;
}

/*
 * First and last lines of question b's answers: its options, its input
 * line, or a reveal question's notes ("press r", "how did you do"); -1
 * when it has none.
 */
static void
answer_lines(const struct reader *r, int b, int *first, int *last)
{
	enum layout_style st;
	int reveal;
	size_t i;

	*first = *last = -1;
	if (!rd_is_question(r, b))
		return;
	reveal = r->drop->blocks[b].question.type == CONTENT_Q_REVEAL;
	for (i = layout_line_of_block(&r->lo, b); i < r->lo.n &&
	    r->lo.lines[i].block == b; i++) {
		st = r->lo.lines[i].style;
		if (st == LAYOUT_OPTION || st == LAYOUT_INPUT ||
		    (reveal && st == LAYOUT_NOTE)) {
			if (*first < 0)
				*first = (int)i;
			*last = (int)i;
		}
	}
}

int
rd_answers_on_page(const struct reader *r, int b)
{
	int first, last;

	answer_lines(r, b, &first, &last);
	if (first < 0)
		return 1;
	/* Taller than the page: as much of it as fits, from its start. */
	if (last - first + 1 > r->page)
		return r->top == first;
	return first >= r->top && last < r->top + r->page;
}

/* Which blocks pick() looks for. */
enum rd_pick {
	RD_ANY,		/* any interactive block */
	RD_OPEN		/* an interactive block not locked */
};

static int
wanted(const struct reader *r, int b, enum rd_pick what)
{
	if (what == RD_OPEN)
		return rd_interactive(r, b) && !rd_locked(r, b);
	return rd_interactive(r, b);
}

/*
 * Lower is marked first: a block still waiting before a locked one, and
 * one starting on the page before one cut at the top.
 */
static int
rank(const struct reader *r, int b)
{
	int first, last;

	block_lines(r, b, &first, &last);
	return (rd_locked(r, b) ? 2 : 0) + (first < r->top ? 1 : 0);
}

/* The block on the page the marker goes to first among those of kind
 * what, or -1. */
static int
pick(const struct reader *r, enum rd_pick what)
{
	int i, b, prev = -1, best = -1, best_rank = INT_MAX, end = page_end(r);

	for (i = r->top < 0 ? 0 : r->top; i < end; i++) {
		b = r->lo.lines[i].block;
		if (r->lo.lines[i].style == LAYOUT_BLANK || b == prev)
			continue;
		prev = b;
		if (!wanted(r, b, what))
			continue;
		if (rank(r, b) < best_rank) {
			best_rank = rank(r, b);
			best = b;
		}
	}
	return best;
}

void
rd_mark(struct reader *r, int b)
{
	r->marked = b;
	r->pinned = b >= 0;
	if (b >= 0 && r->asked[b] == 0)
		r->asked[b] = r->now;
}

/* Keep the invariant; note when the last line is on the page. */
void
rd_sync(struct reader *r)
{
	if (r->marked >= 0 && first_on_page(r, r->marked) < 0)
		r->marked = -1;
	if (r->marked < 0)
		r->pinned = 0;
	if (!r->pinned) {
		rd_mark(r, pick(r, RD_OPEN));
		if (r->marked < 0)
			rd_mark(r, pick(r, RD_ANY));
		r->pinned = 0;
	}
	if (r->page > 0 && r->lo.n > 0 && r->top + r->page >= (int)r->lo.n)
		r->end_seen = 1;
}

static void
clamp(struct reader *r)
{
	if (r->top > (int)r->lo.n - r->page)
		r->top = (int)r->lo.n - r->page;
	if (r->top < 0)
		r->top = 0;
}

/* Scroll just enough that lines first..last are on the page, never past
 * first. */
static void
lines_into_view(struct reader *r, int first, int last)
{
	if (first < 0)
		return;
	if (last >= r->top + r->page)
		r->top = last - r->page + 1;
	if (r->top > first)
		r->top = first;
}

/* The lines of block b that `what` names: first..last, -1 for none. */
static void
shown_lines(const struct reader *r, int b, enum rd_show what, int *first,
    int *last)
{
	int bfirst, blast;

	block_lines(r, b, &bfirst, &blast);
	*first = bfirst;
	*last = blast;
	if (what == RD_SHOW_BLOCK || bfirst < 0)
		return;
	answer_lines(r, b, first, last);
	if (*first < 0)
		*first = bfirst;
	if (what == RD_SHOW_FEEDBACK || *last < 0)
		*last = blast;
}

/*
 * Scroll just enough that block b's lines are on the page, never past
 * its first line; then its answers, if that leaves them off. In projector
 * mode, to its first line (reader_view_block sees to the rest).
 */
static void
bring_into_view(struct reader *r, int b, enum rd_show what)
{
	int first, last;

	block_lines(r, b, &first, &last);
	if (first < 0)
		return;
	if (r->one_block) {
		r->top = first;
		return;
	}
	lines_into_view(r, first, last);
	shown_lines(r, b, what == RD_SHOW_BLOCK ? RD_SHOW_ANSWERS : what,
	    &first, &last);
	lines_into_view(r, first, last);
}

void
rd_show(struct reader *r, int b, enum rd_show what)
{
	r->show = b;
	r->show_what = what;
}

/* Lay out for width when it or an answer changed; keep the place. */
static int
relayout(struct reader *r, int width)
{
	int w = width < 10 ? 10 : width, block = r->resume_block;
	int same = r->lo.n > 0 && r->lo.width == w, top = r->top;

	if (same && !r->dirty)
		return 0;
	if (r->lo.n > 0 && r->top >= 0 && (size_t)r->top < r->lo.n)
		block = r->lo.lines[r->top].block;
	layout_free(&r->lo);
	r->dirty = 0;
	if (layout_drop(r->drop, r->quiz, w, &r->lo) != 0)
		return -1;
	/* Same width, new answer text: keep the page where it is. */
	r->top = same ? top : (int)layout_line_of_block(&r->lo, block);
	return 0;
}

static void
show_pending(struct reader *r)
{
	if (r->show >= 0)
		bring_into_view(r, r->show, r->show_what);
	r->show = -1;
}

int
reader_view(struct reader *r, int width, int page)
{
	r->one_block = 0;
	if (relayout(r, width) != 0)
		return -1;
	r->page = page < 1 ? 1 : page;
	show_pending(r);
	clamp(r);
	rd_sync(r);
	return 0;
}

/* The lines of block b without blank lines at either end: first..end-1. */
static void
block_span(const struct reader *r, int b, int *first, int *end)
{
	int last;

	block_lines(r, b, first, &last);
	*end = last + 1;
	if (*first < 0)
		*first = *end = (int)layout_line_of_block(&r->lo, b);
}

/* Projector: the page from r->top to the end of its block or rows. */
static int
block_page(struct reader *r, int rows)
{
	int first, end, step;

	block_span(r, r->lo.lines[r->top].block, &first, &end);
	step = 2 * (end - first) - 1 <= rows ? 2 : 1;
	r->page = (rows + step - 1) / step;
	if (r->top < first || r->top >= end)
		r->top = first;
	if (r->page > end - r->top)
		r->page = end - r->top;
	return step;
}

int
reader_view_block(struct reader *r, int width, int rows)
{
	int first, last, step, b = r->show, what = r->show_what;

	r->one_block = 1;
	if (relayout(r, width) != 0)
		return -1;
	if (r->lo.n == 0) {
		r->page = rows;
		rd_sync(r);
		return 1;
	}
	if (r->top >= (int)r->lo.n)
		r->top = (int)r->lo.n - 1;
	if (r->top < 0)
		r->top = 0;
	show_pending(r);
	step = block_page(r, rows);
	/* Answers or feedback below the block's first page: start there. */
	if (b >= 0 && what != RD_SHOW_BLOCK) {
		shown_lines(r, b, (enum rd_show)what, &first, &last);
		if (first > r->top && last >= r->top + r->page) {
			r->top = first;
			step = block_page(r, rows);
		}
	}
	rd_sync(r);
	return step;
}

void
reader_scroll(struct reader *r, int n)
{
	int old = r->top;

	r->top += n;
	clamp(r);
	if (r->top != old)
		r->pinned = 0;
	rd_sync(r);
}

void
reader_step(struct reader *r, int dir)
{
	int b, first, end, old = r->top, by = r->page > 1 ? r->page - 1 : 1;

	if (r->lo.n == 0 || r->top < 0 || r->top >= (int)r->lo.n)
		return;
	b = r->lo.lines[r->top].block;
	block_span(r, b, &first, &end);
	if (dir > 0 && r->top + r->page < end)
		r->top += by;
	else if (dir < 0 && r->top > first)
		r->top = r->top - by > first ? r->top - by : first;
	else if (dir > 0 && end < (int)r->lo.n)
		r->top = end;
	else
		for (b--; dir < 0 && b >= 0; b--) {
			block_span(r, b, &first, &end);
			if (first < end) {
				r->top = first;
				break;
			}
		}
	if (r->top != old)
		r->pinned = 0;
	rd_sync(r);
}

enum reader_effect
reader_tab(struct reader *r, int dir)
{
	int n = (int)r->drop->n_blocks, b;

	dir = dir < 0 ? -1 : 1;
	if (r->marked >= 0)
		b = r->marked + dir;
	else
		b = reader_top_block(r) - (dir < 0);
	while (b >= 0 && b < n && !rd_interactive(r, b))
		b += dir;
	if (b < 0 || b >= n)
		return READER_EDGE;
	bring_into_view(r, b, RD_SHOW_ANSWERS);
	if (!r->one_block)
		clamp(r);
	rd_mark(r, b);
	rd_sync(r);
	return READER_CHANGED;
}

int
reader_marker_line(const struct reader *r)
{
	return r->marked < 0 ? -1 : first_on_page(r, r->marked);
}

int
reader_top_block(const struct reader *r)
{
	if (r->lo.n > 0 && r->top >= 0 && (size_t)r->top < r->lo.n)
		return r->lo.lines[r->top].block;
	return r->resume_block;
}
