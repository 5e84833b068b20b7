/*
 * torch_trace.c - torch.profiler traces read as a measured timeline
 * (torch_trace.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/torch_trace.h"

#define MAX_COLL	512

struct span {
	double	start, end;	/* us, the rank's own clock; start < 0: none */
};

struct coll {
	enum sim_kind	 kind;
	double		 start, end;	/* us */
	size_t		 bytes;
};

struct rank {
	struct span	 fwd, bwd, opt;
	struct coll	 coll[MAX_COLL];
	int		 n_coll;
	int		 backend;	/* 1: the backend's events, else c10d's */
	int		 nccl;		/* saw nccl: events */
	double		 offset;	/* us added to align on rank 0 */
};

static const cJSON *
events_of(const cJSON *root)
{
	const cJSON *ev;

	if (cJSON_IsArray(root))
		return root;
	ev = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
	return cJSON_IsArray(ev) ? ev : NULL;
}

int
torch_trace_is(const cJSON *root)
{
	return events_of(root) != NULL &&
	    cJSON_GetObjectItemCaseSensitive(root, "schema") == NULL;
}

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void
widen(struct span *s, double a, double b)
{
	if (s->start < 0 || a < s->start)
		s->start = a;
	if (b > s->end)
		s->end = b;
}

/* The collective a name is, or SIM_NKINDS. */
static enum sim_kind
coll_kind(const char *name, int *backend)
{
	*backend = starts(name, "nccl:") || starts(name, "gloo:");
	if (!*backend && !starts(name, "c10d::"))
		return SIM_NKINDS;
	if (strstr(name, "all_reduce") || strstr(name, "allreduce"))
		return SIM_ALL_REDUCE;
	if (strstr(name, "all_gather") || strstr(name, "allgather"))
		return SIM_ALL_GATHER;
	if (strstr(name, "reduce_scatter"))
		return SIM_REDUCE_SCATTER;
	return SIM_NKINDS;
}

/* Kineto's "In msg nelems" x the dtype's size, else 0. */
static size_t
coll_bytes(const cJSON *e)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "args"), *n, *t;
	double size = 4;

	n = cJSON_GetObjectItemCaseSensitive(a, "In msg nelems");
	t = cJSON_GetObjectItemCaseSensitive(a, "dtype");
	if (!cJSON_IsNumber(n) || n->valuedouble <= 0)
		return 0;
	if (cJSON_IsString(t))
		size = strstr(t->valuestring, "Double") ? 8 :
		    strstr(t->valuestring, "BFloat16") ||
		    strstr(t->valuestring, "Half") ? 2 :
		    strstr(t->valuestring, "Byte") ||
		    strstr(t->valuestring, "Char") ? 1 : 4;
	return (size_t)(n->valuedouble * size);
}

/* First pass: the step's regions. */
static void
regions(const cJSON *evs, struct rank *r)
{
	const cJSON *e;
	struct span ddp = { -1, 0 }, step = { -1, 0 }, autograd = { -1, 0 },
	    optstep = { -1, 0 };

	cJSON_ArrayForEach(e, evs) {
		const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
		const cJSON *du = cJSON_GetObjectItemCaseSensitive(e, "dur");
		const char *s;
		double a, b;

		if (!cJSON_IsString(nm) || !cJSON_IsNumber(ts) ||
		    !cJSON_IsNumber(du))
			continue;
		s = nm->valuestring;
		a = ts->valuedouble;
		b = a + du->valuedouble;
		if (strcmp(s, "forward") == 0)
			widen(&r->fwd, a, b);
		else if (strcmp(s, "backward") == 0)
			widen(&r->bwd, a, b);
		else if (strcmp(s, "optimizer") == 0)
			widen(&r->opt, a, b);
		else if (strcmp(s, "DistributedDataParallel.forward") == 0 ||
		    strcmp(s, "FullyShardedDataParallel.forward") == 0)
			widen(&ddp, a, b);
		else if (starts(s, "ProfilerStep#") && step.start < 0)
			widen(&step, a, b);
		else if (starts(s, "autograd::engine::evaluate_function:"))
			widen(&autograd, a, b);
		else if (starts(s, "Optimizer.step#"))
			widen(&optstep, a, b);
	}
	if (r->fwd.start < 0)
		r->fwd = ddp.start >= 0 ? ddp : step;
	if (r->bwd.start < 0)
		r->bwd = autograd;
	if (r->opt.start < 0)
		r->opt = optstep;
}

