/*
 * costmodel_json.c - the cost model's words and JSON: option words to
 * enums, a lesson's "config" object to a struct cm_config, and a result to
 * the `parlearn plan --json` contract. The keys are the CLI's option names
 * with '_' for '-'.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/framework.h"
#include "core/json.h"

static const char *const rc_w[] = { "none", "selective", "full", NULL };
static const char *const opt_w[] = { "adam", "sgd", NULL };
static const char *const prec_w[] = { "bf16", "fp32", NULL };
static const char *const attn_w[] = { "flash", "plain", NULL };
static const char *const mlp_w[] = { "gelu", "swiglu", NULL };

static int
word(const char *const *w, const char *s)
{
	int i;

	for (i = 0; s != NULL && w[i] != NULL; i++)
		if (strcmp(w[i], s) == 0)
			return i;
	return -1;
}

const char *
cm_recompute_name(enum cm_recompute v)
{
	return rc_w[v];
}

const char *
cm_optimizer_name(enum cm_optimizer v)
{
	return opt_w[v];
}

const char *
cm_precision_name(enum cm_precision v)
{
	return prec_w[v];
}

const char *
cm_attention_name(enum cm_attention v)
{
	return attn_w[v];
}

#define PARSER(fn, type, words)					\
int								\
fn(const char *s, type *out)					\
{								\
	int i = word(words, s);					\
								\
	if (i < 0)						\
		return -1;					\
	*out = (type)i;						\
	return 0;						\
}
PARSER(cm_recompute_parse, enum cm_recompute, rc_w)
PARSER(cm_optimizer_parse, enum cm_optimizer, opt_w)
PARSER(cm_precision_parse, enum cm_precision, prec_w)
PARSER(cm_attention_parse, enum cm_attention, attn_w)
PARSER(cm_mlp_parse, enum hw_mlp, mlp_w)

static const char *const known_keys[] = {
	"model", "params", "layers", "hidden", "heads", "kv_heads", "ffn",
	"vocab", "seq", "gpu", "gpus", "gpus_per_node", "intra_bw", "inter_bw",
	"global_batch", "micro_batch", "dp", "tp", "pp", "zero", "recompute",
	"seq_parallel", "schedule", "virtual_stages", "optimizer", "precision",
	"attention", "mlp", "pp_scatter_gather", "headroom", "any_framework",
	NULL
};

/* An optional int key into *out (kept when absent). */
static int
opt_int(const cJSON *o, const char *key, long lo, long hi, int *out,
    const char *file, const char *path, struct pl_err *err)
{
	long v = *out;

	if (pl_json_int(o, key, 0, lo, hi, &v, file, path, err) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* An optional word key: parse with fn into out. */
static int
opt_word(const cJSON *o, const char *key, const char *const *words, int *out,
    const char *file, const char *path, struct pl_err *err)
{
	const char *s = NULL;
	char p[256];
	int i;

	if (pl_json_string(o, key, 0, &s, file, path, err) != 0)
		return -1;
	if (s == NULL)
		return 0;
	if ((i = word(words, s)) < 0) {
		pl_err_set_path(err, file, pl_json_path_key(p, sizeof p, path,
		    key), _("unknown value \"%s\""), s);
		return -1;
	}
	*out = i;
	return 0;
}

/* Model preset and GPU first, so the other keys override them. */
static int
base_from_json(struct cm_config *c, const cJSON *o,
    const struct hw_catalog *cat, const char *file, const char *path,
    struct pl_err *err)
{
	const char *mname = NULL, *gname = NULL;
	const struct hw_model *m = NULL;
	const struct hw_gpu *g = hw_gpu_find(cat, "h100-80gb");
	char p[256];

	if (pl_json_string(o, "model", 0, &mname, file, path, err) != 0 ||
	    pl_json_string(o, "gpu", 0, &gname, file, path, err) != 0)
		return -1;
	if (mname != NULL && (m = hw_model_find(cat, mname)) == NULL) {
		pl_err_set_path(err, file, pl_json_path_key(p, sizeof p, path,
		    "model"), _("unknown model \"%s\""), mname);
		return -1;
	}
	if (gname != NULL && (g = hw_gpu_find(cat, gname)) == NULL) {
		pl_err_set_path(err, file, pl_json_path_key(p, sizeof p, path,
		    "gpu"), _("unknown GPU \"%s\""), gname);
		return -1;
	}
	cm_config_default(c, m, g);
	if (m == NULL)
		strcpy(c->model.name, "custom");
	return 0;
}

static int
model_from_json(struct cm_config *c, const cJSON *o, const char *file,
    const char *path, struct pl_err *err)
{
	struct hw_model *m = &c->model;
	int mlp = (int)m->mlp;
	const long big = 100000000L;

	if (pl_json_number(o, "params", 0, 1, 1e16, &m->params, file, path,
	    err) ||
	    opt_int(o, "layers", 1, big, &m->layers, file, path, err) ||
	    opt_int(o, "hidden", 1, big, &m->hidden, file, path, err) ||
	    opt_int(o, "heads", 1, big, &m->heads, file, path, err) ||
	    opt_int(o, "kv_heads", 1, big, &m->kv_heads, file, path, err) ||
	    opt_int(o, "ffn", 1, big, &m->ffn, file, path, err) ||
	    opt_int(o, "vocab", 1, big, &m->vocab, file, path, err) ||
	    opt_int(o, "seq", 1, big, &m->seq, file, path, err) ||
	    opt_word(o, "mlp", mlp_w, &mlp, file, path, err))
		return -1;
	m->mlp = (enum hw_mlp)mlp;
	if (cJSON_GetObjectItemCaseSensitive(o, "heads") != NULL &&
	    cJSON_GetObjectItemCaseSensitive(o, "kv_heads") == NULL)
		m->kv_heads = m->heads;
	return 0;
}

static int
cluster_from_json(struct cm_config *c, const cJSON *o, const char *file,
    const char *path, struct pl_err *err)
{
	const long big = 10000000L;
	double intra = c->intra_bw / 1e9, inter = c->inter_bw / 1e9;
	long gb = c->global_batch;

	if (opt_int(o, "gpus", 1, big, &c->gpus, file, path, err) ||
	    opt_int(o, "gpus_per_node", 1, 1024, &c->gpus_per_node, file,
	    path, err) ||
	    pl_json_number(o, "intra_bw", 0, 1e-3, 1e6, &intra, file, path,
	    err) ||
	    pl_json_number(o, "inter_bw", 0, 1e-3, 1e6, &inter, file, path,
	    err) ||
	    pl_json_int(o, "global_batch", 0, 1, big, &gb, file, path, err) ||
	    opt_int(o, "micro_batch", 1, big, &c->micro_batch, file, path,
	    err) ||
	    opt_int(o, "dp", 1, big, &c->dp, file, path, err) ||
	    opt_int(o, "tp", 1, big, &c->tp, file, path, err) ||
	    opt_int(o, "pp", 1, big, &c->pp, file, path, err))
		return -1;
	c->intra_bw = intra * 1e9;
	c->inter_bw = inter * 1e9;
	c->global_batch = gb;
	return 0;
}

static int
training_from_json(struct cm_config *c, const cJSON *o, const char *file,
    const char *path, struct pl_err *err)
{
	int rc = (int)c->recompute, sch = (int)c->schedule;
	int opt = (int)c->optimizer, prec = (int)c->precision;
	int attn = (int)c->attention;

	if (opt_int(o, "zero", 0, 3, &c->zero, file, path, err) ||
	    opt_word(o, "recompute", rc_w, &rc, file, path, err) ||
	    pl_json_bool(o, "seq_parallel", 0, &c->seq_parallel, file, path,
	    err) ||
	    pl_json_bool(o, "pp_scatter_gather", 0, &c->pp_scatter_gather,
	    file, path, err) ||
	    opt_word(o, "schedule", pipe_schedule_names, &sch, file, path, err) ||
	    opt_int(o, "virtual_stages", 1, 1000, &c->virtual_stages, file,
	    path, err) ||
	    opt_word(o, "optimizer", opt_w, &opt, file, path, err) ||
	    opt_word(o, "precision", prec_w, &prec, file, path, err) ||
	    opt_word(o, "attention", attn_w, &attn, file, path, err) ||
	    pl_json_number(o, "headroom", 0, 0, 0.9, &c->headroom, file, path,
	    err) ||
	    pl_json_bool(o, "any_framework", 0, &c->any_framework, file, path,
	    err))
		return -1;
	c->recompute = (enum cm_recompute)rc;
	c->schedule = (enum pipe_schedule)sch;
	c->optimizer = (enum cm_optimizer)opt;
	c->precision = (enum cm_precision)prec;
	c->attention = (enum cm_attention)attn;
	return 0;
}

int
cm_config_from_json(struct cm_config *c, const cJSON *o,
    const struct hw_catalog *cat, const char *file, const char *path,
    struct pl_err *err)
{
	const cJSON *it;
	char p[256];

	if (!cJSON_IsObject(o)) {
		pl_err_set_path(err, file, path, "%s", _("must be an object"));
		return -1;
	}
	cJSON_ArrayForEach(it, o) {
		if (word(known_keys, it->string) < 0) {
			pl_err_set_path(err, file, pl_json_path_key(p,
			    sizeof p, path, it->string), "%s",
			    _("unknown key"));
			return -1;
		}
	}
	if (base_from_json(c, o, cat, file, path, err) ||
	    model_from_json(c, o, file, path, err) ||
	    cluster_from_json(c, o, file, path, err) ||
	    training_from_json(c, o, file, path, err))
		return -1;
	if (hw_model_check(&c->model, err) != 0) {
		char msg[sizeof err->msg];

		memcpy(msg, err->msg, sizeof msg);
		pl_err_set_path(err, file, path, "%s", msg);
		return -1;
	}
	return 0;
}

static void
add_layout(cJSON *o, const struct cm_result *r)
{
	const struct cm_config *c = &r->cfg;
	cJSON *l = cJSON_AddObjectToObject(o, "layout");

	cJSON_AddNumberToObject(l, "dp", c->dp);
	cJSON_AddNumberToObject(l, "tp", c->tp);
	cJSON_AddNumberToObject(l, "pp", c->pp);
	cJSON_AddNumberToObject(l, "zero", c->zero);
	cJSON_AddNumberToObject(l, "microbatches", (double)r->microbatches);
	cJSON_AddNumberToObject(l, "micro_batch", c->micro_batch);
	cJSON_AddStringToObject(l, "schedule", pipe_schedule_name(c->schedule));
	cJSON_AddNumberToObject(l, "virtual_stages", c->virtual_stages);
	cJSON_AddStringToObject(l, "recompute",
	    cm_recompute_name(c->recompute));
	cJSON_AddBoolToObject(l, "seq_parallel", c->seq_parallel);
}

static void
add_memory(cJSON *o, const struct cm_result *r)
{
	cJSON *m = cJSON_AddObjectToObject(o, "memory_bytes");

	cJSON_AddNumberToObject(m, "parameters", r->mem_params);
	cJSON_AddNumberToObject(m, "gradients", r->mem_grads);
	cJSON_AddNumberToObject(m, "optimizer", r->mem_optim);
	cJSON_AddNumberToObject(m, "activations", r->mem_act);
	cJSON_AddNumberToObject(m, "other", r->mem_other);
	cJSON_AddNumberToObject(m, "total", r->mem_total);
	cJSON_AddNumberToObject(o, "gpu_memory_bytes", r->mem_gpu);
	cJSON_AddNumberToObject(o, "usable_memory_bytes", r->mem_usable);
	cJSON_AddBoolToObject(o, "fits", r->fits);
}

static void
add_time(cJSON *o, const struct cm_result *r)
{
	cJSON *t = cJSON_AddObjectToObject(o, "time_s");

	cJSON_AddNumberToObject(t, "compute", r->t_compute);
	cJSON_AddNumberToObject(t, "tp_comm", r->t_tp);
	cJSON_AddNumberToObject(t, "pp_comm", r->t_pp);
	cJSON_AddNumberToObject(t, "dp_comm", r->t_dp);
	cJSON_AddNumberToObject(t, "exposed_comm", r->t_exposed_comm);
	cJSON_AddNumberToObject(t, "bubble", r->t_bubble);
	cJSON_AddNumberToObject(t, "optimizer", r->t_optimizer);
	cJSON_AddNumberToObject(t, "step", r->t_step);
}

static const char *const effect_w[] = { "note", "win", "loss" };

static void
add_reasons(cJSON *o, const struct cm_result *r)
{
	cJSON *rs = cJSON_AddArrayToObject(o, "reasons"), *one;
	int i;

	for (i = 0; i < r->n_reasons; i++) {
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "code", r->reasons[i].code);
		cJSON_AddStringToObject(one, "effect",
		    effect_w[r->reasons[i].effect]);
		if (r->reasons[i].vs > 0)
			cJSON_AddNumberToObject(one, "vs_row", r->reasons[i].vs);
		cJSON_AddStringToObject(one, "text", r->reasons[i].text);
		cJSON_AddItemToArray(rs, one);
	}
}

static void
add_frameworks(cJSON *o, const struct cm_result *r)
{
	cJSON *a = cJSON_AddArrayToObject(o, "frameworks");
	int i;

	for (i = 0; i < FW_N; i++)
		if (r->frameworks & FW_BIT(i))
			cJSON_AddItemToArray(a,
			    cJSON_CreateString(fw_name((enum fw_id)i)));
}

cJSON *
cm_result_json(const struct cm_result *r)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL)
		return NULL;
	cJSON_AddStringToObject(o, "model", r->cfg.model.name);
	cJSON_AddStringToObject(o, "gpu", r->cfg.gpu.name);
	cJSON_AddNumberToObject(o, "gpus", r->cfg.gpus);
	cJSON_AddNumberToObject(o, "params", r->params);
	add_layout(o, r);
	add_memory(o, r);
	cJSON_AddNumberToObject(o, "bubble_fraction", r->bubble_fraction);
	add_time(o, r);
	cJSON_AddNumberToObject(o, "tokens_per_s", r->tokens_per_s);
	cJSON_AddNumberToObject(o, "tflops_per_gpu", r->tflops_per_gpu);
	cJSON_AddNumberToObject(o, "hw_tflops_per_gpu", r->hw_tflops_per_gpu);
	cJSON_AddNumberToObject(o, "mfu", r->mfu);
	cJSON_AddNumberToObject(o, "headroom", r->headroom);
	add_frameworks(o, r);
	if (r->rank > 0) {
		cJSON_AddNumberToObject(o, "rank", r->rank);
		cJSON_AddBoolToObject(o, "tie", r->tied);
	}
	add_reasons(o, r);
	return o;
}

