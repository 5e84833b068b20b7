/*
 * scr_reader.c - the lesson reader: a drop's blocks, wrapped and paged;
 * its keys and what it records.
 *
 * Opening a drop marks it started, shows the answers saved on earlier
 * visits and returns to the block read last; once its last line has been
 * on a page it is marked read (from the key handler or the tick that
 * follows a draw, never from the draw). Read is not done: a drop is done
 * when every question has an answer and every incident has passed
 * (core/course/score.h), which rs_progress() checks after each answer and
 * each return from an incident, and says so. The position saved is the
 * block at the top of the page, so it survives a resize or a different
 * terminal width next time. Which block a key acts on is
 * core/course/reader's decision; this file forwards keys to it. The
 * reference document is the same screen with its reference flag set: same
 * paging, nothing recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "i18n.h"
#include "store/progress.h"
#include "store/progress_score.h"
#include "tui/scr_reader.h"
#include "tui/term.h"
#include "tui/ui.h"

/* Longest pause between keys still counted as reading, seconds. */
#define IDLE_CAP_S	120

static const struct ui_key_help reader_help[] = {
	{ N_("Up/Down, j/k"), N_("scroll a line") },
	{ N_("PgDn, f, Space"), N_("next page") },
	{ N_("PgUp, b"), N_("previous page") },
	{ N_("Home/End, g/G"), N_("start / end of the drop") },
	{ N_("n / p"), N_("next / previous drop") },
	{ N_("Tab, Shift-Tab"), N_("mark the next / previous question or animation; stops at the ends") },
	{ N_("1-9"), N_("choose an option of the marked question (its options must be on the screen)") },
	{ N_("0-9 . , e / %"), N_("type a number (1.5e3, 31/50, 62%); Backspace erases") },
	{ N_("Enter"), N_("check the marked answer (the marker stays on it), or open the animation") },
	{ N_("r"), N_("reveal the model answer of the marked question") },
	{ N_("a"), N_("answer again (a right answer is locked)") },
	{ N_("q, Esc, h"), N_("back to the home screen") },
	{ NULL, NULL }
};

static const struct content_drop *
drop_of(const struct reader_scr *r)
{
	return r->rd.drop;
}

static void
count_time(struct reader_scr *r)
{
	time_t now = time(NULL);
	int64_t d = (int64_t)(now - r->last_key);

	r->seconds += d < 0 ? 0 : d > IDLE_CAP_S ? IDLE_CAP_S : d;
	r->last_key = now;
}

static void
save(struct reader_scr *r)
{
	struct pl_err err;

	if (r->reference)
		return;
	count_time(r);
	if (store_drop_visit(r->app->store, r->app->profile, drop_of(r)->id,
	    reader_top_block(&r->rd), r->seconds, (int64_t)time(NULL),
	    &err) != 0)
		app_store_error(&err);
	else
		r->seconds = 0;
}

/* What is left to make the drop done, into r->note (one short line). */
static void
note_left(struct reader_scr *r, const struct drop_score *sc)
{
	int q = sc->questions - sc->right;
	int inc = sc->incidents - sc->incidents_passed;

	if (q > 0 && inc > 0)
		snprintf(r->note, sizeof r->note, P_("End of the drop, not done: "
		    "%d question not yet right, incident not passed.", "End of "
		    "the drop, not done: %d questions not yet right, incident "
		    "not passed.", q), q);
	else if (q > 0)
		snprintf(r->note, sizeof r->note, P_("End of the drop, not done: "
		    "%d question not yet right. Shift-Tab goes back.", "End of "
		    "the drop, not done: %d questions not yet right. Shift-Tab "
		    "goes back.", q), q);
	else if (inc > 0)
		snprintf(r->note, sizeof r->note, "%s", _("End of the drop, not "
		    "done: the incident has not passed yet."));
}

void
rs_progress(struct reader_scr *r, int at_end)
{
	struct drop_score sc;
	enum curriculum_status st;
	struct pl_err err;

	if (r->reference)
		return;
	if (store_drop_score(r->app->store, r->app->profile, r->app->course,
	    drop_of(r), &sc, &st, &err) != 0) {
		app_store_error(&err);
		return;
	}
	if (curriculum_is_done(st) && (!r->was_done || at_end))
		snprintf(r->note, sizeof r->note, st == CURRICULUM_MASTERED ?
		    _("Drop mastered, score %.0f%%. n: next drop, q: home "
		    "screen.") : _("Drop done, score %.0f%%. Review its cards "
		    "on a later day to master it. n: next drop, q: home "
		    "screen."), 100 * sc.score);
	else if (!curriculum_is_done(st) && at_end)
		note_left(r, &sc);
	r->was_done = curriculum_is_done(st);
}

