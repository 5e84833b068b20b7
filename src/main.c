/*
 * main.c - argument parsing and dispatch only.
 *
 * Exit codes: 0 success, 1 usage error, 2 bad data (or an unusable
 * terminal or database).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/output.h"
#include "core/safetext.h"
#include "store/db.h"
#include "store/progress.h"
#include "tui/tui.h"

#ifndef PL_PKGDATADIR
#define PL_PKGDATADIR	"/usr/local/share/parlearn"
#endif
#ifndef PL_SRCDIR
#define PL_SRCDIR	"."
#endif
#ifndef PL_BUILDDIR
#define PL_BUILDDIR	"."
#endif
#ifndef LOCALEDIR
#define LOCALEDIR	"/usr/local/share/locale"
#endif

struct subcommand {
	const char	*name;
	int		(*main)(const struct cli_ctx *, int, char **);
};

static const struct subcommand subcommands[] = {
	{ "list", cli_list_main },
	{ "check-content", cli_check_content_main },
	{ "plan", cli_plan_main },
	{ "trace", cli_trace_main },
	{ "run", cli_run_main },
	{ "srs", cli_srs_main },
	{ "review", cli_review_main },
	{ "stats", cli_stats_main },
	{ "deck", cli_deck_main },
	{ "lab", cli_lab_main },
	{ "export", cli_export_main },
	{ "import", cli_import_main },
};

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn [OPTION]... [COMMAND [ARG]...]\n"
	    "Learn how large models are trained on many GPUs: data, tensor and\n"
	    "pipeline parallelism and FSDP/ZeRO, in 14 short drops.\n"
	    "\n"
	    "With no COMMAND, start the interactive tutor.\n"
	    "\n"
	    "Commands:\n"
	    "  list            print the course and your progress (--json)\n"
	    "  check-content   validate lessons and flashcards (exit 2 if invalid)\n"
	    "  plan            cost model: memory, time and the best layouts\n"
	    "  trace           run the toy model under one parallelism mode\n"
	    "  run             run the toy model on real processes with MPI\n"
	    "  srs replay      show how the review scheduler spaces a card\n"
	    "  review          review the flashcards that are due (--list: as text)\n"
	    "  stats           flashcard statistics: forecast, heatmap, retention\n"
	    "  deck            list decks, export one for Anki, import a TSV deck\n"
	    "  lab             host or join an instructor-led lab, report on it\n"
	    "  export          write one learner's progress (JSON or CSV)\n"
	    "  import          restore a profile from its JSON export\n"
	    "Each command has its own --help.\n"
	    "\n"
	    "Options:\n"
	    "  --content DIR   read lessons/ and flashcards/ from DIR\n"
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

static void
version(void)
{
	printf("parlearn %s\n", PACKAGE_VERSION);
	printf("%s", _("Copyright (C) 2026 The parlearn authors.\n"
	    "License: MIT. This is free software: you are free to change and\n"
	    "redistribute it. There is NO WARRANTY, to the extent permitted by law.\n"));
}

/* 1 if this binary runs from the build tree it was built in. */
static int
in_build_tree(void)
{
	char exe[PATH_MAX], dir[PATH_MAX + 16];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return 0;
	*slash = '\0';
	if (realpath(PL_BUILDDIR, dir) == NULL)
		return 0;
	return strcmp(exe, dir) == 0;
}

static const char *
default_profile(void)
{
	const char *u = getenv("USER");
	struct passwd *pw;

	if (u != NULL && u[0] != '\0')
		return u;
	pw = getpwuid(getuid());
	return pw != NULL ? pw->pw_name : "learner";
}

/* No command: the tutor's home screen. */
static int
run_tui(const struct cli_ctx *ctx)
{
	struct cli_session s;
	struct tui_start st;
	int rc;

	if ((rc = cli_session_open(ctx, &s, 1)) != 0)
		return rc;
	cli_tui_start(&st, ctx, &s, TUI_HOME);
	rc = tui_run(&st);
	cli_session_close(&s);
	return rc;
}

static int
dispatch(const struct cli_ctx *ctx, int argc, char **argv)
{
	size_t i;

	for (i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		if (strcmp(argv[0], subcommands[i].name) == 0)
			return subcommands[i].main(ctx, argc, argv);
	cli_printf(stderr, _("parlearn: unknown command '%s'\n"), argv[0]);
	fprintf(stderr, "%s", _("Try 'parlearn --help' for more information.\n"));
	return 1;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "content", required_argument, NULL, 'c' },
		{ "db", required_argument, NULL, 'd' },
		{ "profile", required_argument, NULL, 'p' },
		{ "projector", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static char dbpath[4096], datadir[PATH_MAX];
	struct cli_ctx ctx;
	int ch, build;

	setlocale(LC_ALL, "");
	build = in_build_tree();
#if defined(ENABLE_NLS) && ENABLE_NLS
	/* Uninstalled, the catalogs are the build tree's (Makefile.am,
	 * po-locale), as the content is the source tree's. */
	bindtextdomain(PACKAGE, build ? PL_BUILDDIR "/po/locale" : LOCALEDIR);
	textdomain(PACKAGE);
#endif
	memset(&ctx, 0, sizeof ctx);
	ctx.content_dir = getenv("PARLEARN_CONTENT");
	if (ctx.content_dir == NULL || ctx.content_dir[0] == '\0')
		ctx.content_dir = build ? PL_SRCDIR : PL_PKGDATADIR;
	snprintf(datadir, sizeof datadir, "%s/data", build ? PL_SRCDIR :
	    PL_PKGDATADIR);
	ctx.data_dir = datadir;
	ctx.profile = default_profile();
	while ((ch = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			ctx.content_dir = optarg;
			break;
		case 'd':
			ctx.db_path = optarg;
			break;
		case 'p':
			ctx.profile = optarg;
			break;
		case 'P':
			ctx.projector = 1;
			break;
		case 'h':
			usage(stdout);
			return cli_finish(0);
		case 'V':
			version();
			return cli_finish(0);
		default:
			fprintf(stderr, "%s", _("Try 'parlearn --help' for more information.\n"));
			return 1;
		}
	}
	if (!safetext_name_ok(ctx.profile, STORE_PROFILE_MAX_CHARS)) {
		fprintf(stderr, "%s", _("parlearn: --profile: a name of 1 to 64 printable characters is needed\n"));
		return 1;
	}
	if (ctx.db_path == NULL) {
		if (store_default_path(dbpath, sizeof dbpath) != 0) {
			fprintf(stderr, "%s", _("parlearn: set HOME or XDG_DATA_HOME, or give --db PATH\n"));
			return 2;
		}
		ctx.db_path = dbpath;
	}
	if (optind < argc)
		return cli_finish(dispatch(&ctx, argc - optind, argv + optind));
	return run_tui(&ctx);
}
