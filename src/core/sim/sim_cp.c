/*
 * sim_cp.c - context parallelism's attention on simulated devices: each
 * CP group passes its K/V blocks round a ring (Megatron-Core's pass-KV
 * ring, the Ring Attention of Liu et al. 2023), c-1 sends forward; each
 * step's partial attention is merged by the online softmax of
 * sim_ring.c. A block is sent on as soon as the step that uses it
 * starts, so the send runs beside that step's compute. Backward, the
 * blocks go round again with their dK and dV, which each rank adds to and
 * passes on after its step; the last pass returns them to the owner
 * (c sends of dK/dV, c-1 of K/V).
 */
#include <math.h>
#include <string.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_modes.h"
#include "core/sim/sim_ring.h"

#define H	SIM_HIDDEN

/* One CP group's ring buffers: the block in hand and the one arriving. */
struct ring {
	int	 c;
	int	 g[SIM_MAX_GPUS];	/* devices, by CP rank */
	double	*hand[SIM_MAX_GPUS], *recv[SIM_MAX_GPUS];
	int	 owner[SIM_MAX_GPUS];	/* CP rank whose block is in hand */
	double	 at[SIM_MAX_GPUS];	/* when the block in hand is there */
	size_t	 len;			/* doubles per buffer */
};

static int
ring_open(struct sim_run *run, struct ring *rg, int di, size_t len)
{
	struct sim_dev *dv = &run->dev[di];
	int j;

	memset(rg, 0, sizeof *rg);
	rg->c = sim_cp_group(&run->lay, dv->r, dv->s, dv->k, rg->g);
	rg->len = len;
	for (j = 0; j < rg->c; j++) {
		dv = &run->dev[rg->g[j]];
		rg->hand[j] = sim_dev_alloc(run, rg->g[j], SIM_MEM_ACTS, len,
		    dv->clock);
		rg->recv[j] = sim_dev_alloc(run, rg->g[j], SIM_MEM_ACTS, len,
		    dv->clock);
		rg->owner[j] = j;
		rg->at[j] = dv->clock;
		if (rg->hand[j] == NULL || rg->recv[j] == NULL)
			return -1;
	}
	return 0;
}

static void
ring_close(struct sim_run *run, struct ring *rg)
{
	int j;

	for (j = 0; j < rg->c; j++) {
		sim_dev_free(run, rg->g[j], SIM_MEM_ACTS, &rg->hand[j], rg->len,
		    run->dev[rg->g[j]].clock);
		sim_dev_free(run, rg->g[j], SIM_MEM_ACTS, &rg->recv[j], rg->len,
		    run->dev[rg->g[j]].clock);
	}
}

/* After a step: what was received is in hand, from the previous rank. */
static void
ring_turn(struct ring *rg, const double *arrive)
{
	int owner[SIM_MAX_GPUS], j;
	double *t;

	for (j = 0; j < rg->c; j++)
		owner[(j + 1) % rg->c] = rg->owner[j];
	for (j = 0; j < rg->c; j++) {
		t = rg->hand[j];
		rg->hand[j] = rg->recv[j];
		rg->recv[j] = t;
		rg->owner[j] = owner[j];
		rg->at[j] = arrive[j];
	}
}

static void
wait_until(struct sim_dev *dv, double t)
{
	if (t > dv->clock)
		dv->clock = t;
}

static void
tag_of(const struct sim_run *run, int di, int l, int mb, int chunk,
    enum sim_payload what, struct sim_tag *tag)
{
	int shards = run->lay.d / run->lay.c;

	tag->what = what;
	tag->layer = l + 1;
	tag->mb = mb;
	tag->shard = shards > 1 ? run->dev[di].r / run->lay.c : -1;
	tag->chunk = chunk;
}

static void
group_fwd(struct sim_run *run, int di, int l, int mb, int chunk)
{
	const struct sim_shape *sh = &run->sh;
	size_t T = (size_t)sim_shape_tokens(sh), n = T * (size_t)(H / sh->t);
	size_t nh = T * (size_t)(SIM_HEADS / sh->t);
	double arrive[SIM_MAX_GPUS], fl, proj = 2.0 * (double)n * H;
	struct sim_lparams w;
	struct sim_saved sv;
	struct sim_tag tag;
	struct sim_dev *dv;
	struct ring rg;
	int j, st, nx;

	if (ring_open(run, &rg, di, 2 * n) != 0)
		goto out;
	for (j = 0; j < rg.c; j++) {
		dv = &run->dev[rg.g[j]];
		sim_dev_layer(run, rg.g[j], l, &w, NULL);
		sim_saved_view(dv->saved[l][mb], sh, &sv);
		sim_fwd_qkv(sh, &w, &sv);
		sim_ring_fwd_init(sh, dv->work, dv->work + nh, sv.ctx);
		memcpy(rg.hand[j], sv.k, n * sizeof *sv.k);
		memcpy(rg.hand[j] + n, sv.v, n * sizeof *sv.v);
	}
	for (st = 0; st < rg.c; st++) {
		for (j = 0; j < rg.c; j++) {
			dv = &run->dev[rg.g[j]];
			nx = (j + 1) % rg.c;
			wait_until(dv, rg.at[j]);
			tag_of(run, rg.g[j], l, mb, chunk, SIM_P_KV, &tag);
			if (st < rg.c - 1)
				arrive[nx] = sim_send(run, rg.g[j], rg.g[nx],
				    rg.hand[j], rg.recv[nx], 2 * n, &tag,
				    dv->clock);
			sim_saved_view(dv->saved[l][mb], sh, &sv);
			sim_ring_fwd_step(sh, j, rg.owner[j], sv.q, rg.hand[j],
			    rg.hand[j] + n, dv->work, dv->work + nh, sv.ctx);
			fl = sim_ring_step_flops(sh);
			if (st == 0)
				fl += 3.0 * proj;
			if (st == rg.c - 1)
				fl += proj;
			sim_compute(run, rg.g[j], SIM_FORWARD, SIM_PART_ATTN, l,
			    mb, chunk, fl);
		}
		if (st < rg.c - 1)
			ring_turn(&rg, arrive);
	}
	for (j = 0; j < rg.c; j++) {
		dv = &run->dev[rg.g[j]];
		sim_dev_layer(run, rg.g[j], l, &w, NULL);
		sim_saved_view(dv->saved[l][mb], sh, &sv);
		sim_ring_fwd_finish(sh, dv->work, dv->work + nh, sv.ctx, sv.p);
		sim_fwd_proj(sh, &w, &sv, dv->part);
	}
out:
	ring_close(run, &rg);
}

