/*
 * costmodel_mesh.c - a cost-model configuration's layout as a mesh
 * (core/mesh/mesh.h). The degrees are struct cm_config's degree[], which
 * the engine's physics also reads by name (c->tp).
 */
#include <stddef.h>

#include "core/engine/costmodel.h"

_Static_assert(sizeof(((struct cm_config *)0)->degree) ==
    MESH_N_AXES * sizeof(int) &&
    offsetof(struct cm_config, dp) ==
    offsetof(struct cm_config, degree[MESH_DP]) &&
    offsetof(struct cm_config, tp) ==
    offsetof(struct cm_config, degree[MESH_TP]) &&
    offsetof(struct cm_config, pp) ==
    offsetof(struct cm_config, degree[MESH_PP]) &&
    offsetof(struct cm_config, cp) ==
    offsetof(struct cm_config, degree[MESH_CP]),
    "each degree's name is its axis's element");

size_t
cm_degree_offset(enum mesh_axis a)
{
	return offsetof(struct cm_config, degree) + (size_t)a * sizeof(int);
}

int
cm_degree(const struct cm_config *c, enum mesh_axis a)
{
	return c->degree[a];
}

void
cm_set_degree(struct cm_config *c, enum mesh_axis a, int degree)
{
	c->degree[a] = degree;
}

void
cm_mesh(const struct cm_config *c, struct mesh *m)
{
	int a;

	mesh_init(m, c->gpus_per_node);
	for (a = 0; a < MESH_N_AXES; a++)
		m->degree[a] = cm_degree(c, (enum mesh_axis)a);
	mesh_set_order(m, c->rank_order);
}

long
cm_layout_gpus(const struct cm_config *c)
{
	return mesh_product(c->degree);
}
