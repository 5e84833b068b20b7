/*
 * review.c - the daily review queue, its limits, cram and session figures.
 *
 * A queue is a list of indices into the caller's items; building it never
 * changes an item. The day arithmetic shifts time by the local UTC offset
 * and back by the rollover hour, so "today" runs from 4 am to 4 am by
 * default. Backlog ordering uses fsrs_retrievability(), the same R the
 * scheduler uses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/course/answer.h"
#include "core/srs/review.h"

void
review_settings_default(struct review_settings *s)
{
	s->new_per_day = REVIEW_NEW_PER_DAY;
	s->reviews_per_day = REVIEW_REVIEWS_PER_DAY;
	s->rollover_hour = REVIEW_ROLLOVER_HOUR;
}

int
review_settings_check(const struct review_settings *s, struct pl_err *err)
{
	if (s->new_per_day < 0 || s->new_per_day > REVIEW_MAX_LIMIT) {
		pl_err_set(err, NULL, 0, 0, _("new cards per day must be 0 to %d"),
		    REVIEW_MAX_LIMIT);
		return -1;
	}
	if (s->reviews_per_day < 0 || s->reviews_per_day > REVIEW_MAX_LIMIT) {
		pl_err_set(err, NULL, 0, 0, _("reviews per day must be 0 to %d"),
		    REVIEW_MAX_LIMIT);
		return -1;
	}
	if (s->rollover_hour < 0 || s->rollover_hour > 23) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("the rollover hour must be 0 to 23"));
		return -1;
	}
	return 0;
}

/* Floor division for possibly negative times. */
static int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int64_t
review_day(int64_t t, int tz_offset_s, int rollover_hour)
{
	return floor_div(t + tz_offset_s - (int64_t)rollover_hour * 3600,
	    FSRS_DAY_S);
}

int64_t
review_day_start(int64_t day, int tz_offset_s, int rollover_hour)
{
	return day * FSRS_DAY_S - tz_offset_s + (int64_t)rollover_hour * 3600;
}

int64_t
review_card_seed(const char *id)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *id != '\0'; id++) {
		h ^= (unsigned char)*id;
		h *= 1099511628211ULL;
	}
	return (int64_t)(h & INT64_MAX);
}

/* --- sorting ------------------------------------------------------------- */

/* qsort has no context argument: the key is computed into this array. */
struct keyed {
	size_t	idx;
	double	key;
	int64_t	tie;
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->tie != y->tie)
		return x->tie < y->tie ? -1 : 1;
	return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

/* Append up to max entries of k (sorted here) to q. */
static void
take(struct review_queue *q, struct keyed *k, size_t nk, size_t max)
{
	size_t i;

	qsort(k, nk, sizeof *k, keyed_cmp);
	for (i = 0; i < nk && i < max; i++)
		q->order[q->n++] = k[i].idx;
}

static int
queue_alloc(struct review_queue *q, size_t n, struct keyed **k)
{
	memset(q, 0, sizeof *q);
	q->order = malloc((n + 1) * sizeof *q->order);
	*k = malloc((n + 1) * sizeof **k);
	if (q->order == NULL || *k == NULL) {
		free(*k);
		review_queue_free(q);
		return -1;
	}
	return 0;
}

static int
is_learning(const struct fsrs_card *c)
{
	return c->state == FSRS_LEARNING || c->state == FSRS_RELEARNING;
}

/* Reviews due before day_end: all of them in k, sorted by due, or by R
 * when they exceed the limit. Sets the backlog fields. */
static void
take_reviews(struct review_queue *q, const struct review_item *items,
    size_t n, const struct fsrs_params *p, int64_t now, int64_t day_end,
    int limit, struct keyed *k)
{
	size_t i, nk = 0;
	int over;

	for (i = 0; i < n; i++)
		if (items[i].card.state == FSRS_REVIEW &&
		    items[i].card.due < day_end)
			k[nk++] = (struct keyed){ i, (double)items[i].card.due,
			    items[i].card.due };
	q->due_total = (int)nk;
	over = (int)nk > limit;
	if (over) {
		/* Backlog: the cards most likely forgotten come first. */
		for (i = 0; i < nk; i++)
			k[i].key = fsrs_retrievability(p,
			    &items[k[i].idx].card, now);
		q->backlog = (int)nk - limit;
		q->backlog_days = limit > 0 ?
		    (q->backlog + limit - 1) / limit : -1;
	}
	q->n_review = (int)(nk < (size_t)limit ? nk : (size_t)limit);
	take(q, k, nk, (size_t)q->n_review);
}

