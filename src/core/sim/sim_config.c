/*
 * sim_config.c - the one place a simulator config is made and checked:
 * the defaults of every mode, what a request (trace's options, an
 * animation block's keys) changes, and the rules a layout must keep to
 * fit the toy (heads, layers, batch).
 */
#include <string.h>

#include "i18n.h"
#include "core/sim/sim.h"
#include "core/sim/sim_keys.h"
#include "core/sim/sim_modes.h"

static int
default_gpus(enum sim_mode mode)
{
	return mode == SIM_SINGLE ? 1 : mode == SIM_3D ? 8 : 4;
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
	cfg->overlap = 1;
	cfg->cost = sim_cost_default();
	if (mode == SIM_EP) {
		/* Mixtral's 8 experts, top-2, scaled to the toy */
		cfg->moe.experts = 8;
		cfg->moe.top_k = 2;
	}
}

/* The words of a setting, "gpipe, 1f1b or interleaved" (sim_keys.c). */
static const char *
words(const char *key, char *buf, size_t size)
{
	return sim_key_words(sim_key_find(key), NULL, buf, size);
}

int
sim_config_build(const struct sim_request *req, struct sim_config *cfg,
    struct pl_err *err)
{
	enum sim_mode mode = SIM_PP;
	char w[128];

	if (req->mode != NULL && sim_mode_parse(req->mode, &mode) != 0) {
		pl_err_set(err, NULL, 0, 0, _("unknown mode '%s' (%s)"),
		    req->mode, words("mode", w, sizeof w));
		return -1;
	}
	sim_config_default(cfg, mode, default_gpus(mode));
	if (req->gpus > 0 && mode != SIM_SINGLE)
		cfg->gpus = req->gpus;
	if (req->microbatches > 0)
		cfg->microbatches = req->microbatches;
	if (req->schedule != NULL && pipe_schedule_parse(req->schedule,
	    &cfg->schedule) != 0) {
		pl_err_set(err, NULL, 0, 0, _("unknown schedule '%s' (%s)"),
		    req->schedule, words("schedule", w, sizeof w));
		return -1;
	}
	if (req->vstages > 0)
		cfg->vstages = req->vstages;
	else if (cfg->schedule == PIPE_INTERLEAVED &&
	    (mode == SIM_PP || mode == SIM_3D ||
	    (mode == SIM_EP && req->pp > 1)))
		cfg->vstages = 2;
	cfg->seq_parallel = req->seq_parallel != 0;
	cfg->overlap = req->no_overlap == 0;
	cfg->compute_only = req->compute_only != 0;
	cfg->tp = req->tp;
	cfg->moe.experts = req->moe > 0 ? req->moe : mode == SIM_EP ? 8 : 0;
	cfg->moe.top_k = req->top_k > 0 ? req->top_k :
	    cfg->moe.experts > 1 ? 2 : cfg->moe.experts;
	cfg->moe.shared = req->shared_expert != 0;
	cfg->moe.router_bias = req->router_bias;
	cfg->ep = req->ep;
	cfg->pp = req->pp;
	if (mode == SIM_EP && cfg->pp > 1 && req->microbatches == 0)
		cfg->microbatches = 2 * cfg->pp;
	return sim_config_check(cfg, err);
}

static int
check_pipeline(const struct sim_config *cfg, const struct sim_layout *lay,
    struct pl_err *err)
{
	if (cfg->vstages > 1 && cfg->schedule != PIPE_INTERLEAVED) {
		pl_err_set(err, NULL, 0, 0, "%s", _("virtual stages need the "
		    "interleaved schedule"));
		return -1;
	}
	if (cfg->schedule == PIPE_DUALPIPEV) {
		pl_err_set(err, NULL, 0, 0, "%s", _("the simulator does not "
		    "run DualPipeV; it runs DualPipe (the engine prices both: "
		    "parlearn plan --schedule dualpipev)"));
		return -1;
	}
	if (cfg->schedule == PIPE_DUALPIPE && lay->p < 2) {
		pl_err_set(err, NULL, 0, 0, "%s", _("DualPipe needs pipeline "
		    "stages: modes pp and 3d, or ep with --pp"));
		return -1;
	}
	if (cfg->schedule == PIPE_DUALPIPE && (lay->p % 2 != 0 ||
	    lay->m % 2 != 0 || lay->m < 2 * lay->p)) {
		pl_err_set(err, NULL, 0, 0, _("DualPipe needs an even number "
		    "of stages and an even number of micro-batches, at least "
		    "twice the stages (%d stages, %d micro-batches)"), lay->p,
		    lay->m);
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
		    "micro-batches (%d) to be a multiple of the stages (%d)"),
		    lay->m, lay->p);
		return -1;
	}
	return 0;
}

