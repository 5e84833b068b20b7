/*
 * run_layer.c - one layer's forward and backward on this rank, with the
 * communication around it: Megatron's f and g over the TP group (or with
 * sequence parallelism all-gathers and reduce-scatters), ZeRO-3's gather
 * before and scatter after, and DDP's gradient bucket. The same steps in
 * the same order as sim_layer.c and sim_grads.c run them for one device.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "run/run_exec.h"

#define H	SIM_HIDDEN

static void
layer_view(struct run_exec *x, int l, struct sim_lparams *w,
    struct sim_lparams *g)
{
	if (x->lay.zero3) {
		sim_lparams_view(x->full[l], 1, w);
		if (g != NULL && x->fullg[l] != NULL)
			sim_lparams_view(x->fullg[l], 1, g);
		return;
	}
	sim_lparams_view(x->w + x->off[l], x->lay.t, w);
	if (g != NULL)
		sim_lparams_view(x->g + x->off[l], x->lay.t, g);
}

static void
saved_view(struct run_exec *x, int l, int mb, struct sim_saved *sv)
{
	sim_saved_view(x->saved[l][mb], &x->sh, sv);
}

static struct sim_tag
tag_of(const struct run_exec *x, enum sim_payload what, int layer, int mb,
    int chunk)
{
	struct sim_tag t = { what, layer, mb, x->lay.d > 1 ? x->r : -1, chunk };

	return t;
}

/* A TP collective on a whole-sized buffer (sim_layer.c's tp_exchange). */
static void
tp_exchange(struct run_exec *x, int l, int mb, int chunk, enum sim_kind kind,
    enum sim_payload what, double *buf)
{
	struct sim_tag tag = tag_of(x, what, l + 1, mb, chunk);

	if (x->lay.c > 1)	/* the data shard, as sim_layer.c tags it */
		tag.shard = x->lay.d / x->lay.c > 1 ? x->r / x->lay.c : -1;
	if (x->lay.t < 2)
		return;
	run_coll(&x->comm, &x->tp, kind, &tag, buf,
	    (size_t)sim_shape_tokens(&x->sh) * H);
}

static enum sim_kind
reduce_kind(const struct run_exec *x)
{
	return x->lay.sp ? SIM_REDUCE_SCATTER : SIM_ALL_REDUCE;
}

