/*
 * hardware.c - loading and checking the GPU and model catalogs.
 *
 * gpus.json holds {"gpus": [...]}, each entry in the units people quote
 * (memory_mib, peak_tflops, hbm_gbps ...); the loader converts them to SI
 * base units once so the cost model never converts again. models.json holds
 * {"models": [...]} with the architecture of each preset. A malformed entry
 * stops the load with "FILE: PATH.KEY: message".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "core/safetext.h"
#include "core/engine/hardware.h"
#include "core/json.h"

#define MIB	1048576.0
#define GB	1e9
#define TERA	1e12
#define US	1e-6

/* Copy the required "name" field into dst (HW_NAME_MAX bytes). */
static int
get_name(const cJSON *o, const char *key, char *dst, size_t size,
    const char *file, const char *path, struct pl_err *err)
{
	const char *s = NULL;
	char p[256];

	if (pl_json_string(o, key, 1, &s, file, path, err) != 0)
		return -1;
	if (*s == '\0' || strlen(s) >= size) {
		pl_err_set_path(err, file, pl_json_path_key(p, sizeof p, path,
		    key), _("must be 1 to %zu characters"), size - 1);
		return -1;
	}
	/* a user's file may carry any bytes; names reach terminals and
	 * JSON as they are */
	if (!safetext_text_ok(s, size - 1, 0)) {
		pl_err_set_path(err, file, pl_json_path_key(p, sizeof p, path,
		    key), "%s", _("must be text without control characters"));
		return -1;
	}
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

/* A required positive number, multiplied by scale. */
static int
get_pos(const cJSON *o, const char *key, double scale, double *out,
    const char *file, const char *path, struct pl_err *err)
{
	double v;

	if (pl_json_number(o, key, 1, 1e-9, 1e9, &v, file, path, err) != 0)
		return -1;
	*out = v * scale;
	return 0;
}

static int get_int(const cJSON *, const char *, int, int *, const char *,
    const char *, struct pl_err *);
static int get_word(const cJSON *, const char *, const char *const *, int *,
    const char *, const char *, struct pl_err *);

/* Optional "sm_count" and "arch" (absent: unknown). */
static int
parse_gpu_arch(const cJSON *o, struct hw_gpu *g, const char *file,
    const char *path, struct pl_err *err)
{
	static const char *const arch[] = { "unknown", "volta", "ampere",
	    "hopper", "blackwell", NULL };

	if (get_int(o, "sm_count", 0, &g->sm_count, file, path, err) != 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(o, "arch") == NULL)
		return 0;
	return get_word(o, "arch", arch, &g->arch, file, path, err);
}

const char *const hw_measured_keys[HW_MEAS_N] = { "nvlink_efficiency",
	"nvls_gbps", "intra_latency_us", "inter_gbps", "inter_latency_us",
	"gemm_efficiency" };

/* Optional "measured": {key: how, ...}, keys of hw_measured_keys. */
static int
parse_measured(const cJSON *o, struct hw_gpu *g, const char *file,
    const char *path, struct pl_err *err)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "measured"), *it;
	char p[256], q[300];
	int i;

	if (m == NULL)
		return 0;
	pl_json_path_key(p, sizeof p, path, "measured");
	if (!cJSON_IsObject(m)) {
		pl_err_set_path(err, file, p, "%s", _("must be an object"));
		return -1;
	}
	cJSON_ArrayForEach(it, m) {
		for (i = 0; i < HW_MEAS_N; i++)
			if (strcmp(it->string, hw_measured_keys[i]) == 0)
				break;
		if (i == HW_MEAS_N || !cJSON_IsString(it)) {
			pl_json_path_key(q, sizeof q, p, it->string);
			pl_err_set_path(err, file, q, "%s", i == HW_MEAS_N ?
			    _("is not a figure parlearn calibrate fits") :
			    _("must be a string"));
			return -1;
		}
		g->measured |= 1u << i;
	}
	return 0;
}

