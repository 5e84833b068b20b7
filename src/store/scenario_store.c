/*
 * scenario_store.c - scenario attempts as rows of the answers table.
 */
#include <stdio.h>
#include <string.h>

#include "store/export.h"
#include "store/progress.h"
#include "store/scenario_store.h"

/* The answers table's question id: EXPORT_SCENARIO_PREFIX + the id. */
static void
question_id(char *buf, size_t size, const char *scenario_id)
{
	snprintf(buf, size, "%s%s", EXPORT_SCENARIO_PREFIX, scenario_id);
}

int
store_scenario_add(struct store *st, int64_t profile, const char *drop_id,
    const char *scenario_id, int passed, const char *layout, double seconds,
    int64_t now, struct pl_err *err)
{
	char q[160];

	question_id(q, sizeof q, scenario_id);
	return store_answer_add(st, profile, drop_id, q, passed, layout,
	    seconds, now, NULL, err);
}

int
store_scenario_diagnose(struct store *st, int64_t profile,
    const char *drop_id, const char *scenario_id, int option, int right,
    double seconds, int64_t now, struct pl_err *err)
{
	char q[180], resp[16];

	snprintf(q, sizeof q, "%s%s%s", EXPORT_SCENARIO_PREFIX, scenario_id,
	    STORE_DIAGNOSIS_SUFFIX);
	snprintf(resp, sizeof resp, "%d", option + 1);
	return store_answer_add(st, profile, drop_id, q, right, resp, seconds,
	    now, NULL, err);
}

/* The last committed diagnosis into out. */
static int
last_diagnosis(struct store *st, int64_t profile, const char *drop_id,
    const char *scenario_id, struct store_scenario_stats *out,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	char q[180];
	int rc;

	out->diagnosis = -1;
	snprintf(q, sizeof q, "%s%s%s", EXPORT_SCENARIO_PREFIX, scenario_id,
	    STORE_DIAGNOSIS_SUFFIX);
	if (store_prepare(st, "SELECT CAST(response AS INTEGER), correct FROM "
	    "answers WHERE profile_id = ?1 AND drop_id = ?2 AND "
	    "question_id = ?3 ORDER BY id DESC LIMIT 1;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, q, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->diagnosis = sqlite3_column_int(s, 0) - 1;
		out->diagnosis_right = sqlite3_column_int(s, 1) != 0;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_fail(st, err);
}

int
store_scenario_stats(struct store *st, int64_t profile, const char *drop_id,
    const char *scenario_id, struct store_scenario_stats *out,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	const unsigned char *t;
	char q[160];
	int rc;

	memset(out, 0, sizeof *out);
	question_id(q, sizeof q, scenario_id);
	if (sqlite3_prepare_v2(st->db, "SELECT COUNT(*), "
	    "COALESCE(SUM(correct = 0), 0), COALESCE(MAX(correct), 0), "
	    "(SELECT response FROM answers WHERE profile_id = ?1 AND "
	    "drop_id = ?2 AND question_id = ?3 AND correct = 1 "
	    "ORDER BY id DESC LIMIT 1), "
	    "COALESCE(SUM(response LIKE '%;prediction=off%'), 0) "
	    "FROM answers WHERE profile_id = ?1 "
	    "AND drop_id = ?2 AND question_id = ?3;", -1, &s,
	    NULL) != SQLITE_OK)
		return store_fail(st, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, q, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->attempts = sqlite3_column_int(s, 0);
		out->failed = sqlite3_column_int(s, 1);
		out->passed = sqlite3_column_int(s, 2) != 0;
		if ((t = sqlite3_column_text(s, 3)) != NULL)
			snprintf(out->layout, sizeof out->layout, "%s",
			    (const char *)t);
		out->predictions_off = sqlite3_column_int(s, 4);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_fail(st, err);
	return last_diagnosis(st, profile, drop_id, scenario_id, out, err);
}
