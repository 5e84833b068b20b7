/*
 * scr_lab_host.c - the instructor's dashboard: the current step and its
 * talking points, every student live (step, right and wrong, time on
 * step), the class per question of the step (right, wrong, first try,
 * after feedback, not earned, attempts, guessing: lab_class_build) and
 * the most-missed question.
 *
 * The drop box is read once a second (next_tick_ms: the loop sleeps in
 * getch meanwhile, so the dashboard costs nothing between polls). All
 * counting is core's (lab_class_build, lab_student_step); files the scan
 * refused are listed, never trusted. Arrow keys move the lab's step. In
 * projector mode (or after 'v') the dashboard shows one idea per screen:
 * the step and its key numbers in big digits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/number.h"
#include "core/wrap.h"
#include "store/labdir.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define POLL_MS	1000

struct host {
	char				*dir;
	const struct content_course	*course;	/* borrowed, may be NULL */
	struct lab_script		*script;
	struct lab_state		 state;
	struct labdir_scan		 scan;
	struct lab_class		 cl;
	int				 have_class;
	int				 big;		/* projector layout */
	int				 top;		/* first student row */
	char				 msg[300];	/* last problem */
};

static const struct ui_key_help host_help[] = {
	{ N_("Right, l, n"), N_("next step (students follow)") },
	{ N_("Left, h, p"), N_("previous step") },
	{ N_("j/k"), N_("scroll the students") },
	{ N_("v"), N_("projector view on or off") },
	{ N_("q"), N_("leave the dashboard (the lab goes on)") },
	{ NULL, NULL }
};

static void
poll_lab(struct host *h)
{
	struct pl_err err;
	struct lab_state st;

	pl_err_clear(&err);
	h->msg[0] = '\0';
	if (labdir_read_state(h->dir, &st, &err) == 0 &&
	    (size_t)st.n_steps == h->script->n_steps)
		h->state = st;
	else if (err.msg[0] != '\0')
		pl_err_format(&err, h->msg, sizeof h->msg);
	/* An unchanged drop box, or a pass too recent for its cost, keeps
	 * the last scan (labdir_scan_refresh bounds what junk can cost). */
	if (labdir_scan_refresh(h->dir, &h->scan, &err) < 0) {
		pl_err_format(&err, h->msg, sizeof h->msg);
		return;
	}
	if (h->have_class)
		lab_class_free(&h->cl);
	h->have_class = lab_class_build(h->script, h->course, h->scan.results,
	    h->scan.n, h->state.session, &h->cl) == 0;
}

static void
fmt_mmss(char *buf, size_t size, int64_t s)
{
	if (s < 0)
		s = 0;
	if (s > 99 * 60 + 59)
		s = 99 * 60 + 59;
	snprintf(buf, size, "%d:%02d", (int)(s / 60), (int)(s % 60));
}

/* Students with any answer on step. */
static int
answered_on(const struct host *h, int step)
{
	size_t i;
	int n = 0, r, w, sol;

	for (i = 0; i < h->scan.n; i++) {
		if (strcmp(h->scan.results[i].session, h->state.session) != 0)
			continue;
		lab_student_step(&h->scan.results[i], step, &r, &w, &sol);
		n += r + w + sol > 0;
	}
	return n;
}

/* Talking points, wrapped, at most a few lines. */
struct wrap_draw {
	WINDOW	*w;
	int	 y;
	int	 unused;
	int	 width;
};

static void
emit_point(const char *s, size_t n, void *arg)
{
	struct wrap_draw *d = arg;
	char line[512];

	if (n >= sizeof line)
		n = sizeof line - 1;
	memcpy(line, s, n);
	line[n] = '\0';
	ui_put(d->w, d->y++, 6, line, d->width, ui_attr(UI_C_DIM));
}

