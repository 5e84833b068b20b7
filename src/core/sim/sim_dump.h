/*
 * sim_dump.h - the toy's numbers as JSON, for a second implementation to
 * check (examples/pytorch/): the fixed batch, the initial parameters, and
 * one run's loss, gradients and updated parameters, every double exact.
 */
#ifndef PARLEARN_CORE_SIM_DUMP_H
#define PARLEARN_CORE_SIM_DUMP_H

#include <cjson/cJSON.h>

#include "core/sim/sim.h"

/*
 * The document of `parlearn trace --dump-weights FILE` (schema
 * parlearn.weights/1, without its "schema" member) for run r of cfg, or
 * NULL without memory.
 */
cJSON	*sim_dump_json(const struct sim_config *cfg,
	    const struct sim_result *r);

#endif
