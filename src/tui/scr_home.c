/*
 * scr_home.c - the home screen: continue, the phases and their drops
 * (each with its status, new / started / read / done / mastered, and its
 * score), flashcard review, the cost-model playground, the course summary.
 *
 * On a wide terminal the list keeps to HOME_MAX_COLS, so a drop's status
 * stays next to its title; a title that does not fit ends with an
 * ellipsis.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/course/duration.h"
#include "store/cards.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/scr_browse.h"
#include "tui/term.h"
#include "tui/ui.h"

enum item_kind {
	ITEM_BLANK,
	ITEM_CONTINUE,
	ITEM_PHASE,
	ITEM_DROP,
	ITEM_REVIEW,
	ITEM_STATS,
	ITEM_PLAYGROUND,
	ITEM_PLAYER
};

struct item {
	enum item_kind	kind;
	int		index;		/* drop index or phase number */
};

#define HOME_MAX_COLS	96	/* widest the list gets */

struct home {
	struct app	*app;
	struct item	*items;
	int		 n;
	int		 sel;		/* selected item */
	int		 top;		/* first item shown */
	int		 cards[3];	/* new, learning, due today */
};

static const struct ui_key_help home_help[] = {
	{ N_("Up/Down, j/k"), N_("move") },
	{ N_("PgDn, f, Space"), N_("move a page down") },
	{ N_("PgUp, b"), N_("move a page up") },
	{ N_("Home/End, g/G"), N_("first / last entry") },
	{ N_("Enter, l"), N_("open") },
	{ N_("c"), N_("continue where you left off") },
	{ N_("S"), N_("course summary: drops done, mastered, scores") },
	{ N_("B"), N_("browse, search and suspend flashcards") },
	{ N_("L"), N_("back to the lab (lab mode)") },
	{ N_("q"), N_("quit") },
	{ NULL, NULL }
};

static int
selectable(const struct item *it)
{
	return it->kind != ITEM_BLANK && it->kind != ITEM_PHASE;
}

static void
add(struct home *h, enum item_kind k, int index)
{
	h->items[h->n].kind = k;
	h->items[h->n].index = index;
	h->n++;
}

static void
build(struct home *h)
{
	const struct content_course *c = h->app->course;
	size_t p, i;

	h->items = calloc(c->n_drops + 3 * c->n_phases + 8,
	    sizeof *h->items);
	if (h->items == NULL)
		return;
	add(h, ITEM_CONTINUE, 0);
	for (p = 0; p < c->n_phases; p++) {
		/* No blank under "Continue": the Statistics entry needs the
		 * row for everything to fit in 30 rows. */
		if (p > 0)
			add(h, ITEM_BLANK, 0);
		add(h, ITEM_PHASE, c->phases[p].number);
		for (i = 0; i < c->n_drops; i++)
			if (c->drops[i].phase == c->phases[p].number)
				add(h, ITEM_DROP, (int)i);
	}
	add(h, ITEM_BLANK, 0);
	add(h, ITEM_REVIEW, 0);
	add(h, ITEM_STATS, 0);
	add(h, ITEM_PLAYGROUND, 0);
	add(h, ITEM_PLAYER, 0);
}

/*
 * The Continue line, and at its right the time the drops not done yet
 * take (core/course/duration.h): the whole course's before the first.
 */
static void
draw_continue(struct home *h, WINDOW *w, int y, int cols, int attr)
{
	struct app *a = h->app;
	int next = curriculum_continue(a->course, a->status, a->last_drop);
	char line[512], left[64], mins[32];
	int right = 0, n;

	if (next < 0)
		snprintf(line, sizeof line, "%s",
		    _("Course complete. Enter shows the summary."));
	else {
		snprintf(line, sizeof line, a->last_drop < 0 ?
		    _("Start: %d. %s") : _("Continue where I left off: %d. %s"),
		    a->course->drops[next].number, a->course->drops[next].title);
		/* TRANSLATORS: the time the drops not done yet take, "4 h
		 * 40 min left". */
		snprintf(left, sizeof left, _("%s left"), duration_text(
		    curriculum_minutes_left(a->course, a->status, a->minutes),
		    mins, sizeof mins));
		n = (int)strlen(left);	/* ASCII in every catalog */
		if (cols > 60 && n < cols / 3) {
			right = n + 2;
			ui_put(w, y, cols - n - 2, left, n, attr |
			    ui_attr(UI_C_DIM));
		}
	}
	ui_put_cut(w, y, 2, line, cols - 4 - right, attr | A_BOLD);
}

