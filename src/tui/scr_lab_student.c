/*
 * scr_lab_student.c - a student's lab screen: the step the instructor is
 * on, what to do in it, and how the student's own answers stand.
 *
 * The screen reads DIR/state.json once a second and follows the lab's
 * step; the student may look back at earlier steps, never ahead (the
 * rules, and the scenario override, are core/lab's: lab_student.c). Answers
 * are given in the reader (or the playground for a scenario step) and
 * saved in the progress database as usual; as each is saved (app->answered)
 * and when the student comes back, the screen copies the answers of the
 * lab's steps from the database into the student's result file in the
 * drop box (labdir_submit), the same write `parlearn lab submit` makes, so
 * the dashboard sees an answer while the student is still in the drop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "store/labdir.h"
#include "store/progress_score.h"
#include "store/scenario_tradeoff.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define POLL_MS		1000
#define MAX_ITEMS	32

struct student {
	struct app		*app;
	struct lab_script	*script;
	struct lab_state	 state;
	struct lab_result	 res;
	int			 view;		/* step shown, <= state.step */
	struct lab_scenario	 sc;		/* overridden copy for the playground */
	char			 msg[300];	/* last problem writing */
};

static const struct ui_key_help student_help[] = {
	{ N_("Left, h"), N_("an earlier step") },
	{ N_("Right, l"), N_("a later step, up to the lab's") },
	{ N_("Enter"), N_("open this step's drop or scenario") },
	{ N_("q"), N_("home screen (the lab goes on; L comes back)") },
	{ NULL, NULL }
};

/*
 * Runs are submitted from a shell (`parlearn lab submit --run`) while this
 * screen is open: keep the ones the file on disk has before writing it.
 */
static void
keep_runs(struct student *st)
{
	struct lab_result disk;
	struct pl_err err;
	size_t i;

	memset(&disk, 0, sizeof disk);
	memcpy(disk.user, st->res.user, sizeof disk.user);
	memcpy(disk.profile, st->res.profile, sizeof disk.profile);
	pl_err_clear(&err);
	if (labdir_read_own(st->app->lab_dir, &disk, &err) > 0 &&
	    strcmp(disk.session, st->res.session) == 0)
		for (i = 0; i < disk.n_answers; i++) {
			const struct lab_answer *a = &disk.answers[i];

			if (a->kind == LAB_ITEM_RUN)
				lab_result_put(&st->res, a);
		}
	lab_result_free(&disk);
}

static void
save(struct student *st)
{
	struct pl_err err;

	keep_runs(st);
	pl_err_clear(&err);
	st->res.updated = (int64_t)time(NULL);
	if (labdir_submit(st->app->lab_dir, &st->res, &err) != 0)
		pl_err_format(&err, st->msg, sizeof st->msg);
	else
		st->msg[0] = '\0';
}

/* The record of (kind, id) among a drop's graded records, or NULL. */
static const struct score_record *
find_record(const struct score_record *recs, size_t n, enum lab_item_kind k,
    const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((recs[i].scenario != 0) == (k == LAB_ITEM_SCENARIO) &&
		    strcmp(recs[i].id, id) == 0)
			return &recs[i];
	return NULL;
}

/*
 * Copy the answers of steps 0..state.step from the progress database, as
 * the grading reads them (store_drop_records: attempts, first try,
 * earned, after feedback, guess flags).
 */
