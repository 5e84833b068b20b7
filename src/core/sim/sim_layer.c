/*
 * sim_layer.c - one layer's forward and backward for one micro-batch on
 * every device of a pipeline stage: the block arithmetic of sim_block.c
 * on each device, with the tensor-parallel collectives between (Megatron's
 * f and g: all-reduces, or with sequence parallelism all-gathers and
 * reduce-scatters), the ZeRO-3 gathers before and scatters after, and the
 * compute events, timed at FLOPs / device speed.
 *
 * Every replica and every TP rank of the stage runs the same steps in
 * lock step; a blocking TP collective ends at the same time for the whole
 * group. A pass over a layer is cut into steps (attention; the MLP, with
 * EP its four steps; the output), so that DualPipe's pairs can run one
 * pass's compute while the other's all-to-all is in flight.
 */
#include <string.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_modes.h"

#define H	SIM_HIDDEN

/* Which whole-sized buffer a TP collective works on. */
enum buf {
	BUF_PART,		/* partial sums to reduce */
	BUF_N1,			/* normed input, to gather (sp) */
	BUF_N2,			/* normed h, to gather (sp) */
	BUF_DWHOLE		/* output gradients, to gather (sp) */
};

void
sim_dev_layer(struct sim_run *run, int di, int l, struct sim_lparams *w,
    struct sim_lparams *g)
{
	struct sim_dev *dv = &run->dev[di];

	if (run->lay.zero3) {
		sim_lparams_view(dv->full[l], 1, w);
		if (g != NULL && dv->fullg[l] != NULL)
			sim_lparams_view(dv->fullg[l], 1, g);
		return;
	}
	sim_lparams_view(dv->w + dv->off[l], run->lay.t, w);
	if (g != NULL)
		sim_lparams_view(dv->g + dv->off[l], run->lay.t, g);
}

static void
saved_of(struct sim_run *run, int di, int l, int mb, struct sim_saved *sv)
{
	sim_saved_view(run->dev[di].saved[l][mb], &run->sh, sv);
}

static double *
buf_of(struct sim_run *run, int di, int l, int mb, enum buf which)
{
	struct sim_saved sv;

	switch (which) {
	case BUF_PART:
		return run->dev[di].part;
	case BUF_DWHOLE:
		return run->dev[di].dwhole;
	default:
		saved_of(run, di, l, mb, &sv);
		return which == BUF_N1 ? sv.n1 : sv.n2;
	}
}

/* The TP collective kind on buffer which, for every replica of stage s. */
static void
tp_exchange(struct sim_run *run, int s, int l, int mb, int chunk,
    enum sim_kind kind, enum sim_payload what, enum buf which)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_tag tag = { what, l + 1, mb, -1, chunk };
	double *bufs[SIM_MAX_GPUS];
	int g[SIM_MAX_GPUS], n, r, i;

	if (lay->t < 2)
		return;
	for (r = 0; r < lay->d; r++) {
		n = sim_tp_group(lay, r, s, g);
		for (i = 0; i < n; i++)
			bufs[i] = buf_of(run, g[i], l, mb, which);
		/* the data shard: with CP, replicas r share one */
		tag.shard = lay->d / lay->c > 1 ? r / lay->c :
		    lay->c > 1 ? -1 : lay->d > 1 ? r : -1;
		sim_collective(run, kind, &tag, g, n, bufs,
		    (size_t)sim_shape_tokens(&run->sh) * H, 0, 0.0);
	}
}

static enum sim_kind
reduce_kind(const struct sim_run *run)
{
	return run->lay.sp ? SIM_REDUCE_SCATTER : SIM_ALL_REDUCE;
}

/* Forward FLOPs of the MLP on one device: dense, or the MoE's router,
 * shared expert and k experts a token. */
static double
mlp_flops(const struct sim_run *run)
{
	const struct sim_moe *m = &run->lay.moe;
	int T = sim_shape_tokens(&run->sh);

	if (m->experts == 0)
		return sim_flops_mlp(&run->sh);
	return sim_moe_flops_local(m, T) + sim_moe_flops_expert(m,
	    T * m->top_k);
}

void
sim_compute(struct sim_run *run, int di, enum sim_kind kind,
    enum sim_part part, int l, int mb, int chunk, double flops)
{
	struct sim_dev *dv = &run->dev[di];
	double dt = flops / run->cost.flops;
	struct sim_event *e;

