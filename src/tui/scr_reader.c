/*
 * scr_reader.c - the lesson reader: a drop's blocks, wrapped and paged.
 *
 * Opening a drop marks it started; seeing its last line marks it done.
 * The position saved is the block at the top of the page, so it survives a
 * resize or a different terminal width next time. In projector mode a
 * page shows one block, with wide margins and double spacing when it
 * fits, and the arrow keys step from block to block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "i18n.h"
#include "core/course/answer.h"
#include "core/course/layout.h"
#include "core/course/quiz.h"
#include "store/cards.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

/* Longest pause between keys still counted as reading, seconds. */
#define IDLE_CAP_S	120

struct reader {
	struct app	*app;
	int		 drop;		/* index in course->drops */
	const struct content_drop *reference; /* reference mode: this document,
					 * nothing saved; NULL for a drop */
	struct layout	 lo;
	int		 top;		/* first line shown */
	int		 resume_block;	/* block to show once laid out */
	int		 page;		/* lines per page at last draw */
	time_t		 last_key;
	int64_t		 seconds;	/* reading time not yet saved */
	int		 finished;	/* done was recorded this visit */
	struct quiz_state *quiz;	/* one per block */
	time_t		*asked;		/* per block: when it became active */
	int		 active;	/* block of the active question, or -1 */
	int		 focus;		/* block chosen with Tab, or -1 */
	int		 show;		/* block whose feedback must be seen, or -1 */
	int		 dirty;		/* quiz state changed: lay out again */
};

static const struct ui_key_help reader_help[] = {
	{ N_("Up/Down, j/k"), N_("scroll a line") },
	{ N_("PgDn, f, Space"), N_("next page") },
	{ N_("PgUp, b"), N_("previous page") },
	{ N_("Home/End, g/G"), N_("start / end of the drop") },
	{ N_("n / p"), N_("next / previous drop") },
	{ N_("1-9"), N_("choose an option of the marked question") },
	{ N_("Tab"), N_("mark the next question on the page") },
	{ N_("Enter"), N_("check your answer (or scroll)") },
	{ N_("r"), N_("reveal the model answer") },
	{ N_("Backspace"), N_("erase a digit of a numeric answer") },
	{ N_("q, Esc, h"), N_("back to the home screen") },
	{ NULL, NULL }
};

static const struct content_drop *
drop_of(struct reader *r)
{
	if (r->reference != NULL)
		return r->reference;
	return &r->app->course->drops[r->drop];
}

static void
count_time(struct reader *r)
{
	time_t now = time(NULL);
	int64_t d = (int64_t)(now - r->last_key);

	r->seconds += d < 0 ? 0 : d > IDLE_CAP_S ? IDLE_CAP_S : d;
	r->last_key = now;
}

static void
save(struct reader *r)
{
	struct pl_err err;
	int block = 0;

	if (r->reference != NULL)
		return;
	count_time(r);
	if (r->lo.n > 0 && (size_t)r->top < r->lo.n)
		block = r->lo.lines[r->top].block;
	if (store_drop_visit(r->app->store, r->app->profile, drop_of(r)->id,
	    block, r->seconds, (int64_t)time(NULL), &err) != 0)
		app_store_error(&err);
	else
		r->seconds = 0;
}

static void
relayout(struct reader *r, int width)
{
	int block = r->resume_block;

	if (r->lo.width == width && r->lo.n > 0 && !r->dirty)
		return;
	if (r->dirty && r->lo.width == width) {
		/* Same width, new answer text: keep the page where it is. */
		int top = r->top;

		layout_free(&r->lo);
		r->dirty = 0;
		if (layout_drop(drop_of(r), r->quiz, width, &r->lo) == 0)
			r->top = top;
		return;
	}
	if (r->lo.n > 0 && (size_t)r->top < r->lo.n)
		block = r->lo.lines[r->top].block;
	layout_free(&r->lo);
	r->dirty = 0;
	if (layout_drop(drop_of(r), r->quiz, width, &r->lo) != 0)
		return;
	r->top = (int)layout_line_of_block(&r->lo, block);
}