cJSON *
cm_search_json(const struct cm_search *s)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	const struct cm_config *c = s->n_top > 0 ? &s->top[0].cfg :
	    &s->closest.cfg;
	int i;

	if (o == NULL)
		return NULL;
	arr = cJSON_AddArrayToObject(o, "candidates");
	for (i = 0; i < s->n_top; i++)
		cJSON_AddItemToArray(arr, cm_result_json(&s->top[i]));
	cJSON_AddNumberToObject(o, "evaluated", (double)s->evaluated);
	cJSON_AddNumberToObject(o, "fitting", (double)s->fitting);
	cJSON_AddNumberToObject(o, "excluded_headroom",
	    (double)s->low_headroom);
	cJSON_AddNumberToObject(o, "excluded_framework",
	    (double)s->no_framework);
	cJSON_AddNumberToObject(o, "ranked", (double)s->eligible);
	if (s->n_top > 0 || s->have_closest) {
		cJSON_AddNumberToObject(o, "headroom", c->headroom);
		cJSON_AddBoolToObject(o, "any_framework", c->any_framework);
	}
	cJSON_AddNumberToObject(o, "tie_tolerance", CM_TIE_TOL);
	if (s->n_top == 0 && s->have_closest)
		cJSON_AddItemToObject(o, "closest",
		    cm_result_json(&s->closest));
	return o;
}
