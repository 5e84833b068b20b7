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
 * ZB-H1 is the zero-bubble authors' own patch to Megatron's 1F1B (the
 * zb-h1-quick-start branch of sail-sg/zero-bubble-pipeline-parallelism,
 * forward_backward_pipelining_without_interleaving): stage s > 0 splits
 * the backward of its first s steady micro-batches, of the last one and
 * of the drain's, and runs their W passes in the drain, once it has done
 * s backward passes; stage 0 runs plain 1F1B. DualPipe's order is
 * DualPipe.step of deepseek-ai/DualPipe (dualpipe/dualpipe.py), its eight
 * phases with the same counts; its F&B pairs are a forward of one
 * direction and a backward of the other that start together.
 *
 * Timing: ops on a stage run in order, each as soon as its stage is free
 * and its dependency has finished (plus t_comm across stages). With uniform
 * t_f, t_b and t_comm = 0 the makespan is (m+p-1)(t_f+t_b) for GPipe and
 * 1F1B and (m + (p-1)/v)(t_f+t_b) interleaved, which is where the bubble
 * shares of costmodel.md §e come from; with F = B = W (t_b = 2 t_w = 2 t_f)
 * ZB-H1 idles (p-1)F a stage, a third of 1F1B's 3(p-1)F, and DualPipe
 * (p/2-1)(F&B + B - 3W) = (p-2)F, the zero-bubble paper's and DualPipe
 * README's bubbles; the tests hold the simulation to them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/schedule.h"


double
sched_bubble_share(enum pipe_schedule kind, int p, int m, int v, double w)
{
	double idle;

	if (p < 2 || m < 1)
		return 0.0;
	if (kind == PIPE_ZB_H1)
		idle = (p - 1) * (3.0 - 2.0 * w);
	else if (kind == PIPE_DUALPIPE)
		idle = (p / 2 - 1) * (5.0 - 3.0 * w);
	else
		return pipe_bubble_fraction(p, m, v);
	return idle / (3.0 * m + idle);
}

int
sched_nvstages(const struct sched *s)
{
	return s->kind == PIPE_DUALPIPE ? s->p : s->p * s->v;
}

int
sched_direction(const struct sched *s, int mb)
{
	return s->kind == PIPE_DUALPIPE && mb >= s->m / 2;
}

int
sched_vstage(const struct sched *s, int stage, const struct sched_op *op)
{
	if (s->kind == PIPE_DUALPIPE)
		return op->chunk == 0 ? stage : s->p - 1 - stage;
	return op->chunk * s->p + stage;
}

int
sched_stage_of(const struct sched *s, int vs, int mb)
{
	if (s->kind == PIPE_DUALPIPE)
		return sched_direction(s, mb) == 0 ? vs : s->p - 1 - vs;
	return vs % s->p;
}

static void
put_pass(struct sched_op *op, enum sched_pass pass, int mb, int chunk)
{
	op->pass = pass;
	op->forward = pass == SCHED_F;
	op->mb = mb;
	op->chunk = chunk;
	op->pair = 0;
	op->start = op->end = 0.0;
}

