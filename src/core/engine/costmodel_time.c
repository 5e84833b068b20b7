/*
 * costmodel_time.c - time of one training step: matrix products at a
 * sustained fraction of peak that depends on their shape, the attention
 * core, the memory-bound work between them (norms, activations, residual
 * adds, dropout, softmax, the loss) as bytes through HBM, the host cost of
 * issuing kernels when the GPU runs out of work, TP and PP transfers on the
 * links their groups get, the pipeline bubble, DP/ZeRO traffic
 * (costmodel_dp.c) and the optimizer step.
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
 * with C = 256 fitted once on that table (burst fit E = 0.80, rms error
 * 6 %). E in data/gpus.json is the sustained figure, applied once: a whole
 * step runs its products back to back for minutes, at the clock the power
 * limit allows, not at the boost clock of a short burst (see gpus.json for
 * each GPU's source). M does not enter eta_c: the 512-token rows reach
 * 75-80 % of their burst as soon as K, N >= 4096. Each forward product
 * M x K by K x N has two backward products of the same FLOPs with other
 * shapes: the input gradient M x N by N x K and the weight gradient
 * K x M by M x N, whose reduction runs over the M tokens of the
 * micro-batch (so small micro-batches make the backward relatively slower).
 *
 * Memory-bound work (reference/costmodel.md j.1): every such kernel reads
 * its inputs and writes its outputs once through HBM at HBM_EFF of the
 * catalog bandwidth; which kernels run, and how many bytes each moves,
 * depends on the framework's kernels (cfg->kernels, costmodel_kernels.c).
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_gemm.h"
#include "core/engine/costmodel_fp8.h"

#define GEMM_TILE_C	256.0	/* fitted on reference/h100-gemm.md */
#define FLASH_EFF	0.75	/* flash kernels vs large GEMMs, see below */
/*
 * Rate of a flash backward over its forward. FlashAttention-2 (arXiv
 * 2307.08691, 1 and 4.1) reaches up to 73 % of A100 peak forward and up to
 * 63 % backward; on H100 (FlashAttention-3, arXiv 2407.08608, figures 5
 * and 6, head dim 128, 16k tokens) FlashAttention-2 runs 370 TFLOP/s
 * forward and 322 backward, cuDNN 595 and 516, FlashAttention-3 648 and
 * 561: the backward runs at 0.86-0.87 of the forward rate in every kernel.
 */
#define FLASH_BWD_RATE	(63.0 / 73.0)

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

double
cm_gemm_eta_of(const struct cm_config *c, const struct hw_gpu *g, double m,
    double k, double n, double groups)
{
	switch (c->gemm_model) {
	case CM_GEMM_RULE:
		return cm_gemm_eta(g, m, k, n);
	case CM_GEMM_TILED:
		return cm_gemm_eta_tiled_grouped(g, m, k, n, groups);
	default:
		return cm_gemm_eta_combined(g, m, k, n, groups);
	}
}

/* Time of one of `groups` products launched together, on c's GPU in c's
 * precision, s. */
static double
gemm_s(const struct cm_config *c, double m, double k, double n,
    double groups)
{
	struct hw_gpu g;

	if (c->precision != CM_PREC_FP32)	/* memoised (costmodel_memo.c) */
		return 2 * m * k * n / (c->gpu.peak_flops *
		    cm_gemm_eta_memo(c, &c->gpu, m, k, n, groups));
	g = c->gpu;
	g.peak_flops = g.fp32_flops;
	g.hbm_bw /= 2;	/* 4-byte elements: half as many per second */
	return 2 * m * k * n / (g.peak_flops * cm_gemm_eta_of(c, &g, m, k, n,
	    groups));
}

/* Forward product M x K by K x N, and its two backward products, s. */
static void
linear_hp_s(const struct cm_config *c, double m, double k, double n,
    double groups, double *fwd, double *bwd)
{
	*fwd += gemm_s(c, m, k, n, groups);
	*bwd += gemm_s(c, m, n, k, groups) + gemm_s(c, k, m, n, groups);
}

/* A layer's linear: in FP8 under precision fp8 (costmodel_fp8.c). */
static void
linear_s(const struct cm_config *c, double m, double k, double n,
    double groups, double *fwd, double *bwd)
{
	if (cm_fp8(c))
		cm_fp8_linear_s(c, m, k, n, groups, fwd, bwd);
	else
		linear_hp_s(c, m, k, n, groups, fwd, bwd);
}

