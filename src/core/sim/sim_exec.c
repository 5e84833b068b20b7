/*
 * sim_exec.c - the executor: one training step of the toy transformer on
 * the d x p x t grid of struct sim_layout, every device with its own
 * buffers.
 *
 * The step: the pipeline schedule (schedule.c) gives each stage its order
 * of forward and backward passes; the executor runs them as a list
 * scheduler does, always the pass that can start earliest, where a pass
 * starts when its stage is free and its input has arrived (the previous
 * virtual stage's activations, or the next one's gradients, plus the
 * send). Every replica runs the same passes at the same times. Each pass
 * runs its layers (sim_layer.c); the gradient collectives go out as their
 * layers finish (sim_grads.c). Then the remaining reductions, then Adam on
 * every device together (the global gradient-norm all-reduce of real
 * frameworks is that barrier). Loss, gradients and parameters are read
 * out at the end: inspection, not data movement, so no events.
 *
 * Memory: parameters, gradients and Adam state are accounted as they are
 * allocated; activations per layer and micro-batch (the boundaries and
 * what the block saves for backward) from the forward that makes them to
 * the backward that frees them; the per-device scratch a layer uses for
 * its partial sums is workspace and not accounted.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_modes.h"

#define H	SIM_HIDDEN
#define LP	SIM_LAYER_PARAMS

size_t
sim_zero3_shard(const struct sim_layout *lay)
{
	return (LP + (size_t)lay->d - 1) / (size_t)lay->d;
}

int
sim_rank(const struct sim_layout *lay, int r, int s, int k)
{
	int coord[MESH_N_AXES];

	coord[MESH_DP] = r / lay->c;
	coord[MESH_PP] = s;
	coord[MESH_TP] = k;
	coord[MESH_CP] = r % lay->c;
	return (int)mesh_rank(&lay->mesh, coord);
}

/* The group of axis a holding device rank, by the mesh, into g. */
static int
group(const struct sim_layout *lay, enum mesh_axis a, int rank, int *g)
{
	long members[SIM_MAX_GPUS];
	int i, n = mesh_group(&lay->mesh, a, rank, members);

	for (i = 0; i < n; i++)
		g[i] = (int)members[i];
	return n;
}

int
sim_tp_group(const struct sim_layout *lay, int r, int s, int *g)
{
	return group(lay, MESH_TP, sim_rank(lay, r, s, 0), g);
}

/* With CP the gradients are summed over DP x CP, as Megatron-Core's
 * data-parallel-with-context-parallel group does. */
int
sim_dp_group(const struct sim_layout *lay, int s, int k, int *g)
{
	int r;

	if (lay->c < 2)
		return group(lay, MESH_DP, sim_rank(lay, 0, s, k), g);
	for (r = 0; r < lay->d; r++)
		g[r] = sim_rank(lay, r, s, k);
	return lay->d;
}