/* A compute event from t0 to now; moves overlapped transfers along. */
static void
computed(struct run_exec *x, enum sim_kind kind, enum sim_part part, int l,
    int mb, int chunk, double t0)
{
	struct sim_event *e = sim_timeline_add(&x->tl, x->proc->rank, kind,
	    l + 1, mb, t0, run_now(x->proc), 0);

	if (e == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	e->part = part;
	e->shard = x->lay.d / x->lay.c > 1 ? x->r / x->lay.c : -1;
	e->chunk = chunk;
	run_comm_poll(&x->comm);
}

void
run_cp_computed(struct run_exec *x, enum sim_kind kind, int l, int mb,
    int chunk, double t0)
{
	computed(x, kind, SIM_PART_ATTN, l, mb, chunk, t0);
}

/* ZeRO-3 -------------------------------------------------------------- */

static size_t
zero3_len(const struct run_exec *x)
{
	return sim_zero3_shard(&x->lay) * (size_t)x->lay.d;
}

/* sim_zero3_fetch: issue layer l's gather if not issued yet. */
static void
zero3_fetch(struct run_exec *x, int l, int mb, int backward)
{
	size_t sh = sim_zero3_shard(&x->lay), len = zero3_len(x);
	struct sim_tag tag = { SIM_P_PARAMS, l + 1, mb, -1, -1 };

	if (backward && x->fullg[l] == NULL)
		x->fullg[l] = run_alloc(x, SIM_MEM_GATHER, len);
	if (x->full[l] != NULL)
		return;		/* issued already (prefetched) */
	x->full[l] = run_alloc(x, SIM_MEM_GATHER, len);
	memcpy(x->full[l] + (size_t)x->r * sh, x->w + x->off[l],
	    sh * sizeof(double));
	x->full_h[l] = run_coll_start(&x->comm, &x->dp, SIM_ALL_GATHER, &tag,
	    x->full[l], len, x->lay.overlap, NULL, NULL);
	if (!x->lay.overlap && x->full_h[l] >= 0) {
		run_comm_wait(&x->comm, x->full_h[l]);
		x->full_h[l] = -1;
	}
}

static void
zero3_before(struct run_exec *x, int l, int mb, int backward)
{
	int next = backward ? l - 1 : l + 1;

	if (!x->lay.zero3)
		return;
	zero3_fetch(x, l, mb, backward);
	if (x->full_h[l] >= 0) {
		run_comm_wait(&x->comm, x->full_h[l]);
		x->full_h[l] = -1;
	}
	if (x->lay.overlap && next >= 0 && next < SIM_LAYERS)
		zero3_fetch(x, next, mb, backward);
}

static void
zero3_after_forward(struct run_exec *x, int l)
{
	if (x->lay.zero3)
		run_free(x, SIM_MEM_GATHER, &x->full[l], zero3_len(x));
}

/* A reduce-scatter of a layer's gradients in flight, for its callback. */
struct scatter {
	struct run_exec	*x;
	int		 l;
	double		*fullg;
};

static void
scatter_done(void *arg)
{
	struct scatter *sc = arg;
	struct run_exec *x = sc->x;
	size_t sh = sim_zero3_shard(&x->lay), i;
	double *g = x->g + x->off[sc->l];

	for (i = 0; i < sh; i++)
		g[i] += sc->fullg[(size_t)x->r * sh + i];
	run_free(x, SIM_MEM_GATHER, &sc->fullg, zero3_len(x));
	free(sc);
}

/* sim_grads.c's zero3_release: scatter layer l's grads, drop the layer. */
static void
zero3_release(struct run_exec *x, int l, int mb)
{
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, l + 1, mb, -1, -1 };
	struct scatter *sc = malloc(sizeof *sc);
	int h;

	if (sc == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	sc->x = x;
	sc->l = l;
	sc->fullg = x->fullg[l];
	x->fullg[l] = NULL;
	h = run_coll_start(&x->comm, &x->dp, SIM_REDUCE_SCATTER, &tag,
	    sc->fullg, zero3_len(x), x->lay.overlap, scatter_done, sc);
	if (!x->lay.overlap && h >= 0)
		run_comm_wait(&x->comm, h);
	run_free(x, SIM_MEM_GATHER, &x->full[l], zero3_len(x));
}

/* After layer l's backward of one micro-batch (sim_grads_layer_done). */
static void
layer_done(struct run_exec *x, int l, int mb)
{
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, l + 1, -1, -1, -1 };

	/* DualPipe: each copy of a layer sees half the micro-batches */
	int last = x->lay.dual ? x->lay.m / 2 : x->lay.m;

	x->bwd_done[l]++;
	if (x->lay.zero3)
		zero3_release(x, l, mb);
	else if (x->lay.d > 1 && x->lay.overlap && x->bwd_done[l] == last &&
	    x->lay.e > 1)
		run_ep_bucket(x, l, 1);
	else if (x->lay.d > 1 && x->lay.overlap && x->bwd_done[l] == last)
		run_coll_start(&x->comm, &x->dp, SIM_ALL_REDUCE, &tag,
		    x->g + x->off[l], sim_layer_size(x->lay.t), 1, NULL, NULL);
}

/* Forward and backward --------------------------------------------------- */

