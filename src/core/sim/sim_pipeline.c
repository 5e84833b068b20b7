/*
 * sim_pipeline.c - the pipeline part of a simulated step: every stage's
 * passes in its schedule's order (schedule.c), run as a list scheduler
 * runs them, always the pass that can start earliest, where a pass
 * starts when its stage is free and its input has arrived (the previous
 * virtual stage's activations, or the next one's gradients, plus the
 * send). The first stage loads its micro-batches, the last computes the
 * loss; boundaries travel between stages as sends.
 *
 * A pass is a sequence of steps (struct sim_cursor): its layers' steps
 * (sim_layer.h), then the hand-over to the next stage. DualPipe's F&B
 * pairs run two passes' steps interleaved (run_pair).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_modes.h"

#define H	SIM_HIDDEN

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

/* The stage's next pass starts at t on every device already free then;
 * one still busy (an EP straggler's group member) starts when it is. */
static void
start_stage_at(struct sim_run *run, int s, double t)
{
	struct sim_dev *dv;
	int r, k;

	for (r = 0; r < run->lay.d; r++)
		for (k = 0; k < run->lay.t; k++) {
			dv = &run->dev[sim_rank(&run->lay, r, s, k)];
			if (dv->clock < t)
				dv->clock = t;
		}
}

static void
forward_hand_over(struct sim_run *run, struct pipe *pp,
    const struct sim_cursor *c)
{
	const struct sim_layout *lay = &run->lay;
	int s = c->s, r, k, s2;
	double ready;

	if (c->vs == pp->P - 1) {
		for (r = 0; r < lay->d; r++)
			for (k = 0; k < lay->t; k++)
				loss_of(run, sim_rank(lay, r, s, k), c->mb);
		pp->bwd_ready[c->mb * pp->P + c->vs] = stage_clock(run, s);
		return;
	}
	s2 = sched_stage_of(pp->sc, c->vs + 1, c->mb);
	ready = s2 == s ? stage_clock(run, s) : send_boundary(run, s, s2,
	    (c->vs + 1) * lay->lps, c->mb, 0, c->chunk);
	pp->fwd_ready[c->mb * pp->P + c->vs + 1] = ready;
}

static void
backward_hand_over(struct sim_run *run, struct pipe *pp,
    const struct sim_cursor *c)
{
	const struct sim_layout *lay = &run->lay;
	size_t loc = (size_t)sim_shape_local(&run->sh) * H;
	int s = c->s, r, k, s2, di;
	double ready;

	if (c->vs == 0) {
		for (r = 0; r < lay->d; r++)
			for (k = 0; k < lay->t; k++) {
				di = sim_rank(lay, r, s, k);
				sim_dev_free(run, di, SIM_MEM_ACTS,
				    &run->dev[di].dact[0][c->mb], loc,
				    run->dev[di].clock);
			}
		return;
	}
	s2 = sched_stage_of(pp->sc, c->vs - 1, c->mb);
	ready = s2 == s ? stage_clock(run, s) : send_boundary(run, s, s2,
	    c->vs * lay->lps, c->mb, 1, c->chunk);
	pp->bwd_ready[c->mb * pp->P + c->vs - 1] = ready;
}

/* Run the cursor's next step (after sim_cursor_peek found one). */
static void
cursor_run(struct sim_run *run, struct pipe *pp, struct sim_cursor *c)
{
	const struct sim_layout *lay = &run->lay;
	int l = sim_cursor_layer(&run->lay, c), r, k;

	if (c->l == lay->lps) {
		if (c->forward)
			forward_hand_over(run, pp, c);
		else
			backward_hand_over(run, pp, c);
		c->handed = 1;
		return;
	}
	if (c->forward && c->vs == 0 && c->l == 0 && c->step == 0)
		for (r = 0; r < lay->d; r++)
			for (k = 0; k < lay->t; k++)
				load_data(run, sim_rank(lay, r, c->s, k),
				    c->mb);
	if (c->forward)
		sim_layer_forward_step(run, c->s, l, c->mb, c->chunk,
		    c->step);
	else if (c->pass == SCHED_W)
		sim_layer_weights(run, c->s, l, c->mb, c->chunk);
	else
		sim_layer_backward_step(run, c->s, l, c->mb, c->chunk,
		    c->pass == SCHED_BI, c->step);
	c->step++;
}

