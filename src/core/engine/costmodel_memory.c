/*
 * costmodel_memory.c - bytes per GPU: parameters, gradients, optimizer
 * states ([ZERO] 3.1, 5), activations ([KOR22] Table 2, 4.2.3) and
 * buffers, for the most loaded pipeline stage.
 *
 * Model states use [ZERO]'s (2 + 2 + K) bytes per parameter in mixed
 * precision (K = 12 Adam, 8 SGD with momentum: fp32 master + momentum);
 * fp32 training keeps 4 + 4 + (8 Adam | 4 SGD). grad_dtype fp32
 * (grad_accum_fp32) switches gradients to 4 bytes ([MEGA-MEM]'s 18-byte
 * variant: Megatron's fp32 main_grad buffer, 2 bytes more per parameter).
 *
 * What the framework holds besides (mem_other): cfg->buffers_bytes for the
 * CUDA context and the cuBLAS / cuDNN workspaces (reference j.3: the
 * context alone is ~0.5-1 GB), NCCL_COMM_BYTES for each communicator the
 * layout opens, and under ZeRO-3 the gathered weights being used and the
 * gradients not yet reduce-scattered, each its own field. Allocator
 * fragmentation is the capacity held back by cfg->reserve_frac.
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"

/*
 * GPU memory NCCL keeps per communicator: per channel and peer one buffer
 * per protocol, Simple 4 MiB (DEFAULT_BUFFSIZE in NCCL's src/init.cc),
 * LL128 ~4.7 MiB and LL 0.5 MiB, over up to 32 channels, for ring and tree
 * connections: about 0.6 GB.
 */
#define NCCL_COMM_BYTES	0.6e9

/* K/V heads on one TP rank: split if t <= k, else one replicated head. */
static double
kv_heads_rank(const struct cm_config *c)
{
	int k = c->model.kv_heads;

	return c->tp <= k ? (double)k / c->tp : 1.0;
}

/* One layer's routed experts on a TP rank before EP divides them. */
double
cm_layer_routed_rank(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;

	if (m->experts == 0)
		return 0;
	return (m->mlp == HW_MLP_SWIGLU ? 3.0 : 2.0) * m->hidden *
	    m->expert_ffn * m->experts / c->tp;
}

/* Reference b per layer, divided over TP; K/V replicated past t = k. */
double
cm_layer_params_rank(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	double h = m->hidden, f = m->ffn, dh = hw_head_dim(m), t = c->tp;
	double q = hw_q_width(m), mlp_c = m->mlp == HW_MLP_SWIGLU ? 3 : 2;
	double norm = m->norm == HW_NORM_RMS ? h : 2 * h;
	double router = m->experts > 0 ? h * m->experts : 0;
	double p;

	if (hw_model_extended(m))	/* MLA, biased experts (hw_mla.c) */
		return cm_layer_params_rank_ext(c);
	/* the experts split over TP (and the routed ones over EP), the
	 * router whole on every rank */
	p = 2 * h * q / t + 2 * h * dh * kv_heads_rank(c) +
	    (hw_mlp_params(m, 0) - router) / t + router + 2 * norm;
	if (cm_ep(c) > 1 || cm_etp(c) != c->tp)	/* E / ep experts, over ETP */
		p += cm_layer_routed_all(c) / (cm_etp(c) * cm_ep(c)) -
		    cm_layer_routed_rank(c);
	if (m->qk_norm)
		p += 2 * dh;
	if (m->biases)
		p += (q + (mlp_c - 1) * f) / t + 2 * dh * kv_heads_rank(c) +
		    2 * h;
	return p;
}

/* Parameters on the stage holding embedding (first) or output (last). */
static double
stage_params(const struct cm_config *c, int layers, int first, int last)
{
	const struct hw_model *m = &c->model;
	double vh = (double)m->vocab * m->hidden / c->tp;
	double p = layers * cm_layer_params_rank(c);

	/* [MEGA-MEM]: the first stage holds the embedding, the last the
	 * output layer (a copy of the embedding when tied and p > 1). */
	if (first)
		p += vh + (m->learned_pos ? (double)m->seq * m->hidden : 0);
	if (last && (!m->tied || !first))
		p += vh;
	if (last)
		p += m->norm == HW_NORM_RMS ? m->hidden : 2.0 * m->hidden;
	return p;
}

