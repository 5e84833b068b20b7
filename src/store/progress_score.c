/*
 * progress_score.c - reading a drop's answers back, oldest first, for
 * core/course/score.c to grade; the review log of the drop's cards for
 * mastery; and showing earlier answers when the drop is reopened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/srs/review.h"
#include "store/cards.h"
#include "store/export.h"
#include "store/progress.h"
#include "store/progress_score.h"

/* The drop's answers as saved: one row each, strings owned. */
struct answer_rows {
	char			**qid;
	struct score_attempt	 *a;
	size_t			  n;
};

static void
rows_free(struct answer_rows *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->qid[i]);
		free((char *)r->a[i].response);
	}
	free(r->qid);
	free(r->a);
	memset(r, 0, sizeof *r);
}

static int
rows_read(struct store *st, int64_t profile, const char *drop_id,
    struct answer_rows *r, struct pl_err *err)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc;

	memset(r, 0, sizeof *r);
	if (store_prepare(st, "SELECT question_id, correct, rule, response, "
	    "answered FROM answers WHERE profile_id = ?1 AND drop_id = ?2 "
	    "ORDER BY id;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *q = (const char *)sqlite3_column_text(s, 0);
		const char *resp = (const char *)sqlite3_column_text(s, 3);

		if (r->n == cap) {
			char **nq;
			struct score_attempt *na;

			cap = cap == 0 ? 32 : 2 * cap;
			nq = realloc(r->qid, cap * sizeof *nq);
			if (nq != NULL)
				r->qid = nq;
			na = realloc(r->a, cap * sizeof *na);
			if (na != NULL)
				r->a = na;
			if (nq == NULL || na == NULL)
				break;
		}
		r->qid[r->n] = strdup(q != NULL ? q : "");
		r->a[r->n].response = strdup(resp != NULL ? resp : "");
		r->a[r->n].correct = sqlite3_column_int(s, 1) != 0;
		r->a[r->n].rule = sqlite3_column_int(s, 2);
		r->a[r->n].at = sqlite3_column_int64(s, 4);
		r->n++;
		if (r->qid[r->n - 1] == NULL || r->a[r->n - 1].response == NULL)
			break;
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW) {
		rows_free(r);
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	if (rc != SQLITE_DONE) {
		rows_free(r);
		return store_fail(st, err);
	}
	return 0;
}

/* The rows of question id qid, oldest first, into out; how many. */
static size_t
pick(const struct answer_rows *r, const char *qid, struct score_attempt *out)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->qid[i], qid) == 0)
			out[n++] = r->a[i];
	return n;
}

int
store_drop_records(struct store *st, int64_t profile,
    const struct content_drop *d, struct score_record **recs, size_t *n,
    struct pl_err *err)
{
	struct answer_rows rows;
	struct score_attempt *a = NULL, *diag = NULL;
	struct score_record *v;
	char id[256], did[300];
	size_t i, na, nd;

	*recs = NULL;
	*n = 0;
	if (rows_read(st, profile, d->id, &rows, err) != 0)
		return -1;
	v = calloc(d->n_blocks + 1, sizeof *v);
	a = calloc(rows.n + 1, sizeof *a);
	diag = calloc(rows.n + 1, sizeof *diag);
	if (v == NULL || a == NULL || diag == NULL) {
		free(v);
		free(a);
		free(diag);
		rows_free(&rows);
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	for (i = 0; i < d->n_blocks; i++) {
		const struct content_block *b = &d->blocks[i];

		if (b->kind == CONTENT_QUESTION) {
			if ((na = pick(&rows, b->question.id, a)) > 0)
				score_question(&b->question, a, na, &v[(*n)++]);
		} else if (b->kind == CONTENT_SCENARIO) {
			snprintf(id, sizeof id, "%s%s", EXPORT_SCENARIO_PREFIX,
			    b->scenario.id);
			snprintf(did, sizeof did, "%s%s", id,
			    STORE_DIAGNOSIS_SUFFIX);
			na = pick(&rows, id, a);
			nd = pick(&rows, did, diag);
			if (na > 0 || nd > 0)
				score_incident(b->scenario.id, a, na, diag, nd,
				    &v[(*n)++]);
		}
	}
	free(a);
	free(diag);
	rows_free(&rows);
	*recs = v;
	return 0;
}

/* The latest time card id was recalled (rated above Again), 0 if never. */
static int
last_recall(struct store *st, sqlite3_stmt *s, int64_t profile,
    const char *id, int64_t *at, struct pl_err *err)
{
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, id, -1, SQLITE_TRANSIENT);
	*at = 0;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*at = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		return store_fail(st, err);
	return 0;
}

