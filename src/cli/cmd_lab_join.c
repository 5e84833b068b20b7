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

int
cli_lab_join(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_session s;
	struct lab_script *ls;
	struct lab_state st;
	struct tui_start ts;
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
	cli_tui_start(&ts, ctx, &s, TUI_LAB_STUDENT);
	ts.lab_dir = argv[1];
	rc = tui_run(&ts);
	cli_session_close(&s);
	return rc;
}
