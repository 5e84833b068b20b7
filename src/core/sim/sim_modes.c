/*
 * sim_modes.c - the executor: one training step of the toy model on the
 * d x p x t grid of struct sim_layout, every device with its own buffers.
 *
 * Layers are 0-based here (events carry layer+1). Activation boundary j is
 * the input of layer j (j = 0 the data, j = 4 the output). Tensor
 * parallelism pairs layers Megatron-style: layers 0 and 2 are
 * column-parallel (each rank owns 16/t output columns and its slice of the
 * bias), layers 1 and 3 row-parallel (each rank owns 16/t input rows; the
 * bias is replicated and added after the forward all-reduce). So each pair
 * all-reduces once forward (the row layer's partial sums) and once
 * backward (the column layer's partial input gradient).
 *
 * The step: the pipeline schedule is timed first (sched_time, with op
 * durations from the same cost rule the executor uses), then its ops run
 * in start order, every replica alike; then the gradient all-reduce over
 * replicas (dp, 3d), then Adam on every device. FSDP gathers each layer
 * before use and frees it after, and reduce-scatters its gradients in the
 * backward pass. Loss, gradients and parameters are read out by the driver
 * at the end (inspection, not data movement, so no events).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_model.h"
#include "core/sim/sim_modes.h"

#define W	SIM_WIDTH
#define LP	SIM_LAYER_PARAMS

size_t
sim_fsdp_shard(const struct sim_layout *lay)
{
	return (LP + (size_t)lay->d - 1) / (size_t)lay->d;
}

int
sim_rank(const struct sim_layout *lay, int r, int s, int k)
{
	return (r * lay->p + s) * lay->t + k;
}

double *
sim_dev_alloc(struct sim_run *run, int dev, enum sim_mem_kind kind, size_t n,
    double t)
{
	double *p = calloc(n ? n : 1, sizeof *p);

	if (p == NULL || sim_timeline_mem(run->tl, dev, t, kind,
	    (long long)(n * sizeof *p)) != 0)
		run->oom = 1;
	return p;
}

void
sim_dev_free(struct sim_run *run, int dev, enum sim_mem_kind kind,
    double **p, size_t n, double t)
{
	if (*p == NULL)
		return;
	free(*p);
	*p = NULL;
	if (sim_timeline_mem(run->tl, dev, t, kind,
	    -(long long)(n * sizeof(double))) != 0)
		run->oom = 1;
}

static int
in_loc(const struct sim_layout *lay, int l)
{
	return lay->split[l] == SIM_SPLIT_ROW ? W / lay->t : W;
}

static int
out_loc(const struct sim_layout *lay, int l)
{
	return lay->split[l] == SIM_SPLIT_COL ? W / lay->t : W;
}

/* Width of activation boundary j on a device. */
static int
bwidth(const struct sim_layout *lay, int j)
{
	return j == 0 ? W : out_loc(lay, j - 1);
}

static size_t
local_params(const struct sim_layout *lay, int l)
{
	return (size_t)in_loc(lay, l) * out_loc(lay, l) + out_loc(lay, l);
}

static double
flops_time(const struct sim_run *run, int l, int forward)
{
	const struct sim_layout *lay = &run->lay;
	double f = 2.0 * lay->b * in_loc(lay, l) * out_loc(lay, l);

	return (forward ? f : 2.0 * f) / run->cost.flops;
}

/* Group of the TP ranks of (r, s) into g; returns t. */
static int
tp_group(const struct sim_layout *lay, int r, int s, int *g)
{
	int k;

	for (k = 0; k < lay->t; k++)
		g[k] = sim_rank(lay, r, s, k);
	return lay->t;
}

/* Group of all replicas of (s, k). */
static int
dp_group(const struct sim_layout *lay, int s, int k, int *g)
{
	int r;

	for (r = 0; r < lay->d; r++)
		g[r] = sim_rank(lay, r, s, k);
	return lay->d;
}