/*
 * Achieved fraction of the catalog HBM bandwidth for one kernel by the
 * bytes it moves: [CALC]'s A100 and H100 systems (mem1 "MB_efficiency",
 * calculon systems/a100_80g.json and h100_80g_nvl8.json) give 0.9 from
 * 100 MB, 0.75 from 10 MB, 0.6 from 1 MB and 0.3 below. A small kernel
 * cannot keep enough requests in flight to fill the memory system, and
 * its ramp-up and tail weigh more. calculon steps at those sizes; the
 * engine interpolates in log size between them (reaching the 0.3 floor at
 * 0.1 MB), an engine choice so that no layout jumps at a threshold.
 */
double
cm_hbm_eff(double bytes)
{
	static const double mb[] = { 0.1, 1, 10, 100 };
	static const double eff[] = { 0.3, 0.6, 0.75, 0.9 };
	static _Thread_local double span[4];	/* log10 of each step, once */
	double x = bytes / 1e6;
	int i;

	if (x <= mb[0])
		return eff[0];
	if (span[1] == 0)
		for (i = 1; i < 4; i++)
			span[i] = log10(mb[i] / mb[i - 1]);
	for (i = 1; i < 4; i++)
		if (x < mb[i])
			return eff[i - 1] + (eff[i] - eff[i - 1]) *
			    log10(x / mb[i - 1]) / span[i];
	return eff[3];
}

double
cm_hbm_s(const struct cm_config *c, double bytes, double kernels)
{
	if (bytes <= 0)
		return 0;
	/* work folded into a kernel counted elsewhere runs at its rate */
	return bytes / (c->gpu.hbm_bw * cm_hbm_eff(kernels >= 1 ?
	    bytes / kernels : 1e12));
}

/*
 * Attention core forward (QK^T, softmax, AV), one layer, one micro-batch.
 * [PALM]/[NAR21] count 4 b s^2 h / t FLOPs (the full square).
 * Plain (Megatron 2021): two batched products per head of shape s x d_h x s
 * and s x s x d_h through the GEMM rule, plus the score tensor through HBM:
 * fused scale-mask-softmax reads it and writes the probabilities (4 bytes
 * per score), and with dropout a second kernel reads them and writes the
 * dropped copy and a 1-byte mask (5 more) ([KOR22] 4.1); eager PyTorch
 * runs each step as its own kernel, the softmax in fp32 (see attn_s).
 * Flash: causal kernels skip the masked half (reference j.2) and run at
 * FLASH_EFF of the large-GEMM efficiency (FlashAttention-2 reports 50-73 %
 * of A100 peak, FlashAttention-3 about 75 % of H100 peak forward; less
 * backward). flash is the fastest kernel, which PyTorch's SDPA itself
 * picks on Hopper once its bundled cuDNN is newer than 9.15
 * (check_prefer_cudnn_attention in sdp_utils.cpp, PyTorch 2.11; see
 * huggingface/transformers PR 48163). flash2 is FlashAttention-2 where a
 * faster kernel exists, as SDPA ran it on H100 before (PyTorch 2.5.1 to
 * 2.10, pytorch/pytorch PR 138522 made cuDNN opt-in): on Hopper it runs at
 * the GPU's flash2_ratio of the best one (gpus.json).
 */
/*
 * Speed of a flash kernel at head size dh over its speed at 128. The
 * FlashAttention-3 paper (arXiv 2407.08608, Figure 5, H100, forward at
 * 16k tokens) has FlashAttention-3 at 497 TFLOP/s with heads of 64
 * against 648 with heads of 128, FlashAttention-2 at 324 against 370:
 * a small head does less work per byte of Q, K and V it loads. Between 64
 * and 128 the engine interpolates in log size; 128 and more count as 128.
 * fa3: the kernel is Hopper's fastest (FlashAttention-3 or cuDNN), not
 * FlashAttention-2, which is also the fastest kernel on older GPUs.
 */
static double
flash_head_factor(double dh, int fa3)
{
	double at64 = fa3 ? 497.0 / 648 : 324.0 / 370;

	if (dh >= 128)
		return 1;
	if (dh <= 64)
		return at64;
	return at64 + (1 - at64) * log2(dh / 64);
}