/* Second pass: the collectives inside the step, of one source. */
static void
collectives(const cJSON *evs, struct rank *r, int backend, double lo,
    double hi)
{
	const cJSON *e;

	r->n_coll = 0;
	cJSON_ArrayForEach(e, evs) {
		const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
		const cJSON *du = cJSON_GetObjectItemCaseSensitive(e, "dur");
		enum sim_kind k;
		int be;

		if (!cJSON_IsString(nm) || !cJSON_IsNumber(ts) ||
		    !cJSON_IsNumber(du))
			continue;
		k = coll_kind(nm->valuestring, &be);
		r->nccl |= starts(nm->valuestring, "nccl:");
		if (k == SIM_NKINDS || be != backend || ts->valuedouble < lo ||
		    ts->valuedouble > hi || r->n_coll == MAX_COLL)
			continue;
		r->coll[r->n_coll++] = (struct coll){ k, ts->valuedouble,
		    ts->valuedouble + du->valuedouble, coll_bytes(e) };
	}
}

static int
by_start(const void *a, const void *b)
{
	double x = ((const struct coll *)a)->start,
	    y = ((const struct coll *)b)->start;

	return (x > y) - (x < y);
}

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Read one rank; -1 with err when its step cannot be found. */
static int
read_rank(const cJSON *root, const char *file, struct rank *r,
    struct pl_err *err)
{
	const cJSON *evs = events_of(root);
	double hi;

	memset(r, 0, sizeof *r);
	r->fwd.start = r->bwd.start = r->opt.start = -1;
	if (evs == NULL) {
		pl_err_set(err, file, 1, 1, "%s", _("not a torch.profiler trace "
		    "(a JSON array of events, or {\"traceEvents\": [...]})"));
		return -1;
	}
	regions(evs, r);
	if (r->fwd.start < 0 || r->bwd.start < 0) {
		pl_err_set(err, file, 1, 1, "%s", _("no forward and backward "
		    "in this trace: mark them with record_function(\"forward\") "
		    "and (\"backward\"), or profile a DDP or FSDP module"));
		return -1;
	}
	hi = r->opt.start >= 0 ? r->opt.end : r->bwd.end;
	collectives(evs, r, 1, r->fwd.start, hi);
	r->backend = r->n_coll > 0;
	if (!r->backend)
		collectives(evs, r, 0, r->fwd.start, hi);
	qsort(r->coll, (size_t)r->n_coll, sizeof r->coll[0], by_start);
	return 0;
}

/* Offsets that line each rank's collectives' ends up with rank 0's. */
static int
align(struct rank *rk, int n, const char *const *files, struct pl_err *err)
{
	double gap[MAX_COLL];
	int i, k;

	for (i = 1; i < n; i++) {
		if (rk[i].n_coll != rk[0].n_coll) {
			pl_err_set(err, files[i], 1, 1, _("%d collectives in the "
			    "step where %s has %d: traces of one step, please"),
			    rk[i].n_coll, files[0], rk[0].n_coll);
			return -1;
		}
		for (k = 0; k < rk[i].n_coll; k++)
			gap[k] = rk[0].coll[k].end - rk[i].coll[k].end;
		if (rk[i].n_coll == 0)
			rk[i].offset = rk[0].fwd.start - rk[i].fwd.start;
		else {
			qsort(gap, (size_t)rk[i].n_coll, sizeof gap[0],
			    by_double);
			rk[i].offset = gap[rk[i].n_coll / 2];
		}
	}
	return 0;
}

