/*
 * scr_review.c - the flashcard review screen.
 *
 * Shows the front of the current card; Space reveals the back and the four
 * ratings, each labelled with the interval it would give (review_labels);
 * 1-4 rate, u undoes, + and - change the new cards per day. The header
 * counts new, learning and due cards; a backlog over the daily limit is
 * said on screen; an empty queue shows the session's figures. c starts
 * a cram session over every card, which changes no schedule and so shows
 * no intervals on its buttons. A card too long for the window scrolls
 * (j/k, f/b, g/G). Every figure comes from the session (store/cards.h),
 * which the CLI's `parlearn review --list` also uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/wrap.h"
#include "store/cards.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define REVIEW_MAX_ANSWER_S	60	/* Anki caps the time per answer */

struct review_scr {
	struct app		*app;
	struct store_review	 r;
	int			 open;		/* r is loaded */
	int			 revealed;	/* back shown */
	char			 labels[4][16];	/* intervals per rating */
	int64_t			 shown_at;	/* when the card appeared */
	char			 *deck;		/* owned, or NULL */
	int			 scroll;	/* card lines scrolled off */
	int			 card_rows;	/* rows the card had last draw */
	int			 card_lines;	/* lines the card took */
};

static const struct ui_key_help review_help[] = {
	{ N_("Space, Enter"), N_("show the answer") },
	{ N_("1 2 3 4"), N_("rate: again, hard, good, easy") },
	{ N_("u"), N_("undo the last rating") },
	{ N_("+ / -"), N_("more / fewer new cards per day") },
	{ N_("c"), N_("cram: every card again, no schedule changes") },
	{ N_("Up/Down, j/k"), N_("scroll a long card") },
	{ N_("PgDn, f, Space"), N_("a page down (Space once the answer shows)") },
	{ N_("PgUp, b"), N_("a page up") },
	{ N_("Home/End, g/G"), N_("top / end of the card") },
	{ N_("q, Esc"), N_("back") },
	{ NULL, NULL }
};

static const char *const rating_name[4] = {
	N_("again"), N_("hard"), N_("good"), N_("easy")
};

/* A new card is current: reset the reveal and start its clock. */
static void
next_card(struct review_scr *v)
{
	v->revealed = 0;
	v->scroll = 0;
	v->shown_at = (int64_t)time(NULL);
}

/* A rule between front and back, as one line of the text. */
static void
emit_rule(struct ui_text_draw *d)
{
	d->total++;
	if (d->skip > 0)
		d->skip--;
	else if (d->y <= d->maxy)
		ui_rule(d->w, d->y++, d->x, d->width);
}