	e = sim_timeline_add(run->tl, di, kind, l + 1, mb, dv->clock,
	    dv->clock + dt, 0);
	if (e == NULL) {
		run->oom = 1;
		return;
	}
	e->part = part;
	e->shard = run->lay.d / run->lay.c > 1 ? dv->r / run->lay.c : -1;
	e->chunk = chunk;
	dv->clock += dt;
}

int
sim_stage_devices(const struct sim_run *run, int s, int *out)
{
	int r, k, n = 0;

	for (r = 0; r < run->lay.d; r++)
		for (k = 0; k < run->lay.t; k++)
			out[n++] = sim_rank(&run->lay, r, s, k);
	return n;
}

/* ZeRO-3: wait for layer l's gather on the stage's devices. */
static void
wait_gather(struct sim_run *run, const int *devs, int n, int l)
{
	struct sim_dev *dv;
	int i;

	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		if (dv->full_at[l] > dv->clock)
			dv->clock = dv->full_at[l];
	}
}

/* ZeRO-3 before layer l: its gather, then prefetch the next one's. */
static void
zero3_before(struct sim_run *run, const int *devs, int n, int l, int mb,
    int backward)
{
	int next = backward ? l - 1 : l + 1;

	if (!run->lay.zero3)
		return;
	sim_zero3_fetch(run, l, mb, backward);
	wait_gather(run, devs, n, l);
	if (run->lay.overlap && next >= 0 && next < SIM_LAYERS)
		sim_zero3_fetch(run, next, mb, backward);
}

/* ZeRO-3 after a forward: drop the gathered layer (reshard). */
static void
zero3_after_forward(struct sim_run *run, const int *devs, int n, int l)
{
	struct sim_dev *dv;
	int i;

	if (!run->lay.zero3)
		return;
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		sim_dev_free(run, devs[i], SIM_MEM_GATHER, &dv->full[l],
		    sim_zero3_shard(&run->lay) * run->lay.d, dv->clock);
	}
}

enum sim_step_kind
sim_layer_step_kind(const struct sim_layout *lay, int forward, int step)
{
	int ep = lay->e > 1;

	if (forward)
		switch (step) {
		case 2: case 4:
			return ep ? SIM_STEP_COMM : SIM_STEP_NONE;
		case 3:
			return ep ? SIM_STEP_COMPUTE : SIM_STEP_NONE;
		default:
			return SIM_STEP_COMPUTE;
		}
	switch (step) {
	case 0: case 4:
		return SIM_STEP_COMPUTE;
	case 1: case 3:
		return ep ? SIM_STEP_COMM : SIM_STEP_NONE;
	case 2:
		return ep ? SIM_STEP_COMPUTE : SIM_STEP_NONE;
	default:
		return SIM_STEP_NONE;
	}
}

/* Forward step 0: norm, attention, its reduction and the residual. */
static void
forward_attn(struct sim_run *run, const int *devs, int n, int s, int l,
    int mb, int chunk)
{
	const struct sim_shape *sh = &run->sh;
	struct sim_lparams w;
	struct sim_saved sv;
	struct sim_dev *dv;
	int i;

	zero3_before(run, devs, n, l, mb, 0);
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		dv->saved[l][mb] = sim_dev_alloc(run, devs[i], SIM_MEM_ACTS,
		    sim_saved_len(sh), dv->clock);
		if (dv->saved[l][mb] == NULL || dv->act[l][mb] == NULL) {
			run->oom = 1;
			return;
		}
		sim_dev_layer(run, devs[i], l, &w, NULL);
		saved_of(run, devs[i], l, mb, &sv);
		sim_fwd_norm1(sh, dv->k, &w, dv->act[l][mb], &sv);
	}
	if (run->lay.sp)
		tp_exchange(run, s, l, mb, chunk, SIM_ALL_GATHER, SIM_P_ACTS,
		    BUF_N1);
	/* CP: the ring replaces the local attention. */
	if (run->lay.c > 1)
		sim_cp_fwd_attn(run, devs, n, l, mb, chunk);
	for (i = 0; run->lay.c < 2 && i < n; i++) {
		sim_dev_layer(run, devs[i], l, &w, NULL);
		saved_of(run, devs[i], l, mb, &sv);
		sim_fwd_attn(sh, &w, &sv, run->dev[devs[i]].part);
		sim_compute(run, devs[i], SIM_FORWARD, SIM_PART_ATTN, l, mb,
		    chunk, sim_flops_attn(sh));
	}
	tp_exchange(run, s, l, mb, chunk, reduce_kind(run), SIM_P_ACTS,
	    BUF_PART);
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		sim_dev_layer(run, devs[i], l, &w, NULL);
		saved_of(run, devs[i], l, mb, &sv);
		sim_fwd_resid1(sh, dv->k, &w, dv->act[l][mb], dv->part, &sv);
	}
	if (run->lay.sp)
		tp_exchange(run, s, l, mb, chunk, SIM_ALL_GATHER, SIM_P_ACTS,
		    BUF_N2);
}