static void
draw_head(struct host *h, WINDOW *w, int cols, int *y)
{
	const struct lab_step *s = &h->script->steps[h->state.step];
	char line[512], t[16], mm[16], title[300];
	struct wrap_draw d = { w, *y, 0, cols - 8 };
	size_t i;

	fmt_mmss(t, sizeof t, (int64_t)time(NULL) - h->state.step_started);
	snprintf(mm, sizeof mm, "%d:00", s->minutes);
	snprintf(line, sizeof line, _("Step %d of %zu: %s"), h->state.step + 1,
	    h->script->n_steps, lab_step_title(s, h->course, title,
	    sizeof title));
	ui_put(w, (*y)++, 2, line, cols - 4, ui_attr(UI_C_HEADING));
	snprintf(line, sizeof line, _("%s  %s of %s  students: %zu  on this step: %d"),
	    lab_step_kind_name(s->kind), t, mm, h->have_class ?
	    h->cl.n_students : 0, h->have_class ?
	    h->cl.on_step[h->state.step] : 0);
	ui_put(w, (*y)++, 2, line, cols - 4, A_NORMAL);
	if (h->have_class && h->cl.most_missed >= 0) {
		const struct lab_item_stat *m = &h->cl.items[h->cl.most_missed];

		snprintf(line, sizeof line,
		    _("Most missed: step %d, %s (%d missed it first time)"),
		    m->step + 1, m->id, m->missed);
		ui_put(w, (*y)++, 2, line, cols - 4, ui_attr(UI_C_WARN));
	}
	d.y = *y;
	for (i = 0; i < s->n_points && d.y < *y + 6; i++) {
		ui_put(w, d.y, 4, ui_glyph_dot(), 1, ui_attr(UI_C_DIM));
		wrap_paragraph(s->points[i], d.width, emit_point, &d);
	}
	*y = d.y;
}

/*
 * The class on the current step, one row per question: right and wrong
 * (latest answers), right on the first try, right after feedback, not
 * earned, attempts and their mean per student who answered, and students
 * flagged for guessing; then a legend. At most as many rows as leave the
 * student table a few lines; the rest are counted.
 */
static void
draw_items(struct host *h, WINDOW *w, int rows, int cols, int *y)
{
	char line[512], mean[32], unearned[16];
	size_t k, n = 0, shown = 0;
	int room;

	if (!h->have_class)
		return;
	for (k = 0; k < h->cl.n_items; k++)
		n += h->cl.items[k].step == h->state.step;
	if (n == 0)
		return;
	/* Header, legend, a blank line, the students' header and two. */
	room = rows - 3 - *y - 6;
	if (room < 1)
		room = 1;
	ui_put(w, (*y)++, 2, _("item         right wrong first after-fb "
	    "unearned tries  mean guess"), cols - 4, ui_attr(UI_C_HEADING));
	for (k = 0; k < h->cl.n_items; k++) {
		const struct lab_item_stat *it = &h->cl.items[k];

		if (it->step != h->state.step)
			continue;
		if ((int)shown >= room - (n > (size_t)room))
			break;
		if (it->self_graded)
			snprintf(unearned, sizeof unearned, "-");
		else
			snprintf(unearned, sizeof unearned, "%d",
			    it->not_earned);
		pl_num_local(mean, sizeof mean, lab_item_mean_attempts(it),
		    'f', 1);
		snprintf(line, sizeof line,
		    "%-12.12s %5d %5d %5d %8d %8s %5d %5s %5d", it->id,
		    it->right, it->wrong, it->first_right, it->after_feedback,
		    unearned, it->attempts, mean, it->guessing);
		ui_put(w, (*y)++, 2, line, cols - 4, it->guessing > 0 ?
		    ui_attr(UI_C_WARN) : ui_attr(UI_C_ACCENT));
		shown++;
	}
	if (shown < n) {
		snprintf(line, sizeof line, P_("%zu more question: lab report",
		    "%zu more questions: lab report", n - shown), n - shown);
		ui_put(w, (*y)++, 2, line, cols - 4, ui_attr(UI_C_DIM));
	}
	ui_put(w, (*y)++, 2, _("after-fb: right after feedback  guess: ticked "
	    "all or followed a diagnostic"), cols - 4, ui_attr(UI_C_DIM));
}

