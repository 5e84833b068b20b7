/*
 * run_ep.c - expert parallelism on this rank: sim_ep.c's MoE MLP in its
 * four steps, with MPI_Ialltoallv between the ranks of the EP group for
 * dispatch and combine (started by one step, waited for by the next, so
 * that a DualPipe pair's other pass computes meanwhile), and
 * sim_ep_grads.c's buckets (non-expert values over DP, this rank's
 * experts over the ranks holding them). Rows travel in the
 * simulator's order (source rank, expert, token, top-k slot) and every
 * sum is sim_moe.c's in the same order, so the run equals the simulator
 * bit for bit. Events: a send and a receive per (source, expert) with
 * tokens, as the simulator records them.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "run/run_exec.h"
#include "run/run_wait.h"

#define H	SIM_HIDDEN
#define F	SIM_FFN
#define KMAX	SIM_MOE_MAX_EXPERTS

struct run_ep_buf {
	int	 T, k;
	int	 sel[SIM_TOKENS * KMAX];
	double	 gate[SIM_TOKENS * KMAX];
	double	*o;		/* T*k x H: the experts' outputs, back here */
	int	 scnt[KMAX];	/* rows this rank sent to each expert */
	int	 rcnt[SIM_MAX_GPUS * KMAX];	/* [a][jj]: rows from a for
					   this rank's jj-th expert */
	int	 n_in;
	int	*in_exp;
	double	*xin, *u, *a;
	size_t	 n_acct;
	/* Between the steps of one pass (workspace, not accounted): */
	double	*rows;		/* T*k x H: the slots' rows, out or back */
	double	*y;		/* forward: n_in x H, the experts' outputs */
	double	*dout, *dxs;	/* backward: T*k x H, gated output grads,
				   the experts' input grads back */
	double	*din, *dx;	/* backward: n_in x H, received, computed */
	double	 dgate[SIM_TOKENS * KMAX];
	/* The all-to-all in flight (run_ep_settle): */
	enum a2a { A2A_NONE, A2A_FWD_DISPATCH, A2A_FWD_COMBINE,
		A2A_BWD_DISPATCH, A2A_BWD_COMBINE } pending;
	MPI_Request req;
	int	 sc[SIM_MAX_GPUS], sd[SIM_MAX_GPUS];	/* doubles out */
	int	 rc[SIM_MAX_GPUS], rd[SIM_MAX_GPUS];	/* doubles in */
	int	 chunk;
	double	 t0;
};

static void
free_scratch(struct run_ep_buf *b)
{
	free(b->rows);
	free(b->y);
	free(b->dout);
	free(b->dxs);
	free(b->din);
	free(b->dx);
	b->rows = b->y = b->dout = b->dxs = b->din = b->dx = NULL;
}