/* Forward step 1 without EP: the whole MLP (dense or MoE) here. */
static void
forward_mlp(struct sim_run *run, const int *devs, int n, int l, int mb,
    int chunk)
{
	struct sim_lparams w;
	struct sim_saved sv;
	int i;

	for (i = 0; i < n; i++) {
		sim_dev_layer(run, devs[i], l, &w, NULL);
		saved_of(run, devs[i], l, mb, &sv);
		if (run->lay.moe.experts > 0)
			sim_moe_fwd_mlp(&run->sh, &run->lay.moe, &w, &sv,
			    run->dev[devs[i]].part);
		else
			sim_fwd_mlp(&run->sh, &w, &sv, run->dev[devs[i]].part);
		sim_compute(run, devs[i], SIM_FORWARD, SIM_PART_MLP, l, mb,
		    chunk, mlp_flops(run));
	}
}

/* Forward step 5: the MLP's reduction, the residual, the layer's output. */
static void
forward_out(struct sim_run *run, const int *devs, int n, int s, int l,
    int mb, int chunk)
{
	size_t loc = (size_t)sim_shape_local(&run->sh) * H;
	struct sim_lparams w;
	struct sim_saved sv;
	struct sim_dev *dv;
	int i;

	tp_exchange(run, s, l, mb, chunk, reduce_kind(run), SIM_P_ACTS,
	    BUF_PART);
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		dv->act[l + 1][mb] = sim_dev_alloc(run, devs[i], SIM_MEM_ACTS,
		    loc, dv->clock);
		if (dv->act[l + 1][mb] == NULL)
			return;
		sim_dev_layer(run, devs[i], l, &w, NULL);
		saved_of(run, devs[i], l, mb, &sv);
		sim_fwd_resid2(&run->sh, dv->k, &w, &sv, dv->part,
		    dv->act[l + 1][mb]);
	}
	zero3_after_forward(run, devs, n, l);
}

void
sim_layer_forward_step(struct sim_run *run, int s, int l, int mb, int chunk,
    int step)
{
	int devs[SIM_MAX_GPUS] = { 0 }, n = sim_stage_devices(run, s, devs);

	if (sim_layer_step_kind(&run->lay, 1, step) == SIM_STEP_NONE)
		return;
	switch (step) {
	case 0:
		forward_attn(run, devs, n, s, l, mb, chunk);
		break;
	case 5:
		forward_out(run, devs, n, s, l, mb, chunk);
		break;
	default:	/* 1 to 4: the MLP, in EP's steps */
		if (run->lay.e > 1)
			sim_ep_fwd_step(run, devs, n, l, mb, chunk,
			    (enum sim_ep_step)(step - 1));
		else
			forward_mlp(run, devs, n, l, mb, chunk);
		break;
	}
}

/* After a layer's backward: free what it used, keep dx (and with split
 * the stash the W pass reads). */
static void
backward_free(struct sim_run *run, int di, int l, int mb)
{
	struct sim_dev *dv = &run->dev[di];
	size_t loc = (size_t)sim_shape_local(&run->sh) * H;

	sim_dev_free(run, di, SIM_MEM_ACTS, &dv->saved[l][mb],
	    sim_saved_len(&run->sh), dv->clock);
	sim_dev_free(run, di, SIM_MEM_ACTS, &dv->act[l][mb], loc, dv->clock);
	sim_dev_free(run, di, SIM_MEM_ACTS, &dv->dact[l + 1][mb], loc,
	    dv->clock);
	sim_ep_free(run, di, l, mb);
}

