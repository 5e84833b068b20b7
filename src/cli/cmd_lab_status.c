/*
 * cmd_lab_status.c - `parlearn lab status DIR`: the current step and the
 * class, as text, for an instructor without the dashboard.
 */
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/output.h"
#include "store/labdir.h"

static void
print_status(const struct lab_script *ls, const struct lab_state *st,
    const struct labdir_scan *sc, const struct content_course *c)
{
	struct lab_class cl;
	char title[300];
	size_t i;

	cli_printf(stdout, _("%s: step %d of %zu: %s\n"), ls->title, st->step + 1,
	    ls->n_steps, lab_step_title(&ls->steps[st->step], c, title,
	    sizeof title));
	if (lab_class_build(ls, c, sc->results, sc->n, st->session, &cl) != 0)
		return;
	printf(P_("%zu student\n", "%zu students\n", cl.n_students),
	    cl.n_students);
	for (i = 0; i < ls->n_steps; i++)
		if (cl.on_step[i] > 0)
			printf(_("  on step %zu: %d\n"), i + 1, cl.on_step[i]);
	if (cl.most_missed >= 0)
		cli_printf(stdout, _("most missed: step %d, %s (%d missed on the first try)\n"),
		    cl.items[cl.most_missed].step + 1,
		    cl.items[cl.most_missed].id, cl.items[cl.most_missed].missed);
	printf(P_("%zu file skipped\n", "%zu files skipped\n",
	    sc->n_skipped), sc->n_skipped);
	lab_class_free(&cl);
}

int
cli_lab_status(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct content_course *c;
	struct lab_script *ls;
	struct lab_state st;
	struct labdir_scan sc;
	int rc;

	if (argc != 2) {
		lab_usage(stderr);
		return 1;
	}
	if ((rc = lab_open(argv[1], &ls, &st)) != 0)
		return rc;
	if ((rc = lab_scan_warn(argv[1], &sc)) != 0) {
		lab_script_free(ls);
		return rc;
	}
	c = content_load(ctx->content_dir, NULL);
	print_status(ls, &st, &sc, c);
	content_free(c);
	labdir_scan_free(&sc);
	lab_script_free(ls);
	return 0;
}