static void
attn_s(const struct cm_config *c, double *fwd, double *bwd)
{
	const struct hw_model *m = &c->model;
	double s = m->seq, b = c->micro_batch, dh = hw_head_dim(m);
	double heads = (double)m->heads / c->tp * b, fl, peak, t, e, n;
	double ef, eb, prod;
	int kf, kb;

	/* under CP a rank's queries meet every key before them: 1/cp of
	 * the scores, balanced over the ranks (costmodel_cp.c) */
	/* a d_h, or MLA's and windowed layers' average (hw_mla.c) */
	fl = 4 * b * s * s * cm_attn_width(m) / c->tp / c->cp;
	if (c->attention != CM_ATTN_PLAIN) {
		peak = c->precision == CM_PREC_FP32 ? c->gpu.fp32_flops :
		    c->gpu.peak_flops;
		t = 0.5 * fl / (peak * c->gpu.gemm_eff * FLASH_EFF);
		if (c->attention == CM_ATTN_FLASH2 && c->gpu.flash2_ratio > 0)
			t /= c->gpu.flash2_ratio;
		t /= flash_head_factor(dh, c->attention == CM_ATTN_FLASH &&
		    c->gpu.flash2_ratio < 1);
		/* Backward: 2.5x the forward's FLOPs (5 products for 2, the
		 * scores recomputed; FlashAttention-3 4.1) at FLASH_BWD_RATE
		 * of the forward's rate. FP8 attention speeds the forward
		 * only (costmodel_fp8.c). */
		*fwd = t / cm_fp8_attn_speedup(c);
		*bwd = 2.5 / FLASH_BWD_RATE * t;
		return;
	}
	e = cm_elem_bytes(c);
	n = heads * s * s;	/* scores */
	if (c->kernels == CM_KERNELS_EAGER) {
		/* as hand-written PyTorch attention runs it (nanoGPT's
		 * CausalSelfAttention, Hugging Face's eager_attention_forward):
		 * scale, mask, softmax into fp32, cast back, each a kernel;
		 * backward the cast, softmax's backward (reads its fp32
		 * output and gradient), the mask and the scale */
		ef = 4 * e + (e + CM_OPMATH) + (e < CM_OPMATH ? CM_OPMATH + e : 0);
		eb = (e < CM_OPMATH ? e + CM_OPMATH : 0) + (2 * CM_OPMATH + e) + 4 * e;
		kf = kb = e < CM_OPMATH ? 4 : 3;
		if (m->dropout) {	/* F.dropout: a copy and a mask */
			ef += 2 * e + 1;
			eb += 2 * e + 1;
			kf++;
			kb++;
		}
	} else {
		/* fused scale-mask-softmax (Megatron) or Inductor's one
		 * kernel: read the scores, write the probabilities; with
		 * dropout a second kernel writes the dropped copy and a 1-byte
		 * mask ([KOR22] 4.1); the backward moves twice as much */
		ef = m->dropout ? 4.5 * e : 2 * e;
		eb = 2 * ef;
		kf = 1 + m->dropout;
		kb = 2 * kf;
	}
	/* one batched product over the micro-batch's heads */
	prod = heads * (gemm_s(c, s, dh, s, heads) + gemm_s(c, s, s, dh,
	    heads));
	*fwd = prod + cm_hbm_s(c, ef * n, kf);
	*bwd = 2 * prod + cm_hbm_s(c, eb * n, kb);
}

double
cm_kv_width(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	double dh = hw_head_dim(m);

	if (HW_MLA(m))	/* K at d_h, V at d_v a head: the pair's mean */
		dh = (dh + hw_v_head_dim(m)) / 2;
	return dh * (c->tp <= m->kv_heads ? (double)m->kv_heads / c->tp : 1.0);
}

/* Products launched together with l's: a grouped GEMM's experts; eager
 * PyTorch loops over them, one launch each (hw_moe.c). */
static double
grouped(const struct cm_config *c, const struct cm_linear *l)
{
	return l->routed == CM_LINEAR_EXPERT &&
	    c->kernels != CM_KERNELS_EAGER ? l->count : 1;
}

/* Kernels of the products, the attention core and TP collectives. */
static void
layer_kernels(const struct cm_config *c, int *fwd, int *bwd)
{
	struct cm_linear l[CM_MAX_LINEARS];
	int i, n = cm_layer_linears(c, l), products = 0;
	int tp = c->tp > 1 ? 2 : 0, plain = c->attention == CM_ATTN_PLAIN;

	/* a grouped GEMM runs the experts in one kernel; eager PyTorch
	 * loops over them (hw_moe.c) */
	for (i = 0; i < n; i++)
		products += l[i].routed == CM_LINEAR_EXPERT &&
		    c->kernels == CM_KERNELS_EAGER ? (int)l[i].count : 1;

	/* dgrad + wgrad per product; flash backward ~2 kernels */
	*fwd = products + (plain ? 3 + c->model.dropout +
	    (c->kernels == CM_KERNELS_EAGER) : 1) + tp;
	*bwd = 2 * products + (plain ? 5 : 2) + tp;
}