/* Forward step 0: norm, attention, its reduction and the residual. */
static void
forward_attn(struct run_exec *x, int l, int mb, int chunk)
{
	const struct sim_shape *sh = &x->sh;
	struct sim_lparams w;
	struct sim_saved sv;
	double t0;

	zero3_before(x, l, mb, 0);
	x->saved[l][mb] = run_alloc(x, SIM_MEM_ACTS, sim_saved_len(sh));
	layer_view(x, l, &w, NULL);
	saved_view(x, l, mb, &sv);
	t0 = run_now(x->proc);
	sim_fwd_norm1(sh, x->k, &w, x->act[l][mb], &sv);
	if (x->lay.sp) {
		tp_exchange(x, l, mb, chunk, SIM_ALL_GATHER, SIM_P_ACTS, sv.n1);
		t0 = run_now(x->proc);
	}
	if (x->lay.c > 1) {
		run_cp_fwd_attn(x, l, mb, chunk, &w, &sv);
	} else {
		sim_fwd_attn(sh, &w, &sv, x->part);
		computed(x, SIM_FORWARD, SIM_PART_ATTN, l, mb, chunk, t0);
	}
	tp_exchange(x, l, mb, chunk, reduce_kind(x), SIM_P_ACTS, x->part);
	sim_fwd_resid1(sh, x->k, &w, x->act[l][mb], x->part, &sv);
	if (x->lay.sp)
		tp_exchange(x, l, mb, chunk, SIM_ALL_GATHER, SIM_P_ACTS, sv.n2);
}

/* Forward step 1 without EP: the whole MLP here. */
static void
forward_mlp(struct run_exec *x, int l, int mb, int chunk,
    const struct sim_lparams *w, struct sim_saved *sv)
{
	double t0 = run_now(x->proc);

	if (x->lay.moe.experts > 0)
		sim_moe_fwd_mlp(&x->sh, &x->lay.moe, w, sv, x->part);
	else
		sim_fwd_mlp(&x->sh, w, sv, x->part);
	computed(x, SIM_FORWARD, SIM_PART_MLP, l, mb, chunk, t0);
}

/* Forward step 5: the MLP's reduction, the residual, the output. */
static void
forward_out(struct run_exec *x, int l, int mb, int chunk,
    const struct sim_lparams *w, struct sim_saved *sv)
{
	size_t loc = (size_t)sim_shape_local(&x->sh) * H;

	tp_exchange(x, l, mb, chunk, reduce_kind(x), SIM_P_ACTS, x->part);
	x->act[l + 1][mb] = run_alloc(x, SIM_MEM_ACTS, loc);
	sim_fwd_resid2(&x->sh, x->k, w, sv, x->part, x->act[l + 1][mb]);
	zero3_after_forward(x, l);
}

/* sim_layer.c's steps; an all-to-all a step started is settled by the
 * pass's next step. */
void
run_layer_forward_step(struct run_exec *x, int l, int mb, int chunk,
    int step)
{
	struct sim_lparams w;
	struct sim_saved sv;

	if (sim_layer_step_kind(&x->lay, 1, step) == SIM_STEP_NONE)
		return;
	if (step == 0) {
		forward_attn(x, l, mb, chunk);
		return;
	}
	layer_view(x, l, &w, NULL);
	saved_view(x, l, mb, &sv);
	run_ep_settle(x, l, mb, &w, NULL, &sv);
	if (step == 5)
		forward_out(x, l, mb, chunk, &w, &sv);
	else if (x->lay.e > 1)
		run_ep_fwd_step(x, l, mb, chunk, &w, &sv,
		    (enum sim_ep_step)(step - 1));
	else
		forward_mlp(x, l, mb, chunk, &w, &sv);
}

/* Split backward (sim_layer.c's stash): keep what the W pass of layer l
 * needs, the output gradients and the products' inputs. */