static int
check_tensor(const struct sim_config *cfg, const struct sim_layout *lay,
    struct pl_err *err)
{
	if (SIM_HEADS % lay->t != 0) {
		pl_err_set(err, NULL, 0, 0, _("tensor parallelism over %d "
		    "devices does not divide the model's %d attention heads"),
		    lay->t, SIM_HEADS);
		return -1;
	}
	if (cfg->seq_parallel && lay->t < 2) {
		pl_err_set(err, NULL, 0, 0, "%s", _("sequence parallelism "
		    "splits a tensor-parallel group: it needs tp or 3d"));
		return -1;
	}
	if (cfg->seq_parallel && SIM_SEQ % lay->t != 0) {
		pl_err_set(err, NULL, 0, 0, _("sequence parallelism over %d "
		    "devices does not divide the %d positions"), lay->t,
		    SIM_SEQ);
		return -1;
	}
	return 0;
}

/* CP cuts each sequence into 2c load-balanced chunks (sim_layout_of). */
static int
check_context(const struct sim_config *cfg, const struct sim_layout *lay,
    struct pl_err *err)
{
	if (cfg->mode != SIM_CP)
		return 0;
	if (lay->t > 1 && lay->c < 2) {
		pl_err_set(err, NULL, 0, 0, _("cp with tp %d needs at least 2 "
		    "CP ranks of %d GPUs each: %d GPUs, not %d"), lay->t,
		    lay->t, 2 * lay->t, cfg->gpus);
		return -1;
	}
	if (lay->c < 2) {
		pl_err_set(err, NULL, 0, 0, _("cp gives each GPU 2 chunks of "
		    "a sequence's %d positions: it runs on an even number of "
		    "GPUs, not %d"), SIM_SEQ, cfg->gpus);
		return -1;
	}
	if (cfg->seq_parallel) {
		pl_err_set(err, NULL, 0, 0, "%s", lay->t > 1 ?
		    _("cp does not combine with sequence parallelism: the "
		    "toy's CP ring needs each rank's whole chunk; use --tp "
		    "without --sequence-parallel") :
		    _("sequence parallelism splits a tensor-parallel group: "
		    "it needs tp or 3d"));
		return -1;
	}
	return 0;
}

/* --tp sets TP inside cp's ranks; tp mode takes its degree from gpus. */
static int
check_cp_tp(const struct sim_config *cfg, struct pl_err *err)
{
	if (cfg->tp < 0 || cfg->tp > SIM_HEADS) {
		pl_err_set(err, NULL, 0, 0, _("tp must be between 1 and %d "
		    "(the heads), not %d"), SIM_HEADS, cfg->tp);
		return -1;
	}
	if (cfg->tp > 1 && cfg->mode != SIM_CP) {
		pl_err_set(err, NULL, 0, 0, _("tp %d splits each CP rank: it "
		    "needs mode cp (tp mode takes its degree from the GPUs)"),
		    cfg->tp);
		return -1;
	}
	if (cfg->tp > 1 && cfg->gpus % cfg->tp != 0) {
		pl_err_set(err, NULL, 0, 0, _("tp %d does not divide the %d "
		    "GPUs"), cfg->tp, cfg->gpus);
		return -1;
	}
	return 0;
}

int
sim_config_check(const struct sim_config *cfg, struct pl_err *err)
{
	struct sim_layout lay;

	if ((int)cfg->mode < 0 || (int)cfg->mode >= SIM_NMODES) {
		pl_err_set(err, NULL, 0, 0, "%s", _("unknown mode"));
		return -1;
	}
	if (cfg->gpus < 1 || cfg->gpus > SIM_MAX_GPUS) {
		pl_err_set(err, NULL, 0, 0, _("the number of GPUs must be "
		    "between 1 and %d, not %d"), SIM_MAX_GPUS, cfg->gpus);
		return -1;
	}
	if (cfg->mode == SIM_3D && cfg->gpus != 8) {
		pl_err_set(err, NULL, 0, 0, _("3d runs DP x TP x PP = 2 x 2 x 2 "
		    "and needs 8 GPUs, not %d"), cfg->gpus);
		return -1;
	}
	/* Bounded before any product of them can overflow. */
	if (cfg->microbatches < 1 || cfg->microbatches > SIM_BATCH ||
	    cfg->vstages < 1 || cfg->vstages > SIM_LAYERS) {
		pl_err_set(err, NULL, 0, 0, _("micro-batches must be between 1 "
		    "and %d (the sequences in the batch) and virtual stages "
		    "between 1 and %d (the layers)"), SIM_BATCH, SIM_LAYERS);
		return -1;
	}
	if (check_cp_tp(cfg, err) != 0 || sim_check_moe(cfg, err) != 0)
		return -1;
	sim_layout_of(cfg, &lay);
	if (check_tensor(cfg, &lay, err) != 0 ||
	    check_pipeline(cfg, &lay, err) != 0)
		return -1;
	if (check_context(cfg, &lay, err) != 0)
		return -1;
	if (SIM_BATCH % (lay.d / lay.c * lay.m) != 0) {
		pl_err_set(err, NULL, 0, 0, _("%d replicas x %d micro-batches "
		    "do not divide the batch of %d sequences"), lay.d / lay.c,
		    lay.m, SIM_BATCH);
		return -1;
	}
	return 0;
}
