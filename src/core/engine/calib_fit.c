/*
 * calib_fit.c - the engine's link and product figures fitted to measured
 * tables (calibrate.h), each through the engine's own formula for it:
 * the ring's time (n - 1) / n x bytes / bandwidth (twice for all-reduce)
 * plus coll_base_s and one latency per step, NCCL_BASE and the step count
 * as costmodel_net.c has them ([NCCL] PERFORMANCE.md, tuning.cc); NVLS
 * on 5 or more GPUs of a node for all-reduce (cm_nvls_bw); and the
 * product time of the engine's default, cm_gemm_eta_combined (the shape
 * rule, or the tile model where the product leaves SMs idle).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/calibrate.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_gemm.h"

#define GB		1e9
#define BIG_BYTES	(64.0 * 1024 * 1024)	/* bandwidth rows */
#define SMALL_BYTES	4096.0			/* latency rows */
#define GEMM_MIN_S	1e-4			/* under it: launch floor */

void
calib_fit_init(struct calib_fit *f, const struct hw_gpu *base)
{
	memset(f, 0, sizeof *f);
	f->gpu = *base;
}

static void
config_of(const struct calib_fit *f, const struct calib_nccl *t,
    struct cm_config *c, struct mesh_span *g)
{
	int domain = f->gpu.domain_gpus;

	cm_config_default(c, NULL, &f->gpu);
	g->n = t->ranks;
	g->nodes = t->nodes > 0 ? t->nodes : 1;
	g->per_node = (t->ranks + g->nodes - 1) / g->nodes;
	g->domains = domain > g->per_node ? (t->ranks + domain - 1) / domain :
	    g->nodes;
	c->gpus_per_node = g->per_node;
	c->gpus = t->ranks;
}

static enum cm_coll
engine_kind(enum calib_coll k)
{
	return k == CAL_ALLREDUCE ? CM_ALLREDUCE : k == CAL_REDUCESCATTER ?
	    CM_REDUCESCATTER : CM_ALLGATHER;
}

/* All-to-all as costmodel_ep.c prices it: near and far shares at once. */
static double
alltoall_s(const struct cm_config *c, const struct mesh_span *g,
    double bytes)
{
	double n = g->n, near = bytes * (g->per_node - 1) / n,
	    far = bytes * (n - g->per_node) / n, t;

	t = near / (c->intra_bw * c->intra_eff);
	if (far > 0 && far / (c->inter_bw * c->inter_eff) > t)
		t = far / (c->inter_bw * c->inter_eff);
	return t + c->coll_base_s + (g->domains > 1 ? c->inter_lat_s :
	    c->intra_lat_s);
}

double
calib_nccl_predict_s(const struct calib_fit *f, const struct calib_nccl *t,
    double bytes)
{
	struct cm_config c;
	struct mesh_span g;

	config_of(f, t, &c, &g);
	if (t->kind == CAL_ALLTOALL)
		return alltoall_s(&c, &g, bytes);
	return cm_coll_s(&c, engine_kind(t->kind), &g, bytes);
}

double
calib_busbw(const struct calib_nccl *t, double bytes, double time_s)
{
	double n = t->ranks;

	return bytes / time_s * (t->kind == CAL_ALLREDUCE ? 2.0 : 1.0) *
	    (n - 1) / n;
}

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The ring's latency terms on g: steps inside domains and across. */
static void
steps(const struct calib_nccl *t, const struct mesh_span *g, double *in,
    double *across)
{
	double twice = t->kind == CAL_ALLREDUCE ? 2 : 1;

	*across = (g->domains - 1.0) * twice;
	*in = (g->n - 1.0) * twice - *across;
}

static void
note(struct calib_fit *f, enum hw_measured m, const struct calib_nccl *t)
{
	f->gpu.measured |= 1u << m;
	/* TRANSLATORS: where a fitted figure came from: "all_gather_perf, 8
	 * GPUs in 1 node(s)". */
	snprintf(f->how[m], sizeof f->how[m], _("%s, %d GPUs in %d node(s)"),
	    calib_coll_name(t->kind), t->ranks, t->nodes);
}

/* Latency per step from the small rows (none: unchanged). */
static void
fit_latency(struct calib_fit *f, const struct calib_nccl *t)
{
	struct cm_config c;
	struct mesh_span g;
	double v[CAL_MAX_ROWS], in, across, a, lat;
	int i, n = 0;

	for (i = 0; i < t->n_rows; i++)
		if (t->rows[i].bytes <= SMALL_BYTES)
			v[n++] = t->rows[i].time_s;
	if (n == 0)
		return;
	config_of(f, t, &c, &g);
	steps(t, &g, &in, &across);
	a = median(v, n) - c.coll_base_s;
	if (across > 0) {
		lat = (a - in * c.intra_lat_s) / across;
		if (lat > 0) {
			f->gpu.inter_lat_s = lat;
			note(f, HW_MEAS_INTER_LAT, t);
		}
	} else if (in > 0 && a / in > 0) {
		f->gpu.intra_lat_s = a / in;
		note(f, HW_MEAS_INTRA_LAT, t);
	}
}

