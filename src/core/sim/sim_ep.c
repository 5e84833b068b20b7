/*
 * sim_ep.c - expert parallelism on the simulated devices: the MoE MLP
 * (sim_moe.h) of one layer and micro-batch with the experts split over
 * the e devices of each EP group, E/e consecutive experts a device
 * (Megatron-Core's expert placement; the group is e consecutive DP
 * ranks of a stage).
 *
 * Forward, on every device of a group: route its tokens and run the
 * shared expert; dispatch (all-to-all) each token's input to the device
 * of each expert it chose; the experts run on what they received;
 * combine (all-to-all) sends the outputs back, where the gates weigh
 * them. Backward: the gated output gradients go out the same way, the
 * experts' input gradients come back. The all-to-all is one send per
 * (source, expert) with tokens, as NCCL's grouped send/receive runs it,
 * starting when the whole group is there; a device waits for everything
 * sent to it, so the device of an expert that got most of the tokens
 * holds the group up (the straggler).
 *
 * Steps: the MLP runs in four (sim_ep_step): local work, dispatch,
 * the experts, combine. A pass runs them in order; DualPipe's F&B pair
 * (sim_exec.c's run_pair) runs the other pass's compute while one
 * pass's all-to-all is in flight, so what a step keeps for the next
 * (the experts' outputs, the backward's gradients) lives in the
 * device's buffer of the layer and micro-batch, not on the stack.
 *
 * Rows a device receives are ordered by source device, then expert,
 * then token, then top-k slot; the arithmetic per token is sim_moe.c's
 * in the single device's order.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim_collective.h"
#include "core/sim/sim_modes.h"

#define H	SIM_HIDDEN
#define F	SIM_FFN

struct sim_ep_buf {
	int	 T, k;		/* tokens, slots each */
	int	*sel;		/* T*k: the experts chosen */
	double	*gate;		/* T*k */
	double	*o;		/* T*k x H: their outputs, back here */
	int	 n_in;		/* rows received for this device's experts */
	int	*in_exp;	/* n_in: each row's expert */
	double	*xin;		/* n_in x H: the rows */
	double	*u, *a;		/* n_in x Fe: the experts' activations */
	size_t	 n_acct;	/* doubles accounted */
	/* Between the steps of one pass (workspace, not accounted): */
	double	*y;		/* forward: n_in x H, the experts' outputs */
	double	*dout, *dxs;	/* backward: T*k x H, gated output grads
				   out, the experts' input grads back */
	double	*dg;		/* T*k: the gates' gradients */
	double	*din, *dx;	/* n_in x H: grads received, input grads */
};

static void
free_scratch(struct sim_ep_buf *b)
{
	free(b->y);
	free(b->dout);
	free(b->dxs);
	free(b->dg);
	free(b->din);
	free(b->dx);
	b->y = b->dout = b->dxs = b->dg = b->din = b->dx = NULL;
}

/* The EP-group member (0 .. e-1) holding expert j. */
static int
owner(const struct sim_run *run, int j)
{
	return j / (run->lay.moe.experts / run->lay.e);
}

void
sim_ep_free(struct sim_run *run, int di, int l, int mb)
{
	struct sim_ep_buf *b = run->dev[di].ep[l][mb];

	if (b == NULL)
		return;
	if (sim_timeline_mem(run->tl, di, run->dev[di].clock, SIM_MEM_ACTS,
	    -(long long)(b->n_acct * sizeof(double))) != 0)
		run->oom = 1;
	free_scratch(b);
	free(b->sel);
	free(b->gate);
	free(b->o);
	free(b->in_exp);
	free(b->xin);
	free(b->u);
	free(b->a);
	free(b);
	run->dev[di].ep[l][mb] = NULL;
}

/* Account n more doubles kept on device di until the backward. */
static void
account(struct sim_run *run, int di, struct sim_ep_buf *b, size_t n)
{
	b->n_acct += n;
	if (sim_timeline_mem(run->tl, di, run->dev[di].clock, SIM_MEM_ACTS,
	    (long long)(n * sizeof(double))) != 0)
		run->oom = 1;
}

