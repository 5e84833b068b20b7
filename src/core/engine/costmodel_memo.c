/*
 * costmodel_memo.c - the search prices the same matrix shapes again and
 * again (a layout's products depend on TP, EP, CP and the micro-batch,
 * not on DP, PP, ZeRO or the schedule): one GEMM efficiency per shape is
 * kept, per thread, for the GPU last asked about. A hit returns the very
 * double cm_gemm_eta_of computed, so results do not change.
 */
#include <stdint.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

#define MEMO_N	2048	/* a power of two */

struct memo {
	double	m, k, n, groups, eta;
	int	model;		/* enum cm_gemm_model; -1 empty */
};

/* what cm_gemm_eta and cm_gemm_eta_tiled read of the GPU */
struct gpu_key {
	double	peak, eff, hbm;
	int	sms;
};

static _Thread_local struct gpu_key memo_gpu;
static _Thread_local int memo_ready;
static _Thread_local struct memo memo[MEMO_N];

static uint64_t
bits(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof u);
	return u;
}

double
cm_gemm_eta_memo(const struct cm_config *c, const struct hw_gpu *g,
    double m, double k, double n, double groups)
{
	struct memo *e;
	uint64_t h;
	int i;

	if (!memo_ready || memo_gpu.peak != g->peak_flops ||
	    memo_gpu.eff != g->gemm_eff || memo_gpu.hbm != g->hbm_bw ||
	    memo_gpu.sms != g->sm_count) {
		memo_gpu.peak = g->peak_flops;
		memo_gpu.eff = g->gemm_eff;
		memo_gpu.hbm = g->hbm_bw;
		memo_gpu.sms = g->sm_count;
		for (i = 0; i < MEMO_N; i++)
			memo[i].model = -1;
		memo_ready = 1;
	}
	/* sizes are mostly round: their doubles' low bits are 0, so fold
	 * the high bits down before the multiply spreads them */
	h = bits(m);
	h = (h ^ (h >> 29)) * 0x9e3779b97f4a7c15ULL ^ bits(k);
	h = (h ^ (h >> 29)) * 0xc2b2ae3d27d4eb4fULL ^ bits(n);
	h = (h ^ (h >> 29)) * 0x27d4eb2f165667c5ULL ^ bits(groups);
	h = (h ^ (h >> 29)) * 0x165667b19e3779f9ULL + (uint64_t)c->gemm_model;
	e = &memo[(h ^ (h >> 32)) >> 21 & (MEMO_N - 1)];
	if (e->model == (int)c->gemm_model && e->m == m && e->k == k &&
	    e->n == n && e->groups == groups)
		return e->eta;
	e->m = m;
	e->k = k;
	e->n = n;
	e->groups = groups;
	e->model = (int)c->gemm_model;
	e->eta = cm_gemm_eta_of(c, g, m, k, n, groups);
	return e->eta;
}

/*
 * A model's parameter count, total (active 0) or a token's (1), is asked
 * for at every layout the search prices; the last model's pair is kept
 * per thread (a byte-equal model gives the same count).
 */
double
cm_params_memo(const struct hw_model *m, int active,
    double (*count)(const struct hw_model *, int))
{
	static _Thread_local struct hw_model last;
	static _Thread_local double n[2];
	static _Thread_local int have[2];

	if (memcmp(&last, m, sizeof *m) != 0) {
		memcpy(&last, m, sizeof *m);
		have[0] = have[1] = 0;
	}
	active = active != 0;
	if (!have[active]) {
		n[active] = count(m, active);
		have[active] = 1;
	}
	return n[active];
}