static int
line_attr(const struct layout_line *l)
{
	switch (l->style) {
	case LAYOUT_HEADING:
		return ui_attr(UI_C_HEADING);
	case LAYOUT_PROMPT:
		return ui_attr(UI_C_ACCENT);
	case LAYOUT_NOTE:
		return ui_attr(UI_C_DIM);
	case LAYOUT_INPUT:
		return ui_attr(UI_C_ACCENT);
	case LAYOUT_RIGHT:
		return ui_attr(UI_C_DONE);
	case LAYOUT_WRONG:
		return ui_attr(UI_C_WARN);
	default:
		return A_NORMAL;
	}
}

static void
mark_done_if_seen(struct reader *r)
{
	struct pl_err err;

	if (r->reference != NULL || r->finished ||
	    r->top + r->page < (int)r->lo.n)
		return;
	r->finished = 1;
	if (store_drop_finish(r->app->store, r->app->profile, drop_of(r)->id,
	    (int64_t)time(NULL), &err) != 0) {
		app_store_error(&err);
		return;
	}
	ui_flash(_("Drop complete. Press n for the next drop, q for the home screen."));
}

static void
draw_position(struct reader *r, WINDOW *w, int rows, int cols)
{
	char pos[200];
	int last = r->top + r->page < (int)r->lo.n ? r->top + r->page :
	    (int)r->lo.n;
	int pct = r->lo.n == 0 ? 100 : (int)(100.0 * last / (double)r->lo.n);
	int block = r->lo.n > 0 ? r->lo.lines[r->top].block + 1 : 0;

	snprintf(pos, sizeof pos, _("lines %d-%d of %zu (%d%%)  block %d/%zu  "
	    "? keys"), r->lo.n > 0 ? r->top + 1 : 0, last, r->lo.n, pct,
	    block, drop_of(r)->n_blocks);
	ui_status(w, rows, cols, pos, ui_attr(UI_C_DIM));
}

/*
 * Interactive blocks (questions, animations, scenarios) with a line on the
 * page, in order, into out (at most max). Returns how many.
 */
static int
visible_blocks(struct reader *r, int *out, int max)
{
	const struct content_drop *d = drop_of(r);
	int i, b, prev = -2, n = 0;

	for (i = r->top; i < r->top + r->page && i < (int)r->lo.n; i++) {
		b = r->lo.lines[i].block;
		if (b == prev || d->blocks[b].kind == CONTENT_TEXT)
			continue;
		prev = b;
		if (n < max)
			out[n++] = b;
	}
	return n;
}

/* Rank for choosing the marked block: lower is first. */
static int
block_rank(struct reader *r, int b)
{
	const struct quiz_state *q = &r->quiz[b];

	if (drop_of(r)->blocks[b].kind != CONTENT_QUESTION)
		return 0;
	/* A question not yet answered right keeps the keys: a wrong answer
	 * is retried in place; Tab moves on without answering. */
	return q->answered && q->correct ? 2 : 0;
}

/*
 * The marked block, which Enter acts on: the one Tab chose if it is still
 * on the page; else the first animation, scenario or question not answered
 * right on the page; else the first interactive block. Answer keys go to
 * the marked question, or, when an animation or a scenario is marked, to
 * the first question on the page not answered right (see answer_key).
 */
static void
find_active(struct reader *r)
{
	int vis[64], n, i, best = 3;

	n = visible_blocks(r, vis, 64);
	r->active = -1;
	for (i = 0; i < n; i++)
		if (vis[i] == r->focus)
			r->active = r->focus;
	if (r->active < 0)	/* no Tab choice, or it scrolled away */
		r->focus = -1;
	for (i = 0; r->focus < 0 && i < n; i++)
		if (block_rank(r, vis[i]) < best) {
			best = block_rank(r, vis[i]);
			r->active = vis[i];
		}
	if (r->active >= 0 && r->asked[r->active] == 0)
		r->asked[r->active] = time(NULL);
}

/* First question on the page not answered right, or -1. */
static int
question_on_page(struct reader *r)
{
	int vis[64], n, i;

	n = visible_blocks(r, vis, 64);
	for (i = 0; i < n; i++)
		if (drop_of(r)->blocks[vis[i]].kind == CONTENT_QUESTION &&
		    block_rank(r, vis[i]) == 0)
			return vis[i];
	return -1;
}