static void
draw_student(struct host *h, WINDOW *w, int y, int cols,
    const struct lab_result *r)
{
	char line[512], who[100], t[16];
	int right, wrong, sol;

	lab_student_step(r, h->state.step, &right, &wrong, &sol);
	snprintf(who, sizeof who, "%s@%s", r->user, r->profile);
	fmt_mmss(t, sizeof t, (int64_t)time(NULL) - r->step_since);
	snprintf(line, sizeof line, "%-24.24s %4d  %5d %5d %5d  %6s", who,
	    r->step + 1, right, wrong, sol, t);
	ui_put(w, y, 2, line, cols - 4, r->step == h->state.step ? (int)A_NORMAL :
	    ui_attr(UI_C_STARTED));
}

static void
draw_table(struct host *h, WINDOW *w, int rows, int cols, int y)
{
	size_t i;

	ui_put(w, y++, 2, _("student                  step  right wrong  scen.  on step"),
	    cols - 4, ui_attr(UI_C_HEADING));
	for (i = (size_t)h->top; i < h->scan.n && y < rows - 3; i++) {
		if (strcmp(h->scan.results[i].session, h->state.session) != 0)
			continue;
		draw_student(h, w, y++, cols, &h->scan.results[i]);
	}
	if (h->scan.n == 0) {
		char line[600];

		/* The command to give the room, with this lab's directory. */
		snprintf(line, sizeof line, _("No student has joined yet: "
		    "parlearn lab join %s"), h->dir);
		ui_put_cut(w, y, 2, line, cols - 4, ui_attr(UI_C_DIM));
	}
}

static void
draw_problems(struct host *h, WINDOW *w, int rows, int cols)
{
	char line[600], e[520];

	if (h->msg[0] != '\0')
		ui_put(w, rows - 2, 2, h->msg, cols - 4, ui_attr(UI_C_WARN));
	else if (h->scan.n_problems > 0) {
		snprintf(line, sizeof line, P_("%zu file skipped: %s",
		    "%zu files skipped, first: %s", h->scan.n_skipped),
		    h->scan.n_skipped, pl_err_format(&h->scan.problems[0], e,
		    sizeof e));
		ui_put(w, rows - 2, 2, line, cols - 4, ui_attr(UI_C_WARN));
	}
}

/* Projector: the step, then two big figures and the most-missed item. */
static void
draw_big(struct host *h, WINDOW *w, int rows, int cols)
{
	const struct lab_step *s = &h->script->steps[h->state.step];
	char a[32], t[16], line[600], title[300];
	int y = 2, x;

	snprintf(line, sizeof line, _("Step %d of %zu: %s"), h->state.step + 1,
	    h->script->n_steps, lab_step_title(s, h->course, title,
	    sizeof title));
	ui_put(w, y, 2, line, cols - 4, ui_attr(UI_C_HEADING));
	y += 2;
	snprintf(a, sizeof a, "%d/%zu", answered_on(h, h->state.step),
	    h->have_class ? h->cl.n_students : 0);
	fmt_mmss(t, sizeof t, (int64_t)time(NULL) - h->state.step_started);
	if (y + UI_BIG_ROWS + 2 < rows) {
		x = ui_big_number(w, y, 4, a, ui_attr(UI_C_ACCENT));
		ui_put(w, y + UI_BIG_ROWS, 4, _("answered"), x + 1, A_NORMAL);
		if (cols > x + 12 + ui_big_width(t)) {
			ui_big_number(w, y, x + 12, t, ui_attr(UI_C_DONE));
			ui_put(w, y + UI_BIG_ROWS, x + 12, _("on this step"),
			    cols - x - 14, A_NORMAL);
		}
		y += UI_BIG_ROWS + 2;
	}
	if (h->have_class && h->cl.most_missed >= 0 && y < rows - 2) {
		snprintf(line, sizeof line, _("Most missed: step %d, %s"),
		    h->cl.items[h->cl.most_missed].step + 1,
		    h->cl.items[h->cl.most_missed].id);
		ui_put(w, y, 4, line, cols - 8, ui_attr(UI_C_WARN));
	}
}

