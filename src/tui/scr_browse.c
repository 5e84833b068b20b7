/*
 * scr_browse.c - the card browser.
 *
 * A list of the profile's cards (those unlocked by started drops, the
 * mistakes deck and imported decks) with state, due time, deck and front;
 * '/' types a search (core/srs/card_search.h) that narrows the list as it
 * is typed; s suspends or unsuspends the selected card. The selected
 * card's front and back show under the list when the window has room.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/srs/card_search.h"
#include "core/wrap.h"
#include "store/cards_browse.h"
#include "tui/draw.h"
#include "tui/scr_browse.h"
#include "tui/term.h"
#include "tui/ui.h"

#define QUERY_MAX	128
#define PREVIEW_MIN_ROWS 18	/* below this the list takes every row */
#define WIDE_COLS	72	/* from this width on, a deck column */

struct browse {
	struct app		*app;
	struct store_card_set	 set;
	int			*susp;		/* per card: 1 suspended */
	size_t			*view;		/* cards the query finds */
	size_t			 nview;
	size_t			 sel;		/* index into view */
	size_t			 top;		/* first row shown */
	int			 n_susp;
	int			 typing;	/* the search box has the keys */
	int			 ok;		/* the cards are loaded */
	char			 query[QUERY_MAX];
};

static const struct ui_key_help browse_help[] = {
	{ N_("Up/Down, j/k"), N_("move") },
	{ N_("PgDn, f, Space"), N_("move a page down") },
	{ N_("PgUp, b"), N_("move a page up") },
	{ N_("Home/End, g/G"), N_("first / last card") },
	{ N_("/"), N_("search as you type") },
	{ N_("Esc"), N_("clear the search") },
	{ N_("s"), N_("suspend / unsuspend") },
	{ N_("q"), N_("back") },
	{ NULL, NULL }
};

static const char *const state_name[4] = {
	N_("new"), N_("learning"), N_("review"), N_("relearning")
};

static void
refilter(struct browse *b)
{
	size_t i;

	b->nview = 0;
	for (i = 0; i < b->set.n; i++)
		if (card_search_match(b->query, b->set.cards[i].front,
		    b->set.cards[i].back, b->set.cards[i].deck))
			b->view[b->nview++] = i;
	if (b->sel >= b->nview)
		b->sel = b->nview > 0 ? b->nview - 1 : 0;
}

static void
unload(struct browse *b)
{
	store_card_set_free(&b->set);
	free(b->susp);
	free(b->view);
	b->susp = NULL;
	b->view = NULL;
	b->nview = 0;
	b->ok = 0;
}

static void
load(struct browse *b)
{
	struct app *a = b->app;
	struct pl_err err;
	size_t n;

	unload(b);
	if (store_cards_unlock(a->store, a->profile, a->course,
	    (int64_t)time(NULL), NULL, &err) != 0 ||
	    store_cards_load(a->store, a->profile, a->course, a->catalog, NULL,
	    &b->set, &err) != 0) {
		app_store_error(&err);
		return;
	}
	n = b->set.n > 0 ? b->set.n : 1;
	b->susp = calloc(n, sizeof *b->susp);
	b->view = calloc(n, sizeof *b->view);
	if (b->susp == NULL || b->view == NULL) {
		unload(b);
		return;
	}
	if (store_cards_suspended_flags(a->store, a->profile, &b->set, b->susp,
	    &err) != 0 || store_cards_count_suspended(a->store, a->profile,
	    &b->n_susp, &err) != 0) {
		app_store_error(&err);
		unload(b);
		return;
	}
	b->ok = 1;
	refilter(b);
}

/* Column of the card's front. */
static int
front_x(int cols)
{
	return cols >= WIDE_COLS ? 42 : 24;
}

/* State, due, deck and front of card i on row y. */
static void
draw_row(struct browse *b, WINDOW *w, int y, int cols, size_t i, int sel)
{
	const struct store_card *k = &b->set.cards[i];
	const struct fsrs_card *c = &b->set.items[i].card;
	int64_t now = (int64_t)time(NULL);
	int attr = sel ? ui_attr(UI_C_SELECT) : (int)A_NORMAL, x;
	char due[48], in[32];

	if (sel)
		for (x = 1; x < cols - 1; x++)
			mvwaddch(w, y, x, ' ' | attr);
	if (b->susp[i])
		ui_put(w, y, 2, _("suspended"), 11, attr ? attr :
		    ui_attr(UI_C_WARN));
	else
		ui_put(w, y, 2, c->state <= FSRS_RELEARNING ?
		    _(state_name[c->state]) : "?", 11, attr);
	if (c->state == FSRS_NEW)
		snprintf(due, sizeof due, "-");
	else if (c->due <= now)
		snprintf(due, sizeof due, "%s", _("due"));
	else
		snprintf(due, sizeof due, _("in %s"),
		    fsrs_format_interval(c->due - now, in, sizeof in));
	ui_put(w, y, 14, due, 9, attr);
	if (cols >= WIDE_COLS)
		ui_put_cut(w, y, 24, k->deck, 16, attr |
		    (sel ? 0 : ui_attr(UI_C_DIM)));
	x = front_x(cols);
	ui_put_cut(w, y, x, k->front, cols - x - 2, attr);
}

