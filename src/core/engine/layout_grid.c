/*
 * layout_grid.c - the (TP, PP, DP) layouts cm_search tries, one at a
 * time, so the search, the "why is it empty" walk and the check of
 * whether a given layout is on the grid all walk the same grid.
 */
#include "core/engine/costmodel_int.h"

void
cm_grid_start(struct cm_grid *g, const struct cm_config *c)
{
	g->gpus = c->gpus;
	g->tp_cap = 8 * c->gpus_per_node;
	g->layers = c->model.layers;
	g->tp = 1;
	g->pp = 0;
	g->dp = 0;
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
				return 1;
			}
		}
		g->tp *= 2;
		g->pp = 0;
	}
	return 0;
}