static void
sync_answers(struct student *st)
{
	const char *ids[MAX_ITEMS];
	enum lab_item_kind kinds[MAX_ITEMS];
	const struct content_drop *d;
	const struct score_record *rec;
	struct score_record *recs;
	struct pl_err err;
	char text[LAB_TRADEOFF_MAX];
	size_t s, i, n, nrec;

	if (st->app->course == NULL)
		return;
	for (s = 0; s <= (size_t)st->state.step && s < st->script->n_steps;
	    s++) {
		const struct lab_step *ls = &st->script->steps[s];

		if (ls->drop == NULL ||
		    (d = content_find_drop(st->app->course, ls->drop)) == NULL)
			continue;
		pl_err_clear(&err);
		if (store_drop_records(st->app->store, st->app->profile, d,
		    &recs, &nrec, &err) != 0)
			continue;
		n = lab_step_items(ls, st->app->course, ids, kinds, MAX_ITEMS);
		for (i = 0; i < n; i++) {
			if (kinds[i] == LAB_ITEM_RUN)
				continue;	/* submitted from a shell */
			rec = find_record(recs, nrec, kinds[i], ids[i]);
			if (rec == NULL || lab_result_set_score(&st->res,
			    (int)s, kinds[i], rec) != 0)
				continue;
			if (kinds[i] == LAB_ITEM_SCENARIO &&
			    store_scenario_tradeoff(st->app->store,
			    st->app->profile, ls->drop, ids[i], text,
			    sizeof text, &err) == 1)
				lab_result_set_tradeoff(&st->res, (int)s,
				    ids[i], text);
		}
		free(recs);
	}
}

static void
set_view(struct student *st, int v)
{
	if (v == st->view && st->res.step == v)
		return;
	st->view = v;
	st->res.step = v;
	st->res.step_since = (int64_t)time(NULL);
	save(st);
}

static void
new_session(struct student *st)
{
	lab_result_free(&st->res);
	snprintf(st->res.session, sizeof st->res.session, "%s",
	    st->state.session);
	st->res.step = -1;
}

/* Follow the lab's step (core/lab: lab_follow). */
static void
poll_state(struct student *st)
{
	struct lab_state ns;
	struct pl_err err;
	char line[200];
	int view = st->view;

	pl_err_clear(&err);
	if (labdir_read_state(st->app->lab_dir, &ns, &err) != 0)
		return;
	switch (lab_follow(&st->state, &ns, st->script->n_steps, &view)) {
	case LAB_FOLLOW_NONE:
		return;
	case LAB_FOLLOW_RESET:
		st->state = ns;
		new_session(st);
		set_view(st, view);
		return;
	case LAB_FOLLOW_KEEP:
		st->state = ns;
		return;
	case LAB_FOLLOW_STEP:
		st->state = ns;
		set_view(st, view);
		snprintf(line, sizeof line, _("The lab is on step %d: %s"),
		    ns.step + 1, st->script->steps[ns.step].title);
		ui_flash(line);
		return;
	}
}

static void
draw_items(struct student *st, WINDOW *w, int rows, int cols, int *y)
{
	const struct lab_step *ls = &st->script->steps[st->view];
	const char *ids[MAX_ITEMS];
	enum lab_item_kind kinds[MAX_ITEMS];
	const struct lab_answer *a;
	char line[200];
	size_t i, n;

	n = lab_step_items(ls, st->app->course, ids, kinds, MAX_ITEMS);
	for (i = 0; i < n && *y < rows - 3; i++) {
		a = lab_result_find(&st->res, st->view, kinds[i], ids[i]);
		snprintf(line, sizeof line, "%s %s %s",
		    a == NULL ? ui_glyph_dot() : a->correct ?
		    ui_glyph_check() : "x", kinds[i] == LAB_ITEM_SCENARIO ?
		    _("scenario") : kinds[i] == LAB_ITEM_RUN &&
		    ls->kind == LAB_STEP_EMIT ? _("config, states the layout") :
		    kinds[i] == LAB_ITEM_RUN ?
		    _("run, answers equal one device's") : _("question"),
		    kinds[i] == LAB_ITEM_RUN ? "" : ids[i]);
		ui_put(w, (*y)++, 4, line, cols - 8, a == NULL ?
		    ui_attr(UI_C_DIM) : a->correct ? ui_attr(UI_C_DONE) :
		    ui_attr(UI_C_WARN));
	}
}

