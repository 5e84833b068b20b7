/*
 * review_json.h - `parlearn review --list --json`: the queue the review
 * screen would serve, as the document parlearn.review-list/1.
 */
#ifndef PARLEARN_CLI_REVIEW_JSON_H
#define PARLEARN_CLI_REVIEW_JSON_H

#include <stdint.h>

#include "store/cards.h"

/* Print r's queue (every unlocked card when all) on stdout; 0 or 2. */
int	review_list_json(const struct store_review *r, int all, int64_t now);

#endif