/* Tab: mark the next interactive block on the page. */
static void
focus_next(struct reader *r)
{
	int vis[64], n, i;

	n = visible_blocks(r, vis, 64);
	if (n == 0)
		return;
	for (i = 0; i < n && vis[i] != r->active; i++)
		;
	r->focus = vis[i + 1 < n ? i + 1 : 0];
	r->active = r->focus;
}

/* 1 if line i is the first non-blank line of its block. */
static int
is_first_line(struct reader *r, int i)
{
	int b = r->lo.lines[i].block;

	for (i--; i >= 0 && r->lo.lines[i].block == b; i--)
		if (r->lo.lines[i].style != LAYOUT_BLANK)
			return 0;
	return 1;
}

static void
draw_line(struct reader *r, WINDOW *w, int y, int width,
    const struct layout_line *l, int first_of_active)
{
	if (l->style == LAYOUT_BULLET)
		ui_put(w, y, 2, ui_glyph_dot(), 1, A_NORMAL);
	if (first_of_active)
		ui_put(w, y, 0, ui_glyph_arrow(), 1, ui_attr(UI_C_ACCENT));
	ui_put(w, y, 2 + l->indent, l->text, width - l->indent,
	    line_attr(l));
	(void)r;
}

/*
 * After an answer, scroll just enough that the block's new feedback is on
 * the page, never past the block's first line.
 */
static void
show_feedback(struct reader *r)
{
	int first = -1, last = -1, i;

	if (r->show < 0)
		return;
	for (i = 0; i < (int)r->lo.n; i++)
		if (r->lo.lines[i].block == r->show &&
		    r->lo.lines[i].style != LAYOUT_BLANK) {
			if (first < 0)
				first = i;
			last = i;
		}
	r->show = -1;
	if (last >= r->top + r->page)
		r->top = last - r->page + 1;
	if (first >= 0 && r->top > first)
		r->top = first;
}

/*
 * Projector: the lines of block b, blank lines at either end left out:
 * *first .. *end - 1. Empty (first == end) if b has no lines.
 */
static void
block_span(const struct reader *r, int b, int *first, int *end)
{
	int n = (int)r->lo.n, i = (int)layout_line_of_block(&r->lo, b);

	while (i < n && r->lo.lines[i].block == b &&
	    r->lo.lines[i].style == LAYOUT_BLANK)
		i++;
	*first = i;
	while (i < n && r->lo.lines[i].block == b)
		i++;
	while (i > *first && r->lo.lines[i - 1].style == LAYOUT_BLANK)
		i--;
	*end = i;
}

/* Projector: the title bar, without the phase and minutes. */
static void
projector_chrome(struct reader *r, WINDOW *w, int cols)
{
	const struct content_drop *d = drop_of(r);
	char title[400];

	if (r->reference != NULL)
		snprintf(title, sizeof title, "%s", d->title);
	else
		snprintf(title, sizeof title, _("Drop %d: %s"), d->number,
		    d->title);
	ui_title(w, cols, title, NULL);
}

/* Projector: line l at row y, with a 4-column margin. */
static void
projector_line(WINDOW *w, int y, int width, const struct layout_line *l,
    int first_of_active)
{
	if (l->style == LAYOUT_BULLET)
		ui_put(w, y, 4, ui_glyph_dot(), 1, A_NORMAL);
	if (first_of_active)
		ui_put(w, y, 2, ui_glyph_arrow(), 1, ui_attr(UI_C_ACCENT));
	ui_put(w, y, 4 + l->indent, l->text, width - l->indent,
	    line_attr(l));
}

/*
 * Projector: one block per page, double-spaced when it fits. r->page
 * becomes the lines shown, so find_active and mark_done_if_seen look at
 * this block only.
 */
