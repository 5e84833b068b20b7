/*
 * costmodel_search.c - every valid layout for a model, cluster and global
 * batch, ranked by step time among those a team could run.
 *
 * Enumerated: TP a power of two up to 8 GPUs per node (reference j: TP
 * beyond a node is allowed but pays inter-node bandwidth; cfg.tp_in_node
 * keeps every TP group in one node, layout_grid.c), dividing the
 * heads and the GPUs; PP dividing GPUs / TP and the layers (up to 2 short,
 * see cm_stage_layers); DP the rest; micro-batch 1, 2, 4, 8; ZeRO 0-3;
 * for ZeRO 3 reshard after forward on and off and HSDP off and on; for a
 * mixture of experts EP 1, 2, 4, ... dividing the experts and DP x CP;
 * recompute none, selective, full; SP off and on (TP > 1); schedule 1F1B,
 * and interleaved with v = 2, 3, 4, 6, 8 when PP > 1 (with any_framework
 * also ZB-H1, and DualPipe for an even PP, which no framework runs:
 * costmodel_sched.c); and the caller's own
 * layout when it lies outside that grid (a GPipe schedule, micro-batch 16
 * ...), so the search's best is never slower than the layout it started
 * from. A knob in cfg.search_keep is held as set (plan holds the ones the
 * user gave); nothing else in the configuration is varied.
 *
 * Ranked ("eligible"): layouts that fit, keep cfg.headroom of the GPU's
 * memory free (issue 12 section 4: jobs fail on fragmentation and buffers
 * long before the last byte), and that some framework runs (framework.h),
 * unless cfg.any_framework. Of the layouts sharing (d, t, p, b, schedule,
 * v) only the fastest (then smallest) is kept, so the list shows different
 * layouts rather than the same one with ZeRO 0 and 1. Step times within
 * CM_TIE_TOL of a tier's first row share its rank: the model is not
 * precise to 3 %, so it does not pretend to order them.
 *
 * Nothing is allocated per layout: each is evaluated into one scratch
 * result and copied into the kept list only if it ranks.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"

static const int search_mbs[] = { 1, 2, 4, 8 };
static const int search_vs[] = { 2, 3, 4, 6, 8 };
#define N_MBS	(int)(sizeof search_mbs / sizeof search_mbs[0])
#define N_VS	(int)(sizeof search_vs / sizeof search_vs[0])

int
cm_same_shape(const struct cm_config *a, const struct cm_config *b)
{
	return a->dp == b->dp && a->tp == b->tp && a->pp == b->pp &&
	    a->micro_batch == b->micro_batch && a->schedule == b->schedule &&
	    a->virtual_stages == b->virtual_stages &&
	    a->framework == b->framework;
}

enum cm_exclusion
cm_search_excluded(const struct cm_result *r)
{
	if (!r->valid)
		return CM_EX_INVALID;
	if (!r->fits)
		return CM_EX_FIT;
	if (r->headroom < r->cfg.headroom - 1e-12)
		return CM_EX_HEADROOM;
	if (!r->cfg.any_framework && (r->frameworks == 0 ||
	    (r->cfg.framework != CM_FW_AUTO &&
	    !(r->frameworks & FW_BIT(r->cfg.framework - 1)))))
		return CM_EX_FRAMEWORK;
	return CM_EX_NONE;
}

char *
cm_search_why_excluded(const struct cm_result *r, char *buf, size_t size)
{
	char fw[CM_REASON_LEN];

	if (size == 0)
		return buf;
	buf[0] = '\0';
	switch (cm_search_excluded(r)) {
	case CM_EX_INVALID:
		snprintf(buf, size, "%s", _("not a valid layout"));
		break;
	case CM_EX_FIT:
		snprintf(buf, size, _("does not fit: needs %.1f GB per GPU, "
		    "%.1f GB usable"), r->mem_total / 1e9, r->mem_usable / 1e9);
		break;
	case CM_EX_HEADROOM:
		snprintf(buf, size, _("only %.0f%% of GPU memory stays free; "
		    "the search asks for %.0f%% (headroom)"),
		    100 * r->headroom, 100 * r->cfg.headroom);
		break;
	case CM_EX_FRAMEWORK:
		if (r->frameworks != 0)
			snprintf(buf, size, _("%s does not run it (it runs on: "
			    "%s)"), fw_label((enum fw_id)(r->cfg.framework - 1)),
			    fw_list_text(r->frameworks, fw, sizeof fw));
		else
			snprintf(buf, size, _("no framework runs it: %s"),
			    fw_why_none(&r->cfg, fw, sizeof fw));
		break;
	default:
		break;
	}
	return buf;
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
		if (!cm_same_shape(&s->top[i].cfg, &r->cfg))
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

/*
 * Which of two excluded layouts is nearer to being ranked, for the closest
 * one when none is: one that fits and a framework runs (short of
 * headroom only), then one that fits, then the rest; within a class, the
 * fewer bytes above the headroom line.
 */