static void
student_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct student *st = s->state;
	const struct lab_step *ls = &st->script->steps[st->view];
	const struct content_drop *d = ls->drop != NULL ?
	    content_find_drop(st->app->course, ls->drop) : NULL;
	char line[512], right[64], title[300];
	int y = 2;

	snprintf(right, sizeof right, _("lab at step %d/%zu"),
	    st->state.step + 1, st->script->n_steps);
	ui_title(w, cols, st->script->title, right);
	snprintf(line, sizeof line, _("Step %d: %s"), st->view + 1,
	    lab_step_title(ls, st->app->course, title, sizeof title));
	ui_put(w, y++, 2, line, cols - 4, ui_attr(UI_C_HEADING));
	snprintf(line, sizeof line, P_("%s, about %d minute", "%s, about %d minutes",
	    ls->minutes), lab_step_kind_name(ls->kind), ls->minutes);
	ui_put(w, y++, 2, line, cols - 4, A_NORMAL);
	y++;
	if (ls->kind == LAB_STEP_BREAK)
		ui_put(w, y++, 2, _("Break. The screen moves on when the lab does."),
		    cols - 4, A_NORMAL);
	else if (ls->kind == LAB_STEP_RUN) {
		ui_put(w, y++, 2, _("In a shell (on a cluster, under srun):"),
		    cols - 4, A_NORMAL);
		ui_put(w, y++, 4, lab_run_command(ls, title, sizeof title),
		    cols - 6, ui_attr(UI_C_ACCENT));
		ui_put(w, y++, 2, _("then hand in its timeline:"), cols - 4,
		    A_NORMAL);
		snprintf(line, sizeof line, "parlearn lab submit %s --step %d "
		    "--run run.json", st->app->lab_dir, st->view + 1);
		ui_put(w, y++, 4, line, cols - 6, ui_attr(UI_C_ACCENT));
		y++;
		draw_items(st, w, rows, cols, &y);
	} else if (ls->kind == LAB_STEP_EMIT) {
		char kinds[96];

		/* the layout, not the command: turning it into plan's
		 * options (or a file by hand) is what is asked */
		snprintf(line, sizeof line, _("Write this layout as a launch "
		    "config (%s):"), lab_emit_targets(ls, kinds,
		    sizeof kinds));
		ui_put(w, y++, 2, line, cols - 4, A_NORMAL);
		snprintf(line, sizeof line, _("%s on %d %s"), ls->emit.model,
		    ls->emit.gpus, ls->emit.gpu != NULL ? ls->emit.gpu :
		    "h100-80gb");
		ui_put(w, y++, 4, line, cols - 6, ui_attr(UI_C_ACCENT));
		ui_put(w, y++, 4, lab_emit_layout(ls, title, sizeof title),
		    cols - 6, ui_attr(UI_C_ACCENT));
		ui_put(w, y++, 2, _("plan --emit KIND -o config.txt writes one "
		    "from the layout's options;"), cols - 4, A_NORMAL);
		ui_put(w, y++, 2, _("then hand it in:"), cols - 4, A_NORMAL);
		snprintf(line, sizeof line, "parlearn lab submit %s --step %d "
		    "--run config.txt", st->app->lab_dir, st->view + 1);
		ui_put(w, y++, 4, line, cols - 6, ui_attr(UI_C_ACCENT));
		y++;
		draw_items(st, w, rows, cols, &y);
	} else if (d != NULL) {
		snprintf(line, sizeof line, _("Enter: open drop %d, %s"),
		    d->number, d->title);
		ui_put(w, y++, 2, line, cols - 4, ui_attr(UI_C_ACCENT));
		y++;
		draw_items(st, w, rows, cols, &y);
	}
	if (st->view < st->state.step && y < rows - 3)
		ui_put(w, rows - 3, 2, _("You are looking back; the lab is ahead (Right)."),
		    cols - 4, ui_attr(UI_C_STARTED));
	if (st->msg[0] != '\0')
		ui_put(w, rows - 2, 2, st->msg, cols - 4, ui_attr(UI_C_WARN));
	ui_status(w, rows, cols, _("<- -> steps  Enter open  q home  ? keys"),
	    ui_attr(UI_C_DIM));
}

