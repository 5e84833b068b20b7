/*
 * cards_browse.h - what the card browser stores: suspended cards.
 *
 * A suspended card keeps its state and its review log (column
 * cards.suspended, schema version 3) but is left out of every queue:
 * store_review_open() drops it from the session, so review, cram, the
 * home screen's counts and `parlearn review` skip it, and the statistics
 * leave it out of the counts by state and the forecast. Unsuspending puts
 * it back where its schedule says, as Anki does.
 *
 * Functions return 0, or -1 with err set and nothing changed.
 */
#ifndef PARLEARN_STORE_CARDS_BROWSE_H
#define PARLEARN_STORE_CARDS_BROWSE_H

#include <stdint.h>

#include "store/cards.h"

/* Suspend (on = 1) or unsuspend (on = 0) one of the profile's cards.
 * -1 with err if the profile has no such card. */
int	store_cards_suspend(struct store *, int64_t profile,
	    const char *card_id, int on, struct pl_err *err);

/* flags[i] = 1 if set->cards[i] is suspended, else 0 (flags holds set->n). */
int	store_cards_suspended_flags(struct store *, int64_t profile,
	    const struct store_card_set *set, int *flags, struct pl_err *err);

/* Remove the suspended cards from set, keeping the order of the rest. */
int	store_cards_drop_suspended(struct store *, int64_t profile,
	    struct store_card_set *set, struct pl_err *err);

/* How many of the profile's cards are suspended. */
int	store_cards_count_suspended(struct store *, int64_t profile, int *n,
	    struct pl_err *err);

#endif