static void *
must(struct run_exec *x, void *p)
{
	if (p == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	return p;
}

static void
account(struct run_exec *x, long long n)
{
	if (sim_timeline_mem(&x->tl, x->proc->rank, run_now(x->proc),
	    SIM_MEM_ACTS, n * (long long)sizeof(double)) != 0)
		run_fail(x->proc, "%s", _("out of memory"));
}

void
run_ep_free(struct run_exec *x, int l, int mb)
{
	struct run_ep_buf *b = x->ep_buf[l][mb];

	if (b == NULL)
		return;
	/* every all-to-all was settled by its pass's next step: a run that
	 * fails aborts the job (run_fail) before it frees anything */
	account(x, -(long long)b->n_acct);
	free_scratch(b);
	free(b->o);
	free(b->in_exp);
	free(b->xin);
	free(b->u);
	free(b->a);
	free(b);
	x->ep_buf[l][mb] = NULL;
}

static struct sim_event *
event(struct run_exec *x, enum sim_kind kind, int l, int mb, double t0,
    size_t bytes)
{
	struct sim_event *e = sim_timeline_add(&x->tl, x->proc->rank, kind,
	    l + 1, mb, t0, run_now(x->proc), bytes);

	if (e == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	return e;
}

/* A compute event from t0 for expert j's tokens (-1: router, shared). */
static void
computed(struct run_exec *x, enum sim_kind kind, int l, int mb, int chunk,
    double t0, int j, int tokens)
{
	struct sim_event *e = event(x, kind, l, mb, t0, 0);

	e->part = SIM_PART_MLP;
	e->shard = x->lay.d > 1 ? x->r : -1;
	e->chunk = chunk;
	e->expert = j;
	e->tokens = tokens;
	run_comm_poll(&x->comm);
}

/* Record a send (or receive) of n rows of expert j with peer. */
static void
a2a_event(struct run_exec *x, enum sim_kind kind, enum sim_payload what,
    int l, int mb, int chunk, double t0, int peer, int j, int n)
{
	struct sim_event *ev;

	if (n == 0)
		return;
	ev = event(x, kind, l, mb, t0, (size_t)n * H * sizeof(double));
	ev->peer = peer;
	ev->what = what;
	ev->chunk = chunk;
	ev->expert = j;
	ev->tokens = n;
}

/*
 * The events of one all-to-all as sim_ep.c's sim_send records them, per
 * (source, expert) with rows and another rank: dispatch sends this
 * rank's rows to each expert's rank and receives every rank's for ours;
 * combine the other way.
 */
static void
a2a_events(struct run_exec *x, const struct run_ep_buf *b, int combine,
    enum sim_payload what, int l, int mb, int chunk, double t0)
{
	int e = x->lay.e, per = x->lay.moe.experts / e, me = x->ep.me, q, a;
	int j;

	for (j = 0; j < x->lay.moe.experts; j++) {
		q = j / per;
		if (q != me)	/* our rows of j: to its rank, or back */
			a2a_event(x, combine ? SIM_RECV : SIM_SEND, what, l, mb,
			    chunk, t0, x->ep.ranks[q], j, b->scnt[j]);
		for (a = 0; q == me && a < e; a++)
			if (a != me)	/* a's rows of our expert j */
				a2a_event(x, combine ? SIM_SEND : SIM_RECV,
				    what, l, mb, chunk, t0, x->ep.ranks[a], j,
				    b->rcnt[a * per + j % per]);
	}
}

/* Rows of this rank's slots in (owner, expert, token, slot) order from
 * src (per token, or with slots per slot), or back into dst's slots. */
static void
slots_rows(const struct run_ep_buf *b, int experts, const double *src,
    int slots, double *rows, double *dst)
{
	int j, t, i;
	size_t n = 0, s;

	for (j = 0; j < experts; j++)
		for (t = 0; t < b->T; t++)
			for (i = 0; i < b->k; i++) {
				if (b->sel[t * b->k + i] != j)
					continue;
				s = (size_t)t * b->k + i;
				if (src != NULL)
					memcpy(rows + n * H, src + (slots ? s :
					    (size_t)t) * H, H * sizeof *rows);
				else
					memcpy(dst + s * H, rows + n * H,
					    H * sizeof *rows);
				n++;
			}
}

/*
 * Start the MPI_Ialltoallv of rows: out to each member by scnt (dispatch)
 * or rcnt (combine), in from each by the other. It runs while the pair's
 * other pass computes (run_exec.c); run_ep_settle waits for it.
 */
static void
exchange_start(struct run_exec *x, struct run_ep_buf *b, enum a2a which,
    int chunk, const double *out, double *in)
{
	int e = x->lay.e, per = x->lay.moe.experts / e, q, jj;
	int tot_s = 0, tot_r = 0, to_q, from_q;
	int combine = which == A2A_FWD_COMBINE || which == A2A_BWD_COMBINE;

	for (q = 0; q < e; q++) {
		to_q = from_q = 0;
		for (jj = 0; jj < per; jj++) {
			to_q += b->scnt[q * per + jj];
			from_q += b->rcnt[q * per + jj];
		}
		b->sc[q] = (combine ? from_q : to_q) * H;
		b->rc[q] = (combine ? to_q : from_q) * H;
		b->sd[q] = tot_s;
		b->rd[q] = tot_r;
		tot_s += b->sc[q];
		tot_r += b->rc[q];
	}
	b->t0 = run_now(x->proc);
	b->chunk = chunk;
	if (MPI_Ialltoallv(out, b->sc, b->sd, MPI_DOUBLE, in, b->rc, b->rd,
	    MPI_DOUBLE, x->ep.comm, &b->req) != MPI_SUCCESS)
		run_fail(x->proc, "%s", _("MPI_Ialltoallv failed"));
	b->pending = which;
	/* what left for other ranks (our own rows stay) */
	x->comm.bytes_sent += (size_t)(tot_s - b->sc[x->ep.me]) *
	    sizeof(double);
}

static int
exchanged(void *arg)
{
	struct run_ep_buf *b = arg;
	int flag = 0;

	MPI_Test(&b->req, &flag, MPI_STATUS_IGNORE);
	return flag;
}

/* Route, the shared expert, the counts; room for the rows received. */
static struct run_ep_buf *
route(struct run_exec *x, int l, int mb, int chunk,
    const struct sim_lparams *w, struct sim_saved *sv)
{
	const struct sim_moe *m = &x->lay.moe;
	int T = sim_shape_tokens(&x->sh), e = x->lay.e, per = m->experts / e;
	int t, i, a, jj, n, fe = sim_moe_width(m);
	struct run_ep_buf *b = must(x, calloc(1, sizeof *b));
	double t0 = run_now(x->proc);

	x->ep_buf[l][mb] = b;
	b->T = T;
	b->k = m->top_k;
	b->o = must(x, calloc((size_t)T * b->k * H, sizeof *b->o));
	memset(sv->u, 0, (size_t)T * F * sizeof *sv->u);
	memset(sv->a, 0, (size_t)T * F * sizeof *sv->a);
	for (t = 0; t < T; t++) {
		memset(x->part + (size_t)t * H, 0, H * sizeof(double));
		if (m->shared)
			sim_moe_expert_fwd(m, w, -1, sv->n2 + (size_t)t * H,
			    sv->u + (size_t)t * F, sv->a + (size_t)t * F,
			    x->part + (size_t)t * H);
		sim_moe_route(m, w, sv->n2 + (size_t)t * H, b->sel + t * b->k,
		    b->gate + t * b->k);
		for (i = 0; i < b->k; i++)
			b->scnt[b->sel[t * b->k + i]]++;
	}
	computed(x, SIM_FORWARD, l, mb, chunk, t0, -1, T);
	account(x, (long long)T * b->k * (H + 1));
	b->n_acct = (size_t)T * b->k * (H + 1);
	/* each member's rows for each of our experts */
	if (MPI_Alltoall(b->scnt, per, MPI_INT, b->rcnt, per, MPI_INT,
	    x->ep.comm) != MPI_SUCCESS)
		run_fail(x->proc, "%s", _("MPI_Alltoall failed"));
	for (n = 0, a = 0; a < e * per; a++)
		n += b->rcnt[a];
	b->n_in = n;
	b->in_exp = must(x, calloc((size_t)n + 1, sizeof *b->in_exp));
	b->xin = must(x, calloc((size_t)n * H + 1, sizeof *b->xin));
	b->u = must(x, calloc((size_t)n * fe + 1, sizeof *b->u));
	b->a = must(x, calloc((size_t)n * fe + 1, sizeof *b->a));
	for (n = 0, a = 0; a < e; a++)
		for (jj = 0; jj < per; jj++)
			for (i = 0; i < b->rcnt[a * per + jj]; i++)
				b->in_exp[n++] = x->ep.me * per + jj;
	account(x, (long long)n * (H + 2 * fe));
	b->n_acct += (size_t)n * (H + 2 * fe);
	return b;
}

/* This rank's experts on the rows, expert by expert (sim_ep.c's order);
 * backward with din given, the input gradients into out. */
static void
experts(struct run_exec *x, struct run_ep_buf *b, int l, int mb, int chunk,
    const struct sim_lparams *w, const struct sim_lparams *g,
    const double *din, double *out)
{
	const struct sim_moe *m = &x->lay.moe;
	int per = m->experts / x->lay.e, fe = sim_moe_width(m), j, r, rows;
	double t0;

	if (din != NULL)
		memset(out, 0, (size_t)b->n_in * H * sizeof *out);
	for (j = x->ep.me * per; j < (x->ep.me + 1) * per; j++) {
		t0 = run_now(x->proc);
		for (rows = 0, r = 0; r < b->n_in; r++) {
			if (b->in_exp[r] != j)
				continue;
			if (din == NULL)
				sim_moe_expert_fwd(m, w, j, b->xin +
				    (size_t)r * H, b->u + (size_t)r * fe,
				    b->a + (size_t)r * fe, out + (size_t)r * H);
			else
				sim_moe_expert_bwd(m, w, g, j, b->xin +
				    (size_t)r * H, b->u + (size_t)r * fe,
				    b->a + (size_t)r * fe, din + (size_t)r * H,
				    out + (size_t)r * H);
			rows++;
		}
		computed(x, din == NULL ? SIM_FORWARD : SIM_BACKWARD, l, mb,
		    chunk, t0, j, rows);
	}
}

/* Forward, the slots' rows out (DISPATCH) and the outputs back
 * (COMBINE): the all-to-alls start here and finish in run_ep_settle. */
void
run_ep_fwd_step(struct run_exec *x, int l, int mb, int chunk,
    const struct sim_lparams *w, struct sim_saved *sv, enum sim_ep_step step)
{
	struct run_ep_buf *b = x->ep_buf[l][mb];

	switch (step) {
	case SIM_EP_LOCAL:
		b = route(x, l, mb, chunk, w, sv);
		b->rows = must(x, malloc(((size_t)b->T * b->k + 1) * H *
		    sizeof *b->rows));
		slots_rows(b, x->lay.moe.experts, sv->n2, 0, b->rows, NULL);
		break;
	case SIM_EP_DISPATCH:
		exchange_start(x, b, A2A_FWD_DISPATCH, chunk, b->rows, b->xin);
		break;
	case SIM_EP_EXPERTS:
		b->y = must(x, malloc(((size_t)b->n_in + 1) * H *
		    sizeof *b->y));
		experts(x, b, l, mb, chunk, w, NULL, NULL, b->y);
		break;
	default:
		exchange_start(x, b, A2A_FWD_COMBINE, chunk, b->y, b->rows);
		break;
	}
}

/* Backward LOCAL: the shared expert's gradient into part, the gates'
 * gradients, the gated output gradients packed as the tokens went. */
static void
origin_bwd(struct run_exec *x, struct run_ep_buf *b, int l, int mb,
    int chunk, const struct sim_lparams *w, const struct sim_lparams *g,
    const struct sim_saved *sv)
{
	const struct sim_moe *m = &x->lay.moe;
	size_t slots = (size_t)b->T * b->k, s;
	double t0 = run_now(x->proc), *p;
	const double *dy;
	int t, i, h;

	b->dout = must(x, malloc((slots + 1) * H * sizeof *b->dout));
	b->rows = must(x, malloc((slots + 1) * H * sizeof *b->rows));
	b->dxs = must(x, calloc((slots + 1) * H, sizeof *b->dxs));
	b->din = must(x, malloc(((size_t)b->n_in + 1) * H * sizeof *b->din));
	b->dx = must(x, malloc(((size_t)b->n_in + 1) * H * sizeof *b->dx));
	for (t = 0; t < b->T; t++) {
		dy = x->dwhole + (size_t)t * H;
		p = x->part + (size_t)t * H;
		memset(p, 0, H * sizeof *p);
		if (m->shared)
			sim_moe_expert_bwd(m, w, g, -1, sv->n2 + (size_t)t * H,
			    sv->u + (size_t)t * F, sv->a + (size_t)t * F, dy,
			    p);
		for (i = 0; i < b->k; i++) {
			s = (size_t)t * b->k + i;
			for (b->dgate[s] = 0.0, h = 0; h < H; h++) {
				b->dgate[s] += dy[h] * b->o[s * H + h];
				b->dout[s * H + h] = b->gate[s] * dy[h];
			}
		}
	}
	computed(x, SIM_BACKWARD, l, mb, chunk, t0, -1, b->T);
	slots_rows(b, m->experts, b->dout, 1, b->rows, NULL);
}

void
run_ep_bwd_step(struct run_exec *x, int l, int mb, int chunk,
    const struct sim_lparams *w, const struct sim_lparams *g,
    const struct sim_saved *sv, enum sim_ep_step step)
{
	struct run_ep_buf *b = x->ep_buf[l][mb];

	switch (step) {
	case SIM_EP_LOCAL:
		origin_bwd(x, b, l, mb, chunk, w, g, sv);
		break;
	case SIM_EP_DISPATCH:
		exchange_start(x, b, A2A_BWD_DISPATCH, chunk, b->rows, b->din);
		break;
	case SIM_EP_EXPERTS:
		experts(x, b, l, mb, chunk, w, g, b->din, b->dx);
		break;
	default:
		exchange_start(x, b, A2A_BWD_COMBINE, chunk, b->dx, b->rows);
		break;
	}
}

void
run_ep_settle(struct run_exec *x, int l, int mb, const struct sim_lparams *w,
    const struct sim_lparams *g, const struct sim_saved *sv)
{
	const struct sim_moe *m = &x->lay.moe;
	struct run_ep_buf *b = x->ep_buf[l][mb];
	char what[160];
	enum a2a was;
	double *p;
	int t, i, h;

	if (b == NULL || b->pending == A2A_NONE)
		return;
	was = b->pending;
	snprintf(what, sizeof what, _("the all-to-all of layer %d "
	    "(micro-batch %d)"), l + 1, mb);
	run_wait_until(x->proc, exchanged, b, what);
	b->pending = A2A_NONE;
	a2a_events(x, b, was == A2A_FWD_COMBINE || was == A2A_BWD_COMBINE,
	    was == A2A_FWD_DISPATCH || was == A2A_BWD_DISPATCH ?
	    SIM_P_DISPATCH : SIM_P_COMBINE, l, mb, b->chunk, b->t0);
	if (was == A2A_FWD_COMBINE) {	/* weigh the outputs into part */
		slots_rows(b, m->experts, NULL, 0, b->rows, b->o);
		for (t = 0; t < b->T; t++)
			for (i = 0; i < b->k; i++)
				for (h = 0; h < H; h++)
					x->part[(size_t)t * H + h] +=
					    b->gate[t * b->k + i] *
					    b->o[((size_t)t * b->k + i) * H + h];
		free_scratch(b);
	} else if (was == A2A_BWD_COMBINE) {	/* and the router's */
		slots_rows(b, m->experts, NULL, 0, b->rows, b->dxs);
		for (t = 0; t < b->T; t++) {
			p = x->part + (size_t)t * H;
			for (i = 0; i < b->k; i++)
				for (h = 0; h < H; h++)
					p[h] += b->dxs[((size_t)t * b->k + i) *
					    H + h];
			sim_moe_route_bwd(m, w, g, sv->n2 + (size_t)t * H,
			    b->sel + t * b->k, b->gate + t * b->k,
			    b->dgate + t * b->k, p);
		}
		free_scratch(b);
	}
}

/* A bucket of packed values in flight, unpacked when final. */
struct ep_bucket {
	struct run_exec	*x;
	int		 l, q;
	double		*buf;
};

static size_t
pack(struct run_exec *x, int l, int q, double *buf, int to_buf)
{
	double *g = x->g + x->off[l];
	size_t i, n = 0;

	for (i = 0; i < SIM_LAYER_PARAMS; i++) {
		if (sim_ep_owner_of(&x->lay, i) != q)
			continue;
		if (to_buf)
			buf[n] = g[i];
		else
			g[i] = buf[n];
		n++;
	}
	return n;
}

static void
bucket_done(void *arg)
{
	struct ep_bucket *bk = arg;

	pack(bk->x, bk->l, bk->q, bk->buf, 0);
	free(bk->buf);
	free(bk);
}

/* sim_ep_bucket: non-expert values over DP, ours over the EDP group. */
void
run_ep_bucket(struct run_exec *x, int l, int overlap)
{
	struct sim_tag tag = { SIM_P_WEIGHT_GRADS, l + 1, -1, -1, -1 };
	struct run_group *grp[2] = { &x->dp, &x->edp };
	struct ep_bucket *bk;
	size_t n;
	int i, h;

	for (i = 0; i < 2; i++) {
		bk = must(x, malloc(sizeof *bk));
		bk->x = x;
		bk->l = l;
		bk->q = i == 0 ? -1 : x->r % x->lay.e;
		bk->buf = must(x, malloc(SIM_LAYER_PARAMS * sizeof(double)));
		n = pack(x, l, bk->q, bk->buf, 1);
		h = run_coll_start(&x->comm, grp[i], SIM_ALL_REDUCE, &tag,
		    bk->buf, n, overlap, bucket_done, bk);
		if (!overlap && h >= 0)
			run_comm_wait(&x->comm, h);
	}
}
