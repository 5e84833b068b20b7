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
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/output.h"
#include "cli/paths.h"
#include "cli/usage.h"
#include "core/safetext.h"
#include "store/db.h"
#include "store/progress.h"
#include "tui/tui.h"

#ifndef PL_PKGDATADIR
#define PL_PKGDATADIR	"/usr/local/share/parlearn"
#endif
#ifndef LOCALEDIR
#define LOCALEDIR	"/usr/local/share/locale"
#endif

static void
version(void)
{
	printf("parlearn %s\n", PACKAGE_VERSION);
	printf("%s", _("Copyright (C) 2026 The parlearn authors.\n"
	    "License: MIT. This is free software: you are free to change and\n"
	    "redistribute it. There is NO WARRANTY, to the extent permitted by law.\n"));
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
	static char dbpath[4096], srcdir[PATH_MAX], builddir[PATH_MAX],
	    datadir[PATH_MAX + 8], defdata[PATH_MAX + 8],
	    localedir[PATH_MAX + 16];
	struct cli_ctx ctx;
	const char *course;
	int ch, build;

	setlocale(LC_ALL, "");
	/* Uninstalled, the course is the source tree's and the catalogs are
	 * the build tree's (Makefile.am, po-locale); see cli/paths.h. */
	build = cli_build_tree(srcdir, sizeof srcdir, builddir,
	    sizeof builddir);
	course = build ? srcdir : PL_PKGDATADIR;
#if defined(ENABLE_NLS) && ENABLE_NLS
	if (build) {
		snprintf(localedir, sizeof localedir, "%s/po/locale",
		    builddir);
		bindtextdomain(PACKAGE, localedir);
	} else
		bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
#endif
	memset(&ctx, 0, sizeof ctx);
	ctx.content_dir = getenv("PARLEARN_CONTENT");
	if (ctx.content_dir == NULL || ctx.content_dir[0] == '\0')
		ctx.content_dir = course;
	ctx.profile = default_profile();
	while ((ch = cli_getopt(argc, argv, "+hV", opts)) != -1) {
		switch (ch) {
		case 'c':
			ctx.content_dir = optarg;
			break;
		case 'd':
			ctx.db_path = optarg;
			ctx.db_given = 1;
			break;
		case 'p':
			ctx.profile = optarg;
			break;
		case 'P':
			ctx.projector = 1;
			break;
		case 'h':
			cli_usage(stdout);
			return cli_finish(0);
		case 'V':
			version();
			return cli_finish(0);
		default:
			return 1;
		}
	}
	/* --content covers the catalogs too: DIR/data when DIR has one. */
	snprintf(defdata, sizeof defdata, "%s/data", course);
	ctx.data_default = defdata;
	ctx.data_dir = cli_data_dir(ctx.content_dir, defdata, datadir,
	    sizeof datadir);
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
		return cli_dispatch(&ctx, argc - optind, argv + optind);
	return run_tui(&ctx);
}