/* A compute event on di for tokens of expert j (-1: router, shared). */
static void
compute(struct sim_run *run, int di, enum sim_kind kind, int l, int mb,
    int chunk, double flops, int j, int tokens)
{
	struct sim_dev *dv = &run->dev[di];
	double dt = flops / run->cost.flops;
	struct sim_event *e;

	e = sim_timeline_add(run->tl, di, kind, l + 1, mb, dv->clock,
	    dv->clock + dt, 0);
	if (e == NULL) {
		run->oom = 1;
		return;
	}
	e->part = SIM_PART_MLP;
	e->shard = run->lay.d > 1 ? dv->r : -1;
	e->chunk = chunk;
	e->expert = j;
	e->tokens = tokens;
	dv->clock += dt;
}

/* One EP group: e devices g[0..e-1] of a stage. */
struct group {
	struct sim_run	*run;
	const int	*g;
	int		 e, l, mb, chunk;
};

static struct sim_ep_buf *
buf_of(const struct group *gp, int q)
{
	return gp->run->dev[gp->g[q]].ep[gp->l][gp->mb];
}

static double
group_start(const struct group *gp)
{
	double t = 0.0;
	int q;

	for (q = 0; q < gp->e; q++)
		if (gp->run->dev[gp->g[q]].clock > t)
			t = gp->run->dev[gp->g[q]].clock;
	return t;
}

/*
 * The all-to-all: src(a) rows of expert j, in token and slot order, to
 * dst(q) at the rows received from a for j; back (combine) the other
 * way, into the origin's slots. A dispatch's source rows are per token
 * (T x H), or with slots per slot (T*k x H, backward). Device a's rows
 * go in (t, i) order of its own slots.
 */
static void
all_to_all(const struct group *gp, int combine, int slots,
    enum sim_payload what, double *const *src, double *const *dst)
{
	struct sim_run *run = gp->run;
	struct sim_tag tag = { what, gp->l + 1, gp->mb, -1, gp->chunk };
	double t0 = group_start(gp), arrive[SIM_MAX_GPUS], t1, *pk, *rv;
	int a, q, j, t, i, n, off[SIM_MAX_GPUS] = { 0 };
	struct sim_ep_buf *ba;
	struct sim_event *e;

	for (q = 0; q < gp->e; q++)
		arrive[q] = t0;
	pk = malloc((size_t)SIM_TOKENS * SIM_MOE_MAX_EXPERTS * H *
	    sizeof *pk);
	rv = malloc((size_t)SIM_TOKENS * SIM_MOE_MAX_EXPERTS * H *
	    sizeof *rv);
	if (pk == NULL || rv == NULL) {
		run->oom = 1;
		goto out;
	}
	for (a = 0; a < gp->e; a++) {
		ba = buf_of(gp, a);
		for (j = 0; j < run->lay.moe.experts; j++) {
			q = owner(run, j);
			/* the rows of (a, j), packed in (t, i) order */
			for (n = 0, t = 0; t < ba->T; t++)
				for (i = 0; i < ba->k; i++)
					if (ba->sel[t * ba->k + i] == j && !combine)
						memcpy(pk + (size_t)n++ * H,
						    src[a] + (size_t)(slots ?
						    t * ba->k + i : t) * H,
						    H * sizeof *pk);
					else if (ba->sel[t * ba->k + i] == j)
						n++;
			if (n == 0)
				continue;
			if (combine)
				memcpy(pk, src[q] + (size_t)off[q] * H,
				    (size_t)n * H * sizeof *pk);
			if (a != q) {
				t1 = combine ? sim_send(run, gp->g[q], gp->g[a],
				    pk, rv, (size_t)n * H, &tag, t0) :
				    sim_send(run, gp->g[a], gp->g[q], pk, rv,
				    (size_t)n * H, &tag, t0);
				for (i = 1; i <= 2; i++) {
					e = &run->tl->ev[run->tl->n_ev - i];
					e->expert = j;
					e->tokens = n;
				}
				if (t1 > arrive[combine ? a : q])
					arrive[combine ? a : q] = t1;
			} else
				memcpy(rv, pk, (size_t)n * H * sizeof *rv);
			if (!combine)
				memcpy(dst[q] + (size_t)off[q] * H, rv,
				    (size_t)n * H * sizeof *rv);
			else	/* into a's slots of expert j */
				for (n = 0, t = 0; t < ba->T; t++)
					for (i = 0; i < ba->k; i++)
						if (ba->sel[t * ba->k + i] == j)
							memcpy(dst[a] +
							    ((size_t)t * ba->k +
							    i) * H, rv +
							    (size_t)n++ * H,
							    H * sizeof *rv);
			off[q] += n;
		}
	}
	for (q = 0; q < gp->e; q++)
		if (run->dev[gp->g[q]].clock < arrive[q])
			run->dev[gp->g[q]].clock = arrive[q];
out:
	free(pk);
	free(rv);
}

