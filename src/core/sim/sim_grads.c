/*
 * sim_grads.c - the collectives around the gradients and the sharded
 * parameters: PyTorch DDP's gradient buckets, ZeRO-3's gathers and
 * scatters, and the reduction of the replicated parameters' gradients
 * that sequence parallelism needs.
 *
 * DDP ([LI20] "PyTorch Distributed", §3.2.3): gradients are grouped into
 * buckets, here one per layer, and a bucket's all-reduce is launched on a
 * communication stream as soon as every gradient in it is ready, while
 * the backward pass goes on with earlier layers. With gradient
 * accumulation the all-reduce waits for the last micro-batch (DDP's
 * no_sync). Without overlap the whole gradient is reduced in one
 * all-reduce after the backward pass.
 *
 * ZeRO-3 / FSDP ([ZERO] §5.3; PyTorch FSDP FULL_SHARD): a layer is
 * all-gathered before its forward, freed after it, gathered again before
 * its backward, and its gradients are reduce-scattered after it, every
 * micro-batch (reference/costmodel.md §f). With overlap the gathers run on
 * a communication stream and the next layer's is prefetched while this
 * one computes (FSDP's forward and backward prefetch).
 *
 * Sequence parallelism ([KOR22] §4.2.2): the norm gains and the row
 * layers' biases see only this rank's positions, so their gradients are
 * summed over the TP group once the pipeline is done (Megatron-LM's
 * all-reduce of the sequence-parallel parameters' gradients).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_modes.h"

#define H	SIM_HIDDEN

/* The latest compute clock of the devices in g. */
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

void
sim_zero3_fetch(struct sim_run *run, int l, int mb, int backward)
{
	size_t sh = sim_zero3_shard(&run->lay), len = sh * run->lay.d;
	struct sim_tag tag = { SIM_P_PARAMS, l + 1, mb, -1, -1 };
	double *bufs[SIM_MAX_GPUS], end;
	int g[SIM_MAX_GPUS], n, i;
	struct sim_dev *dv;

	n = sim_dp_group(&run->lay, 0, 0, g);
	for (i = 0; i < n; i++) {
		dv = &run->dev[g[i]];
		if (backward && dv->fullg[l] == NULL)
			dv->fullg[l] = sim_dev_alloc(run, g[i], SIM_MEM_GATHER,
			    len, dv->clock);
	}
	if (run->dev[g[0]].full[l] != NULL)
		return;		/* issued already (prefetched) */
	for (i = 0; i < n; i++) {
		dv = &run->dev[g[i]];
		bufs[i] = dv->full[l] = sim_dev_alloc(run, g[i], SIM_MEM_GATHER,
		    len, dv->clock);
		if (bufs[i] == NULL)
			return;
		memcpy(bufs[i] + (size_t)i * sh, dv->w + dv->off[l],
		    sh * sizeof(double));
	}
	end = sim_collective(run, SIM_ALL_GATHER, &tag, g, n, bufs, len,
	    run->lay.overlap, latest(run, g, n));
	for (i = 0; i < n; i++)
		run->dev[g[i]].full_at[l] = end;
}

/* ZeRO-3 after layer l's backward: scatter its gradients, drop the layer. */
static void
zero3_release(struct sim_run *run, int l, int mb)
{
	size_t sh = sim_zero3_shard(&run->lay), len = sh * run->lay.d, x;
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, l + 1, mb, -1, -1 };
	double *bufs[SIM_MAX_GPUS], end;
	int g[SIM_MAX_GPUS], n, i;
	struct sim_dev *dv;

	n = sim_dp_group(&run->lay, 0, 0, g);
	for (i = 0; i < n; i++)
		if ((bufs[i] = run->dev[g[i]].fullg[l]) == NULL)
			return;
	end = sim_collective(run, SIM_REDUCE_SCATTER, &tag, g, n, bufs, len,
	    run->lay.overlap, latest(run, g, n));
	for (i = 0; i < n; i++) {
		dv = &run->dev[g[i]];
		for (x = 0; x < sh; x++)
			dv->g[dv->off[l] + x] += dv->fullg[l][(size_t)i * sh + x];
		sim_dev_free(run, g[i], SIM_MEM_GATHER, &dv->fullg[l], len, end);
		sim_dev_free(run, g[i], SIM_MEM_GATHER, &dv->full[l], len,
		    dv->clock);
	}
}

