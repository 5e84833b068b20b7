/*
 * timeline.c - the event list of a simulated step, and what is measured on
 * it afterwards (idle gaps, the bubble, bytes moved, peak memory).
 *
 * Events are appended in whatever order the simulator runs them; finishing
 * the timeline adds an idle event for each gap in a device's busy time and
 * sorts everything by start time (ties: device, then order of appending),
 * which is the order a player wants. A device is busy while it computes,
 * takes part in a blocking collective (TP's, which the next matmul waits
 * for) or steps the optimizer; point-to-point sends and receives, and the
 * collectives issued on a communication stream (DP gradient buckets,
 * ZeRO-3 gathers and scatters), run beside compute and do not make a
 * device busy.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sim/timeline.h"

static const char *const kind_names[SIM_NKINDS] = {
	"forward", "backward", "all-reduce", "all-gather", "reduce-scatter",
	"send", "receive", "optimizer", "idle", "ring-step"
};

static const char *const mem_names[SIM_NMEM] = {
	"params", "grads", "optimizer", "activations", "gathered"
};

static const char *const payload_names[SIM_NPAYLOADS] = {
	"none", "activations", "activation-grads", "weight-grads", "params",
	"keys-values", "key-value-grads", "dispatch", "combine"
};

static const char *const part_names[] = { "none", "attention", "mlp",
	"weights" };

const char *
sim_kind_name(enum sim_kind k)
{
	return (k >= 0 && k < SIM_NKINDS) ? kind_names[k] : "?";
}

const char *
sim_mem_kind_name(enum sim_mem_kind k)
{
	return (k >= 0 && k < SIM_NMEM) ? mem_names[k] : "?";
}

const char *
sim_payload_name(enum sim_payload p)
{
	return (p >= 0 && p < SIM_NPAYLOADS) ? payload_names[p] : "?";
}

const char *
sim_part_name(enum sim_part p)
{
	return (p >= SIM_PART_NONE && p <= SIM_PART_WEIGHTS) ? part_names[p] : "?";
}

int
sim_kind_is_compute(enum sim_kind k)
{
	return k == SIM_FORWARD || k == SIM_BACKWARD;
}

int
sim_kind_is_collective(enum sim_kind k)
{
	return k == SIM_ALL_REDUCE || k == SIM_ALL_GATHER ||
	    k == SIM_REDUCE_SCATTER;
}

int
sim_event_is_busy(const struct sim_event *e)
{
	if (sim_kind_is_collective(e->kind))
		return !e->overlap;
	return sim_kind_is_compute(e->kind) || e->kind == SIM_OPTIMIZER;
}

int
sim_timeline_init(struct sim_timeline *tl, int n_devices)
{
	memset(tl, 0, sizeof *tl);
	tl->n_devices = n_devices;
	tl->cur = calloc((size_t)n_devices * SIM_NMEM, sizeof *tl->cur);
	return tl->cur == NULL ? -1 : 0;
}

void
sim_timeline_free(struct sim_timeline *tl)
{
	if (tl == NULL)
		return;
	free(tl->ev);
	free(tl->mem);
	free(tl->cur);
	memset(tl, 0, sizeof *tl);
}

struct sim_event *
sim_timeline_add(struct sim_timeline *tl, int device, enum sim_kind kind,
    int layer, int microbatch, double start, double end, size_t bytes)
{
	struct sim_event *e;
	size_t cap;

	if (tl->n_ev == tl->cap_ev) {
		cap = tl->cap_ev ? 2 * tl->cap_ev : 64;
		e = realloc(tl->ev, cap * sizeof *e);
		if (e == NULL)
			return NULL;
		tl->ev = e;
		tl->cap_ev = cap;
	}
	e = &tl->ev[tl->n_ev];
	memset(e, 0, sizeof *e);
	e->device = device;
	e->kind = kind;
	e->what = SIM_P_NONE;
	e->part = SIM_PART_NONE;
	e->layer = layer;
	e->microbatch = microbatch;
	e->shard = e->chunk = e->peer = e->collective = e->expert = -1;
	e->ring_step = e->ring_chunk = -1;
	e->phase = SIM_IDLE;
	e->start = start;
	e->end = end;
	e->bytes = bytes;
	e->seq = tl->n_ev++;
	if (end > tl->t_end)
		tl->t_end = end;
	return e;
}

int
sim_timeline_mem(struct sim_timeline *tl, int device, double t,
    enum sim_mem_kind kind, long long delta)
{
	struct sim_mem_sample *m;
	size_t *cur = &tl->cur[(size_t)device * SIM_NMEM], cap;

	if (tl->n_mem == tl->cap_mem) {
		cap = tl->cap_mem ? 2 * tl->cap_mem : 64;
		m = realloc(tl->mem, cap * sizeof *m);
		if (m == NULL)
			return -1;
		tl->mem = m;
		tl->cap_mem = cap;
	}
	cur[kind] = (size_t)((long long)cur[kind] + delta);
	m = &tl->mem[tl->n_mem++];
	m->device = device;
	m->t = t;
	m->kind = kind;
	m->delta = delta;
	m->seq = tl->n_mem - 1;
	memcpy(m->bytes, cur, sizeof m->bytes);
	return 0;
}

static int
cmp_event(const void *a, const void *b)
{
	const struct sim_event *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmp_mem(const void *a, const void *b)
{
	const struct sim_mem_sample *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Idle events for one device: the gaps between its busy events. */
