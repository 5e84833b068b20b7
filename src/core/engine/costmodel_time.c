/*
 * costmodel_time.c - time of one training step: matrix products at an
 * achievable fraction of peak that depends on their shape, memory-bound
 * element-wise work, TP/PP/DP collectives on the slowest link each group
 * spans, the pipeline bubble and the optimizer step.
 *
 * Efficiency rule (cm_gemm_eta). reference/h100-gemm.md measured bf16
 * M x K by K x N products on one H100. Two effects explain it: tiles run
 * short when K or N is small, and small products become bound by HBM
 * traffic. We model
 *
 *	eta_c  = E / (1 + C/K + C/N)		 E = gpu "gemm_efficiency"
 *	t_c    = 2MKN / (P eta_c)		 P = dense peak
 *	t_m    = e (MK + KN + MN) / BW		 e = bytes per element
 *	t      = (t_c^8 + t_m^8)^(1/8)		 smooth roofline maximum
 *
 * with C = 256 and E = 0.80, fitted once on the 36 rows of that table not
 * at the 0.025 ms launch floor (rms error 6 %, worst 24 % on a throttled
 * 32768 x 8192 x 32768 product). M does not enter eta_c: the 512-token rows
 * reach 75-80 % as soon as K, N >= 4096. Other generations use the same
 * rule with their own E (gpus.json), peak and HBM bandwidth, so the roofline
 * knee moves with the GPU's FLOP-to-byte ratio (A100: 153, H100: 295).
 * Backward products are the forward ones transposed (same FLOPs, same
 * traffic) and take twice the forward time.
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

#define GEMM_TILE_C	256.0	/* fitted on reference/h100-gemm.md */
#define HBM_EFF		0.9	/* [CALC] A100 file: HBM efficiency 0.9 */
#define FLASH_EFF	0.75	/* flash kernels vs large GEMMs, see below */

double
cm_gemm_eta(const struct hw_gpu *g, double m, double k, double n)
{
	double f = 2 * m * k * n, tc, tm, hi, lo;

	if (f <= 0 || g->peak_flops <= 0)
		return 0;
	tc = f / (g->peak_flops * g->gemm_eff /
	    (1 + GEMM_TILE_C / k + GEMM_TILE_C / n));
	tm = 2 * (m * k + k * n + m * n) / g->hbm_bw;
	hi = tc > tm ? tc : tm;
	lo = tc > tm ? tm : tc;
	return f / (hi * pow(1 + pow(lo / hi, 8), 0.125)) / g->peak_flops;
}

/* Time of one product on c's GPU in c's precision, s. */
static double
gemm_s(const struct cm_config *c, double m, double k, double n)
{
	struct hw_gpu g = c->gpu;

	if (c->precision == CM_PREC_FP32) {
		g.peak_flops = g.fp32_flops;
		g.hbm_bw /= 2;	/* 4-byte elements: half as many per second */
	}
	return 2 * m * k * n / (g.peak_flops * cm_gemm_eta(&g, m, k, n));
}

/* Bytes moved at HBM speed, s. */
static double
hbm_s(const struct cm_config *c, double bytes)
{
	return bytes / (c->gpu.hbm_bw * HBM_EFF);
}

/*
 * Attention core forward (QK^T, softmax, AV), one layer, one micro-batch.
 * [PALM]/[NAR21] count 4 b s^2 h / t FLOPs (the full square).
 * Plain (Megatron 2021): two batched products per head of shape s x d_h x s
 * and s x s x d_h through the GEMM rule, plus the score tensor read and
 * written by fused scale-mask-softmax and dropout ([KOR22] 4.1: 2as^2b
 * softmax output, as^2b mask, 2as^2b dropout output) - about 9 as^2b bytes.
 * Flash: causal kernels skip the masked half (reference j.2) and run at
 * FLASH_EFF of the large-GEMM efficiency (FlashAttention-2 reports 50-73 %
 * of A100 peak, FlashAttention-3 about 75 % of H100 peak forward; less
 * backward).
 */
static double
attn_fwd_s(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	double s = m->seq, b = c->micro_batch, dh = (double)m->hidden / m->heads;
	double heads = (double)m->heads / c->tp * b, fl, peak;

	fl = 4 * b * s * s * (double)m->hidden / c->tp;
	if (c->attention == CM_ATTN_FLASH) {
		peak = c->precision == CM_PREC_FP32 ? c->gpu.fp32_flops :
		    c->gpu.peak_flops;
		return 0.5 * fl / (peak * c->gpu.gemm_eff * FLASH_EFF);
	}
	return heads * (gemm_s(c, s, dh, s) + gemm_s(c, s, s, dh)) +
	    hbm_s(c, 9.0 * heads * s * s * cm_elem_bytes(c) / 2);
}

/*
 * Element-wise traffic of one layer forward, bytes: two norms (read and
 * write 2sbh each), two bias-dropout-residual adds (read 4sbh, write 2sbh
 * and a 1-byte mask) - 22sbh outside TP, split by SP - and the activation
 * (GeLU reads and writes f/t per token, SwiGLU reads 2f/t, writes f/t).
 */
