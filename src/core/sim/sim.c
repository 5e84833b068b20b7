/*
 * sim.c - the simulator's front: mode names, the cost constants, the
 * layout a config asks for, and sim_run, which runs a mode next to the
 * single-device reference and measures the result.
 *
 * The cost constants (sim_cost_default, documented in sim.h) make every
 * toy operation take as long as the same operation of the model scaled up
 * 512 times would take on an H100 node, so that the Gantt chart shows the
 * proportions of a real step: pipeline sends are a few per cent of a
 * stage's compute, TP's all-reduces more than ten, a DP bucket a small
 * fraction of a layer's backward. They teach shape, not absolute speed;
 * the cost model (core/engine) predicts real steps.
 */
#include <math.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/sim.h"
#include "core/sim/sim_modes.h"

/* A toy byte is SIM_SCALE^2 elements of 2 bytes for 8 bytes here. */
#define BYTE_SCALE	((double)SIM_SCALE * SIM_SCALE / 4.0)
#define FLOP_SCALE	((double)SIM_SCALE * SIM_SCALE * SIM_SCALE)

static const char *const mode_names[SIM_NMODES] = {
	"single", "dp", "tp", "pp", "fsdp", "3d", "cp", "ep"
};

const char *
sim_mode_name(enum sim_mode m)
{
	return ((int)m >= 0 && (int)m < SIM_NMODES) ? mode_names[m] : "?";
}

int
sim_mode_parse(const char *s, enum sim_mode *m)
{
	int i;

	for (i = 0; s != NULL && i < SIM_NMODES; i++)
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

	c.flops = 769e12 / FLOP_SCALE;
	c.alpha_intra = 10e-6;
	c.bw_intra = 450e9 / BYTE_SCALE;
	c.alpha_inter = 20e-6;
	c.bw_inter = 50e9 / BYTE_SCALE;
	c.gpus_per_node = 8;
	c.adam_s = 28.0 * SIM_SCALE * SIM_SCALE / 3.35e12;
	return c;
}

/* c with every transfer free. */
static struct sim_cost
free_transfers(struct sim_cost c)
{
	c.alpha_intra = c.alpha_inter = 0.0;
	c.bw_intra = c.bw_inter = INFINITY;
	return c;
}

struct sim_cost
sim_cost_compute_only(void)
{
	return free_transfers(sim_cost_default());
}

struct sim_cost
sim_config_cost(const struct sim_config *cfg)
{
	return cfg->compute_only ? free_transfers(cfg->cost) : cfg->cost;
}

static int
gcd(int a, int b)
{
	return b == 0 ? a : gcd(b, a % b);
}

void
sim_layout_of(const struct sim_config *cfg, struct sim_layout *lay)
{
	int n = cfg->mode == SIM_SINGLE ? 1 : cfg->gpus;

	memset(lay, 0, sizeof *lay);
	lay->d = lay->p = lay->t = lay->v = lay->c = 1;
	lay->m = cfg->microbatches;
	lay->kind = cfg->schedule;
	lay->sp = cfg->seq_parallel;
	lay->overlap = cfg->overlap;
	switch (cfg->mode) {
	case SIM_DP:
		lay->d = n;
		break;
	case SIM_FSDP:
		lay->d = n;
		lay->zero3 = 1;
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
		lay->v = cfg->vstages;
		break;
	case SIM_CP:
		/* TP inside each CP rank if asked; CP as wide as the toy's
		 * sequence allows (two positions a GPU at least), the other
		 * GPUs DP replicas of that group */
		lay->t = cfg->tp > 1 ? cfg->tp : 1;
		lay->d = n / lay->t;
		lay->c = gcd(lay->d, SIM_SEQ / 2);
		break;
	case SIM_EP:
		/* EP ranks from the DP ranks of each stage (Megatron-Core) */
		lay->p = cfg->pp > 1 ? cfg->pp : 1;
		lay->v = cfg->vstages;
		lay->d = n / lay->p;
		lay->e = cfg->ep > 0 ? cfg->ep : lay->d;
		break;
	case SIM_SINGLE:
		break;
	}
	lay->moe = cfg->moe;
	if (lay->e < 1)
		lay->e = 1;
	if (lay->kind == PIPE_INTERLEAVED && lay->v == 1)
		lay->kind = PIPE_1F1B;
	lay->dual = lay->kind == PIPE_DUALPIPE;
	mesh_init(&lay->mesh, cfg->cost.gpus_per_node);
	lay->mesh.degree[MESH_DP] = lay->d / lay->c;
	lay->mesh.degree[MESH_CP] = lay->c;
	lay->mesh.degree[MESH_PP] = lay->p;
	lay->mesh.degree[MESH_TP] = lay->t;
	lay->lps = SIM_LAYERS / (lay->p * lay->v);
	lay->b = lay->m > 0 ? SIM_BATCH / (lay->d / lay->c * lay->m) : 0;
}

