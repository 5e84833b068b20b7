/*
 * run_report.c - rank 0's account of the run: the measured step next to
 * the simulator's run of the same layout and the one-device reference,
 * as text or as the timeline JSON `parlearn trace --from` replays.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "run/run_gather.h"
#include "run/run_report.h"
#include "cli/output.h"
#include "core/safeprint.h"

/* Largest differences of one run from another. */
struct diff {
	double	 loss, grads, params;
};

static void
compare(const struct sim_result *a, const struct sim_result *b,
    struct diff *d)
{
	d->loss = fabs(a->loss - b->loss);
	d->grads = sim_max_diff(a->grads, b->grads, SIM_NPARAMS);
	d->params = sim_max_diff(a->params, b->params, SIM_NPARAMS);
}

static double
worst(const struct diff *d)
{
	return fmax(d->loss, fmax(d->grads, d->params));
}

static cJSON *
diff_json(const struct diff *d, double loss)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "loss", loss);
	cJSON_AddNumberToObject(o, "max_loss_diff", d->loss);
	cJSON_AddNumberToObject(o, "max_grad_diff", d->grads);
	cJSON_AddNumberToObject(o, "max_param_diff", d->params);
	cJSON_AddBoolToObject(o, "bit_for_bit", worst(d) == 0.0);
	return o;
}

static cJSON *
to_json(const struct run_opts *o, const struct sim_config *cfg,
    const struct run_outcome *out, const struct sim_result *sim,
    const struct diff *vs_sim)
{
	cJSON *root = sim_result_json(cfg, &out->res, &out->origin), *m, *h;
	cJSON *doc = cJSON_CreateObject();
	int i;

	/* A document of its own, schema/run.json, named first. */
	if (root == NULL || doc == NULL ||
	    cJSON_AddStringToObject(doc, "schema", "parlearn.run/1") == NULL) {
		cJSON_Delete(root);
		cJSON_Delete(doc);
		return NULL;
	}
	m = cJSON_GetObjectItemCaseSensitive(root, "measured");
	cJSON_AddStringToObject(m, "reduce", o->reduce == RUN_REDUCE_MPI ?
	    "mpi" : "ordered");
	cJSON_AddNumberToObject(m, "clock_probe_max_s", out->rtt_max);
	cJSON_AddNumberToObject(m, "timeout_s", o->timeout);
	h = cJSON_AddArrayToObject(m, "host_of_rank");
	for (i = 0; i < out->origin.processes; i++)
		cJSON_AddItemToArray(h, cJSON_CreateString(out->host[i]));
	cJSON_AddItemToObject(root, "simulator", diff_json(vs_sim, sim->loss));
	while ((m = root->child) != NULL) {
		cJSON_DetachItemViaPointer(root, m);
		cJSON_AddItemToObject(doc, m->string, m);
	}
	cJSON_Delete(root);
	return doc;
}

/*
 * The timeline to path through the writer every -o uses (cli/output.h:
 * no link followed, nothing but a regular file replaced, a temporary file
 * renamed into place), or to stdout when path is NULL.
 */
static int
write_json(const char *path, const cJSON *root)
{
	char *text = cJSON_Print(root);
	int rc = 0;

	if (text == NULL) {
		fprintf(stderr, "%s", _("parlearn: run: out of memory\n"));
		return -1;
	}
	if (path == NULL)
		printf("%s\n", text);
	else if (cli_write_text(path, text) != 0)
		rc = -1;
	free(text);
	return rc;
}