static int
fill_idle(struct sim_timeline *tl, int dev, size_t n_before)
{
	double t = 0.0;
	size_t i;

	/* Events are sorted, so busy spans come in start order. */
	for (i = 0; i < n_before; i++) {
		if (tl->ev[i].device != dev || !sim_event_is_busy(&tl->ev[i]))
			continue;
		if (tl->ev[i].start > t && sim_timeline_add(tl, dev, SIM_IDLE,
		    0, -1, t, tl->ev[i].start, 0) == NULL)
			return -1;
		if (tl->ev[i].end > t)
			t = tl->ev[i].end;
	}
	if (tl->t_end > t && sim_timeline_add(tl, dev, SIM_IDLE, 0, -1, t,
	    tl->t_end, 0) == NULL)
		return -1;
	return 0;
}

/* The samples' totals in time order, from their changes. */
static void
resum_memory(struct sim_timeline *tl)
{
	size_t i, *cur;

	memset(tl->cur, 0, (size_t)tl->n_devices * SIM_NMEM * sizeof *tl->cur);
	for (i = 0; i < tl->n_mem; i++) {
		cur = &tl->cur[(size_t)tl->mem[i].device * SIM_NMEM];
		cur[tl->mem[i].kind] = (size_t)((long long)cur[tl->mem[i].kind] +
		    tl->mem[i].delta);
		memcpy(tl->mem[i].bytes, cur, sizeof tl->mem[i].bytes);
	}
}

int
sim_timeline_finish(struct sim_timeline *tl)
{
	size_t n = tl->n_ev;
	int d;

	/* qsort must not see NULL: a timeline may have no events (nothing
	 * but memory changes) or no samples (a profiler trace) */
	if (tl->n_ev > 0)
		qsort(tl->ev, tl->n_ev, sizeof *tl->ev, cmp_event);
	for (d = 0; d < tl->n_devices; d++)
		if (fill_idle(tl, d, n) != 0)
			return -1;
	if (tl->n_ev > 0)
		qsort(tl->ev, tl->n_ev, sizeof *tl->ev, cmp_event);
	/* Samples at one time stay in the order they were taken. */
	if (tl->n_mem > 0)
		qsort(tl->mem, tl->n_mem, sizeof *tl->mem, cmp_mem);
	resum_memory(tl);
	return 0;
}

int
sim_timeline_compute_window(const struct sim_timeline *tl, double *lo,
    double *hi)
{
	double a = 0, b = 0;
	size_t i;
	int any = 0;

	for (i = 0; i < tl->n_ev; i++) {
		if (!sim_kind_is_compute(tl->ev[i].kind))
			continue;
		if (!any || tl->ev[i].start < a)
			a = tl->ev[i].start;
		if (!any || tl->ev[i].end > b)
			b = tl->ev[i].end;
		any = 1;
	}
	if (any) {
		*lo = a;
		*hi = b;
	}
	return any;
}

