/*
 * cmd_stats.c - `parlearn stats`: the statistics screen as text, or its
 * figures as the document parlearn.stats/1 (--json).
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
#include "cli/jsonout.h"
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
	    "  --json       the figures as JSON (schema parlearn.stats/1)\n"
	    "  -h, --help   show this help\n"));
}

static const char *const state_word[] = {
	"new", "learning", "review", "relearning"
};
/* review_age_bucket's intervals, days: [lo, hi), hi 0 for none. */
static const int age_lo[REVIEW_N_AGES] = { 0, 7, 21, 90 };
static const int age_hi[REVIEW_N_AGES] = { 7, 21, 90, 0 };

static cJSON *
ages_json(const struct review_age *a)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	int i;

	for (i = 0; i < REVIEW_N_AGES; i++) {
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "interval_from_days", age_lo[i]);
		if (age_hi[i] > 0)
			cJSON_AddNumberToObject(o, "interval_below_days", age_hi[i]);
		else
			cJSON_AddNullToObject(o, "interval_below_days");
		cJSON_AddNumberToObject(o, "reviews", a[i].n);
		cJSON_AddNumberToObject(o, "passed", a[i].passed);
		if (a[i].n > 0)
			cJSON_AddNumberToObject(o, "retention_fraction",
			    (double)a[i].passed / a[i].n);
		else
			cJSON_AddNullToObject(o, "retention_fraction");
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* The statistics as the document parlearn.stats/1. */
static int
stats_json(const struct review_stats *st, int64_t now,
    const struct review_settings *set)
{
	cJSON *doc = cli_json_doc(CLI_SCHEMA("stats")), *o, *a;
	int i;

	if (doc == NULL)
		return cli_json_emit(NULL);
	cJSON_AddNumberToObject(doc, "now_unix_s", (double)now);
	cJSON_AddNumberToObject(doc, "rollover_hour", set->rollover_hour);
	o = cJSON_AddObjectToObject(doc, "cards");
	for (i = 0; i < 4; i++)
		cJSON_AddNumberToObject(o, state_word[i], st->by_state[i]);
	cJSON_AddNumberToObject(doc, "reviews_total", (double)st->total_reviews);
	cJSON_AddNumberToObject(doc, "streak_days", review_stats_streak(st));
	a = cJSON_AddArrayToObject(doc, "due_per_day");
	for (i = 0; i < REVIEW_FORECAST_DAYS; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(st->forecast[i]));
	a = cJSON_AddArrayToObject(doc, "reviews_per_day");
	for (i = 0; i < REVIEW_HEATMAP_DAYS; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(st->heatmap[i]));
	cJSON_AddItemToObject(doc, "retention", ages_json(st->ages));
	cJSON_AddItemToObject(doc, "retention_last_30_days",
	    ages_json(st->ages_month));
	return cli_json_emit(doc);
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
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli_session s;
	struct review_settings set;
	struct review_stats st;
	struct pl_err err;
	int64_t now = (int64_t)time(NULL);
	int ch, rc, width = 80, utf8, json = 0;
	long n;

	optind = 0;
	while ((ch = cli_getopt(argc, argv, "+h", opts)) != -1) {
		switch (ch) {
		case 'w':
			if (cli_whole_number("--width", optarg, 40, 200, &n) != 0)
				return 1;
			width = (int)n;
			break;
		case 'j':
			json = 1;
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
	if ((rc = cli_session_read(ctx, &s, 1)) != 0)
		return rc;
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (store_cards_unlock(s.store, s.profile, s.course, now, NULL,
	    &err) != 0 ||
	    store_review_settings(s.store, s.profile, &set, &err) != 0 ||
	    store_review_stats(s.store, s.profile, now, store_local_offset(now),
	    set.rollover_hour, &st, &err) != 0) {
		cli_print_err(&err);
		rc = 2;
	} else if (json)
		rc = stats_json(&st, now, &set);
	else
		review_stats_lines(&st, width, utf8, emit, NULL);
	cli_session_close(&s);
	return rc;
}