struct text_draw {
	WINDOW	*w;
	int	 y, maxy, width, attr;
};

static void
emit_line(const char *s, size_t n, void *arg)
{
	struct text_draw *d = arg;
	char line[1024];

	if (d->y > d->maxy || n >= sizeof line)
		return;
	memcpy(line, s, n);
	line[n] = '\0';
	ui_put(d->w, d->y++, 2, line, d->width, d->attr);
}

/* Text split at newlines, each paragraph wrapped. */
static void
draw_text(struct text_draw *d, const char *text)
{
	const char *p = text, *nl;
	char para[2048];
	size_t n;

	while (d->y <= d->maxy) {
		nl = strchr(p, '\n');
		n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (n >= sizeof para)
			n = sizeof para - 1;
		memcpy(para, p, n);
		para[n] = '\0';
		wrap_paragraph(para, d->width, emit_line, d);
		if (nl == NULL)
			break;
		p = nl + 1;
	}
}

static void
draw_preview(struct browse *b, WINDOW *w, int y, int rows, int cols)
{
	const struct store_card *k = &b->set.cards[b->view[b->sel]];
	struct text_draw d = { w, y + 1, rows - 2, cols - 4, A_BOLD };

	ui_rule(w, y, 1, cols - 2);
	draw_text(&d, k->front);
	d.attr = A_NORMAL;
	draw_text(&d, k->back);
}

static void
draw_search(struct browse *b, WINDOW *w, int cols)
{
	char line[QUERY_MAX + 64], count[64];

	if (b->typing || b->query[0] != '\0') {
		snprintf(line, sizeof line, _("Search: %s%s"), b->query,
		    b->typing ? "_" : "");
		ui_put(w, 1, 2, line, cols - 24, ui_attr(UI_C_ACCENT));
	} else
		ui_put(w, 1, 2, _("/ search by front, back or deck"), cols - 24,
		    ui_attr(UI_C_DIM));
	snprintf(count, sizeof count, P_("%zu card shown", "%zu cards shown",
	    b->nview), b->nview);
	ui_put(w, 1, cols - 2 - wrap_width(count, strlen(count)), count, 20,
	    ui_attr(UI_C_DIM));
}

/* Rows of the list for a window of rows rows. */
static int
list_rows(int rows)
{
	int body = rows - 5;

	return rows >= PREVIEW_MIN_ROWS ? body - body / 3 - 1 : body;
}

static void
browse_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct browse *b = s->state;
	char right[96];
	int n = list_rows(rows), i;

	snprintf(right, sizeof right, P_("%zu card, %d suspended",
	    "%zu cards, %d suspended", b->set.n), b->set.n, b->n_susp);
	ui_title(w, cols, _("Card browser"), b->ok ? right : NULL);
	if (!b->ok) {
		ui_put(w, 2, 2, _("The cards could not be loaded."), cols - 4,
		    ui_attr(UI_C_WARN));
		ui_status(w, rows, cols, _("q back"), ui_attr(UI_C_DIM));
		return;
	}
	draw_search(b, w, cols);
	ui_put(w, 2, 2, _("State"), 11, ui_attr(UI_C_HEADING));
	ui_put(w, 2, 14, _("Due"), 9, ui_attr(UI_C_HEADING));
	if (cols >= WIDE_COLS)
		ui_put(w, 2, 24, _("Deck"), 16, ui_attr(UI_C_HEADING));
	ui_put(w, 2, front_x(cols), _("Front"), cols - front_x(cols) - 2,
	    ui_attr(UI_C_HEADING));
	if (b->sel < b->top)
		b->top = b->sel;
	if (b->sel >= b->top + (size_t)n)
		b->top = b->sel - (size_t)n + 1;
	/* No blank rows below the list after the terminal grew. */
	if (b->top + (size_t)n > b->nview)
		b->top = b->nview > (size_t)n ? b->nview - (size_t)n : 0;
	for (i = 0; i < n && b->top + (size_t)i < b->nview; i++)
		draw_row(b, w, 3 + i, cols, b->view[b->top + i],
		    b->top + (size_t)i == b->sel);
	if (b->nview == 0)
		ui_put(w, 3, 2, b->set.n == 0 ?
		    _("No cards yet: they unlock as you start drops.") :
		    _("No card matches the search."), cols - 4, A_NORMAL);
	else if (rows >= PREVIEW_MIN_ROWS)
		draw_preview(b, w, 3 + n, rows, cols);
	ui_status(w, rows, cols, b->typing ?
	    _("type to search  Enter keep  Esc clear") :
	    _("/ search  s suspend/unsuspend  j/k move  ? keys  q back"),
	    ui_attr(UI_C_DIM));
}