/* Seconds one layer takes for one microbatch, collectives included. */
static double
layer_time(const struct sim_run *run, int s, int l, int forward)
{
	const struct sim_layout *lay = &run->lay;
	size_t act = (size_t)lay->b * W * sizeof(double);
	size_t full = (size_t)lay->d * sim_fsdp_shard(lay) * sizeof(double);
	double t = flops_time(run, l, forward);
	int g[64], n;

	n = tp_group(lay, 0, s, g);
	if ((forward && lay->split[l] == SIM_SPLIT_ROW) ||
	    (!forward && lay->split[l] == SIM_SPLIT_COL))
		t += sim_coll_time(run, SIM_ALL_REDUCE, g, n, act);
	if (lay->fsdp) {
		n = dp_group(lay, s, 0, g);
		t += sim_coll_time(run, SIM_ALL_GATHER, g, n, full);
		if (!forward)
			t += sim_coll_time(run, SIM_REDUCE_SCATTER, g, n, full);
	}
	return t;
}

/* Time the schedule; fills sc's op times. */
static int
time_schedule(const struct sim_run *run, struct sched *sc)
{
	const struct sim_layout *lay = &run->lay;
	int P = lay->p * lay->v, vs, l, s, s2;
	double tf[SIM_LAYERS], tb[SIM_LAYERS], tc[SIM_LAYERS];
	size_t bytes;

	for (vs = 0; vs < P; vs++) {
		s = vs % lay->p;
		s2 = (vs + 1) % lay->p;
		tf[vs] = tb[vs] = 0.0;
		for (l = vs * lay->lps; l < (vs + 1) * lay->lps; l++) {
			tf[vs] += layer_time(run, s, l, 1);
			tb[vs] += layer_time(run, s, l, 0);
		}
		bytes = (size_t)lay->b *
		    bwidth(lay, (vs + 1) * lay->lps) * sizeof(double);
		tc[vs] = sim_send_time(&run->cost, sim_rank(lay, 0, s, 0),
		    sim_rank(lay, 0, s2, 0), bytes);
	}
	return sched_time(sc, tf, tb, tc) < 0 ? -1 : 0;
}

static void
params_of(struct sim_dev *dv, const struct sim_layout *lay, int l,
    double **w, double **b, double **gw, double **gb)
{
	size_t nw = (size_t)in_loc(lay, l) * out_loc(lay, l);

	if (lay->fsdp) {
		*w = dv->full[l];
		*gw = dv->fullg[l];
	} else {
		*w = dv->w + dv->off[l];
		*gw = dv->g + dv->off[l];
	}
	*b = *w + nw;
	*gb = *gw == NULL ? NULL : *gw + nw;
}

/* Forward of layer l for microbatch mb on device di, up to the TP sum. */
static void
fwd_layer(struct sim_run *run, int di, int l, int mb)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_dev *dv = &run->dev[di];
	int in = in_loc(lay, l), out = out_loc(lay, l);
	double *w, *b, *gw, *gb, *z;

	params_of(dv, lay, l, &w, &b, &gw, &gb);
	z = dv->act[l + 1][mb] = sim_dev_alloc(run, di, SIM_MEM_ACTS,
	    (size_t)lay->b * out, dv->clock);
	if (z == NULL)
		return;
	sim_mm(dv->act[l][mb], w, z, lay->b, in, out);
	if (lay->split[l] != SIM_SPLIT_ROW) {
		sim_add_bias(z, b, lay->b, out);
		if (l < SIM_LAYERS - 1)
			sim_tanh(z, lay->b * out);
	}
	if (sim_timeline_add(run->tl, di, SIM_FORWARD, l + 1, mb, dv->clock,
	    dv->clock + flops_time(run, l, 1), 0) == NULL)
		run->oom = 1;
	dv->clock += flops_time(run, l, 1);
}

