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
 * Every step is recorded, so a player can show the chunks go round.
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
sim_ring_step_time(const struct sim_cost *c, const int *group, int n,
    double bytes)
{
	return link_time(c, spans_nodes(c, group, n), 1.0, bytes);
}

double
sim_coll_time(const struct sim_cost *c, enum sim_kind kind, const int *group,
    int n, size_t bytes)
{
	int steps = (kind == SIM_ALL_REDUCE ? 2 : 1) * (n - 1);

	if (n < 2)
		return 0.0;
	return steps * sim_ring_step_time(c, group, n, (double)bytes / n);
}

double
sim_send_time(const struct sim_cost *c, int from, int to, size_t bytes)
{
	int inter = node_of(c, from) != node_of(c, to);

	return link_time(c, inter, 1.0, (double)bytes);
}

/* The chunk member i sends in step q of a phase (shift 1: reduce-scatter). */
static int
sent_chunk(int i, int q, int n, int shift)
{
	return ((i - q - shift) % n + n) % n;
}

/*
 * One ring step: every member sends its chunk to the next; reduce adds
 * (reduce-scatter), else copies (all-gather). wire holds len doubles.
 */
static void
ring_step(double **bufs, int n, size_t len, int q, int reduce, double *wire)
{
	size_t lo, hi, x, woff[SIM_MAX_GPUS], j = 0;
	int i, c, shift = reduce;

	for (i = 0; i < n; i++) {
		c = sent_chunk(i, q, n, shift);
		lo = chunk_lo(len, n, c);
		hi = chunk_lo(len, n, c + 1);
		woff[i] = j;
		memcpy(wire + j, bufs[i] + lo, (hi - lo) * sizeof *wire);
		j += hi - lo;
	}
	for (i = 0; i < n; i++) {
		double *dst = bufs[(i + 1) % n];

		c = sent_chunk(i, q, n, shift);
		lo = chunk_lo(len, n, c);
		hi = chunk_lo(len, n, c + 1);
		for (x = 0; x < hi - lo; x++)
			dst[lo + x] = reduce ? dst[lo + x] + wire[woff[i] + x] :
			    wire[woff[i] + x];
	}
}

static struct sim_event *
tagged(struct sim_run *run, int dev, enum sim_kind kind,
    const struct sim_tag *tag, double start, double end, size_t bytes)
{
	struct sim_event *e = sim_timeline_add(run->tl, dev, kind, tag->layer,
	    tag->mb, start, end, bytes);

	if (e == NULL) {
		run->oom = 1;
		return NULL;
	}
	e->what = tag->what;
	e->shard = tag->shard;
	e->chunk = tag->chunk;
	return e;
}

/*
 * Record step q (of steps in all) of every member: the chunk each sends
 * in step qq of its phase (rs 1: reduce-scatter, 0: all-gather). Adds
 * the bytes member i sent to sent[i].
 */
static void
record_step(struct sim_run *run, const int *group, int n, size_t len,
    const struct sim_tag *tag, int q, int steps, int rs, int qq,
    int overlap, double t0, double t1, size_t *sent)
{
	struct sim_event *e;
	size_t bytes;
	int i, c;

	for (i = 0; i < n; i++) {
		c = sent_chunk(i, qq, n, rs);
		bytes = (chunk_lo(len, n, c + 1) - chunk_lo(len, n, c)) *
		    sizeof(double);
		sent[i] += bytes;
		e = tagged(run, group[i], SIM_RING_STEP, tag, t0, t1, bytes);
		if (e == NULL)
			return;
		e->peer = group[(i + 1) % n];
		e->collective = run->n_coll;
		e->ring_step = q;
		e->ring_steps = steps;
		e->ring_chunk = c;
		e->phase = rs ? SIM_REDUCE_SCATTER : SIM_ALL_GATHER;
		e->overlap = overlap;
	}
}

double
sim_collective(struct sim_run *run, enum sim_kind kind,
    const struct sim_tag *tag, const int *group, int n, double **bufs,
    size_t len, int overlap, double ready)
{
	int steps = (kind == SIM_ALL_REDUCE ? 2 : 1) * (n - 1), q, i, rs, qq;
	double start = ready, dt, t;
	double *wire;
	struct sim_event *e;
	size_t sent[SIM_MAX_GPUS] = { 0 };

	if (n < 2)
		return ready;
	wire = malloc((len + 1) * sizeof *wire);
	if (wire == NULL || n > SIM_MAX_GPUS) {
		free(wire);
		run->oom = 1;
		return ready;
	}
	for (i = 0; i < n; i++) {
		t = overlap ? run->dev[group[i]].comm : run->dev[group[i]].clock;
		if (t > start)
			start = t;
	}
	dt = sim_ring_step_time(&run->cost, group, n,
	    (double)len * sizeof(double) / n);
	for (q = 0; q < steps; q++) {
		rs = kind == SIM_REDUCE_SCATTER ||
		    (kind == SIM_ALL_REDUCE && q < n - 1);
		qq = kind == SIM_ALL_REDUCE && !rs ? q - (n - 1) : q;
		ring_step(bufs, n, len, qq, rs, wire);
		record_step(run, group, n, len, tag, q, steps, rs, qq, overlap,
		    start + q * dt, start + (q + 1) * dt, sent);
	}
	free(wire);
	t = start + steps * dt;
	for (i = 0; i < n; i++) {
		if (overlap)
			run->dev[group[i]].comm = t;
		else
			run->dev[group[i]].clock = t;
		e = tagged(run, group[i], kind, tag, start, t, sent[i]);
		if (e == NULL)
			break;
		e->peer = group[(i + 1) % n];
		e->collective = run->n_coll;
		e->ring_steps = steps;
		e->overlap = overlap;
	}
	run->n_coll++;
	return t;
}

double
sim_send(struct sim_run *run, int from, int to, const double *src,
    double *dst, size_t len, const struct sim_tag *tag, double t0)
{
	size_t bytes = len * sizeof(double);
	double t1 = t0 + sim_send_time(&run->cost, from, to, bytes);
	struct sim_event *e;

	memcpy(dst, src, bytes);
	if ((e = tagged(run, from, SIM_SEND, tag, t0, t1, bytes)) != NULL)
		e->peer = to;
	if ((e = tagged(run, to, SIM_RECV, tag, t0, t1, bytes)) != NULL)
		e->peer = from;
	return t1;
}
