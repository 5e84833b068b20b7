/*
 * lab_emit.c - an emit step: the layout a lab asks students to write as a
 * launch config with `parlearn plan --emit`, and the check of the file
 * they submit (the layout read back by emit_read.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/emit.h"
#include "core/engine/emit_read.h"
#include "core/engine/hardware.h"
#include "core/json.h"
#include "core/lab/lab.h"

#define DEFAULT_GPU	"h100-80gb"

static int
axis(const cJSON *o, const char *key, int req, long lo, long hi, int *out,
    const char *file, const char *path, struct pl_err *err)
{
	long v = 0;

	if (pl_json_int(o, key, req, lo, hi, &v, file, path, err) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

int
lab_emit_parse(const cJSON *st, struct lab_step *s, const char *file,
    const char *parent, struct pl_err *err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(st, "emit"), *t;
	struct lab_emit *e = &s->emit;
	const char *model = NULL, *gpu = NULL;
	char path[256], tpath[256];
	long gb = 0;
	int i;

	pl_json_path_key(path, sizeof path, parent, "emit");
	if ((o == NULL) != (s->kind != LAB_STEP_EMIT) ||
	    (o != NULL && !cJSON_IsObject(o))) {
		pl_err_set_path(err, file, path, "%s", _("an emit step needs an "
		    "\"emit\" object, and only an emit step has one"));
		return -1;
	}
	if (o == NULL)
		return 0;
	if (pl_json_string(o, "model", 1, &model, file, path, err) != 0 ||
	    pl_json_string(o, "gpu", 0, &gpu, file, path, err) != 0 ||
	    axis(o, "gpus", 1, 1, 1 << 20, &e->gpus, file, path, err) != 0 ||
	    axis(o, "dp", 1, 1, 1 << 20, &e->dp, file, path, err) != 0 ||
	    axis(o, "tp", 0, 1, 1024, &e->tp, file, path, err) != 0 ||
	    axis(o, "pp", 0, 1, 1024, &e->pp, file, path, err) != 0 ||
	    axis(o, "cp", 0, 1, 1024, &e->cp, file, path, err) != 0 ||
	    axis(o, "ep", 0, 1, 1024, &e->ep, file, path, err) != 0 ||
	    axis(o, "zero", 0, 0, 3, &e->zero, file, path, err) != 0 ||
	    axis(o, "micro_batch", 0, 1, 1 << 16, &e->micro_batch, file, path,
	    err) != 0 || pl_json_int(o, "global_batch", 0, 1, 1L << 30, &gb,
	    file, path, err) != 0)
		return -1;
	e->tp = e->tp ? e->tp : 1;
	e->pp = e->pp ? e->pp : 1;
	e->cp = e->cp ? e->cp : 1;
	e->micro_batch = e->micro_batch ? e->micro_batch : 1;
	e->global_batch = gb;
	if ((long)e->dp * e->tp * e->pp * e->cp != e->gpus) {
		pl_err_set_path(err, file, path, _("dp x tp x pp x cp is %ld, "
		    "not the %d GPUs"), (long)e->dp * e->tp * e->pp * e->cp,
		    e->gpus);
		return -1;
	}
	t = cJSON_GetObjectItemCaseSensitive(o, "targets");
	pl_json_path_key(tpath, sizeof tpath, path, "targets");
	if (t != NULL && (!cJSON_IsArray(t) || cJSON_GetArraySize(t) == 0)) {
		pl_err_set_path(err, file, tpath, "%s", _("must be a list of "
		    "torchtitan, megatron, deepspeed, sbatch"));
		return -1;
	}
	for (i = 0; t != NULL && i < cJSON_GetArraySize(t); i++) {
		const cJSON *it = cJSON_GetArrayItem(t, i);
		enum emit_kind k;

		if (!cJSON_IsString(it) ||
		    emit_kind_parse(it->valuestring, &k) != 0) {
			pl_err_set_path(err, file, tpath, "%s", _("must be a "
			    "list of torchtitan, megatron, deepspeed, sbatch"));
			return -1;
		}
		e->targets |= 1u << k;
	}
	if ((e->model = strdup(model)) == NULL ||
	    (gpu != NULL && (e->gpu = strdup(gpu)) == NULL))
		return -1;
	return 0;
}

void
lab_emit_free(struct lab_emit *e)
{
	free(e->model);
	free(e->gpu);
}

const char *
lab_emit_layout(const struct lab_step *s, char *buf, size_t size)
{
	const struct lab_emit *e = &s->emit;

	snprintf(buf, size, _("DP %d, TP %d, PP %d, CP %d, EP %d, ZeRO %d, "
	    "micro-batch %d, global batch %ld"), e->dp, e->tp, e->pp, e->cp,
	    e->ep > 0 ? e->ep : 1, e->zero, e->micro_batch, e->global_batch);
	return buf;
}

const char *
lab_emit_targets(const struct lab_step *s, char *buf, size_t size)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < EMIT_N && n < size; k++)
		if (s->emit.targets == 0 || (s->emit.targets & (1u << k)))
			n += (size_t)snprintf(buf + n, size - n, "%s%s",
			    n ? ", " : "", emit_kind_names[k]);
	return buf;
}

int
lab_emit_check(const struct lab_step *s, const struct hw_catalog *cat,
    const char *text, size_t len, const char *file, struct pl_err *err)
{
	const struct lab_emit *e = &s->emit;
	const struct hw_model *m = hw_model_find(cat, e->model);
	const struct hw_gpu *g = hw_gpu_find(cat, e->gpu ? e->gpu : DEFAULT_GPU);
	struct emit_layout got;
	struct cm_config c;

	if (s->kind != LAB_STEP_EMIT || m == NULL || g == NULL) {
		pl_err_set(err, file, 0, 0, "%s", _("the step names no model "
		    "or GPU this catalog knows"));
		return -1;
	}
	if (emit_read(text, len, file, &got, err) != 0)
		return -1;
	if (e->targets != 0 && !(e->targets & (1u << got.kind))) {
		pl_err_set(err, file, 0, 0, _("a %s config; this step asks "
		    "for another target"), emit_kind_names[got.kind]);
		return 0;
	}
	cm_config_default(&c, m, g);
	c.gpus = e->gpus;
	c.dp = e->dp;
	c.tp = e->tp;
	c.pp = e->pp;
	c.cp = e->cp;
	c.ep = e->ep;
	c.zero = e->zero;
	c.micro_batch = e->micro_batch;
	if (e->global_batch > 0)
		c.global_batch = e->global_batch;
	return emit_read_check(&got, &c, file, err) == 0 ? 1 : 0;
}
