/*
 * cards.c - card states and the review log: saving a rating, undoing it,
 * deriving a card from its log, the daily counters and the settings.
 *
 * A card row is always what fsrs_rebuild() gives for its log rows in id
 * order; store_cards_review() writes both in one transaction, only if the
 * card still holds the state the rating was computed from, and
 * store_cards_undo() re-derives the row after deleting the newest entry,
 * so the two cannot drift apart, even with two processes reviewing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/number.h"
#include "store/cards.h"
#include "store/progress.h"

#define CARD_COLS "seed, state, step, stability, difficulty, due, " \
	"last_review, reps, lapses"

/* Read CARD_COLS starting at column col into c. */
static void
card_from_row(sqlite3_stmt *s, int col, struct fsrs_card *c)
{
	memset(c, 0, sizeof *c);
	c->id = sqlite3_column_int64(s, col);
	c->state = (enum fsrs_state)sqlite3_column_int(s, col + 1);
	c->step = sqlite3_column_int(s, col + 2);
	c->stability = sqlite3_column_double(s, col + 3);
	c->difficulty = sqlite3_column_double(s, col + 4);
	c->due = sqlite3_column_int64(s, col + 5);
	c->last_review = sqlite3_column_int64(s, col + 6);
	c->reps = sqlite3_column_int(s, col + 7);
	c->lapses = sqlite3_column_int(s, col + 8);
}

int
store_cards_get(struct store *st, int64_t profile, const char *card_id,
    struct fsrs_card *out, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, "SELECT " CARD_COLS " FROM cards WHERE profile_id = ?1 "
	    "AND card_id = ?2;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, card_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		card_from_row(s, 0, out);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, err);
	return rc == SQLITE_ROW;
}

/*
 * Write c as the card's row (which must exist). With expect, only if the
 * row still holds expect (every field): returns 1, writing nothing, when
 * another process has changed the card since it was read.
 */
static int
put_card(struct store *st, int64_t profile, const char *card_id,
    const struct fsrs_card *c, const struct fsrs_card *expect,
    struct pl_err *err)
{
	struct fsrs_card was;
	sqlite3_stmt *s;

	if (store_prepare(st, expect == NULL ? "UPDATE cards SET state = ?3, "
	    "step = ?4, stability = ?5, difficulty = ?6, due = ?7, "
	    "last_review = ?8, reps = ?9, lapses = ?10 "
	    "WHERE profile_id = ?1 AND card_id = ?2;" : "UPDATE cards SET "
	    "state = ?3, step = ?4, stability = ?5, difficulty = ?6, due = ?7, "
	    "last_review = ?8, reps = ?9, lapses = ?10 "
	    "WHERE profile_id = ?1 AND card_id = ?2 AND state = ?11 AND "
	    "step = ?12 AND stability = ?13 AND difficulty = ?14 AND due = ?15 "
	    "AND last_review = ?16 AND reps = ?17 AND lapses = ?18;",
	    &s, err) != 0)
		return -1;
	if (expect != NULL) {
		sqlite3_bind_int(s, 11, (int)expect->state);
		sqlite3_bind_int(s, 12, expect->step);
		sqlite3_bind_double(s, 13, expect->stability);
		sqlite3_bind_double(s, 14, expect->difficulty);
		sqlite3_bind_int64(s, 15, expect->due);
		sqlite3_bind_int64(s, 16, expect->last_review);
		sqlite3_bind_int(s, 17, expect->reps);
		sqlite3_bind_int(s, 18, expect->lapses);
	}
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, card_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 3, (int)c->state);
	sqlite3_bind_int(s, 4, c->step);
	sqlite3_bind_double(s, 5, c->stability);
	sqlite3_bind_double(s, 6, c->difficulty);
	sqlite3_bind_int64(s, 7, c->due);
	sqlite3_bind_int64(s, 8, c->last_review);
	sqlite3_bind_int(s, 9, c->reps);
	sqlite3_bind_int(s, 10, c->lapses);
	if (store_step_done(st, s, err) != 0)
		return -1;
	if (sqlite3_changes(st->db) == 1)
		return 0;
	if (expect != NULL && store_cards_get(st, profile, card_id, &was,
	    NULL) == 1)
		return 1;
	pl_err_set(err, st->path, 0, 0, _("no card \"%s\" to update"),
	    card_id);
	return -1;
}

