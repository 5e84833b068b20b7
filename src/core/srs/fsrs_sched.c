/*
 * fsrs_sched.c - the card state machine of FSRS: what an answer does to a
 * card, and when the card is due next.
 *
 * This mirrors py-fsrs 6.3.1 Scheduler.review_card (reference/srs.md
 * §1.4). A NEW card takes its initial stability and difficulty from the
 * first rating; afterwards a review less than one whole day (24 h) after the
 * previous one uses the same-day stability, and any later one the long-term
 * success or lapse formula at the retrievability reached by then. Learning
 * and relearning cards walk their steps (seconds); Review cards get whole
 * days from the desired retention, fuzzed (fsrs_fuzz.c) when enabled,
 * capped at the maximum interval. There is no hard <= good <= easy
 * ordering of review intervals, as in py-fsrs (Anki and ts-fsrs add one).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/srs/fsrs.h"

/* Where one answer sends the card. */
struct fsrs_next {
	enum fsrs_state	 state;
	int		 step;		/* step index; 0 in review */
	int64_t		 wait_s;	/* seconds until due */
	int		 ivl_days;	/* review interval, days; 0 for a step */
};

void
fsrs_card_new(struct fsrs_card *c, int64_t id, int64_t now)
{
	memset(c, 0, sizeof *c);
	c->id = id;
	c->state = FSRS_NEW;
	c->due = now;
}

/* Whole 24-hour periods since the last review, floored (py-fsrs .days). */
static int64_t
elapsed_days(const struct fsrs_card *c, int64_t now)
{
	int64_t d;

	if (c->state == FSRS_NEW)
		return 0;
	d = now - c->last_review;
	if (d >= 0)
		return d / FSRS_DAY_S;
	return -((-d + FSRS_DAY_S - 1) / FSRS_DAY_S);
}

