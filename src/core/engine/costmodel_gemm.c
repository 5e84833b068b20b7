/*
 * costmodel_gemm.c - the fraction of peak one matrix product M x K by
 * K x N reaches, from how a tiled GPU kernel runs it (cm_gemm_eta_tiled;
 * what --gemm-model tiled prices with, see costmodel_gemm.h) (NVIDIA, "Matrix
 * Multiplication Background User's Guide", docs.nvidia.com/deeplearning/
 * performance/dl-performance-matrix-multiplication: "Tile Quantization",
 * "Wave Quantization", "Math And Memory Bounds").
 *
 * The kernel cuts the M x N output into tiles of tm x tn; each SM computes
 * one tile at a time, walking K in steps of tk, then writes the tile out
 * (the epilogue). So
 *
 *   tiles  = ceil(M / tm) ceil(N / tn)		tile quantization: a partial
 *						tile costs a whole one
 *   waves  = ceil(tiles / SMs)			wave quantization: the last
 *						wave runs partly empty
 *   t_tile = 2 tm tn tk ceil(K / tk) / (P E / SMs)	the main loop at the
 *						SM's share of the sustained peak
 *	    + e tm tn / (BW / active)		the epilogue stores the tile
 *						at the active SMs' HBM share
 *   t_c    = waves t_tile
 *
 * and the memory bound: the product reads A and B and writes C at least
 * once, t_m = e (MK + KN + MN) / BW (the guide's arithmetic intensity
 * against the GPU's ops:byte ratio). BW is the HBM bandwidth a kernel
 * moving that many bytes achieves (cm_hbm_eff, costmodel_time.c: [CALC]'s
 * 0.3-0.9 of the datasheet by size), in the epilogue as in the bound. t = max(t_c, t_m), eta = 2MKN /
 * (t P). E is the GPU's sustained large-product fraction (gpus.json
 * gemm_efficiency); nothing here is fitted.
 *
 * Tiles: cuBLAS picks, per shape, among kernels whose tiles are CUTLASS's:
 * 128x256x64 is CUTLASS's default for bf16/fp16 tensor-op products on
 * sm80 and sm89 (NVIDIA/cutlass include/cutlass/gemm/device/
 * default_gemm_configuration.h, ThreadblockShape GemmShape<128, 256, 64>),
 * and Hopper's warp-specialized kernels come in 128x256, 256x128, 128x128
 * and 64x128 tiles with tk = 64; the engine takes the one with the least
 * predicted time, as cuBLAS's heuristic aims to (all tiles assumed at the
 * same per-SM rate). A product with fewer tiles than SMs may cut each
 * tile's K loop over 2, 4 ... SMs (split-K, CUTLASS's GemmSplitKParallel:
 * each slice writes an fp32 partial tile, and a reduction kernel reads
 * them all and writes C); the engine takes it where it is faster.
 * Stream-K's finer balance is not modelled.
 *
 * The time of an eager PyTorch loop issuing the product (22-29 us per
 * product in reference/h100-gemm.md) is the host's, charged per kernel in
 * costmodel_time.c, not here: eta is the GPU's.
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_gemm.h"

#define GEMM_ELEM	2.0	/* bf16/fp16 bytes; fp32 callers halve BW */
#define SPLIT_ELEM	4.0	/* split-K partial tiles are fp32 */

static const double tiles[][2] = {
	{ 128, 256 }, { 256, 128 }, { 128, 128 }, { 64, 128 }
};

/* Time of `groups` products in one launch on tiles tm x tn, s. */
static double
tiled_s(const struct hw_gpu *g, double bw, double m, double k, double n,
    double groups, double tm, double tn, double tk)
{
	double sms = g->sm_count, nt, waves, active, t_main, t_epi;
	double steps = ceil(k / tk), best = HUGE_VAL, t, split, fix, red;

	nt = groups * ceil(m / tm) * ceil(n / tn);
	/* split-K: too few tiles to fill the SMs, so each tile's K loop is
	 * cut over `split` SMs, whose fp32 partial tiles a second pass
	 * reads and sums into C */
	for (split = 1; split <= steps && (split == 1 || nt * split <= sms);
	    split *= 2) {
		waves = ceil(nt * split / sms);
		active = nt * split < sms ? nt * split : sms;
		t_main = 2 * tm * tn * tk * ceil(steps / split) /
		    (g->peak_flops * g->gemm_eff / sms);
		/* a partial tile stores only its valid elements */
		fix = split > 1 ? SPLIT_ELEM : GEMM_ELEM;
		t_epi = fix * (groups * m * n / nt) / (bw / active);
		red = split > 1 ? (2 * split * SPLIT_ELEM + GEMM_ELEM) *
		    groups * m * n / bw : 0;
		t = waves * (t_main + t_epi) + red;
		if (t < best)
			best = t;
	}
	return best;
}

double
cm_gemm_eta_tiled_grouped(const struct hw_gpu *g, double m, double k,
    double n, double groups)
{
	double f, tc, tm, t, bytes, bw;
	size_t i;

	if (groups < 1)
		groups = 1;
	f = 2 * m * k * n * groups;
	if (f <= 0 || g->peak_flops <= 0 || g->gemm_eff <= 0 ||
	    g->hbm_bw <= 0)
		return 0;
	bytes = GEMM_ELEM * (m * k + k * n + m * n) * groups;
	bw = g->hbm_bw * cm_hbm_eff(bytes);
	if (g->sm_count <= 0) {	/* no SM count: no quantization */
		tc = f / (g->peak_flops * g->gemm_eff) + GEMM_ELEM * m * n *
		    groups / bw;
	} else {
		tc = HUGE_VAL;
		for (i = 0; i < sizeof tiles / sizeof tiles[0]; i++) {
			t = tiled_s(g, bw, m, k, n, groups, tiles[i][0],
			    tiles[i][1], 64);
			if (t < tc)
				tc = t;
		}
	}
	tm = bytes / bw;
	t = tc > tm ? tc : tm;
	return f / (t * g->peak_flops);
}

double
cm_gemm_eta_tiled(const struct hw_gpu *g, double m, double k, double n)
{
	return cm_gemm_eta_tiled_grouped(g, m, k, n, 1);
}

double
cm_gemm_eta_combined(const struct hw_gpu *g, double m, double k, double n,
    double groups)
{
	double rule = cm_gemm_eta(g, m, k, n);
	double tiled = cm_gemm_eta_tiled_grouped(g, m, k, n, groups);

	/* no SM count: the rule alone */
	return g->sm_count > 0 && tiled > 0 && tiled < rule ? tiled : rule;
}
