/*
 * costmodel_kernels.c - what a framework launches besides the matrix
 * products, and what autograd keeps for the backward: element-wise HBM
 * bytes and kernel counts of one layer, the loss, the optimizer step, the
 * mixed-precision casts and the activations saved beyond the fused set,
 * for the three kinds of kernels cfg->kernels names.
 *
 * Every element-wise kernel reads its inputs and writes its outputs once
 * through HBM (reference/costmodel.md j.1); the counts below are bytes per
 * element of the tensor the kernel walks. e is the activation element (2
 * in bf16, 4 in fp32) and o = 4 the fp32 "opmath" type PyTorch upcasts
 * bf16 to in norms, rotary embeddings and the loss.
 *
 * Fused (Megatron-Core with Transformer Engine, Apex): one kernel per norm
 * (read x, write y: 2e; backward read x and dy, write dx: 3e), bias,
 * dropout and residual add in one kernel (3e each way, a 1-byte mask),
 * one activation kernel (GeLU 2e / 3e per f element; SwiGLU reads gate and
 * up, writes their product: 3e / 5e), rotary embedding in place (2e each
 * way over Q and K), QKV and gate/up as one product each, GQA handled in
 * the attention kernel, fused cross-entropy and fused Adam.
 *
 * Eager (PyTorch as torchtitan's and Hugging Face's Llama code run it;
 * pytorch/torchtitan torchtitan/models/llama3/model/model.py):
 *   - RMSNorm is the composite at::rms_norm (aten/src/ATen/native/
 *     layer_norm.cpp, up to PyTorch 2.7): x.to(fp32), pow, mean, add, rsqrt,
 *     mul, type_as, mul(weight): 8 kernels, (e+o) + 2o + o + 2o + (o+e) + 2e
 *     = 4e + 7o bytes forward; autograd runs each op's backward (mul by
 *     the weight and its reduction 6e, cast e+o, mul by rsqrt 2o and its
 *     row reduction 4o, mean o, pow 7o, the two branches summed 3o, cast
 *     back o+e): 8e + 19o over 14 kernels. LayerNorm has a native fused
 *     kernel in eager PyTorch, so it costs what a fused norm costs.
 *   - SwiGLU is F.silu(w1(x)) * w3(x): silu 2e + mul 3e forward; mul's
 *     backward 3e + 3e, silu's 3e: 5e / 9e per f element, 2 / 3 kernels;
 *     w1 and w3 (and wq, wk, wv) are separate products.
 *   - Rotary embedding: x.float(), complex multiply, type_as for Q and K
 *     ((e+o) + 2o + (o+e) = 2e + 4o each way, 6 kernels); Hugging Face's
 *     rotate_half form moves the same 10e.
 *   - GQA: repeat_kv materialises K and V at the query width (read k, write
 *     q, twice; the backward sums them back), and the attention output is
 *     made contiguous again (.transpose(1, 2).contiguous()).
 *   - Residual adds and dropout (F.dropout writes the output and a mask)
 *     are separate kernels.
 *   - The loss upcasts the logits: cross_entropy(pred.float()): cast e+o,
 *     log_softmax 2o, NLL; backward: grad zeros o, log_softmax backward 3o,
 *     cast back o+e: 2e + 8o per logit (torchtitan components/loss.py).
 *   - torch.optim.AdamW's default foreach path: 80 bytes per parameter,
 *     clip_grad_norm_ 12 more (cm_optimizer_bytes; --optimizer-impl
 *     picks fused or for-loop instead).
 *   - Autocast casts each fp32 weight to bf16 every forward (read 4,
 *     write 2 bytes per parameter) and the bf16 weight gradient back to
 *     fp32 (6), then adds it into .grad after the first micro-batch (12).
 * Compiled (torch.compile, Inductor): each chain of element-wise ops
 * between two products becomes one kernel that reads the chain's inputs
 * and writes its outputs once, so norms, activations and the rotary
 * embedding cost what the fused kernels cost; the products stay separate
 * (wq, wk, wv, w1, w3), repeat_kv and the layout copy still materialise,
 * the loss becomes one reduction over the bf16 logits (2e) and one
 * gradient kernel (2e), and the optimizer is the same foreach AdamW
 * (torch.compile(model) does not compile optimizer.step()).
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"

#define OPMATH	CM_OPMATH

/* Per-token widths on one GPU, elements. */
struct widths {
	double	hs;	/* h, divided by t under SP (outside the TP region) */
	double	q;	/* query / attention output width, h / t */
	double	k;	/* one of K, V: GQA width on this rank */
	double	f;	/* MLP inner width, f / t */
};

