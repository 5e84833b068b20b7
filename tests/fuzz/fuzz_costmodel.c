/*
 * fuzz_costmodel.c - libFuzzer target for the cost model's JSON config
 * (a lesson's or scenario's "config"), in memory, with the real GPU and
 * model catalog: cm_config_from_json refuses or fills a config, and a
 * config it accepts is evaluated (cm_evaluate), never crashing, never
 * overflowing (UBSan), never leaving a NaN in a result it calls valid.
 *   tests/fuzz/fuzz_costmodel -max_total_time=300 CORPUS tests/fuzz/seeds/costmodel
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/json.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct hw_catalog	cat;
static int			have_cat;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cm_result r;
	struct cm_config cfg;
	struct pl_err err;
	char *text;
	cJSON *o;

	if (!have_cat) {
		if (hw_catalog_load(&cat, TOP_SRCDIR "/data", &err) != 0)
			abort();
		have_cat = 1;
	}
	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	o = pl_json_parse(text, "c.json", &err);
	free(text);
	if (o == NULL)
		return 0;
	if (cm_config_from_json(&cfg, o, &cat, "c.json", "config", &err) == 0 &&
	    cm_evaluate(&cfg, &r, &err) == 0) {
		if (!isfinite(r.t_step) || !isfinite(r.mfu) || r.t_step < 0)
			abort();
	}
	cJSON_Delete(o);
	return 0;
}
