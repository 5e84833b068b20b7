/*
 * run_comm.c - the collective engine: operations in flight, their phases,
 * their events. See run_comm.h for the reduction order.
 *
 * MPI asks that collectives on a communicator start in the same order on
 * every member. First phases start in program order, which is the same
 * on every member. An ordered all-reduce's second phase may only start
 * once its first is done, and first phases can finish in any order, so
 * second phases have their own communicator (comm2) and start strictly
 * in the order of their first phases (next2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "run/run_comm.h"
#include "run/run_wait.h"

enum op_kind {
	OP_COLL,
	OP_SEND
};

enum op_phase {
	PH_FIRST,		/* alltoallv / allreduce / allgatherv / send */
	PH_WAIT2,		/* first done, second not yet allowed */
	PH_SECOND,		/* ordered all-reduce: allgatherv */
	PH_DONE
};

struct run_op {
	enum op_kind	 op;
	enum sim_kind	 kind;
	enum op_phase	 phase;
	struct run_group	*g;
	struct sim_tag	 tag;
	double		*buf;
	size_t		 len;
	int		 overlap;
	int		 seq;		/* in its group */
	int		 seq2;		/* second-phase turn, -1 none */
	int		 handle;	/* unique in this rank */
	MPI_Request	 req;
	double		*stage;		/* gathered chunks, or the send copy */
	int		*cnt, *dsp, *rcnt, *rdsp;	/* n each */
	double		 t_start;
	int		 peer;		/* send: to */
	run_done_fn	 done;
	void		*arg;
};

static int next_handle;

void
run_comm_init(struct run_comm *c, struct run_proc *p, enum run_reduce red,
    struct sim_timeline *tl)
{
	memset(c, 0, sizeof *c);
	c->proc = p;
	c->reduce = red;
	c->tl = tl;
}

void
run_comm_free(struct run_comm *c)
{
	free(c->ops);
	memset(c, 0, sizeof *c);
}

void
run_group_split(struct run_comm *c, struct run_group *g, int color,
    int order, int key)
{
	int all[SIM_MAX_GPUS * 2], i, mine[2] = { color, order };

	memset(g, 0, sizeof *g);
	run_guard(c->proc, _("while making the process groups"),
	    _("the process groups"));
	MPI_Comm_split(MPI_COMM_WORLD, color, order, &g->comm);
	MPI_Comm_dup(g->comm, &g->comm2);
	MPI_Comm_size(g->comm, &g->n);
	MPI_Comm_rank(g->comm, &g->me);
	MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
	run_unguard();
	/* Members in ring order: world ranks of this color by their order. */
	for (i = 0; i < c->proc->size; i++)
		if (all[2 * i] == color && all[2 * i + 1] >= 0 &&
		    all[2 * i + 1] < g->n)
			g->ranks[all[2 * i + 1]] = i;
	g->key = key;
}

void
run_group_free(struct run_group *g)
{
	if (g->comm != MPI_COMM_NULL && g->comm != 0)
		MPI_Comm_free(&g->comm);
	if (g->comm2 != MPI_COMM_NULL && g->comm2 != 0)
		MPI_Comm_free(&g->comm2);
}

static size_t
chunk_lo(size_t len, int n, int c)
{
	return len * (size_t)c / (size_t)n;
}

/* Bytes member i sends in a ring (sim_collective.c's record_step). */
static size_t
ring_bytes(enum sim_kind kind, size_t len, int n, int i)
{
	size_t all = len, rs, ag;
	size_t own = chunk_lo(len, n, i + 1) - chunk_lo(len, n, i);
	int next = (i + 1) % n;
	size_t nxt = chunk_lo(len, n, next + 1) - chunk_lo(len, n, next);

	rs = all - own;		/* every chunk but its own */
	ag = all - nxt;		/* every chunk but its successor's */
	return sizeof(double) * (kind == SIM_REDUCE_SCATTER ? rs :
	    kind == SIM_ALL_GATHER ? ag : rs + ag);
}

