/*
 * import.c - restoring a profile from its JSON export (export.h has the
 * schema and the contract).
 *
 * The export comes from a file anyone may have edited, so nothing reaches
 * the database unchecked: the sections below are the schema as a table,
 * every row of the file is checked against it (type, range, text without
 * control characters) and its key checked for repeats before the first
 * write, and a refusal names the JSON path. Then the rows go in, in one
 * transaction. Both passes are linear: repeats are found by sorting the
 * keys, and rows already in the database by a sorted set of their keys
 * read once, never by a query per row.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "core/course/scenario.h"
#include "core/json.h"
#include "core/safetext.h"
#include "store/cards.h"
#include "core/course/score.h"
#include "store/export.h"
#include "store/import_int.h"
#include "store/progress.h"


static const struct field drop_fields[] = {
	{ "drop", F_ID, 0, 0, 0 },
	{ "status", F_INT, 0, 0, 2 },
	{ "seconds", F_INT, 0, 0, 1e9 },
	{ "position", F_INT, 0, 0, 1e6 },
	{ "started", F_TIME, 1, 0, 0 },
	{ "finished", F_TIME, 1, 0, 0 },
	{ "last_seen", F_TIME, 1, 0, 0 },
};
const struct field import_answer_fields[] = {
	{ "drop", F_ID, 0, 0, 0 },
	{ "question", F_ID, 0, 0, 0 },
	{ "attempt", F_INT, 0, 1, 1e6 },
	{ "correct", F_INT, 0, 0, 1 },
	{ "response", F_TEXT, 0, 0, 0 },
	{ "seconds", F_REAL, 0, 0, 1e7 },
	{ "answered", F_TIME, 0, 0, 0 },
	{ "rule", F_INT, 1, 1, SCORE_RULE },	/* absent: saved before
						 * issue 22, rule 1 */
};
/* Keyed by the answers row (a scenario attempt) it belongs to. */
const struct field import_tradeoff_fields[] = {
	{ "drop", F_ID, 0, 0, 0 },
	{ "question", F_ID, 0, 0, 0 },
	{ "attempt", F_INT, 0, 1, 1e6 },
	{ "text", F_TRADEOFF, 0, 0, 0 },
};
static const struct field setting_fields[] = {
	{ "key", F_ID, 0, 0, 0 },
	{ "value", F_TEXT, 0, 0, 0 },
};
static const struct field card_fields[] = {
	{ "card_id", F_ID, 0, 0, 0 },
	{ "seed", F_INT64, 0, 0, 0 },
	{ "state", F_INT, 0, 0, 3 },
	{ "step", F_INT, 0, 0, 1000 },
	{ "stability", F_REAL, 0, 0, 1e6 },
	{ "difficulty", F_REAL, 0, 0, 10 },
	{ "due", F_TIME, 0, 0, 0 },
	{ "last_review", F_TIME, 0, 0, 0 },
	{ "reps", F_INT, 0, 0, 1e7 },
	{ "lapses", F_INT, 0, 0, 1e7 },
	{ "added", F_TIME, 0, 0, 0 },
	{ "suspended", F_INT, 1, 0, 1 },	/* absent in older files */
};
static const struct field user_card_fields[] = {
	{ "card_id", F_ID, 0, 0, 0 },
	{ "deck", F_DECK, 0, 0, 0 },
	{ "front", F_FACE, 0, 0, 0 },
	{ "back", F_FACE, 0, 0, 0 },
	{ "created", F_TIME, 0, 0, 0 },
	{ "tags", F_TEXT, 1, 0, 0 },
};
static const struct field log_fields[] = {
	{ "card_id", F_ID, 0, 0, 0 },
	{ "reviewed", F_TIME, 0, 0, 0 },
	{ "rating", F_INT, 0, 1, 4 },
	{ "duration_ms", F_INT, 0, 0, 1e10 },
	{ "elapsed_days", F_INT, 0, 0, 1e6 },
	{ "scheduled_days", F_INT, 0, 0, 1e6 },
	{ "scheduled_s", F_INT, 0, 0, 1e11 },
	{ "state_before", F_INT, 0, 0, 3 },
	{ "state_after", F_INT, 0, 0, 3 },
	{ "s_before", F_REAL, 0, 0, 1e6 },
	{ "d_before", F_REAL, 0, 0, 10 },
	{ "s_after", F_REAL, 0, 0, 1e6 },
	{ "d_after", F_REAL, 0, 0, 10 },
};

#define N(a)	(sizeof (a) / sizeof (a)[0])