static void
draw_phase(struct home *h, WINDOW *w, int y, int cols, int phase)
{
	const struct content_phase *ph = content_find_phase(h->app->course,
	    phase);
	struct curriculum_phase_progress pr;
	char head[300], count[64];
	int barw = 12;

	curriculum_phase(h->app->course, h->app->status, phase, &pr);
	snprintf(head, sizeof head, _("Phase %d  %s"), phase,
	    ph != NULL ? ph->title : "");
	ui_put_cut(w, y, 2, head, cols - barw - 14, ui_attr(UI_C_HEADING));
	snprintf(count, sizeof count, "%d/%d", pr.done, pr.total);
	if (cols > 60) {
		ui_bar(w, y, cols - barw - 8, barw, pr.fraction);
		ui_put(w, y, cols - 6, count, 6, ui_attr(UI_C_DIM));
	}
}

static void
draw_drop(struct home *h, WINDOW *w, int y, int cols, int idx, int attr)
{
	const struct content_drop *d = &h->app->course->drops[idx];
	enum curriculum_status s = h->app->status[idx];
	const struct drop_score *sc = &h->app->scores[idx];
	char num[16], mins[32], score[16];
	int sattr = curriculum_is_done(s) ? ui_attr(UI_C_DONE) :
	    s != CURRICULUM_NEW ? ui_attr(UI_C_STARTED) : ui_attr(UI_C_DIM);
	int right = 26;

	snprintf(num, sizeof num, "%2d", d->number);
	ui_put(w, y, 4, num, 3, attr);
	ui_put_cut(w, y, 8, d->title, cols - 8 - right - 1, attr);
	snprintf(mins, sizeof mins, _("%d min"), h->app->minutes[idx]);
	/* "12 min", two columns before the status. */
	ui_put(w, y, cols - right, mins, 6, attr | ui_attr(UI_C_DIM));
	ui_put(w, y, cols - 18, curriculum_status_name(s), 9,
	    attr ? attr : sattr);
	/* The score once something has been answered (core/course/score). */
	if (sc->attempted > 0 || sc->incidents_passed > 0) {
		snprintf(score, sizeof score, "%3.0f%%", 100 * sc->score);
		ui_put(w, y, cols - 8, score, 4, attr ? attr : sattr);
	}
	if (curriculum_is_done(s))
		ui_put(w, y, cols - 3, ui_glyph_check(), 1, sattr);
}

static void
draw_item(struct home *h, WINDOW *w, int y, int cols, const struct item *it,
    int sel)
{
	int attr = sel ? ui_attr(UI_C_SELECT) : (int)A_NORMAL;
	char line[200];
	int i;

	if (sel)
		for (i = 1; i < cols - 1; i++)
			mvwaddch(w, y, i, ' ' | attr);
	switch (it->kind) {
	case ITEM_CONTINUE:
		draw_continue(h, w, y, cols, attr);
		break;
	case ITEM_PHASE:
		draw_phase(h, w, y, cols, it->index);
		break;
	case ITEM_DROP:
		draw_drop(h, w, y, cols, it->index, attr);
		break;
	case ITEM_REVIEW:
		snprintf(line, sizeof line, _("Flashcard review  (%d due, %d "
		    "learning, %d new)"), h->cards[2], h->cards[1], h->cards[0]);
		ui_put_cut(w, y, 2, line, cols - 4, attr);
		break;
	case ITEM_STATS:
		ui_put_cut(w, y, 2, _("Statistics"), cols - 4, attr);
		break;
	case ITEM_PLAYGROUND:
		ui_put_cut(w, y, 2, _("Cost-model playground"), cols - 4, attr);
		break;
	case ITEM_PLAYER:
		ui_put_cut(w, y, 2,
		    _("Animations: the toy model on simulated GPUs"), cols - 4,
		    attr);
		break;
	case ITEM_BLANK:
		break;
	}
}