/* Bus bandwidth the ring model needs to match the large rows, bytes/s. */
static double
ring_bw(const struct calib_fit *f, const struct calib_nccl *t)
{
	struct cm_config c;
	struct mesh_span g;
	double v[3], in, across, lat, n = t->ranks, factor;
	int i, k = 0;

	config_of(f, t, &c, &g);
	steps(t, &g, &in, &across);
	lat = c.coll_base_s + in * c.intra_lat_s + across * c.inter_lat_s;
	factor = (t->kind == CAL_ALLREDUCE ? 2.0 : 1.0) * (n - 1) / n;
	for (i = t->n_rows - 1; i >= 0 && k < 3; i--) {
		const struct calib_row *r = &t->rows[i];

		if (r->bytes < BIG_BYTES && k > 0)
			break;
		if (r->time_s > lat)
			v[k++] = factor * r->bytes / (r->time_s - lat);
		if (r->bytes < BIG_BYTES)
			break;
	}
	return k > 0 ? median(v, k) : 0;
}

static int
refuse(struct pl_err *err, const char *file, const char *what, double gbps,
    double limit)
{
	/* TRANSLATORS: %1$s a figure, %2$.0f its fitted value, %3$.0f the
	 * rate it cannot exceed, GB/s. */
	pl_err_set(err, file, 1, 1, _("the measured %1$s of %2$.0f GB/s is "
	    "above this GPU's %3$.0f GB/s: is --gpu the GPU you measured?"),
	    what, gbps, limit);
	return -1;
}

int
calib_fit_nccl(struct calib_fit *f, const struct calib_nccl *t,
    const char *file, struct pl_err *err)
{
	struct hw_gpu *g = &f->gpu;
	struct cm_config c;
	struct mesh_span span;
	double bw, nvls;
	int pass;

	pl_err_clear(err);
	if (t->kind == CAL_ALLTOALL)
		return 0;	/* compared, not fitted */
	for (pass = 0; pass < 2; pass++) {
		fit_latency(f, t);
		if ((bw = ring_bw(f, t)) <= 0)
			return 0;
		config_of(f, t, &c, &span);
		if (t->nodes > 1) {
			/* per_node x inter_bw x inter_eff, costmodel_net.c */
			g->inter_bw = bw / (span.per_node * c.inter_eff);
			note(f, HW_MEAS_INTER_BW, t);
		} else if (t->kind == CAL_ALLREDUCE &&
		    (nvls = cm_nvls_bw(&c, &span)) > 0) {
			/* cm_nvls_bw scales the 8-GPU figure by group size */
			g->nvls_bw *= bw / nvls;
			note(f, HW_MEAS_NVLS, t);
		} else if (bw > g->nvlink_bw) {
			return refuse(err, file, _("NVLink bus bandwidth"),
			    bw / GB, g->nvlink_bw / GB);
		} else {
			g->nvlink_eff = bw / g->nvlink_bw;
			note(f, HW_MEAS_NVLINK_EFF, t);
		}
	}
	return 0;
}

double
calib_gemm_predict_s(const struct calib_fit *f, double m, double k, double n)
{
	double eta = cm_gemm_eta_combined(&f->gpu, m, k, n, 1);

	return eta > 0 ? 2 * m * k * n / (f->gpu.peak_flops * eta) : 0;
}

/* Median over the timed products of engine time / measured time. */
static double
gemm_ratio(struct calib_fit *f, const struct calib_gemm *t, double eff)
{
	double v[CAL_MAX_ROWS];
	int i, n = 0;

	f->gpu.gemm_eff = eff;
	for (i = 0; i < t->n_rows; i++) {
		const struct calib_gemm_row *r = &t->rows[i];

		if (r->time_s >= GEMM_MIN_S)
			v[n++] = calib_gemm_predict_s(f, r->m, r->k, r->n) /
			    r->time_s;
	}
	return n > 0 ? median(v, n) : 0;
}

int
calib_fit_gemm(struct calib_fit *f, const struct calib_gemm *t,
    const char *file, struct pl_err *err)
{
	double lo = 0.01, hi = 1.0, mid, keep = f->gpu.gemm_eff;
	int i;

	pl_err_clear(err);
	if (gemm_ratio(f, t, hi) == 0) {
		f->gpu.gemm_eff = keep;
		pl_err_set(err, file, 1, 1, "%s", _("no product took 0.1 ms or "
		    "more: time larger products"));
		return -1;
	}
	if (gemm_ratio(f, t, hi) > 1 || gemm_ratio(f, t, lo) < 1) {
		f->gpu.gemm_eff = keep;
		pl_err_set(err, file, 1, 1, "%s", _("the products ran faster "
		    "than this GPU's peak or slower than a hundredth of it: is --gpu "
		    "the GPU you measured?"));
		return -1;
	}
	/* the engine's time falls as the efficiency rises */
	for (i = 0; i < 60; i++) {
		mid = (lo + hi) / 2;
		if (gemm_ratio(f, t, mid) > 1)
			lo = mid;
		else
			hi = mid;
	}
	f->gpu.gemm_eff = (lo + hi) / 2;
	f->gpu.measured |= 1u << HW_MEAS_GEMM;
	snprintf(f->how[HW_MEAS_GEMM], sizeof f->how[HW_MEAS_GEMM],
	    _("gemm_bench.py, %d products"), t->n_rows);
	return 0;
}
