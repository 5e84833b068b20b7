/*
 * scenario_store.h - attempts at an incident scenario, kept in the
 * answers table (no schema change) under question id "scenario:<id>":
 * correct is the verdict, response the layout as pg_layout_text() writes
 * it, answered the time; a check's prediction is appended to the layout
 * (";predicted=0.097;prediction=ok" or "=off"). Each diagnosis committed
 * is a row of its own under "scenario:<id>#diagnosis": correct is whether
 * it named the right cause, response the option number (1-based).
 */
#ifndef PARLEARN_STORE_SCENARIO_STORE_H
#define PARLEARN_STORE_SCENARIO_STORE_H

#define STORE_DIAGNOSIS_SUFFIX	"#diagnosis"

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "store/db.h"

struct store_scenario_stats {
	int	attempts;		/* checks saved */
	int	failed;			/* of those, failed */
	int	passed;			/* bool: at least one passed */
	int	predictions_off;	/* checks whose prediction was off */
	int	diagnosis;		/* last committed option, 0-based,
					 * or -1 */
	int	diagnosis_right;	/* bool: that one was right */
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

/* Save one committed diagnosis (option 0-based). 0, or -1 with err. */
int	store_scenario_diagnose(struct store *, int64_t profile,
	    const char *drop_id, const char *scenario_id, int option,
	    int right, double seconds, int64_t now, struct pl_err *err);

/* Read the attempts so far. Returns 0, or -1 with err set. */
int	store_scenario_stats(struct store *, int64_t profile,
	    const char *drop_id, const char *scenario_id,
	    struct store_scenario_stats *out, struct pl_err *err);

#endif