/* Draw text (paragraphs split at newlines) wrapped; returns the next row. */
static int
draw_text(struct ui_text_draw *d, const char *text)
{
	const char *p = text, *nl;
	char para[2048];
	size_t n;

	for (;;) {
		nl = strchr(p, '\n');
		n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (n >= sizeof para)
			n = sizeof para - 1;
		memcpy(para, p, n);
		para[n] = '\0';
		wrap_paragraph(para, d->width, ui_text_line, d);
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return d->y;
}

static void
draw_header(struct review_scr *v, WINDOW *w, int cols)
{
	const struct review_queue *q = &v->r.queue;
	char right[160];

	if (v->r.cram)
		snprintf(right, sizeof right, _("cram: %zu left"), q->n);
	else
		snprintf(right, sizeof right, _("new %d  learning %d  due %d"),
		    q->n_new, q->n_learning, q->n_review);
	ui_title(w, cols, v->r.cram ? _("Cram (schedules unchanged)") :
	    _("Flashcard review"), right);
}

static int
draw_backlog(struct review_scr *v, WINDOW *w, int y, int cols)
{
	const struct review_queue *q = &v->r.queue;
	struct ui_text_draw d = { w, y, 2, y + 1, cols - 4, 0, 0, 0 };
	char line[400];

	if (q->backlog <= 0)
		return y;
	d.attr = ui_attr(UI_C_WARN);
	snprintf(line, sizeof line, P_("Backlog: %d due review is over today's "
	    "limit. The cards you are most likely to have forgotten come "
	    "first; the rest follow over the next %d days.",
	    "Backlog: %d due reviews are over today's limit. The cards you are "
	    "most likely to have forgotten come first; the rest follow over "
	    "the next %d days.", q->backlog), q->backlog, q->backlog_days);
	return draw_text(&d, line) + 1;
}

static void
draw_buttons(struct review_scr *v, WINDOW *w, int rows, int cols)
{
	char b[64];
	int i, x = 1, cw = (cols - 2) / 4;

	if (!v->revealed) {
		ui_status(w, rows, cols, v->r.cram ?
		    _("Space show answer  u undo  ? keys  q back") :
		    _("Space show answer  u undo  c cram  ? keys  q back"),
		    ui_attr(UI_C_DIM));
		return;
	}
	ui_status(w, rows, cols, "", A_NORMAL);
	for (i = 0; i < 4; i++, x += cw) {
		/* Cram applies no interval, so it shows none. */
		if (v->r.cram)
			snprintf(b, sizeof b, "%d %s", i + 1, _(rating_name[i]));
		else
			snprintf(b, sizeof b, "%d %s %s", i + 1,
			    _(rating_name[i]), v->labels[i]);
		ui_put(w, rows - 1, x, b, cw - 1, i == 0 ?
		    ui_attr(UI_C_WARN) : ui_attr(UI_C_ACCENT));
	}
}

static void
draw_card(struct review_scr *v, WINDOW *w, int rows, int cols)
{
	struct store_card *k = store_review_current(&v->r, NULL);
	int width = cols - 4 > 100 ? 100 : cols - 4;
	struct ui_text_draw d = { w, 2, 2, rows - 3, width, 0, 0, 0 };

	d.y = draw_backlog(v, w, 2, cols);
	v->card_rows = d.maxy - d.y + 1;
	if (v->scroll > v->card_lines - v->card_rows)
		v->scroll = v->card_lines - v->card_rows;
	if (v->scroll < 0)
		v->scroll = 0;
	d.skip = v->scroll;
	if (!v->app->projector) {	/* projector: the card, nothing else */
		d.attr = ui_attr(UI_C_DIM);
		ui_text_line(k->deck, strlen(k->deck), &d);
	}
	d.attr = A_BOLD;
	draw_text(&d, k->front);
	if (v->revealed) {
		ui_text_line("", 0, &d);
		emit_rule(&d);
		d.attr = A_NORMAL;
		draw_text(&d, k->back);
	}
	v->card_lines = d.total;
	if (v->scroll + v->card_rows < v->card_lines)
		ui_put(w, rows - 2, cols - 12, _("(more: j)"), 10,
		    ui_attr(UI_C_DIM));
	draw_buttons(v, w, rows, cols);
}

static void
draw_end(struct review_scr *v, WINDOW *w, int rows, int cols)
{
	const struct review_figures *f = &v->r.figures;
	struct ui_text_draw d = { w, 2, 2, rows - 3, cols - 4, 0, 0, 0 };
	char line[300], in[32];
	int64_t now = (int64_t)time(NULL);

	d.attr = ui_attr(UI_C_HEADING);
	draw_text(&d, f->rated > 0 ? _("Session done.") :
	    _("Nothing to review now."));
	d.attr = A_NORMAL;
	d.y++;
	snprintf(line, sizeof line, P_("%d card rated in %lld min: again %d, "
	    "hard %d, good %d, easy %d.", "%d cards rated in %lld min: again %d, "
	    "hard %d, good %d, easy %d.", f->rated), f->rated,
	    (long long)((f->seconds + 59) / 60), f->by_rating[0],
	    f->by_rating[1], f->by_rating[2], f->by_rating[3]);
	draw_text(&d, line);
	snprintf(line, sizeof line, _("New cards seen: %d. Reviews passed: "
	    "%d of %d."), f->new_seen, f->reviews_passed, f->reviews);
	draw_text(&d, line);
	if (v->r.cram)
		draw_text(&d, _("Cram mode: no schedule was changed."));
	else if (v->r.queue.next_learning > now) {
		fsrs_format_interval(v->r.queue.next_learning - now, in,
		    sizeof in);
		snprintf(line, sizeof line, _("A learning card is due again in "
		    "%s; this screen will show it then."), in);
		draw_text(&d, line);
	} else
		draw_text(&d, _("Come back tomorrow: press s for statistics."));
	if (!v->r.cram && v->r.set.n > 0) {
		d.y++;
		draw_text(&d, _("Press c to cram: go through every card again "
		    "without changing any schedule."));
	}
	ui_status(w, rows, cols, v->r.cram ? _("s statistics  u undo  q back") :
	    _("c cram  s statistics  u undo  q back"), ui_attr(UI_C_DIM));
}

static void
review_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct review_scr *v = s->state;

	draw_header(v, w, cols);
	if (!v->open) {
		ui_put(w, 2, 2, _("The cards could not be loaded."), cols - 4,
		    ui_attr(UI_C_WARN));
		ui_status(w, rows, cols, _("q back"), ui_attr(UI_C_DIM));
	} else if (store_review_current(&v->r, NULL) != NULL)
		draw_card(v, w, rows, cols);
	else
		draw_end(v, w, rows, cols);
}

static void
reveal(struct review_scr *v)
{
	struct review_item *it;

	if (store_review_current(&v->r, &it) == NULL)
		return;
	if (review_labels(&v->r.params, &it->card, (int64_t)time(NULL),
	    v->labels) == 0)
		v->revealed = 1;
}