int
sim_cp_group(const struct sim_layout *lay, int r, int s, int k, int *g)
{
	return group(lay, MESH_CP, sim_rank(lay, r, s, k), g);
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

/* Copy ZeRO-3 shard i of a layer between the full layout and loc. */
static void
map_shard(const struct sim_layout *lay, int i, double *loc, double *full,
    int to_local)
{
	size_t sh = sim_zero3_shard(lay), lo = (size_t)i * sh, x;

	for (x = 0; x < sh && lo + x < LP; x++) {
		if (to_local)
			loc[x] = full[lo + x];
		else
			full[lo + x] = loc[x];
	}
}

static int
stage_of_layer(const struct sim_layout *lay, int l)
{
	return (l / lay->lps) % lay->p;
}

/* Whether stage s holds layer l: DualPipe's stage s holds its own
 * layers and stage p-1-s's. */
static int
stage_holds(const struct sim_layout *lay, int s, int l)
{
	int own = stage_of_layer(lay, l);

	return own == s || (lay->dual && own == lay->p - 1 - s);
}

/* EP: a device is charged only for its own experts (sim_ep_grads.c). */
static void
unheld(struct sim_run *run, int i, enum sim_mem_kind kind, double t)
{
	size_t n = sim_ep_unheld(run, i);

	if (n > 0 && sim_timeline_mem(run->tl, i, t, kind,
	    -(long long)(n * sizeof(double))) != 0)
		run->oom = 1;
}

static void
init_device(struct sim_run *run, int i, double *params)
{
	const struct sim_layout *lay = &run->lay;
	size_t T = (size_t)sim_shape_tokens(&run->sh);
	struct sim_dev *dv = &run->dev[i];
	int l;

	dv->k = i % lay->t;
	dv->s = (i / lay->t) % lay->p;
	dv->r = i / (lay->t * lay->p);
	for (l = 0; l < SIM_LAYERS; l++) {
		dv->off[l] = SIZE_MAX;
		if (lay->zero3) {
			dv->off[l] = dv->n_w;
			dv->n_w += sim_zero3_shard(lay);
		} else if (stage_holds(lay, dv->s, l)) {
			dv->off[l] = dv->n_w;
			dv->n_w += sim_layer_size(lay->t);
		}
	}
	dv->w = sim_dev_alloc(run, i, SIM_MEM_PARAMS, dv->n_w, 0.0);
	dv->g = sim_dev_alloc(run, i, SIM_MEM_GRADS, dv->n_w, 0.0);
	unheld(run, i, SIM_MEM_PARAMS, 0.0);
	unheld(run, i, SIM_MEM_GRADS, 0.0);
	dv->part = calloc(T * H, sizeof *dv->part);
	dv->dwhole = calloc(T * H, sizeof *dv->dwhole);
	dv->dh = calloc(T * H, sizeof *dv->dh);
	dv->work = calloc(sim_work_len(&run->sh), sizeof *dv->work);
	if (dv->w == NULL || dv->g == NULL || dv->part == NULL ||
	    dv->dwhole == NULL || dv->dh == NULL || dv->work == NULL) {
		run->oom = 1;
		return;
	}
	for (l = 0; l < SIM_LAYERS; l++) {
		if (dv->off[l] == SIZE_MAX)
			continue;
		if (lay->zero3)
			map_shard(lay, dv->r, dv->w + dv->off[l],
			    params + (size_t)l * LP, 1);
		else
			sim_layer_map(lay->t, dv->k, dv->w + dv->off[l],
			    params + (size_t)l * LP, 1);
	}
}

/* Read replica 0's copy of every layer back into the full layout. */
static void
collect(struct sim_run *run, double *out, int grads)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_dev *dv;
	int l, i, k;

	for (l = 0; l < SIM_LAYERS; l++) {
		if (lay->zero3) {
			for (i = 0; i < run->n_dev; i++) {
				dv = &run->dev[i];
				map_shard(lay, dv->r, (grads ? dv->g : dv->w) +
				    dv->off[l], out + (size_t)l * LP, 0);
			}
			continue;
		}
		for (k = lay->t - 1; k >= 0; k--) {
			dv = &run->dev[sim_rank(lay, 0, stage_of_layer(lay, l),
			    k)];
			sim_layer_map(lay->t, k, (grads ? dv->g : dv->w) +
			    dv->off[l], out + (size_t)l * LP, 0);
		}
		if (lay->e > 1)
			sim_ep_collect(run, l, stage_of_layer(lay, l),
			    out + (size_t)l * LP, grads);
	}
}

/*
 * Copy replica r's rows of micro-batch mb from batch into out: with CP
 * its two load-balanced chunks (sim_ring.h), one after the other.
 */
static void
cp_slice(const struct sim_run *run, const double *batch, int g0, int r,
    double *out)
{
	int c = run->lay.c, ci = r % c, hc = SIM_SEQ / (2 * c);

	sim_model_slice(batch, g0, run->lay.b, ci * hc, (ci + 1) * hc, out);
	sim_model_slice(batch, g0, run->lay.b, (2 * c - 1 - ci) * hc,
	    (2 * c - ci) * hc, out + (size_t)hc * run->lay.b * H);
}

/* Positions of a sequence device k of stage holds: [*p0, *p1). */
static void
positions(const struct sim_run *run, int k, int *p0, int *p1)
{
	int n = run->lay.sp ? SIM_SEQ / run->lay.t : SIM_SEQ;

	*p0 = run->lay.sp ? k * n : 0;
	*p1 = *p0 + n;
}

/* The first sequence of micro-batch mb on replica r. */
static int
first_seq(const struct sim_run *run, int r, int mb)
{
	return (r / run->lay.c * run->lay.m + mb) * run->lay.b;
}

static void
load_data(struct sim_run *run, int di, int mb)
{
	struct sim_dev *dv = &run->dev[di];
	size_t n = (size_t)sim_shape_local(&run->sh) * H;
	int p0, p1;

	dv->act[0][mb] = sim_dev_alloc(run, di, SIM_MEM_ACTS, n, dv->clock);
	if (dv->act[0][mb] == NULL)
		return;
	positions(run, dv->k, &p0, &p1);
	if (run->lay.c > 1)
		cp_slice(run, run->x, first_seq(run, dv->r, mb), dv->r,
		    dv->act[0][mb]);
	else
		sim_model_slice(run->x, first_seq(run, dv->r, mb), run->lay.b,
		    p0, p1, dv->act[0][mb]);
}