static double
clampd(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* New stability and difficulty after rating g, days days after the last. */
static void
update_memory(const double *w, const struct fsrs_card *c, enum fsrs_rating g,
    int64_t days, double *s, double *d)
{
	/* Stored states are clamped first, as fsrs-rs does. */
	double s0 = clampd(c->stability, FSRS_S_MIN, FSRS_S_MAX);
	double d0 = clampd(c->difficulty, 1.0, 10.0);
	double r;

	if (c->state == FSRS_NEW) {
		*s = fsrs_init_stability(w, g);
		*d = fsrs_init_difficulty(w, g);
		return;
	}
	if (days < 1)
		*s = fsrs_short_term_stability(w, s0, g);
	else {
		r = fsrs_forgetting_curve(w, (double)days, s0);
		*s = g == FSRS_AGAIN ? fsrs_forget_stability(w, d0, s0, r) :
		    fsrs_recall_stability(w, d0, s0, r, g);
	}
	*s = clampd(*s, FSRS_S_MIN, FSRS_S_MAX);
	*d = fsrs_next_difficulty(w, d0, g);
}

/* Days until due for a card entering REVIEW with stability s. */
static int
review_interval(const struct fsrs_params *p, const struct fsrs_card *c,
    double s)
{
	double raw = fsrs_raw_interval(p->w, s, p->desired_retention);

	if (!p->enable_fuzz)
		return fsrs_next_interval(p->w, s, p->desired_retention,
		    p->maximum_interval);
	return fsrs_fuzz_interval(raw, 1, p->maximum_interval,
	    fsrs_fuzz_factor(c->id, c->reps));
}

static void
graduate(const struct fsrs_params *p, const struct fsrs_card *c, double s,
    struct fsrs_next *nx)
{
	nx->state = FSRS_REVIEW;
	nx->step = 0;
	nx->ivl_days = review_interval(p, c, s);
	nx->wait_s = (int64_t)nx->ivl_days * FSRS_DAY_S;
}

/* The Hard delay on a step (py-fsrs; Anki steps.rs agrees below 1 day). */
static int64_t
hard_wait(const int64_t *steps, int n, int step)
{
	if (step == 0 && n == 1)
		return steps[0] * 3 / 2;
	if (step == 0)
		return (steps[0] + steps[1]) / 2;
	return steps[step];
}

/* A LEARNING (or NEW) or RELEARNING card answered g, walking steps. */
static void
walk_steps(const struct fsrs_params *p, const struct fsrs_card *c,
    const int64_t *steps, int n, enum fsrs_rating g, double s,
    struct fsrs_next *nx)
{
	int step = c->state == FSRS_NEW ? 0 : c->step;

	nx->state = c->state == FSRS_RELEARNING ? FSRS_RELEARNING :
	    FSRS_LEARNING;
	nx->step = step;
	nx->ivl_days = 0;
	if (n == 0 || (step >= n && g != FSRS_AGAIN) || g == FSRS_EASY ||
	    (g == FSRS_GOOD && step + 1 >= n)) {
		graduate(p, c, s, nx);
		return;
	}
	if (g == FSRS_AGAIN) {
		nx->step = 0;
		nx->wait_s = steps[0];
	} else if (g == FSRS_HARD)
		nx->wait_s = hard_wait(steps, n, step);
	else {
		nx->step = step + 1;
		nx->wait_s = steps[step + 1];
	}
}

static void
schedule(const struct fsrs_params *p, const struct fsrs_card *c,
    enum fsrs_rating g, double s, struct fsrs_next *nx)
{
	switch (c->state) {
	case FSRS_NEW:
	case FSRS_LEARNING:
		walk_steps(p, c, p->learning_steps, p->n_learning_steps, g, s,
		    nx);
		break;
	case FSRS_RELEARNING:
		walk_steps(p, c, p->relearning_steps, p->n_relearning_steps,
		    g, s, nx);
		break;
	case FSRS_REVIEW:
	default:
		if (g == FSRS_AGAIN && p->n_relearning_steps > 0) {
			nx->state = FSRS_RELEARNING;
			nx->step = 0;
			nx->ivl_days = 0;
			nx->wait_s = p->relearning_steps[0];
		} else
			graduate(p, c, s, nx);
		break;
	}
}

static int
valid_rating(enum fsrs_rating g)
{
	return g >= FSRS_AGAIN && g <= FSRS_EASY;
}

static void
fill_log(const struct fsrs_card *in, const struct fsrs_card *out,
    enum fsrs_rating g, int64_t now, int64_t days, struct fsrs_log *log)
{
	memset(log, 0, sizeof *log);	/* padding too: rows compare with memcmp */
	log->rating = g;
	log->review_time = now;
	log->elapsed_days = (int)clampd((double)days, 0.0, INT32_MAX);
	log->scheduled_s = out->due - now;
	log->scheduled_days = (int)(log->scheduled_s / FSRS_DAY_S);
	log->state_before = in->state;
	log->state_after = out->state;
	log->s_before = in->stability;
	log->d_before = in->difficulty;
	log->s_after = out->stability;
	log->d_after = out->difficulty;
}

int
fsrs_review(const struct fsrs_params *p, const struct fsrs_card *in,
    enum fsrs_rating g, int64_t now, struct fsrs_card *out,
    struct fsrs_log *log_out)
{
	struct fsrs_card c;
	struct fsrs_next nx;
	int64_t days;
	double s, d;

	if (p == NULL || in == NULL || out == NULL || !valid_rating(g) ||
	    in->state < FSRS_NEW || in->state > FSRS_RELEARNING || in->step < 0)
		return -1;
	c = *in;
	days = elapsed_days(in, now);
	update_memory(p->w, in, g, days, &s, &d);
	schedule(p, in, g, s, &nx);
	if (in->state == FSRS_REVIEW && g == FSRS_AGAIN)
		c.lapses++;
	c.state = nx.state;
	c.step = nx.step;
	c.stability = s;
	c.difficulty = d;
	c.due = now + nx.wait_s;
	c.last_review = now;
	c.reps++;
	if (log_out != NULL)
		fill_log(in, &c, g, now, days, log_out);
	*out = c;
	return 0;
}

int
fsrs_preview(const struct fsrs_params *p, const struct fsrs_card *c,
    int64_t now, struct fsrs_preview *out)
{
	int g;

	for (g = FSRS_AGAIN; g <= FSRS_EASY; g++)
		if (fsrs_review(p, c, (enum fsrs_rating)g, now,
		    &out->card[g - 1], &out->log[g - 1]) != 0)
			return -1;
	return 0;
}

double
fsrs_retrievability(const struct fsrs_params *p, const struct fsrs_card *c,
    int64_t now)
{
	int64_t days;

	if (c->state == FSRS_NEW)
		return 0.0;
	days = elapsed_days(c, now);
	return fsrs_forgetting_curve(p->w, days > 0 ? (double)days : 0.0,
	    clampd(c->stability, FSRS_S_MIN, FSRS_S_MAX));
}

int
fsrs_rebuild(const struct fsrs_params *p, int64_t id,
    const struct fsrs_log *log, size_t n, struct fsrs_card *out)
{
	size_t i;

	fsrs_card_new(out, id, n > 0 ? log[0].review_time : 0);
	for (i = 0; i < n; i++)
		if (fsrs_review(p, out, log[i].rating, log[i].review_time,
		    out, NULL) != 0)
			return -1;
	return 0;
}

/* x to one decimal, without a trailing ".0", locale-independent. */
static void
tenths(double x, char *buf, size_t size)
{
	long long t = llround(x * 10.0);

	if (t % 10 == 0)
		snprintf(buf, size, "%lld", t / 10);
	else
		snprintf(buf, size, "%lld.%lld", t / 10, t % 10);
}

const char *
fsrs_format_interval(int64_t secs, char *buf, size_t size)
{
	const double month = 365.0 / 12.0 * FSRS_DAY_S, year = 365.0 * FSRS_DAY_S;
	double x = secs > 0 ? (double)secs : 0.0;
	char num[32];

	/* TRANSLATORS: the %s in these short interval labels is a number. */
	if (x < 60) {
		snprintf(num, sizeof num, "%.0f", x);
		snprintf(buf, size, _("%ss"), num);
	} else if (x < 3600) {
		snprintf(num, sizeof num, "%.0f", round(x / 60));
		snprintf(buf, size, _("%sm"), num);
	} else if (x < FSRS_DAY_S) {
		tenths(x / 3600, num, sizeof num);
		snprintf(buf, size, _("%sh"), num);
	} else if (x < month) {
		snprintf(num, sizeof num, "%.0f", round(x / FSRS_DAY_S));
		snprintf(buf, size, _("%sd"), num);
	} else if (x < year) {
		tenths(x / month, num, sizeof num);
		snprintf(buf, size, _("%smo"), num);
	} else {
		tenths(x / year, num, sizeof num);
		snprintf(buf, size, _("%sy"), num);
	}
	return buf;
}

const char *
fsrs_rating_name(enum fsrs_rating g)
{
	static const char *const names[] = { "again", "hard", "good", "easy" };

	return valid_rating(g) ? names[g - 1] : "?";
}

const char *
fsrs_state_name(enum fsrs_state s)
{
	static const char *const names[] = {
		"new", "learning", "review", "relearning"
	};

	return s >= FSRS_NEW && s <= FSRS_RELEARNING ? names[s] : "?";
}