static int
excl_class(const struct cm_result *r)
{
	if (!r->fits)
		return 2;
	return r->cfg.any_framework || r->frameworks != 0 ? 0 : 1;
}

static int
closer(const struct cm_result *a, const struct cm_result *b)
{
	double over_a = a->mem_total - a->mem_gpu * (1 - a->cfg.headroom);
	double over_b = b->mem_total - b->mem_gpu * (1 - b->cfg.headroom);

	if (excl_class(a) != excl_class(b))
		return excl_class(a) < excl_class(b);
	return over_a < over_b;
}

/*
 * One row: memory first, and the times only for a row that is ranked or
 * becomes the closest, since most of a large grid does not fit.
 */
static void
try_priced(struct cm_search *s, int max, const struct cm_config *c,
    unsigned priced_as, struct cm_result *scratch)
{
	enum cm_exclusion ex;

	cm_evaluate_memory(c, scratch);
	scratch->priced_as = priced_as;
	s->evaluated++;
	if (scratch->fits)
		s->fitting++;
	ex = cm_search_excluded(scratch);
	if (ex == CM_EX_HEADROOM)
		s->low_headroom++;
	else if (ex == CM_EX_FRAMEWORK)
		s->no_framework++;
	if (ex == CM_EX_NONE) {
		cm_evaluate_time(scratch);
		s->eligible++;
		keep(s, max, scratch);
	} else if (s->eligible == 0 && (!s->have_closest ||
	    closer(scratch, &s->closest))) {
		cm_evaluate_time(scratch);
		s->closest = *scratch;
		s->have_closest = 1;
	}
}

/*
 * A layout priced once per framework that runs it (framework_setup.c);
 * frameworks that price it alike share one row. Under --framework only
 * that one; a layout no framework runs is priced as set.
 */
static void
try_one(struct cm_search *s, int max, struct cm_config *c,
    struct cm_result *scratch)
{
	struct cm_config as_fw[FW_N];
	unsigned bits[FW_N], runs;
	int i, j, n = 0;
	const enum cm_framework chosen = c->framework;

	if (cm_valid_quick(c) != 0)
		return;
	runs = chosen != CM_FW_AUTO ? FW_BIT(chosen - 1) : fw_runs(c);
	if (runs == 0) {
		try_priced(s, max, c, 0, scratch);
		return;
	}
	for (i = 0; i < FW_N; i++) {
		if (!(runs & FW_BIT(i)))
			continue;
		as_fw[n] = *c;
		fw_setup_apply(&as_fw[n], (enum fw_id)i);
		for (j = 0; j < n && !fw_setup_same(&as_fw[j], &as_fw[n]); j++)
			;
		if (j < n)
			bits[j] |= FW_BIT(i);
		else
			bits[n++] = FW_BIT(i);
	}
	for (j = 0; j < n; j++)
		try_priced(s, max, &as_fw[j], bits[j], scratch);
}

/*
 * ZeRO 3's options: bit 0 set = weights kept from forward to backward
 * (reshard_after_forward off), bit 1 = HSDP. Only those that change the
 * result are tried: no reshard matters without PP (with PP the weights
 * stay gathered anyway, costmodel_dp.c), HSDP when the DP group spans
 * nodes.
 */
static void
try_fsdp(struct cm_search *s, int max, struct cm_config *c,
    const struct cm_config *base, struct cm_result *scratch)
{
	struct mesh_span g;
	int f;

	if (c->zero < 3 || (base->search_keep & CM_KEEP_FSDP)) {
		c->reshard_after_forward = base->reshard_after_forward;
		c->hsdp = base->hsdp;
		try_one(s, max, c, scratch);
		return;
	}
	cm_group_of(c, MESH_DP, &g);
	for (f = 0; f < 4; f++) {
		if ((f & 1) && c->pp > 1)
			continue;
		if ((f & 2) && g.nodes < 2)
			continue;
		c->reshard_after_forward = !(f & 1);
		c->hsdp = (f & 2) != 0;
		try_one(s, max, c, scratch);
	}
}

