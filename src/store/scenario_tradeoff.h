/*
 * scenario_tradeoff.h - a defense's attempt with the trade-off the
 * learner wrote (drop 14): the attempt is a row of the answers table, as
 * store/scenario_store.h keeps every scenario attempt, and the text a row
 * of scenario_tradeoffs keyed by that answer's id (schema 4).
 */
#ifndef PARLEARN_STORE_SCENARIO_TRADEOFF_H
#define PARLEARN_STORE_SCENARIO_TRADEOFF_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "store/db.h"

/*
 * Save one graded attempt and, when tradeoff is not NULL or empty, its
 * trade-off text, in one transaction. Returns 0, or -1 with err set and
 * nothing saved.
 */
int	store_scenario_add_tradeoff(struct store *, int64_t profile,
	    const char *drop_id, const char *scenario_id, int passed,
	    const char *layout, const char *tradeoff, double seconds,
	    int64_t now, struct pl_err *err);

/*
 * The trade-off of the latest attempt of this scenario that has one, into
 * buf. Returns 1 if found, 0 if none, -1 with err set.
 */
int	store_scenario_tradeoff(struct store *, int64_t profile,
	    const char *drop_id, const char *scenario_id, char *buf,
	    size_t size, struct pl_err *err);

#endif