int
hw_parse_gpu(const cJSON *o, struct hw_gpu *g, const char *file,
    const char *path, struct pl_err *err)
{
	memset(g, 0, sizeof *g);
	if (get_name(o, "name", g->name, sizeof g->name, file, path, err) ||
	    get_name(o, "label", g->label, sizeof g->label, file, path, err) ||
	    get_pos(o, "memory_mib", MIB, &g->mem_bytes, file, path, err) ||
	    get_pos(o, "peak_tflops", TERA, &g->peak_flops, file, path, err) ||
	    get_pos(o, "fp32_tflops", TERA, &g->fp32_flops, file, path, err) ||
	    get_pos(o, "hbm_gbps", GB, &g->hbm_bw, file, path, err) ||
	    get_pos(o, "nvlink_gbps", GB, &g->nvlink_bw, file, path, err) ||
	    get_pos(o, "inter_gbps", GB, &g->inter_bw, file, path, err) ||
	    get_pos(o, "intra_latency_us", US, &g->intra_lat_s, file, path,
	    err) ||
	    get_pos(o, "inter_latency_us", US, &g->inter_lat_s, file, path,
	    err))
		return -1;
	if (pl_json_number(o, "gemm_efficiency", 1, 0.01, 1.0, &g->gemm_eff,
	    file, path, err) != 0)
		return -1;
	g->flash2_ratio = 1.0;
	if (pl_json_number(o, "flash2_ratio", 0, 0.01, 1.0, &g->flash2_ratio,
	    file, path, err) != 0)
		return -1;
	g->nvlink_eff = HW_NVLINK_EFF;
	if (pl_json_number(o, "nvlink_efficiency", 0, 0.01, 1.0,
	    &g->nvlink_eff, file, path, err) != 0)
		return -1;
	g->nvls_bw = 0;
	if (pl_json_number(o, "nvls_gbps", 0, 0, 1e5, &g->nvls_bw, file, path,
	    err) != 0)
		return -1;
	g->nvls_bw *= GB;
	if (pl_json_number(o, "fp8_tflops", 0, 0, 1e6, &g->fp8_flops, file,
	    path, err) != 0 || pl_json_bool(o, "mx_formats", 0, &g->mx_formats,
	    file, path, err) != 0)
		return -1;
	g->fp8_flops *= TERA;
	if (pl_json_number(o, "tdp_w", 0, 0, 1e5, &g->tdp_w, file, path,
	    err) != 0 || get_int(o, "gpus_per_node", 0, &g->node_gpus, file,
	    path, err) != 0 || get_int(o, "nvlink_domain", 0, &g->domain_gpus,
	    file, path, err) != 0 || parse_measured(o, g, file, path, err) != 0)
		return -1;
	return parse_gpu_arch(o, g, file, path, err);
}