static void
group_bwd(struct sim_run *run, int di, int l, int mb, int chunk)
{
	const struct sim_shape *sh = &run->sh;
	size_t T = (size_t)sim_shape_tokens(sh), n = T * (size_t)(H / sh->t);
	double kv_at[SIM_MAX_GPUS], dkv_at[SIM_MAX_GPUS], t, fl;
	double proj = 2.0 * (double)n * H;
	struct sim_lparams w, g;
	struct sim_saved sv;
	struct sim_tag tag;
	struct sim_dev *dv;
	struct ring rg;
	double *hd;
	int j, st, nx;

	if (ring_open(run, &rg, di, 4 * n) != 0)
		goto out;
	for (j = 0; j < rg.c; j++) {
		dv = &run->dev[rg.g[j]];
		sim_dev_layer(run, rg.g[j], l, &w, &g);
		sim_saved_view(dv->saved[l][mb], sh, &sv);
		/* work: dctx, dq, then D per row and head */
		memset(dv->work, 0, 2 * n * sizeof *dv->work);
		sim_bwd_proj(sh, &w, &g, &sv, dv->dwhole, dv->work);
		sim_ring_bwd_init(sh, sv.ctx, dv->work, dv->work + 2 * n);
		memcpy(rg.hand[j], sv.k, n * sizeof *sv.k);
		memcpy(rg.hand[j] + n, sv.v, n * sizeof *sv.v);
	}
	for (st = 0; st < rg.c; st++) {
		for (j = 0; j < rg.c; j++) {
			dv = &run->dev[rg.g[j]];
			nx = (j + 1) % rg.c;
			hd = rg.hand[j];
			wait_until(dv, rg.at[j]);
			tag_of(run, rg.g[j], l, mb, chunk, SIM_P_KV, &tag);
			if (st < rg.c - 1)
				kv_at[nx] = sim_send(run, rg.g[j], rg.g[nx], hd,
				    rg.recv[nx], 2 * n, &tag, dv->clock);
			sim_saved_view(dv->saved[l][mb], sh, &sv);
			sim_ring_bwd_step(sh, j, rg.owner[j], sv.q, dv->work,
			    sv.p, dv->work + 2 * n, hd, hd + n, dv->work + n,
			    hd + 2 * n, hd + 3 * n);
			fl = 2.0 * sim_ring_step_flops(sh);
			if (st == 0)
				fl += 2.0 * proj;
			sim_compute(run, rg.g[j], SIM_BACKWARD, SIM_PART_ATTN, l,
			    mb, chunk, fl);
			/* dK, dV go on after the step that added to them */
			tag.what = SIM_P_KV_GRADS;
			dkv_at[nx] = sim_send(run, rg.g[j], rg.g[nx], hd + 2 * n,
			    rg.recv[nx] + 2 * n, 2 * n, &tag, dv->clock);
		}
		for (j = 0; j < rg.c; j++) {
			t = dkv_at[j];
			if (st < rg.c - 1 && kv_at[j] > t)
				t = kv_at[j];
			kv_at[j] = t;
		}
		ring_turn(&rg, kv_at);
	}
	/* Each rank has its own block's dK, dV back. */
	for (j = 0; j < rg.c; j++) {
		dv = &run->dev[rg.g[j]];
		wait_until(dv, rg.at[j]);
		sim_dev_layer(run, rg.g[j], l, &w, &g);
		sim_saved_view(dv->saved[l][mb], sh, &sv);
		sim_bwd_qkv(sh, &w, &g, &sv, dv->work + n, rg.hand[j] + 2 * n,
		    rg.hand[j] + 3 * n, dv->part);
		sim_compute(run, rg.g[j], SIM_BACKWARD, SIM_PART_ATTN, l, mb,
		    chunk, 3.0 * 2.0 * proj);
	}
out:
	ring_close(run, &rg);
}

/* fn on the first device of each CP group among devs. */
static void
each_group(struct sim_run *run, const int *devs, int n, int l, int mb,
    int chunk, void (*fn)(struct sim_run *, int, int, int, int))
{
	int i;

	for (i = 0; i < n && !run->oom; i++)
		if (run->dev[devs[i]].r % run->lay.c == 0)
			fn(run, devs[i], l, mb, chunk);
}

void
sim_cp_fwd_attn(struct sim_run *run, const int *devs, int n, int l, int mb,
    int chunk)
{
	each_group(run, devs, n, l, mb, chunk, group_fwd);
}

void
sim_cp_bwd_attn(struct sim_run *run, const int *devs, int n, int l, int mb,
    int chunk)
{
	each_group(run, devs, n, l, mb, chunk, group_bwd);
}