/*
 * Layer l's parameters and gradients on device di for a backward; with
 * split the weight products are left to the W pass (sim_block.h): the
 * gradient pointers they write are NULL.
 */
static void
bwd_layer(struct sim_run *run, int di, int l, int split,
    struct sim_lparams *w, struct sim_lparams *g)
{
	sim_dev_layer(run, di, l, w, g);
	if (!split)
		return;
	g->wq = g->wk = g->wv = g->wo = NULL;
	if (run->lay.moe.experts == 0)
		g->w1 = g->w2 = NULL;
}

/* Split backward: keep what the W pass of layer l needs from part of
 * the backward just run (mlp 1: dY, dU and their inputs a, n2; 0: dH,
 * dq, dk, dv and their inputs ctx, n1). */
static void
stash(struct sim_run *run, int di, int l, int mb, int mlp)
{
	struct sim_dev *dv = &run->dev[di];
	size_t T = (size_t)sim_shape_tokens(&run->sh);
	size_t hl = (size_t)(H / run->lay.t), fl = (size_t)(SIM_FFN / run->lay.t);
	struct sim_wstash ws;
	struct sim_saved sv;

	if (dv->wstash[l][mb] == NULL)
		dv->wstash[l][mb] = sim_dev_alloc(run, di, SIM_MEM_ACTS,
		    sim_wstash_len(&run->sh), dv->clock);
	if (dv->wstash[l][mb] == NULL)
		return;
	sim_wstash_view(dv->wstash[l][mb], &run->sh, &ws);
	saved_of(run, di, l, mb, &sv);
	if (mlp) {
		memcpy(ws.dy, dv->dwhole, T * H * sizeof(double));
		memcpy(ws.du, dv->work, T * fl * sizeof(double));
		memcpy(ws.n2, sv.n2, T * H * sizeof(double));
		memcpy(ws.a, sv.a, T * fl * sizeof(double));
		return;
	}
	memcpy(ws.dh, dv->dwhole, T * H * sizeof(double));
	memcpy(ws.dq, dv->work + T * hl, 3 * T * hl * sizeof(double));
	memcpy(ws.n1, sv.n1, T * H * sizeof(double));
	memcpy(ws.ctx, sv.ctx, T * hl * sizeof(double));
}

void
sim_layer_weights(struct sim_run *run, int s, int l, int mb, int chunk)
{
	int devs[SIM_MAX_GPUS] = { 0 }, n = sim_stage_devices(run, s, devs), i;
	int mlp = run->lay.moe.experts == 0;
	struct sim_lparams w, g;
	struct sim_wstash ws;
	struct sim_dev *dv;

	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		if (dv->wstash[l][mb] == NULL)
			return;
		sim_dev_layer(run, devs[i], l, &w, &g);
		sim_wstash_view(dv->wstash[l][mb], &run->sh, &ws);
		sim_bwd_weights(&run->sh, &g, &ws, mlp);
		sim_compute(run, devs[i], SIM_BACKWARD, SIM_PART_WEIGHTS, l,
		    mb, chunk, sim_flops_weights(&run->sh, mlp));
		sim_dev_free(run, devs[i], SIM_MEM_ACTS, &dv->wstash[l][mb],
		    sim_wstash_len(&run->sh), dv->clock);
	}
	sim_grads_layer_done(run, s, l, mb);
}

/* Backward step 0: the output's gradient, and without EP the MLP's
 * backward; with EP its first step. */