static void
move_sel(struct browse *b, long delta)
{
	long i = (long)b->sel + delta;

	if (i >= (long)b->nview)
		i = (long)b->nview - 1;
	if (i < 0)
		i = 0;
	b->sel = (size_t)i;
}

static void
toggle_suspend(struct browse *b)
{
	struct app *a = b->app;
	struct pl_err err;
	size_t i;

	if (b->nview == 0)
		return;
	i = b->view[b->sel];
	if (store_cards_suspend(a->store, a->profile, b->set.cards[i].id,
	    !b->susp[i], &err) != 0) {
		app_store_error(&err);
		return;
	}
	b->susp[i] = !b->susp[i];
	b->n_susp += b->susp[i] ? 1 : -1;
	ui_flash(b->susp[i] ? _("Suspended: the card leaves every review "
	    "queue until you unsuspend it.") :
	    _("Unsuspended: the card is back on its schedule."));
}

/* Keys while the search box is open. */
static enum ui_result
typing_key(struct browse *b, int ch)
{
	size_t n = strlen(b->query);

	switch (ch) {
	case '\n': case '\r': case KEY_ENTER:
		b->typing = 0;
		return UI_HANDLED;
	case 27:
		b->query[0] = '\0';
		b->typing = 0;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		/* Drop the last character, with its UTF-8 continuation bytes. */
		while (n > 0 && ((unsigned char)b->query[n - 1] & 0xC0) == 0x80)
			n--;
		if (n > 0)
			n--;
		b->query[n] = '\0';
		break;
	case KEY_DOWN:
		move_sel(b, 1);
		return UI_HANDLED;
	case KEY_UP:
		move_sel(b, -1);
		return UI_HANDLED;
	default:
		if (ch < 0x20 || ch > 0xFF || ch == 0x7F || n + 1 >= QUERY_MAX)
			return UI_IGNORED;
		b->query[n] = (char)ch;
		b->query[n + 1] = '\0';
		break;
	}
	b->sel = 0;
	refilter(b);
	return UI_HANDLED;
}

static enum ui_result
browse_key(struct ui_screen *s, int ch)
{
	struct browse *b = s->state;
	long page = list_rows(getmaxy(stdscr));
	int sel;

	if (b->typing)
		return typing_key(b, ch);
	sel = (int)b->sel;
	if (b->nview > 0 && ui_scroll_key(ch, &sel, (int)page - 1,
	    (int)b->nview - 1)) {
		b->sel = (size_t)sel;
		return UI_HANDLED;
	}
	switch (ch) {
	case 'q': case 'Q': case 'h': case KEY_LEFT:
		return UI_BACK;
	case 27:
		if (b->query[0] == '\0')
			return UI_BACK;
		b->query[0] = '\0';
		refilter(b);
		break;
	case '/':
		if (!b->ok)
			return UI_IGNORED;
		b->typing = 1;
		break;
	case 's':
		toggle_suspend(b);
		break;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

static int
browse_typing(struct ui_screen *s)
{
	struct browse *b = s->state;

	return b->typing;
}

static void
browse_free(struct ui_screen *s)
{
	struct browse *b = s->state;

	unload(b);
	free(b);
}

struct ui_screen *
ui_browse_new(struct app *a)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct browse *b = calloc(1, sizeof *b);

	if (s == NULL || b == NULL) {
		free(s);
		free(b);
		return NULL;
	}
	b->app = a;
	load(b);
	s->title = N_("Card browser");
	s->help = browse_help;
	s->draw = browse_draw;
	s->key = browse_key;
	s->typing = browse_typing;
	s->free = browse_free;
	s->state = b;
	return s;
}