static void
rate(struct review_scr *v, enum fsrs_rating g)
{
	int64_t now = (int64_t)time(NULL), secs = now - v->shown_at;
	struct pl_err err;

	if (secs > REVIEW_MAX_ANSWER_S)
		secs = REVIEW_MAX_ANSWER_S;
	if (store_review_rate(v->app->store, &v->r, g, now, secs, &err) != 0)
		app_store_error(&err);
	next_card(v);
}

static void
change_new(struct review_scr *v, int delta)
{
	struct pl_err err;
	char msg[120];

	v->r.settings.new_per_day += delta;
	if (v->r.settings.new_per_day < 0)
		v->r.settings.new_per_day = 0;
	if (store_review_settings_save(v->app->store, v->app->profile,
	    &v->r.settings, &err) != 0 || store_review_requeue(v->app->store,
	    &v->r, (int64_t)time(NULL), &err) != 0) {
		app_store_error(&err);
		return;
	}
	snprintf(msg, sizeof msg, _("New cards per day: %d"),
	    v->r.settings.new_per_day);
	ui_flash(msg);
	next_card(v);
}

/*
 * The scrolling keys on a card taller than the window (Space pages once
 * the answer shows; before, it shows the answer).
 */
static enum ui_result
scroll_key(struct review_scr *v, int ch)
{
	int page = v->card_rows > 2 ? v->card_rows - 1 : 1;

	/* The end is card_lines: drawing clamps it. */
	return ui_scroll_key(ch, &v->scroll, page, v->card_lines) ?
	    UI_HANDLED : UI_IGNORED;
}

static enum ui_result
review_key(struct ui_screen *s, int ch)
{
	struct review_scr *v = s->state;
	struct pl_err err;
	int have = v->open && store_review_current(&v->r, NULL) != NULL;

	if (ch == 'q' || ch == 'Q' || ch == 27)
		return UI_BACK;
	if (!v->open)
		return UI_IGNORED;
	if (have && !v->revealed && (ch == ' ' || ch == '\n' || ch == '\r' ||
	    ch == KEY_ENTER))
		reveal(v);
	else if (have && v->revealed && ch >= '1' && ch <= '4')
		rate(v, (enum fsrs_rating)(ch - '0'));
	else if (ch == 'u') {
		if (store_review_undo(v->app->store, &v->r, (int64_t)time(NULL),
		    &err) < 0)
			app_store_error(&err);
		else
			next_card(v);
	} else if ((ch == '+' || ch == '-') && !v->r.cram)
		change_new(v, ch == '+' ? 5 : -5);
	else if (ch == 's' && !have)
		ui_push(ui_stats_new(v->app));
	else if (ch == 'c' && !v->r.cram)
		ui_push(ui_review_new(v->app, 1, v->deck));
	else if (have)
		return scroll_key(v, ch);
	else
		return UI_IGNORED;
	return UI_HANDLED;
}

/* On the end screen, wake when the next learning card falls due. */
static int
review_next_tick_ms(struct ui_screen *s)
{
	struct review_scr *v = s->state;
	int64_t left;

	if (!v->open || v->r.cram || v->r.queue.n > 0 ||
	    v->r.queue.next_learning == 0)
		return -1;
	left = v->r.queue.next_learning - (int64_t)time(NULL);
	return left <= 0 ? 0 : left > 60 ? 60000 : (int)(left * 1000);
}

static void
review_tick(struct ui_screen *s)
{
	struct review_scr *v = s->state;
	struct pl_err err;

	if (store_review_requeue(v->app->store, &v->r, (int64_t)time(NULL),
	    &err) != 0)
		app_store_error(&err);
	next_card(v);
}

static void
review_free(struct ui_screen *s)
{
	struct review_scr *v = s->state;

	if (v->open)
		store_review_close(&v->r);
	free(v->deck);
	free(v);
}

struct ui_screen *
ui_review_new(struct app *a, int cram, const char *deck)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct review_scr *v = calloc(1, sizeof *v);
	struct pl_err err;

	if (s == NULL || v == NULL) {
		free(s);
		free(v);
		return NULL;
	}
	v->app = a;
	v->deck = deck != NULL ? strdup(deck) : NULL;
	if (store_review_open(a->store, a->profile, a->course, a->catalog,
	    v->deck, cram, (int64_t)time(NULL), &v->r, &err) == 0)
		v->open = 1;
	else
		app_store_error(&err);
	next_card(v);
	s->title = N_("Flashcard review");
	s->help = review_help;
	s->draw = review_draw;
	s->key = review_key;
	s->next_tick_ms = review_next_tick_ms;
	s->tick = review_tick;
	s->free = review_free;
	s->state = v;
	return s;
}
