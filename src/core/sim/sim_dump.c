/*
 * sim_dump.c - the toy's data, weights and one run's results as JSON.
 *
 * The arrays are written with 17 significant digits, not by cJSON, whose
 * number printer settles for 15 when they read back within an ulp: every
 * double here reads back bit for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/number.h"
#include "core/sim/sim_dump.h"

#define H	SIM_HIDDEN
#define F	SIM_FFN

/*
 * A JSON array of n doubles with 17 significant digits, which read back
 * to the same double; NULL without memory or for a value JSON cannot hold.
 */
static cJSON *
numbers(const double *v, size_t n)
{
	size_t cap = n * 26 + 3, len = 0, i;
	char *text = malloc(cap), num[32];
	cJSON *raw = NULL;

	if (text == NULL)
		return NULL;
	text[len++] = '[';
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			goto out;
		pl_num_c(num, sizeof num, v[i], 'g', 17);
		len += (size_t)snprintf(text + len, cap - len, "%s%s",
		    i > 0 ? "," : "", num);
	}
	snprintf(text + len, cap - len, "]");
	raw = cJSON_CreateRaw(text);
out:
	free(text);
	return raw;
}

/* One layer's parameters in order, as sim_model.h lays them out. */
static cJSON *
layer_layout(void)
{
	static const struct {
		const char	*name;
		int		 rows, cols;	/* cols 0: a vector */
	} p[] = {
		{ "g1", H, 0 }, { "wq", H, H }, { "bq", H, 0 },
		{ "wk", H, H }, { "bk", H, 0 }, { "wv", H, H },
		{ "bv", H, 0 }, { "wo", H, H }, { "bo", H, 0 },
		{ "g2", H, 0 }, { "w1", H, F }, { "b1", F, 0 },
		{ "w2", F, H }, { "b2", H, 0 }
	};
	cJSON *a = cJSON_CreateArray(), *e, *shape;
	size_t i;

	for (i = 0; a != NULL && i < sizeof p / sizeof p[0]; i++) {
		e = cJSON_CreateObject();
		cJSON_AddItemToArray(a, e);
		cJSON_AddStringToObject(e, "name", p[i].name);
		shape = cJSON_AddArrayToObject(e, "shape");
		cJSON_AddItemToArray(shape, cJSON_CreateNumber(p[i].rows));
		if (p[i].cols > 0)
			cJSON_AddItemToArray(shape,
			    cJSON_CreateNumber(p[i].cols));
	}
	return a;
}

static cJSON *
model(void)
{
	cJSON *m = cJSON_CreateObject(), *adam;

	cJSON_AddNumberToObject(m, "layers", SIM_LAYERS);
	cJSON_AddNumberToObject(m, "hidden", SIM_HIDDEN);
	cJSON_AddNumberToObject(m, "heads", SIM_HEADS);
	cJSON_AddNumberToObject(m, "ffn", SIM_FFN);
	cJSON_AddNumberToObject(m, "seq", SIM_SEQ);
	cJSON_AddNumberToObject(m, "batch", SIM_BATCH);
	cJSON_AddNumberToObject(m, "params", SIM_NPARAMS);
	/* The constants of sim_block.c and sim_adam(). */
	cJSON_AddNumberToObject(m, "rmsnorm_eps", 1e-5);
	cJSON_AddStringToObject(m, "gelu", "tanh");
	adam = cJSON_AddObjectToObject(m, "adam");
	cJSON_AddNumberToObject(adam, "lr", 1e-3);
	cJSON_AddNumberToObject(adam, "beta1", 0.9);
	cJSON_AddNumberToObject(adam, "beta2", 0.999);
	cJSON_AddNumberToObject(adam, "eps", 1e-8);
	cJSON_AddItemToObject(m, "layer_params", layer_layout());
	return m;
}

cJSON *
sim_dump_json(const struct sim_config *cfg, const struct sim_result *r)
{
	size_t n = (size_t)SIM_TOKENS * H;
	double *x = malloc(n * sizeof *x), *t = malloc(n * sizeof *t);
	double *init = malloc(SIM_NPARAMS * sizeof *init);
	cJSON *root = NULL;
	char num[32];

	if (x == NULL || t == NULL || init == NULL)
		goto out;
	sim_model_data(x, t);
	sim_model_init(init);
	if ((root = cJSON_CreateObject()) == NULL)
		goto out;
	cJSON_AddStringToObject(root, "mode", sim_mode_name(cfg->mode));
	cJSON_AddNumberToObject(root, "gpus", cfg->gpus);
	cJSON_AddNumberToObject(root, "dp", r->dp);
	cJSON_AddNumberToObject(root, "tp", r->tp);
	cJSON_AddNumberToObject(root, "pp", r->pp);
	cJSON_AddNumberToObject(root, "cp", r->cp);
	cJSON_AddItemToObject(root, "model", model());
	cJSON_AddStringToObject(root, "data_layout",
	    "sequence, position, feature");
	cJSON_AddItemToObject(root, "x", numbers(x, n));
	cJSON_AddItemToObject(root, "target", numbers(t, n));
	cJSON_AddItemToObject(root, "params", numbers(init, SIM_NPARAMS));
	cJSON_AddRawToObject(root, "loss", pl_num_c(num, sizeof num, r->loss,
	    'g', 17));
	cJSON_AddItemToObject(root, "grads", numbers(r->grads, SIM_NPARAMS));
	cJSON_AddItemToObject(root, "params_after",
	    numbers(r->params, SIM_NPARAMS));
	/* A member that failed to build is missing: no half document. */
	if (cJSON_GetArraySize(root) != 14) {
		cJSON_Delete(root);
		root = NULL;
	}
out:
	free(x);
	free(t);
	free(init);
	return root;
}
