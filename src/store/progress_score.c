/*
 * progress_score.c - reading a drop's answers back per question, for its
 * score and status (core/course/score.c decides what they add up to) and
 * for showing earlier answers when the drop is reopened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "store/export.h"
#include "store/progress.h"
#include "store/progress_score.h"

/* Per question id: count, earned early, first right, ever right, latest
 * right and latest response. */
static const char records_sql[] =
    "SELECT g.q, g.n, g.early, g.first, g.ever, l.correct, l.response "
    "FROM (SELECT question_id AS q, COUNT(*) AS n, "
    "MAX(correct AND attempt <= ?3) AS early, "
    "COALESCE(MAX(CASE WHEN attempt = 1 THEN correct END), 0) AS first, "
    "MAX(correct) AS ever, MAX(id) AS last FROM answers "
    "WHERE profile_id = ?1 AND drop_id = ?2 GROUP BY question_id) g "
    "JOIN answers l ON l.id = g.last ORDER BY g.q;";

static void
fill(struct score_record *r, sqlite3_stmt *s)
{
	const char *q = (const char *)sqlite3_column_text(s, 0);
	const char *resp = (const char *)sqlite3_column_text(s, 6);
	size_t plen = strlen(EXPORT_SCENARIO_PREFIX);

	memset(r, 0, sizeof *r);
	r->scenario = strncmp(q, EXPORT_SCENARIO_PREFIX, plen) == 0;
	snprintf(r->id, sizeof r->id, "%s", r->scenario ? q + plen : q);
	r->attempts = sqlite3_column_int(s, 1);
	/* An incident is earned by passing, however many checks it took. */
	r->earned = sqlite3_column_int(s, r->scenario ? 4 : 2) != 0;
	r->first_right = sqlite3_column_int(s, 3) != 0;
	r->last_right = sqlite3_column_int(s, 5) != 0;
	snprintf(r->response, sizeof r->response, "%s", resp != NULL ? resp :
	    "");
}

int
store_drop_records(struct store *st, int64_t profile, const char *drop_id,
    struct score_record **recs, size_t *n, struct pl_err *err)
{
	struct score_record *v = NULL, *nv;
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc;

	*recs = NULL;
	*n = 0;
	if (store_prepare(st, records_sql, &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 3, SCORE_EARN_ATTEMPTS);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 16 : 2 * cap;
			if ((nv = realloc(v, cap * sizeof *v)) == NULL) {
				sqlite3_finalize(s);
				free(v);
				*n = 0;
				pl_err_set(err, NULL, 0, 0, "%s",
				    _("out of memory"));
				return -1;
			}
			v = nv;
		}
		fill(&v[(*n)++], s);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(v);
		*n = 0;
		return store_fail(st, err);
	}
	*recs = v;
	return 0;
}

int
store_drop_score(struct store *st, int64_t profile,
    const struct content_drop *d, struct drop_score *out,
    enum curriculum_status *status, struct pl_err *err)
{
	struct store_drop_progress p;
	struct score_record *recs;
	size_t n;

	if (store_drop_get(st, profile, d->id, &p, err) != 0 ||
	    store_drop_records(st, profile, d->id, &recs, &n, err) != 0)
		return -1;
	score_drop(d, recs, n, p.status == CURRICULUM_READ, out);
	*status = score_status(p.status, out);
	free(recs);
	return 0;
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
		if (store_drop_score(st, profile, &c->drops[i],
		    scores != NULL ? &scores[i] : &one, &status[i], err) != 0)
			return -1;
	return 0;
}
