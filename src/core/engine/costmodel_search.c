/*
 * costmodel_search.c - every valid layout for a model, cluster and global
 * batch, ranked by step time among those that fit.
 *
 * Enumerated: TP a power of two up to 8 GPUs per node (reference j: TP
 * beyond a node is allowed but pays inter-node bandwidth), dividing the
 * heads and the GPUs; PP dividing GPUs / TP and the layers (up to 2 short,
 * see cm_stage_layers); DP the rest; micro-batch 1, 2, 4, 8; ZeRO 0-3;
 * recompute none, selective, full; SP off and on (TP > 1); schedule 1F1B,
 * and interleaved with v = 2, 3, 4, 6, 8 when PP > 1. Nothing is allocated
 * per layout: each is evaluated into one scratch result and copied into
 * the kept list only if it ranks. Of the layouts sharing (d, t, p, b,
 * schedule, v), only the fastest (then smallest) is kept, so the list shows
 * different layouts rather than the same one with ZeRO 0 and 1.
 */
#include <string.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

static int
same_layout(const struct cm_config *a, const struct cm_config *b)
{
	return a->dp == b->dp && a->tp == b->tp && a->pp == b->pp &&
	    a->micro_batch == b->micro_batch && a->schedule == b->schedule &&
	    a->virtual_stages == b->virtual_stages;
}

static int
better(const struct cm_result *a, const struct cm_result *b)
{
	if (a->t_step < b->t_step * (1 - 1e-9))
		return 1;
	if (a->t_step > b->t_step * (1 + 1e-9))
		return 0;
	return a->mem_total < b->mem_total;
}

/* Insert r into the sorted top list of at most max entries. */
static void
keep(struct cm_search *s, int max, const struct cm_result *r)
{
	int i, pos;

	for (i = 0; i < s->n_top; i++) {
		if (!same_layout(&s->top[i].cfg, &r->cfg))
			continue;
		if (!better(r, &s->top[i]))
			return;
		memmove(&s->top[i], &s->top[i + 1],
		    (size_t)(s->n_top - i - 1) * sizeof s->top[0]);
		s->n_top--;
		break;
	}
	for (pos = s->n_top; pos > 0 && better(r, &s->top[pos - 1]); pos--)
		;
	if (pos >= max)
		return;
	if (s->n_top == max)
		s->n_top--;
	memmove(&s->top[pos + 1], &s->top[pos],
	    (size_t)(s->n_top - pos) * sizeof s->top[0]);
	s->top[pos] = *r;
	s->n_top++;
}

static void
try_one(struct cm_search *s, int max, const struct cm_config *c,
    struct cm_result *scratch)
{
	if (cm_valid_quick(c) != 0)
		return;
	cm_evaluate_quick(c, scratch);
	s->evaluated++;
	if (scratch->fits) {
		s->fitting++;
		keep(s, max, scratch);
	} else if (s->fitting == 0 && (!s->have_closest ||
	    scratch->mem_total - scratch->mem_usable <
	    s->closest.mem_total - s->closest.mem_usable)) {
		s->closest = *scratch;
		s->have_closest = 1;
	}
}

/* The knobs that do not change the shape: ZeRO, recompute, SP, b. */
static void
try_knobs(struct cm_search *s, int max, struct cm_config *c,
    struct cm_result *scratch)
{
	static const int mbs[] = { 1, 2, 4, 8 };
	size_t i;
	int z, rc, sp;

	for (i = 0; i < sizeof mbs / sizeof mbs[0]; i++) {
		c->micro_batch = mbs[i];
		if (c->global_batch % ((long)c->micro_batch * c->dp) != 0)
			continue;
		for (z = 0; z <= 3; z++)
			for (rc = 0; rc <= 2; rc++)
				for (sp = 0; sp <= (c->tp > 1); sp++) {
					c->zero = z;
					c->recompute = (enum cm_recompute)rc;
					c->seq_parallel = sp;
					try_one(s, max, c, scratch);
				}
	}
}

static void
try_schedules(struct cm_search *s, int max, struct cm_config *c,
    struct cm_result *scratch)
{
	static const int vs[] = { 2, 3, 4, 6, 8 };
	size_t i;

	c->schedule = PIPE_1F1B;
	c->virtual_stages = 1;
	try_knobs(s, max, c, scratch);
	if (c->pp < 2)
		return;
	c->schedule = PIPE_INTERLEAVED;
	for (i = 0; i < sizeof vs / sizeof vs[0]; i++) {
		if (c->pp * vs[i] > c->model.layers)
			break;
		c->virtual_stages = vs[i];
		try_knobs(s, max, c, scratch);
	}
}

int
cm_search(const struct cm_config *base, int max, struct cm_search *s,
    struct pl_err *err)
{
	struct cm_config c = *base;
	struct cm_result scratch;
	int t, p, i;

	memset(s, 0, sizeof *s);
	if (max < 1 || max > CM_SEARCH_MAX)
		max = CM_SEARCH_MAX;
	if (c.gpus < 1 || c.gpus_per_node < 1 || c.global_batch < 1 ||
	    c.gpu.peak_flops <= 0 || c.intra_bw <= 0 || c.inter_bw <= 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("GPUs, GPUs per node, "
		    "global batch and bandwidths must be positive"));
		return -1;
	}
	scratch.cfg = c;
	scratch.cfg.micro_batch = 1;	/* the search picks it */
	if (cm_check_ranges(&scratch.cfg, err) != 0)
		return -1;
	if (hw_model_check(&c.model, err) != 0)
		return -1;
	for (t = 1; t <= 8 * c.gpus_per_node && t <= c.gpus; t *= 2) {
		if (c.gpus % t != 0)
			break;
		for (p = 1; p <= c.gpus / t && p <= c.model.layers; p++) {
			if ((c.gpus / t) % p != 0)
				continue;
			c.tp = t;
			c.pp = p;
			c.dp = c.gpus / (t * p);
			try_schedules(s, max, &c, &scratch);
		}
	}
	for (i = 0; i < s->n_top; i++)
		cm_explain(&s->top[i]);
	if (s->have_closest)
		cm_explain(&s->closest);
	return 0;
}
