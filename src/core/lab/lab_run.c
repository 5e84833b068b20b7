/*
 * lab_run.c - a lab's run step: the command students launch, and whether
 * the measured run a student submits is the one asked for and ended with
 * one device's answers.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/lab/lab.h"

const char *
lab_run_command(const struct lab_step *s, char *buf, size_t size)
{
	char np[32] = "", mb[32] = "", sc[64] = "";

	if (s->run.np > 0)
		snprintf(np, sizeof np, " --np %d", s->run.np);
	if (s->run.microbatches > 0)
		snprintf(mb, sizeof mb, " --microbatches %d",
		    s->run.microbatches);
	if (s->run.schedule != NULL)
		snprintf(sc, sizeof sc, " --schedule %s", s->run.schedule);
	snprintf(buf, size, "parlearn run --mode %s%s%s%s -o run.json",
	    s->run.mode != NULL ? s->run.mode : "?", np, mb, sc);
	return buf;
}

int
lab_run_check(const struct lab_step *s, const struct sim_config *cfg,
    const struct sim_result *res, const struct sim_origin *o,
    const char *file, int *correct, struct pl_err *err)
{
	double worst = fmax(res->max_loss_error, fmax(res->max_grad_error,
	    res->max_param_error));

	if (s->kind != LAB_STEP_RUN) {
		pl_err_set(err, file, 0, 0, "%s", _("this step is not a run "
		    "step"));
		return -1;
	}
	if (!o->measured) {
		pl_err_set(err, file, 0, 0, "%s", _("not a measured run: "
		    "write one with parlearn run -o FILE"));
		return -1;
	}
	if (strcmp(sim_mode_name(cfg->mode), s->run.mode) != 0 ||
	    (s->run.np > 0 && o->processes != s->run.np)) {
		pl_err_set(err, file, 0, 0, _("a run of %s on %d processes; "
		    "the step asks for: %s"), sim_mode_name(cfg->mode),
		    o->processes, s->run.mode);
		return -1;
	}
	*correct = worst <= LAB_RUN_TOLERANCE;
	return 0;
}
