/*
 * cards.h - flashcard state, the review log and the learner's own cards.
 *
 * Table cards holds one row per (profile, card) the learner has unlocked:
 * its FSRS state. Table review_log holds every rating (time, elapsed and
 * scheduled days, state, stability and difficulty before and after); the
 * card row is derived from it (store_cards_rebuild() replays the log with
 * fsrs_rebuild and gives the stored row back), and an undo deletes the
 * newest log row and re-derives the card. Table user_cards holds the text
 * of cards that are not in the flashcards/ decks: a self-check question
 * answered wrongly (deck "mistakes", id "q:DROP:QUESTION") and notes
 * imported from Anki's text files (ids "anki:GUID", store/cards_anki.h).
 * Two aggregates kept by triggers
 * (review_slots: reviews per half hour; review_retention: passes per UTC
 * day and interval bucket) let the statistics read a few thousand rows
 * however long the log is.
 *
 * Writes happen in one transaction each and return 0, or -1 with err set
 * and nothing changed. Times are Unix seconds.
 */
#ifndef PARLEARN_STORE_CARDS_H
#define PARLEARN_STORE_CARDS_H

#include <stddef.h>
#include <stdint.h>

#include "core/course/content.h"
#include "core/srs/fsrs.h"
#include "core/engine/hardware.h"
#include "core/srs/review.h"
#include "store/db.h"

#define STORE_MISTAKES_DECK	"mistakes"	/* deck of question cards */

struct store_card {
	char	*id;		/* card id */
	char	*deck;		/* content deck id or the user deck's name */
	char	*front;		/* text as shown */
	char	*back;		/* text as shown, {answer} filled in */
	int	 user;		/* 1: from user_cards (mistake or import) */
};

/* Cards with their states: items[i] belongs to cards[i]. */
struct store_card_set {
	struct store_card	*cards;
	struct review_item	*items;		/* items[i].id is cards[i].id */
	size_t			 n;
};

/*
 * Unlock the course cards whose drop this profile has started: each gets
 * a NEW row (added = now) unless it has one. *added (may be NULL) gets the
 * number of new rows. A read-only store (store_open_read) adds none.
 */
int	store_cards_unlock(struct store *, int64_t profile,
	    const struct content_course *, int64_t now, int *added,
	    struct pl_err *err);

/*
 * Load the profile's cards (all decks, or only deck when it is not NULL),
 * in the order they were unlocked. Rows whose course card has gone from
 * the content are skipped. catalog (may be NULL) computes numeric backs.
 * Free with store_card_set_free().
 */
int	store_cards_load(struct store *, int64_t profile,
	    const struct content_course *, const struct hw_catalog *catalog,
	    const char *deck, struct store_card_set *out, struct pl_err *err);
void	store_card_set_free(struct store_card_set *);

/* The stored state of one card: 1 found, 0 not, -1 error. */
int	store_cards_get(struct store *, int64_t profile, const char *card_id,
	    struct fsrs_card *out, struct pl_err *err);

/*
 * Save a rating: the card's new state and its log row, together, but only
 * if the stored card still holds before, the state after was computed
 * from (an optimistic check: another process may have rated the card
 * since it was read). duration_ms is the time the learner took. *log_id
 * (may be NULL) gets the log row's id, for store_cards_undo(). Returns 0,
 * 1 when the stored card has changed (nothing written: read it again and
 * re-schedule), or -1 with err set.
 */
int	store_cards_review(struct store *, int64_t profile, const char *card_id,
	    const struct fsrs_card *before, const struct fsrs_card *after,
	    const struct fsrs_log *log, int64_t duration_ms, int64_t *log_id,
	    struct pl_err *err);

/*
 * Undo the rating saved as log row log_id: delete it and derive the card
 * from the rows left (with params p). The card's state goes to restored
 * (may be NULL). Only the card's newest row can be undone: 0 on success,
 * 1 if log_id is not that row (nothing changed), -1 on error.
 */
int	store_cards_undo(struct store *, int64_t profile, int64_t log_id,
	    const struct fsrs_params *p, struct fsrs_card *restored,
	    struct pl_err *err);

/*
 * The card's state as its log says, replayed with params p (a card with
 * no log is NEW, due when added). Reads only; 1 found, 0 no such card, -1.
 */
int	store_cards_rebuild(struct store *, int64_t profile, const char *card_id,
	    const struct fsrs_params *p, struct fsrs_card *out,
	    struct pl_err *err);

/* New cards and reviews rated since day_start (the limits' counters). */
int	store_cards_today(struct store *, int64_t profile, int64_t day_start,
	    struct review_today *out, struct pl_err *err);