/* After the row layer's all-reduce: bias and nonlinearity. */
static void
fwd_finish(struct sim_run *run, int di, int l, int mb)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_dev *dv = &run->dev[di];
	double *w, *b, *gw, *gb, *z = dv->act[l + 1][mb];

	params_of(dv, lay, l, &w, &b, &gw, &gb);
	sim_add_bias(z, b, lay->b, W);
	if (l < SIM_LAYERS - 1)
		sim_tanh(z, lay->b * W);
}

/* Loss of the output and its gradient, on the last stage's devices. */
static void
loss_of(struct sim_run *run, int di, int mb)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_dev *dv = &run->dev[di];
	size_t row0 = ((size_t)dv->r * lay->m + mb) * lay->b;
	double *dy, loss;

	dy = dv->dact[SIM_LAYERS][mb] = sim_dev_alloc(run, di, SIM_MEM_ACTS,
	    (size_t)lay->b * W, dv->clock);
	if (dy == NULL || dv->act[SIM_LAYERS][mb] == NULL)
		return;
	loss = sim_loss(dv->act[SIM_LAYERS][mb], run->target + row0 * W,
	    lay->b, dy);
	if (dv->k == 0)
		run->loss += loss;
}

/* Backward of layer l: weight gradients and the (partial) input gradient. */
static void
bwd_layer(struct sim_run *run, int di, int l, int mb)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_dev *dv = &run->dev[di];
	int in = in_loc(lay, l), out = out_loc(lay, l), n = lay->b * out;
	double *w, *b, *gw, *gb, *dz = dv->dact[l + 1][mb];

	params_of(dv, lay, l, &w, &b, &gw, &gb);
	dv->dact[l][mb] = sim_dev_alloc(run, di, SIM_MEM_ACTS,
	    (size_t)lay->b * in, dv->clock);
	if (dz == NULL || gw == NULL || dv->dact[l][mb] == NULL)
		return;
	if (l < SIM_LAYERS - 1)
		sim_tanh_back(dz, dv->act[l + 1][mb], n);
	sim_mm_tn_acc(dv->act[l][mb], dz, gw, lay->b, in, out);
	sim_colsum_acc(dz, gb, lay->b, out);
	sim_mm_nt(dz, w, dv->dact[l][mb], lay->b, in, out);
	if (sim_timeline_add(run->tl, di, SIM_BACKWARD, l + 1, mb, dv->clock,
	    dv->clock + flops_time(run, l, 0), 0) == NULL)
		run->oom = 1;
	dv->clock += flops_time(run, l, 0);
	sim_dev_free(run, di, SIM_MEM_ACTS, &dv->act[l + 1][mb], (size_t)n,
	    dv->clock);
	sim_dev_free(run, di, SIM_MEM_ACTS, &dv->dact[l + 1][mb], (size_t)n,
	    dv->clock);
}

/* Copy layer l between the full layout and TP rank k's local slice. */
static void
map_layer(const struct sim_layout *lay, int k, int l, double *loc,
    double *full, int to_local)
{
	int in = in_loc(lay, l), out = out_loc(lay, l), i, j, r0 = 0, c0 = 0;
	double *a, *b;

	if (lay->split[l] == SIM_SPLIT_COL)
		c0 = k * out;
	else if (lay->split[l] == SIM_SPLIT_ROW)
		r0 = k * in;
	for (i = 0; i < in; i++)
		for (j = 0; j < out; j++) {
			a = &loc[i * out + j];
			b = &full[(r0 + i) * W + c0 + j];
			*(to_local ? a : b) = *(to_local ? b : a);
		}
	for (j = 0; j < out; j++) {
		a = &loc[in * out + j];
		b = &full[W * W + c0 + j];
		*(to_local ? a : b) = *(to_local ? b : a);
	}
}

