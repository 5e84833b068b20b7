/*
 * scenario_tradeoff.c - a defense's attempt and the trade-off written
 * with it, saved together.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/course/scenario.h"
#include "store/export.h"
#include "store/scenario_tradeoff.h"

int
store_scenario_add_tradeoff(struct store *st, int64_t profile,
    const char *drop_id, const char *scenario_id, int passed,
    const char *layout, const char *tradeoff, double seconds, int64_t now,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	char q[160];

	snprintf(q, sizeof q, "%s%s", EXPORT_SCENARIO_PREFIX, scenario_id);
	/* Never store what import would refuse (issue 23). */
	if (tradeoff != NULL && tradeoff[0] != '\0' &&
	    !sc_tradeoff_ok(tradeoff)) {
		pl_err_set(err, st->path, 0, 0, _("the trade-off must be text "
		    "of 1 to %d bytes without control characters"),
		    SC_TRADEOFF_LEN - 1);
		return -1;
	}
	if (store_begin(st, err) != 0)
		return -1;
	/* The attempt number as store_answer_add counts it. */
	if (store_prepare(st, "INSERT INTO answers (profile_id, drop_id, "
	    "question_id, attempt, correct, response, seconds, answered) "
	    "SELECT ?1, ?2, ?3, COUNT(*) + 1, ?4, ?5, ?6, ?7 FROM answers "
	    "WHERE profile_id = ?1 AND drop_id = ?2 AND question_id = ?3;",
	    &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, q, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 4, passed ? 1 : 0);
	sqlite3_bind_text(s, 5, layout != NULL ? layout : "", -1,
	    SQLITE_STATIC);
	sqlite3_bind_double(s, 6, seconds);
	sqlite3_bind_int64(s, 7, now);
	if (store_step_done(st, s, err) != 0)
		return store_end(st, -1, err);
	if (tradeoff == NULL || tradeoff[0] == '\0')
		return store_end(st, 0, err);
	if (store_prepare(st, "INSERT INTO scenario_tradeoffs (answer_id, "
	    "text) VALUES (last_insert_rowid(), ?1);", &s, err) != 0)
		return store_end(st, -1, err);
	sqlite3_bind_text(s, 1, tradeoff, -1, SQLITE_STATIC);
	return store_end(st, store_step_done(st, s, err), err);
}

int
store_scenario_tradeoff(struct store *st, int64_t profile,
    const char *drop_id, const char *scenario_id, char *buf, size_t size,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	char q[160];

	buf[0] = '\0';
	snprintf(q, sizeof q, "%s%s", EXPORT_SCENARIO_PREFIX, scenario_id);
	if (store_prepare(st, "SELECT t.text FROM scenario_tradeoffs t "
	    "JOIN answers a ON a.id = t.answer_id WHERE a.profile_id = ?1 "
	    "AND a.drop_id = ?2 AND a.question_id = ?3 ORDER BY a.id DESC "
	    "LIMIT 1;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, q, -1, SQLITE_STATIC);
	return store_step_text(st, s, buf, size, err);
}
