/*
 * app.c - starting the interactive program and its shared state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "tui/app.h"
#include "tui/term.h"
#include "tui/ui.h"

int
app_refresh(struct app *a)
{
	struct pl_err err;

	if (store_course_status(a->store, a->profile, a->course, a->status,
	    &a->last_drop, &err) != 0) {
		app_store_error(&err);
		return -1;
	}
	return 0;
}

void
app_store_error(const struct pl_err *err)
{
	char buf[600], line[700];

	snprintf(line, sizeof line, _("Could not save: %s"),
	    pl_err_format(err, buf, sizeof buf));
	ui_flash(line);
}

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

int
ui_main(struct app *a)
{
	a->status = calloc(a->course->n_drops + 1, sizeof *a->status);
	if (a->status == NULL)
		return 2;
	app_refresh(a);
	if (ui_term_start() != 0) {
		fprintf(stderr, "parlearn: %s\n", ui_term_error());
		free(a->status);
		return 2;
	}
	ui_push(ui_home_new(a));
	push_resume(a);
	if (a->course->reference != NULL)
		ui_set_global_key('C', UI_REFERENCE_TITLE, make_reference, a);
	ui_run();
	ui_clear();
	ui_term_stop();
	free(a->status);
	a->status = NULL;
	return 0;
}
