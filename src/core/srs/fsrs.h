/*
 * fsrs.h - the FSRS-6 spaced-repetition scheduler.
 *
 * FSRS-6 (21 parameters, the default of py-fsrs 6.x, ts-fsrs 5.x, fsrs-rs
 * 6.x and Anki) with the card state machine of py-fsrs 6.3.1: see
 * reference/srs.md §1. Everything here is pure: no I/O, no clock, no global
 * state. Times are Unix seconds (UTC) in int64_t; intervals are whole days
 * unless a name says seconds; stability is in days; difficulty is in
 * [1, 10]; retrievability and retention are probabilities in [0, 1].
 *
 * Typical use: fsrs_params_default(), then fsrs_card_new() for a card the
 * learner has never seen, then fsrs_review() at each answer, keeping the
 * returned card and appending the returned log row. fsrs_rebuild() replays
 * such a log and gives back the same card.
 */
#ifndef PARLEARN_CORE_FSRS_H
#define PARLEARN_CORE_FSRS_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define FSRS_N_PARAMS		21	/* FSRS-6 weights w[0..20] */
#define FSRS_MAX_STEPS		8	/* most (re)learning steps */
#define FSRS_DAY_S		86400	/* seconds in a scheduling day */
#define FSRS_RETENTION_MIN	0.70	/* lowest desired retention accepted */
#define FSRS_RETENTION_MAX	0.97	/* highest desired retention accepted */
#define FSRS_S_MIN		0.001	/* stability floor, days */
#define FSRS_S_MAX		36500.0	/* stability ceiling, days */

/* The learner's answer. The values are the FSRS grades G. */
enum fsrs_rating {
	FSRS_AGAIN = 1,
	FSRS_HARD = 2,
	FSRS_GOOD = 3,
	FSRS_EASY = 4
};

/*
 * Card states. NEW is py-fsrs's Learning card with step 0 and no stability
 * or difficulty yet; it is never re-entered once the card is reviewed.
 */
enum fsrs_state {
	FSRS_NEW = 0,
	FSRS_LEARNING = 1,
	FSRS_REVIEW = 2,
	FSRS_RELEARNING = 3
};

struct fsrs_params {
	double	 w[FSRS_N_PARAMS];		/* FSRS-6 weights, see srs.md §1.2 */
	double	 desired_retention;		/* probability, 0.70 .. 0.97 */
	int64_t	 learning_steps[FSRS_MAX_STEPS];	/* seconds each */
	int	 n_learning_steps;		/* 0 .. FSRS_MAX_STEPS */
	int64_t	 relearning_steps[FSRS_MAX_STEPS];	/* seconds each */
	int	 n_relearning_steps;		/* 0 .. FSRS_MAX_STEPS */
	int	 maximum_interval;		/* days, >= 1 */
	int	 enable_fuzz;			/* nonzero: fuzz review intervals */
};

struct fsrs_card {
	int64_t		 id;		/* caller's card id; seeds the fuzz */
	enum fsrs_state	 state;
	int		 step;		/* index into the (re)learning steps; 0 in review */
	double		 stability;	/* days; 0 while NEW */
	double		 difficulty;	/* 1 .. 10; 0 while NEW */
	int64_t		 due;		/* Unix seconds */
	int64_t		 last_review;	/* Unix seconds; 0 while NEW */
	int		 reps;		/* reviews so far */
	int		 lapses;	/* Again answers given in REVIEW state */
};

/* One review, enough to rebuild the card and to train an optimizer later. */
struct fsrs_log {
	enum fsrs_rating rating;
	int64_t		 review_time;	/* Unix seconds */
	int		 elapsed_days;	/* whole days since the previous review; 0 if none */
	int		 scheduled_days;	/* whole days until due (0 for a step) */
	int64_t		 scheduled_s;	/* seconds until due */
	enum fsrs_state	 state_before;
	enum fsrs_state	 state_after;
	double		 s_before;	/* stability before, days (0 if NEW) */
	double		 d_before;	/* difficulty before (0 if NEW) */
	double		 s_after;	/* stability after, days */
	double		 d_after;	/* difficulty after */
};

/* The outcome of each rating, indexed by rating - 1 (see fsrs_preview). */
struct fsrs_preview {
	struct fsrs_card card[4];
	struct fsrs_log	 log[4];
};

/* --- parameters (fsrs.c) ---------------------------------------------- */

/*
 * Fill p with the defaults of py-fsrs 6.3.1 (srs.md §1.2): the FSRS-6
 * weights, retention 0.9, learning steps 1m and 10m, relearning step 10m,
 * maximum interval 36500 days, fuzz on.
 */
void	fsrs_params_default(struct fsrs_params *p);

/*
 * Set the weights from n values: 21 (FSRS-6), 19 (FSRS-5: w19 = 0,
 * w20 = 0.5 appended) or 17 (FSRS-4.5: the legacy conversion of srs.md
 * §1.2). Every weight must lie within the bounds of §1.2; out-of-range
 * values are rejected (as py-fsrs does), not clamped. Returns 0, or -1 with
 * err filled and p unchanged.
 */
int	fsrs_params_set_weights(struct fsrs_params *p, const double *w,
	    size_t n, struct pl_err *err);

