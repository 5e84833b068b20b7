/*
 * sim_ep_grads.c - expert parallelism's gradients and what a device
 * holds. As Megatron-Core does ("expert data parallel", its MoE docs and
 * Shoeybi et al.'s moe_layer): the gradients of everything but the
 * experts (attention, norms, router, shared expert, b2) are all-reduced
 * over the data-parallel ranks of the stage; an expert's only over the
 * devices that hold it, the same EP rank of every EP group (d/e of
 * them). A device holds, updates and is charged for only its E/e
 * experts; the values of the other experts in its layer array are never
 * read (the array keeps the dense layout, sim_moe.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_modes.h"

#define H	SIM_HIDDEN
#define F	SIM_FFN
#define LP	SIM_LAYER_PARAMS

/* Expert of column c, or -1 (shared, router, unused). */
static int
expert_of_col(const struct sim_moe *m, int c)
{
	int fe = sim_moe_width(m), j = c / fe - (m->shared ? 1 : 0);

	return j >= 0 && j < m->experts && c < F - m->experts ? j : -1;
}

/* Expert whose value x of a layer (full layout) is, or -1. */
static int
expert_of(const struct sim_moe *m, size_t x)
{
	static double base[LP];
	struct sim_lparams lp;
	size_t w1, b1, w2;

	sim_lparams_view(base, 1, &lp);
	w1 = (size_t)(lp.w1 - base);
	b1 = (size_t)(lp.b1 - base);
	w2 = (size_t)(lp.w2 - base);
	if (x >= w1 && x < w1 + H * F)
		return expert_of_col(m, (int)((x - w1) % F));
	if (x >= b1 && x < b1 + F)
		return expert_of_col(m, (int)(x - b1));
	if (x >= w2 && x < w2 + F * H)
		return expert_of_col(m, (int)((x - w2) / H));
	return -1;
}

/* The EP rank holding expert j. */
static int
owner(const struct sim_layout *lay, int j)
{
	return j / (lay->moe.experts / lay->e);
}

/* Is value x of a layer one of EP rank q's (which, -1: not an expert's)? */
static int
belongs(const struct sim_layout *lay, size_t x, int q)
{
	int j = expert_of(&lay->moe, x);

	return q < 0 ? j < 0 : j >= 0 && owner(lay, j) == q;
}

int
sim_ep_owner_of(const struct sim_layout *lay, size_t x)
{
	int j = expert_of(&lay->moe, x);

	return j < 0 ? -1 : owner(lay, j);
}

size_t
sim_ep_unheld(const struct sim_run *run, int di)
{
	const struct sim_layout *lay = &run->lay;
	size_t n = 0, x;
	int l, q = run->dev[di].r % (lay->e > 0 ? lay->e : 1), j;

	if (lay->e < 2)
		return 0;
	for (l = 0; l < SIM_LAYERS; l++)
		if (run->dev[di].off[l] != SIZE_MAX)
			for (x = 0; x < LP; x++) {
				j = expert_of(&lay->moe, x);
				n += j >= 0 && owner(lay, j) != q;
			}
	return n;
}

/* Copy layer l's values of class q (belongs) between a device and buf. */
static size_t
pack(struct sim_run *run, int di, int l, int q, double *buf, int to_buf)
{
	double *g = run->dev[di].g + run->dev[di].off[l];
	size_t x, n = 0;

	for (x = 0; x < LP; x++)
		if (belongs(&run->lay, x, q)) {
			if (to_buf)
				buf[n] = g[x];
			else
				g[x] = buf[n];
			n++;
		}
	return n;
}

static double
latest(const struct sim_run *run, const int *g, int n)
{
	double t = 0.0;
	int i;

	for (i = 0; i < n; i++)
		if (run->dev[g[i]].clock > t)
			t = run->dev[g[i]].clock;
	return t;
}

/* All-reduce class q of layer l over the devices g (n of them). */
static void
reduce_class(struct sim_run *run, int l, int q, const int *g, int n,
    int overlap)
{
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, l + 1, -1, -1, -1 };
	double *bufs[SIM_MAX_GPUS] = { 0 };
	size_t len = 0;
	int i;

	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		bufs[i] = malloc(LP * sizeof(double));
		if (bufs[i] == NULL)
			run->oom = 1;
		else
			len = pack(run, g[i], l, q, bufs[i], 1);
	}
	if (!run->oom) {
		sim_collective(run, SIM_ALL_REDUCE, &tag, g, n, bufs, len,
		    overlap, overlap ? latest(run, g, n) : 0.0);
		for (i = 0; i < n; i++)
			pack(run, g[i], l, q, bufs[i], 0);
	}
	for (i = 0; i < n; i++)
		free(bufs[i]);
}

void
sim_ep_bucket(struct sim_run *run, int s, int l, int overlap)
{
	const struct sim_layout *lay = &run->lay;
	int g[SIM_MAX_GPUS], n, q, r;

	n = sim_dp_group(lay, s, 0, g);
	reduce_class(run, l, -1, g, n, overlap);
	for (q = 0; q < lay->e; q++) {
		for (n = 0, r = q; r < lay->d; r += lay->e)
			g[n++] = sim_rank(lay, r, s, 0);
		reduce_class(run, l, q, g, n, overlap);
	}
}

void
sim_ep_collect(struct sim_run *run, int l, int s, double *out, int grads)
{
	const struct sim_layout *lay = &run->lay;
	const struct sim_dev *dv;
	size_t x;
	int j;

	for (x = 0; x < LP; x++) {
		if ((j = expert_of(&lay->moe, x)) < 0)
			continue;
		dv = &run->dev[sim_rank(lay, owner(lay, j), s, 0)];
		out[x] = (grads ? dv->g : dv->w)[dv->off[l] + x];
	}
}