static void
host_draw(struct ui_screen *scr, WINDOW *w, int rows, int cols)
{
	struct host *h = scr->state;
	char right[64];
	int y = 2;

	snprintf(right, sizeof right, _("step %d/%zu"), h->state.step + 1,
	    h->script->n_steps);
	ui_title(w, cols, h->script->title, right);
	if (h->big)
		draw_big(h, w, rows, cols);
	else {
		draw_head(h, w, cols, &y);
		draw_items(h, w, rows, cols, &y);
		y++;
		draw_table(h, w, rows, cols, y);
		draw_problems(h, w, rows, cols);
	}
	ui_status(w, rows, cols, _("<- -> step  v projector  q leave  ? keys"),
	    ui_attr(UI_C_DIM));
}

static void
move_step(struct host *h, int delta)
{
	struct lab_state st = h->state;
	struct pl_err err;
	char buf[600];

	if (st.step + delta < 0 || (size_t)(st.step + delta) >=
	    h->script->n_steps)
		return;
	st.step += delta;
	st.step_started = (int64_t)time(NULL);
	pl_err_clear(&err);
	if (labdir_write_state(h->dir, &st, &err) != 0) {
		ui_flash(pl_err_format(&err, buf, sizeof buf));
		return;
	}
	h->state = st;
	poll_lab(h);
}

static enum ui_result
host_key(struct ui_screen *scr, int ch)
{
	struct host *h = scr->state;

	switch (ch) {
	case KEY_RIGHT: case 'l': case 'n': case ' ':
		move_step(h, 1);
		return UI_HANDLED;
	case KEY_LEFT: case 'h': case 'p':
		move_step(h, -1);
		return UI_HANDLED;
	case 'j': case KEY_DOWN:
		if ((size_t)h->top + 1 < h->scan.n)
			h->top++;
		return UI_HANDLED;
	case 'k': case KEY_UP:
		if (h->top > 0)
			h->top--;
		return UI_HANDLED;
	case 'v':
		h->big = !h->big;
		return UI_HANDLED;
	case 'q': case 'Q': case 27:
		return UI_BACK;
	}
	return UI_IGNORED;
}

static int
host_next_tick(struct ui_screen *scr)
{
	(void)scr;
	return POLL_MS;
}

static void
host_tick(struct ui_screen *scr)
{
	poll_lab(scr->state);
}

static void
host_free(struct ui_screen *scr)
{
	struct host *h = scr->state;

	labdir_scan_free(&h->scan);
	if (h->have_class)
		lab_class_free(&h->cl);
	lab_script_free(h->script);
	free(h->dir);
	free(h);
}

struct ui_screen *
ui_lab_host_new(const struct app *a)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct host *h = calloc(1, sizeof *h);
	const char *dir = a->lab_dir;
	struct pl_err err;

	pl_err_clear(&err);
	if (s == NULL || h == NULL || (h->dir = strdup(dir)) == NULL ||
	    (h->script = labdir_load_script(dir, &err)) == NULL ||
	    labdir_read_state(dir, &h->state, &err) != 0 ||
	    (size_t)h->state.n_steps != h->script->n_steps) {
		free(s);
		if (h != NULL) {
			lab_script_free(h->script);
			free(h->dir);
		}
		free(h);
		return NULL;
	}
	h->course = a->course;
	h->big = a->projector;
	poll_lab(h);
	s->title = N_("Lab dashboard");
	s->help = host_help;
	s->draw = host_draw;
	s->key = host_key;
	s->next_tick_ms = host_next_tick;
	s->tick = host_tick;
	s->free = host_free;
	s->state = h;
	return s;
}