static double
elem_fwd_bytes(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	double sb = (double)m->seq * c->micro_batch, t = c->tp;
	double e = cm_elem_bytes(c) / 2;
	double act = (m->mlp == HW_MLP_SWIGLU ? 6.0 : 4.0) * m->ffn * sb / t;

	return e * (22 * sb * m->hidden / (c->seq_parallel ? t : 1) + act);
}

/* Compute of one layer for one micro-batch: forward, backward, recompute. */
static void
layer_s(const struct cm_config *c, double *fwd, double *bwd)
{
	const struct hw_model *m = &c->model;
	double M = (double)m->seq * c->micro_batch, h = m->hidden, t = c->tp;
	double dh = h / m->heads, kv, g, att, el;
	int k = m->kv_heads;

	kv = 2 * dh * (c->tp <= k ? (double)k / c->tp : 1.0);
	g = gemm_s(c, M, h, h / t + kv) + gemm_s(c, M, h / t, h) +
	    gemm_s(c, M, h, (m->mlp == HW_MLP_SWIGLU ? 2.0 : 1.0) * m->ffn / t) +
	    gemm_s(c, M, m->ffn / t, h);
	att = attn_fwd_s(c);
	el = hbm_s(c, elem_fwd_bytes(c));
	*fwd = g + att + el;
	/* Backward: products 2x; flash backward ~2.5x its forward (it
	 * recomputes the scores), plain 2x; element-wise ~2x. */
	*bwd = 2 * g + (c->attention == CM_ATTN_FLASH ? 2.5 : 2.0) * att +
	    2 * el;
	if (c->recompute == CM_RECOMPUTE_FULL)	/* [NAR21] eq. 3: 4 passes */
		*bwd += *fwd;
	else if (c->recompute == CM_RECOMPUTE_SELECTIVE &&
	    c->attention == CM_ATTN_PLAIN)	/* [KOR22] 5: re-run attn */
		*bwd += att;
}

/* Ring collectives, [NCCL] PERFORMANCE.md busbw factors; reference f. */
double
cm_allreduce_s(double bytes, int n, double bw, double lat_s)
{
	if (n <= 1)
		return 0;
	return 2.0 * (n - 1) / n * bytes / bw + 2.0 * (n - 1) * lat_s;
}

double
cm_allgather_s(double bytes, int n, double bw, double lat_s)
{
	if (n <= 1)
		return 0;
	return (n - 1.0) / n * bytes / bw + (n - 1.0) * lat_s;
}

double
cm_sendrecv_s(double bytes, double bw, double lat_s)
{
	return bytes / bw + lat_s;
}

/* Link of a group of n ranks with stride: NVLink iff it fits a node. */
static void
group_link(const struct cm_config *c, long stride, long n, double *bw,
    double *lat, int *inter)
{
	*inter = stride * n > c->gpus_per_node;
	*bw = *inter ? c->inter_bw * c->inter_eff : c->intra_bw * c->intra_eff;
	*lat = *inter ? c->inter_lat_s : c->intra_lat_s;
}

/*
 * TP per layer per micro-batch: [NAR21] 3.2, 4 all-reduces of b s h
 * elements (SP: as many all-gathers + reduce-scatters, [KOR22] 4.2.2,
 * same time); 6 with full recompute (the re-run forward repeats 2).
 */
static double
tp_layer_s(const struct cm_config *c, struct cm_result *r)
{
	double bw, lat, S;
	int n = c->recompute == CM_RECOMPUTE_FULL ? 6 : 4;

	if (c->tp <= 1)
		return 0;
	group_link(c, 1, c->tp, &bw, &lat, &r->tp_inter);
	S = cm_elem_bytes(c) * c->micro_batch * (double)c->model.seq *
	    c->model.hidden;
	return n * cm_allreduce_s(S, c->tp, bw, lat);
}

/*
 * PP per micro-batch on one GPU: [NAR21] 3.2, b s h elements forward and
 * the same back, v times when interleaved ([NAR21] 2.2.2). With t > 1
 * each TP rank sends 1/t over its own NIC and NVLink all-gathers the rest
 * ([NAR21] 4.1 scatter/gather); under SP the tensor is already split.
 * Without that optimisation (DeepSpeed's pipeline engine, used by
 * Megatron-DeepSpeed and BLOOM) every TP rank sends the whole tensor over
 * its own NIC.
 */
static double
pp_mb_s(const struct cm_config *c, struct cm_result *r)
{
	double bw, lat, S, one, ibw, ilat;
	int iinter;

	if (c->pp <= 1)
		return 0;
	group_link(c, c->tp, c->pp, &bw, &lat, &r->pp_inter);
	S = cm_elem_bytes(c) * c->micro_batch * (double)c->model.seq *
	    c->model.hidden;
	if (!c->pp_scatter_gather)	/* each TP rank sends all of it */
		return 2.0 * c->virtual_stages * cm_sendrecv_s(S, bw, lat);
	one = cm_sendrecv_s(S / c->tp, bw, lat);
	if (c->tp > 1 && !c->seq_parallel) {
		group_link(c, 1, c->tp, &ibw, &ilat, &iinter);
		one += cm_allgather_s(S, c->tp, ibw, ilat);
	}
	return 2.0 * c->virtual_stages * one;
}