/* Copy FSDP shard i of layer l between the full layout and loc. */
static void
map_shard(const struct sim_layout *lay, int i, double *loc, double *full,
    int to_local)
{
	size_t sh = sim_fsdp_shard(lay), lo = (size_t)i * sh, x;

	for (x = 0; x < sh && lo + x < LP; x++) {
		if (to_local)
			loc[x] = full[lo + x];
		else
			full[lo + x] = loc[x];
	}
}

static void
init_device(struct sim_run *run, int i, double *params)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_dev *dv = &run->dev[i];
	int l;

	dv->k = i % lay->t;
	dv->s = (i / lay->t) % lay->p;
	dv->r = i / (lay->t * lay->p);
	for (l = 0; l < SIM_LAYERS; l++) {
		dv->off[l] = SIZE_MAX;
		if (lay->fsdp) {
			dv->off[l] = dv->n_w;
			dv->n_w += sim_fsdp_shard(lay);
		} else if ((l / lay->lps) % lay->p == dv->s) {
			dv->off[l] = dv->n_w;
			dv->n_w += local_params(lay, l);
		}
	}
	dv->w = sim_dev_alloc(run, i, SIM_MEM_PARAMS, dv->n_w, 0.0);
	dv->g = sim_dev_alloc(run, i, SIM_MEM_GRADS, dv->n_w, 0.0);
	if (dv->w == NULL || dv->g == NULL)
		return;
	for (l = 0; l < SIM_LAYERS; l++) {
		if (dv->off[l] == SIZE_MAX)
			continue;
		if (lay->fsdp)
			map_shard(lay, i, dv->w + dv->off[l],
			    params + (size_t)l * LP, 1);
		else
			map_layer(lay, dv->k, l, dv->w + dv->off[l],
			    params + (size_t)l * LP, 1);
	}
}

/* Read a replica-0 copy of every layer back into the full layout. */
static void
collect(struct sim_run *run, double *out, int grads)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_dev *dv;
	int l, i, k, s;

	for (l = 0; l < SIM_LAYERS; l++) {
		if (lay->fsdp) {
			for (i = 0; i < run->n_dev; i++) {
				dv = &run->dev[i];
				map_shard(lay, i, (grads ? dv->g : dv->w) +
				    dv->off[l], out + (size_t)l * LP, 0);
			}
			continue;
		}
		s = (l / lay->lps) % lay->p;
		for (k = lay->t - 1; k >= 0; k--) {
			dv = &run->dev[sim_rank(lay, 0, s, k)];
			map_layer(lay, k, l, (grads ? dv->g : dv->w) +
			    dv->off[l], out + (size_t)l * LP, 0);
		}
	}
}

/* FSDP: gather layer l's parameters (and grads buffer) on every device. */
static void
fsdp_gather(struct sim_run *run, int l, int mb, int with_grads)
{
	size_t sh = sim_fsdp_shard(&run->lay), len = sh * run->lay.d;
	double *bufs[64];
	int g[64], i;

	for (i = 0; i < run->n_dev; i++) {
		struct sim_dev *dv = &run->dev[i];

		g[i] = i;
		bufs[i] = dv->full[l] = sim_dev_alloc(run, i, SIM_MEM_PARAMS,
		    len, dv->clock);
		if (bufs[i] == NULL)
			return;
		memcpy(bufs[i] + i * sh, dv->w + dv->off[l], sh * sizeof(double));
		if (with_grads)
			dv->fullg[l] = sim_dev_alloc(run, i, SIM_MEM_GRADS, len,
			    dv->clock);
	}
	if (sim_all_gather(run, g, run->n_dev, bufs, len, l + 1, mb) != 0)
		run->oom = 1;
}

