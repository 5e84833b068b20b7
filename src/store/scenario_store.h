/*
 * scenario_store.h - attempts at an incident scenario, kept in the
 * answers table (no schema change) under question id "scenario:<id>":
 * correct is the verdict, response the layout as pg_layout_text() writes
 * it, answered the time.
 */
#ifndef PARLEARN_STORE_SCENARIO_STORE_H
#define PARLEARN_STORE_SCENARIO_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "store/db.h"

struct store_scenario_stats {
	int	attempts;		/* checks saved */
	int	failed;			/* of those, failed */
	int	passed;			/* bool: at least one passed */
	char	layout[512];		/* layout of the last pass, or "" */
};

/*
 * Save one graded attempt (in one transaction, as store_answer_add).
 * Returns 0, or -1 with err set.
 */
int	store_scenario_add(struct store *, int64_t profile,
	    const char *drop_id, const char *scenario_id, int passed,
	    const char *layout, double seconds, int64_t now,
	    struct pl_err *err);

/* Read the attempts so far. Returns 0, or -1 with err set. */
int	store_scenario_stats(struct store *, int64_t profile,
	    const char *drop_id, const char *scenario_id,
	    struct store_scenario_stats *out, struct pl_err *err);

#endif
