/*
 * scr_playground.c - the cost-model playground (placeholder until the
 * playground screen lands: says what it will do).
 */
#include "i18n.h"
#include "tui/app.h"
#include "tui/ui.h"

static const char *const playground_body[] = {
	N_("The cost-model playground is coming in a later version of parlearn."),
	N_("Here you will turn every knob of a training run (model, GPUs, data, tensor and pipeline degrees, ZeRO stage, recomputation, micro-batch) and watch memory per GPU, communication time, the pipeline bubble and throughput change at once."),
	N_("Meanwhile, 'parlearn plan --help' shows what the engine can compute from the command line."),
	NULL
};

struct ui_screen *
ui_playground_new(struct app *a, const struct content_scenario *sc,
    const char *drop_id)
{
	(void)a;
	(void)sc;
	(void)drop_id;
	return ui_info_new(N_("Cost-model playground"), playground_body);
}