/* Record the drop read once its end has been on a page; 1 if just now. */
static int
record_read(struct reader_scr *r)
{
	struct pl_err err;

	if (r->reference || r->read_saved || !r->rd.end_seen)
		return 0;
	r->read_saved = 1;
	if (store_drop_finish(r->app->store, r->app->profile, drop_of(r)->id,
	    (int64_t)time(NULL), &err) != 0)
		app_store_error(&err);
	return 1;
}

/* 1 while the drop's last line is on the page. */
static int
end_on_page(const struct reader_scr *r)
{
	return r->rd.lo.n > 0 && r->rd.top + r->rd.page >= (int)r->rd.lo.n;
}

/* The answers of earlier visits, shown again; whether it is done. */
static void
restore_answers(struct reader_scr *r)
{
	struct score_record *recs;
	struct drop_score sc;
	enum curriculum_status st;
	struct pl_err err;
	size_t n;

	if (r->reference)
		return;
	if (store_drop_records(r->app->store, r->app->profile, drop_of(r),
	    &recs, &n, &err) != 0) {
		app_store_error(&err);
		return;
	}
	reader_restore(&r->rd, recs, n);
	free(recs);
	if (store_drop_score(r->app->store, r->app->profile, r->app->course,
	    drop_of(r), &sc, &st, &err) == 0)
		r->was_done = curriculum_is_done(st);
}

static void
set_resume(struct reader_scr *r, const char *value)
{
	struct pl_err err;

	if (r->reference)
		return;
	if (store_setting_set(r->app->store, r->app->profile, "resume", value,
	    &err) != 0)
		app_store_error(&err);
}

/* Read drop index from block `block`: the state of a fresh visit. */
static int
start_drop(struct reader_scr *r, int index, int block)
{
	const struct content_drop *d = r->reference ?
	    r->app->course->reference : &r->app->course->drops[index];
	char val[160];

	reader_free(&r->rd);
	if (reader_init(&r->rd, d, r->app->catalog) != 0)
		return -1;
	r->rd.resume_block = block;
	r->rd.now = (int64_t)time(NULL);
	r->drop = index;
	r->read_saved = 0;
	r->was_done = 0;
	restore_answers(r);
	snprintf(val, sizeof val, "reader:%s", d->id);
	set_resume(r, val);
	save(r);
	return 0;
}

/*
 * Switch to another drop in place (n/p), saving this one first; it opens
 * where the learner was last reading it.
 */
static void
goto_drop(struct reader_scr *r, int index)
{
	struct store_drop_progress p;
	struct pl_err err;

	if (r->reference)
		return;
	if (index < 0) {
		ui_flash(_("This is the first drop; there is none before it."));
		return;
	}
	if ((size_t)index >= r->app->course->n_drops) {
		ui_flash(_("This is the last drop of the course; q goes back to "
		    "the home screen."));
		return;
	}
	save(r);
	if (store_drop_get(r->app->store, r->app->profile,
	    r->app->course->drops[index].id, &p, &err) != 0)
		p.position = 0;
	start_drop(r, index, p.position);
}

/* Keys for the questions; READER_NONE leaves the key to the page. */
static enum reader_effect
answer_key(struct reader_scr *r, int ch)
{
	switch (ch) {
	case '\t':
		return reader_tab(&r->rd, 1);
	case KEY_BTAB:
		return reader_tab(&r->rd, -1);
	case '\n': case '\r': case KEY_ENTER:
		return reader_enter(&r->rd);
	case KEY_BACKSPACE: case 127: case 8:
		return reader_erase(&r->rd);
	case 'r':
		return reader_reveal(&r->rd);
	case 'a':
		return reader_retry(&r->rd);
	case '.': case ',': case '-': case '+': case 'e': case 'E':
	case '/': case '%':
		return reader_type(&r->rd, ch);
	default:
		if (ch >= '0' && ch <= '9')
			return reader_type(&r->rd, ch);
		return READER_NONE;
	}
}