static struct run_op *
new_op(struct run_comm *c)
{
	struct run_op *o;
	int cap;

	if (c->n_ops == c->cap_ops) {
		cap = c->cap_ops ? 2 * c->cap_ops : 16;
		o = realloc(c->ops, (size_t)cap * sizeof *o);
		if (o == NULL)
			run_fail(c->proc, "%s", _("out of memory"));
		c->ops = o;
		c->cap_ops = cap;
	}
	o = &c->ops[c->n_ops++];
	memset(o, 0, sizeof *o);
	o->handle = next_handle++;
	o->seq2 = -1;
	o->t_start = run_now(c->proc);
	return o;
}

/* The chunk counts and offsets of op's buffer, and of its staging. */
static void
layout(struct run_op *o)
{
	int n = o->g->n, j, me = o->g->me;
	size_t mine = chunk_lo(o->len, n, me + 1) - chunk_lo(o->len, n, me);

	o->cnt = calloc((size_t)n * 4, sizeof *o->cnt);
	if (o->cnt == NULL)
		return;
	o->dsp = o->cnt + n;
	o->rcnt = o->cnt + 2 * n;
	o->rdsp = o->cnt + 3 * n;
	for (j = 0; j < n; j++) {
		o->cnt[j] = (int)(chunk_lo(o->len, n, j + 1) -
		    chunk_lo(o->len, n, j));
		o->dsp[j] = (int)chunk_lo(o->len, n, j);
		o->rcnt[j] = (int)mine;
		o->rdsp[j] = (int)(mine * (size_t)j);
	}
}

static void
start_first(struct run_comm *c, struct run_op *o)
{
	struct run_group *g = o->g;
	int n = g->n, me = g->me;

	if (o->kind == SIM_ALL_GATHER) {
		MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, o->buf,
		    o->cnt, o->dsp, MPI_DOUBLE, g->comm, &o->req);
		return;
	}
	if (c->reduce == RUN_REDUCE_MPI && o->kind == SIM_ALL_REDUCE) {
		MPI_Iallreduce(MPI_IN_PLACE, o->buf, (int)o->len, MPI_DOUBLE,
		    MPI_SUM, g->comm, &o->req);
		return;
	}
	o->stage = malloc(((size_t)o->rcnt[0] * (size_t)n + 1) *
	    sizeof *o->stage);
	if (o->stage == NULL)
		run_fail(c->proc, "%s", _("out of memory"));
	if (c->reduce == RUN_REDUCE_MPI && o->len % (size_t)n == 0) {
		MPI_Ireduce_scatter_block(o->buf, o->stage, o->cnt[me],
		    MPI_DOUBLE, MPI_SUM, g->comm, &o->req);
		return;
	}
	MPI_Ialltoallv(o->buf, o->cnt, o->dsp, MPI_DOUBLE, o->stage, o->rcnt,
	    o->rdsp, MPI_DOUBLE, g->comm, &o->req);
}

/*
 * The sum of chunk me in the ring's order: the ring's reduce-scatter
 * starts chunk me at member me+1 and each next member adds its own copy,
 * ending at me (sim_collective.c).
 */
static void
sum_ordered(struct run_comm *c, struct run_op *o)
{
	int n = o->g->n, me = o->g->me, j;
	size_t m = (size_t)o->rcnt[0], x;
	double *dst = o->buf + o->dsp[me], acc;

	if (c->reduce == RUN_REDUCE_MPI && o->len % (size_t)n == 0) {
		memcpy(dst, o->stage, m * sizeof *dst);
		return;
	}
	for (x = 0; x < m; x++) {
		acc = o->stage[(size_t)((me + 1) % n) * m + x];
		for (j = 2; j <= n; j++)
			acc = acc + o->stage[(size_t)((me + j) % n) * m + x];
		dst[x] = acc;
	}
}

static void
record(struct run_comm *c, struct run_op *o)
{
	struct sim_event *e;
	double t = run_now(c->proc);
	int n;

	if (o->op == OP_SEND) {
		e = sim_timeline_add(c->tl, c->proc->rank, SIM_SEND,
		    o->tag.layer, o->tag.mb, o->t_start, t,
		    o->len * sizeof(double));
		if (e == NULL)
			run_fail(c->proc, "%s", _("out of memory"));
		e->peer = o->peer;
	} else {
		n = o->g->n;
		e = sim_timeline_add(c->tl, c->proc->rank, o->kind,
		    o->tag.layer, o->tag.mb, o->t_start, t,
		    ring_bytes(o->kind, o->len, n, o->g->me));
		if (e == NULL)
			run_fail(c->proc, "%s", _("out of memory"));
		e->peer = o->g->ranks[(o->g->me + 1) % n];
		e->collective = o->g->key * 65536 + o->seq;
		e->ring_steps = (o->kind == SIM_ALL_REDUCE ? 2 : 1) * (n - 1);
		e->overlap = o->overlap;
	}
	e->what = o->tag.what;
	e->shard = o->tag.shard;
	e->chunk = o->tag.chunk;
	c->bytes_sent += e->bytes;
}

