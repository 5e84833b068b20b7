/*
 * app.c - the screens' shared state: progress reread from the store, and
 * store failures reported without ending the session.
 */
#include <stdio.h>

#include "i18n.h"
#include "store/progress_score.h"
#include "tui/app.h"
#include "tui/ui.h"

int
app_refresh(struct app *a)
{
	struct pl_err err;

	if (store_course_progress(a->store, a->profile, a->course, a->status,
	    a->scores, &a->last_drop, &err) != 0) {
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

void
app_answered(struct app *a)
{
	if (a->answered != NULL)
		a->answered(a->answered_arg);
}