/* Projector keys: arrows, j/k/l, Space, Enter and the page keys step. */
static int
projector_key(struct reader_scr *r, int ch)
{
	switch (ch) {
	case KEY_RIGHT: case KEY_DOWN: case 'j': case 'l': case ' ': case 'f':
	case KEY_NPAGE: case '\n': case '\r': case KEY_ENTER:
		reader_step(&r->rd, 1);
		return 1;
	case KEY_LEFT: case KEY_UP: case 'k': case 'b': case KEY_PPAGE:
		reader_step(&r->rd, -1);
		return 1;
	default:
		return 0;
	}
}

/* Page keys. Returns UI_IGNORED for a key that is not one. */
static enum ui_result
page_key(struct reader_scr *r, int ch)
{
	int page = r->rd.page;

	switch (ch) {
	case KEY_UP: case 'k':
		reader_scroll(&r->rd, -1);
		break;
	case KEY_DOWN: case 'j': case '\n': case '\r': case KEY_ENTER:
		reader_scroll(&r->rd, 1);
		break;
	case KEY_NPAGE: case 'f': case ' ':
		reader_scroll(&r->rd, page - 1);
		break;
	case KEY_PPAGE: case 'b':
		reader_scroll(&r->rd, -(page - 1));
		break;
	case KEY_HOME: case 'g':
		reader_scroll(&r->rd, -(int)r->rd.lo.n);
		break;
	case KEY_END: case 'G':
		reader_scroll(&r->rd, (int)r->rd.lo.n);
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

static enum ui_result
reader_key(struct ui_screen *s, int ch)
{
	struct reader_scr *r = s->state;
	enum reader_effect e;
	enum ui_result res = UI_HANDLED;
	int was_end = end_on_page(r);

	count_time(r);
	r->rd.now = (int64_t)time(NULL);
	r->note[0] = '\0';
	if (record_read(r))
		rs_progress(r, 1);
	e = answer_key(r, ch);
	if (e != READER_NONE)
		rs_effect(r, e);
	else if (!(r->app->projector && projector_key(r, ch)))
		res = page_key(r, ch);
	if (res == UI_BACK)
		return res;
	/* Each time the end comes onto the page: done, or what is left. */
	if ((record_read(r) || !was_end) && end_on_page(r))
		rs_progress(r, 1);
	return res;
}

static void
reader_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	rs_draw(s->state, w, rows, cols);
}

/* After a draw: record "read" at once if the page reached the end. */
static int
reader_next_tick(struct ui_screen *s)
{
	struct reader_scr *r = s->state;

	return !r->reference && !r->read_saved && r->rd.end_seen ? 0 : -1;
}

static void
reader_tick(struct ui_screen *s)
{
	if (record_read(s->state))
		rs_progress(s->state, 1);
}

/* Back from an incident or an animation: it may have made the drop done. */
static void
reader_resume(struct ui_screen *s)
{
	rs_progress(s->state, 0);
}

static void
reader_free_screen(struct ui_screen *s)
{
	struct reader_scr *r = s->state;

	save(r);
	reader_free(&r->rd);
	free(r);
}

/*
 * The reader on drop index, or with index -1 on the course's reference
 * document (nothing recorded). NULL when out of memory.
 */
static struct ui_screen *
reader_open(struct app *a, int index)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct reader_scr *r = calloc(1, sizeof *r);
	struct store_drop_progress p;
	struct pl_err err;
	int block = 0;

	if (s == NULL || r == NULL)
		goto fail;
	r->app = a;
	r->reference = index < 0;
	r->last_key = time(NULL);
	/* Where the learner was reading, done or not. */
	if (!r->reference && store_drop_get(a->store, a->profile,
	    a->course->drops[index].id, &p, &err) == 0)
		block = p.position;
	if (start_drop(r, index, block) != 0)
		goto fail;
	s->title = r->reference ? UI_REFERENCE_TITLE : N_("Lesson");
	s->help = reader_help;
	s->draw = reader_draw;
	s->key = reader_key;
	s->next_tick_ms = reader_next_tick;
	s->tick = reader_tick;
	s->resume = reader_resume;
	s->free = reader_free_screen;
	s->state = r;
	return s;
fail:
	if (r != NULL)
		reader_free(&r->rd);
	free(r);
	free(s);
	return NULL;
}

struct ui_screen *
ui_reader_new(struct app *a, int drop_index)
{
	return reader_open(a, drop_index);
}

/* The cheatsheet and key equations; NULL if the course has none. */
struct ui_screen *
ui_reference_new(struct app *a)
{
	return a->course->reference != NULL ? reader_open(a, -1) : NULL;
}