/*
 * One layer for one micro-batch: products, attention core, element-wise
 * traffic and kernels, forward and backward (recompute included).
 */
static void
layer_time(const struct cm_config *c, struct cm_layer_t *fw,
    struct cm_layer_t *bw)
{
	struct cm_linear l[CM_MAX_LINEARS];
	struct cm_elem el;
	double f, b;
	int i, n = cm_layer_linears(c, l);

	fw->gemm = bw->gemm = 0;
	for (i = 0; i < n; i++) {
		if (l[i].count == 1 && !l[i].routed) {
			linear_s(c, l[i].m, l[i].k, l[i].n, 1, &fw->gemm,
			    &bw->gemm);
			continue;
		}
		f = b = 0;
		if (l[i].routed == CM_LINEAR_ROUTER)	/* never in FP8 */
			linear_hp_s(c, l[i].m, l[i].k, l[i].n, 1, &f, &b);
		else
			linear_s(c, l[i].m, l[i].k, l[i].n, grouped(c, &l[i]),
			    &f, &b);
		fw->gemm += l[i].count * f;
		bw->gemm += l[i].count * b;
	}
	attn_s(c, &fw->attn, &bw->attn);
	cm_layer_elem(c, &el);
	fw->elem = el.fwd_s;
	layer_kernels(c, &fw->kernels, &bw->kernels);
	fw->kernels += el.kf;
	bw->kernels += el.kb;
	bw->elem = el.bwd_s;
	if (c->recompute == CM_RECOMPUTE_FULL) {	/* [NAR21] eq. 3 */
		bw->gemm += fw->gemm;
		bw->attn += fw->attn;
		bw->elem += fw->elem;
		bw->kernels += fw->kernels;
	} else if (c->recompute == CM_RECOMPUTE_SELECTIVE &&
	    c->attention == CM_ATTN_PLAIN) {	/* [KOR22] 5: re-run attn */
		bw->attn += fw->attn;
	}
}

/*
 * TP per layer per micro-batch: [NAR21] 3.2, 4 all-reduces of b s h
 * elements (SP: as many all-gathers + reduce-scatters, [KOR22] 4.2.2,
 * the ring time of the all-reduces; NVLink SHARP speeds up all-reduces
 * only, costmodel_net.c); 6 with full recompute (the re-run forward
 * repeats 2). The group's link follows the rank order.
 */
static double
tp_layer_s(const struct cm_config *c, struct cm_result *r)
{
	const struct mesh_span *g;
	double S;
	int n = c->recompute == CM_RECOMPUTE_FULL ? 6 : 4;

	cm_group_of(c, MESH_TP, &r->group[MESH_TP]);
	r->tp_inter = r->group[MESH_TP].domains > 1;
	r->group_bw[MESH_TP] = cm_group_bw(c, &r->group[MESH_TP]);
	if (c->tp <= 1)
		return 0;
	S = cm_elem_bytes(c) * cm_rank_tokens(c) * c->model.hidden;
	g = &r->group[MESH_TP];
	if (c->seq_parallel)	/* ring time of an all-reduce, never NVLS */
		return n * (cm_coll_s(c, CM_REDUCESCATTER, g, S) +
		    cm_coll_s(c, CM_ALLGATHER, g, S));
	return n * cm_coll_s(c, CM_ALLREDUCE, g, S);
}

/*
 * PP per micro-batch on one GPU: [NAR21] 3.2, b s h elements forward and
 * the same back, v times when interleaved ([NAR21] 2.2.2). With t > 1
 * each TP rank sends 1/t over its own NIC and NVLink all-gathers the rest
 * ([NAR21] 4.1 scatter/gather); under SP the tensor is already split.
 * Without that optimisation (DeepSpeed's pipeline engine, used by
 * Megatron-DeepSpeed and BLOOM) every TP rank sends the whole tensor over
 * its own NIC. The slowest hop sets the pace: inter-node as soon as the
 * PP group spans nodes.
 */
static double
pp_mb_s(const struct cm_config *c, struct cm_result *r)
{
	double S, one;

	cm_group_of(c, MESH_PP, &r->group[MESH_PP]);
	r->pp_inter = r->group[MESH_PP].domains > 1;
	r->group_bw[MESH_PP] = r->pp_inter ? c->inter_bw * c->inter_eff :
	    c->intra_bw * c->intra_eff;
	if (c->pp <= 1)
		return 0;
	S = cm_elem_bytes(c) * cm_rank_tokens(c) * c->model.hidden;
	if (!c->pp_scatter_gather)	/* each TP rank sends all of it */
		return 2.0 * c->virtual_stages * cm_coll_s(c, CM_SENDRECV,
		    &r->group[MESH_PP], S);
	one = cm_coll_s(c, CM_SENDRECV, &r->group[MESH_PP], S / c->tp);
	if (c->tp > 1 && !c->seq_parallel)
		one += cm_coll_s(c, CM_ALLGATHER, &r->group[MESH_TP], S);
	return 2.0 * c->virtual_stages * one;
}