/* Move one operation along; returns 1 when it is done. */
static int
advance(struct run_comm *c, struct run_op *o)
{
	int flag = 0;

	if (o->phase == PH_FIRST || o->phase == PH_SECOND) {
		MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE);
		if (!flag)
			return 0;
	}
	if (o->phase == PH_FIRST) {
		if (o->op == OP_COLL && o->kind != SIM_ALL_GATHER &&
		    o->stage != NULL)
			sum_ordered(c, o);
		o->phase = o->seq2 >= 0 ? PH_WAIT2 : PH_DONE;
	}
	if (o->phase == PH_WAIT2) {
		if (o->seq2 != o->g->next2)
			return 0;
		o->g->next2++;
		MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, o->buf,
		    o->cnt, o->dsp, MPI_DOUBLE, o->g->comm2, &o->req);
		o->phase = PH_SECOND;
		return 0;
	}
	o->phase = PH_DONE;
	return 1;
}

/* Drop ops[i] from the list, keeping the order of the rest. */
static void
remove_op(struct run_comm *c, int i)
{
	memmove(&c->ops[i], &c->ops[i + 1],
	    (size_t)(c->n_ops - i - 1) * sizeof *c->ops);
	c->n_ops--;
}

/*
 * Finish done operations from the oldest on. One not yet done holds back
 * the later ones of its group, so callbacks run in the order ops started.
 */
static void
retire(struct run_comm *c)
{
	int held[SIM_MAX_GPUS * 4], n_held = 0, i, k, wait;
	struct run_op o;

	for (i = 0; i < c->n_ops; i++) {
		wait = 0;
		for (k = 0; k < n_held && c->ops[i].op == OP_COLL; k++)
			if (held[k] == c->ops[i].g->key)
				wait = 1;
		if (!wait && c->ops[i].phase != PH_DONE &&
		    !advance(c, &c->ops[i]))
			wait = 1;
		if (wait) {
			if (c->ops[i].op == OP_COLL &&
			    n_held < (int)(sizeof held / sizeof *held))
				held[n_held++] = c->ops[i].g->key;
			continue;
		}
		o = c->ops[i];
		remove_op(c, i--);
		record(c, &o);
		if (o.done != NULL)
			o.done(o.arg);
		free(o.stage);
		free(o.cnt);
	}
}

void
run_comm_poll(struct run_comm *c)
{
	retire(c);
}

int
run_coll_start(struct run_comm *c, struct run_group *g, enum sim_kind kind,
    const struct sim_tag *tag, double *buf, size_t len, int overlap,
    run_done_fn done, void *arg)
{
	struct run_op *o;

	if (g->n < 2) {
		if (done != NULL)
			done(arg);
		return -1;
	}
	o = new_op(c);
	o->op = OP_COLL;
	o->kind = kind;
	o->g = g;
	o->tag = *tag;
	o->buf = buf;
	o->len = len;
	o->overlap = overlap;
	o->seq = g->seq++;
	o->done = done;
	o->arg = arg;
	layout(o);
	if (o->cnt == NULL)
		run_fail(c->proc, "%s", _("out of memory"));
	if (kind == SIM_ALL_REDUCE && c->reduce == RUN_REDUCE_ORDERED)
		o->seq2 = g->seq2++;
	start_first(c, o);
	return o->handle;
}

struct wait_arg {
	struct run_comm	*c;
	int		 handle;	/* -1: everything */
};

static int
gone(void *arg)
{
	struct wait_arg *w = arg;
	int i;

	retire(w->c);
	if (w->handle < 0)
		return w->c->n_ops == 0;
	for (i = 0; i < w->c->n_ops; i++)
		if (w->c->ops[i].handle == w->handle)
			return 0;
	return 1;
}

