/*
 * review.h - flashcard review: the daily queue, limits, undo, cram,
 * statistics and the card text, as pure functions over card states (Anki's
 * note files are core/srs/anki.h).
 *
 * The store (store/cards.h) loads each card's FSRS state into a
 * struct review_item array; the review screen and `parlearn review` build
 * the same struct review_queue from it, and the statistics screen and
 * `parlearn stats` print the same struct review_stats through
 * review_stats_lines(). Nothing here reads a clock or a file: times are
 * Unix seconds given by the caller, and a "day" is a learner's local day
 * that starts at the rollover hour (Anki's "next day starts at", default
 * 4 am), computed from a UTC offset the caller supplies.
 *
 * Where parlearn follows Anki (reference/srs.md §3.2, §5): 20 new cards and
 * 200 reviews a day; learning cards first, then reviews by due time, then
 * new cards; learning cards due within 20 minutes are shown ahead when
 * nothing else is left; only reviews of review-state cards count against
 * the review limit, and the review limit also caps new cards (Anki v3).
 */
#ifndef PARLEARN_CORE_REVIEW_H
#define PARLEARN_CORE_REVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "core/course/content.h"
#include "core/err.h"
#include "core/srs/fsrs.h"
#include "core/engine/hardware.h"

#define REVIEW_NEW_PER_DAY	20	/* Anki default */
#define REVIEW_REVIEWS_PER_DAY	200	/* Anki default */
#define REVIEW_ROLLOVER_HOUR	4	/* day starts at 4 am local */
#define REVIEW_LEARN_AHEAD_S	1200	/* Anki's learn-ahead limit, 20 min */
#define REVIEW_FORECAST_DAYS	30	/* days in the due forecast */
#define REVIEW_HEATMAP_DAYS	365	/* days in the review heatmap */
#define REVIEW_N_AGES		4	/* interval buckets for true retention */
#define REVIEW_MAX_LIMIT	99999	/* largest daily limit accepted */

struct review_settings {
	int	new_per_day;		/* 0 .. REVIEW_MAX_LIMIT */
	int	reviews_per_day;	/* 0 .. REVIEW_MAX_LIMIT */
	int	rollover_hour;		/* 0 .. 23, local time */
};

void	review_settings_default(struct review_settings *);
/* 0, or -1 with err naming the setting that is out of range. */
int	review_settings_check(const struct review_settings *,
	    struct pl_err *err);

/*
 * The local day number of time t: whole days since 1970-01-01 in local
 * time shifted back by the rollover hour. tz_offset_s is the local UTC
 * offset in seconds (east positive). review_day_start() is the Unix time
 * at which that day begins.
 */
int64_t	review_day(int64_t t, int tz_offset_s, int rollover_hour);
int64_t	review_day_start(int64_t day, int tz_offset_s, int rollover_hour);

/* Stable FSRS card id (fuzz seed) for a text card id: 63-bit FNV-1a. */
int64_t	review_card_seed(const char *card_id);

/* One card as the queue sees it. */
struct review_item {
	const char	*id;		/* card id, borrowed */
	struct fsrs_card card;		/* its scheduling state */
	int64_t		 added;		/* Unix s it was unlocked; new-card order */
};

/* What was already done today, counted from the review log. */
struct review_today {
	int	new_done;	/* new cards rated for the first time */
	int	reviews_done;	/* ratings of cards in the REVIEW state */
};

struct review_queue {
	size_t	*order;		/* indices into the items, in serving order */
	size_t	 n;
	int	 n_learning;	/* learning cards due before the day ends */
	int	 n_review;	/* reviews in the queue */
	int	 n_new;		/* new cards in the queue */
	int	 due_total;	/* reviews due today, before the limit */
	int	 backlog;	/* due reviews left for later days (over the limit) */
	int	 backlog_days;	/* days the backlog takes at the daily limit */
	int64_t	 next_learning;	/* due of the next learning card not yet in
				   the queue today, or 0 */
	int	 cram;		/* built by review_cram_build */
};

/*
 * Build today's queue at time now: learning cards due now (by due time),
 * then reviews due today up to the remaining review limit, then new cards
 * (in added order) up to the remaining new limit, then learning cards due
 * within REVIEW_LEARN_AHEAD_S. When more reviews are due than the limit
 * allows, the queue takes those with the lowest retrievability first and
 * serves them in that order; the rest are the backlog, reported in
 * backlog/backlog_days and left due (they are served on later days, again
 * the least likely remembered first). Returns 0, or -1 when out of memory.
 * Free with review_queue_free().
 */
