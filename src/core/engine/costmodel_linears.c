/*
 * costmodel_linears.c - the matrix products of one layer for one
 * micro-batch on one rank, as the framework's kernels run them: the one
 * list that the step time (costmodel_time.c), FP8's casts and weight
 * copies (costmodel_fp8.c) read.
 *
 * Dense layers: Q, K, V (fused into one product by Megatron-Core, three
 * in PyTorch), the output projection, the MLP's up (gate and up fused or
 * not) and down projections; Q and the attention output are a d_h wide,
 * K and V at the GQA width on this rank, all split over TP.
 *
 * A mixture-of-experts MLP (hw_moe.c): the router, h x E, on every token,
 * unsplit and in the training precision (Megatron-Core's TopKRouter and
 * torchtitan's router are plain linears; Transformer Engine does not run
 * them in FP8); each of the E experts an MLP of inner size f_e (split over
 * TP, Megatron-Core's expert tensor parallelism defaulting to TP) on the
 * tokens routed to it, k M / E of them when the router spreads the M
 * tokens evenly (the imbalance is issue 27's --moe-imbalance, not here);
 * the shared experts one MLP of inner size shared x f_e on every token
 * (Megatron-Core's SharedExpertMLP). The E experts' products run as one
 * grouped GEMM (Megatron-Core's --moe-grouped-gemm, torchtitan's
 * grouped_mm) or, eager, as a loop over the experts (Hugging Face's
 * MixtralSparseMoeBlock); either way each expert's M_e x K by K x N
 * product is priced on its own shape, so the experts' small M_e reads
 * each weight for few tokens and meets the memory bound. Under expert
 * parallelism (costmodel_ep.c) a rank holds E / ep experts, each taking
 * k M ep / E tokens.
 */
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

static void
put(struct cm_linear *l, int *n, double m, double k, double nn,
    double count, int routed)
{
	l[*n].m = m;
	l[*n].k = k;
	l[*n].n = nn;
	l[*n].count = count;
	l[*n].routed = routed;
	(*n)++;
}

/* An MLP of inner width f (already split over TP) on m tokens. */
static void
mlp(const struct cm_config *c, struct cm_linear *l, int *n, double m,
    double f, double count, int routed)
{
	double h = c->model.hidden;

	if (c->model.mlp == HW_MLP_SWIGLU) {
		if (cm_split_products(c)) {	/* w1 and w3 apart */
			put(l, n, m, h, f, count, routed);
			put(l, n, m, h, f, count, routed);
		} else {
			put(l, n, m, h, 2 * f, count, routed);
		}
	} else {
		put(l, n, m, h, f, count, routed);
	}
	put(l, n, m, f, h, count, routed);
}

/*
 * Multi-head latent attention's products (hw_mla.c): the down-projections
 * W_DQ (h -> d_c') and W_DKV with W_KR (h -> d_c + d_R) whole on every TP
 * rank (Megatron-Core's linear_q_down_proj and linear_kv_down_proj,
 * parallel_mode 'duplicated': megatron/core/transformer/
 * multi_latent_attention.py, NVIDIA/Megatron-LM at d98e8a64), the
 * up-projections W_UQ (d_c' -> a d_h)
 * and W_UK with W_UV (d_c -> a (d_h - d_R + d_v)) split over TP by heads.
 */
int
cm_mla_linears(const struct cm_config *c, struct cm_linear *l)
{
	const struct hw_model *m = &c->model;
	double M = cm_rank_tokens(c), h = m->hidden, t = c->tp;
	double a = m->heads, dh = hw_head_dim(m), dv = hw_v_head_dim(m);
	int n = 0;

	if (m->q_lora_rank > 0) {
		put(l, &n, M, h, m->q_lora_rank, 1, 0);
		put(l, &n, M, m->q_lora_rank, a * dh / t, 1, 0);
	} else {
		put(l, &n, M, h, a * dh / t, 1, 0);
	}
	put(l, &n, M, h, (double)m->kv_lora_rank + m->rope_head_dim, 1, 0);
	put(l, &n, M, m->kv_lora_rank, a * (dh - m->rope_head_dim + dv) / t,
	    1, 0);
	return n;
}

int
cm_layer_linears(const struct cm_config *c, struct cm_linear *l)
{
	const struct hw_model *m = &c->model;
	double M = cm_rank_tokens(c), h = m->hidden, t = c->tp;
	double q = hw_q_width(m) / t, kv = cm_kv_width(c);
	double up = (m->mlp == HW_MLP_SWIGLU ? 2.0 : 1.0) * m->ffn / t;
	int n = 0;

	/* the dense order is costmodel_time.c's of old: sums stay bit for
	 * bit what they were */
	if (HW_MLA(m)) {
		n = cm_mla_linears(c, l);
		q = m->heads * hw_v_head_dim(m) / t;	/* W_O's input */
	} else if (cm_split_products(c)) {
		put(l, &n, M, h, q, 1, 0);
		put(l, &n, M, h, kv, 1, 0);
		put(l, &n, M, h, kv, 1, 0);
		if (m->experts == 0 && m->mlp == HW_MLP_SWIGLU) {
			up /= 2;
			put(l, &n, M, h, up, 1, 0);
		}
	} else {
		put(l, &n, M, h, q + 2 * kv, 1, 0);
	}
	if (HW_MLA(m) && m->experts == 0 && m->mlp == HW_MLP_SWIGLU &&
	    cm_split_products(c))
		up /= 2;	/* w1 and w3 apart, as the GQA branch does */
	put(l, &n, M, q, h, 1, 0);
	if (m->experts == 0) {
		if (HW_MLA(m) && m->mlp == HW_MLP_SWIGLU &&
		    cm_split_products(c))
			put(l, &n, M, h, up, 1, 0);
		put(l, &n, M, h, up, 1, 0);
		put(l, &n, M, m->ffn / t, h, 1, 0);
		return n;
	}
	put(l, &n, M, h, m->experts, 1, CM_LINEAR_ROUTER);
	/* under EP a rank's E / ep experts take the tokens of ep ranks,
	 * each expert split over expert TP (costmodel_ep.c) */
	mlp(c, l, &n, cm_moe_tokens(c) * m->top_k * cm_ep(c) / m->experts *
	    cm_moe_load(c), (double)m->expert_ffn / cm_etp(c),
	    m->experts / cm_ep(c), CM_LINEAR_EXPERT);
	if (m->shared_experts > 0)
		mlp(c, l, &n, M, (double)m->shared_experts * m->expert_ffn / t,
		    1, 0);
	return n;
}
