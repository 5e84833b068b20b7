/*
 * costmodel_layers.c - models whose layers differ: DeepSeek-V3's first 3
 * layers carry a dense MLP of width 18432, the other 58 a mixture of
 * experts (config.json first_k_dense_replace; report arXiv 2412.19437,
 * 4.2). A dense layer and an MoE layer differ in time (no router, no
 * permutation, no all-to-all, one wide MLP instead of small experts) and
 * in memory (18432-wide MLP against 256 experts), so the pipeline's stages
 * are unequal: the dense layers sit at the front of stage 0's first chunk
 * (layers in order, chunk k on stage k mod p: Megatron-Core's interleaved
 * layout). The step runs at the pace of the slowest stage, which is
 * priced as it is (cm_time) rather than as an average layer.
 */
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

void
cm_dense_config(const struct cm_config *c, struct cm_config *d)
{
	*d = *c;
	d->model.experts = d->model.top_k = 0;
	d->model.shared_experts = d->model.expert_ffn = 0;
	d->model.dense_layers = 0;
	d->ep = 1;
	d->etp = 0;
}

/* Dense layers on stage r: the first dense_layers layers in chunk order. */
static int
dense_on(const struct cm_config *c, int r)
{
	int p = c->pp, v = c->virtual_stages, k, at = 0, n, lo, hi, d = 0;
	int left = c->model.dense_layers;

	for (k = 0; k < p * v && at < left; k++) {
		n = cm_chunk_layers(c, k % p, k / p);
		if (k % p == r) {
			lo = at;
			hi = at + n < left ? at + n : left;
			d += hi > lo ? hi - lo : 0;
		}
		at += n;
	}
	return d;
}

int
cm_stage_dense(const struct cm_config *c, int r)
{
	int i, d, least;

	if (c->model.dense_layers <= 0 || c->model.experts == 0)
		return 0;
	if (c->pp == 1)
		return c->model.dense_layers;
	/* all in stage 0's first chunk: the usual case, without the walk */
	if (c->model.dense_layers <= cm_chunk_layers(c, 0, 0))
		return r == 0 ? c->model.dense_layers : 0;
	if (r == 0 || r == c->pp - 1)
		return dense_on(c, r);
	/* a middle stage: the one with the fewest dense layers, the
	 * slowest and the largest of them */
	least = dense_on(c, 1);
	for (i = 2; i < c->pp - 1 && least > 0; i++) {
		d = dense_on(c, i);
		if (d < least)
			least = d;
	}
	return least;
}

/*
 * Stage r's memory with its nd dense layers in place of MoE ones: the
 * parameters a rank holds (*held) and those whose states ZeRO shards
 * (*sharded: the experts counted over TP, costmodel_memory.c), and the
 * activations (*act: the dense layers in flight in proportion to the
 * stage's layers, since they sit in its first chunk). Deltas, 0 for a
 * uniform model. moe_act: cm_act_layer_bytes(c), which the caller has.
 */
void
cm_dense_memory(const struct cm_config *c, int r, int layers, long mb,
    double moe_act, double *held, double *sharded, double *act)
{
	struct cm_config dc;
	int nd = cm_stage_dense(c, r);
	double pd, pm, nm;

	*held = *sharded = *act = 0;
	if (r == c->pp - 1 && c->model.mtp > 0)	/* MTP's projections, by
						 * TP like the layers' */
		*held = *sharded = c->model.mtp *
		    hw_mtp_extra_params(&c->model) / c->tp;
	if (nd <= 0 || layers <= 0)
		return;
	cm_dense_config(c, &dc);
	pd = cm_layer_params_rank(&dc);
	pm = cm_layer_params_rank(c);
	nm = pm;
	if (cm_ep(c) > 1 || cm_etp(c) != c->tp)
		nm += cm_layer_routed_rank(c) - cm_layer_routed_all(c) /
		    (cm_etp(c) * cm_ep(c));
	*held += nd * (pd - pm);
	*sharded += nd * (pd - nm);
	*act = (cm_act_layer_bytes(&dc) - moe_act) *
	    cm_inflight_layers(c, r, layers, mb) * nd / layers;
}

/*
 * One layer's parameters on a rank for hw_mla.c's shapes. MLA: the
 * down-projections and their norms whole on every TP rank (Megatron-Core
 * builds them 'duplicated', multi_latent_attention.py), the
 * up-projections and W_O split by heads. GQA: Q and O split, K and V
 * replicated past t = kv_heads, biases and sinks split with their heads.
 * The MLP split over TP but the router (costmodel_memory.c's rule), the
 * routed experts over EP and expert TP.
 */
double
cm_layer_params_rank_ext(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	double h = m->hidden, t = c->tp, a = m->heads, dh = hw_head_dim(m);
	double dv = hw_v_head_dim(m), norm = m->norm == HW_NORM_RMS ? h : 2 * h;
	double kvr = c->tp <= m->kv_heads ? (double)m->kv_heads / t : 1;
	double attn, mlp, router, p;

	if (HW_MLA(m)) {
		double ql = m->q_lora_rank, kvl = m->kv_lora_rank;

		attn = (ql > 0 ? h * ql + ql : 0) + h * (kvl +
		    m->rope_head_dim) + kvl + ((ql > 0 ? ql : h) * a * dh +
		    kvl * a * (dh - m->rope_head_dim + dv) + a * dv * h) / t;
	} else {
		attn = (h * a * dh + a * dv * h) / t + 2 * h * dh * kvr;
		if (m->qk_norm)
			attn += 2 * dh;
		if (m->biases)
			attn += a * dh / t + 2 * dh * kvr + h;
		if (m->attn_sinks)
			attn += a / t;
	}
	router = m->experts > 0 ? (h + (m->biases ? 1 : 0)) * m->experts : 0;
	mlp = hw_mlp_params_ext(m, 0, 0, 0);
	p = attn + (mlp - router) / t + router + 2 * norm;
	if (m->experts > 0 && (cm_ep(c) > 1 || cm_etp(c) != c->tp))
		p += cm_layer_routed_all(c) / (cm_etp(c) * cm_ep(c)) -
		    cm_layer_routed_rank(c);
	return p;
}

/*
 * What MLA keeps for the backward per layer and micro-batch of sb tokens,
 * 2-byte elements: Q and K at d_h a head, V and the attention output at
 * d_v (split over TP by heads), and the two latents, whole on every rank,
 * each kept as its RMSNorm's input and as the up-projection's (the RoPE
 * key once): DeepSeek-V3 report 3.2.3 recomputes the norms and
 * up-projections to save these; the engine keeps them, as Megatron-Core
 * does without its recompute options.
 */
double
cm_mla_act(const struct cm_config *c, double sb)
{
	const struct hw_model *m = &c->model;
	double a = m->heads, dh = hw_head_dim(m), dv = hw_v_head_dim(m);

	return 2 * sb * a * (2 * dh + 2 * dv) / c->tp + 4 * sb *
	    ((double)m->q_lora_rank + m->kv_lora_rank) + 2 * sb *
	    m->rope_head_dim;
}
