/*
 * sim.c - the simulator's front: modes, configs and their checks, the cost
 * constants, and sim_run, which runs a mode next to the single-device
 * reference and measures the result.
 *
 * The cost constants (sim_cost_default) describe a toy device, slow enough
 * that a layer of the 16-wide model takes microseconds, so compute and
 * communication show up at the same scale in a Gantt chart. They are for
 * teaching the shape of a step, not for predicting a real GPU; the cost
 * model (core/costmodel) does that.
 */
#include <math.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/sim.h"
#include "core/sim/sim_modes.h"

static const char *const mode_names[] = {
	"single", "dp", "tp", "pp", "fsdp", "3d"
};

const char *
sim_mode_name(enum sim_mode m)
{
	return (m >= SIM_SINGLE && m <= SIM_3D) ? mode_names[m] : "?";
}

int
sim_mode_parse(const char *s, enum sim_mode *m)
{
	int i;

	for (i = 0; i <= SIM_3D; i++)
		if (strcmp(s, mode_names[i]) == 0) {
			*m = (enum sim_mode)i;
			return 0;
		}
	return -1;
}

struct sim_cost
sim_cost_default(void)
{
	struct sim_cost c;

	c.flops = 1e9;
	c.alpha_intra = 1e-6;
	c.bw_intra = 4e9;
	c.alpha_inter = 4e-6;
	c.bw_inter = 1e9;
	c.gpus_per_node = 4;
	c.adam_flops = 10.0;
	return c;
}

struct sim_cost
sim_cost_compute_only(void)
{
	struct sim_cost c = sim_cost_default();

	c.alpha_intra = c.alpha_inter = 0.0;
	c.bw_intra = c.bw_inter = INFINITY;
	return c;
}

void
sim_config_default(struct sim_config *cfg, enum sim_mode mode, int gpus)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->mode = mode;
	cfg->gpus = mode == SIM_SINGLE ? 1 : gpus;
	cfg->microbatches = (mode == SIM_PP || mode == SIM_3D) ? 8 : 1;
	cfg->schedule = PIPE_1F1B;
	cfg->vstages = 1;
	cfg->cost = sim_cost_default();
}

/* The grid of a mode; does not check it. */
static void
layout_of(const struct sim_config *cfg, struct sim_layout *lay)
{
	int n = cfg->mode == SIM_SINGLE ? 1 : cfg->gpus, l;

	memset(lay, 0, sizeof *lay);
	lay->d = lay->p = lay->t = lay->v = 1;
	lay->m = cfg->microbatches;
	lay->kind = cfg->schedule;
	switch (cfg->mode) {
	case SIM_DP:
		lay->d = n;
		break;
	case SIM_FSDP:
		lay->d = n;
		lay->fsdp = 1;
		break;
	case SIM_TP:
		lay->t = n;
		break;
	case SIM_PP:
		lay->p = n;
		lay->v = cfg->vstages;
		break;
	case SIM_3D:
		lay->d = lay->p = lay->t = 2;
		break;
	case SIM_SINGLE:
		break;
	}
	if (lay->p == 1 && lay->kind == PIPE_INTERLEAVED && lay->v == 1)
		lay->kind = PIPE_1F1B;
	for (l = 0; l < SIM_LAYERS; l++)
		lay->split[l] = lay->t == 1 ? SIM_SPLIT_NONE :
		    (l % 2 == 0 ? SIM_SPLIT_COL : SIM_SPLIT_ROW);
	lay->lps = SIM_LAYERS / (lay->p * lay->v);
	lay->b = lay->m > 0 ? SIM_BATCH / (lay->d * lay->m) : 0;
}

static int
check_pipeline(const struct sim_config *cfg, const struct sim_layout *lay,
    struct pl_err *err)
{
	if (cfg->vstages > 1 && cfg->schedule != PIPE_INTERLEAVED) {
		pl_err_set(err, NULL, 0, 0, "%s", _("--virtual-stages needs "
		    "--schedule interleaved"));
		return -1;
	}
	if (cfg->mode == SIM_3D && cfg->schedule == PIPE_INTERLEAVED) {
		pl_err_set(err, NULL, 0, 0, "%s", _("3d runs gpipe or 1f1b: "
		    "interleaving would split a tensor-parallel layer pair"));
		return -1;
	}
	if (SIM_LAYERS % (lay->p * lay->v) != 0) {
		pl_err_set(err, NULL, 0, 0, _("%d stages x %d virtual stages "
		    "do not divide the model's %d layers"), lay->p, lay->v,
		    SIM_LAYERS);
		return -1;
	}
	if (lay->kind == PIPE_INTERLEAVED && lay->p > 1 &&
	    lay->m % lay->p != 0) {
		pl_err_set(err, NULL, 0, 0, _("the interleaved schedule needs "
		    "microbatches (%d) to be a multiple of the stages (%d)"),
		    lay->m, lay->p);
		return -1;
	}
	return 0;
}

