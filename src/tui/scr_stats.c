/*
 * scr_stats.c - the flashcard statistics screen.
 *
 * Draws the lines review_stats_lines() makes from store_review_stats(),
 * the same lines `parlearn stats` prints, at the window's width, under
 * today's queue as the home screen counts it, with the reason the two
 * "new" counts differ (the daily limit) and the cards suspended in the
 * card browser; j/k, the page keys and g/G scroll when they do not fit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/wrap.h"
#include "store/cards.h"
#include "store/cards_browse.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define STATS_MAX_LINES	128

struct stats_scr {
	struct app		*app;
	struct review_stats	 st;
	struct review_settings	 set;
	int			 queue[3];	/* today: new, learning, due */
	int			 suspended;	/* cards suspended */
	int			 ok;		/* st is loaded */
	int			 top;		/* first line shown */
	char			*lines[STATS_MAX_LINES];
	char			 heading[STATS_MAX_LINES];	/* 1: heading */
	int			 next_heading;	/* the next line kept is one */
	int			 n;
};

static const struct ui_key_help stats_help[] = {
	{ N_("Up/Down, j/k"), N_("scroll") },
	{ N_("PgDn, f, Space"), N_("scroll a page down") },
	{ N_("PgUp, b"), N_("scroll a page up") },
	{ N_("Home/End, g/G"), N_("top / bottom") },
	{ N_("r"), N_("reload") },
	{ N_("q, Esc"), N_("back") },
	{ NULL, NULL }
};

static void
clear_lines(struct stats_scr *v)
{
	int i;

	for (i = 0; i < v->n; i++)
		free(v->lines[i]);
	v->n = 0;
}

static void
keep_line(const char *s, size_t n, void *arg)
{
	struct stats_scr *v = arg;
	char *l;

	if (v->n >= STATS_MAX_LINES || (l = malloc(n + 1)) == NULL)
		return;
	memcpy(l, s, n);
	l[n] = '\0';
	v->heading[v->n] = v->next_heading;
	v->next_heading = 0;
	v->lines[v->n++] = l;
}

static void
keep_heading(struct stats_scr *v, const char *s)
{
	v->next_heading = 1;
	keep_line(s, strlen(s), v);
}

/* keep_line, indented by two columns as review_stats_lines indents. */
static void
keep_indented(const char *s, size_t n, void *arg)
{
	char line[512];

	if (n + 3 > sizeof line)
		n = sizeof line - 3;
	line[0] = line[1] = ' ';
	memcpy(line + 2, s, n);
	keep_line(line, n + 2, arg);
}

/* A paragraph wrapped to width, each line indented. */
static void
keep_para(struct stats_scr *v, const char *s, int width)
{
	wrap_paragraph(s, width - 2, keep_indented, v);
}

/*
 * Today's queue, as the home screen's review entry counts it, and why
 * its "new" count may be smaller than the count by state below.
 */
static void
today_lines(struct stats_scr *v, int width)
{
	char b[512];
	int waiting = v->st.by_state[FSRS_NEW] - v->queue[0];

	keep_heading(v, _("Today's review"));
	snprintf(b, sizeof b, _("%d due, %d learning, %d new (as on the "
	    "home screen)"), v->queue[2], v->queue[1], v->queue[0]);
	keep_para(v, b, width);
	if (waiting > 0) {
		snprintf(b, sizeof b, P_("%d more new card waits for later "
		    "days: at most %d new cards a day (+ and - on the review "
		    "screen change it).", "%d more new cards wait for later "
		    "days: at most %d new cards a day (+ and - on the review "
		    "screen change it).", waiting), waiting,
		    v->set.new_per_day);
		keep_para(v, b, width);
	}
	if (v->suspended > 0) {
		snprintf(b, sizeof b, P_("%d card is suspended (B on the "
		    "home screen): it is in no queue and no count below.",
		    "%d cards are suspended (B on the home screen): they are "
		    "in no queue and no count below.", v->suspended),
		    v->suspended);
		keep_para(v, b, width);
	}
	keep_line("", 0, v);
}

static void
load(struct stats_scr *v)
{
	struct review_settings set;
	struct pl_err err;
	int64_t now = (int64_t)time(NULL);

	/* The counts first: they unlock the cards of started drops, as the
	 * home screen does, so both see the same cards. */
	v->ok = store_review_counts(v->app->store, v->app->profile,
	    v->app->course, now, v->queue, &err) == 0 &&
	    store_cards_count_suspended(v->app->store, v->app->profile,
	    &v->suspended, &err) == 0 &&
	    store_review_settings(v->app->store, v->app->profile, &set,
	    &err) == 0 && store_review_stats(v->app->store, v->app->profile,
	    now, store_local_offset(now), set.rollover_hour, &v->st, &err) == 0;
	if (!v->ok) {
		app_store_error(&err);
		return;
	}
	v->set = set;
}

static void
stats_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct stats_scr *v = s->state;
	int body = rows - 3, i;

	ui_title(w, cols, _("Flashcard statistics"), NULL);
	clear_lines(v);
	if (v->ok) {
		today_lines(v, cols - 4);
		v->next_heading = 1;	/* review_stats_lines' first line */
		review_stats_lines(&v->st, cols - 4, ui_term.utf8, keep_line, v);
	}
	if (v->top > v->n - body)
		v->top = v->n - body;
	if (v->top < 0)
		v->top = 0;
	for (i = 0; i < body && v->top + i < v->n; i++)
		ui_put(w, 2 + i, 2, v->lines[v->top + i], cols - 4,
		    v->heading[v->top + i] ? ui_attr(UI_C_HEADING) :
		    (int)A_NORMAL);
	ui_status(w, rows, cols, _("j/k scroll  f/b page  g/G top/end  "
	    "r reload  q back"), ui_attr(UI_C_DIM));
}

static enum ui_result
stats_key(struct ui_screen *s, int ch)
{
	struct stats_scr *v = s->state;
	int page = getmaxy(stdscr) - 4;

	/* The end is v->n: drawing clamps it to the last page. */
	if (ui_scroll_key(ch, &v->top, page, v->n))
		return UI_HANDLED;
	switch (ch) {
	case 'q': case 'Q': case 27: case 'h': case KEY_LEFT:
		return UI_BACK;
	case 'r':
		load(v);
		break;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

static void
stats_free(struct ui_screen *s)
{
	struct stats_scr *v = s->state;

	clear_lines(v);
	free(v);
}

struct ui_screen *
ui_stats_new(struct app *a)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct stats_scr *v = calloc(1, sizeof *v);

	if (s == NULL || v == NULL) {
		free(s);
		free(v);
		return NULL;
	}
	v->app = a;
	load(v);
	s->title = N_("Flashcard statistics");
	s->help = stats_help;
	s->draw = stats_draw;
	s->key = stats_key;
	s->free = stats_free;
	s->state = v;
	return s;
}