/* Set the desired retention; -1 with err filled outside 0.70 .. 0.97. */
int	fsrs_params_set_retention(struct fsrs_params *p, double r,
	    struct pl_err *err);

/*
 * Check a whole parameter set (weights in bounds, retention in range, steps
 * positive and at most FSRS_MAX_STEPS, maximum interval >= 1). 0 or -1.
 */
int	fsrs_params_check(const struct fsrs_params *p, struct pl_err *err);

/* --- the formulas (fsrs.c), srs.md §1.3 --------------------------------- */

/* R(t, S): probability of recall t days after a review at stability s. */
double	fsrs_forgetting_curve(const double *w, double t_days, double s);

/*
 * The interval in whole days at which R falls to retention r, rounded half
 * up and clamped to [1, max_ivl]. r is not range-checked (any 0 < r <= 1).
 */
int	fsrs_next_interval(const double *w, double s, double r, int max_ivl);

/* The same interval before rounding and clamping, days. */
double	fsrs_raw_interval(const double *w, double s, double r);

/* S0(G) and D0(G) for a card's first rating; D0 clamped to [1, 10]. */
double	fsrs_init_stability(const double *w, enum fsrs_rating g);
double	fsrs_init_difficulty(const double *w, enum fsrs_rating g);

/* D after rating g: linear damping, mean reversion, clamp to [1, 10]. */
double	fsrs_next_difficulty(const double *w, double d, enum fsrs_rating g);

/* Long-term S after a success (the success formula whatever g is). */
double	fsrs_recall_stability(const double *w, double d, double s, double r,
	    enum fsrs_rating g);

/* Long-term S after a lapse, capped at s / exp(w17 * w18). */
double	fsrs_forget_stability(const double *w, double d, double s, double r);

/* Same-day S (elapsed < 1 day); never lower than s for Hard and up. */
double	fsrs_short_term_stability(const double *w, double s, enum fsrs_rating g);

/* --- cards (fsrs_sched.c), srs.md §1.4 ----------------------------------- */

/* A card never reviewed: NEW, due at now. */
void	fsrs_card_new(struct fsrs_card *c, int64_t id, int64_t now);

/*
 * Review card in with rating g at time now and write the resulting card to
 * out (which may be in) and, if log_out is not NULL, the log row. Elapsed
 * time counts whole 24-hour periods since the last review (py-fsrs); less
 * than one day is a same-day review. When p->enable_fuzz is set, review
 * intervals are fuzzed as described at fsrs_fuzz_factor(). Returns 0, or -1
 * (out untouched) if g is not a rating, a pointer is NULL, or in holds an
 * unknown state or a negative step (a corrupt stored card).
 */
int	fsrs_review(const struct fsrs_params *p, const struct fsrs_card *in,
	    enum fsrs_rating g, int64_t now, struct fsrs_card *out,
	    struct fsrs_log *log_out);

/*
 * The result of each of the four ratings at now, for labelling buttons
 * (format out->log[i].scheduled_s with fsrs_format_interval). Returns 0,
 * or -1 as fsrs_review does for a bad card.
 */
int	fsrs_preview(const struct fsrs_params *p, const struct fsrs_card *c,
	    int64_t now, struct fsrs_preview *out);

/*
 * R of card c at now, using whole elapsed days as the scheduler does;
 * 0 for a NEW card.
 */
double	fsrs_retrievability(const struct fsrs_params *p,
	    const struct fsrs_card *c, int64_t now);

/*
 * Replay n log rows (ratings and times, in order) on a new card with id and
 * write the card to out. With the same params this is the card the live
 * reviews produced. Returns 0, or -1 if a row holds a bad rating.
 */
int	fsrs_rebuild(const struct fsrs_params *p, int64_t id,
	    const struct fsrs_log *log, size_t n, struct fsrs_card *out);

/*
 * Write a short human interval ("45s", "10m", "1.5h", "3d", "2.1mo",
 * "1.4y") for secs seconds into buf. Months are 365/12 days, years 365
 * days. Returns buf.
 */
const char	*fsrs_format_interval(int64_t secs, char *buf, size_t size);

/* Untranslated names for JSON and option parsing: "again", "learning" ... */
const char	*fsrs_rating_name(enum fsrs_rating g);
const char	*fsrs_state_name(enum fsrs_state s);

/* --- fuzz (fsrs_fuzz.c), srs.md §1.5 ------------------------------------- */

/*
 * The fuzz factor in [0, 1) for a card: splitmix64 of (id + reps), where
 * reps counts the reviews before this one (Anki's seed), top 53 bits. The
 * same card answered again after an undo gets the same factor.
 */
double	fsrs_fuzz_factor(int64_t id, int reps);

/*
 * Anki's with_review_fuzz: fuzz interval (days, unrounded) within the
 * ranges of srs.md §1.5, constrained to [min, max] days, with factor f in
 * [0, 1). f < 0 means no fuzz: round half up and clamp.
 */
int	fsrs_fuzz_interval(double interval, int min, int max, double f);

/* The [lo, hi] range fsrs_fuzz_interval draws from. */
void	fsrs_fuzz_bounds(double interval, int min, int max, int *lo, int *hi);

#endif
