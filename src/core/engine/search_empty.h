/*
 * search_empty.h - why the layout search found nothing to evaluate, and
 * the nearest GPU counts that would give it something.
 *
 * cm_search enumerates TP (a power of two dividing the GPUs, up to 8 per
 * node's worth), PP dividing the rest and the layers, DP the remainder,
 * then micro-batches and schedules; a layout is valid when TP divides the
 * heads, PP splits the layers (evenly or at most 2 short) and micro-batch
 * x DP divides the global batch. When no layout of the grid is valid,
 * "0 layouts evaluated" says nothing; cm_search_why_empty names, for each
 * (TP, PP, DP) of the grid, the first of those rules it breaks, and finds
 * the nearest GPU counts below and above with a valid layout.
 */
#ifndef PARLEARN_CORE_SEARCH_EMPTY_H
#define PARLEARN_CORE_SEARCH_EMPTY_H

#include "core/engine/costmodel.h"

#define CM_EMPTY_MAX	4
#define CM_EMPTY_LEN	256

struct cm_empty_reason {
	const char	*code;		/* "batch_indivisible", "layers_uneven",
					 * "heads_indivisible", "tp_power_of_two"
					 * (stable, never translated) */
	char		 text[CM_EMPTY_LEN];	/* translated sentence */
};

struct cm_empty {
	int			n;		/* reasons; 0: some layout is valid */
	struct cm_empty_reason	reasons[CM_EMPTY_MAX];
	int			gpus_below;	/* nearest count with a valid
						 * layout, or 0 */
	int			gpus_above;	/* the same above, or 0 */
};

/*
 * Fill out for base (its model, GPUs, GPUs per node, global batch). Returns
 * out->n: 0 when the search has at least one valid layout to evaluate.
 */
int	cm_search_why_empty(const struct cm_config *base, struct cm_empty *out);

/* 1 if the search grid for base holds a valid layout at all. */
int	cm_search_has_layout(const struct cm_config *base);

#endif