int
sim_config_check(const struct sim_config *cfg, struct pl_err *err)
{
	struct sim_layout lay;

	if (cfg->mode < SIM_SINGLE || cfg->mode > SIM_3D) {
		pl_err_set(err, NULL, 0, 0, "%s", _("unknown mode"));
		return -1;
	}
	if (cfg->gpus < 1 || cfg->gpus > 48) {
		pl_err_set(err, NULL, 0, 0, _("--gpus must be between 1 and "
		    "48, not %d"), cfg->gpus);
		return -1;
	}
	if (cfg->mode == SIM_3D && cfg->gpus != 8) {
		pl_err_set(err, NULL, 0, 0, _("3d runs DP x TP x PP = 2 x 2 x 2 "
		    "and needs --gpus 8, not %d"), cfg->gpus);
		return -1;
	}
	/* Bounded before any product of them can overflow. */
	if (cfg->microbatches < 1 || cfg->microbatches > SIM_BATCH ||
	    cfg->vstages < 1 || cfg->vstages > SIM_LAYERS) {
		pl_err_set(err, NULL, 0, 0, _("--microbatches must be at least 1 "
		    "and at most %d (the samples in the batch), "
		    "--virtual-stages at least 1 and at most %d (the layers)"),
		    SIM_BATCH, SIM_LAYERS);
		return -1;
	}
	layout_of(cfg, &lay);
	if (SIM_WIDTH % lay.t != 0) {
		pl_err_set(err, NULL, 0, 0, _("tensor parallelism over %d "
		    "devices does not divide the layer width %d"), lay.t,
		    SIM_WIDTH);
		return -1;
	}
	if (check_pipeline(cfg, &lay, err) != 0)
		return -1;
	if (SIM_BATCH % (lay.d * lay.m) != 0) {
		pl_err_set(err, NULL, 0, 0, _("%d replicas x %d microbatches "
		    "do not divide the batch of %d samples"), lay.d, lay.m,
		    SIM_BATCH);
		return -1;
	}
	return 0;
}

static double
max_diff(const double *a, const double *b, size_t n)
{
	double m = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(a[i] - b[i]) > m)
			m = fabs(a[i] - b[i]);
	return m;
}

/* The single-device reference: loss, gradients, updated parameters. */
static int
reference(double *loss, double *grads, double *params)
{
	struct sim_config cfg;
	struct sim_layout lay;
	struct sim_timeline tl;
	struct sim_cost cost = sim_cost_default();
	int rc;

	sim_config_default(&cfg, SIM_SINGLE, 1);
	layout_of(&cfg, &lay);
	if (sim_timeline_init(&tl, 1) != 0)
		return -1;
	rc = sim_exec(&lay, &cost, &tl, loss, grads, params);
	sim_timeline_free(&tl);
	return rc;
}

int
sim_run(const struct sim_config *cfg, struct sim_result *res,
    struct pl_err *err)
{
	double ref_g[SIM_NPARAMS], ref_p[SIM_NPARAMS];
	struct sim_layout lay;
	double ref_loss;

	memset(res, 0, sizeof *res);
	if (sim_config_check(cfg, err) != 0)
		return -1;
	layout_of(cfg, &lay);
	if (sim_timeline_init(&res->tl, lay.d * lay.p * lay.t) != 0 ||
	    sim_exec(&lay, &cfg->cost, &res->tl, &res->loss, res->grads,
	    res->params) != 0 || sim_timeline_finish(&res->tl) != 0 ||
	    reference(&ref_loss, ref_g, ref_p) != 0) {
		sim_result_free(res);
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	res->dp = lay.d;
	res->tp = lay.t;
	res->pp = lay.p;
	res->max_grad_error = max_diff(res->grads, ref_g, SIM_NPARAMS);
	res->max_param_error = max_diff(res->params, ref_p, SIM_NPARAMS);
	res->bubble = sim_timeline_bubble(&res->tl);
	res->bubble_formula = lay.p > 1 ?
	    pipe_bubble_fraction(lay.p, lay.m, lay.v) : 0.0;
	res->bytes_moved = sim_timeline_bytes(&res->tl);
	res->step_time = res->tl.t_end;
	return 0;
}

void
sim_result_free(struct sim_result *res)
{
	if (res != NULL)
		sim_timeline_free(&res->tl);
}