/*
 * What a mixture-of-experts layer keeps besides its experts' MLPs, in
 * bf16 bytes for sb tokens: each token's k permuted copies of its input
 * (the experts' first products take them; under TP every rank holds all
 * of them, Megatron-Core gathering the sequence before dispatch) and the
 * k expert outputs the combine weights by the router's probabilities
 * (their gradient needs them), 2 k s b h each; the router's fp32 logits
 * and probabilities, 8 s b E (Megatron-Core's router.py keeps its
 * scores in fp32 with --moe-router-dtype fp32).
 */
static double
moe_act(const struct cm_config *c, double sb)
{
	const struct hw_model *m = &c->model;

	if (m->experts == 0)
		return 0;
	return 4.0 * m->top_k * sb * m->hidden * cm_moe_load(c) * cm_etp(c) /
	    c->tp + 8.0 * sb * m->experts;
}

/*
 * Activations of one layer for one micro-batch on one GPU, [KOR22] Table 2
 * generalised: 10sbh outside TP (split by SP), Q, K, V, attention output
 * and the MLP inside TP (K, V at the GQA width, MLP 4fsb or 6fsb for
 * SwiGLU as [MEGA-MEM]'s 18 + 4f/h), and 5as^2b of scores for plain
 * attention (flash keeps 4 bytes of softmax statistics per row).
 */
double
cm_act_layer_bytes(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	double s = (double)m->seq / c->cp, b = c->micro_batch, h = m->hidden;
	double t = c->tp;
	double dh = hw_head_dim(m), sbh = s * b * h, q = hw_q_width(m);
	double sp = c->seq_parallel ? t : 1.0, scale = cm_elem_bytes(c) / 2;
	double mlp = (m->mlp == HW_MLP_SWIGLU ? 6.0 : 4.0) *
	    (hw_mlp_token_width(m) + (cm_moe_load(c) - 1) * m->top_k *
	    m->expert_ffn) * s * b / t;
	double a;

	if (c->recompute == CM_RECOMPUTE_FULL)	/* layer input only */
		return 2 * sbh / sp * scale;
	/* [KOR22] 4.1: the two 1-byte dropout masks are 2 of the 10 sbh;
	 * a model trained without dropout keeps neither (reference j.7). */
	a = (m->dropout ? 10 : 8) * sbh / sp + (HW_MLA(m) ?
	    cm_mla_act(c, s * b) : 4 * (s * b * q) / t +
	    4 * s * b * dh * kv_heads_rank(c)) + mlp + moe_act(c, s * b);
	if (c->recompute == CM_RECOMPUTE_NONE) {
		if (c->attention == CM_ATTN_PLAIN)	/* softmax out, mask,
							 * dropout out */
			a += (m->dropout ? 5.0 : 2.0) * m->heads * s * s * b /
			    t;
		else
			a += 4.0 * m->heads * s * b / t;
	}
	/* what eager autograd keeps besides (costmodel_kernels.c) */
	return a * scale + cm_act_extra_layer(c) - cm_fp8_act_saving(c);
}

/* One layer's full working set, for the layer being recomputed. */
static double
act_layer_working(const struct cm_config *c)
{
	struct cm_config w = *c;

	w.recompute = CM_RECOMPUTE_NONE;
	return cm_act_layer_bytes(&w);
}

/* GPipe's all-forwards-then-all-backwards needs a pipeline; with one stage
 * gradient accumulation runs each micro-batch's forward and backward in
 * turn, so one micro-batch is live whatever the schedule. */
static int
holds_all_microbatches(const struct cm_config *c)
{
	return c->schedule == PIPE_GPIPE && c->pp > 1;
}

/*
 * Layer-equivalents of activations held on stage r at the peak ([KOR22]
 * 4.2.3; [NAR21] 2.2): 1F1B min(p - r, m) micro-batches of the stage's
 * layers, GPipe m. Interleaved: Megatron-Core's schedule runs (p - r - 1) 2
 * + (v - 1) p warm-up forwards, then one more before the first backward
 * (schedules.py, forward_backward_pipelining_with_interleaving), the k-th
 * on chunk (k mod p v) / p (get_model_chunk_id); each holds its chunk's
 * layers (cm_chunk_layers). With L/(p v) layers in every chunk this is
 * L (1 + (p-1)/(p v)) on stage 0, [KOR22]'s interleaving penalty.
 * DualPipe: p + 1 micro-batches on every device (costmodel_sched.c).
 */