static void
put(struct sched_op *op, int forward, int mb, int chunk)
{
	put_pass(op, forward ? SCHED_F : SCHED_B, mb, chunk);
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

/* The W passes a stage has deferred, first in first out. */
struct wqueue {
	int	 mb[2 * SCHED_MAX_MB];
	int	 chunk[2 * SCHED_MAX_MB];
	int	 head, tail;
};

static void
defer(struct sched_op *ops, size_t *n, struct wqueue *q, int mb, int chunk)
{
	put_pass(&ops[(*n)++], SCHED_BI, mb, chunk);
	q->mb[q->tail] = mb;
	q->chunk[q->tail++] = chunk;
}

static void
pop_w(struct sched_op *ops, size_t *n, struct wqueue *q)
{
	if (q->head == q->tail)
		return;
	put_pass(&ops[(*n)++], SCHED_W, q->mb[q->head], q->chunk[q->head]);
	q->head++;
}

/* ZB-H1 on stage s; returns the number of ops. */
static size_t
order_zbh1(struct sched_op *ops, int p, int m, int s)
{
	int w = p - s - 1, r, i;
	struct wqueue q = { { 0 }, { 0 }, 0, 0 };
	size_t n = 0;

	if (w > m)
		w = m;
	r = m - w;
	for (i = 0; i < w; i++)
		put(&ops[n++], 1, i, 0);
	for (i = 0; i < r; i++) {
		put(&ops[n++], 1, w + i, 0);
		if (s > 0 && (i < s || i == r - 1))
			defer(ops, &n, &q, i, 0);
		else
			put(&ops[n++], 0, i, 0);
		if (i == r - 1 && s > 0 && i >= s)
			pop_w(ops, &n, &q);
	}
	for (i = 0; i < w; i++) {
		if (s == 0) {
			put(&ops[n++], 0, r + i, 0);
			continue;
		}
		defer(ops, &n, &q, r + i, 0);
		if (r + i >= s)
			pop_w(ops, &n, &q);
	}
	while (q.head < q.tail)
		pop_w(ops, &n, &q);
	return n;
}

/* DualPipe's state on one device while its order is built. */
struct dualpipe {
	struct sched_op	*ops;
	size_t		 n;
	int		 m, second;	/* second: device in the back half */
	int		 f[2], b[2];	/* next microbatch per direction */
	struct wqueue	 q;
};

/* Phase x of DualPipe.step is direction x ^ second. */
static void
dp_f(struct dualpipe *d, int x, int pair)
{
	int dir = x ^ d->second;

	put_pass(&d->ops[d->n], SCHED_F, dir * d->m / 2 + d->f[dir]++, dir);
	d->ops[d->n++].pair = pair;
}

static void
dp_b(struct dualpipe *d, int x, int zb)
{
	int dir = x ^ d->second, mb = dir * d->m / 2 + d->b[dir]++;

	if (zb)
		defer(d->ops, &d->n, &d->q, mb, dir);
	else
		put_pass(&d->ops[d->n++], SCHED_B, mb, dir);
}

/* DualPipe on device r, as DualPipe.step orders it; the op count. */
static size_t
order_dualpipe(struct sched_op *ops, int p, int m, int r)
{
	int hp = p / 2, h = r < p - 1 - r ? r : p - 1 - r, n = m / 2;
	int mid = r == hp - 1 || r == hp, i, zb, s6 = h + 1;
	struct dualpipe d;

	memset(&d, 0, sizeof d);
	d.ops = ops;
	d.m = m;
	d.second = r >= hp;
	for (i = 0; i < (hp - h - 1) * 2; i++)
		dp_f(&d, 0, 0);
	for (i = 0; i < h + 1; i++) {
		dp_f(&d, 0, 0);
		dp_f(&d, 1, 0);
	}
	for (i = 0; i < hp - h - 1; i++) {
		dp_b(&d, 1, 1);
		pop_w(d.ops, &d.n, &d.q);
		dp_f(&d, 1, 0);
	}
	for (i = 0; i < n - p + h + 1; i++) {
		/* the middle devices run their first pair apart */
		dp_f(&d, 0, !(i == 0 && mid));
		dp_b(&d, 1, 0);
		dp_f(&d, 1, 1);
		dp_b(&d, 0, 0);
	}
	for (i = 0; i < hp - h - 1; i++) {
		dp_b(&d, 1, 0);
		dp_f(&d, 1, 1);
		dp_b(&d, 0, 0);
	}
	for (zb = 0, i = 0; i < s6; i++) {
		if (i == s6 / 2 && h % 2 == 1)
			zb = 1;
		dp_b(&d, 1, zb);
		if (i == s6 / 2 && h % 2 == 0)
			zb = 1;
		dp_b(&d, 0, zb);
	}
	for (i = 0; i < hp - h - 1; i++) {
		pop_w(d.ops, &d.n, &d.q);
		dp_b(&d, 0, 1);
	}
	while (d.q.head < d.q.tail)
		pop_w(d.ops, &d.n, &d.q);
	return d.n;
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
	if (kind == PIPE_DUALPIPEV) {
		pl_err_set(err, NULL, 0, 0, "%s", _("the simulator does not "
		    "run DualPipeV; it runs DualPipe (the engine prices both: "
		    "parlearn plan --schedule dualpipev)"));
		return -1;
	}
	if (m > SCHED_MAX_MB) {
		pl_err_set(err, NULL, 0, 0, _("at most %d micro-batches"),
		    SCHED_MAX_MB);
		return -1;
	}
	if (kind == PIPE_DUALPIPE && (p % 2 != 0 || m % 2 != 0 ||
	    m < 2 * p)) {
		pl_err_set(err, NULL, 0, 0, _("DualPipe needs an even number "
		    "of stages and an even number of micro-batches, at least "
		    "twice the stages (%d stages, %d micro-batches)"), p, m);
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
	s->n_per_stage = (size_t)3 * m * v;
	s->ops = calloc((size_t)p * s->n_per_stage, sizeof *s->ops);
	s->n_ops = calloc((size_t)p, sizeof *s->n_ops);
	if (s->ops == NULL || s->n_ops == NULL) {
		sched_free(s);
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	for (st = 0; st < p; st++) {
		struct sched_op *o = &s->ops[(size_t)st * s->n_per_stage];

		s->n_ops[st] = (size_t)2 * m * v;
		if (kind == PIPE_GPIPE)
			order_gpipe(o, m);
		else if (kind == PIPE_1F1B)
			order_1f1b(o, p, m, st);
		else if (kind == PIPE_ZB_H1)
			s->n_ops[st] = order_zbh1(o, p, m, st);
		else if (kind == PIPE_DUALPIPE)
			s->n_ops[st] = order_dualpipe(o, p, m, st);
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
	free(s->n_ops);
	s->ops = NULL;
	s->n_ops = NULL;
}

/*
 * When the input of op (on stage st) is ready, or -1 if not yet known.
 * done_f/done_b hold end times per (microbatch, virtual stage), NAN if the
 * op has not been placed; a W's input is its own B, earlier on st.
 */
static double
ready_at(const struct sched *s, int st, const struct sched_op *op,
    const double *done_f, const double *done_b, const double *t_comm)
{
	int P = sched_nvstages(s), k = sched_vstage(s, st, op), dep, link;
	double t;

	if (op->pass == SCHED_W)
		return 0.0;
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
	if (sched_stage_of(s, dep, op->mb) == st || t_comm == NULL)
		return t;
	return t + t_comm[link];
}

static double
duration(const struct sched_op *op, int k, const double *t_f,
    const double *t_b, const double *t_w)
{
	double w = t_w != NULL ? t_w[k] : 0.0;

	switch (op->pass) {
	case SCHED_F:
		return t_f[k];
	case SCHED_BI:
		return t_b[k] - w;
	case SCHED_W:
		return w;
	default:
		return t_b[k];
	}
}

double
sched_time(struct sched *s, const double *t_f, const double *t_b,
    const double *t_w, const double *t_comm)
{
	size_t P = (size_t)sched_nvstages(s), n = (size_t)s->m * P, i, left;
	double *done_f, *done_b, *free_at, r, r2, span = 0.0;
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
	for (left = 0, st = 0; st < s->p; st++)
		left += s->n_ops[st];
	while (left > 0) {
		moved = 0;
		for (st = 0; st < s->p; st++) {
			struct sched_op *op;

			if (next[st] == s->n_ops[st])
				continue;
			op = &s->ops[(size_t)st * s->n_per_stage + next[st]];
			r = ready_at(s, st, op, done_f, done_b, t_comm);
			if (r < 0)
				continue;
			/* DualPipe's F&B waits for both inputs */
			if (op->pair && next[st] + 1 < s->n_ops[st]) {
				r2 = ready_at(s, st, op + 1, done_f, done_b,
				    t_comm);
				if (r2 < 0)
					continue;
				if (r2 > r)
					r = r2;
			}
			k = sched_vstage(s, st, op);
			op->start = r > free_at[st] ? r : free_at[st];
			op->end = op->start + duration(op, k, t_f, t_b, t_w);
			if (op->pass != SCHED_W)
				(op->forward ? done_f : done_b)[(size_t)op->mb *
				    P + k] = op->end;
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