/* Work of one stage for one micro-batch, split by kind. */
struct stage_t {
	double	gemm, attn, elem, tp;	/* s */
	double	cp;			/* CP exchange not hidden, s */
	int	layers;
	int	moe_layers;		/* of them MoE ones */
	double	kernels;		/* count */
	double	gf;			/* forward's GPU time, s */
	struct cm_host_in host;		/* kernels as the host issues them */
};

/* A stage's kernels by phase for the host (costmodel_host.c). */
static void
host_in(const struct cm_config *c, int layers, const struct cm_layer_t *fw,
    const struct cm_layer_t *bw, struct cm_host_in *h)
{
	double el16[16];

	h->layers = layers;
	h->lkf = fw->kernels;
	h->lkr = c->recompute == CM_RECOMPUTE_FULL ? fw->kernels : 0;
	h->lkb = bw->kernels - h->lkr;
	h->xkf = h->xkb = 0;
	/* autocast's casts: one per weight forward, two backward */
	h->lcast = cm_autocast(c) ? cm_layer_tensors(c, el16, 16) : 0;
}

static void	mtp_extra(const struct cm_config *, double, double,
		    const struct cm_elem *, struct stage_t *);

/*
 * Stage of `layers` layers (+ the embedding's gradient when first, logits
 * and loss when last) for one micro-batch of m; amp: autocast's casts
 * over the stage's weights.
 */
static void
stage_mb(const struct cm_config *c, int layers, int first, int last,
    const struct cm_layer_t *fw, const struct cm_layer_t *bw, double tp_l,
    double amp, struct stage_t *st)
{
	const struct hw_model *m = &c->model;
	double M = cm_rank_tokens(c), el16[16];
	/* one cast kernel per weight tensor and pass, one add into .grad */
	double amp_k = layers * cm_layer_tensors(c, el16, 16) * 3.0;

	st->layers = st->moe_layers = layers;
	st->cp = 0;
	st->gemm = layers * (fw->gemm + bw->gemm);
	st->attn = layers * (fw->attn + bw->attn);
	st->elem = layers * (fw->elem + bw->elem) + cm_hbm_s(c, amp, amp_k);
	st->tp = layers * tp_l;
	st->kernels = layers * (double)(fw->kernels + bw->kernels);
	st->gf = layers * (fw->gemm + fw->attn + fw->elem);
	host_in(c, layers, fw, bw, &st->host);
	if (first) {
		struct cm_elem el;

		cm_embed_elem(c, &el);
		st->elem += el.fwd_s + el.bwd_s;
		st->gf += el.fwd_s;
		st->kernels += el.kf + el.kb;
		st->host.xkf += el.kf;
		st->host.xkb += el.kb;
	}
	if (last) {	/* final norm, logits product fwd and bwd, loss */
		double f = 0, b = 0;
		struct cm_elem el;

		/* the output layer stays bf16 under fp8 */
		linear_hp_s(c, M, m->hidden, (double)m->vocab / c->tp, 1, &f,
		    &b);
		cm_loss_elem(c, &el);
		st->gemm += f + b;
		st->elem += el.fwd_s + el.bwd_s;
		st->gf += f + el.fwd_s;
		st->kernels += 2 + el.kf + el.kb;
		st->host.xkf += 1 + el.kf;
		st->host.xkb += 1 + el.kb;
		if (m->mtp > 0)
			mtp_extra(c, f + b, f, &el, st);
	}
}

/*
 * What each MTP module adds on the last stage beside its layer (counted
 * in `layers`): the projection M_k of [RMSNorm(h); RMSNorm(emb)], 2h ->
 * h, and the shared output head and loss again on its own predictions
 * (DeepSeek-V3 report, arXiv 2412.19437, 2.2, eqs. 21-25). head: the
 * output product's forward and backward time, headf its forward.
 */
