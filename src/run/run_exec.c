/*
 * run_exec.c - this rank's step: its shard, its stage's passes in the
 * schedule's order with the boundary tensors sent and received between
 * stages, the loss, and Adam. sim_exec.c runs the same step for every
 * device of the grid in one process; this is the part of it one device
 * does, with MPI where the simulator copies between buffers.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "run/run_exec.h"
#include "run/run_progress.h"

#define H	SIM_HIDDEN
#define LP	SIM_LAYER_PARAMS

double *
run_alloc(struct run_exec *x, enum sim_mem_kind kind, size_t n)
{
	double *p = calloc(n ? n : 1, sizeof *p);

	if (p == NULL || sim_timeline_mem(&x->tl, x->proc->rank,
	    run_now(x->proc), kind, (long long)(n * sizeof *p)) != 0)
		run_fail(x->proc, "%s", _("out of memory"));
	return p;
}

void
run_free(struct run_exec *x, enum sim_mem_kind kind, double **p, size_t n)
{
	if (*p == NULL)
		return;
	free(*p);
	*p = NULL;
	if (sim_timeline_mem(&x->tl, x->proc->rank, run_now(x->proc), kind,
	    -(long long)(n * sizeof(double))) != 0)
		run_fail(x->proc, "%s", _("out of memory"));
}

/* Whether stage s holds layer l (DualPipe: also stage p-1-s's). */
static int
stage_holds(const struct sim_layout *lay, int s, int l)
{
	int own = (l / lay->lps) % lay->p;

	return own == s || (lay->dual && own == lay->p - 1 - s);
}

/* sim_exec.c's map_shard: ZeRO-3 shard i of a layer into loc. */
static void
load_shard(const struct sim_layout *lay, int i, double *loc,
    const double *full)
{
	size_t sh = sim_zero3_shard(lay), lo = (size_t)i * sh, x;

	for (x = 0; x < sh && lo + x < LP; x++)
		loc[x] = full[lo + x];
}