/* The loss of the model's output on device di; keeps its gradient. */
static void
loss_of(struct sim_run *run, int di, int mb)
{
	struct sim_dev *dv = &run->dev[di];
	int rows = sim_shape_local(&run->sh), p0, p1;
	double loss;

	dv->dact[SIM_LAYERS][mb] = sim_dev_alloc(run, di, SIM_MEM_ACTS,
	    (size_t)rows * H, dv->clock);
	if (dv->dact[SIM_LAYERS][mb] == NULL || dv->act[SIM_LAYERS][mb] == NULL)
		return;
	positions(run, dv->k, &p0, &p1);
	if (run->lay.c > 1)
		cp_slice(run, run->target, first_seq(run, dv->r, mb), dv->r,
		    dv->part);
	else
		sim_model_slice(run->target, first_seq(run, dv->r, mb),
		    run->lay.b, p0, p1, dv->part);
	loss = sim_loss(dv->act[SIM_LAYERS][mb], dv->part, rows,
	    dv->dact[SIM_LAYERS][mb]);
	run->mb_loss[mb][di] = loss;
	sim_dev_free(run, di, SIM_MEM_ACTS, &dv->act[SIM_LAYERS][mb],
	    (size_t)rows * H, dv->clock);
}

/*
 * The step's loss: micro-batches, then replicas, then TP ranks, as the
 * MPI run's gather sums it (run_gather.c). Without sp every TP rank
 * computed the same loss: it counts once. Micro-batch mb's loss is on
 * the last stage, or under DualPipe's second direction on stage 0.
 */
static double
sum_loss(const struct sim_run *run)
{
	const struct sim_layout *lay = &run->lay;
	double loss = 0.0;
	int mb, r, k, s;

	for (mb = 0; mb < lay->m; mb++)
		for (r = 0; r < lay->d; r++)
			for (k = 0; k < lay->t; k++) {
				s = lay->dual && mb >= lay->m / 2 ? 0 :
				    lay->p - 1;
				if (lay->sp || k == 0)
					loss += run->mb_loss[mb][sim_rank(lay,
					    r, s, k)];
			}
	return loss;
}

/*
 * Send boundary j of micro-batch mb (activations, or with grads their
 * gradients) from every device of stage s to its peer on stage s2.
 * Returns the arrival time.
 */
static double
send_boundary(struct sim_run *run, int s, int s2, int j, int mb, int grads,
    int chunk)
{
	const struct sim_layout *lay = &run->lay;
	size_t len = (size_t)sim_shape_local(&run->sh) * H;
	struct sim_tag tag = { grads ? SIM_P_ACT_GRADS : SIM_P_ACTS,
	    grads ? j + 1 : j, mb, -1, chunk };
	struct sim_dev *a, *b;
	double t1 = 0.0, **dst, **src;
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
				return t1;
			tag.shard = lay->d > 1 ? r : -1;
			sim_send(run, from, to, *src, *dst, len, &tag, a->clock);
			sim_dev_free(run, from, SIM_MEM_ACTS, src, len, t1);
		}
	return t1;
}

struct pipe {
	const struct sched	*sc;
	int			 P;		/* virtual stages, p*v */
	double			*fwd_ready;	/* [mb*P + vs]: input there, NAN */
	double			*bwd_ready;	/* [mb*P + vs]: grad there, NAN */
};

static double
stage_clock(const struct sim_run *run, int s)
{
	return run->dev[sim_rank(&run->lay, 0, s, 0)].clock;
}

static void
set_stage_clock(struct sim_run *run, int s, double t)
{
	int r, k;

	for (r = 0; r < run->lay.d; r++)
		for (k = 0; k < run->lay.t; k++)
			run->dev[sim_rank(&run->lay, r, s, k)].clock = t;
}

/* The chunk events carry: interleaved, vs / p; DualPipe, the direction. */
static int
chunk_of(const struct sim_run *run, const struct pipe *pp, int vs, int mb)
{
	return run->lay.dual ? sched_direction(pp->sc, mb) : vs / run->lay.p;
}

