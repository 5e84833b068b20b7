/*
 * cmd_list.c - `parlearn list`: the curriculum and each drop's status.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/jsonout.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "core/course/curriculum.h"
#include "core/course/duration.h"
#include "core/course/score.h"
#include "store/progress.h"

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn list [--json]\n"
	    "Print the phases and drops of the course with your status in each.\n"
	    "\n"
	    "  --json       print the course as JSON (schema parlearn.list/1)\n"
	    "  -h, --help   show this help\n"));
}

/*
 * A drop's score (core/course/score.h): items are its checked questions
 * and incidents; reveal questions are counted apart.
 */
static void
add_score(cJSON *d, const struct drop_score *sc)
{
	cJSON *o = cJSON_AddObjectToObject(d, "score");

	cJSON_AddNumberToObject(o, "fraction", sc->score);
	cJSON_AddNumberToObject(o, "items_earned", sc->earned);
	cJSON_AddNumberToObject(o, "items", sc->items);
	cJSON_AddNumberToObject(o, "questions", sc->questions);
	cJSON_AddNumberToObject(o, "questions_attempted", sc->attempted);
	cJSON_AddNumberToObject(o, "questions_first_try_right",
	    sc->first_right);
	cJSON_AddNumberToObject(o, "questions_right_after_feedback",
	    sc->after_feedback);
	cJSON_AddNumberToObject(o, "questions_right", sc->right);
	cJSON_AddNumberToObject(o, "incidents", sc->incidents);
	cJSON_AddNumberToObject(o, "incidents_passed", sc->incidents_passed);
	cJSON_AddNumberToObject(o, "reveals", sc->reveals);
	cJSON_AddNumberToObject(o, "reveals_self_graded", sc->self_graded);
	cJSON_AddNumberToObject(o, "cards", sc->cards);
	cJSON_AddNumberToObject(o, "cards_recalled_later", sc->recalled);
}

/* The course as the document parlearn.list/1 (cli/jsonout.h). */
static int
print_json(const struct content_course *c, const enum curriculum_status *st,
    const struct drop_score *sc, const int *minutes, int total)
{
	cJSON *root = cli_json_doc(CLI_SCHEMA("list")), *phases, *ph, *drops, *d;
	size_t p, i;

	if (root == NULL)
		return cli_json_emit(NULL);
	cJSON_AddStringToObject(root, "title", c->title);
	cJSON_AddNumberToObject(root, "minutes", total);
	cJSON_AddNumberToObject(root, "minutes_left",
	    curriculum_minutes_left(c, st, minutes));
	phases = cJSON_AddArrayToObject(root, "phases");
	for (p = 0; p < c->n_phases; p++) {
		ph = cJSON_CreateObject();
		cJSON_AddNumberToObject(ph, "phase", c->phases[p].number);
		cJSON_AddStringToObject(ph, "title", c->phases[p].title);
		drops = cJSON_AddArrayToObject(ph, "drops");
		for (i = 0; i < c->n_drops; i++) {
			if (c->drops[i].phase != c->phases[p].number)
				continue;
			d = cJSON_CreateObject();
			cJSON_AddStringToObject(d, "id", c->drops[i].id);
			cJSON_AddNumberToObject(d, "number", c->drops[i].number);
			cJSON_AddStringToObject(d, "title", c->drops[i].title);
			cJSON_AddNumberToObject(d, "minutes", minutes[i]);
			/* The contract's status words are not translated. */
			cJSON_AddStringToObject(d, "status",
			    curriculum_status_word(st[i]));
			add_score(d, &sc[i]);
			cJSON_AddItemToArray(drops, d);
		}
		cJSON_AddItemToArray(phases, ph);
	}
	return cli_json_emit(root);
}

static void
print_text(const struct content_course *c, const enum curriculum_status *st,
    const struct drop_score *sc, const int *minutes, int total)
{
	struct curriculum_phase_progress pr;
	char all[32], left[32];
	size_t p, i;

	cli_printf(stdout, "%s\n", c->title);
	/* TRANSLATORS: the course's estimated time and what is left of it,
	 * "About 4 h 40 min in all, 2 h 5 min left." */
	cli_printf(stdout, _("About %s in all, %s left.\n"),
	    duration_text(total, all, sizeof all), duration_text(
	    curriculum_minutes_left(c, st, minutes), left, sizeof left));
	for (p = 0; p < c->n_phases; p++) {
		curriculum_phase(c, st, c->phases[p].number, &pr);
		printf("\n");
		cli_printf(stdout, _("Phase %d: %s (%d/%d done)\n"), c->phases[p].number,
		    c->phases[p].title, pr.done, pr.total);
		for (i = 0; i < c->n_drops; i++) {
			if (c->drops[i].phase != c->phases[p].number)
				continue;
			cli_printf(stdout, _("  %2d  %-62s %2d min  %-8s %3.0f%%\n"),
			    c->drops[i].number, c->drops[i].title,
			    minutes[i], curriculum_status_name(st[i]),
			    100 * sc[i].score);
		}
	}
}

int
cli_list_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli_session s;
	int json = 0, ch, rc, total, *minutes;

	optind = 0;
	while ((ch = cli_getopt(argc, argv, "+h", opts)) != -1) {
		switch (ch) {
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
	rc = cli_session_read(ctx, &s, 1);
	if (rc != 0)
		return rc;
	minutes = calloc(s.course->n_drops + 1, sizeof *minutes);
	if (minutes == NULL) {
		cli_session_close(&s);
		cli_printf(stderr, "parlearn: %s\n", _("out of memory"));
		return 2;
	}
	total = duration_course(s.course, minutes);
	rc = json ? print_json(s.course, s.status, s.scores, minutes, total) :
	    (print_text(s.course, s.status, s.scores, minutes, total), 0);
	free(minutes);
	cli_session_close(&s);
	return rc;
}