/* FSDP: reduce-scatter layer l's grads into the shards, free the layer. */
static void
fsdp_release(struct sim_run *run, int l, int mb, int with_grads)
{
	size_t sh = sim_fsdp_shard(&run->lay), len = sh * run->lay.d, x;
	double *bufs[64];
	int g[64], i;

	for (i = 0; with_grads && i < run->n_dev; i++) {
		g[i] = i;
		bufs[i] = run->dev[i].fullg[l];
		if (bufs[i] == NULL)
			return;
	}
	if (with_grads && sim_reduce_scatter(run, g, run->n_dev, bufs, len,
	    l + 1, mb) != 0)
		run->oom = 1;
	for (i = 0; i < run->n_dev; i++) {
		struct sim_dev *dv = &run->dev[i];

		for (x = 0; with_grads && x < sh; x++)
			dv->g[dv->off[l] + x] += dv->fullg[l][i * sh + x];
		sim_dev_free(run, i, SIM_MEM_GRADS, &dv->fullg[l], len,
		    dv->clock);
		sim_dev_free(run, i, SIM_MEM_PARAMS, &dv->full[l], len,
		    dv->clock);
	}
}

/* The TP all-reduce of boundary j (activations or their gradients). */
static void
tp_reduce(struct sim_run *run, int s, int j, int l, int mb, int grads)
{
	double *bufs[64];
	int g[64], n, r, k;

	for (r = 0; r < run->lay.d; r++) {
		n = tp_group(&run->lay, r, s, g);
		for (k = 0; k < n; k++) {
			struct sim_dev *dv = &run->dev[g[k]];

			bufs[k] = grads ? dv->dact[j][mb] : dv->act[j][mb];
			if (bufs[k] == NULL)
				return;
		}
		if (sim_all_reduce(run, g, n, bufs, (size_t)run->lay.b * W,
		    l + 1, mb) != 0)
			run->oom = 1;
	}
}

/* Send boundary j of microbatch mb from stage s to stage s2, each TP rank. */
static void
send_boundary(struct sim_run *run, int s, int s2, int j, int mb, int grads)
{
	const struct sim_layout *lay = &run->lay;
	size_t len = (size_t)lay->b * bwidth(lay, j);
	struct sim_dev *a, *b;
	double t1, **dst, **src;
	int r, k, from, to;

	for (r = 0; r < lay->d; r++)
		for (k = 0; k < lay->t; k++) {
			from = sim_rank(lay, r, s, k);
			to = sim_rank(lay, r, s2, k);
			a = &run->dev[from];
			b = &run->dev[to];
			src = grads ? &a->dact[j][mb] : &a->act[j][mb];
			dst = grads ? &b->dact[j][mb] : &b->act[j][mb];
			t1 = a->clock + sim_send_time(&run->cost, from, to,
			    len * sizeof(double));
			*dst = sim_dev_alloc(run, to, SIM_MEM_ACTS, len, t1);
			if (*dst == NULL || *src == NULL)
				return;
			sim_send(run, from, to, *src, *dst, len,
			    grads ? j + 1 : j, mb, a->clock);
			if (grads)
				sim_dev_free(run, from, SIM_MEM_ACTS, src, len,
				    a->clock);
		}
}

/* Call fn on every device of stage s, all replicas and TP ranks. */
static void
each(struct sim_run *run, int s, int l, int mb,
    void (*fn)(struct sim_run *, int, int, int))
{
	int r, k;

	for (r = 0; r < run->lay.d; r++)
		for (k = 0; k < run->lay.t; k++)
			fn(run, sim_rank(&run->lay, r, s, k), l, mb);
}

static void
load_data(struct sim_run *run, int di, int l, int mb)
{
	struct sim_dev *dv = &run->dev[di];
	size_t n = (size_t)run->lay.b * W;
	size_t row0 = ((size_t)dv->r * run->lay.m + mb) * run->lay.b;

	(void)l;
	dv->act[0][mb] = sim_dev_alloc(run, di, SIM_MEM_ACTS, n, dv->clock);
	if (dv->act[0][mb] != NULL)
		memcpy(dv->act[0][mb], run->x + row0 * W, n * sizeof(double));
}

static void
loss_each(struct sim_run *run, int di, int l, int mb)
{
	(void)l;
	loss_of(run, di, mb);
}