/* Seconds of event e inside [lo, hi). */
static double
inside(const struct sim_event *e, double lo, double hi)
{
	double a = e->start > lo ? e->start : lo, b = e->end < hi ? e->end : hi;

	return b > a ? b - a : 0.0;
}

/* Idle seconds inside the compute window, of device dev (-1: all). */
static double
idle_in_window(const struct sim_timeline *tl, int dev, double *span)
{
	double lo = 0, hi = 0, idle = 0;
	size_t i;

	*span = 0.0;
	if (!sim_timeline_compute_window(tl, &lo, &hi) || hi <= lo)
		return 0.0;
	*span = hi - lo;
	for (i = 0; i < tl->n_ev; i++) {
		if (tl->ev[i].kind != SIM_IDLE ||
		    (dev >= 0 && tl->ev[i].device != dev))
			continue;
		idle += inside(&tl->ev[i], lo, hi);
	}
	return idle;
}

double
sim_timeline_bubble(const struct sim_timeline *tl)
{
	double span, idle = idle_in_window(tl, -1, &span);

	return span > 0.0 ? idle / (span * tl->n_devices) : 0.0;
}

double
sim_timeline_device_bubble(const struct sim_timeline *tl, int device)
{
	double span, idle = idle_in_window(tl, device, &span);

	return span > 0.0 ? idle / span : 0.0;
}

size_t
sim_timeline_bytes(const struct sim_timeline *tl)
{
	size_t i, sum = 0;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind != SIM_RECV &&
		    tl->ev[i].kind != SIM_RING_STEP)
			sum += tl->ev[i].bytes;
	return sum;
}

static int
is_a2a(const struct sim_event *e, int dev)
{
	return e->device == dev && e->kind == SIM_RECV &&
	    (e->what == SIM_P_DISPATCH || e->what == SIM_P_COMBINE);
}

/* Seconds of [a, b) during which dev computes (its compute events do
 * not overlap one another). */
static double
computing(const struct sim_timeline *tl, int dev, double a, double b)
{
	double t = 0.0;
	size_t i;

	for (i = 0; i < tl->n_ev; i++) {
		if (tl->ev[i].device != dev || !sim_kind_is_compute(tl->ev[i].kind))
			continue;
		t += inside(&tl->ev[i], a, b);
	}
	return t;
}

double
sim_timeline_a2a(const struct sim_timeline *tl, int dev, double *hidden)
{
	double total = 0.0, a = 0.0, b = 0.0, h;
	size_t i;
	int open = 0;

	*hidden = 0.0;
	if (dev < 0) {
		for (dev = 0; dev < tl->n_devices; dev++) {
			total += sim_timeline_a2a(tl, dev, &h);
			*hidden += h;
		}
		return total;
	}
	/* events are sorted by start: merge the receives as they come */
	for (i = 0; i <= tl->n_ev; i++) {
		if (i < tl->n_ev && !is_a2a(&tl->ev[i], dev))
			continue;
		if (i < tl->n_ev && open && tl->ev[i].start <= b) {
			if (tl->ev[i].end > b)
				b = tl->ev[i].end;
			continue;
		}
		if (open) {
			total += b - a;
			*hidden += computing(tl, dev, a, b);
		}
		if (i == tl->n_ev)
			break;
		a = tl->ev[i].start;
		b = tl->ev[i].end;
		open = 1;
	}
	return total;
}

size_t
sim_timeline_peak(const struct sim_timeline *tl, int device)
{
	size_t i, peak = 0, sum;
	int k;

	for (i = 0; i < tl->n_mem; i++) {
		if (tl->mem[i].device != device)
			continue;
		for (sum = 0, k = 0; k < SIM_NMEM; k++)
			sum += tl->mem[i].bytes[k];
		if (sum > peak)
			peak = sum;
	}
	return peak;
}