/* Route device a's tokens, run its shared expert; part = shared out. */
static void
route_local(const struct group *gp, int a)
{
	struct sim_run *run = gp->run;
	const struct sim_moe *m = &run->lay.moe;
	int di = gp->g[a], T = sim_shape_tokens(&run->sh), t;
	struct sim_dev *dv = &run->dev[di];
	struct sim_ep_buf *b;
	struct sim_lparams w;
	struct sim_saved sv;
	double *y;

	b = dv->ep[gp->l][gp->mb] = calloc(1, sizeof *b);
	if (b == NULL) {
		run->oom = 1;
		return;
	}
	b->T = T;
	b->k = m->top_k;
	b->sel = calloc((size_t)T * b->k, sizeof *b->sel);
	b->gate = calloc((size_t)T * b->k, sizeof *b->gate);
	b->o = calloc((size_t)T * b->k * H, sizeof *b->o);
	if (b->sel == NULL || b->gate == NULL || b->o == NULL) {
		run->oom = 1;
		return;
	}
	account(run, di, b, (size_t)T * b->k * (H + 1));
	sim_dev_layer(run, di, gp->l, &w, NULL);
	sim_saved_view(dv->saved[gp->l][gp->mb], &run->sh, &sv);
	memset(sv.u, 0, (size_t)T * F * sizeof *sv.u);
	memset(sv.a, 0, (size_t)T * F * sizeof *sv.a);
	for (t = 0; t < T; t++) {
		y = dv->part + (size_t)t * H;
		memset(y, 0, H * sizeof *y);
		if (m->shared)
			sim_moe_expert_fwd(m, &w, -1, sv.n2 + (size_t)t * H,
			    sv.u + (size_t)t * F, sv.a + (size_t)t * F, y);
		sim_moe_route(m, &w, sv.n2 + (size_t)t * H,
		    b->sel + (size_t)t * b->k, b->gate + (size_t)t * b->k);
	}
	compute(run, di, SIM_FORWARD, gp->l, gp->mb, gp->chunk,
	    sim_moe_flops_local(m, T), -1, T);
}

/* Make room on member q for the rows sent to its experts. */
static void
receive_room(const struct group *gp, int q)
{
	struct sim_run *run = gp->run;
	int fe = sim_moe_width(&run->lay.moe), a, j, x, n = 0;
	struct sim_ep_buf *b = buf_of(gp, q), *ba;

	for (a = 0; a < gp->e; a++) {
		ba = buf_of(gp, a);
		for (x = 0; x < ba->T * ba->k; x++)
			n += owner(run, ba->sel[x]) == q;
	}
	b->n_in = n;
	b->in_exp = calloc((size_t)n + 1, sizeof *b->in_exp);
	b->xin = calloc((size_t)n * H + 1, sizeof *b->xin);
	b->u = calloc((size_t)n * fe + 1, sizeof *b->u);
	b->a = calloc((size_t)n * fe + 1, sizeof *b->a);
	if (b->in_exp == NULL || b->xin == NULL || b->u == NULL ||
	    b->a == NULL) {
		run->oom = 1;
		return;
	}
	account(run, gp->g[q], b, (size_t)n * (H + 2 * fe));
	/* the experts of the rows, in the order all_to_all fills them */
	for (n = 0, a = 0; a < gp->e; a++) {
		ba = buf_of(gp, a);
		for (j = 0; j < run->lay.moe.experts; j++)
			for (x = 0; owner(run, j) == q && x < ba->T * ba->k; x++)
				if (ba->sel[x] == j)
					b->in_exp[n++] = j;
	}
}