/* What an operation is, for a timeout message. */
static void
describe(const struct run_comm *c, int handle, char *buf, size_t n)
{
	const struct run_op *o = NULL;
	int i;

	for (i = 0; i < c->n_ops; i++)
		if (handle < 0 || c->ops[i].handle == handle) {
			o = &c->ops[i];
			break;
		}
	if (o == NULL) {
		snprintf(buf, n, "%s", _("the other processes"));
		return;
	}
	if (o->tag.mb < 0)	/* a DP bucket: of the whole batch */
		snprintf(buf, n, _("the %s of layer %d's %s"),
		    o->op == OP_SEND ? sim_kind_name(SIM_SEND) :
		    sim_kind_name(o->kind), o->tag.layer,
		    sim_payload_name(o->tag.what));
	else
		snprintf(buf, n, _("the %s of layer %d's %s (micro-batch %d)"),
		    o->op == OP_SEND ? sim_kind_name(SIM_SEND) :
		    sim_kind_name(o->kind), o->tag.layer,
		    sim_payload_name(o->tag.what), o->tag.mb);
}

void
run_comm_wait(struct run_comm *c, int handle)
{
	struct wait_arg w = { c, handle };
	char what[200];

	if (handle < 0 && c->n_ops == 0)
		return;
	describe(c, handle, what, sizeof what);
	run_wait_until(c->proc, gone, &w, what);
}

void
run_comm_drain(struct run_comm *c)
{
	run_comm_wait(c, -1);
}

void
run_coll(struct run_comm *c, struct run_group *g, enum sim_kind kind,
    const struct sim_tag *tag, double *buf, size_t len)
{
	int h = run_coll_start(c, g, kind, tag, buf, len, 0, NULL, NULL);

	if (h >= 0)
		run_comm_wait(c, h);
}

void
run_send(struct run_comm *c, int to, const double *src, size_t len,
    int mpi_tag, const struct sim_tag *tag)
{
	struct run_op *o = new_op(c);

	o->op = OP_SEND;
	o->kind = SIM_SEND;
	o->tag = *tag;
	o->len = len;
	o->peer = to;
	/* The payload, then when it left on rank 0's clock (for the receive). */
	o->stage = malloc((len + 1) * sizeof *o->stage);
	if (o->stage == NULL)
		run_fail(c->proc, "%s", _("out of memory"));
	memcpy(o->stage, src, len * sizeof *src);
	o->stage[len] = o->t_start;
	MPI_Isend(o->stage, (int)len + 1, MPI_DOUBLE, to, mpi_tag,
	    MPI_COMM_WORLD, &o->req);
}

struct recv_arg {
	struct run_comm	*c;
	MPI_Request	*q;
};

static int
received(void *arg)
{
	struct recv_arg *r = arg;
	int flag = 0;

	retire(r->c);
	MPI_Test(r->q, &flag, MPI_STATUS_IGNORE);
	return flag;
}

void
run_recv(struct run_comm *c, int from, double *dst, size_t len, int mpi_tag,
    const struct sim_tag *tag)
{
	double *tmp = malloc((len + 1) * sizeof *tmp);
	struct recv_arg r;
	struct sim_event *e;
	MPI_Request q;
	char what[200];
	double t1;

	if (tmp == NULL)
		run_fail(c->proc, "%s", _("out of memory"));
	MPI_Irecv(tmp, (int)len + 1, MPI_DOUBLE, from, mpi_tag, MPI_COMM_WORLD,
	    &q);
	r.c = c;
	r.q = &q;
	snprintf(what, sizeof what, _("the %s of layer %d (micro-batch %d) "
	    "from rank %d"), sim_payload_name(tag->what), tag->layer, tag->mb,
	    from);
	run_wait_until(c->proc, received, &r, what);
	memcpy(dst, tmp, len * sizeof *dst);
	/* The send's start is on the sender's corrected clock; an offset
	   error of a few microseconds must not end it before it began. */
	t1 = run_now(c->proc);
	e = sim_timeline_add(c->tl, c->proc->rank, SIM_RECV, tag->layer,
	    tag->mb, tmp[len] < t1 ? tmp[len] : t1, t1, len * sizeof(double));
	free(tmp);
	if (e == NULL)
		run_fail(c->proc, "%s", _("out of memory"));
	e->peer = from;
	e->what = tag->what;
	e->shard = tag->shard;
	e->chunk = tag->chunk;
}