static void
widths_of(const struct cm_config *c, struct widths *w)
{
	const struct hw_model *m = &c->model;
	double dh = hw_head_dim(m), t = c->tp;

	w->hs = m->hidden / (c->seq_parallel ? t : 1.0);
	w->q = hw_q_width(m) / t;
	w->k = dh * (c->tp <= m->kv_heads ? (double)m->kv_heads / t : 1.0);
	w->f = hw_mlp_token_width(m) / t;
}

int
cm_split_products(const struct cm_config *c)
{
	return c->kernels != CM_KERNELS_FUSED;
}

/*
 * Adds k_f kernels moving `f` bytes forward and k_b moving `b` backward,
 * each kernel timed at the HBM efficiency of its own size (cm_hbm_s). A
 * count of 0 means the bytes ride in a kernel counted elsewhere.
 */
static void
put(const struct cm_config *c, struct cm_elem *x, double f, double b, int kf,
    int kb)
{
	x->fwd += f;
	x->bwd += b;
	x->fwd_s += cm_hbm_s(c, f, kf);
	x->bwd_s += cm_hbm_s(c, b, kb);
	x->kf += kf;
	x->kb += kb;
}

static void
elem_zero(struct cm_elem *x)
{
	x->fwd = x->bwd = x->fwd_s = x->bwd_s = 0;
	x->kf = x->kb = 0;
}

/*
 * One norm over n elements, forward and backward. Under autocast its
 * input is the fp32 residual stream: the eager RMSNorm's casts to and
 * from fp32 are no-ops (no kernels: 2o + o + 2o and the fp32 weight
 * multiply 2o forward, the backward's 92 bytes over 12 kernels), a native
 * LayerNorm runs in fp32 (autocast's fp32 list), and a compiled norm reads
 * fp32 and writes the bf16 the next product takes.
 */
static void
norm(const struct cm_config *c, double n, struct cm_elem *x)
{
	double e = cm_elem_bytes(c), o = OPMATH, out;
	int eager = c->kernels == CM_KERNELS_EAGER;

	if (eager && c->model.norm == HW_NORM_RMS) {
		if (cm_autocast(c))
			put(c, x, 7 * o * n, 23 * o * n, 6, 12);
		else
			put(c, x, (4 * e + 7 * o) * n, (8 * e + 19 * o) * n, 8,
			    14);
		return;
	}
	if (cm_autocast(c)) {
		out = eager ? o : e;
		put(c, x, (o + out) * n, (o + out + o) * n, 1, 2);
		return;
	}
	put(c, x, 2 * e * n, 3 * e * n, 1,
	    c->kernels == CM_KERNELS_FUSED ? 1 : 2);
}

/*
 * Inputs of the separate products PyTorch code runs on one normed tensor
 * (wq, wk, wv; w1, w3): in eager autocast each call casts its fp32 input
 * to bf16 (read 4, write e) and the cast's backward turns the bf16
 * gradient back (read e, write 4); autograd then sums the gradients the
 * products send back to their shared input, one add kernel per extra
 * product (3 g per element), which torch.compile folds into the norm's
 * backward (reading each extra gradient once). h: width of the input.
 */
static void
product_inputs(const struct cm_config *c, double h, int products,
    struct cm_elem *x)
{
	double e = cm_elem_bytes(c), g = cm_autocast(c) ? OPMATH : e;
	int eager = c->kernels == CM_KERNELS_EAGER;

	if (eager && cm_autocast(c))
		put(c, x, products * (OPMATH + e) * h, products * (e + OPMATH) *
		    h, products, products);
	if (products < 2 || c->kernels == CM_KERNELS_FUSED)
		return;
	if (eager)
		put(c, x, 0, (products - 1) * 3 * g * h, 0, products - 1);
	else
		put(c, x, 0, (products - 1) * g * h, 0, 0);
}

