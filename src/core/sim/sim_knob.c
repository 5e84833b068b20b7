/*
 * sim_knob.c - stepping a config's settings to their next valid values,
 * and choosing the run to compare a config with.
 */
#include <stdio.h>

#include "i18n.h"
#include "core/sim/sim_knob.h"

/* The router bias the r knob and ep's compare give: every token picks
 * expert 0 (logits are of order one). */
#define SIM_KNOB_SKEW	8

int
sim_mode_default_gpus(enum sim_mode mode)
{
	return mode == SIM_SINGLE ? 1 : mode == SIM_3D ? 8 : 4;
}

static int
valid(const struct sim_config *cfg)
{
	return sim_config_check(cfg, NULL) == 0;
}

/* Step *field by dir within [lo, hi] until cfg is valid. */
static int
step_int(struct sim_config *cfg, int *field, int dir, int lo, int hi)
{
	int old = *field;

	for (*field += dir; *field >= lo && *field <= hi; *field += dir)
		if (valid(cfg))
			return 1;
	*field = old;
	return 0;
}

static int
turn_mode(struct sim_config *cfg, int dir)
{
	struct sim_config c = *cfg;
	int m = (int)cfg->mode;

	m = ((m + (dir > 0 ? 1 : -1)) % SIM_NMODES + SIM_NMODES) % SIM_NMODES;
	sim_config_default(&c, (enum sim_mode)m,
	    sim_mode_default_gpus((enum sim_mode)m));
	c.compute_only = cfg->compute_only;
	c.cost = cfg->cost;
	*cfg = c;
	return 1;
}

static int
turn_schedule(struct sim_config *cfg, int dir)
{
	struct sim_config c = *cfg;
	int i, k = (int)cfg->schedule;

	if (cfg->mode != SIM_PP && cfg->mode != SIM_3D &&
	    !(cfg->mode == SIM_EP && cfg->pp > 1))
		return 0;
	for (i = 1; i < PIPE_N_SCHEDULES; i++) {
		c.schedule = (enum pipe_schedule)(((k + (dir > 0 ? i : -i)) %
		    PIPE_N_SCHEDULES + PIPE_N_SCHEDULES) % PIPE_N_SCHEDULES);
		c.vstages = c.schedule == PIPE_INTERLEAVED ? 2 : 1;
		if (valid(&c)) {
			*cfg = c;
			return 1;
		}
	}
	return 0;
}

/* Flip a 0/1 setting if the result is valid. */
static int
toggle(struct sim_config *cfg, int *field)
{
	*field = !*field;
	if (valid(cfg))
		return 1;
	*field = !*field;
	return 0;
}

int
sim_config_turn(struct sim_config *cfg, enum sim_knob knob, int dir,
    int max_gpus)
{
	dir = dir >= 0 ? 1 : -1;
	switch (knob) {
	case SIM_KNOB_MODE:
		return turn_mode(cfg, dir);
	case SIM_KNOB_GPUS:
		if (cfg->mode == SIM_SINGLE || cfg->mode == SIM_3D)
			return 0;
		return step_int(cfg, &cfg->gpus, dir, 2, max_gpus);
	case SIM_KNOB_MICROBATCHES:
		return step_int(cfg, &cfg->microbatches, dir, 1, SIM_BATCH);
	case SIM_KNOB_SCHEDULE:
		return turn_schedule(cfg, dir);
	case SIM_KNOB_VSTAGES:
		if (cfg->schedule != PIPE_INTERLEAVED)
			return 0;
		return step_int(cfg, &cfg->vstages, dir, 2, SIM_LAYERS);
	case SIM_KNOB_SP:
		return toggle(cfg, &cfg->seq_parallel);
	case SIM_KNOB_OVERLAP:
		return toggle(cfg, &cfg->overlap);
	case SIM_KNOB_COMPUTE_ONLY:
		return toggle(cfg, &cfg->compute_only);
	case SIM_KNOB_TP:
		if (cfg->mode != SIM_CP)
			return 0;
		if (cfg->tp < 1)
			cfg->tp = 1;
		return step_int(cfg, &cfg->tp, dir, 1, SIM_HEADS);
	case SIM_KNOB_EP:
		if (cfg->mode != SIM_EP)
			return 0;
		if (cfg->ep < 1)
			cfg->ep = cfg->gpus / (cfg->pp > 1 ? cfg->pp : 1);
		return step_int(cfg, &cfg->ep, dir, 1, SIM_MAX_GPUS);
	case SIM_KNOB_PP:
		if (cfg->mode != SIM_EP)
			return 0;
		if (cfg->pp < 1)
			cfg->pp = 1;
		cfg->ep = 0;	/* EP follows: every DP rank of a stage */
		return step_int(cfg, &cfg->pp, dir, 1, SIM_LAYERS);
	case SIM_KNOB_ROUTER:
		if (cfg->mode != SIM_EP)
			return 0;
		cfg->moe.router_bias = cfg->moe.router_bias > 0 ? 0 :
		    SIM_KNOB_SKEW;
		return 1;
	}
	return 0;
}

