/*
 * tui.c - the one entry into the interactive program: build the screens'
 * shared struct app from the CLI's start, start the terminal (in projector
 * mode if asked), push the first screens, run the key loop, restore.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tui/app.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "tui/ui.h"
#include "core/course/duration.h"
#include "core/safeprint.h"

/* Why the interactive program cannot start without a terminal, and what
 * to run instead, by first screen. */
static const char *const no_terminal[] = {
	[TUI_HOME] = N_("standard input and output must be a terminal (try 'parlearn list')"),
	[TUI_REVIEW] = N_("review: standard input and output must be a terminal (try 'parlearn review --list')"),
	[TUI_LAB_HOST] = N_("the dashboard needs a terminal (the lab is ready; try 'parlearn lab status')"),
	[TUI_REPLAY] = N_("the player needs a terminal (without one, trace --from prints a Gantt chart)"),
	[TUI_LAB_STUDENT] = N_("standard input and output must be a terminal"),
};

static struct ui_screen *
make_reference(void *arg)
{
	return ui_reference_new(arg);
}

/* Reopen the reader if the learner quit while reading. */
static void
push_resume(struct app *a)
{
	char val[160];
	const struct content_drop *d;
	struct pl_err err;

	if (store_setting_get(a->store, a->profile, "resume", val, sizeof val,
	    &err) != 1 || strncmp(val, "reader:", 7) != 0)
		return;
	d = content_find_drop(a->course, val + 7);
	if (d != NULL)
		ui_push(ui_reader_new(a, (int)(d - a->course->drops)));
}

/* The first screens of st. Returns 0, or -1 if the one asked for failed. */
static int
push_first(struct app *a, const struct tui_start *st)
{
	struct ui_screen *s;

	switch (st->first) {
	case TUI_REVIEW:
		s = ui_review_new(a, st->cram, st->deck);
		break;
	case TUI_LAB_HOST:
		s = ui_lab_host_new(a);
		break;
	case TUI_REPLAY:
		s = ui_player_replay(a, &st->replay->cfg, st->replay->res,
		    &st->replay->origin, st->replay->against);
		break;
	case TUI_LAB_STUDENT:
		ui_push(ui_home_new(a));
		s = ui_lab_student_new(a);
		break;
	case TUI_HOME:
	default:
		ui_push(s = ui_home_new(a));
		push_resume(a);
		return s != NULL ? 0 : -1;
	}
	ui_push(s);
	return s != NULL ? 0 : -1;
}

/* struct app for st: the borrowed course, store and learner, and the
 * drops' status read from the store. 0, or -1 out of memory. */
static int
app_init(struct app *a, const struct tui_start *st)
{
	memset(a, 0, sizeof *a);
	a->course = st->course;
	a->store = st->store;
	a->profile = st->profile;
	a->profile_name = st->profile_name;
	a->problems = st->problems;
	a->catalog = st->catalog;
	a->lab_dir = st->lab_dir;
	a->projector = st->projector;
	a->last_drop = -1;
	if (a->course == NULL)
		return 0;
	a->status = calloc(a->course->n_drops + 1, sizeof *a->status);
	a->scores = calloc(a->course->n_drops + 1, sizeof *a->scores);
	a->minutes = calloc(a->course->n_drops + 1, sizeof *a->minutes);
	if (a->status == NULL || a->scores == NULL || a->minutes == NULL) {
		free(a->status);
		free(a->scores);
		free(a->minutes);
		return -1;
	}
	duration_course(a->course, a->minutes);
	if (a->store != NULL)
		app_refresh(a);
	return 0;
}

int
tui_run(const struct tui_start *st)
{
	struct app a;
	int rc = 0;

	if (app_init(&a, st) != 0) {
		fprintf(stderr, "parlearn: %s\n", _("out of memory"));
		return 2;
	}
	if (ui_term_start(st->projector) != 0) {
		const char *why = ui_term_error();

		fprintf(stderr, "parlearn: %s\n", why != NULL ? why :
		    _(no_terminal[st->first]));
		free(a.status);
		free(a.scores);
		free(a.minutes);
		return 2;
	}
	if (a.course != NULL && a.course->reference != NULL)
		ui_set_global_key('C', UI_REFERENCE_TITLE, make_reference, &a);
	if (push_first(&a, st) != 0)
		rc = 2;
	else
		ui_run();
	ui_clear();
	ui_set_global_key(0, NULL, NULL, NULL);
	ui_term_stop();
	if (rc != 0 && st->first == TUI_LAB_HOST)
		safeprint_printf(stderr,
		    _("parlearn: %s: cannot read the lab\n"),
		    st->lab_dir);
	else if (rc != 0)
		fprintf(stderr, "parlearn: %s\n", _("out of memory"));
	free(a.status);
	free(a.scores);
	free(a.minutes);
	return rc;
}
