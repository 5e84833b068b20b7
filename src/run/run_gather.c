/*
 * run_gather.c - every rank's part of the step, packed, gathered on rank
 * 0 and put back together.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/safetext.h"
#include "run/run_gather.h"
#include "run/run_wait.h"

#define LP		SIM_LAYER_PARAMS
#define EV_LEN		16		/* doubles per event */
#define MEM_LEN		(1 + SIM_NMEM)	/* doubles per memory sample */
/* Header: n_ev, n_mem, n_w, rtt, loss[SIM_BATCH], off[SIM_LAYERS]. */
#define HEAD_LEN	(4 + SIM_BATCH + SIM_LAYERS)

static void
pack_event(const struct sim_event *e, double *d)
{
	d[0] = e->kind;
	d[1] = e->what;
	d[2] = e->part;
	d[3] = e->layer;
	d[4] = e->microbatch;
	d[5] = e->shard;
	d[6] = e->chunk;
	d[7] = e->peer;
	d[8] = e->collective;
	d[9] = e->ring_steps;
	d[10] = e->overlap;
	d[11] = e->start;
	d[12] = e->end;
	d[13] = (double)e->bytes;
	d[14] = e->expert;
	d[15] = e->tokens;
}

/* This rank's part as one array of doubles; *n its length. */
static double *
pack(struct run_exec *x, int *n)
{
	const struct sim_timeline *tl = &x->tl;
	size_t len = HEAD_LEN + 2 * x->n_w + tl->n_ev * EV_LEN +
	    tl->n_mem * MEM_LEN, i;
	double *d = malloc(len * sizeof *d), *p;
	int l;

	if (d == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	d[0] = (double)tl->n_ev;
	d[1] = (double)tl->n_mem;
	d[2] = (double)x->n_w;
	d[3] = x->proc->rtt;
	memcpy(d + 4, x->loss, SIM_BATCH * sizeof *d);
	for (l = 0; l < SIM_LAYERS; l++)
		d[4 + SIM_BATCH + l] = x->off[l] == SIZE_MAX ? -1.0 :
		    (double)x->off[l];
	p = d + HEAD_LEN;
	memcpy(p, x->w, x->n_w * sizeof *p);
	memcpy(p + x->n_w, x->g, x->n_w * sizeof *p);
	p += 2 * x->n_w;
	for (i = 0; i < tl->n_ev; i++, p += EV_LEN)
		pack_event(&tl->ev[i], p);
	for (i = 0; i < tl->n_mem; i++, p += MEM_LEN) {
		p[0] = tl->mem[i].t;
		for (l = 0; l < SIM_NMEM; l++)
			p[1 + l] = (double)tl->mem[i].bytes[l];
	}
	*n = (int)len;
	return d;
}

/* One rank's packed part, as views. */
struct part {
	size_t		 n_ev, n_mem, n_w;
	double		 rtt;
	const double	*loss;		/* SIM_BATCH */
	size_t		 off[SIM_LAYERS];
	const double	*w, *g, *ev, *mem;
};

static void
unpack(const double *d, struct part *pt)
{
	int l;

	pt->n_ev = (size_t)d[0];
	pt->n_mem = (size_t)d[1];
	pt->n_w = (size_t)d[2];
	pt->rtt = d[3];
	pt->loss = d + 4;
	for (l = 0; l < SIM_LAYERS; l++)
		pt->off[l] = d[4 + SIM_BATCH + l] < 0 ? SIZE_MAX :
		    (size_t)d[4 + SIM_BATCH + l];
	pt->w = d + HEAD_LEN;
	pt->g = pt->w + pt->n_w;
	pt->ev = pt->g + pt->n_w;
	pt->mem = pt->ev + pt->n_ev * EV_LEN;
}

static int
stage_of_layer(const struct sim_layout *lay, int l)
{
	return (l / lay->lps) % lay->p;
}

/* sim_exec.c's collect: replica 0's layers (ZeRO-3: every shard). */
static void
collect(const struct sim_layout *lay, const struct part *pt, int n_ranks,
    double *out, int grads)
{
	size_t sh = sim_zero3_shard(lay), lo, x;
	const struct part *q;
	double *full;
	int l, i, k;

	for (l = 0; l < SIM_LAYERS; l++) {
		full = out + (size_t)l * LP;
		if (lay->zero3) {
			for (i = 0; i < n_ranks; i++) {
				q = &pt[i];
				lo = (size_t)(i / (lay->t * lay->p)) * sh;
				for (x = 0; x < sh && lo + x < LP; x++)
					full[lo + x] = (grads ? q->g : q->w)[
					    q->off[l] + x];
			}
			continue;
		}
		for (k = lay->t - 1; k >= 0; k--) {
			q = &pt[sim_rank(lay, 0, stage_of_layer(lay, l), k)];
			sim_layer_map(lay->t, k, (double *)(grads ? q->g :
			    q->w) + q->off[l], full, 0);
		}
		/* EP: each expert from the rank holding it (sim_ep_collect) */
		for (x = 0; lay->e > 1 && x < LP; x++) {
			if ((k = sim_ep_owner_of(lay, x)) < 0)
				continue;
			q = &pt[sim_rank(lay, k, stage_of_layer(lay, l), 0)];
			full[x] = (grads ? q->g : q->w)[q->off[l] + x];
		}
	}
}

/* sim_exec.c's loss order: micro-batches, then replicas, then TP ranks. */
static double
sum_loss(const struct sim_layout *lay, const struct part *pt)
{
	double loss = 0.0, v;
	int mb, r, k;

	for (mb = 0; mb < lay->m; mb++)
		for (r = 0; r < lay->d; r++)
			for (k = 0; k < lay->t; k++) {
				/* DualPipe's second half ends on stage 0 */
				v = pt[sim_rank(lay, r, lay->dual &&
				    mb >= lay->m / 2 ? 0 : lay->p - 1, k)].loss[mb];
				/* Without sp every TP rank has the same loss. */
				if (!isnan(v) && (lay->sp || k == 0))
					loss += v;
			}
	return loss;
}

/* Collective ids: (group key, sequence) made dense, in order of start. */
struct coll_id {
	int	 key;
	double	 start;
};

static int
cmp_coll(const void *a, const void *b)
{
	const struct coll_id *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->key > y->key) - (x->key < y->key);
}

