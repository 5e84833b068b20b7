/*
 * hw_mla.c - model shapes past hw_moe.c's: multi-head latent attention,
 * dense first layers before the MoE ones, multi-token prediction,
 * sliding-window layers and attention sinks (models.json keys
 * q_lora_rank, kv_lora_rank, rope_head_dim, v_head_dim, dense_layers,
 * mtp, sliding_window, window_every, attn_sinks).
 *
 * MLA (DeepSeek-V2, arXiv 2405.04434, 2.1; DeepSeek-V3 report, arXiv
 * 2412.19437, 2.1.1, eqs. 1-11): Q = W_UQ RMSNorm(W_DQ x) (W_DQ h x d_c',
 * W_UQ d_c' x a d_h), the keys' and values' latent c_KV = W_DKV x (h x
 * d_c) plus one RoPE key k_R = W_KR x (h x d_R) shared by all heads,
 * normed, then K and V per head from it (W_UK, W_UV: d_c x a (d_h - d_R)
 * and d_c x a d_v), the output W_O a d_v x h. d_h here is the query-key
 * width a head, nope + rope (DeepSeek-V3: 128 + 64).
 *
 * DeepSeek-V3's first 3 layers are dense (config.json
 * first_k_dense_replace 3, intermediate_size 18432), the rest MoE. An MTP
 * module at depth k (report 2.2, eq. 21-23) shares the embedding and the
 * output head, and adds two RMSNorms, a projection M_k of 2h x h and one
 * transformer layer (DeepSeek-V3's is an MoE layer, README_WEIGHTS.md:
 * model.layers.61 "structure identical to the Main Model hidden layers").
 *
 * GPT-OSS (openai/gpt-oss-120b config.json; gpt-oss model card, arXiv
 * 2508.10925, 2): layers alternate a 128-token banded window and full
 * attention; each head has a learned sink logit in the softmax's
 * denominator; the attention's projections, the router and every expert
 * carry biases.
 */
#include "core/engine/hardware.h"
#include "i18n.h"
#include "core/json.h"

int
hw_model_extended(const struct hw_model *m)
{
	return HW_MLA(m) || m->dense_layers > 0 || m->mtp > 0 ||
	    m->attn_sinks || m->sliding_window > 0 ||
	    (m->experts > 0 && m->biases);
}

double
hw_v_head_dim(const struct hw_model *m)
{
	return m->v_head_dim > 0 ? m->v_head_dim : hw_head_dim(m);
}

double
hw_attn_params(const struct hw_model *m, int matrices)
{
	double h = m->hidden, a = m->heads, dh = hw_head_dim(m);
	double dv = hw_v_head_dim(m), p, kv = m->kv_heads * dh;

	if (!HW_MLA(m)) {
		p = h * a * dh + 2 * h * kv + a * dv * h;
		if (matrices)
			return p;
		if (m->qk_norm)
			p += 2 * dh;
		if (m->biases)
			p += a * dh + 2 * kv + h;
		if (m->attn_sinks)
			p += a;
		return p;
	}
	if (m->q_lora_rank > 0)
		p = h * m->q_lora_rank + m->q_lora_rank * a * dh;
	else
		p = h * a * dh;
	p += h * (m->kv_lora_rank + m->rope_head_dim) +
	    m->kv_lora_rank * a * (dh - m->rope_head_dim + dv) + a * dv * h;
	if (!matrices)	/* the two latents' RMSNorms */
		p += m->kv_lora_rank + m->q_lora_rank;
	return p;
}

/* The MLP's parameters: dense width ffn, or the experts (hw_moe.c). */
double
hw_mlp_params_ext(const struct hw_model *m, int dense, int active, int matrices)
{
	double c = m->mlp == HW_MLP_SWIGLU ? 3 : 2, h = m->hidden, p, n;

	if (dense || m->experts == 0)
		return c * h * m->ffn + (m->biases && !matrices ?
		    (c - 1) * m->ffn + h : 0);
	p = hw_mlp_params(m, active);
	if (m->biases && !matrices) {	/* the experts' and router's */
		n = (active ? m->top_k : m->experts) + m->shared_experts;
		p += n * ((c - 1) * m->expert_ffn + h) + m->experts;
	}
	return p;
}

