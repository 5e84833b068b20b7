/*
 * cards_deck.c - which cards a learner has: unlocking course cards,
 * loading cards with their text, the learner's own cards (mistakes and
 * imported decks), and the statistics read from the aggregates.
 *
 * Card text of course cards comes from the loaded course (the database
 * keeps only ids and states); the text of user cards lives in user_cards.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/safetext.h"
#include "store/cards.h"
#include "store/progress.h"

/* INSERT OR IGNORE a NEW card row with the statement s (see new_row_sql). */
static const char new_row_sql[] = "INSERT OR IGNORE INTO cards (profile_id, "
    "card_id, seed, due, added) VALUES (?1, ?2, ?3, ?4, ?4);";

static int
new_row(struct store *st, sqlite3_stmt *s, int64_t profile, const char *id,
    int64_t now, struct pl_err *err)
{
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, review_card_seed(id));
	sqlite3_bind_int64(s, 4, now);
	return sqlite3_step(s) == SQLITE_DONE ? 0 : store_fail(st, err);
}

/* 1 if the profile has started drop_id (status started or done). */
static int
drop_started(sqlite3_stmt *s, int64_t profile, const char *drop_id)
{
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s) == SQLITE_ROW;
	return rc;
}

int
store_cards_unlock(struct store *st, int64_t profile,
    const struct content_course *c, int64_t now, int *added,
    struct pl_err *err)
{
	sqlite3_stmt *ins = NULL, *q = NULL;
	size_t i;
	int rc = 0, n = 0;

