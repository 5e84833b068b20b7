/*
 * cmd_stats.c - `parlearn stats`: the statistics screen as text.
 *
 * Both print the lines of review_stats_lines() for the struct
 * review_stats that store_review_stats() fills, so they show the same.
 */
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/usage.h"
#include "store/cards.h"

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn stats [OPTION]...\n"
	    "Print your flashcard statistics: cards by state, reviews due in the\n"
	    "next 30 days, reviews per day over the past year, and true retention\n"
	    "(the share of reviews passed) by interval.\n"
	    "\n"
	    "  --width N    lines of at most N columns (default 80, at least 40)\n"
	    "  -h, --help   show this help\n"));
}

static void
emit(const char *line, size_t n, void *arg)
{
	(void)arg;
	printf("%.*s\n", (int)n, line);
}

int
cli_stats_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli_session s;
	struct review_settings set;
	struct review_stats st;
	struct pl_err err;
	int64_t now = (int64_t)time(NULL);
	int ch, rc, width = 80, utf8;
	char *end;

	optind = 0;
	while ((ch = cli_getopt(argc, argv, "+h", opts)) != -1) {
		switch (ch) {
		case 'w':
			width = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || width < 40 || width > 200) {
				return cli_usage_error("--width: %s",
				    _("a whole number from 40 to 200 is needed"));
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return 1;
		}
	}
	if (optind < argc)
		return cli_extra_argument(argv[optind]);
	if ((rc = cli_session_open(ctx, &s, 1)) != 0)
		return rc;
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (store_cards_unlock(s.store, s.profile, s.course, now, NULL,
	    &err) != 0 ||
	    store_review_settings(s.store, s.profile, &set, &err) != 0 ||
	    store_review_stats(s.store, s.profile, now, store_local_offset(now),
	    set.rollover_hour, &st, &err) != 0) {
		cli_print_err(&err);
		rc = 2;
	} else
		review_stats_lines(&st, width, utf8, emit, NULL);
	cli_session_close(&s);
	return rc;
}
