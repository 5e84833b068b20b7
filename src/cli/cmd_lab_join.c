/*
 * cmd_lab_join.c - `parlearn lab join DIR`: follow a lab as a student, on
 * the student screen over the home screen.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/common.h"
#include "tui/app.h"
#include "tui/term.h"
#include "tui/ui.h"

int
cli_lab_join(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_session s;
	struct lab_script *ls;
	struct lab_state st;
	struct app a;
	struct ui_screen *scr;
	int rc;

	if (argc != 2) {
		lab_usage(stderr);
		return 1;
	}
	if ((rc = lab_open(argv[1], &ls, &st)) != 0)
		return rc;
	lab_script_free(ls);
	if ((rc = cli_session_open(ctx, &s, 1)) != 0)
		return rc;
	memset(&a, 0, sizeof a);
	a.course = s.course;
	a.store = s.store;
	a.profile = s.profile;
	a.profile_name = ctx->profile;
	a.catalog = s.have_catalog ? &s.catalog : NULL;
	a.last_drop = -1;
	a.lab_dir = argv[1];
	a.status = calloc(a.course->n_drops + 1, sizeof *a.status);
	if (a.status == NULL || ui_term_start() != 0) {
		fprintf(stderr, "parlearn: %s\n",
		    _("standard input and output must be a terminal"));
		free(a.status);
		cli_session_close(&s);
		return 2;
	}
	app_refresh(&a);
	ui_push(ui_home_new(&a));
	scr = ui_lab_student_new(&a);
	ui_push(scr);
	ui_run();
	ui_clear();
	ui_term_stop();
	free(a.status);
	cli_session_close(&s);
	return 0;
}
