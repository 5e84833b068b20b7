/*
 * scr_summary.c - the end-of-course summary: drops done and mastered, the
 * score over the course, questions and incidents, each phase and each
 * drop with its status and score, the weakest drop and the time spent
 * reading. Every figure is core/course/score's, from the store's answers;
 * this screen lays them out as lines and scrolls them. Opened from the
 * home screen (S, or Enter on "Course complete").
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/course/score.h"
#include "core/wrap.h"
#include "store/progress.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define SUMMARY_LINE	300

/* One line of the summary, wrapped to the window when drawn. */
struct sline {
	char	text[SUMMARY_LINE];
	int	role;		/* UI_C_* role, or -1 */
	int	hang;		/* bytes of a prefix kept on the first row;
				 * the rest wraps in the columns after it */
};

struct summary {
	struct app		*app;
	struct course_summary	 sum;
	int64_t			 seconds;	/* reading time, all drops */
	struct sline		*lines;
	int			 n, cap;
	int			 top;		/* first row shown */
	int			 page;		/* rows shown at the last draw */
	int			 rows;		/* wrapped rows at the last draw */
};

static const struct ui_key_help summary_help[] = {
	{ N_("Up/Down, j/k"), N_("scroll a line") },
	{ N_("PgDn, f, Space"), N_("next page") },
	{ N_("PgUp, b"), N_("previous page") },
	{ N_("Home/End, g/G"), N_("top / bottom") },
	{ N_("q, Esc"), N_("back to the home screen") },
	{ NULL, NULL }
};

static void
vadd(struct summary *m, int role, int hang, const char *fmt, va_list ap)
{
	struct sline *p;

	if (m->n == m->cap) {
		p = realloc(m->lines, (size_t)(m->cap == 0 ? 64 : 2 * m->cap) *
		    sizeof *p);
		if (p == NULL)
			return;
		m->lines = p;
		m->cap = m->cap == 0 ? 64 : 2 * m->cap;
	}
	vsnprintf(m->lines[m->n].text, SUMMARY_LINE, fmt, ap);
	m->lines[m->n].role = role;
	m->lines[m->n].hang = hang;
	m->n++;
}