double
cm_inflight_layers(const struct cm_config *c, int r, int layers, long m)
{
	int p = c->pp, v = c->virtual_stages;
	long k, n;
	double sum = 0;

	if (holds_all_microbatches(c))
		return (double)m * layers;
	if (c->schedule == PIPE_DUALPIPE && p > 1)	/* costmodel_sched.c */
		return cm_sched_inflight(c, m) * layers;
	if (c->schedule == PIPE_INTERLEAVED) {
		n = (long)(p - r - 1) * 2 + (long)(v - 1) * p + 1;
		if (n > m * v)
			n = m * v;
		/* the sum over k < n of chunk (k mod p v) / p's layers,
		 * counting each chunk's turns: whole cycles of p v, then
		 * the rest (integers, so the same double as term by term) */
		for (k = 0; k < v; k++) {
			long turns = n / ((long)p * v) * p, rest = n %
			    ((long)p * v) - k * (long)p;

			turns += rest <= 0 ? 0 : rest < p ? rest : p;
			sum += (double)turns * cm_chunk_layers(c, r, (int)k);
		}
		return sum;
	}
	return (double)(p - r < m ? p - r : m) * layers;
}

/* Micro-batches whose embedding output stage 0 holds. */
static double
inflight_mb(const struct cm_config *c, long m)
{
	double n = holds_all_microbatches(c) ? (double)m : c->pp;

	if (c->schedule == PIPE_DUALPIPE && c->pp > 1)
		return cm_sched_inflight(c, m);
	if (c->schedule == PIPE_INTERLEAVED)
		n = c->pp * (1.0 + (c->pp - 1.0) / (c->pp * c->virtual_stages));
	return n < m ? n : (double)m;
}

/* Activation bytes on stage r with the given layer count. */
static double
stage_act(const struct cm_config *c, int r, int layers, long m, double one)
{
	const struct hw_model *mo = &c->model;
	double sbh = cm_rank_tokens(c) * mo->hidden;
	double sp = c->seq_parallel ? c->tp : 1.0;
	double a = one * cm_inflight_layers(c, r, layers, m);

	if (c->recompute == CM_RECOMPUTE_FULL)
		a += act_layer_working(c);
	if (r == 0 && mo->dropout)	/* embedding dropout mask, eq. 5 */
		a += sbh * inflight_mb(c, m) / sp;
	if (r == c->pp - 1)	/* final LN, output input, the loss's logits */
		a += 4 * sbh / c->tp + cm_loss_act_bytes(c) * sbh / c->tp *
		    mo->vocab / mo->hidden;
	return a;
}

/* Communicators a GPU of this layout opens: one per axis with > 1 rank,
 * and the cross-node replica group under HSDP. */
static int
communicators(const struct cm_config *c)
{
	struct mesh_span sh;
	int n = (c->tp > 1) + (c->pp > 1) + (c->dp > 1) + (c->cp > 1);

	cm_shard_group(c, &sh);
	return n + (sh.n < c->dp);
}

/* Parameters of stage r with `layers` layers: held (np) and sharded
 * under ZeRO (ns); dact: its dense layers' activations. */
static void
stage_counts(const struct cm_config *c, const struct cm_result *res, int r,
    int layers, double scale, double *np, double *ns, double *dact)
{
	double dh = 0, dsh = 0;

	*np = *ns = stage_params(c, layers, r == 0, r == c->pp - 1) * scale;
	*dact = 0;
	/* Under EP the d ranks hold ep different expert shards, each
	 * sharded over d / ep: a rank's share of the sharded states is that
	 * of all the experts over d (costmodel_ep.c). */
	if (cm_ep(c) > 1 || cm_etp(c) != c->tp)
		*ns += layers * (cm_layer_routed_rank(c) -
		    cm_layer_routed_all(c) / (cm_etp(c) * cm_ep(c))) * scale;
	if (c->model.dense_layers > 0 || c->model.mtp > 0) {
		/* costmodel_layers.c */
		cm_dense_memory(c, r, layers, res->microbatches,
		    res->act_layer, &dh, &dsh, dact);
		*np += dh * scale;
		*ns += dsh * scale;
	}
}

/* Layers of stage r (first, last or a middle one). */
static int
layers_of(const struct cm_config *c, int r)
{
	struct cm_stages st;

	cm_stage_layers(c, &st);
	return r == 0 ? st.first : r == c->pp - 1 ? st.last : st.middle;
}