static void
open_step(struct student *st)
{
	const struct lab_step *ls = &st->script->steps[st->view];
	const struct content_drop *d = ls->drop != NULL ?
	    content_find_drop(st->app->course, ls->drop) : NULL;
	const struct content_scenario *sc;

	if (d == NULL)
		return;
	lab_scenario_free(&st->sc);
	if (ls->kind == LAB_STEP_SCENARIO &&
	    (sc = lab_step_scenario(ls, d, &st->sc)) != NULL)
		ui_push(ui_playground_new(st->app, sc, d->id));
	else
		ui_push(ui_reader_new(st->app, (int)(d - st->app->course->drops)));
}

static enum ui_result
student_key(struct ui_screen *s, int ch)
{
	struct student *st = s->state;

	switch (ch) {
	case KEY_LEFT: case 'h':
		set_view(st, lab_view_move(&st->state, st->view, -1));
		return UI_HANDLED;
	case KEY_RIGHT: case 'l':
		set_view(st, lab_view_move(&st->state, st->view, 1));
		return UI_HANDLED;
	case '\n': case '\r': case KEY_ENTER:
		open_step(st);
		return UI_HANDLED;
	case 'q': case 'Q': case 27:
		return UI_BACK;
	}
	return UI_IGNORED;
}

static void
student_resume(struct ui_screen *s)
{
	struct student *st = s->state;

	sync_answers(st);
	save(st);
	app_refresh(st->app);
}

static int
student_next_tick(struct ui_screen *s)
{
	(void)s;
	return POLL_MS;
}

static void
student_tick(struct ui_screen *s)
{
	struct student *st = s->state;

	poll_state(st);
	/* A run handed in from a shell shows up within a second. */
	if (st->script->steps[st->view].kind == LAB_STEP_RUN ||
	    st->script->steps[st->view].kind == LAB_STEP_EMIT)
		keep_runs(st);
}

/* An answer saved in a drop or a scenario opened from this screen. */
static void
student_answered(void *arg)
{
	struct student *st = arg;

	sync_answers(st);
	save(st);
}

static void
student_free(struct ui_screen *s)
{
	struct student *st = s->state;

	if (st->app->answered_arg == st) {
		st->app->answered = NULL;
		st->app->answered_arg = NULL;
	}

	lab_scenario_free(&st->sc);
	lab_result_free(&st->res);
	lab_script_free(st->script);
	free(st);
}

static int
student_open(struct student *st, struct pl_err *err)
{
	const char *dir = st->app->lab_dir;

	if ((st->script = labdir_load_script(dir, err)) == NULL ||
	    labdir_read_state(dir, &st->state, err) != 0)
		return -1;
	if (labdir_whoami(st->res.user, sizeof st->res.user) != 0)
		return -1;
	snprintf(st->res.profile, sizeof st->res.profile, "%s",
	    st->app->profile_name);
	if (labdir_read_own(dir, &st->res, err) < 0)
		pl_err_clear(err);	/* unreadable: start afresh */
	if (strcmp(st->res.session, st->state.session) != 0)
		new_session(st);
	st->view = -1;
	sync_answers(st);
	set_view(st, st->state.step);
	return 0;
}

struct ui_screen *
ui_lab_student_new(struct app *a)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct student *st = calloc(1, sizeof *st);
	struct pl_err err;
	char buf[600];

	pl_err_clear(&err);
	if (s == NULL || st == NULL)
		goto fail;
	st->app = a;
	if (student_open(st, &err) != 0) {
		ui_flash(pl_err_format(&err, buf, sizeof buf));
		goto fail;
	}
	s->title = N_("Lab");
	s->help = student_help;
	s->draw = student_draw;
	s->key = student_key;
	s->resume = student_resume;
	s->next_tick_ms = student_next_tick;
	s->tick = student_tick;
	s->free = student_free;
	s->state = st;
	a->answered = student_answered;
	a->answered_arg = st;
	return s;
fail:
	if (st != NULL) {
		lab_result_free(&st->res);
		lab_script_free(st->script);
	}
	free(st);
	free(s);
	return NULL;
}
