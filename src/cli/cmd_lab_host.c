/*
 * cmd_lab_host.c - `parlearn lab host DIR --script FILE`: create the lab
 * directory from a script checked against the course, write its state, and
 * show the dashboard unless --no-dashboard.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/output.h"
#include "cli/common.h"
#include "core/json.h"
#include "store/labdir.h"

/* Validate a script against the course, if the course loads. */
static int
check_script(const struct cli_ctx *ctx, const struct lab_script *ls)
{
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c = content_load(ctx->content_dir, NULL);
	size_t i;
	int rc = 0;

	if (c == NULL)
		return 0;
	if (lab_script_check_course(ls, c, &probs) > 0)
		rc = 2;
	for (i = 0; i < probs.n; i++)
		cli_print_err(&probs.items[i]);
	content_problems_free(&probs);
	content_free(c);
	return rc;
}

static int
run_dashboard(const struct cli_ctx *ctx, const char *dir)
{
	struct content_course *c = content_load(ctx->content_dir, NULL);
	struct tui_start st;
	int rc;

	cli_tui_start(&st, ctx, NULL, TUI_LAB_HOST);
	st.course = c;
	st.lab_dir = dir;
	rc = tui_run(&st);
	content_free(c);
	return rc;
}

int
cli_lab_host(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "script", required_argument, NULL, 's' },
		{ "no-dashboard", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char *script = NULL;
	struct lab_script *ls;
	struct lab_state st, old;
	struct pl_err err;
	char *text;
	int ch, nodash = 0, rc;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == 's')
			script = optarg;
		else if (ch == 'n')
			nodash = 1;
		else
			return 1;
	}
	if (script == NULL || argc - optind != 1) {
		lab_usage(stderr);
		return 1;
	}
	pl_err_clear(&err);
	if ((text = pl_read_file(script, NULL, &err)) == NULL ||
	    (ls = lab_script_parse(text, script, &err)) == NULL) {
		free(text);
		return lab_err_out(&err);
	}
	rc = check_script(ctx, ls);
	if (rc == 0 && labdir_create(argv[optind], text, &err) != 0)
		rc = lab_err_out(&err);
	memset(&st, 0, sizeof st);
	st.n_steps = (int)ls->n_steps;
	lab_script_free(ls);
	free(text);
	if (rc != 0)
		return rc;
	/* Taking up a lab again keeps its step and session. */
	if (labdir_read_state(argv[optind], &old, &err) == 0 &&
	    old.n_steps == st.n_steps)
		st = old;
	else {
		labdir_new_session(st.session, sizeof st.session);
		st.started = st.step_started = (int64_t)time(NULL);
	}
	if (labdir_write_state(argv[optind], &st, &err) != 0)
		return lab_err_out(&err);
	if (nodash) {
		cli_printf(stdout, _("lab ready in %s: step %d of %d\n"), argv[optind],
		    st.step + 1, st.n_steps);
		return 0;
	}
	return run_dashboard(ctx, argv[optind]);
}