	if (added != NULL)
		*added = 0;
	if (st->readonly)	/* the cards as stored (store_open_read) */
		return 0;
	if (store_begin(st, err) != 0)
		return -1;
	if (store_prepare(st, new_row_sql, &ins, err) != 0 || store_prepare(st,
	    "SELECT 1 FROM drop_progress WHERE profile_id = ?1 AND "
	    "drop_id = ?2 AND status >= 1;", &q, err) != 0)
		rc = -1;
	for (i = 0; rc == 0 && i < c->n_cards; i++) {
		if (!drop_started(q, profile, c->cards[i].drop))
			continue;
		rc = new_row(st, ins, profile, c->cards[i].id, now, err);
		n += sqlite3_changes(st->db);
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(q);
	if (rc == 0 && added != NULL)
		*added = n;
	return store_end(st, rc, err);
}

/* The course's cards sorted by id, so each row finds its card in log n. */
struct card_index {
	const struct content_card	**by_id;
	size_t				  n;
};

static int
cmp_card(const void *a, const void *b)
{
	return strcmp((*(const struct content_card *const *)a)->id,
	    (*(const struct content_card *const *)b)->id);
}

static int
index_cards(const struct content_course *c, struct card_index *ix)
{
	size_t i;

	ix->n = c != NULL ? c->n_cards : 0;
	if ((ix->by_id = malloc((ix->n + 1) * sizeof *ix->by_id)) == NULL)
		return -1;
	for (i = 0; i < ix->n; i++)
		ix->by_id[i] = &c->cards[i];
	qsort(ix->by_id, ix->n, sizeof *ix->by_id, cmp_card);
	return 0;
}

static const struct content_card *
course_card(const struct card_index *ix, const char *id)
{
	struct content_card key;
	const struct content_card *kp = &key, *const *hit;

	key.id = (char *)id;
	hit = ix->n > 0 ? bsearch(&kp, ix->by_id, ix->n, sizeof *ix->by_id,
	    cmp_card) : NULL;
	return hit != NULL ? *hit : NULL;
}

/* Fill k from a course card or user_cards columns; 1 kept, 0 skip, -1. */
static int
card_text(sqlite3_stmt *s, const struct card_index *ix,
    const struct hw_catalog *catalog, const char *deck, struct store_card *k)
{
	const char *id = (const char *)sqlite3_column_text(s, 0);
	const struct content_card *cc = course_card(ix, id);

	memset(k, 0, sizeof *k);
	if (sqlite3_column_type(s, 10) != SQLITE_NULL) {
		k->user = 1;
		k->deck = strdup((const char *)sqlite3_column_text(s, 10));
		k->front = strdup((const char *)sqlite3_column_text(s, 11));
		k->back = strdup((const char *)sqlite3_column_text(s, 12));
	} else if (cc != NULL) {
		k->deck = strdup(cc->deck);
		k->front = strdup(cc->front);
		k->back = review_card_back(cc, catalog);
	} else
		return 0;
	k->id = strdup(id);
	if (k->id == NULL || k->deck == NULL || k->front == NULL ||
	    k->back == NULL)
		return -1;
	return deck == NULL || strcmp(deck, k->deck) == 0 ? 1 : 0;
}

static void
card_free(struct store_card *k)
{
	free(k->id);
	free(k->deck);
	free(k->front);
	free(k->back);
}

/* Grow the set to hold one more. */
static int
grow(struct store_card_set *out, size_t *cap)
{
	void *a, *b;

	if (out->n < *cap)
		return 0;
	*cap = *cap ? 2 * *cap : 64;
	a = realloc(out->cards, *cap * sizeof *out->cards);
	if (a != NULL)
		out->cards = a;
	b = realloc(out->items, *cap * sizeof *out->items);
	if (b != NULL)
		out->items = b;
	return a != NULL && b != NULL ? 0 : -1;
}

int
store_cards_load(struct store *st, int64_t profile,
    const struct content_course *c, const struct hw_catalog *catalog,
    const char *deck, struct store_card_set *out, struct pl_err *err)
{
	struct card_index ix;
	sqlite3_stmt *s;
	size_t cap = 0, i;
	int rc, kept = 0;

	memset(out, 0, sizeof *out);
	if (index_cards(c, &ix) != 0) {
		pl_err_set(err, st->path, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	if (store_prepare(st, "SELECT k.card_id, k.seed, k.state, k.step, "
	    "k.stability, k.difficulty, k.due, k.last_review, k.reps, "
	    "k.lapses, u.deck, u.front, u.back, k.added FROM cards k "
	    "LEFT JOIN user_cards u ON u.profile_id = k.profile_id AND "
	    "u.card_id = k.card_id WHERE k.profile_id = ?1 "
	    "ORDER BY k.added, k.rowid;", &s, err) != 0) {
		free(ix.by_id);
		return -1;
	}
	sqlite3_bind_int64(s, 1, profile);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (grow(out, &cap) != 0 || (kept = card_text(s, &ix, catalog,
		    deck, &out->cards[out->n])) < 0)
			break;
		if (kept == 0) {
			card_free(&out->cards[out->n]);
			continue;
		}
		out->items[out->n].id = out->cards[out->n].id;
		out->items[out->n].added = sqlite3_column_int64(s, 13);
		/* Columns 1..9 are CARD_COLS of cards.c. */
		out->items[out->n].card.id = sqlite3_column_int64(s, 1);
		out->items[out->n].card.state =
		    (enum fsrs_state)sqlite3_column_int(s, 2);
		out->items[out->n].card.step = sqlite3_column_int(s, 3);
		out->items[out->n].card.stability = sqlite3_column_double(s, 4);
		out->items[out->n].card.difficulty = sqlite3_column_double(s, 5);
		out->items[out->n].card.due = sqlite3_column_int64(s, 6);
		out->items[out->n].card.last_review = sqlite3_column_int64(s, 7);
		out->items[out->n].card.reps = sqlite3_column_int(s, 8);
		out->items[out->n].card.lapses = sqlite3_column_int(s, 9);
		out->n++;
	}
	sqlite3_finalize(s);
	free(ix.by_id);
	if (rc != SQLITE_DONE) {
		if (kept < 0 || rc == SQLITE_ROW) {
			if (kept < 0)
				card_free(&out->cards[out->n]);
			pl_err_set(err, st->path, 0, 0, "%s", _("out of memory"));
		} else
			store_fail(st, err);
		store_card_set_free(out);
		return -1;
	}
	for (i = 0; i < out->n; i++)
		out->items[i].id = out->cards[i].id;
	return 0;
}

void
store_card_set_free(struct store_card_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		card_free(&set->cards[i]);
	free(set->cards);
	free(set->items);
	memset(set, 0, sizeof *set);
}

/* Insert one user card (text and NEW state). */
static int
user_card(struct store *st, int64_t profile, const char *id,
    const char *deck, const char *front, const char *back, int64_t now,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, "INSERT OR IGNORE INTO user_cards (profile_id, card_id, "
	    "deck, front, back, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6);",
	    &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, deck, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, front, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, back, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 6, now);
	rc = sqlite3_step(s) == SQLITE_DONE ? 0 : store_fail(st, err);
	sqlite3_finalize(s);
	if (rc == 0 && store_prepare(st, new_row_sql, &s, err) == 0) {
		rc = new_row(st, s, profile, id, now, err);
		sqlite3_finalize(s);
	} else
		rc = -1;
	return rc;
}

int
store_cards_add_question(struct store *st, int64_t profile,
    const char *drop_id, const struct content_question *q, double expected,
    int64_t now, struct pl_err *err)
{
	char id[512], *front, *back;
	int rc;

	if (review_question_card(q, expected, &front, &back) != 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	snprintf(id, sizeof id, "q:%s:%s", drop_id, q->id);
	rc = store_begin(st, err);
	if (rc == 0)
		rc = store_end(st, user_card(st, profile, id, STORE_MISTAKES_DECK,
		    front, back, now, err), err);
	free(front);
	free(back);
	return rc;
}

int
store_cards_answer(struct store *st, int64_t profile, const char *drop_id,
    const struct content_question *q, int correct, int card,
    const char *response, double seconds, double expected, int64_t now,
    int *attempt_out, struct pl_err *err)
{
	char id[512], *front = NULL, *back = NULL;
	int rc;

	if (card && review_question_card(q, expected, &front,
	    &back) != 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	snprintf(id, sizeof id, "q:%s:%s", drop_id, q->id);
	rc = store_begin(st, err);
	if (rc == 0) {
		rc = store_answer_insert(st, profile, drop_id, q->id, correct,
		    response, seconds, now, attempt_out, err);
		if (rc == 0 && card)
			rc = user_card(st, profile, id, STORE_MISTAKES_DECK,
			    front, back, now, err);
		rc = store_end(st, rc, err);
	}
	free(front);
	free(back);
	return rc;
}

int
store_user_decks(struct store *st, int64_t profile,
    void (*fn)(const char *, int, void *), void *arg, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, "SELECT deck, COUNT(*) FROM user_cards WHERE "
	    "profile_id = ?1 GROUP BY deck ORDER BY deck;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(s, 0),
		    sqlite3_column_int(s, 1), arg);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, err);
}

/* Run a statement with ?1 = profile, ?2 = x, calling row() per row. */
static int
each_row(struct store *st, const char *sql, int64_t profile, int64_t x,
    void (*row)(sqlite3_stmt *, struct review_stats *, void *),
    struct review_stats *rs, void *arg, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, sql, &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_int64(s, 2, x);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		row(s, rs, arg);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, err);
}

