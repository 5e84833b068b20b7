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
	    "                    create the lab directory (yours) and show the dashboard\n"
	    "  join DIR          follow the lab as a student\n"
	    "  step DIR N|next|prev\n"
	    "                    move the lab to another step (host)\n"
	    "  submit DIR --step N (--question ID | --scenario ID) --correct 0|1\n"
	    "                    record one answer, as the student screen does\n"
	    "  submit DIR --step N --run FILE\n"
	    "                    record a run step's run (parlearn run -o FILE)\n"
	    "  status DIR        the current step and the class, as text\n"
	    "  report DIR [--format csv|json] [-o FILE]\n"
	    "                    the class table: per student per step, per question\n"
	    "  reset DIR         archive the results and start again for a new group\n"
	    "\n"
	    "Global options such as --projector and --profile go before 'lab'.\n"));
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

int
cli_lab_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	const char *cmd;
	size_t i;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		lab_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 1 : 0;
	}
	cmd = argv[1];
	argc--;
	argv++;
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0)) {
		lab_usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof lab_cmds / sizeof lab_cmds[0]; i++)
		if (strcmp(cmd, lab_cmds[i].name) == 0) {
			optind = 0;
			return lab_cmds[i].exec(ctx, argc, argv);
		}
	cli_printf(stderr, _("parlearn: lab: unknown command '%s'\n"), cmd);
	lab_usage(stderr);
	return 1;
}