static void
projector_draw(struct reader *r, WINDOW *w, int rows, int cols)
{
	int width = cols - 8 > 72 ? 72 : cols - 8, avail = rows - 5;
	int b, first, end, step, i;
	char pos[120];

	projector_chrome(r, w, cols);
	relayout(r, width);
	if (r->lo.n == 0)
		return;
	if (r->top >= (int)r->lo.n)
		r->top = (int)r->lo.n - 1;
	b = r->lo.lines[r->top < 0 ? 0 : r->top].block;
	block_span(r, b, &first, &end);
	step = 2 * (end - first) - 1 <= avail ? 2 : 1;
	r->page = (avail + step - 1) / step;
	show_feedback(r);
	if (r->top < first || r->top >= end)
		r->top = first;
	if (r->page > end - r->top)
		r->page = end - r->top;
	find_active(r);
	for (i = 0; i < r->page; i++)
		projector_line(w, 3 + i * step, width, &r->lo.lines[r->top + i],
		    b == r->active && r->top + i == first);
	snprintf(pos, sizeof pos, _("block %d/%zu  %s %s step  q back"), b + 1,
	    drop_of(r)->n_blocks, ui_glyph_left(), ui_glyph_right());
	ui_status(w, rows, cols, pos, ui_attr(UI_C_DIM));
	mark_done_if_seen(r);
}

static void
reader_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct reader *r = s->state;
	const struct content_drop *d = drop_of(r);
	int width = cols - 4 > 100 ? 100 : cols - 4, i, y;
	char title[400], right[120];

	if (r->app->projector) {
		projector_draw(r, w, rows, cols);
		return;
	}
	relayout(r, width);
	r->page = rows - 4;
	show_feedback(r);
	if (r->top > (int)r->lo.n - r->page)
		r->top = (int)r->lo.n - r->page;
	if (r->top < 0)
		r->top = 0;
	if (r->reference != NULL) {
		snprintf(title, sizeof title, "%s", d->title);
		snprintf(right, sizeof right, "%s", _("C or q to close"));
	} else {
		snprintf(title, sizeof title, _("Drop %d: %s"), d->number,
		    d->title);
		snprintf(right, sizeof right, P_("phase %d, %d min",
		    "phase %d, %d min", d->minutes), d->phase, d->minutes);
	}
	ui_title(w, cols, title, right);
	find_active(r);
	for (i = 0; i < r->page && r->top + i < (int)r->lo.n; i++) {
		const struct layout_line *l = &r->lo.lines[r->top + i];

		y = 2 + i;
		draw_line(r, w, y, width, l, l->block == r->active &&
		    l->style != LAYOUT_BLANK && (r->top + i == 0 ||
		    r->lo.lines[r->top + i - 1].block != l->block ||
		    r->lo.lines[r->top + i - 1].style == LAYOUT_BLANK) &&
		    is_first_line(r, r->top + i));
	}
	draw_position(r, w, rows, cols);
	mark_done_if_seen(r);
}

static void
scroll_by(struct reader *r, int n)
{
	r->top += n;
	if (r->top > (int)r->lo.n - r->page)
		r->top = (int)r->lo.n - r->page;
	if (r->top < 0)
		r->top = 0;
}

static void
set_resume(struct reader *r, const char *value)
{
	struct pl_err err;

	if (r->reference != NULL)
		return;
	if (store_setting_set(r->app->store, r->app->profile, "resume", value,
	    &err) != 0)
		app_store_error(&err);
}

static int
quiz_alloc(struct reader *r)
{
	const struct content_drop *d = drop_of(r);
	size_t i;

	free(r->quiz);
	free(r->asked);
	r->quiz = calloc(d->n_blocks + 1, sizeof *r->quiz);
	r->asked = calloc(d->n_blocks + 1, sizeof *r->asked);
	if (r->quiz == NULL || r->asked == NULL)
		return -1;
	for (i = 0; i < d->n_blocks; i++) {
		const struct content_question *q = &d->blocks[i].question;
		struct pl_err err;

		r->quiz[i].expected = NAN;
		if (d->blocks[i].kind == CONTENT_QUESTION &&
		    q->type == CONTENT_Q_NUMERIC && r->app->catalog != NULL &&
		    answer_engine(r->app->catalog, q->engine, q->quantity,
		    d->file, "", &r->quiz[i].expected, &err) != 0)
			r->quiz[i].expected = NAN;
	}
	r->active = -1;
	r->focus = -1;
	r->show = -1;
	return 0;
}

/* Switch to another drop in place (n/p), saving this one first. */
static void
goto_drop(struct reader *r, int index)
{
	char val[160];

	if (r->reference != NULL || index < 0 ||
	    (size_t)index >= r->app->course->n_drops)
		return;
	save(r);
	layout_free(&r->lo);
	r->drop = index;
	r->top = 0;
	r->resume_block = 0;
	r->finished = 0;
	quiz_alloc(r);
	snprintf(val, sizeof val, "reader:%s", drop_of(r)->id);
	set_resume(r, val);
	save(r);
}

