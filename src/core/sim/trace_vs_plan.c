/*
 * trace_vs_plan.c - a measured step's figures and the engine's, row by row
 * (trace_vs_plan.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/trace_vs_plan.h"

static const char *const labels[TVP_NROWS] = {
	N_("step"), N_("forward + backward"), N_("optimizer"),
	N_("in collectives"), N_("  not hidden"), N_("bytes sent a GPU"),
	N_("collectives a GPU")
};

const char *
tvp_row_label(enum tvp_row r)
{
	return (int)r >= 0 && r < TVP_NROWS ? labels[r] : "?";
}

int
tvp_row_is_time(enum tvp_row r)
{
	return r != TVP_BYTES && r != TVP_COLLECTIVES;
}

char *
tvp_value_text(enum tvp_row r, double v, char *buf, size_t n)
{
	if (tvp_row_is_time(r))
		snprintf(buf, n, v < 1e-3 ? _("%.0f us") : v < 1 ?
		    _("%.1f ms") : _("%.2f s"), v < 1e-3 ? v * 1e6 : v < 1 ?
		    v * 1e3 : v);
	else if (r == TVP_BYTES)
		snprintf(buf, n, v < 1e6 ? _("%.0f kB") : v < 1e9 ?
		    _("%.1f MB") : _("%.2f GB"), v < 1e6 ? v / 1e3 : v < 1e9 ?
		    v / 1e6 : v / 1e9);
	else
		snprintf(buf, n, "%.0f", v);
	return buf;
}

char *
tvp_ratio_text(const struct trace_vs_plan *t, enum tvp_row r, char *buf,
    size_t n)
{
	double m = t->measured[r], e = t->engine[r];

	if (m > 0 && e > 0)
		snprintf(buf, n, "%.2fx", e / m);
	else
		snprintf(buf, n, "-");
	return buf;
}

struct span {
	double	 a, b;
};

static int
by_start(const void *x, const void *y)
{
	const struct span *p = x, *q = y;

	return (p->a > q->a) - (p->a < q->a);
}

/* Sort and merge overlapping spans in place; returns how many remain. */
static size_t
merge(struct span *s, size_t n)
{
	size_t i, k = 0;

	if (n == 0)
		return 0;
	qsort(s, n, sizeof *s, by_start);
	for (i = 1; i < n; i++) {
		if (s[i].a <= s[k].b) {
			if (s[i].b > s[k].b)
				s[k].b = s[i].b;
		} else
			s[++k] = s[i];
	}
	return k + 1;
}

static double
length(const struct span *s, size_t n)
{
	double t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		t += s[i].b - s[i].a;
	return t;
}

/* Length of the intersection of two merged, sorted span lists. */
static double
overlap(const struct span *x, size_t nx, const struct span *y, size_t ny)
{
	double t = 0, a, b;
	size_t i = 0, j = 0;

	while (i < nx && j < ny) {
		a = x[i].a > y[j].a ? x[i].a : y[j].a;
		b = x[i].b < y[j].b ? x[i].b : y[j].b;
		if (b > a)
			t += b - a;
		if (x[i].b < y[j].b)
			i++;
		else
			j++;
	}
	return t;
}

static int
is_collective(enum sim_kind k)
{
	return k == SIM_ALL_REDUCE || k == SIM_ALL_GATHER ||
	    k == SIM_REDUCE_SCATTER;
}

/*
 * Bytes a member sends in a ring collective of n ranks, from what the
 * event holds: the simulator's events hold that already; a profiler's
 * hold the message, Kineto's "In msg nelems" (torch_trace.c): the whole
 * array for all-reduce and reduce-scatter, the member's shard for
 * all-gather ([NCCL] PERFORMANCE.md: 2(n-1)/n, (n-1)/n and n-1 times).
 */
static double
sent(const struct sim_event *e, int n, int msg_bytes)
{
	double b = (double)e->bytes;

	if (!msg_bytes || n <= 1)
		return b;
	if (e->kind == SIM_ALL_REDUCE)
		return 2.0 * (n - 1) / n * b;
	if (e->kind == SIM_ALL_GATHER)
		return (n - 1.0) * b;
	return (n - 1.0) / n * b;
}

/* One device's rows; 0, or -1 on ENOMEM (the rows then stay 0). */
static int
measure_device(const struct sim_timeline *tl, int d, int msg_bytes,
    double *row)
{
	struct span *comm, *busy;
	size_t i, nc = 0, nb = 0;
	const struct sim_event *e;

	comm = malloc((tl->n_ev + 1) * sizeof *comm);
	busy = malloc((tl->n_ev + 1) * sizeof *busy);
	if (comm == NULL || busy == NULL) {
		free(comm);
		free(busy);
		return -1;
	}
	for (i = 0; i < tl->n_ev; i++) {
		e = &tl->ev[i];
		if (e->device != d)
			continue;
		if (e->kind == SIM_FORWARD || e->kind == SIM_BACKWARD) {
			row[TVP_COMPUTE] += e->end - e->start;
			busy[nb++] = (struct span){ e->start, e->end };
		} else if (e->kind == SIM_OPTIMIZER) {
			row[TVP_OPTIMIZER] += e->end - e->start;
			busy[nb++] = (struct span){ e->start, e->end };
		} else if (is_collective(e->kind)) {
			row[TVP_BYTES] += sent(e, tl->n_devices, msg_bytes);
			row[TVP_COLLECTIVES] += 1;
			comm[nc++] = (struct span){ e->start, e->end };
		}
	}
	nc = merge(comm, nc);
	nb = merge(busy, nb);
	row[TVP_COMM] = length(comm, nc);
	row[TVP_EXPOSED] = row[TVP_COMM] - overlap(comm, nc, busy, nb);
	free(comm);
	free(busy);
	return 0;
}

