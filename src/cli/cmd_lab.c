/*
 * cmd_lab.c - `parlearn lab`: the dispatcher and what every lab subcommand
 * shares. One file per subcommand does the work (cmd_lab_host.c, ...).
 *
 * There is no server: the host writes DIR/state.json, each student writes
 * DIR/results/USER@PROFILE.json (store/labdir.h), and the dashboard polls.
 * Step numbers on the command line are 1-based, as on the screens.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/output.h"
#include "cli/common.h"
#include "cli/usage.h"
#include "store/labdir.h"

struct lab_cmd {
	const char	*name;
	int		 (*exec)(const struct cli_ctx *, int, char **);
};

static const struct lab_cmd lab_cmds[] = {
	{ "host", cli_lab_host },
	{ "join", cli_lab_join },
	{ "step", cli_lab_step },
	{ "submit", cli_lab_submit },
	{ "status", cli_lab_status },
	{ "report", cli_lab_report },
	{ "reset", cli_lab_reset },
};

void
lab_usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn lab COMMAND DIR [OPTION]...\n"
	    "Run an instructor-led lab from a directory every student can reach.\n"
	    "\n"
	    "  host DIR --script FILE [--no-dashboard]\n"
	    "                    create the lab directory (yours) and show the\n"
	    "                    dashboard (--no-dashboard: only create it)\n"
	    "  join DIR          follow the lab as a student\n"
	    "  step DIR N|next|prev\n"
	    "                    move the lab to another step (host)\n"
	    "  submit DIR --step N (--question ID | --scenario ID) --correct 0|1\n"
	    "                    record one answer, as the student screen does\n"
	    "  submit DIR --step N --run FILE\n"
	    "                    record a run step's run (parlearn run -o FILE)\n"
	    "  status DIR [--json]\n"
	    "                    the current step and the class, as text or as\n"
	    "                    JSON (schema parlearn.lab-status/1)\n"
	    "  report DIR [--format csv|json] [-o FILE]\n"
	    "                    the class table: per student per step, per\n"
	    "                    question (-o, --output FILE: write it to FILE,\n"
	    "                    a regular file; for /dev/stdout leave out -o)\n"
	    "  reset DIR         archive the results and start again for a new group\n"
	    "\n"
	    "  -h, --help        show this help\n"
	    "\n"
	    "Global options such as --projector and --profile go before 'lab'.\n"));
}

int
lab_operands(int argc, char **argv, int want)
{
	if (argc - 1 > want)
		return cli_extra_argument(argv[want + 1]);
	return cli_usage_error("%s", argc < 2 ? _("which directory?") :
	    _("which step? (N, next or prev)"));
}

int
lab_err_out(const struct pl_err *e)
{
	cli_print_err(e);
	return 2;
}

int
lab_open(const char *dir, struct lab_script **ls, struct lab_state *st)
{
	struct pl_err err;

	pl_err_clear(&err);
	if ((*ls = labdir_load_script(dir, &err)) == NULL)
		return lab_err_out(&err);
	if (labdir_read_state(dir, st, &err) != 0) {
		lab_script_free(*ls);
		*ls = NULL;
		return lab_err_out(&err);
	}
	return 0;
}

int
lab_scan_warn(const char *dir, struct labdir_scan *sc)
{
	struct pl_err err;
	size_t i;

	pl_err_clear(&err);
	if (labdir_scan(dir, sc, &err) != 0)
		return lab_err_out(&err);
	for (i = 0; i < sc->n_problems; i++)
		cli_print_problem(_("warning: "), &sc->problems[i]);
	if (sc->n_skipped > sc->n_problems)
		cli_printf(stderr, P_("parlearn: warning: %zu more entry of the "
		    "drop box skipped\n", "parlearn: warning: %zu more entries of "
		    "the drop box skipped\n", sc->n_skipped - sc->n_problems),
		    sc->n_skipped - sc->n_problems);
	return 0;
}

static int
is_help(const char *s)
{
	return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0;
}

int
cli_lab_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static char name[32];
	size_t i;

	if (argc < 2)
		return cli_usage_error("%s", _("expected a command: host, join, "
		    "step, submit, status, report or reset"));
	/* "lab --help", "lab host --help" and "lab host DIR -h" alike. */
	for (i = 1; i < (size_t)argc; i++)
		if (is_help(argv[i])) {
			lab_usage(stdout);
			return 0;
		}
	for (i = 0; i < sizeof lab_cmds / sizeof lab_cmds[0]; i++)
		if (strcmp(argv[1], lab_cmds[i].name) == 0) {
			snprintf(name, sizeof name, "lab %s", lab_cmds[i].name);
			cli_set_command(name);
			optind = 0;
			return lab_cmds[i].exec(ctx, argc - 1, argv + 1);
		}
	if (argv[1][0] == '-')
		return cli_usage_error(_("unrecognized option '%s'"), argv[1]);
	return cli_usage_error(_("unknown command '%s'"), argv[1]);
}