static void
home_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct home *h = s->state;
	char right[200], status[300];
	int body = rows - 3, i, width = cols < HOME_MAX_COLS ? cols :
	    HOME_MAX_COLS;

	snprintf(right, sizeof right, _("profile: %s"), h->app->profile_name);
	/* The bar spans the terminal; title and profile keep to the list. */
	ui_title(w, cols, "", NULL);
	ui_title(w, width, h->app->course->title, right);
	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + body)
		h->top = h->sel - body + 1;
	/* No blank rows below the list after the terminal grew. */
	if (h->top > h->n - body)
		h->top = h->n - body > 0 ? h->n - body : 0;
	for (i = 0; i < body && h->top + i < h->n; i++)
		draw_item(h, w, 2 + i, width, &h->items[h->top + i],
		    h->top + i == h->sel);
	if (h->app->problems > 0)
		snprintf(status, sizeof status, P_("%d content file was "
		    "skipped: run 'parlearn check-content' for details.",
		    "%d content files were skipped: run 'parlearn "
		    "check-content' for details.", h->app->problems),
		    h->app->problems);
	else if (h->app->lab_dir != NULL)
		snprintf(status, sizeof status, "%s",
		    _("In a lab: L back to the lab  j/k move  Enter open  q quit"));
	else	/* projector: only the keys that matter */
		snprintf(status, sizeof status, "%s", h->app->projector ?
		    _("Enter open  ? keys  q quit") :
		    _("j/k move  Enter open  c continue  B cards  ? keys  q quit"));
	ui_status(w, rows, cols, status, h->app->problems > 0 ?
	    ui_attr(UI_C_WARN) : ui_attr(UI_C_DIM));
}

static void
move_sel(struct home *h, int delta)
{
	int i = h->sel, step = delta > 0 ? 1 : -1, moved = 0;

	while (moved < (delta > 0 ? delta : -delta)) {
		i += step;
		if (i < 0 || i >= h->n)
			break;
		if (selectable(&h->items[i])) {
			h->sel = i;
			moved++;
		}
	}
}

static void
open_item(struct home *h, const struct item *it)
{
	struct app *a = h->app;
	int next;

	switch (it->kind) {
	case ITEM_CONTINUE:
		next = curriculum_continue(a->course, a->status, a->last_drop);
		ui_push(next >= 0 ? ui_reader_new(a, next) : ui_summary_new(a));
		break;
	case ITEM_DROP:
		ui_push(ui_reader_new(a, it->index));
		break;
	case ITEM_REVIEW:
		ui_push(ui_review_new(a, 0, NULL));
		break;
	case ITEM_STATS:
		ui_push(ui_stats_new(a));
		break;
	case ITEM_PLAYGROUND:
		ui_push(ui_playground_new(a, NULL, NULL));
		break;
	case ITEM_PLAYER:
		ui_push(ui_player_new(a, NULL));
		break;
	default:
		break;
	}
}

static enum ui_result
home_key(struct ui_screen *s, int ch)
{
	struct home *h = s->state;
	int rows = getmaxy(stdscr) - 3;

	switch (ch) {
	case KEY_UP: case 'k':
		move_sel(h, -1);
		break;
	case KEY_DOWN: case 'j':
		move_sel(h, 1);
		break;
	case KEY_PPAGE: case 'b':
		move_sel(h, -(rows - 1));
		break;
	case KEY_NPAGE: case 'f': case ' ':
		move_sel(h, rows - 1);
		break;
	case KEY_HOME: case 'g':
		h->sel = 0;
		break;
	case KEY_END: case 'G':
		h->sel = h->n - 1;
		break;
	case '\n': case '\r': case KEY_ENTER: case 'l': case KEY_RIGHT:
		if (h->app->course->n_drops > 0)
			open_item(h, &h->items[h->sel]);
		break;
	case 'c':
		if (h->app->course->n_drops > 0)
			open_item(h, &h->items[0]);
		break;
	case 'S':
		if (h->app->course->n_drops > 0)
			ui_push(ui_summary_new(h->app));
		break;
	case 'B':
		ui_push(ui_browse_new(h->app));
		break;
	case 'L':
		if (h->app->lab_dir == NULL)
			return UI_IGNORED;
		ui_push(ui_lab_student_new(h->app));
		break;
	case 'q': case 'Q': case 27:
		return UI_QUIT;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

/* Today's card counts for the review entry. */
static void
count_cards(struct home *h)
{
	struct pl_err err;

	if (store_review_counts(h->app->store, h->app->profile, h->app->course,
	    (int64_t)time(NULL), h->cards, &err) != 0)
		app_store_error(&err);
}

static void
home_resume(struct ui_screen *s)
{
	struct home *h = s->state;

	app_refresh(h->app);
	count_cards(h);
}

static void
home_free(struct ui_screen *s)
{
	struct home *h = s->state;

	free(h->items);
	free(h);
}

struct ui_screen *
ui_home_new(struct app *a)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct home *h = calloc(1, sizeof *h);

	if (s == NULL || h == NULL) {
		free(s);
		free(h);
		return NULL;
	}
	h->app = a;
	build(h);
	count_cards(h);
	s->title = N_("Home");
	s->help = home_help;
	s->draw = home_draw;
	s->key = home_key;
	s->resume = home_resume;
	s->free = home_free;
	s->state = h;
	return s;
}