struct day_ctx {
	int	tz;
	int	rollover;
};

static void
row_state(sqlite3_stmt *s, struct review_stats *rs, void *arg)
{
	int state = sqlite3_column_int(s, 0);

	(void)arg;
	if (state >= 0 && state < 4)
		rs->by_state[state] = sqlite3_column_int(s, 1);
}

static void
row_due(sqlite3_stmt *s, struct review_stats *rs, void *arg)
{
	struct day_ctx *d = arg;

	review_stats_add_due(rs, sqlite3_column_int64(s, 0), d->tz, d->rollover);
}

static void
row_slot(sqlite3_stmt *s, struct review_stats *rs, void *arg)
{
	struct day_ctx *d = arg;
	long n = (long)sqlite3_column_int64(s, 1);

	rs->total_reviews += n;
	review_stats_add_reviews(rs, sqlite3_column_int64(s, 0) * 1800, n,
	    d->tz, d->rollover);
}

static void
row_age(sqlite3_stmt *s, struct review_stats *rs, void *arg)
{
	int b = sqlite3_column_int(s, 0);
	struct review_age *a = arg != NULL ? rs->ages_month : rs->ages;

	if (b >= 0 && b < REVIEW_N_AGES) {
		a[b].n = sqlite3_column_int(s, 1);
		a[b].passed = sqlite3_column_int(s, 2);
	}
}

int
store_review_stats(struct store *st, int64_t profile, int64_t now, int tz,
    int rollover, struct review_stats *rs, struct pl_err *err)
{
	struct day_ctx d = { tz, rollover };
	int64_t end;

	review_stats_init(rs, now, tz, rollover);
	end = review_day_start(rs->today + REVIEW_FORECAST_DAYS, tz, rollover);
	/* Suspended cards are in no queue, so in no count (cards_browse.h). */
	if (each_row(st, "SELECT state, COUNT(*) FROM cards WHERE "
	    "profile_id = ?1 AND ?2 = ?2 AND NOT suspended GROUP BY state;",
	    profile, 0,
	    row_state, rs, NULL, err) != 0 ||
	    each_row(st, "SELECT due FROM cards WHERE profile_id = ?1 AND "
	    "due < ?2 AND state > 0 AND NOT suspended;", profile, end, row_due,
	    rs, &d, err) != 0 ||
	    each_row(st, "SELECT slot, n FROM review_slots WHERE "
	    "profile_id = ?1 AND ?2 = ?2 AND n > 0;", profile, 0, row_slot, rs,
	    &d, err) != 0 ||
	    each_row(st, "SELECT bucket, SUM(n), SUM(passed) FROM "
	    "review_retention WHERE profile_id = ?1 AND day >= ?2 "
	    "GROUP BY bucket;", profile, INT64_MIN / 2, row_age, rs, NULL,
	    err) != 0 ||
	    each_row(st, "SELECT bucket, SUM(n), SUM(passed) FROM "
	    "review_retention WHERE profile_id = ?1 AND day >= ?2 "
	    "GROUP BY bucket;", profile, now / 86400 - 29, row_age, rs, &d,
	    err) != 0)
		return -1;
	return 0;
}