static void
save_answer(struct reader *r, int b)
{
	const struct content_question *q = &drop_of(r)->blocks[b].question;
	struct pl_err err;
	char resp[128];
	double secs;

	quiz_response(q, &r->quiz[b], resp, sizeof resp);
	secs = r->asked[b] > 0 ? difftime(time(NULL), r->asked[b]) : 0;
	if (store_answer_add(r->app->store, r->app->profile, drop_of(r)->id,
	    q->id, r->quiz[b].correct, resp, secs, (int64_t)time(NULL), NULL,
	    &err) != 0)
		app_store_error(&err);
	if (!r->quiz[b].correct && store_cards_add_question(r->app->store,
	    r->app->profile, drop_of(r)->id, q, r->quiz[b].expected,
	    (int64_t)time(NULL), &err) != 0)
		app_store_error(&err);
	r->dirty = 1;
}

/* Enter on an animation or a scenario opens its screen. */
static int
open_block(struct reader *r, int ch)
{
	const struct content_block *b = &drop_of(r)->blocks[r->active];

	if (ch != '\n' && ch != '\r' && ch != KEY_ENTER)
		return 0;
	if (b->kind == CONTENT_ANIMATION) {
		ui_push(ui_player_new(r->app, &b->animation));
		return 1;
	}
	if (b->kind == CONTENT_SCENARIO) {
		ui_push(ui_playground_new(r->app, &b->scenario, drop_of(r)->id));
		return 1;
	}
	return 0;
}

