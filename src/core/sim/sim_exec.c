/*
 * sim_exec.c - the executor: one training step of the toy transformer on
 * the d x p x t grid of struct sim_layout, every device with its own
 * buffers.
 *
 * The step: every stage's passes in its pipeline schedule's order
 * (sim_pipeline.c), each pass's layers (sim_layer.c) with the gradient
 * collectives going out as their layers finish (sim_grads.c); then the
 * remaining reductions, DualPipe's mirror sums, and Adam on every device
 * together (the global gradient-norm all-reduce of real frameworks is
 * that barrier). Loss, gradients and parameters are read out at the
 * end: inspection, not data movement, so no events.
 *
 * Memory: parameters, gradients and Adam state are accounted as they are
 * allocated; activations per layer and micro-batch (the boundaries and
 * what the block saves for backward) from the forward that makes them to
 * the backward that frees them; the per-device scratch a layer uses for
 * its partial sums is workspace and not accounted.
 */
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
	if (lay->dual) {	/* the second lane of run_pair */
		dv->spare[0] = calloc(T * H, sizeof(double));
		dv->spare[1] = calloc(T * H, sizeof(double));
		dv->spare[2] = calloc(T * H, sizeof(double));
		dv->spare[3] = calloc(sim_work_len(&run->sh), sizeof(double));
		for (l = 0; l < 4; l++)
			if (dv->spare[l] == NULL)
				run->oom = 1;
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
		for (l = 0; l < 4; l++)
			free(dv->spare[l]);
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
	if (!run->oom && sim_run_pipeline(run, &sc) == 0) {
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