/* Whether knob value v is tried: any, or only base's when kept. */
static int
tried(const struct cm_config *base, unsigned bit, int v, int base_v)
{
	return !(base->search_keep & bit) || v == base_v;
}

/* The knobs that do not change the shape: ZeRO, recompute, SP, b. */
static void
try_knobs(struct cm_search *s, int max, struct cm_config *c,
    const struct cm_config *base, struct cm_result *scratch)
{
	const int keep_mb = (base->search_keep & CM_KEEP_MICRO_BATCH) != 0;
	int i, z, rc, sp;

	for (i = 0; i < (keep_mb ? 1 : N_MBS); i++) {
		c->micro_batch = keep_mb ? base->micro_batch : search_mbs[i];
		if (c->global_batch % ((long)c->micro_batch * c->dp) != 0)
			continue;
		for (z = 0; z <= 3; z++)
			for (rc = 0; rc <= 2; rc++)
				for (sp = 0; sp <= (c->tp > 1); sp++) {
					if (!tried(base, CM_KEEP_ZERO, z,
					    base->zero) || !tried(base,
					    CM_KEEP_RECOMPUTE, rc,
					    (int)base->recompute) ||
					    (c->tp > 1 && !tried(base,
					    CM_KEEP_SP, sp, base->seq_parallel)))
						continue;
					c->zero = z;
					c->recompute = (enum cm_recompute)rc;
					c->seq_parallel = sp;
					try_fsdp(s, max, c, base, scratch);
				}
	}
}

static void
try_schedules(struct cm_search *s, int max, struct cm_config *c,
    const struct cm_config *base, struct cm_result *scratch)
{
	int i;

	if (base->search_keep & CM_KEEP_SCHEDULE) {
		c->schedule = base->schedule;
		c->virtual_stages = base->virtual_stages;
		if (c->pp > 1 || c->schedule != PIPE_INTERLEAVED)
			try_knobs(s, max, c, base, scratch);
		return;
	}
	c->schedule = PIPE_1F1B;
	c->virtual_stages = 1;
	try_knobs(s, max, c, base, scratch);
	if (c->pp < 2)
		return;
	c->schedule = PIPE_INTERLEAVED;
	for (i = 0; i < N_VS; i++) {
		if (c->pp * search_vs[i] > CM_PIPE_LAYERS(&c->model))
			break;
		c->virtual_stages = search_vs[i];
		try_knobs(s, max, c, base, scratch);
	}
	/* no framework runs these (framework.c): ranked only with
	 * any_framework, so tried only then */
	if (!base->any_framework)
		return;
	c->virtual_stages = 1;
	c->schedule = PIPE_ZB_H1;
	try_knobs(s, max, c, base, scratch);
	if (c->pp % 2 == 0) {
		c->schedule = PIPE_DUALPIPE;
		try_knobs(s, max, c, base, scratch);
	}
}

/*
 * A mixture of experts' EP: 1, 2, 4, ... while it divides the experts and
 * DP x CP (costmodel_ep.c), unless the caller gave it. Rows differing
 * only in EP share a shape, so the fastest EP stands for the layout.
 */
static void
try_ep(struct cm_search *s, int max, struct cm_config *c,
    const struct cm_config *base, struct cm_result *scratch)
{
	int e, k, dc;

	if (c->model.experts == 0 || (base->search_keep & CM_KEEP_EP)) {
		c->ep = base->ep;
		c->etp = base->etp;
		try_schedules(s, max, c, base, scratch);
		return;
	}
	/* expert TP as TP, and 1 (the experts folded into the TP ranks,
	 * Megatron-Core's parallel folding) */
	for (k = 0; k < (c->tp > 1 ? 2 : 1); k++) {
		c->etp = k ? 1 : 0;
		dc = c->tp / cm_etp(c) * c->dp * c->cp;
		for (e = 1; e <= dc && c->model.experts % e == 0 &&
		    dc % e == 0; e *= 2) {
			c->ep = e;
			if (k && e == 1)
				continue;	/* no EP: ETP 1 is plain DP */
			try_schedules(s, max, c, base, scratch);
		}
	}
	c->ep = base->ep;
	c->etp = base->etp;
}