int	review_queue_build(struct review_queue *q,
	    const struct review_item *items, size_t n,
	    const struct fsrs_params *p, const struct review_settings *set,
	    const struct review_today *today, int64_t now, int tz_offset_s);

/*
 * A cram queue: every item, most likely forgotten first (new cards last,
 * in added order). Ratings in a cram session never change a schedule:
 * review_cram_rate() only moves the card (Again: to the end, to come back
 * in this session; anything else: out of the queue).
 */
int	review_cram_build(struct review_queue *q,
	    const struct review_item *items, size_t n,
	    const struct fsrs_params *p, int64_t now);
void	review_cram_rate(struct review_queue *q, enum fsrs_rating g);

void	review_queue_free(struct review_queue *);

/*
 * Labels of the four buttons: the interval each rating would give at now
 * ("1m", "10m", "2d" ...), from fsrs_preview. 0, or -1 for a bad card.
 */
int	review_labels(const struct fsrs_params *p, const struct fsrs_card *c,
	    int64_t now, char labels[4][16]);

/* What a session has done, for its end screen. */
struct review_figures {
	int	rated;			/* ratings given */
	int	by_rating[4];		/* again, hard, good, easy */
	int	new_seen;		/* new cards rated for the first time */
	int	reviews;		/* ratings of REVIEW-state cards */
	int	reviews_passed;		/* ... answered Hard or better */
	int64_t	seconds;		/* time spent on rated cards */
};

/* Count one rating (log as returned by fsrs_review). undo: take it back. */
void	review_figures_add(struct review_figures *, const struct fsrs_log *,
	    int64_t seconds, int undo);

/* --- statistics -------------------------------------------------------- */

struct review_age {
	int	n;		/* ratings of REVIEW-state cards */
	int	passed;		/* ... Hard, Good or Easy */
};

struct review_stats {
	int64_t		 today;				/* local day number */
	int		 forecast[REVIEW_FORECAST_DAYS];	/* [0]: due today,
							   overdue included */
	int		 heatmap[REVIEW_HEATMAP_DAYS];	/* reviews per day,
							   [REVIEW_HEATMAP_DAYS-1]
							   is today */
	int		 by_state[4];			/* enum fsrs_state */
	struct review_age ages[REVIEW_N_AGES];		/* all time */
	struct review_age ages_month[REVIEW_N_AGES];	/* last 30 days */
	long		 total_reviews;			/* all time */
};

/* Clear s and set s->today for now. */
void	review_stats_init(struct review_stats *s, int64_t now, int tz_offset_s,
	    int rollover_hour);
/* Count a card due at due (state != NEW) in the forecast if within it. */
void	review_stats_add_due(struct review_stats *s, int64_t due,
	    int tz_offset_s, int rollover_hour);
/* Count n reviews made at t in the heatmap if within it. */
void	review_stats_add_reviews(struct review_stats *s, int64_t t, long n,
	    int tz_offset_s, int rollover_hour);
/* Interval bucket of a review made elapsed_days after the previous one:
 * 0: < 7 days, 1: 7-20 (these two are Anki's "young"), 2: 21-89, 3: 90+. */
int	review_age_bucket(int elapsed_days);
/* Days since the last day without a review, counting today if reviewed. */
int	review_stats_streak(const struct review_stats *s);

/*
 * Write the statistics as text lines of at most width columns (>= 40):
 * counts by state, the 30-day forecast as a bar chart, the heatmap (as
 * many weeks as fit), true retention by interval. utf8 chooses block
 * glyphs over ASCII. emit gets each line (not NUL-terminated) with arg.
 */
void	review_stats_lines(const struct review_stats *s, int width, int utf8,
	    void (*emit)(const char *line, size_t n, void *arg), void *arg);

/* --- card text ------------------------------------------------------------ */

/*
 * The back of a course card as shown: "{answer}" replaced by the engine's
 * figure (%.4g) for numeric cards, or by "?" when the catalog is NULL or
 * the engine fails. Returns an allocated string, or NULL if out of memory.
 */
char	*review_card_back(const struct content_card *k,
	    const struct hw_catalog *catalog);

/*
 * Front and back of the card made from a self-check question answered
 * wrongly: the prompt, then a choice question's options numbered "1) "
 * as in the lesson; the correct answer(s) (options with their numbers,
 * the model answer, or expected for a numeric question, with its unit)
 * and the explanation.
 * Allocated; 0, or -1 when out of memory.
 */
int	review_question_card(const struct content_question *q, double expected,
	    char **front, char **back);

/* Decks as Anki note files, both ways: core/srs/anki.h. */

#endif