static void
run_forward(struct sim_run *run, struct pipe *pp, int s, int vs, int mb)
{
	const struct sim_layout *lay = &run->lay;
	int l0 = vs * lay->lps, chunk = chunk_of(run, pp, vs, mb), l, r, k, s2;
	double ready;

	for (r = 0; vs == 0 && r < lay->d; r++)
		for (k = 0; k < lay->t; k++)
			load_data(run, sim_rank(lay, r, s, k), mb);
	for (l = l0; l < l0 + lay->lps && !run->oom; l++)
		sim_layer_forward(run, s, l, mb, chunk);
	if (vs == pp->P - 1) {
		for (r = 0; r < lay->d; r++)
			for (k = 0; k < lay->t; k++)
				loss_of(run, sim_rank(lay, r, s, k), mb);
		pp->bwd_ready[mb * pp->P + vs] = stage_clock(run, s);
		return;
	}
	s2 = sched_stage_of(pp->sc, vs + 1, mb);
	ready = s2 == s ? stage_clock(run, s) :
	    send_boundary(run, s, s2, l0 + lay->lps, mb, 0, chunk);
	pp->fwd_ready[mb * pp->P + vs + 1] = ready;
}

/* A split backward's W pass: the weight gradients of vs's layers. */
static void
run_weights(struct sim_run *run, struct pipe *pp, int s, int vs, int mb)
{
	int l0 = vs * run->lay.lps, chunk = chunk_of(run, pp, vs, mb), l;

	for (l = l0 + run->lay.lps - 1; l >= l0 && !run->oom; l--)
		sim_layer_weights(run, s, l, mb, chunk);
}

static void
run_backward(struct sim_run *run, struct pipe *pp, int s, int vs, int mb,
    int split)
{
	const struct sim_layout *lay = &run->lay;
	size_t loc = (size_t)sim_shape_local(&run->sh) * H;
	int l0 = vs * lay->lps, chunk = chunk_of(run, pp, vs, mb), l, r, k;
	int s2, di;
	double ready;

	for (l = l0 + lay->lps - 1; l >= l0 && !run->oom; l--)
		sim_layer_backward(run, s, l, mb, chunk, split);
	if (vs == 0) {
		for (r = 0; r < lay->d; r++)
			for (k = 0; k < lay->t; k++) {
				di = sim_rank(lay, r, s, k);
				sim_dev_free(run, di, SIM_MEM_ACTS,
				    &run->dev[di].dact[0][mb], loc,
				    run->dev[di].clock);
			}
		return;
	}
	s2 = sched_stage_of(pp->sc, vs - 1, mb);
	ready = s2 == s ? stage_clock(run, s) :
	    send_boundary(run, s, s2, l0, mb, 1, chunk);
	pp->bwd_ready[mb * pp->P + vs - 1] = ready;
}

/*
 * When the input of stage s's next op is there, NAN if not yet. A W pass
 * needs only its own B, run earlier on s; DualPipe's F&B pair waits for
 * the inputs of both.
 */
static double
ready_at(const struct pipe *pp, int s, const struct sched_op *op, int last)
{
	int vs = sched_vstage(pp->sc, s, op);
	double t, t2;

	if (op->pass == SCHED_W)
		return 0.0;
	t = (op->forward ? pp->fwd_ready : pp->bwd_ready)[op->mb * pp->P +
	    vs];
	if (!op->pair || last)
		return t;
	t2 = ready_at(pp, s, op + 1, 1);
	return isnan(t2) ? t2 : t2 > t ? t2 : t;
}

/* Run every op of the schedule, the earliest startable first. */
static int
run_pipeline(struct sim_run *run, const struct sched *sc)
{
	size_t n = (size_t)sc->m * sched_nvstages(sc), i, *next, left;
	struct pipe pp = { sc, sched_nvstages(sc), NULL, NULL };
	const struct sched_op *op;
	double t, best_t, r;
	int s, best;

	pp.fwd_ready = malloc(n * sizeof *pp.fwd_ready);
	pp.bwd_ready = malloc(n * sizeof *pp.bwd_ready);
	next = calloc((size_t)sc->p, sizeof *next);
	if (pp.fwd_ready == NULL || pp.bwd_ready == NULL || next == NULL)
		run->oom = 1;
	for (i = 0; !run->oom && i < n; i++) {
		pp.fwd_ready[i] = i % (size_t)pp.P == 0 ? 0.0 : NAN;
		pp.bwd_ready[i] = NAN;
	}
	for (left = 0, s = 0; s < sc->p; s++)
		left += sc->n_ops[s];
	while (!run->oom && left > 0) {
		best = -1;
		best_t = INFINITY;
		for (s = 0; s < sc->p; s++) {
			if (next[s] == sc->n_ops[s])
				continue;
			op = &sc->ops[(size_t)s * sc->n_per_stage + next[s]];
			r = ready_at(&pp, s, op, next[s] + 1 == sc->n_ops[s]);
			if (isnan(r))
				continue;
			t = r > stage_clock(run, s) ? r : stage_clock(run, s);
			if (t < best_t) {
				best_t = t;
				best = s;
			}
		}
		if (best < 0)
			break;		/* a deadlock: a schedule bug */
		op = &sc->ops[(size_t)best * sc->n_per_stage + next[best]++];
		set_stage_clock(run, best, best_t);
		if (op->forward)
			run_forward(run, &pp, best, sched_vstage(sc, best, op),
			    op->mb);
		else if (op->pass == SCHED_W)
			run_weights(run, &pp, best, sched_vstage(sc, best, op),
			    op->mb);
		else
			run_backward(run, &pp, best, sched_vstage(sc, best, op),
			    op->mb, op->pass == SCHED_BI);
		left--;
	}
	free(pp.fwd_ready);
	free(pp.bwd_ready);
	free(next);
	return run->oom || left > 0 ? -1 : 0;
}