static void
free_input(struct sim_run *run, int di, int j, int mb)
{
	struct sim_dev *dv = &run->dev[di];
	size_t n = (size_t)run->lay.b * bwidth(&run->lay, j);

	sim_dev_free(run, di, SIM_MEM_ACTS, &dv->act[j][mb], n, dv->clock);
	if (j == 0)
		sim_dev_free(run, di, SIM_MEM_ACTS, &dv->dact[0][mb], n,
		    dv->clock);
}

static void
run_forward(struct sim_run *run, int s, int vs, int mb)
{
	const struct sim_layout *lay = &run->lay;
	int l0 = vs * lay->lps, l;

	if (vs == 0)
		each(run, s, 0, mb, load_data);
	for (l = l0; l < l0 + lay->lps; l++) {
		if (lay->fsdp)
			fsdp_gather(run, l, mb, 0);
		each(run, s, l, mb, fwd_layer);
		if (lay->split[l] == SIM_SPLIT_ROW) {
			tp_reduce(run, s, l + 1, l, mb, 0);
			each(run, s, l, mb, fwd_finish);
		}
		if (lay->fsdp)
			fsdp_release(run, l, mb, 0);
		if (l == SIM_LAYERS - 1)
			each(run, s, l, mb, loss_each);
	}
	/* Chunks on one device (p = 1) hand over in place. */
	if (vs < lay->p * lay->v - 1 && (vs + 1) % lay->p != s)
		send_boundary(run, s, (vs + 1) % lay->p, l0 + lay->lps, mb, 0);
}

static void
run_backward(struct sim_run *run, int s, int vs, int mb)
{
	const struct sim_layout *lay = &run->lay;
	int l0 = vs * lay->lps, l;

	for (l = l0 + lay->lps - 1; l >= l0; l--) {
		if (lay->fsdp)
			fsdp_gather(run, l, mb, 1);
		each(run, s, l, mb, bwd_layer);
		if (lay->split[l] == SIM_SPLIT_COL)
			tp_reduce(run, s, l, l, mb, 1);
		if (lay->fsdp)
			fsdp_release(run, l, mb, 1);
	}
	if (vs > 0 && (vs - 1) % lay->p == s)
		return;	/* the input is the previous chunk's output, kept */
	if (vs > 0)
		send_boundary(run, s, (vs - 1) % lay->p, l0, mb, 1);
	each(run, s, l0, mb, free_input);
}

struct op_ref {
	int			 s;	/* stage */
	const struct sched_op	*op;
};