int
review_queue_build(struct review_queue *q, const struct review_item *items,
    size_t n, const struct fsrs_params *p, const struct review_settings *set,
    const struct review_today *today, int64_t now, int tz_offset_s)
{
	int64_t day = review_day(now, tz_offset_s, set->rollover_hour);
	int64_t day_end = review_day_start(day + 1, tz_offset_s,
	    set->rollover_hour);
	struct keyed *k;
	size_t i, nk;
	int rev_left, new_left;

	if (queue_alloc(q, n, &k) != 0)
		return -1;
	for (i = 0, nk = 0; i < n; i++) {
		const struct fsrs_card *c = &items[i].card;

		if (is_learning(c) && c->due < day_end)
			q->n_learning++;
		if (is_learning(c) && c->due <= now)
			k[nk++] = (struct keyed){ i, (double)c->due, c->due };
		else if (is_learning(c) && c->due < day_end &&
		    (q->next_learning == 0 || c->due < q->next_learning))
			q->next_learning = c->due;
	}
	take(q, k, nk, nk);
	rev_left = set->reviews_per_day - today->reviews_done;
	if (rev_left < 0)
		rev_left = 0;
	take_reviews(q, items, n, p, now, day_end, rev_left, k);
	/* Anki v3: the review limit also caps new cards. */
	new_left = set->new_per_day - today->new_done;
	if (new_left > rev_left - q->n_review)
		new_left = rev_left - q->n_review;
	for (i = 0, nk = 0; i < n; i++)
		if (items[i].card.state == FSRS_NEW)
			k[nk++] = (struct keyed){ i, (double)items[i].added, 0 };
	q->n_new = new_left > 0 ? (int)(nk < (size_t)new_left ? nk :
	    (size_t)new_left) : 0;
	take(q, k, nk, (size_t)q->n_new);
	for (i = 0, nk = 0; i < n; i++) {
		const struct fsrs_card *c = &items[i].card;

		if (is_learning(c) && c->due > now &&
		    c->due <= now + REVIEW_LEARN_AHEAD_S)
			k[nk++] = (struct keyed){ i, (double)c->due, c->due };
	}
	take(q, k, nk, nk);
	free(k);
	return 0;
}

int
review_cram_build(struct review_queue *q, const struct review_item *items,
    size_t n, const struct fsrs_params *p, int64_t now)
{
	struct keyed *k;
	size_t i;

	if (queue_alloc(q, n, &k) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		const struct fsrs_card *c = &items[i].card;

		/* New cards sort after every reviewed one (R <= 1). */
		k[i] = (struct keyed){ i, c->state == FSRS_NEW ? 2.0 :
		    fsrs_retrievability(p, c, now), items[i].added };
		if (c->state == FSRS_NEW)
			q->n_new++;
		else if (is_learning(c))
			q->n_learning++;
		else
			q->n_review++;
	}
	take(q, k, n, n);
	free(k);
	q->cram = 1;
	return 0;
}

void
review_cram_rate(struct review_queue *q, enum fsrs_rating g)
{
	size_t first;

	if (q->n == 0)
		return;
	first = q->order[0];
	memmove(q->order, q->order + 1, (q->n - 1) * sizeof *q->order);
	if (g == FSRS_AGAIN)
		q->order[q->n - 1] = first;
	else
		q->n--;
}

void
review_queue_free(struct review_queue *q)
{
	free(q->order);
	memset(q, 0, sizeof *q);
}

int
review_labels(const struct fsrs_params *p, const struct fsrs_card *c,
    int64_t now, char labels[4][16])
{
	struct fsrs_preview pv;
	int i;

	if (fsrs_preview(p, c, now, &pv) != 0)
		return -1;
	for (i = 0; i < 4; i++)
		fsrs_format_interval(pv.log[i].scheduled_s, labels[i], 16);
	return 0;
}