/* Run member q's experts on its rows, expert by expert: out (n_in x H). */
static void
experts_fwd(const struct group *gp, int q, double *out)
{
	struct sim_run *run = gp->run;
	const struct sim_moe *m = &run->lay.moe;
	int fe = sim_moe_width(m), j, r, rows;
	struct sim_ep_buf *b = buf_of(gp, q);
	struct sim_lparams w;

	sim_dev_layer(run, gp->g[q], gp->l, &w, NULL);
	for (j = 0; j < m->experts; j++) {
		if (owner(run, j) != q)
			continue;
		for (rows = 0, r = 0; r < b->n_in; r++) {
			if (b->in_exp[r] != j)
				continue;
			sim_moe_expert_fwd(m, &w, j, b->xin + (size_t)r * H,
			    b->u + (size_t)r * fe, b->a + (size_t)r * fe,
			    out + (size_t)r * H);
			rows++;
		}
		compute(run, gp->g[q], SIM_FORWARD, gp->l, gp->mb, gp->chunk,
		    sim_moe_flops_expert(m, rows), j, rows);
	}
}

/* The groups of the stage's devices: consecutive runs of e replicas. */
static void
each_group(struct sim_run *run, const int *devs, int n, int l, int mb,
    int chunk, void (*fn)(struct group *))
{
	struct group gp;
	int s;

	for (s = 0; s + run->lay.e <= n && !run->oom; s += run->lay.e) {
		gp.run = run;
		gp.g = devs + s;
		gp.e = run->lay.e;
		gp.l = l;
		gp.mb = mb;
		gp.chunk = chunk;
		fn(&gp);
	}
}

/* Forward step 0: route every member's tokens, run its shared expert,
 * make room for the rows it will receive. */
static void
fwd_route(struct group *gp)
{
	int q;

	for (q = 0; q < gp->e; q++)
		route_local(gp, q);
	for (q = 0; q < gp->e && !gp->run->oom; q++)
		receive_room(gp, q);
}

/* Forward step 1: the tokens to their experts. */
static void
fwd_dispatch(struct group *gp)
{
	double *src[SIM_MAX_GPUS], *dst[SIM_MAX_GPUS];
	struct sim_saved sv;
	int q;

	for (q = 0; q < gp->e; q++) {
		if (buf_of(gp, q) == NULL || buf_of(gp, q)->xin == NULL) {
			gp->run->oom = 1;
			return;
		}
		sim_saved_view(gp->run->dev[gp->g[q]].saved[gp->l][gp->mb],
		    &gp->run->sh, &sv);
		src[q] = sv.n2;
		dst[q] = buf_of(gp, q)->xin;
	}
	all_to_all(gp, 0, 0, SIM_P_DISPATCH, src, dst);
}

/* Forward step 2: the experts, their outputs kept in y until combine. */
static void
fwd_experts(struct group *gp)
{
	struct sim_ep_buf *b;
	int q;

	for (q = 0; q < gp->e && !gp->run->oom; q++) {
		b = buf_of(gp, q);
		b->y = malloc(((size_t)b->n_in + 1) * H * sizeof *b->y);
		if (b->y == NULL)
			gp->run->oom = 1;
		else
			experts_fwd(gp, q, b->y);
	}
}

/* Forward step 3: the outputs back, weighed by the gates into part. */
static void
fwd_combine(struct group *gp)
{
	struct sim_run *run = gp->run;
	double *out[SIM_MAX_GPUS], *o[SIM_MAX_GPUS];
	struct sim_ep_buf *b;
	int q, t, i, h;
	double *y;

	for (q = 0; q < gp->e; q++) {
		if (buf_of(gp, q) == NULL || buf_of(gp, q)->y == NULL) {
			run->oom = 1;
			return;
		}
		out[q] = buf_of(gp, q)->y;
		o[q] = buf_of(gp, q)->o;
	}
	all_to_all(gp, 1, 0, SIM_P_COMBINE, out, o);
	for (q = 0; q < gp->e; q++) {
		b = buf_of(gp, q);
		free(b->y);
		b->y = NULL;
		for (t = 0; !run->oom && t < b->T; t++) {
			y = run->dev[gp->g[q]].part + (size_t)t * H;
			for (i = 0; i < b->k; i++)
				for (h = 0; h < H; h++)
					y[h] += b->gate[t * b->k + i] *
					    b->o[((size_t)t * b->k + i) * H + h];
		}
	}
}