static void
print_text(const struct run_opts *o, const struct sim_config *cfg,
    const struct run_outcome *out, const struct diff *vs_one,
    const struct diff *vs_sim, double one_loss)
{
	const struct sim_result *r = &out->res;

	char lay[96];

	printf(P_("parlearn run: %s on %d process (%s), ",
	    "parlearn run: %s on %d processes (%s), ",
	    out->origin.processes), sim_mode_name(cfg->mode),
	    out->origin.processes, mesh_keys_text(r->degree, lay, sizeof lay));
	printf(P_("%s, %d micro-batch\n", "%s, %d micro-batches\n",
	    cfg->microbatches), pipe_schedule_name(cfg->schedule),
	    cfg->microbatches);
	if (out->origin.hosts == 1)
		safeprint_printf(stdout, _("all on one host (%s): the times "
		    "are CPU times on one machine\n"), out->host[0]);
	else
		printf(_("on %d hosts\n"), out->origin.hosts);
	printf(_("loss %.15g (one device %.15g)\n"), r->loss, one_loss);
	printf(_("largest difference from one device:  loss %.3g, gradients "
	    "%.3g, parameters %.3g\n"), vs_one->loss, vs_one->grads,
	    vs_one->params);
	printf(_("largest difference from the simulator: loss %.3g, gradients "
	    "%.3g, parameters %.3g%s\n"), vs_sim->loss, vs_sim->grads,
	    vs_sim->params, worst(vs_sim) == 0.0 ? _(" (bit for bit)") : "");
	printf("%s\n", o->reduce == RUN_REDUCE_MPI ?
	    _("reductions: MPI_Iallreduce and MPI_Ireduce_scatter_block, in "
	    "the library's order") :
	    _("reductions: all-to-all, then each sum in the simulator's ring "
	    "order, then all-gather"));
	printf(_("step %.3f ms measured; bubble %.1f%% (formula %.1f%%); "
	    "%zu bytes moved\n"), r->step_time * 1e3, r->bubble * 100,
	    r->bubble_formula * 100, r->bytes_moved);
	if (o->out != NULL)
		safeprint_printf(stdout,
		    _("timeline written to %s (replay: parlearn trace --from "
		    "%s)\n"), o->out, o->out);
}

/* The simulator's run of cfg and the one-device reference. */
static int
references(const struct sim_config *cfg, struct sim_result *sim,
    struct sim_result *one)
{
	struct sim_config single;
	struct pl_err err;

	sim_config_default(&single, SIM_SINGLE, 1);
	single.moe = cfg->moe;	/* the same model variant */
	if (sim_run(cfg, sim, &err) != 0)
		return -1;
	if (sim_run(&single, one, &err) != 0) {
		sim_result_free(sim);
		return -1;
	}
	return 0;
}

static int
report_rank0(const struct run_opts *o, const struct sim_config *cfg,
    struct run_outcome *out)
{
	struct sim_result *sim = calloc(2, sizeof *sim), *one = sim + 1;
	struct diff vs_one, vs_sim;
	cJSON *root;
	int rc = 0;

	if (sim == NULL || references(cfg, sim, one) != 0) {
		fprintf(stderr, "%s", _("parlearn: run: out of memory\n"));
		free(sim);
		return 2;
	}
	compare(&out->res, one, &vs_one);
	compare(&out->res, sim, &vs_sim);
	out->res.max_loss_error = vs_one.loss;
	out->res.max_grad_error = vs_one.grads;
	out->res.max_param_error = vs_one.params;
	root = to_json(o, cfg, out, sim, &vs_sim);
	if (root == NULL)
		rc = 2;
	if (root != NULL && o->out != NULL && write_json(o->out, root) != 0)
		rc = 2;
	if (root != NULL && o->json)
		write_json(NULL, root);
	else
		print_text(o, cfg, out, &vs_one, &vs_sim, one->loss);
	fflush(stdout);
	if (worst(&vs_one) > RUN_TOLERANCE) {
		fprintf(stderr, _("parlearn: run: the answers differ from one "
		    "device's by %.3g, more than %g\n"), worst(&vs_one),
		    RUN_TOLERANCE);
		rc = 2;
	}
	cJSON_Delete(root);
	sim_result_free(sim);
	sim_result_free(one);
	free(sim);
	return rc;
}

int
run_report(struct run_exec *x, const struct run_opts *o,
    const struct sim_config *cfg)
{
	struct run_outcome *out = calloc(1, sizeof *out);
	int rc = 0;

	if (out == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	run_gather(x, out);
	if (x->proc->rank == 0) {
		rc = report_rank0(o, cfg, out);
		sim_result_free(&out->res);
	}
	free(out);
	return rc;
}