/* This rank's layers: where each goes in w, then their initial values. */
static void
init_shard(struct run_exec *x)
{
	const struct sim_layout *lay = &x->lay;
	double *params = malloc(SIM_NPARAMS * sizeof *params);
	int l;

	if (params == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	sim_model_init(params);
	for (l = 0; l < SIM_LAYERS; l++) {
		x->off[l] = SIZE_MAX;
		x->full_h[l] = -1;
		if (lay->zero3) {
			x->off[l] = x->n_w;
			x->n_w += sim_zero3_shard(lay);
		} else if (stage_holds(lay, x->s, l)) {
			x->off[l] = x->n_w;
			x->n_w += sim_layer_size(lay->t);
		}
	}
	x->w = run_alloc(x, SIM_MEM_PARAMS, x->n_w);
	x->g = run_alloc(x, SIM_MEM_GRADS, x->n_w);
	for (l = 0; l < SIM_LAYERS; l++) {
		if (x->off[l] == SIZE_MAX)
			continue;
		if (lay->zero3)
			load_shard(lay, x->r, x->w + x->off[l],
			    params + (size_t)l * LP);
		else
			sim_layer_map(lay->t, x->k, x->w + x->off[l],
			    params + (size_t)l * LP, 1);
	}
	free(params);
}

void
run_exec_init(struct run_exec *x, struct run_proc *p,
    const struct sim_config *cfg, enum run_reduce reduce)
{
	size_t T;
	int i, coord[MESH_N_AXES], tp_id, dp_id;

	memset(x, 0, sizeof *x);
	x->proc = p;
	sim_layout_of(cfg, &x->lay);
	x->sh.b = x->lay.b;
	x->sh.t = x->lay.t;
	x->sh.sp = x->lay.sp;
	x->sh.cp = x->lay.c;
	mesh_coords(&x->lay.mesh, p->rank, coord);
	x->k = coord[MESH_TP];
	x->s = coord[MESH_PP];
	x->r = coord[MESH_DP] * x->lay.c + coord[MESH_CP];
	for (i = 0; i < SIM_BATCH; i++)
		x->loss[i] = NAN;
	if (sim_timeline_init(&x->tl, p->size) != 0 ||
	    sched_build(x->lay.kind, x->lay.p, x->lay.m, x->lay.v, &x->sc,
	    NULL) != 0)
		run_fail(p, "%s", _("out of memory"));
	run_comm_init(&x->comm, p, reduce, &x->tl);
	/* One communicator per group of the mesh, its members ordered by
	 * their coordinate; keys: TP groups 256 + first rank, DP 512 + it. */
	tp_id = (int)mesh_group_id(&x->lay.mesh, MESH_TP, p->rank);
	dp_id = (int)mesh_group_id(&x->lay.mesh, MESH_DP, p->rank);
	/* With CP the gradients are summed over DP x CP (sim_dp_group). */
	if (x->lay.c > 1)
		dp_id = x->s * x->lay.t + x->k;
	run_group_split(&x->comm, &x->tp, tp_id, x->k, 256 + tp_id);
	run_group_split(&x->comm, &x->dp, dp_id, x->r, 512 + dp_id);
	/* DualPipe: stage s with its mirror, the lower stage first */
	if (x->lay.dual) {
		i = (x->r * (x->lay.p / 2) + (x->s < x->lay.p - 1 - x->s ?
		    x->s : x->lay.p - 1 - x->s)) * x->lay.t + x->k;
		run_group_split(&x->comm, &x->mirror, i, x->s >= x->lay.p / 2,
		    1280 + i);
	}
	/* EP: e consecutive replicas of a stage; EDP: the same EP rank of
	 * each EP group (sim_ep.c, sim_ep_grads.c) */
	if (x->lay.e > 1) {
		i = x->s * x->lay.d + x->r / x->lay.e;
		run_group_split(&x->comm, &x->ep, i, x->r % x->lay.e, 768 + i);
		i = x->s * x->lay.e + x->r % x->lay.e;
		run_group_split(&x->comm, &x->edp, i, x->r / x->lay.e,
		    1024 + i);
	}
	sim_model_data(x->x, x->target);
	init_shard(x);
	T = (size_t)sim_shape_tokens(&x->sh);
	x->part = calloc(T * H, sizeof *x->part);
	x->dwhole = calloc(T * H, sizeof *x->dwhole);
	x->dh = calloc(T * H, sizeof *x->dh);
	x->work = calloc(sim_work_len(&x->sh), sizeof *x->work);
	if (x->part == NULL || x->dwhole == NULL || x->dh == NULL ||
	    x->work == NULL)
		run_fail(p, "%s", _("out of memory"));
	if (x->lay.dual) {	/* the second lane of run_pair */
		x->spare[0] = calloc(T * H, sizeof(double));
		x->spare[1] = calloc(T * H, sizeof(double));
		x->spare[2] = calloc(T * H, sizeof(double));
		x->spare[3] = calloc(sim_work_len(&x->sh), sizeof(double));
		if (x->spare[0] == NULL || x->spare[1] == NULL ||
		    x->spare[2] == NULL || x->spare[3] == NULL)
			run_fail(p, "%s", _("out of memory"));
	}
}

/* Positions of a sequence this rank holds: [*p0, *p1). */
static void
positions(const struct run_exec *x, int *p0, int *p1)
{
	int n = x->lay.sp ? SIM_SEQ / x->lay.t : SIM_SEQ;

	*p0 = x->lay.sp ? x->k * n : 0;
	*p1 = *p0 + n;
}

static int
first_seq(const struct run_exec *x, int mb)
{
	return (x->r / x->lay.c * x->lay.m + mb) * x->lay.b;
}

/* Rows of micro-batch mb from batch: positions, or CP's two chunks. */
static void
slice(const struct run_exec *x, const double *batch, int mb, double *out)
{
	int c = x->lay.c, ci = x->r % c, hc = SIM_SEQ / (2 * c), p0, p1;

	if (c < 2) {
		positions(x, &p0, &p1);
		sim_model_slice(batch, first_seq(x, mb), x->lay.b, p0, p1, out);
		return;
	}
	sim_model_slice(batch, first_seq(x, mb), x->lay.b, ci * hc,
	    (ci + 1) * hc, out);
	sim_model_slice(batch, first_seq(x, mb), x->lay.b,
	    (2 * c - 1 - ci) * hc, (2 * c - ci) * hc,
	    out + (size_t)hc * x->lay.b * H);
}

static void
load_data(struct run_exec *x, int mb)
{
	size_t n = (size_t)sim_shape_local(&x->sh) * H;

	x->act[0][mb] = run_alloc(x, SIM_MEM_ACTS, n);
	slice(x, x->x, mb, x->act[0][mb]);
}

/* The loss of the output rows this rank holds; keeps their gradient. */
static void
loss_of(struct run_exec *x, int mb)
{
	int rows = sim_shape_local(&x->sh);

	x->dact[SIM_LAYERS][mb] = run_alloc(x, SIM_MEM_ACTS, (size_t)rows * H);
	slice(x, x->target, mb, x->part);
	x->loss[mb] = sim_loss(x->act[SIM_LAYERS][mb], x->part, rows,
	    x->dact[SIM_LAYERS][mb]);
	run_free(x, SIM_MEM_ACTS, &x->act[SIM_LAYERS][mb], (size_t)rows * H);
}

/* The MPI tag of boundary j of micro-batch mb, or of its gradient. */
static int
boundary_tag(int j, int mb, int grads)
{
	return ((grads ? SIM_LAYERS + 1 : 0) + j) * SIM_BATCH + mb;
}

/* Send boundary j (or its gradient) to this rank's peer on stage s2. */
static void
send_boundary(struct run_exec *x, int s2, int j, int mb, int grads,
    int chunk)
{
	size_t len = (size_t)sim_shape_local(&x->sh) * H;
	struct sim_tag tag = { grads ? SIM_P_ACT_GRADS : SIM_P_ACTS,
	    grads ? j + 1 : j, mb, x->lay.d > 1 ? x->r : -1, chunk };
	double **src = grads ? &x->dact[j][mb] : &x->act[j][mb];

	run_send(&x->comm, sim_rank(&x->lay, x->r, s2, x->k), *src, len,
	    boundary_tag(j, mb, grads), &tag);
	run_free(x, SIM_MEM_ACTS, src, len);
}

static void
recv_boundary(struct run_exec *x, int s2, int j, int mb, int grads,
    int chunk)
{
	size_t len = (size_t)sim_shape_local(&x->sh) * H;
	struct sim_tag tag = { grads ? SIM_P_ACT_GRADS : SIM_P_ACTS,
	    grads ? j + 1 : j, mb, x->lay.d > 1 ? x->r : -1, chunk };
	double **dst = grads ? &x->dact[j][mb] : &x->act[j][mb];

	*dst = run_alloc(x, SIM_MEM_ACTS, len);
	run_recv(&x->comm, sim_rank(&x->lay, x->r, s2, x->k), *dst, len,
	    boundary_tag(j, mb, grads), &tag);
}

/* The stage of virtual stage vs of micro-batch mb; -1 outside. */
static int
stage_at(const struct run_exec *x, int vs, int mb)
{
	if (vs < 0 || vs >= sched_nvstages(&x->sc))
		return -1;
	return sched_stage_of(&x->sc, vs, mb);
}

/* A pass is walked in sim_cursor's steps, as sim_pipeline.c walks it. */

/* Take the pass's input: the batch, or the boundary from its stage. */
static void
cursor_take(struct run_exec *x, const struct sim_cursor *c)
{
	int P = sched_nvstages(&x->sc), l0 = c->vs * x->lay.lps;
	int prev = stage_at(x, c->vs - 1, c->mb);
	int next = stage_at(x, c->vs + 1, c->mb);

	if (c->pass == SCHED_W)
		return;
	if (c->forward && c->vs == 0)
		load_data(x, c->mb);
	else if (c->forward && prev != x->s)
		recv_boundary(x, prev, l0, c->mb, 0, c->chunk);
	else if (!c->forward && c->vs != P - 1 && next != x->s)
		recv_boundary(x, next, l0 + x->lay.lps, c->mb, 1, c->chunk);
	if (!c->forward && !x->backward_seen++)
		run_fault_point(x->proc);
}

static void
hand_over(struct run_exec *x, const struct sim_cursor *c)
{
	int P = sched_nvstages(&x->sc), l0 = c->vs * x->lay.lps;
	int prev = stage_at(x, c->vs - 1, c->mb);
	int next = stage_at(x, c->vs + 1, c->mb);

	if (c->forward && c->vs == P - 1)
		loss_of(x, c->mb);
	else if (c->forward && next != x->s)
		send_boundary(x, next, l0 + x->lay.lps, c->mb, 0, c->chunk);
	else if (!c->forward && c->vs == 0)
		run_free(x, SIM_MEM_ACTS, &x->dact[0][c->mb],
		    (size_t)sim_shape_local(&x->sh) * H);
	else if (!c->forward && prev != x->s)
		send_boundary(x, prev, l0, c->mb, 1, c->chunk);
}

/* Run the cursor's next step (after sim_cursor_peek found one). */
static void
cursor_run(struct run_exec *x, struct sim_cursor *c)
{
	int l;

	if (c->l == x->lay.lps) {
		hand_over(x, c);
		c->handed = 1;
		return;
	}
	l = sim_cursor_layer(&x->lay, c);
	if (c->forward)
		run_layer_forward_step(x, l, c->mb, c->chunk, c->step);
	else if (c->pass == SCHED_W)
		run_layer_weights(x, l, c->mb, c->chunk);
	else
		run_layer_backward_step(x, l, c->mb, c->chunk,
		    c->pass == SCHED_BI, c->step);
	c->step++;
}

static void
run_pass(struct run_exec *x, const struct sched_op *op)
{
	struct sim_cursor c;

	sim_cursor_init(&c, &x->lay, &x->sc, x->s, op);
	cursor_take(x, &c);
	while (sim_cursor_peek(&x->lay, &c) != SIM_STEP_NONE)
		cursor_run(x, &c);
}

static void
swap(double **a, double **b)
{
	double *t = *a;

	*a = *b;
	*b = t;
}

/* Make lane n's scratch (part, dwhole, dh, work) the rank's. */
static void
use_lane(struct run_exec *x, int n)
{
	if (x->lane == n)
		return;
	swap(&x->part, &x->spare[0]);
	swap(&x->dwhole, &x->spare[1]);
	swap(&x->dh, &x->spare[2]);
	swap(&x->work, &x->spare[3]);
	x->lane = n;
}

/*
 * DualPipe's F&B pair, overlapped as sim_pipeline.c's run_pair runs it:
 * both inputs first, then the two passes' steps interleaved, each with
 * its own scratch. A pass runs until it starts an all-to-all (or hands
 * its output on), then the other pass computes while it travels; the
 * all-to-all is waited for by the pass's next step. Every member of an
 * EP group runs the same pair the same way, so their collectives on the
 * EP communicator come in one order. The passes share no data: the
 * arithmetic is the sequential order's, to the bit.
 */
static void
run_pair(struct run_exec *x, const struct sched_op *op)
{
	enum sim_step_kind k;
	struct sim_cursor c[2];
	int cur = 0, done[2] = { 0, 0 };

	sim_cursor_init(&c[0], &x->lay, &x->sc, x->s, op);
	sim_cursor_init(&c[1], &x->lay, &x->sc, x->s, op + 1);
	cursor_take(x, &c[0]);
	cursor_take(x, &c[1]);
	while (!done[0] || !done[1]) {
		if (done[cur])
			cur = !cur;
		if ((k = sim_cursor_peek(&x->lay, &c[cur])) == SIM_STEP_NONE) {
			done[cur] = 1;
			continue;
		}
		use_lane(x, cur);
		cursor_run(x, &c[cur]);
		if (k == SIM_STEP_COMM && !done[!cur])
			cur = !cur;
	}
	use_lane(x, 0);
}

static void
optimizer_step(struct run_exec *x)
{
	struct sim_event *e;
	double t0;

	run_comm_drain(&x->comm);
	t0 = run_now(x->proc);
	x->am = run_alloc(x, SIM_MEM_OPTIM, x->n_w);
	x->av = run_alloc(x, SIM_MEM_OPTIM, x->n_w);
	sim_adam(x->w, x->g, x->am, x->av, x->n_w);
	e = sim_timeline_add(&x->tl, x->proc->rank, SIM_OPTIMIZER, 0, -1, t0,
	    run_now(x->proc), 0);
	if (e == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
}

void
run_exec_step(struct run_exec *x)
{
	const struct sched_op *op;
	size_t i;

	for (i = 0; i < x->sc.n_ops[x->s]; i++) {
		op = &x->sc.ops[(size_t)x->s * x->sc.n_per_stage + i];
		if (op->pair && i + 1 < x->sc.n_ops[x->s]) {
			run_progress_busy(_("in the forward pass of micro-batch "
			    "%d and the backward pass of %d"), op->mb,
			    op[1].mb);
			run_pair(x, op);
			i++;
			continue;
		}
		if (op->forward)
			run_progress_busy(_("in the forward pass of micro-batch "
			    "%d"), op->mb);
		else if (op->pass == SCHED_W)
			run_progress_busy(_("in the weight gradients of "
			    "micro-batch %d"), op->mb);
		else
			run_progress_busy(_("in the backward pass of "
			    "micro-batch %d"), op->mb);
		run_pass(x, op);
	}
	run_progress_busy("%s", _("while reducing the gradients"));
	run_grads_finish(x);
	run_progress_busy("%s", _("in the optimizer step"));
	optimizer_step(x);
}

void
run_exec_free(struct run_exec *x)
{
	int l, mb;

	for (l = 0; l < SIM_LAYERS; l++)
		for (mb = 0; mb < SIM_BATCH; mb++)
			run_ep_free(x, l, mb);
	run_comm_free(&x->comm);
	run_group_free(&x->tp);
	run_group_free(&x->dp);
	if (x->lay.e > 1) {
		run_group_free(&x->ep);
		run_group_free(&x->edp);
	}
	if (x->lay.dual)
		run_group_free(&x->mirror);
	sched_free(&x->sc);
	sim_timeline_free(&x->tl);
	free(x->w);
	free(x->g);
	free(x->am);
	free(x->av);
	free(x->part);
	free(x->dwhole);
	free(x->dh);
	free(x->work);
	for (l = 0; l < 4; l++)
		free(x->spare[l]);
	for (l = 0; l < SIM_LAYERS; l++) {
		free(x->full[l]);
		free(x->fullg[l]);
		for (mb = 0; mb < SIM_BATCH; mb++) {
			free(x->saved[l][mb]);
			free(x->wstash[l][mb]);
		}
	}
	for (l = 0; l <= SIM_LAYERS; l++)
		for (mb = 0; mb < SIM_BATCH; mb++) {
			free(x->act[l][mb]);
			free(x->dact[l][mb]);
		}
}