static int
cmp_op(const void *a, const void *b)
{
	const struct op_ref *x = a, *y = b;

	if (x->op->start != y->op->start)
		return x->op->start < y->op->start ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

/* Run every op of the schedule in start order, each on all replicas. */
static int
run_pipeline(struct sim_run *run, const struct sched *sc)
{
	size_t n = (size_t)sc->p * sc->n_per_stage, i;
	struct op_ref *ops = malloc(n * sizeof *ops);
	int r, k, vs;

	if (ops == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		ops[i].s = (int)(i / sc->n_per_stage);
		ops[i].op = &sc->ops[i];
	}
	qsort(ops, n, sizeof *ops, cmp_op);
	for (i = 0; i < n && !run->oom; i++) {
		for (r = 0; r < run->lay.d; r++)
			for (k = 0; k < run->lay.t; k++)
				run->dev[sim_rank(&run->lay, r, ops[i].s,
				    k)].clock = ops[i].op->start;
		vs = sched_vstage(sc, ops[i].s, ops[i].op);
		if (ops[i].op->forward)
			run_forward(run, ops[i].s, vs, ops[i].op->mb);
		else
			run_backward(run, ops[i].s, vs, ops[i].op->mb);
	}
	free(ops);
	return run->oom ? -1 : 0;
}

/* Data parallel: all-reduce each device's gradients over the replicas. */
static void
dp_reduce(struct sim_run *run)
{
	double *bufs[64];
	int g[64], s, k, r;

	if (run->lay.d < 2 || run->lay.fsdp)
		return;
	for (s = 0; s < run->lay.p; s++)
		for (k = 0; k < run->lay.t; k++) {
			dp_group(&run->lay, s, k, g);
			for (r = 0; r < run->lay.d; r++)
				bufs[r] = run->dev[g[r]].g;
			if (sim_all_reduce(run, g, run->lay.d, bufs,
			    run->dev[g[0]].n_w, 0, -1) != 0)
				run->oom = 1;
		}
}

static void
optimizer_step(struct sim_run *run)
{
	struct sim_dev *dv;
	double t, t0 = 0.0;
	int i;

	/*
	 * The step starts on every device together, after the pipeline has
	 * flushed and the gradients are reduced (Megatron's global gradient
	 * norm all-reduce imposes that barrier).
	 */
	for (i = 0; i < run->n_dev; i++)
		if (run->dev[i].clock > t0)
			t0 = run->dev[i].clock;
	for (i = 0; i < run->n_dev; i++) {
		dv = &run->dev[i];
		dv->clock = t0;
		dv->am = sim_dev_alloc(run, i, SIM_MEM_OPTIM, dv->n_w, dv->clock);
		dv->av = sim_dev_alloc(run, i, SIM_MEM_OPTIM, dv->n_w, dv->clock);
		if (dv->am == NULL || dv->av == NULL)
			return;
		sim_adam(dv->w, dv->g, dv->am, dv->av, dv->n_w);
		t = run->cost.adam_flops * (double)dv->n_w / run->cost.flops;
		if (sim_timeline_add(run->tl, i, SIM_OPTIMIZER, 0, -1,
		    dv->clock, dv->clock + t, 0) == NULL)
			run->oom = 1;
		dv->clock += t;
	}
}

static void
free_devices(struct sim_run *run)
{
	struct sim_dev *dv;
	int i, l, mb;

	for (i = 0; run->dev != NULL && i < run->n_dev; i++) {
		dv = &run->dev[i];
		free(dv->w);
		free(dv->g);
		free(dv->am);
		free(dv->av);
		for (l = 0; l < SIM_LAYERS; l++) {
			free(dv->full[l]);
			free(dv->fullg[l]);
		}
		for (l = 0; l <= SIM_LAYERS; l++)
			for (mb = 0; mb < SIM_BATCH; mb++) {
				free(dv->act[l][mb]);
				free(dv->dact[l][mb]);
			}
	}
	free(run->dev);
}

int
sim_exec(const struct sim_layout *lay, const struct sim_cost *cost,
    struct sim_timeline *tl, double *loss, double *grads, double *params)
{
	struct sim_run *run = calloc(1, sizeof *run);
	struct sched sc;
	int i, rc = -1;

	if (run == NULL)
		return -1;
	run->lay = *lay;
	run->cost = *cost;
	run->tl = tl;
	run->n_dev = lay->d * lay->p * lay->t;
	run->dev = calloc((size_t)run->n_dev, sizeof *run->dev);
	if (run->dev == NULL || run->n_dev > 64 ||
	    sched_build(lay->kind, lay->p, lay->m, lay->v, &sc, NULL) != 0)
		goto out;
	sim_model_data(run->x, run->target);
	sim_model_init(params);
	for (i = 0; i < run->n_dev; i++)
		init_device(run, i, params);
	if (!run->oom && time_schedule(run, &sc) == 0 &&
	    run_pipeline(run, &sc) == 0) {
		dp_reduce(run);
		collect(run, grads, 1);
		optimizer_step(run);
		collect(run, params, 0);
		*loss = run->loss;
		rc = run->oom ? -1 : 0;
	}
	sched_free(&sc);
out:
	free_devices(run);
	free(run);
	return rc;
}