void
cm_layer_elem(const struct cm_config *c, struct cm_elem *x)
{
	const struct hw_model *m = &c->model;
	struct widths w;
	double e = cm_elem_bytes(c), o = OPMATH, rope;
	double rs = cm_autocast(c) ? OPMATH : e;	/* residual stream */
	double sb = cm_rank_tokens(c);	/* tokens on this rank */
	int eager = c->kernels == CM_KERNELS_EAGER;
	int fused = c->kernels == CM_KERNELS_FUSED;
	int swiglu = m->mlp == HW_MLP_SWIGLU;

	widths_of(c, &w);
	elem_zero(x);
	norm(c, w.hs * sb, x);
	norm(c, w.hs * sb, x);
	/* the products each norm feeds: wq, wk, wv and w1 (w3) */
	product_inputs(c, m->hidden * sb, cm_split_products(c) ? 3 : 1, x);
	product_inputs(c, m->hidden * sb, cm_split_products(c) && swiglu ?
	    2 : 1, x);
	/* two residual adds (the stream and a branch's bf16 output; fp32
	 * under autocast); with dropout a 1-byte mask each, and in eager
	 * F.dropout as its own kernel writing and reading a copy */
	put(c, x, 2 * (2 * rs + e) * w.hs * sb, 2 * 3 * rs * w.hs * sb, 2, 2);
	if (m->dropout)
		put(c, x, 2 * (1 + (eager ? 2 * e : 0)) * w.hs * sb,
		    2 * (1 + (eager ? 2 * e : 0)) * w.hs * sb, eager ? 2 : 0,
		    eager ? 2 : 0);
	if (swiglu && eager)
		put(c, x, 5 * e * w.f * sb, 9 * e * w.f * sb, 2, 3);
	else
		put(c, x, (swiglu ? 3 : 2) * e * w.f * sb,
		    (swiglu ? 5 : 3) * e * w.f * sb, 1, 1);
	if (!m->learned_pos) {
		rope = eager ? 2 * e + 4 * o : 2 * e;
		put(c, x, rope * (w.q + w.k) * sb, rope * (w.q + w.k) * sb,
		    eager ? 6 : 1, eager ? 6 : 1);
	}
	if (!fused && w.k < w.q)	/* repeat_kv: K and V at query width */
		put(c, x, 2 * e * (w.k + w.q) * sb, 2 * e * (w.k + w.q) * sb,
		    2, 2);
	if (!fused)	/* attention output made contiguous, its gradient */
		put(c, x, 2 * e * w.q * sb, 2 * e * w.q * sb, 1, 1);
	if (m->experts > 0) {	/* router, dispatch and combine */
		struct cm_moe_elem me;

		cm_moe_elem(c, &me);
		put(c, x, me.fwd, me.bwd, me.kf, me.kb);
	}
	cm_fp8_layer_elem(c, x);	/* FP8 amax and casts */
}

void
cm_loss_elem(const struct cm_config *c, struct cm_elem *x)
{
	double e = cm_elem_bytes(c), o = OPMATH;
	double logits = cm_rank_tokens(c) * c->model.vocab / c->tp;
	double rows = cm_rank_tokens(c);
	struct widths w;

	widths_of(c, &w);
	elem_zero(x);
	norm(c, w.hs * rows, x);	/* the final norm */
	product_inputs(c, c->model.hidden * rows, 1, x);	/* output layer */
	if (c->kernels == CM_KERNELS_EAGER)
		put(c, x, (e + 3 * o) * logits, (e + 5 * o) * logits, 3, 4);
	else if (c->kernels == CM_KERNELS_COMPILED)
		put(c, x, 2 * e * logits, 2 * e * logits, 1, 1);
	else	/* fp32 cross-entropy: cast, softmax, gradient */
		put(c, x, 8 * logits, 8 * logits, 4, 4);
}

/*
 * The embedding's weight gradient, one micro-batch on the first stage.
 * Its backward is dense in every framework here: PyTorch's
 * embedding_dense_backward (aten/src/ATen/native/cuda/Embedding.cu) fills
 * a zero V x h gradient (of this rank's V / t rows) and adds the tokens'
 * rows into it; Megatron's VocabParallelEmbedding calls the same
 * F.embedding. Tied to the output layer on one stage, autograd then sums
 * the two V x h gradients (read both, write one).
 */
void
cm_embed_elem(const struct cm_config *c, struct cm_elem *x)
{
	const struct hw_model *m = &c->model;
	double e = cm_elem_bytes(c), vh = (double)m->vocab / c->tp * m->hidden;
	double rows = cm_rank_tokens(c) * m->hidden;

	elem_zero(x);
	put(c, x, 0, e * vh, 0, 1);
	put(c, x, 0, 3 * e * rows, 0, 1);
	if (m->tied && c->pp == 1)
		put(c, x, 0, 3 * e * vh, 0, 1);
}

