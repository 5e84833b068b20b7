/*
 * playground_ep.c - the expert-parallel knob (PG_EP). It is shown only for
 * a mixture of experts and steps through 1, 2, 4, ... keeping the values
 * the engine accepts: EP divides the routed experts and DP x CP
 * (costmodel_ep.c refuses the rest).
 */
#include "core/course/playground.h"

int
pg_ep_shown(const struct cm_config *c)
{
	return c->model.experts > 0;
}

int
pg_ep_degree(const struct cm_config *c)
{
	return c->ep > 1 ? c->ep : 1;
}

/* 1 if EP e divides the experts and the DP x CP ranks of c. */
static int
ep_fits(const struct cm_config *c, long e)
{
	long ranks = (long)cm_degree(c, MESH_DP) * cm_degree(c, MESH_CP);

	return e <= c->model.experts && c->model.experts % e == 0 &&
	    ranks % e == 0;
}

int
pg_ep_change(struct cm_config *c, int dir)
{
	long e = pg_ep_degree(c);

	if (!pg_ep_shown(c))
		return 0;
	for (;;) {
		e = dir > 0 ? e * 2 : e / 2;
		if (e < 1 || e > c->model.experts)
			return 0;
		if (ep_fits(c, e)) {
			c->ep = (int)e;
			return 1;
		}
	}
}