/* Fill the bytes of stage r into r (if it is the worst so far). */
static void
stage_memory(const struct cm_config *c, struct cm_result *res, int r,
    int layers, double scale)
{
	double w = cm_elem_bytes(c), g = w, k, d, act, other, tot;
	double pw, pg, po, buffers, nccl, fp8w, gathered = 0, grads_whole = 0;
	double np, ns, dact, mp, ms, ma;
	int mr = c->pp - 1 - r;
	struct mesh_span sh;

	cm_shard_group(c, &sh);	/* d, or the node's share under HSDP */
	d = sh.n;
	if (c->grad_accum_fp32)
		g = 4;
	if (c->precision == CM_PREC_FP32)	/* no master copy */
		k = c->optimizer == CM_OPT_ADAM ? 8 : 4;
	else	/* [ZERO] 3.1: K = 12 for Adam; master + momentum for SGD */
		k = c->optimizer == CM_OPT_ADAM ? 12 : 8;
	stage_counts(c, res, r, layers, scale, &np, &ns, &dact);
	fp8w = cm_fp8_weight_bytes(c, layers, scale);	/* FP8 weight copies */
	/* DualPipe: this stage's and its mirror's, p-1-r: the edge devices
	 * hold the embedding and the output layer, as dualpipe's example
	 * pairs full_modules[rank] with full_modules[pp_size - 1 - rank]
	 * (deepseek-ai/DualPipe 3da1bbe, examples/example_dualpipe.py) */
	if (cm_sched_param_copies(c) > 1) {
		stage_counts(c, res, mr, layers_of(c, mr), scale, &mp, &ms,
		    &ma);
		np += mp;
		ns += ms;
		fp8w += cm_fp8_weight_bytes(c, layers_of(c, mr), scale);
	}
	/* [ZERO] 5, Figure 1: stage 1 shards K, 2 also grads, 3 weights. */
	pw = c->zero >= 3 ? ns * w / d : np * w;
	pg = c->zero >= 2 ? ns * g / d : np * g;
	po = c->zero >= 1 ? ns * k / d : np * k;
	act = stage_act(c, r, layers, res->microbatches, res->act_layer) +
	    dact;
	buffers = c->buffers_bytes;
	nccl = NCCL_COMM_BYTES * communicators(c);
	if (c->zero >= 3 && c->pp > 1) {
		/* PyTorch pipelining keeps the stage's weights gathered and
		 * its gradients unsharded for the whole step (costmodel_dp.c):
		 * the rest of each beside the shard already counted */
		gathered = np * (w - w / d);
		grads_whole = np * (g - g / d);
	} else if (c->zero >= 3) {
		/* this layer and the prefetched one gathered, or every layer
		 * kept from the forward to the backward without resharding;
		 * one layer's unsharded gradient before its reduce-scatter */
		gathered = (c->reshard_after_forward ? 2 : layers) *
		    cm_layer_params_rank(c) * scale * w;
		grads_whole = cm_layer_params_rank(c) * scale * g;
	}
	buffers += cm_cp_buffers(c);	/* K/V in flight (costmodel_cp.c) */
	other = buffers + nccl;
	other += fp8w;
	other += gathered + grads_whole;
	tot = pw + pg + po + act + other;
	if (tot <= res->mem_total)
		return;
	res->params_gpu = np;
	res->mem_params = pw;
	res->mem_grads = pg;
	res->mem_optim = po;
	res->mem_act = act;
	res->mem_other = other;
	res->mem_buffers = buffers;
	res->mem_nccl = nccl;
	res->mem_gathered = gathered;
	res->mem_grads_whole = grads_whole;
	res->mem_fp8 = fp8w;
	res->mem_total = tot;
}

void
cm_memory(const struct cm_config *c, struct cm_result *r)
{
	struct cm_stages st;
	struct cm_config whole = *c;
	double scale = 1.0, derived;

	/* A given parameter count scales the derived shapes to match. */
	if (c->model.params > 0) {
		whole.model.params = 0;
		derived = cm_params(&whole.model);
		scale = derived > 0 ? c->model.params / derived : 1.0;
	}
	cm_stage_layers(c, &st);
	r->stage_layers = st.middle;
	r->act_layer = cm_act_layer_bytes(c);
	r->mem_total = -1;
	stage_memory(c, r, 0, st.first, scale);
	if (c->pp > 1) {
		stage_memory(c, r, c->pp - 1, st.last, scale);
		if (c->pp > 2)
			stage_memory(c, r, 1, st.middle, scale);
	}
	r->mem_gpu = c->gpu.mem_bytes;
	r->mem_usable = c->gpu.mem_bytes * (1 - c->reserve_frac);
	r->fits = r->mem_total <= r->mem_usable;
}