static void
mtp_extra(const struct cm_config *c, double head, double headf,
    const struct cm_elem *loss, struct stage_t *st)
{
	double d = c->model.mtp, f = 0, b = 0;

	linear_s(c, cm_rank_tokens(c), 2.0 * c->model.hidden,
	    c->model.hidden, 1, &f, &b);
	st->gemm += d * (head + f + b);
	st->elem += d * (loss->fwd_s + loss->bwd_s);
	st->gf += d * (headf + f + loss->fwd_s);
	st->kernels += d * (4 + loss->kf + loss->kb);
}

/* nd of a stage's layers dense (costmodel_layers.c): swap their time. */
static void
dense_mix(int nd, const struct cm_layer_t *fw, const struct cm_layer_t *bw,
    const struct cm_layer_t *dfw, const struct cm_layer_t *dbw,
    struct stage_t *st)
{
	if (nd <= 0)
		return;
	st->moe_layers = st->layers - nd;
	st->gemm += nd * (dfw->gemm + dbw->gemm - fw->gemm - bw->gemm);
	st->attn += nd * (dfw->attn + dbw->attn - fw->attn - bw->attn);
	st->elem += nd * (dfw->elem + dbw->elem - fw->elem - bw->elem);
	st->kernels += nd * ((double)dfw->kernels + dbw->kernels -
	    fw->kernels - bw->kernels);
	st->gf += nd * (dfw->gemm + dfw->attn + dfw->elem - fw->gemm -
	    fw->attn - fw->elem);
}

/*
 * GPU time of a stage's micro-batch; what the host adds is the step's
 * (cm_time, costmodel_host.c).
 */
static double
stage_gpu_s(const struct cm_config *c, const struct stage_t *st,
    double tp_exposed, double *overhead)
{
	(void)c;
	*overhead = 0;
	return st->gemm + st->attn + st->elem + tp_exposed;
}

/*
 * TP time left on the critical path. Without overlap all of it; with
 * tp_overlap each collective is pipelined with the product it feeds or
 * follows (Megatron-Core TP comm overlap, PyTorch async TP), so only what
 * exceeds the stage's products stays exposed; the products they run
 * beside are slowed (CM_COMM_SM_SHARE, cm_time).
 */
static double
tp_exposed(const struct cm_config *c, const struct stage_t *st)
{
	if (!c->tp_overlap)
		return st->tp;
	return st->tp > st->gemm ? st->tp - st->gemm : 0;
}

/*
 * Optimizer step over the parameters this GPU owns (reference j.1), at
 * HBM speed, as the framework's optimizer runs it (costmodel_kernels.c);
 * fused frameworks also clear the gradient buffer they keep, PyTorch sets
 * the gradients to None. The for-loop optimizer launches 8 small kernels
 * per weight tensor from Python, so the host can bound it (cm_time);
 * under ZeRO each rank still steps a shard of every tensor (FSDP2's
 * DTensor parameters). Tensors: the stage's layers, the embedding, the
 * final norm and the output layer.
 */
static double
optimizer_s(const struct cm_config *c, const struct cm_result *r,
    double *kernels)
{
	struct mesh_span sh;
	double own = r->params_gpu, each[16], tensors, k, s;

	cm_shard_group(c, &sh);
	if (c->zero >= 1)
		own /= sh.n;
	tensors = (double)r->stage_layers * cm_layer_tensors(c, each, 16) + 3;
	k = cm_optimizer_kernels(c, own, tensors);
	s = cm_hbm_s(c, cm_optimizer_bytes(c) * own +
	    (c->kernels == CM_KERNELS_FUSED ? r->mem_grads : 0), k);
	*kernels = k;
	return s;
}

/* The stage whose micro-batch takes longer on the GPU. */
static const struct stage_t *
slowest(const struct cm_config *c, const struct stage_t *a,
    const struct stage_t *b)
{
	double o;

	return stage_gpu_s(c, b, tp_exposed(c, b), &o) >
	    stage_gpu_s(c, a, tp_exposed(c, a), &o) ? b : a;
}

/*
 * The host by phase on the slowest stage (costmodel_host.c): what the
 * GPU waits for joins the compute, what the optimizer's issue adds joins
 * the optimizer step; t_overhead is the whole of it.
 */
static void
host_time(const struct cm_config *c, struct cm_result *r,
    const struct stage_t *w, double gf, double gb, double opt_kernels,
    double slots)
{
	struct cm_host_mb h;
	double m = (double)r->microbatches, hc, ho, x, xo;

	cm_host_mb(c, &w->host, &h);
	hc = cm_host_collectives(c, (double)r->dp_collectives);
	ho = cm_host_optimizer(c, opt_kernels);
	x = cm_host_exposed(m, &h, gf, gb, hc, 0, r->t_optimizer);
	xo = cm_host_exposed(m, &h, gf, gb, hc, ho, r->t_optimizer) - x;
	r->t_host_fwd = m * h.fwd;
	r->t_host_bwd = m * h.bwd;
	r->t_host_opt = hc + ho;
	r->t_overhead = x + xo;
	r->t_compute += x;
	r->t_optimizer += xo;
	r->t_bubble += slots * x / m;
}