/*
 * The optimizer step, per parameter the GPU owns, with fp32 weights, fp32
 * moments and fp32 .grad (torch.optim steps the fp32 parameters autocast
 * and FSDP2 keep, and a parameter's .grad has its dtype). Counted from
 * PyTorch's torch/optim/adam.py (AdamW is Adam with decoupled weight
 * decay) and aten/src/ATen/native/cuda/fused_adam_utils.cuh:
 *   - foreach (_multi_tensor_adam): _foreach_mul_(params) 8, lerp_(m, g)
 *     12, mul_(v) 8, addcmul_(v, g, g) 12 (g read once), sqrt(v) 8,
 *     div_ 8, add_(eps) 8, addcdiv_(p, m, denom) 16: 80 bytes in 8 ops;
 *     SGD with momentum (_multi_tensor_sgd) mul_(buf) 8, add_(buf, g) 12,
 *     add_(p, buf) 12: 32 in 3.
 *   - for-loop (_single_tensor_adam, foreach=False): the same ops one
 *     tensor at a time (mul_, lerp_, mul_().addcmul_, sqrt, /, add_,
 *     addcdiv_): the same 80 (32) bytes, 8 (3) kernels per tensor.
 *   - fused (_fused_adam, FusedAdamMathFunctor): one kernel loads param,
 *     grad, exp_avg, exp_avg_sq and stores all but the grad: 16 + 12 = 28;
 *     SGD (FusedSgdKernel.cu, depth 3) loads p, g, buf, stores p, buf: 20.
 * torch.nn.utils.clip_grad_norm_ runs foreach on CUDA whatever the
 * optimizer: _foreach_norm reads the gradients (4) and _foreach_mul_
 * scales them (8): 12 more in 2 ops.
 * Fused frameworks (Megatron-Core, Apex / Transformer Engine FusedAdam)
 * read the fp32 master weight, both moments and the fp32 main gradient
 * and write the first three and the bf16 copy (16 + 14 bytes); SGD with
 * momentum 12 + 10; fp32 training has no copy; clipping reads the
 * gradients once more for their norm (4).
 */
#define CLIP_BYTES	12
#define CLIP_OPS	2

enum cm_opt_impl
cm_opt_impl_of(const struct cm_config *c)
{
	if (c->optimizer_impl != CM_OPT_IMPL_AUTO)
		return c->optimizer_impl;
	return c->kernels == CM_KERNELS_FUSED ? CM_OPT_IMPL_FUSED :
	    CM_OPT_IMPL_FOREACH;
}

double
cm_optimizer_bytes(const struct cm_config *c)
{
	int adam = c->optimizer == CM_OPT_ADAM;

	if (cm_opt_impl_of(c) != CM_OPT_IMPL_FUSED)
		return (adam ? 80 : 32) + CLIP_BYTES;
	if (c->kernels != CM_KERNELS_FUSED)	/* torch.optim fused=True */
		return (adam ? 28 : 20) + CLIP_BYTES;
	if (c->precision == CM_PREC_FP32)
		return (adam ? 28 : 16) + 4;
	return (adam ? 30 : 22) + 4;
}

/*
 * Kernels of one optimizer step over `own` parameters in `tensors`
 * tensors. PyTorch's foreach ops and fused optimizers run through
 * multi_tensor_apply, whose launches take at most 320 blocks of 65536
 * elements (aten/src/ATen/native/cuda/MultiTensorApply.cuh, kChunkSize,
 * depth_to_max_blocks): so many launches per op. Foreach AdamW is the 8
 * ops above, fused one, the for-loop 8 per tensor; clipping 2 more (the
 * fused frameworks' norm 1).
 */
double
cm_optimizer_kernels(const struct cm_config *c, double own, double tensors)
{
	double launches = ceil(own / (320.0 * 65536));
	int ops = c->optimizer == CM_OPT_ADAM ? 8 : 3;

	if (launches < 1)
		launches = 1;
	switch (cm_opt_impl_of(c)) {
	case CM_OPT_IMPL_FORLOOP:
		return (tensors > 1 ? tensors : 1) * ops + launches * CLIP_OPS;
	case CM_OPT_IMPL_FUSED:
		if (c->kernels == CM_KERNELS_FUSED)
			return launches * 2;
		return launches * (1 + CLIP_OPS);
	default:
		return launches * (ops + CLIP_OPS);
	}
}

/*
 * PyTorch's automatic mixed precision: fp32 weights and torch.autocast
 * around the forward, as a single-GPU or DDP script runs bf16. FSDP
 * (ZeRO-3) computes with bf16 copies of its shards instead, and Megatron
 * (fused) keeps bf16 weights with fp32 master copies in the optimizer:
 * neither autocasts. Under autocast every product casts its inputs to
 * bf16, and the embedding's fp32 output makes the residual stream fp32.
 */
