/*
 * layout_grid.c - the (TP, PP, DP) layouts cm_search tries, one at a
 * time, so the search, the "why is it empty" walk and the check of
 * whether a given layout is on the grid all walk the same grid.
 */
#include "core/engine/costmodel_int.h"

void
cm_grid_start(struct cm_grid *g, const struct cm_config *c)
{
	g->cfg = c;
	g->gpus = c->gpus;
	g->tp_cap = 8 * c->gpus_per_node;
	g->layers = c->model.layers;
	g->tp = 1;
	g->pp = 0;
	g->dp = 0;
}

/*
 * With cfg.tp_in_node the search keeps every TP group inside one node, as
 * teams do that keep TP on NVLink ([LLAMA3] 3.3.2: the innermost
 * parallelism "is usually constrained to within the same server").
 */
static int
tp_spans_nodes(const struct cm_grid *g)
{
	struct cm_config c;
	struct cm_group tp;

	if (!g->cfg->tp_in_node || g->tp == 1)
		return 0;
	c = *g->cfg;
	c.tp = g->tp;
	c.pp = g->pp;
	c.dp = g->dp;
	cm_group_of(&c, CM_AXIS_TP, &tp);
	return tp.nodes > 1;
}

int
cm_grid_next(struct cm_grid *g)
{
	/* A TP that does not divide the GPUs ends the walk: every larger
	 * power of two is a multiple of it and cannot divide them either. */
	while (g->tp <= g->tp_cap && g->tp <= g->gpus &&
	    g->gpus % g->tp == 0) {
		while (++g->pp <= g->gpus / g->tp && g->pp <= g->layers) {
			if ((g->gpus / g->tp) % g->pp == 0) {
				g->dp = g->gpus / (g->tp * g->pp);
				if (tp_spans_nodes(g))
					continue;
				return 1;
			}
		}
		g->tp *= 2;
		g->pp = 0;
	}
	return 0;
}