static int
in_list(const int *v, int n, int x)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* Whether cm_search's walk reaches c's layout (the same grid). */
static int
enumerated(const struct cm_config *c)
{
	const unsigned k = c->search_keep;
	struct mesh_span g;
	struct cm_grid grid;
	int on = 0;

	cm_grid_start(&grid, c);
	while (!on && cm_grid_next(&grid))
		on = cm_grid_is(&grid, c);
	if (!on)
		return 0;
	if (!(k & CM_KEEP_MICRO_BATCH) &&
	    !in_list(search_mbs, N_MBS, c->micro_batch))
		return 0;
	if (c->seq_parallel && c->tp < 2)
		return 0;
	if (c->zero >= 3 && !(k & CM_KEEP_FSDP)) {
		cm_group_of(c, MESH_DP, &g);
		if ((!c->reshard_after_forward && c->pp > 1) ||
		    (c->hsdp && g.nodes < 2))
			return 0;
	}
	if (k & CM_KEEP_SCHEDULE)
		return 1;
	if (c->schedule == PIPE_1F1B)
		return c->virtual_stages == 1;
	if (c->schedule == PIPE_ZB_H1 || c->schedule == PIPE_DUALPIPE)
		return c->any_framework && c->pp >= 2 &&
		    c->virtual_stages == 1;
	return c->schedule == PIPE_INTERLEAVED && c->pp >= 2 &&
	    in_list(search_vs, N_VS, c->virtual_stages);
}

/* Tie-aware ranks of n step times sorted ascending into rank[]. */
static void
tiers(const double *t, int n, int *rank)
{
	int i, anchor = 0;

	for (i = 0; i < n; i++) {
		if (i == 0 || t[i] > t[anchor] * (1 + CM_TIE_TOL)) {
			anchor = i;
			rank[i] = i + 1;
		} else
			rank[i] = rank[anchor];
	}
}

static void
set_ranks(struct cm_search *s)
{
	double t[CM_SEARCH_MAX] = { 0 };
	int rank[CM_SEARCH_MAX];
	int i;

	for (i = 0; i < s->n_top; i++)
		t[i] = s->top[i].t_step;
	tiers(t, s->n_top, rank);
	for (i = 0; i < s->n_top; i++) {
		s->top[i].rank = rank[i];
		s->top[i].tied = (i > 0 && rank[i - 1] == rank[i]) ||
		    (i + 1 < s->n_top && rank[i + 1] == rank[i]);
	}
}

int
cm_search_rank(const struct cm_search *s, const struct cm_result *r,
    int *tied)
{
	double t[CM_SEARCH_MAX + 1] = { 0 };
	int rank[CM_SEARCH_MAX + 1];
	int i, n = 0, pos = -1;

	if (tied != NULL)
		*tied = 0;
	if (cm_search_excluded(r) != CM_EX_NONE)
		return -1;
	for (i = 0; i < s->n_top; i++) {
		if (cm_same_shape(&s->top[i].cfg, &r->cfg))
			continue;
		if (pos < 0 && !better(&s->top[i], r))
			pos = n++;
		t[n++] = s->top[i].t_step;
	}
	if (pos < 0)
		pos = n++;
	t[pos] = r->t_step;
	tiers(t, n, rank);
	if (pos == n - 1 && s->n_top == s->max && rank[pos] == pos + 1 &&
	    r->t_step > s->top[s->n_top - 1].t_step * (1 + 1e-12))
		return 0;
	if (tied != NULL)
		*tied = (pos > 0 && rank[pos - 1] == rank[pos]) ||
		    (pos + 1 < n && rank[pos + 1] == rank[pos]);
	return rank[pos];
}

int
cm_search(const struct cm_config *base, int max, struct cm_search *s,
    struct pl_err *err)
{
	struct cm_config c = *base;
	struct cm_result scratch;
	struct cm_grid g;

	memset(s, 0, sizeof *s);
	if (max < 1 || max > CM_SEARCH_MAX)
		max = CM_SEARCH_MAX;
	s->max = max;
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
	cm_grid_start(&g, &c);
	while (cm_grid_next(&g)) {
		cm_grid_apply(&g, &c);
		try_ep(s, max, &c, base, &scratch);
	}
	if (!enumerated(base)) {
		c = *base;
		try_one(s, max, &c, &scratch);
	}
	set_ranks(s);
	cm_explain_ranked(s);
	if (s->have_closest)
		cm_explain(&s->closest);
	return 0;
}
