/*
 * search_empty.c - why cm_search has no layout to evaluate (search_empty.h).
 *
 * The grid below mirrors cm_search's loops (costmodel_search.c); the
 * validity rules are cm_valid_quick's own. tests/check_search_empty.c
 * holds this file to the search: for a range of GPU counts, "no reason"
 * here exactly when the search evaluated something.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/search_empty.h"

static const int grid_mbs[] = { 1, 2, 4, 8 };
static const int grid_vs[] = { 2, 3, 4, 6, 8 };
#define N_MBS	(int)(sizeof grid_mbs / sizeof grid_mbs[0])
#define N_VS	(int)(sizeof grid_vs / sizeof grid_vs[0])

enum why { WHY_BATCH, WHY_LAYERS, WHY_HEADS, WHY_N };

/* Whether some micro-batch and schedule make (dp, tp, pp) of c valid. */
static int
any_valid(struct cm_config *c)
{
	int i, j;

	for (i = 0; i < N_MBS; i++) {
		c->micro_batch = grid_mbs[i];
		c->schedule = PIPE_1F1B;
		c->virtual_stages = 1;
		if (cm_valid_quick(c) == 0)
			return 1;
		c->schedule = PIPE_INTERLEAVED;
		for (j = 0; c->pp >= 2 && j < N_VS; j++) {
			c->virtual_stages = grid_vs[j];
			if (cm_valid_quick(c) == 0)
				return 1;
		}
	}
	return 0;
}

static int
heads_ok(const struct hw_model *m, int t)
{
	return m->heads % t == 0 && m->hidden % t == 0 && hw_split_ffn(m) % t == 0 &&
	    (m->kv_heads % t == 0 || t % m->kv_heads == 0);
}

/* Values seen for one reason, without repeats. */
struct seen {
	int	v[64];
	int	n;
};

static void
note(struct seen *s, int v)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return;
	if (s->n < (int)(sizeof s->v / sizeof s->v[0]))
		s->v[s->n++] = v;
}

static void
list_text(const struct seen *s, char *buf, size_t size)
{
	size_t len;
	int i;

	buf[0] = '\0';
	for (i = 0; i < s->n; i++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%d", i ? ", " : "", s->v[i]);
	}
}

/*
 * Walk cm_search's grid of layouts, cm_grid. With seen NULL, return
 * 1 at the first valid layout; else note why each is invalid and return
 * whether one was valid. *tp_max gets the largest TP tried.
 */
static int
walk(const struct cm_config *base, struct seen *seen, int *tp_max)
{
	struct cm_config c = *base, big;
	struct cm_grid g;
	int found = 0, batch;

	/* Every TP on the grid has PP 1 (layers >= 1, checked by callers). */
	*tp_max = 0;
	cm_grid_start(&g, &c);
	while (cm_grid_next(&g)) {
		cm_grid_apply(&g, &c);
		*tp_max = c.tp;
		if (any_valid(&c)) {
			found = 1;
			if (seen == NULL)
				return 1;
			continue;
		}
		if (seen == NULL)
			continue;
		if (!heads_ok(&c.model, c.tp)) {
			note(&seen[WHY_HEADS], c.tp);
			continue;
		}
		/* Valid with a batch every micro-batch x DP divides (and m a
		 * multiple of PP)? Then the batch was the obstacle. */
		big = c;
		big.global_batch = (long)c.dp * c.pp * 8 * 8;
		batch = any_valid(&big);
		note(&seen[batch ? WHY_BATCH : WHY_LAYERS], batch ? c.dp : c.pp);
	}
	return found;
}

int
cm_search_has_layout(const struct cm_config *base)
{
	int tp_max;

	if (base->gpus < 1 || base->gpus_per_node < 1 ||
	    base->global_batch < 1 || base->model.layers < 1)
		return 0;
	return walk(base, NULL, &tp_max);
}

static void
add(struct cm_empty *out, const char *code)
{
	if (out->n < CM_EMPTY_MAX)
		out->reasons[out->n].code = code;
}

/*
 * The nearest GPU counts below and above base's with a valid layout,
 * looked for within NEAR_MAX of it.
 */
#define NEAR_MAX	256

static void
nearest(const struct cm_config *base, struct cm_empty *out)
{
	struct cm_config c = *base;
	int d;

	for (d = 1; d <= NEAR_MAX && (out->gpus_below == 0 ||
	    out->gpus_above == 0); d++) {
		c.gpus = base->gpus - d;
		if (out->gpus_below == 0 && c.gpus >= 1 &&
		    cm_search_has_layout(&c))
			out->gpus_below = c.gpus;
		c.gpus = base->gpus + d;
		if (out->gpus_above == 0 && cm_search_has_layout(&c))
			out->gpus_above = c.gpus;
	}
}

int
cm_search_why_empty(const struct cm_config *base, struct cm_empty *out)
{
	struct seen seen[WHY_N];
	char list[160];
	int tp_max;

	memset(out, 0, sizeof *out);
	memset(seen, 0, sizeof seen);
	if (base->gpus < 1 || base->gpus_per_node < 1 ||
	    base->global_batch < 1 || base->model.layers < 1 ||
	    walk(base, seen, &tp_max))
		return 0;
	if (seen[WHY_BATCH].n > 0) {
		list_text(&seen[WHY_BATCH], list, sizeof list);
		add(out, "batch_indivisible");
		snprintf(out->reasons[out->n++].text, CM_EMPTY_LEN,
		    _("the global batch %ld does not divide by DP %s (times a "
		    "micro-batch of 1, 2, 4 or 8)"), base->global_batch, list);
	}
	if (seen[WHY_LAYERS].n > 0) {
		list_text(&seen[WHY_LAYERS], list, sizeof list);
		add(out, "layers_uneven");
		snprintf(out->reasons[out->n++].text, CM_EMPTY_LEN,
		    _("PP %s cannot split the %d layers (evenly, or at most 2 "
		    "short)"), list, CM_PIPE_LAYERS(&base->model));
	}
	if (seen[WHY_HEADS].n > 0) {
		list_text(&seen[WHY_HEADS], list, sizeof list);
		add(out, "heads_indivisible");
		snprintf(out->reasons[out->n++].text, CM_EMPTY_LEN,
		    _("TP %s does not divide the %d heads (or hidden %d, ffn "
		    "%d)"), list, base->model.heads, base->model.hidden,
		    hw_split_ffn(&base->model));
	}
	if (tp_max < 2 && base->gpus > 1) {
		add(out, "tp_power_of_two");
		snprintf(out->reasons[out->n++].text, CM_EMPTY_LEN,
		    _("TP is a power of two that divides the %d GPUs: only "
		    "TP 1"), base->gpus);
	}
	nearest(base, out);
	return out->n;
}
