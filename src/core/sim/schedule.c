/*
 * schedule.c - GPipe, 1F1B and interleaved 1F1B op orders, and a list
 * scheduler that places them in time.
 *
 * The op orders follow the published schedules (see schedule.h). The
 * interleaved order is Megatron-LM's forward_backward_pipelining_with_
 * interleaving: virtual microbatch k runs chunk (k mod p*v)/p of microbatch
 * (k / (p*v))*p + k mod p; stage s warms up with 2(p-s-1) + (v-1)p
 * forwards (all of them when m == p), then alternates, then cools down.
 *
 * Timing: ops on a stage run in order, each as soon as its stage is free
 * and its dependency has finished (plus t_comm across stages). With uniform
 * t_f, t_b and t_comm = 0 the makespan is (m+p-1)(t_f+t_b) for GPipe and
 * 1F1B and (m + (p-1)/v)(t_f+t_b) interleaved, which is where the bubble
 * shares of costmodel.md §e come from; the tests hold the simulation to it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/schedule.h"


int
sched_vstage(const struct sched *s, int stage, const struct sched_op *op)
{
	return op->chunk * s->p + stage;
}

static void
put(struct sched_op *op, int forward, int mb, int chunk)
{
	op->forward = forward;
	op->mb = mb;
	op->chunk = chunk;
	op->start = op->end = 0.0;
}

static void
order_gpipe(struct sched_op *ops, int m)
{
	int i;

	for (i = 0; i < m; i++)
		put(&ops[i], 1, i, 0);
	for (i = 0; i < m; i++)
		put(&ops[m + i], 0, i, 0);
}

static void
order_1f1b(struct sched_op *ops, int p, int m, int s)
{
	int w = p - s - 1, i, n = 0;

	if (w > m)
		w = m;
	for (i = 0; i < w; i++)
		put(&ops[n++], 1, i, 0);
	for (i = 0; i < m - w; i++) {
		put(&ops[n++], 1, w + i, 0);
		put(&ops[n++], 0, i, 0);
	}
	for (i = m - w; i < m; i++)
		put(&ops[n++], 0, i, 0);
}

/* Megatron's mapping of virtual microbatch k to (microbatch, chunk). */
static void
virt(int k, int p, int v, int forward, int *mb, int *chunk)
{
	int g = k % (p * v);

	*mb = (k / (p * v)) * p + k % p;
	*chunk = forward ? g / p : v - 1 - g / p;
}

static void
order_interleaved(struct sched_op *ops, int p, int m, int v, int s)
{
	int total = m * v, w, i, n = 0, mb, c;

	w = (m == p) ? total : (p - s - 1) * 2 + (v - 1) * p;
	if (w > total)
		w = total;
	for (i = 0; i < w; i++) {
		virt(i, p, v, 1, &mb, &c);
		put(&ops[n++], 1, mb, c);
	}
	for (i = 0; i < total - w; i++) {
		virt(w + i, p, v, 1, &mb, &c);
		put(&ops[n++], 1, mb, c);
		virt(i, p, v, 0, &mb, &c);
		put(&ops[n++], 0, mb, c);
	}
	for (i = total - w; i < total; i++) {
		virt(i, p, v, 0, &mb, &c);
		put(&ops[n++], 0, mb, c);
	}
}

int
sched_build(enum pipe_schedule kind, int p, int m, int v, struct sched *s,
    struct pl_err *err)
{
	int st;

	memset(s, 0, sizeof *s);
	if (p < 1 || m < 1 || v < 1) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("stages, microbatches and virtual stages must be positive"));
		return -1;
	}
	if (kind != PIPE_INTERLEAVED && v != 1) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("virtual stages need the interleaved schedule"));
		return -1;
	}
	if (kind == PIPE_INTERLEAVED && p > 1 && m % p != 0) {
		pl_err_set(err, NULL, 0, 0, _("the interleaved schedule needs "
		    "microbatches (%d) to be a multiple of the stages (%d)"),
		    m, p);
		return -1;
	}
	s->kind = kind;
	s->p = p;
	s->m = m;
	s->v = v;
	s->n_per_stage = (size_t)2 * m * v;
	s->ops = calloc((size_t)p * s->n_per_stage, sizeof *s->ops);
	if (s->ops == NULL) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	for (st = 0; st < p; st++) {
		struct sched_op *o = &s->ops[(size_t)st * s->n_per_stage];

		if (kind == PIPE_GPIPE)
			order_gpipe(o, m);
		else if (kind == PIPE_1F1B)
			order_1f1b(o, p, m, st);
		else
			order_interleaved(o, p, m, v, st);
	}
	return 0;
}

void
sched_free(struct sched *s)
{
	if (s == NULL)
		return;
	free(s->ops);
	s->ops = NULL;
}

/*
 * When the input of op (on stage st) is ready, or -1 if not yet known.
 * done_f/done_b hold end times per (microbatch, virtual stage), NAN if the
 * op has not been placed.
 */
static double
ready_at(const struct sched *s, int st, const struct sched_op *op,
    const double *done_f, const double *done_b, const double *t_comm)
{
	int P = s->p * s->v, k = sched_vstage(s, st, op), dep, link;
	double t;

	if (op->forward) {
		if (k == 0)
			return 0.0;
		dep = link = k - 1;
		t = done_f[(size_t)op->mb * P + dep];
	} else if (k == P - 1) {
		dep = link = k;
		t = done_f[(size_t)op->mb * P + dep];
	} else {
		dep = k + 1;
		link = k;
		t = done_b[(size_t)op->mb * P + dep];
	}
	if (isnan(t))
		return -1.0;
	if (dep % s->p == st || t_comm == NULL)
		return t;
	return t + t_comm[link];
}

double
sched_time(struct sched *s, const double *t_f, const double *t_b,
    const double *t_comm)
{
	size_t P = (size_t)s->p * s->v, n = (size_t)s->m * P, i, left;
	double *done_f, *done_b, *free_at, r, span = 0.0;
	size_t *next;
	int st, k, moved;

	done_f = malloc(n * sizeof *done_f);
	done_b = malloc(n * sizeof *done_b);
	free_at = calloc((size_t)s->p, sizeof *free_at);
	next = calloc((size_t)s->p, sizeof *next);
	if (done_f == NULL || done_b == NULL || free_at == NULL || next == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		done_f[i] = done_b[i] = NAN;
	left = (size_t)s->p * s->n_per_stage;
	while (left > 0) {
		moved = 0;
		for (st = 0; st < s->p; st++) {
			struct sched_op *op;

			if (next[st] == s->n_per_stage)
				continue;
			op = &s->ops[(size_t)st * s->n_per_stage + next[st]];
			r = ready_at(s, st, op, done_f, done_b, t_comm);
			if (r < 0)
				continue;
			k = sched_vstage(s, st, op);
			op->start = r > free_at[st] ? r : free_at[st];
			op->end = op->start + (op->forward ? t_f[k] : t_b[k]);
			(op->forward ? done_f : done_b)[(size_t)op->mb * P + k] =
			    op->end;
			free_at[st] = op->end;
			if (op->end > span)
				span = op->end;
			next[st]++;
			left--;
			moved = 1;
		}
		if (!moved)
			goto fail;
	}
	free(done_f);
	free(done_b);
	free(free_at);
	free(next);
	return span;
fail:
	free(done_f);
	free(done_b);
	free(free_at);
	free(next);
	return -1.0;
}