double
hw_layer_params(const struct hw_model *m, int dense, int active)
{
	double norm = m->norm == HW_NORM_RMS ? m->hidden : 2.0 * m->hidden;

	return hw_attn_params(m, 0) + hw_mlp_params_ext(m, dense, active, 0) +
	    2 * norm;
}

double
hw_mtp_extra_params(const struct hw_model *m)
{
	double h = m->hidden;

	return 2 * h * h + 2 * h;
}

double
hw_matmul_params(const struct hw_model *m)
{
	double h = m->hidden, moe = m->layers - m->dense_layers;
	double lm = hw_attn_params(m, 1) + hw_mlp_params_ext(m, 0, 1, 1);
	double ld = hw_attn_params(m, 1) + hw_mlp_params_ext(m, 1, 1, 1);

	/* each MTP module runs its layer, its projection and the shared
	 * output head again on every token */
	return moe * lm + m->dense_layers * ld + (double)m->vocab * h +
	    m->mtp * (lm + 2 * h * h + (double)m->vocab * h);
}

double
hw_attn_width(const struct hw_model *m)
{
	double w = m->heads * (hw_head_dim(m) + hw_v_head_dim(m)) / 2;
	double full = 1, L = m->layers;

	if (m->sliding_window > 0 && m->sliding_window < m->seq) {
		/* 1 in window_every layers full, the rest see the window */
		double nfull = m->window_every > 0 ? (double)(m->layers +
		    m->window_every - 1) / m->window_every : 0;
		int nf = (int)nfull;

		full = (nf + (L - nf) * (double)m->sliding_window / m->seq) /
		    L;
	}
	return w * full;
}

int
hw_parse_model_mla(const cJSON *o, struct hw_model *m, const char *file,
    const char *path, struct pl_err *err)
{
	long ql = 0, kvl = 0, rope = 0, dv = 0, dl = 0, mtp = 0, sw = 0;
	long we = 0;

	if (pl_json_int(o, "q_lora_rank", 0, 1, 1L << 20, &ql, file, path,
	    err) != 0 ||
	    pl_json_int(o, "kv_lora_rank", 0, 1, 1L << 20, &kvl, file, path,
	    err) != 0 ||
	    pl_json_int(o, "rope_head_dim", 0, 1, 1L << 20, &rope, file, path,
	    err) != 0 ||
	    pl_json_int(o, "v_head_dim", 0, 1, 1L << 20, &dv, file, path,
	    err) != 0 ||
	    pl_json_int(o, "dense_layers", 0, 0, 1L << 20, &dl, file, path,
	    err) != 0 ||
	    pl_json_int(o, "mtp", 0, 0, 16, &mtp, file, path, err) != 0 ||
	    pl_json_int(o, "sliding_window", 0, 1, 1L << 30, &sw, file, path,
	    err) != 0 ||
	    pl_json_int(o, "window_every", 0, 1, 1L << 20, &we, file, path,
	    err) != 0 ||
	    pl_json_bool(o, "attn_sinks", 0, &m->attn_sinks, file, path,
	    err) != 0)
		return -1;
	m->q_lora_rank = (int)ql;
	m->kv_lora_rank = (int)kvl;
	m->rope_head_dim = (int)rope;
	m->v_head_dim = (int)dv;
	m->dense_layers = (int)dl;
	m->mtp = (int)mtp;
	m->sliding_window = (int)sw;
	m->window_every = (int)we;
	return 0;
}

int
hw_model_check_mla(const struct hw_model *m, struct pl_err *err)
{
	if (!HW_MLA(m) && (m->q_lora_rank || m->rope_head_dim)) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("q_lora_rank and rope_head_dim need kv_lora_rank "
		    "(multi-head latent attention)"));
		return -1;
	}
	if (HW_MLA(m) && (m->rope_head_dim >= hw_head_dim(m) ||
	    m->kv_heads != m->heads)) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("latent attention needs rope_head_dim below head_dim "
		    "and kv_heads equal to heads"));
		return -1;
	}
	if (m->dense_layers > 0 && (m->experts == 0 ||
	    m->dense_layers >= m->layers)) {
		pl_err_set(err, NULL, 0, 0,
		    _("dense_layers needs a mixture of experts and fewer than "
		    "the %d layers"), m->layers);
		return -1;
	}
	return 0;
}
