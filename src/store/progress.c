/*
 * progress.c - what a learner has read and answered, per profile.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/safetext.h"
#include "store/progress.h"

int
store_profile(struct store *st, const char *name, int64_t now, int64_t *id,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (!safetext_name_ok(name, STORE_PROFILE_MAX_CHARS)) {
		pl_err_set(err, NULL, 0, 0, _("profile name \"%s\" must be 1 to "
		    "%d characters, none of them a control character"), name,
		    STORE_PROFILE_MAX_CHARS);
		return -1;
	}
	/* A read-only store only looks it up: a profile it lacks is id 0,
	 * which no row has. */
	if (st->readonly) {
		*id = 0;
		if (store_prepare(st, "SELECT id FROM profiles WHERE name = ?1;",
		    &s, err) != 0)
			return -1;
		sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(s)) == SQLITE_ROW)
			*id = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
		return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		    store_fail(st, err);
	}
	if (store_begin(st, err) != 0)
		return -1;
	if (store_prepare(st, "INSERT OR IGNORE INTO profiles (name, created) "
	    "VALUES (?1, ?2);", &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, now);
	if (store_step_done(st, s, err) != 0 || store_prepare(st,
	    "SELECT id FROM profiles WHERE name = ?1;", &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_end(st, store_fail(st, err), err);
	return store_end(st, 0, err);
}

int
store_drop_get(struct store *st, int64_t profile, const char *drop_id,
    struct store_drop_progress *out, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (store_prepare(st, "SELECT status, COALESCE(started, 0), "
	    "COALESCE(finished, 0), seconds, position, COALESCE(last_seen, 0) "
	    "FROM drop_progress WHERE profile_id = ?1 AND drop_id = ?2;",
	    &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->status = (enum curriculum_status)sqlite3_column_int(s, 0);
		out->started = sqlite3_column_int64(s, 1);
		out->finished = sqlite3_column_int64(s, 2);
		out->seconds = sqlite3_column_int64(s, 3);
		out->position = sqlite3_column_int(s, 4);
		out->last_seen = sqlite3_column_int64(s, 5);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, err);
	return 0;
}

int
store_drop_visit(struct store *st, int64_t profile, const char *drop_id,
    int position, int64_t add_seconds, int64_t now, struct pl_err *err)
{
	sqlite3_stmt *s;

	if (store_begin(st, err) != 0)
		return -1;
	if (store_prepare(st, "INSERT INTO drop_progress (profile_id, drop_id, "
	    "status, started, seconds, position, last_seen) "
	    "VALUES (?1, ?2, ?6, ?5, ?3, ?4, ?5) "
	    "ON CONFLICT (profile_id, drop_id) DO UPDATE SET "
	    "status = MAX(status, ?6), started = COALESCE(started, ?5), "
	    "seconds = seconds + ?3, position = ?4, last_seen = ?5;",
	    &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, add_seconds > 0 ? add_seconds : 0);
	sqlite3_bind_int(s, 4, position);
	sqlite3_bind_int64(s, 5, now);
	sqlite3_bind_int(s, 6, CURRICULUM_STARTED);
	if (store_step_done(st, s, err) != 0 || store_prepare(st, "INSERT INTO settings "
	    "(profile_id, key, value) VALUES (?1, 'last_drop', ?2) "
	    "ON CONFLICT (profile_id, key) DO UPDATE SET value = ?2;",
	    &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	return store_end(st, store_step_done(st, s, err), err);
}

int
store_drop_finish(struct store *st, int64_t profile, const char *drop_id,
    int64_t now, struct pl_err *err)
{
	sqlite3_stmt *s;

	if (store_begin(st, err) != 0)
		return -1;
	if (store_prepare(st, "INSERT INTO drop_progress (profile_id, drop_id, "
	    "status, started, finished, last_seen) VALUES (?1, ?2, ?4, ?3, ?3, "
	    "?3) ON CONFLICT (profile_id, drop_id) DO UPDATE SET status = ?4, "
	    "started = COALESCE(started, ?3), "
	    "finished = COALESCE(finished, ?3), last_seen = ?3;",
	    &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, now);
	sqlite3_bind_int(s, 4, CURRICULUM_READ);
	return store_end(st, store_step_done(st, s, err), err);
}

int
store_last_drop(struct store *st, int64_t profile, char *buf, size_t size,
    struct pl_err *err)
{
	return store_setting_get(st, profile, "last_drop", buf, size, err);
}

static int
count_attempts(struct store *st, int64_t profile, const char *drop_id,
    const char *question_id, int *n, int *last_correct, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*n = 0;
	if (last_correct != NULL)
		*last_correct = 0;
	if (store_prepare(st, "SELECT COUNT(*), (SELECT correct FROM answers WHERE "
	    "profile_id = ?1 AND drop_id = ?2 AND question_id = ?3 "
	    "ORDER BY id DESC LIMIT 1) FROM answers WHERE profile_id = ?1 "
	    "AND drop_id = ?2 AND question_id = ?3;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, question_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*n = sqlite3_column_int(s, 0);
		if (last_correct != NULL)
			*last_correct = sqlite3_column_int(s, 1);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, err);
}

int
store_answer_stats(struct store *st, int64_t profile, const char *drop_id,
    const char *question_id, int *attempts, int *last_correct,
    struct pl_err *err)
{
	return count_attempts(st, profile, drop_id, question_id, attempts,
	    last_correct, err);
}

int
store_answer_insert(struct store *st, int64_t profile, const char *drop_id,
    const char *question_id, int correct, const char *response,
    double seconds, int64_t now, int *attempt_out, struct pl_err *err)
{
	sqlite3_stmt *s;
	int n;

	if (count_attempts(st, profile, drop_id, question_id, &n, NULL,
	    err) != 0 || store_prepare(st, "INSERT INTO answers (profile_id, "
	    "drop_id, question_id, attempt, correct, response, seconds, "
	    "answered) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8);", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, question_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 4, n + 1);
	sqlite3_bind_int(s, 5, correct ? 1 : 0);
	sqlite3_bind_text(s, 6, response != NULL ? response : "", -1,
	    SQLITE_STATIC);
	sqlite3_bind_double(s, 7, seconds);
	sqlite3_bind_int64(s, 8, now);
	if (attempt_out != NULL)
		*attempt_out = n + 1;
	return store_step_done(st, s, err);
}

int
store_answer_add(struct store *st, int64_t profile, const char *drop_id,
    const char *question_id, int correct, const char *response,
    double seconds, int64_t now, int *attempt_out, struct pl_err *err)
{
	if (store_begin(st, err) != 0)
		return -1;
	return store_end(st, store_answer_insert(st, profile, drop_id,
	    question_id, correct, response, seconds, now, attempt_out, err),
	    err);
}

int
store_setting_get(struct store *st, int64_t profile, const char *key,
    char *buf, size_t size, struct pl_err *err)
{
	sqlite3_stmt *s;

	if (store_prepare(st, "SELECT value FROM settings WHERE profile_id = ?1 "
	    "AND key = ?2;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_STATIC);
	return store_step_text(st, s, buf, size, err);
}

int
store_setting_set(struct store *st, int64_t profile, const char *key,
    const char *value, struct pl_err *err)
{
	sqlite3_stmt *s;

	if (store_begin(st, err) != 0)
		return -1;
	if (store_prepare(st, "INSERT INTO settings (profile_id, key, value) "
	    "VALUES (?1, ?2, ?3) ON CONFLICT (profile_id, key) "
	    "DO UPDATE SET value = ?3;", &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, value, -1, SQLITE_STATIC);
	return store_end(st, store_step_done(st, s, err), err);
}

int
store_course_status(struct store *st, int64_t profile,
    const struct content_course *c, enum curriculum_status *status,
    int *last_index, struct pl_err *err)
{
	struct store_drop_progress p;
	char last[128];
	size_t i;
	int found;

	*last_index = -1;
	found = store_last_drop(st, profile, last, sizeof last, err);
	if (found < 0)
		return -1;
	for (i = 0; i < c->n_drops; i++) {
		if (store_drop_get(st, profile, c->drops[i].id, &p, err) != 0)
			return -1;
		status[i] = p.status;
		if (found && strcmp(c->drops[i].id, last) == 0)
			*last_index = (int)i;
	}
	return 0;
}