void
sim_ep_fwd_step(struct sim_run *run, const int *devs, int n, int l, int mb,
    int chunk, enum sim_ep_step step)
{
	static void (*const fn[SIM_EP_NSTEPS])(struct group *) = {
		fwd_route, fwd_dispatch, fwd_experts, fwd_combine
	};

	each_group(run, devs, n, l, mb, chunk, fn[step]);
}

/* Backward on origin a before dispatch: the shared expert's and the
 * gates' gradients; dout (T*k x H) = gate * dy per slot. */
static void
origin_bwd(const struct group *gp, int a, double *dout, double *dgate)
{
	struct sim_run *run = gp->run;
	const struct sim_moe *m = &run->lay.moe;
	struct sim_dev *dv = &run->dev[gp->g[a]];
	struct sim_ep_buf *b = buf_of(gp, a);
	struct sim_lparams w, g;
	struct sim_saved sv;
	const double *dy;
	int t, i, h;
	size_t x;

	sim_dev_layer(run, gp->g[a], gp->l, &w, &g);
	sim_saved_view(dv->saved[gp->l][gp->mb], &run->sh, &sv);
	for (t = 0; t < b->T; t++) {
		dy = dv->dwhole + (size_t)t * H;
		memset(dv->part + (size_t)t * H, 0, H * sizeof(double));
		if (m->shared)
			sim_moe_expert_bwd(m, &w, &g, -1, sv.n2 + (size_t)t * H,
			    sv.u + (size_t)t * F, sv.a + (size_t)t * F, dy,
			    dv->part + (size_t)t * H);
		for (i = 0; i < b->k; i++) {
			x = (size_t)t * b->k + i;
			for (dgate[x] = 0.0, h = 0; h < H; h++) {
				dgate[x] += dy[h] * b->o[x * H + h];
				dout[x * H + h] = b->gate[x] * dy[h];
			}
		}
	}
	compute(run, gp->g[a], SIM_BACKWARD, gp->l, gp->mb, gp->chunk,
	    2.0 * sim_moe_flops_local(m, b->T), -1, b->T);
}

/* Member q's experts backward on the gradients received (din): their
 * weights' gradients, the input gradients into dx (n_in x H). */
static void
experts_bwd(const struct group *gp, int q, const double *din, double *dx)
{
	struct sim_run *run = gp->run;
	const struct sim_moe *m = &run->lay.moe;
	int fe = sim_moe_width(m), j, r, rows;
	struct sim_ep_buf *b = buf_of(gp, q);
	struct sim_lparams w, g;

	sim_dev_layer(run, gp->g[q], gp->l, &w, &g);
	memset(dx, 0, (size_t)b->n_in * H * sizeof *dx);
	for (j = 0; j < m->experts; j++) {
		if (owner(run, j) != q)
			continue;
		for (rows = 0, r = 0; r < b->n_in; r++) {
			if (b->in_exp[r] != j)
				continue;
			sim_moe_expert_bwd(m, &w, &g, j, b->xin + (size_t)r * H,
			    b->u + (size_t)r * fe, b->a + (size_t)r * fe,
			    din + (size_t)r * H, dx + (size_t)r * H);
			rows++;
		}
		compute(run, gp->g[q], SIM_BACKWARD, gp->l, gp->mb, gp->chunk,
		    2.0 * sim_moe_flops_expert(m, rows), j, rows);
	}
}

/* After combine: add the experts' input gradients in slot order, then
 * the router's. */