/* One of words[] (NULL-terminated) into *out as its index. */
static int
get_word(const cJSON *o, const char *key, const char *const *words, int *out,
    const char *file, const char *path, struct pl_err *err)
{
	const char *s = NULL;
	char p[256];
	int i;

	if (pl_json_string(o, key, 1, &s, file, path, err) != 0)
		return -1;
	for (i = 0; words[i] != NULL; i++) {
		if (strcmp(s, words[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	pl_err_set_path(err, file, pl_json_path_key(p, sizeof p, path, key),
	    _("unknown value \"%s\""), s);
	return -1;
}

static int
get_int(const cJSON *o, const char *key, int req, int *out, const char *file,
    const char *path, struct pl_err *err)
{
	long v = *out;

	if (pl_json_int(o, key, req, 1, 100000000L, &v, file, path, err) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int
parse_model_bools(const cJSON *o, struct hw_model *m, const char *file,
    const char *path, struct pl_err *err)
{
	if (pl_json_bool(o, "tied", 1, &m->tied, file, path, err) ||
	    pl_json_bool(o, "learned_pos", 1, &m->learned_pos, file, path,
	    err) ||
	    pl_json_bool(o, "biases", 1, &m->biases, file, path, err) ||
	    pl_json_bool(o, "dropout", 1, &m->dropout, file, path, err))
		return -1;
	return 0;
}

static int
parse_model(const cJSON *o, struct hw_model *m, const char *file,
    const char *path, struct pl_err *err)
{
	static const char *const mlps[] = { "gelu", "swiglu", NULL };
	static const char *const norms[] = { "layernorm", "rmsnorm", NULL };
	int mlp = 0, norm = 0;

	memset(m, 0, sizeof *m);
	if (get_name(o, "name", m->name, sizeof m->name, file, path, err) ||
	    get_int(o, "layers", 1, &m->layers, file, path, err) ||
	    get_int(o, "hidden", 1, &m->hidden, file, path, err) ||
	    get_int(o, "heads", 1, &m->heads, file, path, err) ||
	    get_int(o, "kv_heads", 1, &m->kv_heads, file, path, err) ||
	    get_int(o, "ffn", 1, &m->ffn, file, path, err) ||
	    get_int(o, "vocab", 1, &m->vocab, file, path, err) ||
	    get_int(o, "seq", 1, &m->seq, file, path, err) ||
	    get_word(o, "mlp", mlps, &mlp, file, path, err) ||
	    get_word(o, "norm", norms, &norm, file, path, err) ||
	    parse_model_bools(o, m, file, path, err) ||
	    hw_parse_model_moe(o, m, file, path, err) ||
	    hw_parse_model_mla(o, m, file, path, err) ||
	    pl_json_int(o, "global_batch", 0, 1, 100000000L, &m->global_batch,
	    file, path, err))
		return -1;
	m->mlp = (enum hw_mlp)mlp;
	m->norm = (enum hw_norm)norm;
	if (hw_model_check(m, err) != 0) {
		char msg[sizeof err->msg];

		memcpy(msg, err->msg, sizeof msg);
		pl_err_set_path(err, file, path, "%s", msg);
		return -1;
	}
	return 0;
}

/*
 * Shared walk over {"<key>": [ {...}, ... ]}: grows *arr (elements of
 * size elsize) and calls parse on each entry. Rejects duplicate names,
 * which every entry type stores first.
 */
static int
load_array(const char *file, const char *key, void **arr, size_t *n,
    size_t elsize, int (*parse)(const cJSON *, void *, const char *,
    const char *, struct pl_err *), struct pl_err *err)
{
	cJSON *root, *list, *it;
	char path[256];
	int i = 0, rc = -1;

	if ((root = pl_json_load(file, err)) == NULL)
		return -1;
	list = cJSON_GetObjectItemCaseSensitive(root, key);
	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
		pl_err_set_path(err, file, key, "%s",
		    _("must be a non-empty array"));
		goto out;
	}
	cJSON_ArrayForEach(it, list) {
		char *na, *el;
		size_t j;

		pl_json_path_index(path, sizeof path, key, i++);
		if (!cJSON_IsObject(it)) {
			pl_err_set_path(err, file, path, "%s",
			    _("must be an object"));
			goto out;
		}
		if ((na = realloc(*arr, (*n + 1) * elsize)) == NULL) {
			pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
			goto out;
		}
		*arr = na;
		el = na + *n * elsize;
		if (parse(it, el, file, path, err) != 0)
			goto out;
		for (j = 0; j < *n; j++) {
			if (strcmp(na + j * elsize, el) == 0) {
				pl_err_set_path(err, file, path,
				    _("duplicate name \"%s\""), el);
				goto out;
			}
		}
		(*n)++;
	}
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

static int
parse_gpu_cb(const cJSON *o, void *el, const char *file, const char *path,
    struct pl_err *err)
{
	return hw_parse_gpu(o, el, file, path, err);
}

static int
parse_model_cb(const cJSON *o, void *el, const char *file, const char *path,
    struct pl_err *err)
{
	return parse_model(o, el, file, path, err);
}

int
hw_load_gpus(struct hw_catalog *cat, const char *path, struct pl_err *err)
{
	void *arr = cat->gpus;
	int rc;

	rc = load_array(path, "gpus", &arr, &cat->n_gpus, sizeof *cat->gpus,
	    parse_gpu_cb, err);
	cat->gpus = arr;
	return rc;
}

int
hw_load_models(struct hw_catalog *cat, const char *path, struct pl_err *err)
{
	void *arr = cat->models;
	int rc;

	rc = load_array(path, "models", &arr, &cat->n_models,
	    sizeof *cat->models, parse_model_cb, err);
	cat->models = arr;
	return rc;
}

int
hw_catalog_load(struct hw_catalog *cat, const char *data_dir,
    struct pl_err *err)
{
	char path[4096];

	memset(cat, 0, sizeof *cat);
	snprintf(path, sizeof path, "%s/gpus.json", data_dir);
	if (hw_load_gpus(cat, path, err) != 0)
		goto fail;
	snprintf(path, sizeof path, "%s/models.json", data_dir);
	if (hw_load_models(cat, path, err) != 0)
		goto fail;
	return 0;
fail:
	hw_catalog_free(cat);
	return -1;
}

void
hw_catalog_free(struct hw_catalog *cat)
{
	if (cat == NULL)
		return;
	free(cat->gpus);
	free(cat->models);
	memset(cat, 0, sizeof *cat);
}

const struct hw_gpu *
hw_gpu_find(const struct hw_catalog *cat, const char *name)
{
	size_t i;

	for (i = 0; i < cat->n_gpus; i++)
		if (strcmp(cat->gpus[i].name, name) == 0)
			return &cat->gpus[i];
	return NULL;
}

const struct hw_model *
hw_model_find(const struct hw_catalog *cat, const char *name)
{
	size_t i;

	for (i = 0; i < cat->n_models; i++)
		if (strcmp(cat->models[i].name, name) == 0)
			return &cat->models[i];
	return NULL;
}

int
hw_model_check(const struct hw_model *m, struct pl_err *err)
{
	if (m->layers < 1 || m->hidden < 1 || m->heads < 1 ||
	    m->kv_heads < 1 || m->ffn < 1 || m->vocab < 1 || m->seq < 1) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("layers, hidden, heads, kv_heads, ffn, vocab and seq "
		    "must all be positive"));
		return -1;
	}
	if (m->head_dim == 0 && m->hidden % m->heads != 0) {
		pl_err_set(err, NULL, 0, 0,
		    _("heads (%d) must divide hidden (%d)"), m->heads,
		    m->hidden);
		return -1;
	}
	if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
		pl_err_set(err, NULL, 0, 0,
		    _("kv_heads (%d) must divide heads (%d)"), m->kv_heads,
		    m->heads);
		return -1;
	}
	if (hw_model_check_moe(m, err) != 0)
		return -1;
	return hw_model_check_mla(m, err);
}

/*
 * Dynamic power P = a C V^2 f, and across a GPU's DVFS range the voltage
 * rises about in step with the clock, so P grows as f^3 and the clock a
 * power cap allows as the cap's cube root: the textbook CMOS dynamic-power
 * relation under DVFS, not a fit. (H100 SM clocks under caps of 200-700 W
 * are measured in arXiv 2604.11391; their figures are not used here.)
 * Static and HBM power are ignored, so this is the mildest slowdown a cap
 * can cause; HBM bandwidth is not scaled.
 */
double
hw_power_clock(double tdp_w, double cap_w)
{
	if (tdp_w <= 0)
		return -1;
	return cap_w >= tdp_w ? 1.0 : cbrt(cap_w / tdp_w);
}

const char *
hw_mlp_name(enum hw_mlp m)
{
	return m == HW_MLP_SWIGLU ? "swiglu" : "gelu";
}

const char *
hw_norm_name(enum hw_norm n)
{
	return n == HW_NORM_RMS ? "rmsnorm" : "layernorm";
}