static int
find_coll(const struct coll_id *ids, size_t n, int key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i].key == key)
			return (int)i;
	return -1;
}

static struct coll_id *
number_collectives(const struct part *pt, int n_ranks, size_t *n)
{
	size_t cap = 0, i;
	struct coll_id *ids = NULL, *grow;
	const double *e;
	int r, j;

	*n = 0;
	for (r = 0; r < n_ranks; r++)
		cap += pt[r].n_ev;
	ids = malloc((cap ? cap : 1) * sizeof *ids);
	for (r = 0; ids != NULL && r < n_ranks; r++)
		for (i = 0; i < pt[r].n_ev; i++) {
			e = pt[r].ev + i * EV_LEN;
			if (e[8] < 0)
				continue;
			j = find_coll(ids, *n, (int)e[8]);
			if (j < 0) {
				ids[*n].key = (int)e[8];
				ids[(*n)++].start = e[11];
			} else if (e[11] < ids[j].start)
				ids[j].start = e[11];
		}
	if (ids == NULL)
		return NULL;
	qsort(ids, *n, sizeof *ids, cmp_coll);
	grow = realloc(ids, (*n ? *n : 1) * sizeof *ids);
	return grow != NULL ? grow : ids;
}

static int
add_events(struct sim_timeline *tl, const struct part *pt, int rank,
    const struct coll_id *ids, size_t n_ids, double shift)
{
	struct sim_event *e;
	const double *d;
	size_t i;

	for (i = 0; i < pt->n_ev; i++) {
		d = pt->ev + i * EV_LEN;
		e = sim_timeline_add(tl, rank, (enum sim_kind)d[0], (int)d[3],
		    (int)d[4], d[11] - shift, d[12] - shift, (size_t)d[13]);
		if (e == NULL)
			return -1;
		e->what = (enum sim_payload)d[1];
		e->part = (enum sim_part)d[2];
		e->shard = (int)d[5];
		e->chunk = (int)d[6];
		e->peer = (int)d[7];
		e->collective = d[8] < 0 ? -1 : find_coll(ids, n_ids, (int)d[8]);
		e->ring_steps = (int)d[9];
		e->overlap = (int)d[10];
		e->expert = (int)d[14];
		e->tokens = (int)d[15];
	}
	return 0;
}

static int
add_memory(struct sim_timeline *tl, const struct part *pt, int rank,
    double shift)
{
	size_t i, *cur = tl->cur + (size_t)rank * SIM_NMEM;
	const double *d;
	int k;

	for (i = 0; i < pt->n_mem; i++) {
		d = pt->mem + i * MEM_LEN;
		for (k = 0; k < SIM_NMEM; k++)
			if ((size_t)d[1 + k] != cur[k] &&
			    sim_timeline_mem(tl, rank, d[0] - shift, k,
			    (long long)d[1 + k] - (long long)cur[k]) != 0)
				return -1;
	}
	return 0;
}

/*
 * The earliest event start or memory sample of any rank, if before 0
 * (clock error): the timeline is shifted so that nothing is negative.
 */
static double
earliest(const struct part *pt, int n_ranks)
{
	double t = 0.0;
	size_t i;
	int r;

	for (r = 0; r < n_ranks; r++) {
		for (i = 0; i < pt[r].n_ev; i++)
			if (pt[r].ev[i * EV_LEN + 11] < t)
				t = pt[r].ev[i * EV_LEN + 11];
		for (i = 0; i < pt[r].n_mem; i++)
			if (pt[r].mem[i * MEM_LEN] < t)
				t = pt[r].mem[i * MEM_LEN];
	}
	return t;
}