/*
 * Mastery's second half: the drop's cards (the deck cards it unlocks,
 * and its mistake cards "q:DROP:QUESTION") each recalled on a review day
 * after the one it was done on (the profile's rollover hour, local time).
 */
static int
drop_recall(struct store *st, int64_t profile, const struct content_course *c,
    const struct content_drop *d, struct drop_score *out, struct pl_err *err)
{
	struct review_settings rs;
	sqlite3_stmt *s, *m;
	int64_t at, day0;
	int tz, cards = 0, recalled = 0, rc = 0;
	char prefix[300];
	size_t i;

	if (!out->done) {
		score_recall(out, 0, 0);
		return 0;
	}
	if (store_review_settings(st, profile, &rs, err) != 0)
		return -1;
	tz = store_local_offset(out->done_at);
	day0 = review_day(out->done_at, tz, rs.rollover_hour);
	if (store_prepare(st, "SELECT MAX(reviewed) FROM review_log WHERE "
	    "profile_id = ?1 AND card_id = ?2 AND rating > 1;", &s, err) != 0)
		return -1;
	for (i = 0; rc == 0 && i < c->n_cards; i++) {
		if (c->cards[i].drop == NULL ||
		    strcmp(c->cards[i].drop, d->id) != 0)
			continue;
		cards++;
		rc = last_recall(st, s, profile, c->cards[i].id, &at, err);
		recalled += rc == 0 && at > 0 &&
		    review_day(at, store_local_offset(at), rs.rollover_hour) >
		    day0;
	}
	snprintf(prefix, sizeof prefix, "q:%s:", d->id);
	if (rc == 0 && store_prepare(st, "SELECT card_id FROM user_cards "
	    "WHERE profile_id = ?1 AND substr(card_id, 1, length(?2)) = ?2;",
	    &m, err) == 0) {
		sqlite3_bind_int64(m, 1, profile);
		sqlite3_bind_text(m, 2, prefix, -1, SQLITE_STATIC);
		while (rc == 0 && sqlite3_step(m) == SQLITE_ROW) {
			cards++;
			rc = last_recall(st, s, profile,
			    (const char *)sqlite3_column_text(m, 0), &at, err);
			recalled += rc == 0 && at > 0 && review_day(at,
			    store_local_offset(at), rs.rollover_hour) > day0;
		}
		sqlite3_finalize(m);
	} else
		rc = -1;
	sqlite3_finalize(s);
	if (rc == 0)
		score_recall(out, cards, recalled);
	return rc;
}

int
store_drop_score(struct store *st, int64_t profile,
    const struct content_course *c, const struct content_drop *d,
    struct drop_score *out, enum curriculum_status *status,
    struct pl_err *err)
{
	struct store_drop_progress p;
	struct score_record *recs;
	size_t n;
	int rc;

	if (store_drop_get(st, profile, d->id, &p, err) != 0 ||
	    store_drop_records(st, profile, d, &recs, &n, err) != 0)
		return -1;
	score_drop(d, recs, n, p.status == CURRICULUM_READ, out);
	free(recs);
	rc = drop_recall(st, profile, c, d, out, err);
	*status = score_status(p.status, out);
	return rc;
}

int
store_course_progress(struct store *st, int64_t profile,
    const struct content_course *c, enum curriculum_status *status,
    struct drop_score *scores, int *last_index, struct pl_err *err)
{
	struct drop_score one;
	size_t i;

	if (store_course_status(st, profile, c, status, last_index, err) != 0)
		return -1;
	for (i = 0; i < c->n_drops; i++)
		if (store_drop_score(st, profile, c, &c->drops[i],
		    scores != NULL ? &scores[i] : &one, &status[i], err) != 0)
			return -1;
	return 0;
}