static void
stash(struct run_exec *x, int l, int mb, const struct sim_saved *sv,
    int mlp)
{
	size_t T = (size_t)sim_shape_tokens(&x->sh);
	size_t hl = (size_t)(H / x->lay.t), fl = (size_t)(SIM_FFN / x->lay.t);
	struct sim_wstash ws;

	if (x->wstash[l][mb] == NULL)
		x->wstash[l][mb] = run_alloc(x, SIM_MEM_ACTS,
		    sim_wstash_len(&x->sh));
	sim_wstash_view(x->wstash[l][mb], &x->sh, &ws);
	if (mlp) {
		memcpy(ws.dy, x->dwhole, T * H * sizeof(double));
		memcpy(ws.du, x->work, T * fl * sizeof(double));
		memcpy(ws.n2, sv->n2, T * H * sizeof(double));
		memcpy(ws.a, sv->a, T * fl * sizeof(double));
		return;
	}
	memcpy(ws.dh, x->dwhole, T * H * sizeof(double));
	memcpy(ws.dq, x->work + T * hl, 3 * T * hl * sizeof(double));
	memcpy(ws.n1, sv->n1, T * H * sizeof(double));
	memcpy(ws.ctx, sv->ctx, T * hl * sizeof(double));
}

void
run_layer_weights(struct run_exec *x, int l, int mb, int chunk)
{
	int mlp = x->lay.moe.experts == 0;
	struct sim_lparams w, g;
	struct sim_wstash ws;
	double t0 = run_now(x->proc);

	layer_view(x, l, &w, &g);
	sim_wstash_view(x->wstash[l][mb], &x->sh, &ws);
	sim_bwd_weights(&x->sh, &g, &ws, mlp);
	computed(x, SIM_BACKWARD, SIM_PART_WEIGHTS, l, mb, chunk, t0);
	run_free(x, SIM_MEM_ACTS, &x->wstash[l][mb], sim_wstash_len(&x->sh));
	layer_done(x, l, mb);
}

/* Layer l's weights and gradients for a backward; with split the
 * weights' products wait for the W pass (sim_block.h). */
static void
bwd_view(struct run_exec *x, int l, int split, struct sim_lparams *w,
    struct sim_lparams *g)
{
	layer_view(x, l, w, g);
	if (split) {
		g->wq = g->wk = g->wv = g->wo = NULL;
		if (x->lay.moe.experts == 0)
			g->w1 = g->w2 = NULL;
	}
}

/* Backward step 0: the output's gradient; the MLP's backward, or with
 * EP its first step. */
static void
backward_mlp(struct run_exec *x, int l, int mb, int chunk, int split)
{
	const struct sim_shape *sh = &x->sh;
	struct sim_lparams w, g;
	struct sim_saved sv;
	double t0;

	zero3_before(x, l, mb, 1);
	bwd_view(x, l, split, &w, &g);
	saved_view(x, l, mb, &sv);
	t0 = run_now(x->proc);
	sim_bwd_out(sh, x->k, &g, x->dact[l + 1][mb], x->dwhole);
	if (x->lay.sp) {
		tp_exchange(x, l, mb, chunk, SIM_ALL_GATHER, SIM_P_ACT_GRADS,
		    x->dwhole);
		t0 = run_now(x->proc);
	}
	if (x->lay.e > 1) {
		run_ep_bwd_step(x, l, mb, chunk, &w, &g, &sv, SIM_EP_LOCAL);
		return;
	}
	if (x->lay.moe.experts > 0)
		sim_moe_bwd_mlp(sh, &x->lay.moe, &w, &g, &sv, x->dwhole,
		    x->part);
	else
		sim_bwd_mlp(sh, &w, &g, &sv, x->dwhole, x->part, x->work);
	if (split && x->lay.moe.experts == 0)
		stash(x, l, mb, &sv, 1);
	computed(x, SIM_BACKWARD, SIM_PART_MLP, l, mb, chunk, t0);
}

/* Backward step 4: the MLP's reduction, the norm, attention, its
 * reduction, the input's gradient. */