static void
backward_mlp(struct sim_run *run, const int *devs, int n, int s, int l,
    int mb, int chunk, int split)
{
	const struct sim_shape *sh = &run->sh;
	double mlp_w = split && run->lay.moe.experts == 0 ?
	    sim_flops_weights(sh, 1) - sim_flops_weights(sh, 0) : 0.0;
	struct sim_lparams w, g;
	struct sim_saved sv;
	struct sim_dev *dv;
	int i;

	zero3_before(run, devs, n, l, mb, 1);
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		if (dv->dact[l + 1][mb] == NULL || dv->saved[l][mb] == NULL) {
			run->oom = 1;
			return;
		}
		bwd_layer(run, devs[i], l, split, &w, &g);
		sim_bwd_out(sh, dv->k, &g, dv->dact[l + 1][mb], dv->dwhole);
	}
	if (run->lay.sp)
		tp_exchange(run, s, l, mb, chunk, SIM_ALL_GATHER,
		    SIM_P_ACT_GRADS, BUF_DWHOLE);
	if (run->lay.e > 1) {
		sim_ep_bwd_step(run, devs, n, l, mb, chunk, SIM_EP_LOCAL);
		return;
	}
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		bwd_layer(run, devs[i], l, split, &w, &g);
		saved_of(run, devs[i], l, mb, &sv);
		if (run->lay.moe.experts > 0)
			sim_moe_bwd_mlp(sh, &run->lay.moe, &w, &g, &sv,
			    dv->dwhole, dv->part);
		else
			sim_bwd_mlp(sh, &w, &g, &sv, dv->dwhole, dv->part,
			    dv->work);
		if (split && run->lay.moe.experts == 0)
			stash(run, devs[i], l, mb, 1);
		sim_compute(run, devs[i], SIM_BACKWARD, SIM_PART_MLP, l, mb,
		    chunk, 2.0 * mlp_flops(run) - mlp_w);
	}
}

/* Backward step 4: the MLP's reduction, the norm, attention, its
 * reduction and the input's gradient. */
static void
backward_attn(struct sim_run *run, const int *devs, int n, int s, int l,
    int mb, int chunk, int split)
{
	const struct sim_shape *sh = &run->sh;
	size_t loc = (size_t)sim_shape_local(sh) * H;
	struct sim_lparams w, g;
	struct sim_saved sv;
	struct sim_dev *dv;
	int i;

	tp_exchange(run, s, l, mb, chunk, reduce_kind(run), SIM_P_ACT_GRADS,
	    BUF_PART);
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		bwd_layer(run, devs[i], l, split, &w, &g);
		saved_of(run, devs[i], l, mb, &sv);
		sim_bwd_norm2(sh, dv->k, &w, &g, &sv, dv->dact[l + 1][mb],
		    dv->part, dv->dh, dv->dwhole);
	}
	if (run->lay.sp)
		tp_exchange(run, s, l, mb, chunk, SIM_ALL_GATHER,
		    SIM_P_ACT_GRADS, BUF_DWHOLE);
	/* CP: the ring replaces the local attention. */
	if (run->lay.c > 1)
		sim_cp_bwd_attn(run, devs, n, l, mb, chunk);
	for (i = 0; run->lay.c < 2 && i < n; i++) {
		dv = &run->dev[devs[i]];
		bwd_layer(run, devs[i], l, split, &w, &g);
		saved_of(run, devs[i], l, mb, &sv);
		sim_bwd_attn(sh, &w, &g, &sv, dv->dwhole, dv->part, dv->work);
		if (split)
			stash(run, devs[i], l, mb, 0);
		sim_compute(run, devs[i], SIM_BACKWARD, SIM_PART_ATTN, l, mb,
		    chunk, 2.0 * sim_flops_attn(sh) - (split ?
		    sim_flops_weights(sh, 0) : 0.0));
	}
	tp_exchange(run, s, l, mb, chunk, reduce_kind(run), SIM_P_ACT_GRADS,
	    BUF_PART);
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		dv->dact[l][mb] = sim_dev_alloc(run, devs[i], SIM_MEM_ACTS,
		    loc, dv->clock);
		if (dv->dact[l][mb] == NULL)
			return;
		bwd_layer(run, devs[i], l, split, &w, &g);
		saved_of(run, devs[i], l, mb, &sv);
		sim_bwd_norm1(sh, dv->k, &w, &g, &sv, dv->act[l][mb], dv->dh,
		    dv->part, dv->dact[l][mb]);
		backward_free(run, devs[i], l, mb);
	}
	if (!split)
		sim_grads_layer_done(run, s, l, mb);
}

void
sim_layer_backward_step(struct sim_run *run, int s, int l, int mb, int chunk,
    int split, int step)
{
	int devs[SIM_MAX_GPUS] = { 0 }, n = sim_stage_devices(run, s, devs);

	if (sim_layer_step_kind(&run->lay, 0, step) == SIM_STEP_NONE)
		return;
	if (step == 0)
		backward_mlp(run, devs, n, s, l, mb, chunk, split);
	else if (step == 4)
		backward_attn(run, devs, n, s, l, mb, chunk, split);
	else
		sim_ep_bwd_step(run, devs, n, l, mb, chunk,
		    (enum sim_ep_step)step);
}