void
review_figures_add(struct review_figures *f, const struct fsrs_log *log,
    int64_t seconds, int undo)
{
	int d = undo ? -1 : 1;

	if (log->rating < FSRS_AGAIN || log->rating > FSRS_EASY)
		return;
	f->rated += d;
	f->by_rating[log->rating - 1] += d;
	if (log->state_before == FSRS_NEW)
		f->new_seen += d;
	if (log->state_before == FSRS_REVIEW) {
		f->reviews += d;
		if (log->rating > FSRS_AGAIN)
			f->reviews_passed += d;
	}
	f->seconds += d * seconds;
}

/* --- card text ------------------------------------------------------------ */

/* s with every "{answer}" replaced by val. Allocated or NULL. */
static char *
substitute(const char *s, const char *val)
{
	static const char key[] = "{answer}";
	size_t n = strlen(s) + 1, kl = sizeof key - 1, vl = strlen(val);
	const char *p;
	char *out, *o;

	for (p = strstr(s, key); p != NULL; p = strstr(p + kl, key))
		n += vl;
	if ((out = malloc(n)) == NULL)
		return NULL;
	for (o = out; (p = strstr(s, key)) != NULL; s = p + kl) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		memcpy(o, val, vl);
		o += vl;
	}
	strcpy(o, s);
	return out;
}

char *
review_card_back(const struct content_card *k,
    const struct hw_catalog *catalog)
{
	char val[64] = "?";
	struct pl_err err;
	double x;

	if (k->engine != NULL && catalog != NULL && answer_engine(catalog,
	    k->engine, k->quantity, NULL, NULL, &x, &err) == 0)
		snprintf(val, sizeof val, "%.4g", x);
	return substitute(k->back, val);
}

/* Append s (and a separator before it if buf is not empty) to buf. */
static int
append(char **buf, size_t *len, const char *sep, const char *s)
{
	size_t add = strlen(s) + (*len > 0 ? strlen(sep) : 0);
	char *nb = realloc(*buf, *len + add + 1);

	if (nb == NULL)
		return -1;
	if (*len > 0) {
		strcpy(nb + *len, sep);
		*len += strlen(sep);
	}
	strcpy(nb + *len, s);
	*len += strlen(s);
	*buf = nb;
	return 0;
}

/* Append s to buf with no separator. */
static int
append_raw(char **buf, size_t *len, const char *s)
{
	char *nb = realloc(*buf, *len + strlen(s) + 1);

	if (nb == NULL)
		return -1;
	strcpy(nb + *len, s);
	*len += strlen(s);
	*buf = nb;
	return 0;
}

int
review_question_card(const struct content_question *q, double expected,
    char **front, char **back)
{
	char num[96];
	size_t len = 0, flen, i;
	int rc = 0;

	*back = NULL;
	*front = strdup(q->prompt != NULL ? q->prompt : "");
	if (*front == NULL)
		return -1;
	/* A choice question's card shows its options, numbered as in the
	 * lesson, and its back names the right ones by number. */
	for (i = 0, flen = strlen(*front); i < q->n_options && rc == 0; i++) {
		snprintf(num, sizeof num, "%zu) ", i + 1);
		rc = append(front, &flen, i == 0 ? "\n\n" : "\n", num);
		if (rc == 0)
			rc = append_raw(front, &flen, q->options[i].text);
	}
	for (i = 0; i < q->n_options && rc == 0; i++)
		if (q->options[i].correct) {
			snprintf(num, sizeof num, "%zu) ", i + 1);
			rc = append(back, &len, "\n", num);
			if (rc == 0)
				rc = append_raw(back, &len, q->options[i].text);
		}
	if (q->type == CONTENT_Q_REVEAL && q->answer != NULL && rc == 0)
		rc = append(back, &len, "\n", q->answer);
	if (q->type == CONTENT_Q_NUMERIC && isfinite(expected) && rc == 0) {
		snprintf(num, sizeof num, "%.4g%s%s", expected,
		    q->unit != NULL ? " " : "", q->unit != NULL ? q->unit : "");
		rc = append(back, &len, "\n", num);
	}
	if (q->explain != NULL && rc == 0)
		rc = append(back, &len, "\n\n", q->explain);
	if (rc == 0 && len == 0)
		rc = append(back, &len, "", "?");
	if (rc != 0) {
		free(*front);
		free(*back);
		*front = *back = NULL;
	}
	return rc;
}