static void
backward_attn(struct run_exec *x, int l, int mb, int chunk, int split,
    const struct sim_lparams *w, const struct sim_lparams *g,
    const struct sim_saved *sv)
{
	const struct sim_shape *sh = &x->sh;
	size_t loc = (size_t)sim_shape_local(sh) * H;
	double t0;

	tp_exchange(x, l, mb, chunk, reduce_kind(x), SIM_P_ACT_GRADS, x->part);
	t0 = run_now(x->proc);
	sim_bwd_norm2(sh, x->k, w, g, sv, x->dact[l + 1][mb], x->part,
	    x->dh, x->dwhole);
	if (x->lay.sp) {
		tp_exchange(x, l, mb, chunk, SIM_ALL_GATHER, SIM_P_ACT_GRADS,
		    x->dwhole);
		t0 = run_now(x->proc);
	}
	if (x->lay.c > 1) {
		run_cp_bwd_attn(x, l, mb, chunk, w, g, sv);
	} else {
		sim_bwd_attn(sh, w, g, sv, x->dwhole, x->part, x->work);
		if (split)
			stash(x, l, mb, sv, 0);
		computed(x, SIM_BACKWARD, SIM_PART_ATTN, l, mb, chunk, t0);
	}
	tp_exchange(x, l, mb, chunk, reduce_kind(x), SIM_P_ACT_GRADS, x->part);
	x->dact[l][mb] = run_alloc(x, SIM_MEM_ACTS, loc);
	sim_bwd_norm1(sh, x->k, w, g, sv, x->act[l][mb], x->dh, x->part,
	    x->dact[l][mb]);
	run_free(x, SIM_MEM_ACTS, &x->saved[l][mb], sim_saved_len(sh));
	run_free(x, SIM_MEM_ACTS, &x->act[l][mb], loc);
	run_free(x, SIM_MEM_ACTS, &x->dact[l + 1][mb], loc);
	run_ep_free(x, l, mb);
	if (!split)
		layer_done(x, l, mb);
}

void
run_layer_backward_step(struct run_exec *x, int l, int mb, int chunk,
    int split, int step)
{
	struct sim_lparams w, g;
	struct sim_saved sv;

	if (sim_layer_step_kind(&x->lay, 0, step) == SIM_STEP_NONE)
		return;
	if (step == 0) {
		backward_mlp(x, l, mb, chunk, split);
		return;
	}
	bwd_view(x, l, split, &w, &g);
	saved_view(x, l, mb, &sv);
	run_ep_settle(x, l, mb, &w, &g, &sv);
	if (step == 4)
		backward_attn(x, l, mb, chunk, split, &w, &g, &sv);
	else
		run_ep_bwd_step(x, l, mb, chunk, &w, &g, &sv,
		    (enum sim_ep_step)step);
}

/* After the pipeline ------------------------------------------------------ */

/* sim_grads.c's pack_replicated: g1, bo, g2, b2 of every layer held. */
static size_t
pack_replicated(struct run_exec *x, double *buf, int to_buf)
{
	struct sim_lparams w, g;
	size_t n = 0;
	int l;

	for (l = 0; l < SIM_LAYERS; l++) {
		if (x->off[l] == SIZE_MAX)
			continue;
		layer_view(x, l, &w, &g);
		n += sim_replicated_copy(&g, buf + n, to_buf);
	}
	return n;
}

void
run_grads_finish(struct run_exec *x)
{
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, 0, -1, -1, -1 };
	double buf[4 * SIM_LAYERS * H];
	size_t len;
	int l;

	/* The buckets' sums come first, as in the simulator. */
	run_comm_drain(&x->comm);
	for (l = SIM_LAYERS - 1; x->lay.e > 1 && !x->lay.overlap && l >= 0;
	    l--)
		if (x->off[l] != SIZE_MAX)
			run_ep_bucket(x, l, 0);
	if (x->lay.d > 1 && !x->lay.zero3 && !x->lay.overlap && x->lay.e < 2)
		run_coll(&x->comm, &x->dp, SIM_ALL_REDUCE, &tag, x->g, x->n_w);
	if (x->lay.sp && x->lay.t > 1) {
		len = pack_replicated(x, buf, 1);
		run_coll(&x->comm, &x->tp, SIM_ALL_REDUCE, &tag, buf, len);
		pack_replicated(x, buf, 0);
	}
	/* DualPipe: sim_exec.c's mirror_reduce */
	if (x->lay.dual)
		run_coll(&x->comm, &x->mirror, SIM_ALL_REDUCE, &tag, x->g,
		    x->n_w);
}
