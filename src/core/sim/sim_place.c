/*
 * sim_place.c - what each device of a run is called and where it sits in
 * the layout, the one naming the lessons, the player and `parlearn trace`
 * share: GPUs G0, G1, ... and pipeline stages from 0, stage 0 on G0
 * (the run's mesh, as sim_layout_of lays it out, places each rank).
 */
#include <stdio.h>

#include "core/mesh/mesh.h"
#include "core/sim/sim.h"

const char *
sim_device_name(int dev, char *buf, size_t n)
{
	snprintf(buf, n, "G%d", dev);
	return buf;
}

void
sim_device_place(const struct sim_result *res, int dev,
    struct sim_place *pl)
{
	int p = res->pp > 0 ? res->pp : 1, v = res->v > 0 ? res->v : 1;
	int lps = SIM_LAYERS / (p * v), l, coord[MESH_N_AXES];
	struct mesh m;

	mesh_init(&m, 1);
	m.degree[MESH_DP] = res->dp > 0 ? res->dp : 1;
	m.degree[MESH_TP] = res->tp > 0 ? res->tp : 1;
	m.degree[MESH_PP] = p;
	mesh_coords(&m, dev, coord);
	pl->tp_rank = coord[MESH_TP];
	pl->stage = coord[MESH_PP];
	pl->replica = coord[MESH_DP];
	pl->layers = 0;
	/* DualPipe: stage s also holds stage p-1-s's layers */
	for (l = 0; lps > 0 && l < SIM_LAYERS; l++)
		if ((l / lps) % p == pl->stage || (res->schedule ==
		    PIPE_DUALPIPE && (l / lps) % p == p - 1 - pl->stage))
			pl->layers |= 1u << l;
}

const char *
sim_layers_text(unsigned mask, char *buf, size_t n)
{
	int l, first = -1, last = -1, count = 0, gaps = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (l = 0; l < SIM_LAYERS; l++)
		if (mask & (1u << l)) {
			if (last >= 0 && l != last + 1)
				gaps = 1;
			if (first < 0)
				first = l;
			last = l;
			count++;
		}
	if (count > 2 && !gaps) {
		snprintf(buf, n, "L%d-L%d", first + 1, last + 1);
		return buf;
	}
	for (l = 0; l < SIM_LAYERS && used < n; l++)
		if (mask & (1u << l))
			used += (size_t)snprintf(buf + used, n - used, "%sL%d",
			    used > 0 ? " " : "", l + 1);
	return buf;
}