/*
 * In this order: answers before the trade-offs that name them, user cards
 * before the card rows that name them. A trade-off goes to the profile's
 * answer of its key, whether the file brought it or the database had it;
 * one already there is kept (the answer id is its key).
 */
const struct section import_sections[] = {
	{ "drops", 0, "drop_progress", "INSERT OR REPLACE", drop_fields,
	    N(drop_fields), 1, NULL, 0, NULL },
	{ "answers", 0, "answers", NULL, import_answer_fields, N(import_answer_fields),
	    3, "SELECT drop_id, question_id, attempt FROM answers"
	    " WHERE profile_id = ?1", 0,
	    "INSERT INTO answers (profile_id, drop_id, question_id, attempt,"
	    " correct, response, seconds, answered, rule) VALUES (?1, ?2, ?3,"
	    " ?4, ?5, ?6, ?7, ?8, COALESCE(?9, 1))" },
	{ "tradeoffs", 0, "scenario_tradeoffs", NULL, import_tradeoff_fields,
	    N(import_tradeoff_fields), 3, NULL, 1,
	    "INSERT OR IGNORE INTO scenario_tradeoffs (answer_id, text)"
	    " SELECT id, ?5 FROM answers WHERE profile_id = ?1"
	    " AND drop_id = ?2 AND question_id = ?3 AND attempt = ?4"
	    " ORDER BY id LIMIT 1" },
	{ "settings", 0, "settings", "INSERT OR REPLACE", setting_fields,
	    N(setting_fields), 1, NULL, 0, NULL },
	{ "user_cards", 1, "user_cards", "INSERT OR IGNORE", user_card_fields,
	    N(user_card_fields), 1, NULL, 0, NULL },
	{ "cards", 1, "cards", NULL, card_fields,
	    N(card_fields), 1, NULL, 0,
	    "INSERT OR IGNORE INTO cards (profile_id, card_id, seed, state,"
	    " step, stability, difficulty, due, last_review, reps, lapses,"
	    " added, suspended) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10, ?11, ?12, COALESCE(?13, 0))" },
	{ "review_log", 1, "review_log", "INSERT", log_fields, N(log_fields),
	    2, "SELECT card_id, reviewed FROM review_log"
	    " WHERE profile_id = ?1", 0, NULL },
};
const size_t import_n_sections = N(import_sections);

/* Column names in the export differ from the table's for two keys. */
static const char *
column(const struct section *sec, const char *key)
{
	if (strcmp(sec->table, "drop_progress") == 0 ||
	    strcmp(sec->table, "answers") == 0) {
		if (strcmp(key, "drop") == 0)
			return "drop_id";
		if (strcmp(key, "question") == 0)
			return "question_id";
	}
	return key;
}

/* The keys of the profile's rows already in a section's table. */
static int
existing_keys(struct import *im, const struct section *sec,
    struct keyset *ks)
{
	sqlite3_stmt *s;
	char key[3 * ID_MAX_BYTES + 64];
	size_t k, len;
	int rc, n;