static int
add(struct sim_timeline *tl, int d, enum sim_kind k, const struct span *s,
    double off, double t0)
{
	if (s->start < 0)
		return 0;
	return sim_timeline_add(tl, d, k, 0, 0, (s->start + off - t0) * 1e-6,
	    (s->end + off - t0) * 1e-6, 0) == NULL ? -1 : 0;
}

static int
fill(struct sim_timeline *tl, const struct rank *rk, int n)
{
	double t0 = INFINITY;
	int i, k;

	for (i = 0; i < n; i++)
		t0 = fmin(t0, rk[i].fwd.start + rk[i].offset);
	for (i = 0; i < n; i++) {
		const struct rank *r = &rk[i];

		if (add(tl, i, SIM_FORWARD, &r->fwd, r->offset, t0) ||
		    add(tl, i, SIM_BACKWARD, &r->bwd, r->offset, t0) ||
		    add(tl, i, SIM_OPTIMIZER, &r->opt, r->offset, t0))
			return -1;
		for (k = 0; k < r->n_coll; k++) {
			const struct coll *c = &r->coll[k];
			struct sim_event *e = sim_timeline_add(tl, i, c->kind,
			    0, -1, (c->start + r->offset - t0) * 1e-6,
			    (c->end + r->offset - t0) * 1e-6, c->bytes);

			if (e == NULL)
				return -1;
			e->collective = k;
			e->what = SIM_P_WEIGHT_GRADS;
			e->overlap = r->backend;
		}
	}
	return 0;
}

int
torch_trace_read(const cJSON *const *roots, const char *const *files,
    int n, struct sim_config *cfg, struct sim_result *res,
    struct sim_origin *origin, struct pl_err *err)
{
	struct sim_request req;
	struct rank *rk = NULL;
	int i, rc = -1;

	memset(&req, 0, sizeof req);
	req.mode = "dp";
	req.gpus = n;
	req.microbatches = 1;
	memset(res, 0, sizeof *res);
	pl_err_clear(err);
	if (n < 1 || n > SIM_MAX_GPUS || SIM_BATCH % n != 0) {
		/* the player's dp layout splits its batch over the ranks */
		pl_err_set(err, files[0], 1, 1, _("%d ranks' traces: the player "
		    "lays out 1, 2, 4, 8 or 16 ranks"), n);
		return -1;
	}
	if (sim_config_build(&req, cfg, err) != 0 ||
	    (rk = calloc((size_t)n, sizeof *rk)) == NULL)
		goto out;
	for (i = 0; i < n; i++)
		if (read_rank(roots[i], files[i], &rk[i], err) != 0)
			goto out;
	if (align(rk, n, files, err) != 0 ||
	    sim_timeline_init(&res->tl, n) != 0)
		goto out;
	if (fill(&res->tl, rk, n) != 0 || sim_timeline_finish(&res->tl) != 0)
		goto out;
	res->dp = n;
	res->tp = res->pp = res->cp = res->v = 1;
	res->bubble = sim_timeline_bubble(&res->tl);
	res->bytes_moved = sim_timeline_bytes(&res->tl);
	res->step_time = res->tl.t_end;
	memset(origin, 0, sizeof *origin);
	origin->measured = 1;
	origin->profiler = 1;
	origin->processes = n;
	origin->hosts = 1;
	snprintf(origin->library, sizeof origin->library, "%s",
	    rk[0].nccl ? "torch.profiler, NCCL" : "torch.profiler, gloo");
	rc = 0;
out:
	if (rc != 0) {
		if (err->msg[0] == '\0')
			pl_err_set(err, files[0], 1, 1, "%s", _("out of memory"));
		sim_result_free(res);
		memset(res, 0, sizeof *res);
	}
	free(rk);
	return rc;
}
