/*
 * cmd_lab_status.c - `parlearn lab status DIR [--json]`: the current step
 * and the class, as text or as the document parlearn.lab-status/1, for an
 * instructor without the dashboard.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/jsonout.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "store/labdir.h"

/* The contract's words for enum lab_item_kind, never translated. */
static const char *const kind_word[] = { "question", "scenario", "run" };

/*
 * Each run handed in on a step of this session and refused by the
 * grade's checks (lab_run_verify), with the reason: to stdout as text,
 * or into arr.
 */
static void
refusals(const struct labdir_scan *sc, const struct lab_state *st,
    size_t n_steps, cJSON *arr)
{
	const struct lab_answer *a;
	cJSON *o;
	size_t i, k;

	for (i = 0; i < sc->n; i++) {
		if (strcmp(sc->results[i].session, st->session) != 0)
			continue;
		for (k = 0; k < sc->results[i].n_answers; k++) {
			a = &sc->results[i].answers[k];
			if (a->refused == NULL || (size_t)a->step >= n_steps)
				continue;
			if (arr == NULL) {
				cli_printf(stdout, _("refused: %s@%s, step %d: "
				    "%s\n"), sc->results[i].user,
				    sc->results[i].profile, a->step + 1,
				    a->refused);
				continue;
			}
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "user", sc->results[i].user);
			cJSON_AddStringToObject(o, "profile",
			    sc->results[i].profile);
			cJSON_AddNumberToObject(o, "step", a->step + 1);
			cJSON_AddStringToObject(o, "reason", a->refused);
			cJSON_AddItemToArray(arr, o);
		}
	}
}

static void
print_status(const struct lab_script *ls, const struct lab_state *st,
    const struct labdir_scan *sc, const struct content_course *c,
    const struct lab_class *cl)
{
	char title[300];
	size_t i;

	cli_printf(stdout, _("%s: step %d of %zu: %s\n"), ls->title, st->step + 1,
	    ls->n_steps, lab_step_title(&ls->steps[st->step], c, title,
	    sizeof title));
	if (cl == NULL)
		return;
	printf(P_("%zu student\n", "%zu students\n", cl->n_students),
	    cl->n_students);
	for (i = 0; i < ls->n_steps; i++)
		if (cl->on_step[i] > 0)
			printf(_("  on step %zu: %d\n"), i + 1, cl->on_step[i]);
	if (cl->most_missed >= 0)
		cli_printf(stdout, _("most missed: step %d, %s (%d missed on the first try)\n"),
		    cl->items[cl->most_missed].step + 1,
		    cl->items[cl->most_missed].id, cl->items[cl->most_missed].missed);
	printf(P_("%zu file skipped\n", "%zu files skipped\n",
	    sc->n_skipped), sc->n_skipped);
	refusals(sc, st, ls->n_steps, NULL);
}

static cJSON *
item_json(const struct lab_item_stat *it)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "step", it->step + 1);
	cJSON_AddStringToObject(o, "kind", (unsigned)it->kind < sizeof kind_word /
	    sizeof kind_word[0] ? kind_word[it->kind] : "?");
	cJSON_AddStringToObject(o, "id", it->id);
	cJSON_AddNumberToObject(o, "right", it->right);
	cJSON_AddNumberToObject(o, "wrong", it->wrong);
	cJSON_AddNumberToObject(o, "missed_first_try", it->missed);
	return o;
}

static int
status_json(const struct lab_script *ls, const struct lab_state *st,
    const struct labdir_scan *sc, const struct content_course *c,
    const struct lab_class *cl)
{
	cJSON *doc = cli_json_doc(CLI_SCHEMA("lab-status")), *a, *o;
	char title[300];
	size_t i;

	if (doc == NULL)
		return cli_json_emit(NULL);
	cJSON_AddStringToObject(doc, "title", ls->title);
	cJSON_AddStringToObject(doc, "session", st->session);
	cJSON_AddNumberToObject(doc, "step", st->step + 1);
	cJSON_AddNumberToObject(doc, "steps", (double)ls->n_steps);
	cJSON_AddStringToObject(doc, "step_title", lab_step_title(
	    &ls->steps[st->step], c, title, sizeof title));
	cli_json_add_time(doc, "started_unix_s", st->started);
	cli_json_add_time(doc, "step_started_unix_s", st->step_started);
	cJSON_AddNumberToObject(doc, "students", cl != NULL ?
	    (double)cl->n_students : 0);
	a = cJSON_AddArrayToObject(doc, "on_step");
	for (i = 0; cl != NULL && i < ls->n_steps; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(cl->on_step[i]));
	a = cJSON_AddArrayToObject(doc, "items");
	for (i = 0; cl != NULL && i < cl->n_items; i++)
		cJSON_AddItemToArray(a, item_json(&cl->items[i]));
	if (cl != NULL && cl->most_missed >= 0)
		o = item_json(&cl->items[cl->most_missed]);
	else
		o = cJSON_CreateNull();
	cJSON_AddItemToObject(doc, "most_missed", o);
	cJSON_AddNumberToObject(doc, "files_skipped", (double)sc->n_skipped);
	if ((a = cJSON_AddArrayToObject(doc, "refused")) != NULL)
		refusals(sc, st, ls->n_steps, a);
	return cli_json_emit(doc);
}

int
cli_lab_status(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	struct content_course *c;
	struct lab_script *ls;
	struct lab_state st;
	struct labdir_scan sc;
	struct lab_class cl;
	int ch, rc, json = 0, have_class;

	while ((ch = cli_getopt(argc, argv, "", opts)) != -1) {
		if (ch != 'j')
			return 1;
		json = 1;
	}
	if (argc - optind != 1)
		return lab_operands(argc - optind + 1, argv + optind - 1, 1);
	if ((rc = lab_open(argv[optind], &ls, &st)) != 0)
		return rc;
	if ((rc = lab_scan_warn(argv[optind], &sc)) != 0) {
		lab_script_free(ls);
		return rc;
	}
	c = content_load(ctx->content_dir, NULL);
	have_class = lab_class_build(ls, c, sc.results, sc.n, st.session,
	    &cl) == 0;
	if (json)
		rc = status_json(ls, &st, &sc, c, have_class ? &cl : NULL);
	else
		print_status(ls, &st, &sc, c, have_class ? &cl : NULL);
	if (have_class)
		lab_class_free(&cl);
	content_free(c);
	labdir_scan_free(&sc);
	lab_script_free(ls);
	return rc;
}
