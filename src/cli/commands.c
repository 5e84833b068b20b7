/*
 * commands.c - the subcommands' table, the global help and the dispatch.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/usage.h"

static const struct cli_command commands[] = {
	{ "list", cli_list_main,
	    N_("print the course and your progress (--json)") },
	{ "check-content", cli_check_content_main,
	    N_("validate lessons, flashcards and labs (exit 2 if invalid)") },
	{ "plan", cli_plan_main,
	    N_("cost model: memory, time and the best layouts") },
	{ "calibrate", cli_calibrate_main,
	    N_("fit a hardware file to your nccl-tests and GEMM timings") },
	{ "trace", cli_trace_main,
	    N_("run the toy model under one parallelism mode") },
	{ "run", cli_run_main,
	    N_("run the toy model on real processes with MPI") },
	{ "srs", cli_srs_main,
	    N_("srs replay: how the review scheduler spaces a card") },
	{ "review", cli_review_main,
	    N_("review the flashcards that are due (--list: as text)") },
	{ "stats", cli_stats_main,
	    N_("flashcard statistics: forecast, heatmap, retention") },
	{ "deck", cli_deck_main,
	    N_("list decks; export one for Anki; import an Anki text file") },
	{ "lab", cli_lab_main,
	    N_("host or join an instructor-led lab, report on it") },
	{ "export", cli_export_main,
	    N_("write one learner's progress (JSON or CSV)") },
	{ "import", cli_import_main,
	    N_("restore a profile from its JSON export") },
	{ "help", cli_help_main, N_("show the help of a command") },
	{ "complete", cli_complete_main, NULL },
	{ NULL, NULL, NULL }
};

const struct cli_command *
cli_commands(void)
{
	return commands;
}

const struct cli_command *
cli_command_find(const char *name)
{
	const struct cli_command *c;

	for (c = commands; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void
cli_usage(FILE *fp)
{
	const struct cli_command *c;

	fprintf(fp, "%s", _("Usage: parlearn [OPTION]... [COMMAND [ARG]...]\n"
	    "Learn how large models are trained on many GPUs: data, tensor and\n"
	    "pipeline parallelism, FSDP/ZeRO, long context and experts, in 17 short\n"
	    "drops.\n"
	    "\n"
	    "With no COMMAND, start the interactive tutor.\n"
	    "\n"
	    "Commands:\n"));
	for (c = commands; c->name != NULL; c++)
		if (c->summary != NULL)
			fprintf(fp, "  %-15s %s\n", c->name, _(c->summary));
	fprintf(fp, "%s", _("Each command has its own --help (or: parlearn help "
	    "COMMAND).\n"
	    "\n"
	    "Options:\n"
	    "  --content DIR   read lessons/, flashcards/, labs/ and, when DIR has\n"
	    "                  one, data/ (the GPU and model catalogs) from DIR\n"
	    "                  (also the environment variable PARLEARN_CONTENT)\n"
	    "  --db PATH       progress database (default:\n"
	    "                  $XDG_DATA_HOME/parlearn/progress.db)\n"
	    "  --profile NAME  learner profile (default: your login name)\n"
	    "  --projector     projector mode: bold, high contrast, big figures\n"
	    "  -h, --help      show this help and exit\n"
	    "  -V, --version   show the version and exit\n"
	    "\n"
	    "Exit status: 0 success, 1 usage error, 2 bad data.\n"));
	fprintf(fp, _("Report bugs to: %s\n"), PACKAGE_BUGREPORT);
}

int
cli_dispatch(const struct cli_ctx *ctx, int argc, char **argv)
{
	const struct cli_command *c = cli_command_find(argv[0]);

	if (c == NULL) {
		cli_set_command(NULL);
		return cli_usage_error(_("unknown command '%s'"), argv[0]);
	}
	cli_set_command(c->name);
	return cli_finish(c->main(ctx, argc, argv));
}