int
cm_autocast(const struct cm_config *c)
{
	return c->kernels != CM_KERNELS_FUSED &&
	    c->precision != CM_PREC_FP32 && c->zero < 3;
}

double
cm_amp_bytes(const struct cm_config *c, double m)
{
	if (!cm_autocast(c) || m < 1)
		return 0;
	/* weight cast in, gradient cast out, added into .grad after the
	 * first micro-batch; FSDP casts only its shard, so not under ZeRO-3 */
	return 6 + 6 + 12 * (m - 1) / m;
}

double
cm_act_extra_layer(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	struct widths w;
	double e = cm_elem_bytes(c), sb = cm_rank_tokens(c);
	double x = 0;

	if (c->recompute == CM_RECOMPUTE_FULL)
		return 0;
	/* autocast's fp32 residual stream: both norms keep fp32 inputs */
	if (cm_autocast(c) && e < OPMATH) {
		widths_of(c, &w);
		x = 2 * (OPMATH - e) * w.hs;
	}
	if (c->kernels != CM_KERNELS_EAGER)
		return x * sb;
	widths_of(c, &w);
	/* RMSNorm keeps its fp32 copy and the normalised input of the weight
	 * multiply, where a fused norm keeps x alone */
	if (m->norm == HW_NORM_RMS)
		x += 2 * (e < OPMATH ? OPMATH : e) * w.hs;
	/* autocast: each separate product keeps its own bf16 cast of the
	 * normed input, where one fused product keeps one */
	if (cm_autocast(c) && cm_split_products(c))
		x += e * m->hidden * (2 + (m->mlp == HW_MLP_SWIGLU));
	if (!m->learned_pos)	/* complex multiply keeps its fp32 inputs */
		x += OPMATH * (w.q + w.k);
	if (w.k < w.q)		/* attention keeps the repeated K and V */
		x += 2 * e * (w.q - w.k);
	if (m->mlp == HW_MLP_SWIGLU)	/* mul keeps silu's output too */
		x += e * w.f;
	/* hand-written attention keeps softmax's fp32 output and the bf16
	 * cast the second product takes (or, with dropout, its mask and
	 * dropped copy), where the fused kernel keeps the bf16 probabilities
	 * ([KOR22]'s 2, or 5 with dropout, bytes per score) */
	if (c->attention == CM_ATTN_PLAIN && c->recompute == CM_RECOMPUTE_NONE)
		x += (OPMATH + (m->dropout ? 1 + e : e < OPMATH ? e : 0) -
		    (m->dropout ? 5.0 : 2.0) * e / 2) * m->heads / c->tp *
		    m->seq;
	return x * sb;
}

double
cm_loss_act_bytes(const struct cm_config *c)
{
	double e = cm_elem_bytes(c);

	/* eager: bf16 logits, log_softmax's fp32 output, then in the
	 * backward the fp32 gradients of both; compiled: the logits and
	 * their gradient; fused: fp32 logits turned into their gradient in
	 * place (Megatron's vocab-parallel cross-entropy) */
	if (c->kernels == CM_KERNELS_EAGER)
		return e + 3 * OPMATH;
	if (c->kernels == CM_KERNELS_COMPILED)
		return 2 * e;
	return 4;
}

int
cm_layer_tensors(const struct cm_config *c, double *elems, int max)
{
	const struct hw_model *m = &c->model;
	struct widths w;
	double h = m->hidden, b = m->biases;
	double list[16];
	int n = 0, i, split = cm_split_products(c);

	widths_of(c, &w);
	if (split) {
		list[n++] = h * w.q;
		list[n++] = h * w.k;
		list[n++] = h * w.k;
		if (b) {
			list[n++] = w.q;
			list[n++] = w.k;
			list[n++] = w.k;
		}
	} else {
		list[n++] = h * (w.q + 2 * w.k);
		if (b)
			list[n++] = w.q + 2 * w.k;
	}
	list[n++] = w.q * h;
	if (b)
		list[n++] = h;
	if (m->mlp == HW_MLP_SWIGLU && split) {
		list[n++] = h * w.f;
		list[n++] = h * w.f;
	} else {
		list[n++] = h * w.f * (m->mlp == HW_MLP_SWIGLU ? 2 : 1);
		if (b)
			list[n++] = w.f;
	}
	list[n++] = w.f * h;
	if (b)
		list[n++] = h;
	for (i = 0; i < (m->norm == HW_NORM_RMS ? 2 : 4); i++)
		list[n++] = h;
	for (i = 0; i < n && i < max; i++)
		elems[i] = list[i];
	return n < max ? n : max;
}