	if (store_prepare(im->st, sec->existing, &s, im->err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, im->profile);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (k = 0, len = 0; k < sec->n_key; k++) {
			n = snprintf(key + len, sizeof key - len, "%s%s",
			    k > 0 ? "\x1f" : "", (const char *)
			    sqlite3_column_text(s, (int)k));
			if (n > 0 && (size_t)n < sizeof key - len)
				len += (size_t)n;
		}
		if (import_keyset_add(ks, strdup(key)) != 0)
			break;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(im->st, im->err);
	if (ks->n > 1)
		qsort(ks->keys, ks->n, sizeof *ks->keys, import_cmp_key);
	return 0;
}

/* Bind a checked field as parameter i. */
static void
bind_field(sqlite3_stmt *s, int i, const cJSON *v, const struct field *f)
{
	int64_t iv = 0;

	if (v == NULL || cJSON_IsNull(v))
		sqlite3_bind_null(s, i);
	else if (f->type == F_REAL)
		sqlite3_bind_double(s, i, v->valuedouble);
	else if (f->type == F_INT || f->type == F_INT64 || f->type == F_TIME) {
		import_int_value(v, f->type, &iv);
		sqlite3_bind_int64(s, i, iv);
	} else
		sqlite3_bind_text(s, i, v->valuestring, -1, SQLITE_STATIC);
}

/* "INSERT ... INTO table (profile_id, cols) VALUES (?1, ?2, ...)". */
static char *
insert_sql(const struct section *sec)
{
	char *sql, *p;
	size_t k, n = 256;

	if (sec->insert != NULL)
		return strdup(sec->insert);
	for (k = 0; k < sec->n_fields; k++)
		n += strlen(column(sec, sec->fields[k].key)) + 8;
	if ((sql = malloc(n)) == NULL)
		return NULL;
	p = sql + snprintf(sql, n, "%s INTO %s (profile_id", sec->verb,
	    sec->table);
	for (k = 0; k < sec->n_fields; k++)
		p += snprintf(p, n - (size_t)(p - sql), ", %s",
		    column(sec, sec->fields[k].key));
	p += snprintf(p, n - (size_t)(p - sql), ") VALUES (?1");
	for (k = 0; k < sec->n_fields; k++)
		p += snprintf(p, n - (size_t)(p - sql), ", ?%zu", k + 2);
	snprintf(p, n - (size_t)(p - sql), ")");
	return sql;
}

static int
insert_section(struct import *im, const struct section *sec,
    const cJSON *arr)
{
	struct keyset have = { NULL, 0, 0 };
	const cJSON *row;
	sqlite3_stmt *s = NULL;
	char key[3 * ID_MAX_BYTES + 64], *sql = insert_sql(sec);
	size_t k, len;
	int64_t iv;
	int rc = 0;

	if (sql == NULL || store_prepare(im->st, sql, &s, im->err) != 0 ||
	    (sec->existing != NULL && existing_keys(im, sec, &have) != 0))
		rc = -1;
	cJSON_ArrayForEach(row, arr) {
		if (rc != 0)
			break;
		if (sec->existing != NULL) {
			for (k = 0, len = 0; k < sec->n_key; k++) {
				const cJSON *v = cJSON_GetObjectItemCaseSensitive(
				    row, sec->fields[k].key);

				iv = 0;
				import_int_value(v, sec->fields[k].type, &iv);
				import_key_part(key, sizeof key, &len, v,
				    &sec->fields[k], iv);
			}
			if (import_keyset_has(&have, key))
				continue;
		}
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		sqlite3_bind_int64(s, 1, im->profile);
		for (k = 0; k < sec->n_fields; k++)
			bind_field(s, (int)k + 2, cJSON_GetObjectItemCaseSensitive(
			    row, sec->fields[k].key), &sec->fields[k]);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = store_fail(im->st, im->err);
		else
			im->added += sqlite3_changes(im->st->db);
	}
	sqlite3_finalize(s);
	free(sql);
	import_keyset_free(&have);
	return rc;
}

static int
write_all(struct import *im, const cJSON *o, const char *name)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "profile");
	double created = 0;
	sqlite3_stmt *s;
	size_t i;

	pl_json_number(p, "created", 0, 0, EXPORT_TIME_MAX, &created,
	    im->file, "profile", NULL);
	if (store_prepare(im->st, "INSERT OR IGNORE INTO profiles (name,"
	    " created) VALUES (?1, ?2)", &s, im->err) != 0)
		return -1;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, (int64_t)created);
	if (store_step_done(im->st, s, im->err) != 0 ||
	    store_prepare(im->st, "SELECT id FROM profiles WHERE name = ?1",
	    &s, im->err) != 0)
		return -1;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		im->profile = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (im->profile == 0)
		return store_fail(im->st, im->err);
	for (i = 0; i < import_n_sections; i++)
		if (insert_section(im, &import_sections[i], import_section_array(o,
		    &import_sections[i])) != 0)
			return -1;
	return 0;
}

int
export_import_json(struct store *st, const char *text, const char *file,
    const char *as_name, const struct content_course *course, int *added,
    struct content_problems *notes, struct pl_err *err)
{
	struct import im;
	struct pl_err e;
	const char *name = NULL;
	cJSON *o;
	int rc = -1;

	memset(&im, 0, sizeof im);
	im.st = st;
	im.file = file;
	im.course = course;
	im.notes = notes;
	im.err = err;
	if (added != NULL)
		*added = 0;
	if ((o = pl_json_parse(text, file, err)) == NULL)
		return -1;
	if (import_check_header(&im, o, &name) == 0 && import_check_all(&im,
	    o, as_name != NULL ? as_name : name) == 0 &&
	    store_begin(st, err) == 0)
		rc = store_end(st, write_all(&im, o, as_name != NULL ?
		    as_name : name), err);
	if (rc == 0 && notes != NULL && im.n_unknown > im.noted.n) {
		pl_err_set(&e, file, 0, 0, _("%zu rows in all name a drop or "
		    "question the course does not have"), im.n_unknown);
		content_add_problem(notes, &e);
	}
	import_keyset_free(&im.noted);
	cJSON_Delete(o);
	if (added != NULL && rc == 0)
		*added = im.added;
	return rc;
}