/*
 * DP per step: one all-reduce of the stage's gradients over d ([NAR21]
 * 3.3.1); ZeRO 1-2 reduce-scatter + all-gather, same volume; ZeRO 3 adds
 * a parameter all-gather: 1.5x ([ZERO] 7).
 */
static double
dp_s(const struct cm_config *c, struct cm_result *r)
{
	double bw, lat, S, g = cm_elem_bytes(c);

	if (c->dp <= 1)
		return 0;
	if (c->grad_accum_fp32)
		g = 4;
	group_link(c, (long)c->tp * c->pp, c->dp, &bw, &lat, &r->dp_inter);
	S = g * r->params_gpu;
	return (c->zero >= 3 ? 1.5 : 1.0) * cm_allreduce_s(S, c->dp, bw, lat);
}

/* Stage compute per micro-batch for `layers` layers (+ logits if last). */
static double
stage_mb_s(const struct cm_config *c, int layers, int last, double lf,
    double lb)
{
	const struct hw_model *m = &c->model;
	double M = (double)m->seq * c->micro_batch, t = 0;

	t = layers * (lf + lb);
	if (last)	/* logits: product fwd + 2x bwd, fp32 cross-entropy */
		t += 3 * gemm_s(c, M, m->hidden, (double)m->vocab / c->tp) +
		    hbm_s(c, 16.0 * M * m->vocab / c->tp);
	return t;
}

void
cm_time(const struct cm_config *c, struct cm_result *r)
{
	struct cm_stages st;
	double lf, lb, tp_l, comp, comp_f, comp_l, tpmb, ppmb, tmb, win;
	double p = c->pp, v = c->virtual_stages, m = (double)r->microbatches;
	double peak = c->precision == CM_PREC_FP32 ? c->gpu.fp32_flops :
	    c->gpu.peak_flops, n = c->gpus, bytes;

	cm_stage_layers(c, &st);
	layer_s(c, &lf, &lb);
	tp_l = tp_layer_s(c, r);
	comp_f = stage_mb_s(c, st.first, c->pp == 1, lf, lb);
	comp_l = stage_mb_s(c, st.last, 1, lf, lb);
	comp = stage_mb_s(c, st.middle, c->pp == 1, lf, lb);
	if (comp_f > comp)
		comp = comp_f;
	if (comp_l > comp)
		comp = comp_l;
	tpmb = tp_l * st.middle;
	ppmb = pp_mb_s(c, r);
	tmb = comp + tpmb + ppmb;	/* reference j: t_mb */
	r->t_fwd_mb = st.middle * lf;
	r->t_bwd_mb = st.middle * lb;
	r->t_compute = m * comp;
	r->t_tp = m * tpmb;
	r->t_pp = m * ppmb;
	r->t_bubble = (p - 1) / v * tmb;	/* [NAR21] 2.2.2 */
	r->t_dp = dp_s(c, r);
	/* Reference j.4: overlap with the last micro-batch's backward. */
	win = c->dp_overlap ? r->t_bwd_mb + (c->zero >= 3 ? r->t_fwd_mb : 0) :
	    0;
	r->t_dp_exposed = r->t_dp > win ? r->t_dp - win : 0;
	r->t_exposed_comm = r->t_tp + r->t_pp + r->t_dp_exposed;
	/* Optimizer: read w, g, states, write w, states: 28 B (Adam) or 20 B
	 * (SGD) per parameter it updates (reference j.1), at HBM speed. */
	bytes = (c->optimizer == CM_OPT_ADAM ? 28.0 : 20.0) * r->params_gpu /
	    (c->zero >= 1 ? c->dp : 1);
	r->t_optimizer = hbm_s(c, bytes);
	r->t_step = r->t_compute + r->t_exposed_comm + r->t_bubble +
	    r->t_optimizer;
	r->bubble_fraction = pipe_bubble_fraction(c->pp, r->microbatches,
	    c->virtual_stages);
	r->flops_model = cm_flops_model(&c->model, (double)c->global_batch);
	r->flops_hw = cm_flops_hw(&c->model, (double)c->global_batch,
	    c->recompute);
	r->tokens_per_s = (double)c->global_batch * c->model.seq / r->t_step;
	r->tflops_per_gpu = r->flops_model / (r->t_step * n) / 1e12;
	r->hw_tflops_per_gpu = r->flops_hw / (r->t_step * n) / 1e12;
	r->mfu = r->flops_model / (r->t_step * n * peak);
	r->hfu = r->flops_hw / (r->t_step * n * peak);
	r->eta = r->flops_hw / n / peak / (r->t_compute > 0 ? r->t_compute : 1);
}