static int
insert_log(struct store *st, int64_t profile, const char *card_id,
    const struct fsrs_log *l, int64_t duration_ms, struct pl_err *err)
{
	sqlite3_stmt *s;

	if (store_prepare(st, "INSERT INTO review_log (profile_id, card_id, "
	    "reviewed, rating, duration_ms, elapsed_days, scheduled_days, "
	    "scheduled_s, state_before, state_after, s_before, d_before, "
	    "s_after, d_after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
	    "?10, ?11, ?12, ?13, ?14);", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, card_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, l->review_time);
	sqlite3_bind_int(s, 4, (int)l->rating);
	sqlite3_bind_int64(s, 5, duration_ms > 0 ? duration_ms : 0);
	sqlite3_bind_int(s, 6, l->elapsed_days);
	sqlite3_bind_int(s, 7, l->scheduled_days);
	sqlite3_bind_int64(s, 8, l->scheduled_s);
	sqlite3_bind_int(s, 9, (int)l->state_before);
	sqlite3_bind_int(s, 10, (int)l->state_after);
	sqlite3_bind_double(s, 11, l->s_before);
	sqlite3_bind_double(s, 12, l->d_before);
	sqlite3_bind_double(s, 13, l->s_after);
	sqlite3_bind_double(s, 14, l->d_after);
	return store_step_done(st, s, err);
}

int
store_cards_review(struct store *st, int64_t profile, const char *card_id,
    const struct fsrs_card *before, const struct fsrs_card *after,
    const struct fsrs_log *log, int64_t duration_ms, int64_t *log_id,
    struct pl_err *err)
{
	int rc;

	if (store_begin(st, err) != 0)
		return -1;
	rc = put_card(st, profile, card_id, after, before, err);
	if (rc == 1) {
		store_rollback(st);
		return 1;
	}
	if (rc == 0)
		rc = insert_log(st, profile, card_id, log, duration_ms, err);
	if (rc == 0 && log_id != NULL)
		*log_id = sqlite3_last_insert_rowid(st->db);
	return store_end(st, rc, err);
}

/* Replay the card's log (read inside the caller's transaction, if any). */
static int
rebuild(struct store *st, int64_t profile, const char *card_id,
    const struct fsrs_params *p, struct fsrs_card *out, struct pl_err *err)
{
	struct fsrs_log *log = NULL, *nl;
	size_t n = 0, cap = 0;
	sqlite3_stmt *s;
	int64_t seed = 0, added = 0;
	int rc, found;

	if (store_prepare(st, "SELECT seed, added FROM cards WHERE profile_id = ?1 "
	    "AND card_id = ?2;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, card_id, -1, SQLITE_STATIC);
	if ((found = sqlite3_step(s) == SQLITE_ROW)) {
		seed = sqlite3_column_int64(s, 0);
		added = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	if (!found)
		return 0;
	if (store_prepare(st, "SELECT rating, reviewed FROM review_log WHERE "
	    "profile_id = ?1 AND card_id = ?2 ORDER BY id;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, card_id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			if ((nl = realloc(log, cap * sizeof *log)) == NULL)
				break;
			log = nl;
		}
		memset(&log[n], 0, sizeof log[n]);
		log[n].rating = (enum fsrs_rating)sqlite3_column_int(s, 0);
		log[n].review_time = sqlite3_column_int64(s, 1);
		n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(log);
		return store_fail(st, err);
	}
	if (n == 0)
		fsrs_card_new(out, seed, added);
	else if (fsrs_rebuild(p, seed, log, n, out) != 0) {
		pl_err_set(err, st->path, 0, 0,
		    _("the review log of card \"%s\" holds a bad rating"), card_id);
		free(log);
		return -1;
	}
	free(log);
	return 1;
}

int
store_cards_rebuild(struct store *st, int64_t profile, const char *card_id,
    const struct fsrs_params *p, struct fsrs_card *out, struct pl_err *err)
{
	return rebuild(st, profile, card_id, p, out, err);
}

int
store_cards_undo(struct store *st, int64_t profile, int64_t log_id,
    const struct fsrs_params *p, struct fsrs_card *restored,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	char *card = NULL;
	struct fsrs_card c;
	int rc = 0;

	if (store_begin(st, err) != 0)
		return -1;
	/* The row must be the newest of its card. */
	if (store_prepare(st, "SELECT l.card_id FROM review_log l WHERE l.id = ?2 "
	    "AND l.profile_id = ?1 AND NOT EXISTS (SELECT 1 FROM review_log m "
	    "WHERE m.profile_id = ?1 AND m.card_id = l.card_id AND m.id > ?2);",
	    &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_int64(s, 2, log_id);
	if (sqlite3_step(s) == SQLITE_ROW)
		card = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	if (card == NULL) {
		store_rollback(st);
		return 1;
	}
	if (store_prepare(st, "DELETE FROM review_log WHERE id = ?1;", &s, err) != 0)
		rc = -1;
	else {
		sqlite3_bind_int64(s, 1, log_id);
		rc = store_step_done(st, s, err);
	}
	if (rc == 0 && rebuild(st, profile, card, p, &c, err) != 1)
		rc = -1;
	if (rc == 0)
		rc = put_card(st, profile, card, &c, NULL, err);
	if (rc == 0 && restored != NULL)
		*restored = c;
	free(card);
	return store_end(st, rc, err);
}

int
store_cards_today(struct store *st, int64_t profile, int64_t day_start,
    struct review_today *out, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (store_prepare(st, "SELECT COALESCE(SUM(state_before = 0), 0), "
	    "COALESCE(SUM(state_before = 2), 0) FROM review_log "
	    "WHERE profile_id = ?1 AND reviewed >= ?2;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_int64(s, 2, day_start);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->new_done = sqlite3_column_int(s, 0);
		out->reviews_done = sqlite3_column_int(s, 1);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, err);
}

static const char *const setting_key[3] = {
	"review.new_per_day", "review.reviews_per_day", "review.rollover_hour"
};

int
store_review_settings(struct store *st, int64_t profile,
    struct review_settings *out, struct pl_err *err)
{
	int *field[3] = { &out->new_per_day, &out->reviews_per_day,
	    &out->rollover_hour };
	char buf[32];
	long v;
	int i, rc;

	review_settings_default(out);
	for (i = 0; i < 3; i++) {
		rc = store_setting_get(st, profile, setting_key[i], buf,
		    sizeof buf, err);
		if (rc < 0)
			return -1;
		/* A damaged value falls back to the default. */
		if (rc == 1 && pl_parse_long(buf, 0, REVIEW_MAX_LIMIT, &v) == 0)
			*field[i] = (int)v;
	}
	if (out->rollover_hour > 23)
		out->rollover_hour = REVIEW_ROLLOVER_HOUR;
	return 0;
}

int
store_review_settings_save(struct store *st, int64_t profile,
    const struct review_settings *set, struct pl_err *err)
{
	int v[3] = { set->new_per_day, set->reviews_per_day,
	    set->rollover_hour };
	sqlite3_stmt *s;
	int i, rc = 0;

	if (review_settings_check(set, err) != 0 || store_begin(st, err) != 0)
		return -1;
	for (i = 0; i < 3 && rc == 0; i++) {
		if ((rc = store_prepare(st, "INSERT INTO settings (profile_id, key, "
		    "value) VALUES (?1, ?2, ?3) ON CONFLICT (profile_id, key) "
		    "DO UPDATE SET value = ?3;", &s, err)) != 0)
			break;
		sqlite3_bind_int64(s, 1, profile);
		sqlite3_bind_text(s, 2, setting_key[i], -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 3, v[i]);
		rc = store_step_done(st, s, err);
	}
	return store_end(st, rc, err);
}

int
store_local_offset(int64_t now)
{
	time_t t = (time_t)now;
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL)
		return 0;
	return (int)tm.tm_gmtoff;
}