static void
origin_finish(const struct group *gp, int a, const double *dxs,
    const double *dgate)
{
	struct sim_run *run = gp->run;
	struct sim_dev *dv = &run->dev[gp->g[a]];
	struct sim_ep_buf *b = buf_of(gp, a);
	struct sim_lparams w, g;
	struct sim_saved sv;
	double *dx;
	int t, i, h;

	sim_dev_layer(run, gp->g[a], gp->l, &w, &g);
	sim_saved_view(dv->saved[gp->l][gp->mb], &run->sh, &sv);
	for (t = 0; t < b->T; t++) {
		dx = dv->part + (size_t)t * H;
		for (i = 0; i < b->k; i++)
			for (h = 0; h < H; h++)
				dx[h] += dxs[((size_t)t * b->k + i) * H + h];
		sim_moe_route_bwd(&run->lay.moe, &w, &g, sv.n2 + (size_t)t * H,
		    b->sel + (size_t)t * b->k, b->gate + (size_t)t * b->k,
		    dgate + (size_t)t * b->k, dx);
	}
}

/* Backward step 0: the scratch of the four steps; the shared expert's
 * and the gates' gradients on every member. */
static void
bwd_origin(struct group *gp)
{
	struct sim_run *run = gp->run;
	struct sim_ep_buf *b;
	size_t tk, nin;
	int q;

	for (q = 0; q < gp->e && !run->oom; q++) {
		if ((b = buf_of(gp, q)) == NULL) {
			run->oom = 1;
			break;
		}
		tk = (size_t)b->T * b->k;
		nin = (size_t)b->n_in + 1;
		b->dout = malloc(tk * H * sizeof(double));
		b->dxs = calloc(tk * H, sizeof(double));
		b->dg = malloc(tk * sizeof(double));
		b->din = malloc(nin * H * sizeof(double));
		b->dx = malloc(nin * H * sizeof(double));
		if (b->dout == NULL || b->dxs == NULL || b->dg == NULL ||
		    b->din == NULL || b->dx == NULL)
			run->oom = 1;
	}
	for (q = 0; q < gp->e && !run->oom; q++)
		origin_bwd(gp, q, buf_of(gp, q)->dout, buf_of(gp, q)->dg);
}

/* Whether every member has the backward's scratch. */
static int
have_scratch(struct group *gp)
{
	struct sim_ep_buf *b;
	int q;

	for (q = 0; q < gp->e; q++)
		if ((b = buf_of(gp, q)) == NULL || b->dout == NULL ||
		    b->dxs == NULL || b->dg == NULL || b->din == NULL ||
		    b->dx == NULL) {
			gp->run->oom = 1;
			return 0;
		}
	return 1;
}

/* Backward step 1: the slots' gradients travel as the tokens did. */
static void
bwd_dispatch(struct group *gp)
{
	double *dout[SIM_MAX_GPUS], *din[SIM_MAX_GPUS];
	int q;

	if (!have_scratch(gp))
		return;
	for (q = 0; q < gp->e; q++) {
		dout[q] = buf_of(gp, q)->dout;
		din[q] = buf_of(gp, q)->din;
	}
	all_to_all(gp, 0, 1, SIM_P_DISPATCH, dout, din);
}

/* Backward step 2: the experts' backward. */
static void
bwd_experts(struct group *gp)
{
	int q;

	if (!have_scratch(gp))
		return;
	for (q = 0; q < gp->e; q++)
		experts_bwd(gp, q, buf_of(gp, q)->din, buf_of(gp, q)->dx);
}

/* Backward step 3: the input gradients back, added with the router's;
 * the scratch goes. */
static void
bwd_combine(struct group *gp)
{
	double *dx[SIM_MAX_GPUS], *dxs[SIM_MAX_GPUS];
	int q;

	if (!have_scratch(gp))
		return;
	for (q = 0; q < gp->e; q++) {
		dx[q] = buf_of(gp, q)->dx;
		dxs[q] = buf_of(gp, q)->dxs;
	}
	all_to_all(gp, 1, 0, SIM_P_COMBINE, dx, dxs);
	for (q = 0; q < gp->e; q++) {
		origin_finish(gp, q, buf_of(gp, q)->dxs, buf_of(gp, q)->dg);
		free_scratch(buf_of(gp, q));
	}
}

void
sim_ep_bwd_step(struct sim_run *run, const int *devs, int n, int l, int mb,
    int chunk, enum sim_ep_step step)
{
	static void (*const fn[SIM_EP_NSTEPS])(struct group *) = {
		bwd_origin, bwd_dispatch, bwd_experts, bwd_combine
	};

	each_group(run, devs, n, l, mb, chunk, fn[step]);
}
