/*
 * sim_collective.c - ring collectives and sends between simulated devices.
 *
 * The ring is the one NCCL runs: in reduce-scatter step q (q = 0..n-2)
 * member i sends chunk (i-q-1) mod n to member i+1, which adds it to its
 * own copy; after n-1 steps member i holds the full sum of chunk i. In
 * all-gather step q member i sends chunk (i-q) mod n, which member i+1
 * overwrites. An all-reduce is a reduce-scatter then an all-gather. All
 * members send at once in a step, so what is sent is copied to a wire
 * buffer first and applied after. Each member sends (n-1) chunks per
 * phase, so with len divisible by n it sends (n-1)/n of the array per
 * phase: the byte counts the cost formulas of costmodel.md §f assume.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim_collective.h"

static size_t
chunk_lo(size_t len, int n, int c)
{
	return len * (size_t)c / (size_t)n;
}

static int
node_of(const struct sim_cost *c, int dev)
{
	return c->gpus_per_node > 0 ? dev / c->gpus_per_node : 0;
}

static int
spans_nodes(const struct sim_cost *c, const int *group, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (node_of(c, group[i]) != node_of(c, group[0]))
			return 1;
	return 0;
}

static double
link_time(const struct sim_cost *c, int inter, double steps, double bytes)
{
	double alpha = inter ? c->alpha_inter : c->alpha_intra;
	double bw = inter ? c->bw_inter : c->bw_intra;

	return steps * alpha + bytes / bw;
}

double
sim_coll_time(const struct sim_run *run, enum sim_kind kind,
    const int *group, int n, size_t bytes)
{
	int inter = spans_nodes(&run->cost, group, n);
	double f = (double)(n - 1) / n;

	if (n < 2)
		return 0.0;
	if (kind == SIM_ALL_REDUCE)
		return link_time(&run->cost, inter, 2.0 * (n - 1),
		    2.0 * f * (double)bytes);
	return link_time(&run->cost, inter, n - 1, f * (double)bytes);
}

double
sim_send_time(const struct sim_cost *c, int from, int to, size_t bytes)
{
	int inter = node_of(c, from) != node_of(c, to);

	return link_time(c, inter, 1.0, (double)bytes);
}

/*
 * One ring phase. reduce: add (reduce-scatter), else copy (all-gather).
 * shift is 1 for reduce-scatter, 0 for all-gather. Adds to sent[i] the
 * bytes member i sent.
 */
static int
ring_phase(double **bufs, int n, size_t len, int reduce, int shift,
    size_t *sent)
{
	double *wire = malloc((len / (size_t)n + 1) * (size_t)n *
	    sizeof *wire);
	size_t lo, hi, j, woff[64];
	int q, i, c;

	if (wire == NULL)
		return -1;
	for (q = 0; q < n - 1; q++) {
		for (i = 0, j = 0; i < n; i++) {
			c = ((i - q - shift) % n + n) % n;
			lo = chunk_lo(len, n, c);
			hi = chunk_lo(len, n, c + 1);
			woff[i] = j;
			memcpy(wire + j, bufs[i] + lo, (hi - lo) * sizeof *wire);
			j += hi - lo;
			sent[i] += (hi - lo) * sizeof(double);
		}
		for (i = 0; i < n; i++) {
			double *dst = bufs[(i + 1) % n];
			size_t x;

			c = ((i - q - shift) % n + n) % n;
			lo = chunk_lo(len, n, c);
			hi = chunk_lo(len, n, c + 1);
			for (x = 0; x < hi - lo; x++)
				dst[lo + x] = reduce ? dst[lo + x] +
				    wire[woff[i] + x] : wire[woff[i] + x];
		}
	}
	free(wire);
	return 0;
}

static int
record(struct sim_run *run, const int *group, int n, enum sim_kind kind,
    size_t len, int layer, int mb, const size_t *sent)
{
	double start = 0.0, end;
	int i;

	for (i = 0; i < n; i++)
		if (run->dev[group[i]].clock > start)
			start = run->dev[group[i]].clock;
	end = start + sim_coll_time(run, kind, group, n,
	    len * sizeof(double));
	for (i = 0; i < n; i++) {
		run->dev[group[i]].clock = end;
		if (sim_timeline_add(run->tl, group[i], kind, layer, mb,
		    start, end, sent[i]) == NULL)
			return -1;
	}
	return 0;
}

static int
collective(struct sim_run *run, const int *group, int n, double **bufs,
    size_t len, int layer, int mb, enum sim_kind kind)
{
	size_t sent[64] = { 0 };

	if (n < 2)
		return 0;
	if (n > 64)
		return -1;
	if (kind != SIM_ALL_GATHER &&
	    ring_phase(bufs, n, len, 1, 1, sent) != 0)
		return -1;
	if (kind != SIM_REDUCE_SCATTER &&
	    ring_phase(bufs, n, len, 0, 0, sent) != 0)
		return -1;
	return record(run, group, n, kind, len, layer, mb, sent);
}

int
sim_all_reduce(struct sim_run *run, const int *group, int n, double **bufs,
    size_t len, int layer, int mb)
{
	return collective(run, group, n, bufs, len, layer, mb,
	    SIM_ALL_REDUCE);
}

int
sim_reduce_scatter(struct sim_run *run, const int *group, int n,
    double **bufs, size_t len, int layer, int mb)
{
	return collective(run, group, n, bufs, len, layer, mb,
	    SIM_REDUCE_SCATTER);
}

int
sim_all_gather(struct sim_run *run, const int *group, int n, double **bufs,
    size_t len, int layer, int mb)
{
	return collective(run, group, n, bufs, len, layer, mb,
	    SIM_ALL_GATHER);
}

double
sim_send(struct sim_run *run, int from, int to, const double *src,
    double *dst, size_t len, int layer, int mb, double t0)
{
	size_t bytes = len * sizeof(double);
	double t1 = t0 + sim_send_time(&run->cost, from, to, bytes);
	struct sim_event *e;

	memcpy(dst, src, bytes);
	e = sim_timeline_add(run->tl, from, SIM_SEND, layer, mb, t0, t1, bytes);
	if (e == NULL)
		run->oom = 1;
	else
		e->peer = to;
	e = sim_timeline_add(run->tl, to, SIM_RECV, layer, mb, t0, t1, bytes);
	if (e == NULL)
		run->oom = 1;
	else
		e->peer = from;
	return t1;
}
