/*
 * cards_session.c - one review session: the cards, the queue, ratings and
 * their undo, shared by the review screen and `parlearn review`.
 *
 * Every rating outside cram is saved at once (card row and log row in one
 * transaction), so quitting at any point loses nothing; the undo stack
 * remembers the log row ids of this session, and an undo deletes the
 * newest one and re-derives the card from the log (store_cards_undo). An
 * undone card comes back as the current card, as in Anki.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "store/cards.h"
#include "store/cards_browse.h"

int
store_review_requeue(struct store *st, struct store_review *r, int64_t now,
    struct pl_err *err)
{
	int64_t day;

	if (r->cram)
		return 0;
	day = review_day(now, r->tz, r->settings.rollover_hour);
	if (store_cards_today(st, r->profile, review_day_start(day, r->tz,
	    r->settings.rollover_hour), &r->today, err) != 0)
		return -1;
	review_queue_free(&r->queue);
	if (review_queue_build(&r->queue, r->set.items, r->set.n, &r->params,
	    &r->settings, &r->today, now, r->tz) != 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	return 0;
}

int
store_review_open(struct store *st, int64_t profile,
    const struct content_course *c, const struct hw_catalog *catalog,
    const char *deck, int cram, int64_t now, struct store_review *r,
    struct pl_err *err)
{
	memset(r, 0, sizeof *r);
	fsrs_params_default(&r->params);
	r->profile = profile;
	r->cram = cram;
	r->tz = store_local_offset(now);
	if (store_cards_unlock(st, profile, c, now, NULL, err) != 0 ||
	    store_review_settings(st, profile, &r->settings, err) != 0 ||
	    store_cards_load(st, profile, c, catalog, deck, &r->set, err) != 0)
		return -1;
	/* Suspended cards (the card browser) are in no queue. */
	if (store_cards_drop_suspended(st, profile, &r->set, err) != 0) {
		store_review_close(r);
		return -1;
	}
	if (cram) {
		if (review_cram_build(&r->queue, r->set.items, r->set.n,
		    &r->params, now) != 0) {
			store_review_close(r);
			pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
			return -1;
		}
		return 0;
	}
	if (store_review_requeue(st, r, now, err) != 0) {
		store_review_close(r);
		return -1;
	}
	return 0;
}

void
store_review_close(struct store_review *r)
{
	store_card_set_free(&r->set);
	review_queue_free(&r->queue);
	free(r->undo);
	memset(r, 0, sizeof *r);
}

struct store_card *
store_review_current(struct store_review *r, struct review_item **item)
{
	size_t i;

	if (r->queue.n == 0)
		return NULL;
	i = r->queue.order[0];
	if (item != NULL)
		*item = &r->set.items[i];
	return &r->set.cards[i];
}

static int
push_undo(struct store_review *r, const struct store_undo *u)
{
	struct store_undo *nu;

	if (r->n_undo == r->cap_undo) {
		r->cap_undo = r->cap_undo ? 2 * r->cap_undo : 16;
		nu = realloc(r->undo, r->cap_undo * sizeof *nu);
		if (nu == NULL)
			return -1;
		r->undo = nu;
	}
	r->undo[r->n_undo++] = *u;
	return 0;
}

int
store_review_rate(struct store *st, struct store_review *r,
    enum fsrs_rating g, int64_t now, int64_t seconds, struct pl_err *err)
{
	struct store_undo u;
	struct review_item *it;
	struct fsrs_card after;
	int rc, tries;

	if (store_review_current(r, &it) == NULL)
		return 0;
	memset(&u, 0, sizeof u);
	u.idx = (size_t)(it - r->set.items);
	u.seconds = seconds;
	for (tries = 0;; tries++) {
		u.before = it->card;
		if (fsrs_review(&r->params, &it->card, g, now, &after,
		    &u.log) != 0) {
			pl_err_set(err, NULL, 0, 0,
			    _("card \"%s\" has a bad stored state"), it->id);
			return -1;
		}
		if (r->cram)
			break;
		rc = store_cards_review(st, r->profile, it->id, &u.before,
		    &after, &u.log, seconds * 1000, &u.log_id, err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		/* Rated elsewhere since we read it: schedule from the
		 * state that is stored now. */
		if (tries >= 8 || store_cards_get(st, r->profile, it->id,
		    &it->card, err) != 1) {
			if (tries >= 8)
				pl_err_set(err, NULL, 0, 0, _("card \"%s\" keeps "
				    "changing under another parlearn"), it->id);
			return -1;
		}
	}
	if (push_undo(r, &u) != 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	review_figures_add(&r->figures, &u.log, seconds, 0);
	if (r->cram) {
		review_cram_rate(&r->queue, g);
		return 0;
	}
	it->card = after;
	return store_review_requeue(st, r, now, err);
}

/* Put item idx first in the queue (removing it from where it was). */
static void
to_front(struct review_queue *q, size_t idx)
{
	size_t i, at = q->n;

	for (i = 0; i < q->n; i++)
		if (q->order[i] == idx)
			at = i;
	if (at == q->n)
		q->n++;		/* order has room for every item */
	memmove(q->order + 1, q->order, at * sizeof *q->order);
	q->order[0] = idx;
}

int
store_review_undo(struct store *st, struct store_review *r, int64_t now,
    struct pl_err *err)
{
	struct store_undo *u;
	struct fsrs_card c;
	int rc;

	if (r->n_undo == 0)
		return 0;
	u = &r->undo[r->n_undo - 1];
	if (!r->cram) {
		rc = store_cards_undo(st, r->profile, u->log_id, &r->params, &c,
		    err);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			pl_err_set(err, NULL, 0, 0, "%s", _("the card was "
			    "reviewed again elsewhere; nothing undone"));
			return -1;
		}
		r->set.items[u->idx].card = c;
		if (store_review_requeue(st, r, now, err) != 0)
			return -1;
	} else if (u->log.rating == FSRS_AGAIN && r->queue.n > 0)
		r->queue.n--;	/* it went to the end */
	review_figures_add(&r->figures, &u->log, u->seconds, 1);
	to_front(&r->queue, u->idx);
	r->n_undo--;
	return 1;
}

int
store_review_counts(struct store *st, int64_t profile,
    const struct content_course *c, int64_t now, int counts[3],
    struct pl_err *err)
{
	struct store_review r;

	counts[0] = counts[1] = counts[2] = 0;
	if (store_review_open(st, profile, c, NULL, NULL, 0, now, &r, err) != 0)
		return -1;
	counts[0] = r.queue.n_new;
	counts[1] = r.queue.n_learning;
	counts[2] = r.queue.n_review;
	store_review_close(&r);
	return 0;
}