static int
build_timeline(struct sim_timeline *tl, const struct part *pt, int n_ranks)
{
	double shift = earliest(pt, n_ranks);
	struct coll_id *ids;
	size_t n_ids;
	int r, rc = 0;

	if ((ids = number_collectives(pt, n_ranks, &n_ids)) == NULL)
		return -1;
	for (r = 0; r < n_ranks && rc == 0; r++)
		if (add_events(tl, &pt[r], r, ids, n_ids, shift) != 0 ||
		    add_memory(tl, &pt[r], r, shift) != 0)
			rc = -1;
	free(ids);
	return rc == 0 ? sim_timeline_finish(tl) : -1;
}

static void
gather_hosts(struct run_exec *x, struct run_outcome *out)
{
	char name[MPI_MAX_PROCESSOR_NAME], mine[RUN_HOST_LEN];
	char *all = NULL;
	MPI_Request q;
	int len = 0, i, j, distinct = 0;

	memset(mine, 0, sizeof mine);
	MPI_Get_processor_name(name, &len);
	memcpy(mine, name, (size_t)(len < RUN_HOST_LEN ? len : RUN_HOST_LEN - 1));
	if (x->proc->rank == 0 && (all = malloc((size_t)x->proc->size *
	    RUN_HOST_LEN)) == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	MPI_Igather(mine, RUN_HOST_LEN, MPI_CHAR, all, RUN_HOST_LEN, MPI_CHAR,
	    0, MPI_COMM_WORLD, &q);
	run_waitall(x->proc, 1, &q, _("the host names"));
	if (x->proc->rank != 0)
		return;
	/* A host's name is the site's, not ours: kept as safetext shows it,
	 * so that neither the text nor --json carries a control character. */
	for (i = 0; i < x->proc->size; i++) {
		all[(size_t)i * RUN_HOST_LEN + RUN_HOST_LEN - 1] = '\0';
		safetext_render(all + (size_t)i * RUN_HOST_LEN, out->host[i],
		    RUN_HOST_LEN, SAFETEXT_UTF8);
		for (j = 0; j < i && strcmp(out->host[j], out->host[i]); j++)
			;
		distinct += j == i;
	}
	out->origin.hosts = distinct;
	free(all);
}

static void
library(char *buf, size_t n)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;

	MPI_Get_library_version(v, &len);
	len = (int)strcspn(v, "\n,");
	if ((size_t)len >= n)
		len = (int)n - 1;
	memcpy(buf, v, (size_t)len);
	buf[len] = '\0';
}

/* Rank 0: every part into out. */
static void
assemble(struct run_exec *x, const double *all, const int *counts,
    struct run_outcome *out)
{
	int n = x->proc->size, r, off = 0;
	struct part *pt = calloc((size_t)n, sizeof *pt);
	struct sim_result *res = &out->res;

	if (pt == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	for (r = 0; r < n; off += counts[r], r++) {
		unpack(all + off, &pt[r]);
		if (pt[r].rtt > out->rtt_max)
			out->rtt_max = pt[r].rtt;
	}
	res->loss = sum_loss(&x->lay, pt);
	collect(&x->lay, pt, n, res->grads, 1);
	collect(&x->lay, pt, n, res->params, 0);
	if (sim_timeline_init(&res->tl, n) != 0 ||
	    build_timeline(&res->tl, pt, n) != 0)
		run_fail(x->proc, "%s", _("out of memory"));
	res->dp = x->lay.d / x->lay.c;
	res->cp = x->lay.c;
	res->tp = x->lay.t;
	res->pp = x->lay.p;
	res->v = x->lay.v;
	res->schedule = x->lay.kind;
	res->ep = x->lay.e;
	res->moe = x->lay.moe;
	res->bubble = sim_timeline_bubble(&res->tl);
	res->bubble_formula = sim_layout_bubble_formula(&x->lay);
	res->bytes_moved = sim_timeline_bytes(&res->tl);
	res->step_time = res->tl.t_end;
	out->origin.measured = 1;
	out->origin.processes = n;
	library(out->origin.library, sizeof out->origin.library);
	free(pt);
}

void
run_gather(struct run_exec *x, struct run_outcome *out)
{
	int n = 0, *counts = NULL, *displs = NULL, r, total = 0;
	double *mine = pack(x, &n), *all = NULL;
	MPI_Request q;

	if (x->proc->rank == 0) {
		memset(out, 0, sizeof *out);
		counts = calloc((size_t)x->proc->size * 2, sizeof *counts);
		if (counts == NULL)
			run_fail(x->proc, "%s", _("out of memory"));
		displs = counts + x->proc->size;
	}
	MPI_Igather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
	run_waitall(x->proc, 1, &q, _("the results' sizes"));
	for (r = 0; x->proc->rank == 0 && r < x->proc->size; r++) {
		displs[r] = total;
		total += counts[r];
	}
	if (x->proc->rank == 0 && (all = malloc((size_t)total *
	    sizeof *all)) == NULL)
		run_fail(x->proc, "%s", _("out of memory"));
	MPI_Igatherv(mine, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
	    MPI_COMM_WORLD, &q);
	run_waitall(x->proc, 1, &q, _("the results"));
	gather_hosts(x, out);
	if (x->proc->rank == 0)
		assemble(x, all, counts, out);
	free(mine);
	free(all);
	free(counts);
}