static void
add(struct summary *m, int role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
add(struct summary *m, int role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(m, role, 0, fmt, ap);
	va_end(ap);
}

/* A drop's line: its figures, then its title wrapped after them. */
static void
add_drop(struct summary *m, int role, const char *title, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
add_drop(struct summary *m, int role, const char *title, const char *fmt,
    ...)
{
	va_list ap;
	char head[SUMMARY_LINE];

	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	add(m, role, "%s%s", head, title);
	if (m->n > 0)
		m->lines[m->n - 1].hang = (int)strlen(head);
}

static void
add_totals(struct summary *m)
{
	const struct course_summary *s = &m->sum;

	add(m, UI_C_HEADING, "%s", s->complete ? _("Course complete.") :
	    _("Course not complete yet."));
	add(m, -1, _("Drops done: %d of %d, %d of them mastered; %d read but "
	    "not done."), s->done, s->drops, s->mastered, s->read);
	add(m, -1, _("Score: %.0f%% (%d of %d items earned: questions right "
	    "within their counting tries, incidents passed with the first "
	    "diagnosis right)."), 100 * s->score, s->earned, s->items);
	add(m, -1, _("Questions: %d of %d answered, %d right the first time, "
	    "%d right after feedback."), s->attempted, s->questions,
	    s->first_right, s->after_feedback);
	add(m, -1, _("Incidents: %d of %d passed."), s->incidents_passed,
	    s->incidents);
	add(m, -1, _("Time reading: %lld h %02lld min."),
	    (long long)(m->seconds / 3600), (long long)(m->seconds / 60 % 60));
	if (s->weakest >= 0)
		add(m, UI_C_ACCENT, _("Weakest done drop: %d. %s (%.0f%%). Reopen "
		    "it: press a on a question to answer it again."),
		    m->app->course->drops[s->weakest].number,
		    m->app->course->drops[s->weakest].title,
		    100 * m->app->scores[s->weakest].score);
}

static void
add_drops(struct summary *m)
{
	const struct content_course *c = m->app->course;
	struct curriculum_phase_progress pr;
	size_t p, i;

	for (p = 0; p < c->n_phases; p++) {
		curriculum_phase(c, m->app->status, c->phases[p].number, &pr);
		add(m, -1, "%s", "");
		add(m, UI_C_HEADING, _("Phase %d  %s: %d of %d done, %d "
		    "mastered"), c->phases[p].number, c->phases[p].title,
		    pr.done, pr.total, pr.mastered);
		for (i = 0; i < c->n_drops; i++) {
			const struct drop_score *sc = &m->app->scores[i];

			if (c->drops[i].phase != c->phases[p].number)
				continue;
			add_drop(m, curriculum_is_done(m->app->status[i]) ?
			    UI_C_DONE : -1, c->drops[i].title, _("%3d  %-9s "
			    "%4.0f%%  %d/%d earned  "), c->drops[i].number,
			    curriculum_status_name(m->app->status[i]),
			    100 * sc->score, sc->earned, sc->items);
		}
	}
}

static void
build(struct summary *m)
{
	struct store_drop_progress p;
	struct pl_err err;
	size_t i;

	app_refresh(m->app);
	score_course(m->app->course, m->app->scores, m->app->status, &m->sum);
	for (i = 0; i < m->app->course->n_drops; i++)
		if (store_drop_get(m->app->store, m->app->profile,
		    m->app->course->drops[i].id, &p, &err) == 0)
			m->seconds += p.seconds;
	add_totals(m);
	add_drops(m);
}

/* Wrapped rows of the summary, skipping the first `skip`. */
struct rows {
	WINDOW	*w;		/* NULL: count only */
	int	 y, ymax, skip, attr, total;
	int	 x;		/* column of the wrapped text */
	const char *prefix;	/* drawn at column 2 on the next row, or NULL */
	int	 plen;
};

static void
emit_row(const char *s, size_t n, void *arg)
{
	struct rows *r = arg;
	char line[SUMMARY_LINE];

	if (r->total++ < r->skip || r->w == NULL || r->y >= r->ymax ||
	    n >= sizeof line) {
		r->prefix = NULL;
		return;
	}
	if (r->prefix != NULL) {
		memcpy(line, r->prefix, (size_t)r->plen);
		line[r->plen] = '\0';
		ui_put(r->w, r->y, 2, line, r->plen, r->attr);
		r->prefix = NULL;
	}
	memcpy(line, s, n);
	line[n] = '\0';
	ui_put(r->w, r->y++, r->x, line, SUMMARY_LINE, r->attr);
}

/* Rows of line l at width, drawn through r. */
static void
line_rows(const struct sline *l, int width, struct rows *r)
{
	int hang = l->hang < width - 10 ? l->hang : 0;

	r->attr = l->role < 0 ? (int)A_NORMAL : ui_attr(l->role);
	r->prefix = hang > 0 ? l->text : NULL;
	r->plen = hang;
	r->x = 2 + wrap_width(l->text, (size_t)hang);
	wrap_paragraph(l->text + hang, width - (r->x - 2), emit_row, r);
}

static void
summary_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct summary *m = s->state;
	int width = cols - 4 > 100 ? 100 : cols - 4, i;
	struct rows r;

	ui_title(w, cols, _("Course summary"), m->app->profile_name);
	m->page = rows - 3;
	/* Count the wrapped rows first, to keep the last page full. */
	memset(&r, 0, sizeof r);
	r.skip = INT_MAX;
	for (i = 0; i < m->n; i++)
		line_rows(&m->lines[i], width, &r);
	m->rows = r.total;
	if (m->top > r.total - m->page)
		m->top = r.total - m->page;
	if (m->top < 0)
		m->top = 0;
	memset(&r, 0, sizeof r);
	r.w = w;
	r.y = 2;
	r.ymax = rows - 1;
	r.skip = m->top;
	for (i = 0; i < m->n && r.y < r.ymax; i++)
		line_rows(&m->lines[i], width, &r);
	ui_status(w, rows, cols, _("j/k scroll  q back  ? keys"),
	    ui_attr(UI_C_DIM));
}

static enum ui_result
summary_key(struct ui_screen *s, int ch)
{
	struct summary *m = s->state;
	int page = m->page > 1 ? m->page - 1 : 1;

	/* The end is m->rows: drawing clamps it to the last full page. */
	if (ui_scroll_key(ch, &m->top, page, m->rows))
		return UI_HANDLED;
	if (ch == 'q' || ch == 'Q' || ch == 27 || ch == 'h' || ch == KEY_LEFT)
		return UI_BACK;
	return UI_IGNORED;
}

static void
summary_free(struct ui_screen *s)
{
	struct summary *m = s->state;

	free(m->lines);
	free(m);
}

struct ui_screen *
ui_summary_new(struct app *a)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct summary *m = calloc(1, sizeof *m);

	if (s == NULL || m == NULL || a->course == NULL ||
	    a->scores == NULL) {
		free(s);
		free(m);
		return NULL;
	}
	m->app = a;
	build(m);
	s->title = N_("Course summary");
	s->help = summary_help;
	s->draw = summary_draw;
	s->key = summary_key;
	s->free = summary_free;
	s->state = m;
	return s;
}