/* Review settings of the profile (defaults where unset); save all three. */
int	store_review_settings(struct store *, int64_t profile,
	    struct review_settings *out, struct pl_err *err);
int	store_review_settings_save(struct store *, int64_t profile,
	    const struct review_settings *, struct pl_err *err);

/*
 * Make a card of a self-check question answered wrongly (deck "mistakes";
 * a second wrong answer keeps the existing card). expected: the numeric
 * answer, or NAN.
 */
int	store_cards_add_question(struct store *, int64_t profile,
	    const char *drop_id, const struct content_question *q,
	    double expected, int64_t now, struct pl_err *err);

/*
 * Save an answer to a self-check question and, when card is set, its
 * card in the mistakes deck (store_cards_add_question), in one
 * transaction: both or neither. The caller sets card for a substantive
 * miss only: a wrong answer that ends the question's counting tries or
 * comes after them (quiz_counting_tries), or a reveal graded missed or
 * partly; never a miss the learner may still correct.
 * *attempt_out (may be NULL) gets the attempt number.
 */
int	store_cards_answer(struct store *, int64_t profile,
	    const char *drop_id, const struct content_question *q, int correct,
	    int card, const char *response, double seconds, double expected,
	    int64_t now, int *attempt_out, struct pl_err *err);

#define STORE_DECK_MAX_CHARS	100	/* a deck name, in characters */

/* Importing notes into decks of the learner's own: store/cards_anki.h. */

/* Each user deck with its card count, by name. */
int	store_user_decks(struct store *, int64_t profile,
	    void (*fn)(const char *deck, int n, void *arg), void *arg,
	    struct pl_err *err);

/* Fill s (see review_stats_init) from the cards and the aggregates. */
int	store_review_stats(struct store *, int64_t profile, int64_t now,
	    int tz_offset_s, int rollover_hour, struct review_stats *s,
	    struct pl_err *err);

/* The local UTC offset at now, seconds east (for review_day()). */
int	store_local_offset(int64_t now);

/* --- a review session (cards_session.c) ------------------------------------ */

struct store_undo {
	size_t		 idx;		/* item rated */
	int64_t		 log_id;	/* its log row (0 in cram) */
	struct fsrs_card before;	/* its state before */
	struct fsrs_log	 log;		/* the rating */
	int64_t		 seconds;	/* time it took */
};

/*
 * What the review screen and `parlearn review` work on: the cards, the
 * settings, today's counters and the queue. In cram mode (cram set) the
 * queue holds every card of the deck and ratings change nothing stored.
 */
struct store_review {
	struct store_card_set	 set;
	struct fsrs_params	 params;	/* defaults: fuzz on */
	struct review_settings	 settings;
	struct review_today	 today;
	struct review_queue	 queue;
	struct review_figures	 figures;	/* this session */
	struct store_undo	*undo;		/* ratings, oldest first */
	size_t			 n_undo, cap_undo;
	int			 tz;		/* local UTC offset, s */
	int			 cram;
	int64_t			 profile;
};

/*
 * Unlock the cards of started drops, load the profile's cards (of deck, or
 * all when NULL) and build the queue at now. 0, or -1 with err set.
 */
int	store_review_open(struct store *, int64_t profile,
	    const struct content_course *, const struct hw_catalog *catalog,
	    const char *deck, int cram, int64_t now, struct store_review *r,
	    struct pl_err *err);
void	store_review_close(struct store_review *r);
/* Re-read today's counters and rebuild the queue at now (not in cram). */
int	store_review_requeue(struct store *, struct store_review *r,
	    int64_t now, struct pl_err *err);
/* The card to show now, or NULL when the queue is empty. */
struct store_card	*store_review_current(struct store_review *r,
			    struct review_item **item);
/*
 * Rate the current card with g at now (seconds: time spent on it): save
 * state and log (not in cram), count it, rebuild the queue. When another
 * process has rated the card since it was loaded, the stored state is read
 * again and the rating applied to it, never to the stale copy.
 */
int	store_review_rate(struct store *, struct store_review *r,
	    enum fsrs_rating g, int64_t now, int64_t seconds, struct pl_err *err);
/*
 * Today's queue sizes for a menu entry: counts[0] new, [1] learning,
 * [2] due reviews (after unlocking the cards of started drops).
 */
int	store_review_counts(struct store *, int64_t profile,
	    const struct content_course *, int64_t now, int counts[3],
	    struct pl_err *err);
/* Undo the session's last rating: 1 undone, 0 nothing to undo, -1. */
int	store_review_undo(struct store *, struct store_review *r, int64_t now,
	    struct pl_err *err);

#endif