/*
 * DualPipe: stage s and stage p-1-s hold the same two stages' layers, one
 * copy each way; their gradients are summed before the step (as
 * DualPipe's example adds each copy's gradient to its mirror's), so both
 * copies take the same update.
 */
static void
mirror_reduce(struct sim_run *run)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, 0, -1, -1, -1 };
	double *bufs[2];
	int g[2], r, s, k;

	for (r = 0; lay->dual && r < lay->d; r++)
		for (s = 0; s < lay->p / 2; s++)
			for (k = 0; k < lay->t; k++) {
				g[0] = sim_rank(lay, r, s, k);
				g[1] = sim_rank(lay, r, lay->p - 1 - s, k);
				bufs[0] = run->dev[g[0]].g;
				bufs[1] = run->dev[g[1]].g;
				sim_collective(run, SIM_ALL_REDUCE, &tag, g, 2,
				    bufs, run->dev[g[0]].n_w, 0, 0.0);
			}
}

static void
optimizer_step(struct sim_run *run)
{
	struct sim_dev *dv;
	struct sim_event *e;
	double t, t0 = 0.0;
	int i;

	for (i = 0; i < run->n_dev; i++) {
		if (run->dev[i].clock > t0)
			t0 = run->dev[i].clock;
		if (run->dev[i].comm > t0)
			t0 = run->dev[i].comm;
	}
	for (i = 0; i < run->n_dev; i++) {
		dv = &run->dev[i];
		dv->clock = t0;
		dv->am = sim_dev_alloc(run, i, SIM_MEM_OPTIM, dv->n_w, t0);
		dv->av = sim_dev_alloc(run, i, SIM_MEM_OPTIM, dv->n_w, t0);
		if (dv->am == NULL || dv->av == NULL)
			return;
		unheld(run, i, SIM_MEM_OPTIM, t0);
		unheld(run, i, SIM_MEM_OPTIM, t0);
		sim_adam(dv->w, dv->g, dv->am, dv->av, dv->n_w);
		t = run->cost.adam_s * (double)(dv->n_w - sim_ep_unheld(run, i));
		e = sim_timeline_add(run->tl, i, SIM_OPTIMIZER, 0, -1, t0,
		    t0 + t, 0);
		if (e == NULL)
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
		free(dv->part);
		free(dv->dwhole);
		free(dv->dh);
		free(dv->work);
		for (l = 0; l < SIM_LAYERS; l++) {
			free(dv->full[l]);
			free(dv->fullg[l]);
			for (mb = 0; mb < SIM_BATCH; mb++) {
				free(dv->saved[l][mb]);
				free(dv->wstash[l][mb]);
				sim_ep_free(run, i, l, mb);
			}
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
	run->sh.b = lay->b;
	run->sh.t = lay->t;
	run->sh.sp = lay->sp;
	run->sh.cp = lay->c;
	run->cost = *cost;
	run->tl = tl;
	run->n_dev = lay->d * lay->p * lay->t;
	run->dev = calloc((size_t)run->n_dev, sizeof *run->dev);
	if (run->dev == NULL || run->n_dev > SIM_MAX_GPUS ||
	    sched_build(lay->kind, lay->p, lay->m, lay->v, &sc, NULL) != 0)
		goto out;
	sim_model_data(run->x, run->target);
	sim_model_init(params);
	for (i = 0; i < run->n_dev && !run->oom; i++)
		init_device(run, i, params);
	if (!run->oom && run_pipeline(run, &sc) == 0) {
		sim_grads_finish(run);
		mirror_reduce(run);
		collect(run, grads, 1);
		optimizer_step(run);
		collect(run, params, 0);
		*loss = sum_loss(run);
		rc = run->oom ? -1 : 0;
	}
	sched_free(&sc);
out:
	free_devices(run);
	free(run);
	return rc;
}