const char *
sim_bubble_formula_text(const struct sim_result *r)
{
	if (r->schedule == PIPE_ZB_H1)
		return "(p-1)(F+B-2W)";
	if (r->schedule == PIPE_DUALPIPE)
		return "(p/2-1)(F&B+B-3W)";
	return "(p-1)/(v*m+p-1)";
}

/*
 * The bubble share the schedule's formula gives for lay, with F, B and W
 * of one layer from its FLOPs (sched_bubble_share). A MoE layer's W is
 * its attention's (the experts keep their products in B).
 */
double
sim_layout_bubble_formula(const struct sim_layout *lay)
{
	struct sim_shape sh = { lay->b, lay->t, lay->sp, lay->c };
	int dense = lay->moe.experts == 0, T = sim_shape_tokens(&sh);
	double f = sim_flops_attn(&sh) + (dense ? sim_flops_mlp(&sh) :
	    sim_moe_flops_local(&lay->moe, T) +
	    sim_moe_flops_expert(&lay->moe, T * lay->moe.top_k));

	if (lay->p < 2 || lay->b < 1)
		return 0.0;
	return sched_bubble_share(lay->kind, lay->p, lay->m, lay->v,
	    sim_flops_weights(&sh, dense) / f);
}

double
sim_max_diff(const double *a, const double *b, size_t n)
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
reference(const struct sim_moe *moe, double *loss, double *grads,
    double *params)
{
	struct sim_config cfg;
	struct sim_layout lay;
	struct sim_timeline tl;
	struct sim_cost cost = sim_cost_default();
	int rc;

	sim_config_default(&cfg, SIM_SINGLE, 1);
	cfg.moe = *moe;
	sim_layout_of(&cfg, &lay);
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
	struct sim_cost cost = sim_config_cost(cfg);
	struct sim_layout lay;
	double ref_loss;

	memset(res, 0, sizeof *res);
	if (sim_config_check(cfg, err) != 0)
		return -1;
	sim_layout_of(cfg, &lay);
	if (sim_timeline_init(&res->tl, lay.d * lay.p * lay.t) != 0 ||
	    sim_exec(&lay, &cost, &res->tl, &res->loss, res->grads,
	    res->params) != 0 || sim_timeline_finish(&res->tl) != 0 ||
	    reference(&cfg->moe, &ref_loss, ref_g, ref_p) != 0) {
		sim_result_free(res);
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	res->dp = lay.d / lay.c;
	res->cp = lay.c;
	res->tp = lay.t;
	res->pp = lay.p;
	res->v = lay.v;
	res->schedule = lay.kind;
	res->ep = lay.e;
	res->moe = lay.moe;
	res->max_loss_error = fabs(res->loss - ref_loss);
	res->max_grad_error = sim_max_diff(res->grads, ref_g, SIM_NPARAMS);
	res->max_param_error = sim_max_diff(res->params, ref_p, SIM_NPARAMS);
	res->bubble = sim_timeline_bubble(&res->tl);
	res->bubble_formula = sim_layout_bubble_formula(&lay);
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
