/*
 * hw_moe.c - the parts of a model's shape beyond the dense GPT/Llama
 * block: a head size that is not hidden / heads, Q/K norms, and a
 * mixture-of-experts MLP (models.json keys head_dim, qk_norm, experts,
 * top_k, shared_experts, expert_ffn).
 *
 * A mixture-of-experts layer replaces the MLP by E routed experts, each
 * an MLP of inner size f_e, a router (a linear h -> E whose top k scores
 * pick each token's experts; GShard, arXiv 2006.16668; Switch
 * Transformer, arXiv 2101.03961) and optionally shared experts every
 * token passes through (DeepSeekMoE, arXiv 2401.06066). A token's MLP
 * work is that of k + shared experts, so its "active" parameters are
 * those; the memory holds all E.
 */
#include <string.h>

#include "core/engine/hardware.h"
#include "i18n.h"
#include "core/json.h"

#define HW_MAX_EXPERTS	4096

double
hw_head_dim(const struct hw_model *m)
{
	if (m->head_dim > 0)
		return m->head_dim;
	return m->heads > 0 ? (double)m->hidden / m->heads : 0;
}

double
hw_q_width(const struct hw_model *m)
{
	return m->heads * hw_head_dim(m);
}

int
hw_parse_model_moe(const cJSON *o, struct hw_model *m, const char *file,
    const char *path, struct pl_err *err)
{
	long hd = 0, e = 0, k = 0, sh = 0, fe = 0;

	if (pl_json_int(o, "head_dim", 0, 1, 1L << 20, &hd, file, path,
	    err) != 0 ||
	    pl_json_bool(o, "qk_norm", 0, &m->qk_norm, file, path, err) != 0 ||
	    pl_json_int(o, "experts", 0, 2, HW_MAX_EXPERTS, &e, file, path,
	    err) != 0 ||
	    pl_json_int(o, "top_k", 0, 1, HW_MAX_EXPERTS, &k, file, path,
	    err) != 0 ||
	    pl_json_int(o, "shared_experts", 0, 0, 64, &sh, file, path,
	    err) != 0 ||
	    pl_json_int(o, "expert_ffn", 0, 1, 1L << 24, &fe, file, path,
	    err) != 0)
		return -1;
	m->head_dim = (int)hd;
	m->experts = (int)e;
	m->top_k = (int)k;
	m->shared_experts = (int)sh;
	m->expert_ffn = (int)fe;
	return 0;
}

int
hw_model_check_moe(const struct hw_model *m, struct pl_err *err)
{
	if (m->experts == 0) {
		if (m->top_k != 0 || m->shared_experts != 0 ||
		    m->expert_ffn != 0) {
			pl_err_set(err, NULL, 0, 0, "%s",
			    _("top_k, shared_experts and expert_ffn need "
			    "experts (a mixture-of-experts model)"));
			return -1;
		}
		return 0;
	}
	if (m->experts < 2 || m->top_k < 1 || m->top_k > m->experts) {
		pl_err_set(err, NULL, 0, 0,
		    _("a mixture of experts needs at least 2 experts and top_k "
		    "from 1 to the experts (%d)"), m->experts);
		return -1;
	}
	if (m->expert_ffn < 1) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("a mixture of experts needs expert_ffn, one expert's MLP "
		    "inner size"));
		return -1;
	}
	return 0;
}

/* Inner width a token's MLP work runs at: f, or (k + shared) f_e. */
double
hw_mlp_token_width(const struct hw_model *m)
{
	if (m->experts == 0)
		return m->ffn;
	return (double)(m->top_k + m->shared_experts) * m->expert_ffn;
}

/*
 * MLP parameters of one layer, matrices only (c h f, c = 3 SwiGLU, 2
 * GeLU): all E experts, the shared ones and the router's h x E when
 * active is 0; the k experts a token uses, the shared ones and the router
 * when active is 1.
 */
double
hw_mlp_params(const struct hw_model *m, int active)
{
	double c = m->mlp == HW_MLP_SWIGLU ? 3 : 2, h = m->hidden;

	if (m->experts == 0)
		return c * h * m->ffn;
	return c * h * m->expert_ffn * ((active ? m->top_k : m->experts) +
	    m->shared_experts) + h * m->experts;
}

int
hw_split_ffn(const struct hw_model *m)
{
	return m->experts > 0 ? m->expert_ffn : m->ffn;
}