/* A pass on its own: its steps one after the other. */
static void
run_pass(struct sim_run *run, struct pipe *pp, int s,
    const struct sched_op *op)
{
	struct sim_cursor c;

	sim_cursor_init(&c, &run->lay, pp->sc, s, op);
	while (!run->oom && sim_cursor_peek(&run->lay, &c) != SIM_STEP_NONE)
		cursor_run(run, pp, &c);
}

static void
swap(double **a, double **b)
{
	double *t = *a;

	*a = *b;
	*b = t;
}

/* Make lane x's scratch (sim_dev.part, dwhole, dh, work) the device's. */
static void
use_lane(struct sim_dev *dv, int x)
{
	if (dv->lane == x)
		return;
	swap(&dv->part, &dv->spare[0]);
	swap(&dv->dwhole, &dv->spare[1]);
	swap(&dv->dh, &dv->spare[2]);
	swap(&dv->work, &dv->spare[3]);
	dv->lane = x;
}

/*
 * DualPipe's F&B pair, overlapped as the DeepSeek-V3 report (section
 * 3.2.1, figure 4) describes it: each device's compute runs one kernel
 * at a time, but while one pass waits for an all-to-all the other's
 * compute runs. The two passes are lanes: each has its own clock (when
 * its next step may start) and its own scratch; a compute step starts
 * when its lane is ready and the device's compute is free, an all-to-all
 * when its lane is ready. The step that can start first goes next, the
 * forward on a tie, so without all-to-alls (pp, 3d) the pair runs as
 * forward then backward. The passes share no data, so the arithmetic
 * is the sequential order's, to the bit.
 */
static void
run_pair(struct sim_run *run, struct pipe *pp, int s,
    const struct sched_op *op)
{
	double lane[2][SIM_MAX_GPUS], engine[SIM_MAX_GPUS], at[2];
	int devs[SIM_MAX_GPUS], n = sim_stage_devices(run, s, devs), i, x, pick;
	enum sim_step_kind kind[2];
	struct sim_cursor c[2];
	struct sim_dev *dv;

	sim_cursor_init(&c[0], &run->lay, pp->sc, s, op);
	sim_cursor_init(&c[1], &run->lay, pp->sc, s, op + 1);
	for (i = 0; i < n; i++)
		lane[0][i] = lane[1][i] = engine[i] = run->dev[devs[i]].clock;
	while (!run->oom) {
		for (pick = -1, x = 0; x < 2; x++) {
			kind[x] = sim_cursor_peek(&run->lay, &c[x]);
			if (kind[x] == SIM_STEP_NONE)
				continue;
			at[x] = kind[x] == SIM_STEP_COMM || lane[x][0] >
			    engine[0] ? lane[x][0] : engine[0];
			if (pick < 0 || at[x] < at[pick])
				pick = x;
		}
		if (pick < 0)
			break;
		for (i = 0; i < n; i++) {
			dv = &run->dev[devs[i]];
			use_lane(dv, pick);
			dv->clock = kind[pick] == SIM_STEP_COMM ||
			    lane[pick][i] > engine[i] ? lane[pick][i] :
			    engine[i];
		}
		cursor_run(run, pp, &c[pick]);
		for (i = 0; i < n; i++) {
			dv = &run->dev[devs[i]];
			lane[pick][i] = dv->clock;
			if (kind[pick] == SIM_STEP_COMPUTE)
				engine[i] = dv->clock;
		}
	}
	for (i = 0; i < n; i++) {
		dv = &run->dev[devs[i]];
		use_lane(dv, 0);
		dv->clock = lane[0][i] > lane[1][i] ? lane[0][i] : lane[1][i];
	}
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
int
sim_run_pipeline(struct sim_run *run, const struct sched *sc)
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
		start_stage_at(run, best, best_t);
		if (op->pair && next[best] < sc->n_ops[best]) {
			run_pair(run, &pp, best, op);
			next[best]++;
			left--;
		} else
			run_pass(run, &pp, best, op);
		left--;
	}
	free(pp.fwd_ready);
	free(pp.bwd_ready);
	free(next);
	return run->oom || left > 0 ? -1 : 0;
}
