/*
 * layout_grid.c - the layouts cm_search tries, one at a time, so the
 * search, the "why is it empty" walk and the check of whether a given
 * layout is on the grid all walk the same grid: the mesh's walk over the
 * axis table (core/mesh/mesh_walk.c).
 */
#include "core/engine/costmodel_int.h"

void
cm_grid_start(struct cm_grid *g, const struct cm_config *c)
{
	g->cfg = c;
	mesh_walk_start(&g->walk, c->gpus, c->gpus_per_node,
	    CM_PIPE_LAYERS(&c->model),
	    c->model.seq);
}

/*
 * With cfg.tp_in_node the search keeps every group of an in-node axis
 * (TP) inside one node, as teams do that keep TP on NVLink ([LLAMA3]
 * 3.3.2: the innermost parallelism "is usually constrained to within the
 * same server").
 */
static int
spans_nodes(const struct cm_grid *g)
{
	struct cm_config c;
	struct mesh_span span;
	int a;

	if (!g->cfg->tp_in_node)
		return 0;
	c = *g->cfg;
	cm_grid_apply(g, &c);
	for (a = 0; a < MESH_N_AXES; a++) {
		if (g->walk.degree[a] == 1 ||
		    !(mesh_axis((enum mesh_axis)a)->rules & MESH_RULE_IN_NODE))
			continue;
		cm_group_of(&c, (enum mesh_axis)a, &span);
		if (span.domains > 1)	/* "in a node": in NVLink */
			return 1;
	}
	return 0;
}

int
cm_grid_next(struct cm_grid *g)
{
	while (mesh_walk_next(&g->walk)) {
		if (!spans_nodes(g))
			return 1;
	}
	return 0;
}

void
cm_grid_apply(const struct cm_grid *g, struct cm_config *c)
{
	int a;

	for (a = 0; a < MESH_N_AXES; a++)
		cm_set_degree(c, (enum mesh_axis)a, g->walk.degree[a]);
}

int
cm_grid_is(const struct cm_grid *g, const struct cm_config *c)
{
	int a;

	/* The REST axis follows from the others and the GPUs. */
	for (a = 0; a < MESH_N_AXES; a++)
		if (mesh_axis((enum mesh_axis)a)->step != MESH_STEP_REST &&
		    cm_degree(c, (enum mesh_axis)a) != g->walk.degree[a])
			return 0;
	return 1;
}