/*
 * The GPU's work of one micro-batch on stage w, forward (*gf) and backward
 * (*gb): its own, TP's exposed time by the same split, and the copies
 * around the DP collectives (cm_dp_copies).
 */
static void
stage_passes(const struct stage_t *w, double tpx, double fcf, double fcb,
    double *gf, double *gb)
{
	double g = w->gemm + w->attn + w->elem;
	double tf = g > 0 ? tpx * w->gf / g : 0;

	*gf = w->gf + tf + fcf;
	*gb = g - w->gf + tpx - tf + fcb;
}

/*
 * Where the host is slower than the GPU, the GPU idles between kernels
 * while the collectives already issued run on their own stream: DP's
 * traffic hides behind those gaps as behind compute. The passes' windows
 * (t_fwd_mb, t_bwd_mb) grow by the host's excess over each, as
 * cm_host_exposed spreads it over the step (without the collectives' own
 * issue, which comes after them).
 */
static void
host_windows(const struct cm_config *c, struct cm_result *r,
    const struct stage_t *w, double gf, double gb)
{
	struct cm_host_mb h;
	double m = (double)r->microbatches, x, ef, eb;

	cm_host_mb(c, &w->host, &h);
	x = cm_host_exposed(m, &h, gf, gb, 0, 0, 0) / (m > 1 ? m : 1);
	ef = h.fwd > gf ? h.fwd - gf : 0;
	eb = h.bwd > gb ? h.bwd - gb : 0;
	if (x <= 0 || ef + eb <= 0)
		return;
	r->t_fwd_mb += x * ef / (ef + eb);
	r->t_bwd_mb += x * eb / (ef + eb);
}

/*
 * One micro-batch's weight-gradient products on stage w, W of the
 * zero-bubble schedules (costmodel_sched.c): half the stage's backward
 * products, less full recomputation's re-run forward, as the layer's
 * split of forward and backward products gives it.
 */
static double
wgrad_s(const struct cm_config *c, const struct stage_t *w,
    const struct cm_layer_t *fw, const struct cm_layer_t *bw)
{
	double rec = c->recompute == CM_RECOMPUTE_FULL ? fw->gemm : 0;
	double all = fw->gemm + bw->gemm;

	return all > 0 ? 0.5 * w->gemm * (bw->gemm - rec) / all : 0;
}