/* DDP: all-reduce layer l's bucket over the replicas of stage s. */
static void
dp_bucket(struct sim_run *run, int s, int l)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, l + 1, -1, -1, -1 };
	double *bufs[SIM_MAX_GPUS];
	int g[SIM_MAX_GPUS], n, k, i;

	for (k = 0; k < lay->t; k++) {
		n = sim_dp_group(lay, s, k, g);
		for (i = 0; i < n; i++)
			bufs[i] = run->dev[g[i]].g + run->dev[g[i]].off[l];
		sim_collective(run, SIM_ALL_REDUCE, &tag, g, n, bufs,
		    sim_layer_size(lay->t), 1, latest(run, g, n));
	}
}

void
sim_grads_layer_done(struct sim_run *run, int s, int l, int mb)
{
	const struct sim_layout *lay = &run->lay;
	int r, k, done = 0;

	/* DualPipe: each copy of a layer sees half the micro-batches */
	int last = lay->dual ? lay->m / 2 : lay->m;

	for (r = 0; r < lay->d; r++)
		for (k = 0; k < lay->t; k++)
			done = ++run->dev[sim_rank(lay, r, s, k)].bwd_done[l];
	if (lay->zero3)
		zero3_release(run, l, mb);
	else if (lay->d > 1 && lay->overlap && done == last && lay->e > 1)
		sim_ep_bucket(run, s, l, 1);
	else if (lay->d > 1 && lay->overlap && done == last)
		dp_bucket(run, s, l);
}

/* DDP without overlap: one all-reduce of everything, after backward. */
static void
dp_all(struct sim_run *run)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, 0, -1, -1, -1 };
	double *bufs[SIM_MAX_GPUS];
	int g[SIM_MAX_GPUS], n, s, k, i;

	for (s = 0; lay->e > 1 && s < lay->p; s++)
		for (i = SIM_LAYERS - 1; i >= 0; i--)
			if (run->dev[sim_rank(lay, 0, s, 0)].off[i] != SIZE_MAX)
				sim_ep_bucket(run, s, i, 0);
	for (s = 0; lay->e < 2 && s < lay->p; s++)
		for (k = 0; k < lay->t; k++) {
			n = sim_dp_group(lay, s, k, g);
			for (i = 0; i < n; i++)
				bufs[i] = run->dev[g[i]].g;
			sim_collective(run, SIM_ALL_REDUCE, &tag, g, n, bufs,
			    run->dev[g[0]].n_w, 0, 0.0);
		}
}

/* Copy the replicated parameters' gradients of a device to or from buf. */
static size_t
pack_replicated(struct sim_run *run, int di, double *buf, int to_buf)
{
	struct sim_lparams w, g;
	size_t n = 0;
	int l;

	for (l = 0; l < SIM_LAYERS; l++) {
		if (run->dev[di].off[l] == SIZE_MAX)
			continue;
		sim_dev_layer(run, di, l, &w, &g);
		n += sim_replicated_copy(&g, buf + n, to_buf);
	}
	return n;
}

/* Sequence parallelism: sum the replicated gradients over each TP group. */
static void
sp_replicated(struct sim_run *run)
{
	const struct sim_layout *lay = &run->lay;
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, 0, -1, -1, -1 };
	double *bufs[SIM_MAX_GPUS];
	int g[SIM_MAX_GPUS], n, r, s, i;
	size_t len = 0;

	for (r = 0; r < lay->d; r++)
		for (s = 0; s < lay->p; s++) {
			n = sim_tp_group(lay, r, s, g);
			for (i = 0; i < n; i++) {
				bufs[i] = malloc(4 * SIM_LAYERS * H *
				    sizeof(double));
				if (bufs[i] == NULL)
					run->oom = 1;
				else
					len = pack_replicated(run, g[i], bufs[i],
					    1);
			}
			if (!run->oom)
				sim_collective(run, SIM_ALL_REDUCE, &tag, g, n,
				    bufs, len, 0, 0.0);
			for (i = 0; i < n; i++) {
				if (bufs[i] != NULL && !run->oom)
					pack_replicated(run, g[i], bufs[i], 0);
				free(bufs[i]);
			}
		}
}

void
sim_grads_finish(struct sim_run *run)
{
	const struct sim_layout *lay = &run->lay;

	if (lay->d > 1 && !lay->zero3 && !lay->overlap)
		dp_all(run);
	if (lay->sp && lay->t > 1)
		sp_replicated(run);
}