void
tvp_measure(const struct sim_timeline *tl, int msg_bytes,
    struct trace_vs_plan *out)
{
	double row[TVP_NROWS];
	int d, r, n = tl->n_devices > 0 ? tl->n_devices : 1;

	memset(out->measured, 0, sizeof out->measured);
	for (d = 0; d < tl->n_devices; d++) {
		memset(row, 0, sizeof row);
		if (measure_device(tl, d, msg_bytes, row) != 0)
			continue;
		for (r = 0; r < TVP_NROWS; r++)
			out->measured[r] += row[r] / n;
	}
	out->measured[TVP_STEP] = tl->t_end;
	out->gpus = tl->n_devices;
}

/* A number at obj.key, >= 0; -1 with err if absent or not one. */
static int
number(const cJSON *obj, const char *key, const char *path,
    const char *file, double *out, struct pl_err *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0)) {
		pl_err_set_path(err, file, path, "%s", _("missing, or not a "
		    "number >= 0: save the plan with parlearn plan --json for "
		    "one layout"));
		return -1;
	}
	*out = v->valuedouble;
	return 0;
}

static void
copy_name(const cJSON *root, const char *key, char *buf, size_t n)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);

	snprintf(buf, n, "%s", cJSON_IsString(v) ? v->valuestring : "?");
}

/* The plan's layout must be the trace's: DP only, on its devices. */
static int
check_layout(const cJSON *layout, double gpus, const char *file, int devices,
    struct pl_err *err)
{
	static const char *const axes[] = { "tp", "pp", "cp", "ep" };
	char path[32];
	double v;
	size_t i;

	for (i = 0; i < sizeof axes / sizeof axes[0]; i++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(layout,
		    axes[i]);

		v = cJSON_IsNumber(x) ? x->valuedouble : 1;
		if (v != 1) {
			snprintf(path, sizeof path, "layout.%s", axes[i]);
			pl_err_set_path(err, file, path, _("%s is %g: the "
			    "trace is data parallel, so the plan must be too"),
			    axes[i], v);
			return -1;
		}
	}
	if (gpus != devices) {
		pl_err_set_path(err, file, "gpus", _("the plan is for %g GPUs, "
		    "the trace has %d ranks"), gpus, devices);
		return -1;
	}
	return 0;
}

int
tvp_build(const struct sim_timeline *tl, int msg_bytes, const cJSON *plan,
    const char *file, struct trace_vs_plan *out, struct pl_err *err)
{
	const cJSON *schema, *time, *net, *layout;
	double *e = out->engine, gpus;

	memset(out, 0, sizeof *out);
	pl_err_clear(err);
	schema = cJSON_GetObjectItemCaseSensitive(plan, "schema");
	if (cJSON_IsString(schema) &&
	    strcmp(schema->valuestring, "parlearn.plan-search/1") == 0) {
		pl_err_set_path(err, file, "schema", "%s", _("a search, not one "
		    "layout: give plan the layout (--dp, --tp, --pp) and save "
		    "its --json"));
		return -1;
	}
	if (!cJSON_IsString(schema) ||
	    strcmp(schema->valuestring, "parlearn.plan/1") != 0) {
		pl_err_set_path(err, file, "schema", "%s", _("not a "
		    "parlearn.plan/1 document: save it with parlearn plan "
		    "--json"));
		return -1;
	}
	time = cJSON_GetObjectItemCaseSensitive(plan, "time_s");
	net = cJSON_GetObjectItemCaseSensitive(plan, "network");
	layout = cJSON_GetObjectItemCaseSensitive(plan, "layout");
	if (!cJSON_IsObject(time) || !cJSON_IsObject(net) ||
	    !cJSON_IsObject(layout)) {
		pl_err_set_path(err, file, "time_s", "%s", _("missing: save the "
		    "plan with parlearn plan --json for one layout"));
		return -1;
	}
	if (number(plan, "gpus", "gpus", file, &gpus, err) != 0 ||
	    check_layout(layout, gpus, file, tl->n_devices, err) != 0 ||
	    number(time, "step", "time_s.step", file, &e[TVP_STEP],
	    err) != 0 ||
	    number(time, "compute", "time_s.compute", file, &e[TVP_COMPUTE],
	    err) != 0 ||
	    number(time, "optimizer", "time_s.optimizer", file,
	    &e[TVP_OPTIMIZER], err) != 0 ||
	    number(time, "dp_comm", "time_s.dp_comm", file, &e[TVP_COMM],
	    err) != 0 ||
	    number(time, "dp_exposed", "time_s.dp_exposed", file,
	    &e[TVP_EXPOSED], err) != 0 ||
	    number(net, "dp_bytes_per_gpu", "network.dp_bytes_per_gpu",
	    file, &e[TVP_BYTES], err) != 0 ||
	    number(net, "dp_collectives", "network.dp_collectives", file,
	    &e[TVP_COLLECTIVES], err) != 0) {
		memset(out, 0, sizeof *out);
		return -1;
	}
	copy_name(plan, "model", out->model, sizeof out->model);
	copy_name(plan, "gpu", out->gpu, sizeof out->gpu);
	tvp_measure(tl, msg_bytes, out);
	return 0;
}
