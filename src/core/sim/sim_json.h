/*
 * sim_json.h - a training step's timeline and results as JSON, both ways.
 *
 * One format for a simulated step (`parlearn trace --json`) and a
 * measured one (`parlearn run --json`, `-o run.json`): the config, the
 * model's sizes, loss and errors against one device, bubble, bytes, step
 * time, every event and memory sample. A measured step adds an object
 * "measured" (struct sim_origin). `parlearn trace --from FILE` reads
 * either back.
 */
#ifndef PARLEARN_CORE_SIM_JSON_H
#define PARLEARN_CORE_SIM_JSON_H

#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/sim/sim.h"

/* Where a timeline came from. */
struct sim_origin {
	int	 measured;	/* 1: real processes (parlearn run), 0: simulator */
	int	 processes;	/* MPI ranks */
	int	 hosts;		/* distinct host names among them */
	char	 library[128];	/* the MPI library, one line */
	int	 profiler;	/* 1: read from torch.profiler traces
				 * (torch_trace.h): no loss, the ranks'
				 * clocks aligned on the collectives */
};

/*
 * The step as a JSON object (caller frees with cJSON_Delete); origin NULL
 * or not measured leaves "measured" out. NULL on ENOMEM.
 */
cJSON	*sim_result_json(const struct sim_config *, const struct sim_result *,
	    const struct sim_origin *);

/*
 * Read such an object (file names it in errors). Fills cfg (with the
 * default cost), res (its timeline finished again: idle gaps recomputed,
 * sorted; the gradient and parameter arrays zero, as JSON does not carry
 * them) and origin (may be NULL). Returns 0, or -1 with err naming the
 * file and the JSON path; res is then empty and safe to free.
 */
int	sim_result_from_json(const cJSON *, const char *file,
	    struct sim_config *, struct sim_result *, struct sim_origin *,
	    struct pl_err *);

#endif