void
cm_time(const struct cm_config *c, struct cm_result *r)
{
	struct cm_stages sl;
	struct cm_layer_t fw, bw;
	struct stage_t sf, sm, sla;
	struct cm_cp_layer cpl;
	struct cm_ep_layer epl;
	const struct stage_t *w;
	double tp_l, comp, ppmb, tmb, tpx, tps, ovh, amp, ok, epx, slots;
	double fcf, fcb, gf, gb;
	double m = (double)r->microbatches;
	double peak = c->precision == CM_PREC_FP32 ? c->gpu.fp32_flops :
	    c->gpu.peak_flops, n = c->gpus;

	cm_stage_layers(c, &sl);
	layer_time(c, &fw, &bw);
	tp_l = tp_layer_s(c, r);
	/* a DualPipe chunk casts its own stage's weights, one of the two
	 * copies (costmodel_sched.c) */
	amp = cm_amp_bytes(c, m) * r->params_gpu / cm_sched_param_copies(c);
	stage_mb(c, sl.first, 1, c->pp == 1, &fw, &bw, tp_l, amp, &sf);
	stage_mb(c, sl.last, c->pp == 1, 1, &fw, &bw, tp_l, amp, &sla);
	stage_mb(c, sl.middle, c->pp == 1, c->pp == 1, &fw, &bw, tp_l, amp,
	    &sm);
	if (c->model.dense_layers > 0 && c->model.experts > 0) {
		struct cm_config dc;
		struct cm_layer_t dfw, dbw;

		cm_dense_config(c, &dc);
		layer_time(&dc, &dfw, &dbw);
		dense_mix(cm_stage_dense(c, 0), &fw, &bw, &dfw, &dbw, &sf);
		dense_mix(cm_stage_dense(c, c->pp - 1), &fw, &bw, &dfw, &dbw,
		    &sla);
		dense_mix(cm_stage_dense(c, 1), &fw, &bw, &dfw, &dbw, &sm);
	}
	cm_cp_layer(c, r, fw.attn, bw.attn, &cpl);
	sf.cp = sf.layers * (cpl.fwd_exposed + cpl.bwd_exposed);
	sm.cp = sm.layers * (cpl.fwd_exposed + cpl.bwd_exposed);
	sla.cp = sla.layers * (cpl.fwd_exposed + cpl.bwd_exposed);
	/* The slowest stage sets the pace of the pipeline. */
	w = slowest(c, slowest(c, &sm, &sf), &sla);
	if (c->pp == 2 && c->model.dense_layers > 0 && c->model.experts > 0)
		w = slowest(c, &sf, &sla);	/* no middle stage to name */
	r->slow_stage = w == &sf ? 0 : w == &sla ? c->pp - 1 : 1;
	r->slow_dense = w->layers - w->moe_layers;
	r->slow_layers = w->layers;
	tpx = tp_exposed(c, w);
	comp = stage_gpu_s(c, w, tpx, &ovh) - tpx;
	cm_dp_copies(c, r, &fcf, &fcb);	/* PyTorch's, costmodel_dp.c */
	comp += fcf + fcb;
	ppmb = pp_mb_s(c, r);
	tps = c->tp_overlap ? cm_comm_slowed(w->tp, w->gemm) : 0;
	cm_ep_layer(c, &epl);	/* the all-to-alls wait (costmodel_ep.c) */
	/* the all-to-alls wait, or what of them another micro-batch's
	 * compute does not hide (costmodel_ep.c) */
	epx = cm_ep_exposed_mb(c, w->moe_layers * (epl.fwd + epl.bwd),
	    comp + tpx, m);
	if ((c->schedule == PIPE_DUALPIPE || c->schedule == PIPE_DUALPIPEV) &&
	    c->pp > 1) {
		/* DualPipe's pairs hide PP's sends with the all-to-alls
		 * (costmodel_sched.c): what is left beyond those */
		double all = cm_ep_exposed_mb(c, w->moe_layers * (epl.fwd +
		    epl.bwd) + ppmb, comp + tpx, m);

		ppmb = all > epx ? all - epx : 0;
	}
	tmb = comp + tpx + ppmb + tps + w->cp + epx;	/* reference j */
	r->t_fwd_mb = sl.middle * (fw.gemm + fw.attn + fw.elem) + fcf;
	r->t_bwd_mb = sl.middle * (bw.gemm + bw.attn + bw.elem) + fcb;
	r->t_compute = m * comp;
	r->t_gemm = m * w->gemm;
	r->t_attn = m * w->attn;
	r->t_elementwise = m * (w->elem + fcf + fcb);
	r->t_dp_copies = m * (fcf + fcb);
	r->t_overhead = m * ovh;
	r->t_tp = m * w->tp;
	r->t_tp_exposed = m * tpx;
	r->t_pp = m * ppmb;
	r->t_cp = m * w->layers * (cpl.fwd + cpl.bwd);
	r->t_cp_exposed = m * w->cp;
	r->cp_bytes = m * w->layers * cpl.bytes;
	r->mem_cp = cpl.buffers;
	r->t_ep = m * w->moe_layers * (epl.fwd + epl.bwd);
	r->t_ep_exposed = m * epx;
	r->ep_bytes = m * w->moe_layers * epl.bytes *
	    (c->recompute == CM_RECOMPUTE_FULL ? 3 : 2);
	/* [NAR21] 2.2.2: (p - 1) / v micro-batch times; ZB-H1 and
	 * DualPipe as costmodel_sched.c gives them */
	slots = cm_sched_bubble_slots(c, tmb, w->gf, wgrad_s(c, w, &fw, &bw));
	r->t_bubble = slots * tmb;
	stage_passes(w, tpx, fcf, fcb, &gf, &gb);
	host_windows(c, r, w, gf, gb);
	cm_dp_time(c, r);
	r->t_comm_slowed += m * tps;
	r->t_exposed_comm = r->t_tp_exposed + r->t_pp + r->t_dp_exposed +
	    r->t_cp_exposed + r->t_ep_exposed;
	r->t_optimizer = optimizer_s(c, r, &ok);
	host_time(c, r, w, gf, gb, ok, slots);
	r->t_step = r->t_compute + r->t_exposed_comm + r->t_comm_slowed +
	    r->t_bubble + r->t_optimizer;
	r->bubble_fraction = cm_sched_split_backward(c) ? slots / (m + slots) :
	    pipe_bubble_fraction(c->pp, r->microbatches, c->virtual_stages);
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