/* Keys for the active block. Returns 1 if the key was used. */
static int
answer_key(struct reader *r, int ch)
{
	const struct content_question *q;
	struct quiz_state *st;
	size_t n;

	if (r->active < 0)
		return 0;
	if (open_block(r, ch))
		return 1;
	if (drop_of(r)->blocks[r->active].kind != CONTENT_QUESTION) {
		/* An animation or scenario is marked: answer keys mark the
		 * first question below it that still wants an answer. */
		int qb = question_on_page(r);

		if (qb < 0 || ch == '\n' || ch == '\r' || ch == KEY_ENTER ||
		    ch == '\t')
			return 0;
		r->focus = r->active = qb;
	}
	q = &drop_of(r)->blocks[r->active].question;
	st = &r->quiz[r->active];
	n = strlen(st->input);
	switch (q->type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		if (ch >= '1' && ch <= '9') {
			if (quiz_choose(q, st, ch - '1') == 0)
				r->dirty = 1;
			return 1;
		}
		if ((ch == '\n' || ch == '\r' || ch == KEY_ENTER) &&
		    st->selected != 0 && !st->answered) {
			quiz_submit_choice(q, st);
			save_answer(r, r->active);
			return 1;
		}
		return 0;
	case CONTENT_Q_NUMERIC:
		if (((ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ||
		    ch == 'e') && n + 1 < sizeof st->input) {
			st->input[n] = (char)ch;
			st->input[n + 1] = '\0';
			r->dirty = 1;
			return 1;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n > 0) {
			st->input[n - 1] = '\0';
			r->dirty = 1;
			return 1;
		}
		if ((ch == '\n' || ch == '\r' || ch == KEY_ENTER) && n > 0) {
			if (quiz_submit_numeric(q, st, st->input) < 0)
				ui_flash(isfinite(st->expected) ?
				    _("Type a number, such as 112 or 1.5e3.") :
				    _("The cost model is not available for this question yet."));
			else
				save_answer(r, r->active);
			r->dirty = 1;
			return 1;
		}
		return 0;
	case CONTENT_Q_REVEAL:
		if (ch == 'r' && !st->revealed) {
			st->revealed = 1;
			r->dirty = 1;
			return 1;
		}
		if (st->revealed && !st->answered && ch >= '1' && ch <= '3') {
			quiz_self_grade(st, (enum quiz_self)(ch - '0'));
			save_answer(r, r->active);
			return 1;
		}
		return 0;
	}
	return 0;
}

/*
 * Projector: step through the page's block, then on to the next block
 * (dir 1) or back to the start of the previous one (dir -1).
 */
static void
step_block(struct reader *r, int dir)
{
	int b, first, end, by = r->page > 1 ? r->page - 1 : 1;

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
}

/* Projector keys: arrows, j/k/l, Space, Enter and the page keys step. */
static int
projector_key(struct reader *r, int ch)
{
	switch (ch) {
	case KEY_RIGHT: case KEY_DOWN: case 'j': case 'l': case ' ': case 'f':
	case KEY_NPAGE: case '\n': case '\r': case KEY_ENTER:
		step_block(r, 1);
		return 1;
	case KEY_LEFT: case KEY_UP: case 'k': case 'b': case KEY_PPAGE:
		step_block(r, -1);
		return 1;
	default:
		return 0;
	}
}

static enum ui_result
reader_key(struct ui_screen *s, int ch)
{
	struct reader *r = s->state;

	count_time(r);
	if (ch == '\t') {
		focus_next(r);
		return UI_HANDLED;
	}
	if (answer_key(r, ch)) {
		if (r->dirty)
			r->show = r->active;
		return UI_HANDLED;
	}
	if (r->app->projector && projector_key(r, ch))
		return UI_HANDLED;
	switch (ch) {
	case KEY_UP: case 'k':
		scroll_by(r, -1);
		break;
	case KEY_DOWN: case 'j': case '\n': case '\r': case KEY_ENTER:
		scroll_by(r, 1);
		break;
	case KEY_NPAGE: case 'f': case ' ':
		scroll_by(r, r->page - 1);
		break;
	case KEY_PPAGE: case 'b':
		scroll_by(r, -(r->page - 1));
		break;
	case KEY_HOME: case 'g':
		r->top = 0;
		break;
	case KEY_END: case 'G':
		scroll_by(r, (int)r->lo.n);
		break;
	case 'n':
		goto_drop(r, r->drop + 1);
		break;
	case 'p':
		goto_drop(r, r->drop - 1);
		break;
	case 'q': case 'Q': case 27: case 'h': case KEY_LEFT:
		set_resume(r, "home");
		return UI_BACK;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

static void
reader_free(struct ui_screen *s)
{
	struct reader *r = s->state;

	save(r);
	layout_free(&r->lo);
	free(r->quiz);
	free(r->asked);
	free(r);
}

struct ui_screen *
ui_reader_new(struct app *a, int drop_index)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct reader *r = calloc(1, sizeof *r);
	struct store_drop_progress p;
	struct pl_err err;
	char val[160];

	if (s == NULL || r == NULL) {
		free(s);
		free(r);
		return NULL;
	}
	r->app = a;
	r->drop = drop_index;
	r->last_key = time(NULL);
	if (quiz_alloc(r) != 0) {
		free(s);
		free(r);
		return NULL;
	}
	if (store_drop_get(a->store, a->profile, drop_of(r)->id, &p,
	    &err) == 0 && p.status != CURRICULUM_DONE)
		r->resume_block = p.position;
	snprintf(val, sizeof val, "reader:%s", drop_of(r)->id);
	set_resume(r, val);
	save(r);
	s->title = N_("Lesson");
	s->help = reader_help;
	s->draw = reader_draw;
	s->key = reader_key;
	s->free = reader_free;
	s->state = r;
	return s;
}

/*
 * The reference document (cheatsheet and key equations) in the reader:
 * same paging and wrapping, nothing recorded. NULL if the course has none.
 */
struct ui_screen *
ui_reference_new(struct app *a)
{
	struct ui_screen *s;
	struct reader *r;

	if (a->course->reference == NULL)
		return NULL;
	s = calloc(1, sizeof *s);
	r = calloc(1, sizeof *r);
	if (s == NULL || r == NULL) {
		free(s);
		free(r);
		return NULL;
	}
	r->app = a;
	r->reference = a->course->reference;
	r->last_key = time(NULL);
	if (quiz_alloc(r) != 0) {
		free(r->quiz);
		free(r->asked);
		free(s);
		free(r);
		return NULL;
	}
	s->title = UI_REFERENCE_TITLE;
	s->help = reader_help;
	s->draw = reader_draw;
	s->key = reader_key;
	s->free = reader_free;
	s->state = r;
	return s;
}
