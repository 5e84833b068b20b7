/*
 * mesh_walk.c - the search grid: every split of the GPUs over the axes
 * that the axis table's steps and caps allow. The axes are walked as
 * nested loops, outermost nest first (TP, CP, then PP), the REST axis taking
 * what the GPUs leave; a value that does not divide what its outer axes
 * leave is skipped.
 */
#include "core/mesh/mesh.h"

/* The walked axes (not REST), outermost loop first, into w; how many. */
static int
walked(enum mesh_axis *w)
{
	int n = 0, nest, a;

	for (nest = 0; nest < MESH_N_AXES; nest++)
		for (a = 0; a < MESH_N_AXES; a++)
			if (mesh_axis((enum mesh_axis)a)->nest == nest &&
			    mesh_axis((enum mesh_axis)a)->step != MESH_STEP_REST)
				w[n++] = (enum mesh_axis)a;
	return n;
}

void
mesh_walk_start(struct mesh_walk *w, long gpus, int gpus_per_node,
    int layers, long seq)
{
	int a;

	w->gpus = gpus;
	w->started = 0;
	for (a = 0; a < MESH_N_AXES; a++) {
		switch (mesh_axis((enum mesh_axis)a)->cap) {
		case MESH_CAP_NODES8:
			w->cap[a] = 8L * gpus_per_node;
			break;
		case MESH_CAP_LAYERS:
			w->cap[a] = layers;
			break;
		case MESH_CAP_SEQ:
			w->cap[a] = seq >= MESH_SEQ_CHUNK ?
			    seq / MESH_SEQ_CHUNK : 1;
			break;
		default:
			w->cap[a] = gpus;
			break;
		}
		w->degree[a] = 1;
	}
}

/* GPUs left by the walked axes before index i of w. */
static long
left(const struct mesh_walk *m, const enum mesh_axis *w, int i)
{
	long rest = m->gpus;
	int j;

	for (j = 0; j < i; j++)
		rest /= m->degree[w[j]];
	return rest;
}

/* Step axis w[i] to its next value that divides what is left; 0 at the
 * end of its range. */
static int
advance(struct mesh_walk *m, const enum mesh_axis *w, int i)
{
	enum mesh_axis a = w[i];
	long rest = left(m, w, i), v = m->degree[a];

	for (;;) {
		if (v == 0)
			v = 1;
		else if (mesh_axis(a)->step == MESH_STEP_POW2)
			v *= 2;
		else
			v++;
		if (v > m->cap[a] || v > rest)
			return 0;
		if (rest % v == 0) {
			m->degree[a] = (int)v;
			return 1;
		}
	}
}

int
mesh_walk_next(struct mesh_walk *m)
{
	enum mesh_axis w[MESH_N_AXES];
	int n = walked(w), i, a;

	if (!m->started) {
		m->started = 1;
		for (i = 0; i < n; i++)
			m->degree[w[i]] = 0;
		i = 0;
	} else {
		i = n - 1;
	}
	while (i >= 0) {
		if (!advance(m, w, i)) {
			i--;
			continue;
		}
		if (i < n - 1) {
			m->degree[w[++i]] = 0;
			continue;
		}
		for (a = 0; a < MESH_N_AXES; a++)
			if (mesh_axis((enum mesh_axis)a)->step ==
			    MESH_STEP_REST)
				m->degree[a] = (int)left(m, w, n);
		return 1;
	}
	return 0;
}