int
sim_config_compare(const struct sim_config *cfg, struct sim_config *other)
{
	*other = *cfg;
	switch (cfg->mode) {
	case SIM_PP:
	case SIM_3D:
		other->schedule = cfg->schedule == PIPE_GPIPE ? PIPE_1F1B :
		    cfg->schedule == PIPE_1F1B ? PIPE_GPIPE : PIPE_1F1B;
		other->vstages = 1;
		break;
	case SIM_DP:
	case SIM_FSDP:
		other->overlap = !cfg->overlap;
		break;
	case SIM_CP:
		/* the same GPUs with TP 2 in each CP rank, or without it;
		 * where that leaves no CP ring, without overlap */
		other->tp = cfg->tp > 1 ? 1 : 2;
		if (valid(other))
			return 0;
		other->tp = cfg->tp;
		other->overlap = !cfg->overlap;
		break;
	case SIM_TP:
		other->seq_parallel = !cfg->seq_parallel;
		break;
	case SIM_EP:
		/* stages under ZB-H1 or DualPipe: against 1F1B */
		if (cfg->pp > 1 && (cfg->schedule == PIPE_ZB_H1 ||
		    cfg->schedule == PIPE_DUALPIPE)) {
			other->schedule = PIPE_1F1B;
			other->vstages = 1;
			break;
		}
		/* the router balanced against imbalanced: the straggler */
		other->moe.router_bias = cfg->moe.router_bias > 0 ? 0 :
		    SIM_KNOB_SKEW;
		break;
	default:
		return -1;
	}
	return valid(other) ? 0 : -1;
}

int
sim_config_same(const struct sim_config *a, const struct sim_config *b)
{
	return a->mode == b->mode && a->gpus == b->gpus &&
	    a->microbatches == b->microbatches && a->schedule == b->schedule &&
	    a->vstages == b->vstages && a->seq_parallel == b->seq_parallel &&
	    a->overlap == b->overlap && a->compute_only == b->compute_only &&
	    (a->tp > 1 ? a->tp : 1) == (b->tp > 1 ? b->tp : 1) &&
	    a->moe.experts == b->moe.experts && a->moe.top_k == b->moe.top_k &&
	    a->moe.shared == b->moe.shared &&
	    a->moe.router_bias == b->moe.router_bias &&
	    (a->ep > 0 ? a->ep : a->gpus) == (b->ep > 0 ? b->ep : b->gpus) &&
	    (a->pp > 1 ? a->pp : 1) == (b->pp > 1 ? b->pp : 1);
}

int
sim_knob_applies(const struct sim_config *cfg, enum sim_knob knob)
{
	enum sim_mode m = cfg->mode;
	int pipe = m == SIM_PP || m == SIM_3D || (m == SIM_EP && cfg->pp > 1);

	switch (knob) {
	case SIM_KNOB_MODE:
	case SIM_KNOB_MICROBATCHES:
		return 1;
	case SIM_KNOB_GPUS:
		return m != SIM_SINGLE && m != SIM_3D;
	case SIM_KNOB_SCHEDULE:
		return pipe;
	case SIM_KNOB_VSTAGES:
		return pipe && cfg->schedule == PIPE_INTERLEAVED;
	case SIM_KNOB_SP:
		return m == SIM_TP || m == SIM_3D;
	case SIM_KNOB_OVERLAP:
		return m == SIM_DP || m == SIM_FSDP || m == SIM_3D ||
		    m == SIM_CP || m == SIM_EP;
	case SIM_KNOB_COMPUTE_ONLY:
		return m != SIM_SINGLE;
	case SIM_KNOB_TP:
		return m == SIM_CP;
	case SIM_KNOB_EP:
	case SIM_KNOB_ROUTER:
	case SIM_KNOB_PP:
		return m == SIM_EP;
	}
	return 0;
}

const char *
sim_knob_value(const struct sim_config *c, enum sim_knob knob, char *buf,
    size_t size)
{
	switch (knob) {
	case SIM_KNOB_MODE:
		snprintf(buf, size, "%s", sim_mode_name(c->mode));
		break;
	case SIM_KNOB_GPUS:
		snprintf(buf, size, P_("%d GPU", "%d GPUs", c->gpus), c->gpus);
		break;
	case SIM_KNOB_MICROBATCHES:
		snprintf(buf, size, _("%d mb"), c->microbatches);
		break;
	case SIM_KNOB_SCHEDULE:
		snprintf(buf, size, "%s", pipe_schedule_name(c->schedule));
		break;
	case SIM_KNOB_VSTAGES:
		snprintf(buf, size, _("%d chunks"), c->vstages);
		break;
	case SIM_KNOB_SP:
		snprintf(buf, size, "%s", c->seq_parallel ? _("SP on") :
		    _("SP off"));
		break;
	case SIM_KNOB_OVERLAP:
		snprintf(buf, size, "%s", c->overlap ? _("overlap on") :
		    _("overlap off"));
		break;
	case SIM_KNOB_COMPUTE_ONLY:
		snprintf(buf, size, "%s", c->compute_only ?
		    _("transfers free") : _("transfers on"));
		break;
	case SIM_KNOB_TP:
		snprintf(buf, size, _("TP %d"), c->tp > 1 ? c->tp : 1);
		break;
	case SIM_KNOB_EP:
		snprintf(buf, size, _("EP %d"), c->ep > 0 ? c->ep :
		    c->gpus / (c->pp > 1 ? c->pp : 1));
		break;
	case SIM_KNOB_PP:
		snprintf(buf, size, _("PP %d"), c->pp > 1 ? c->pp : 1);
		break;
	case SIM_KNOB_ROUTER:
		snprintf(buf, size, "%s", c->moe.router_bias > 0 ?
		    _("router skewed") : _("router even"));
		break;
	default:
		snprintf(buf, size, "?");
	}
	return buf;
}
