/*
 * scr_stats.c - the flashcard statistics screen.
 *
 * Draws the lines review_stats_lines() makes from store_review_stats(),
 * the same lines `parlearn stats` prints, at the window's width; j/k and
 * the page keys scroll when they do not fit.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "store/cards.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define STATS_MAX_LINES	128

struct stats_scr {
	struct app		*app;
	struct review_stats	 st;
	int			 ok;		/* st is loaded */
	int			 top;		/* first line shown */
	char			*lines[STATS_MAX_LINES];
	int			 n;
};

static const struct ui_key_help stats_help[] = {
	{ N_("Up/Down, j/k"), N_("scroll") },
	{ N_("PgUp/PgDn"), N_("scroll a page") },
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
	v->lines[v->n++] = l;
}

static void
load(struct stats_scr *v)
{
	struct review_settings set;
	struct pl_err err;
	int64_t now = (int64_t)time(NULL);

	v->ok = store_review_settings(v->app->store, v->app->profile, &set,
	    &err) == 0 && store_review_stats(v->app->store, v->app->profile,
	    now, store_local_offset(now), set.rollover_hour, &v->st, &err) == 0;
	if (!v->ok)
		app_store_error(&err);
}

static void
stats_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct stats_scr *v = s->state;
	int body = rows - 3, i;

	ui_title(w, cols, _("Flashcard statistics"), NULL);
	clear_lines(v);
	if (v->ok)
		review_stats_lines(&v->st, cols - 4, ui_term.utf8, keep_line, v);
	if (v->top > v->n - body)
		v->top = v->n - body;
	if (v->top < 0)
		v->top = 0;
	for (i = 0; i < body && v->top + i < v->n; i++)
		ui_put(w, 2 + i, 2, v->lines[v->top + i], cols - 4,
		    v->top + i == 0 ? ui_attr(UI_C_HEADING) : (int)A_NORMAL);
	ui_status(w, rows, cols, _("j/k scroll  r reload  q back"),
	    ui_attr(UI_C_DIM));
}

static enum ui_result
stats_key(struct ui_screen *s, int ch)
{
	struct stats_scr *v = s->state;
	int page = getmaxy(stdscr) - 4;

	switch (ch) {
	case 'q': case 'Q': case 27: case 'h': case KEY_LEFT:
		return UI_BACK;
	case 'j': case KEY_DOWN:
		v->top++;
		break;
	case 'k': case KEY_UP:
		v->top--;
		break;
	case KEY_NPAGE: case ' ':
		v->top += page;
		break;
	case KEY_PPAGE:
		v->top -= page;
		break;
	case 'g': case KEY_HOME:
		v->top = 0;
		break;
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
