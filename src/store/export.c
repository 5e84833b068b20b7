/*
 * export.c - profile export as JSON (the CSV form: export_csv.c; import:
 * import.c).
 *
 * The export is written as it is read: each SELECT's rows go to the file
 * one by one, laid out byte for byte as cJSON_Print laid out the tree an
 * earlier parlearn built first (core/jsonw.h), so memory does not grow
 * with the profile. Rows become JSON objects generically: each SELECT
 * names its columns as the JSON keys, and a column's SQLite type decides
 * the JSON type (NULL, integer, real, text). Every SELECT has an ORDER BY
 * on the table's key, which makes an export deterministic, and all read
 * one snapshot. Import (import.c) matches rows by the same keys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/jsonw.h"
#include "core/safetext.h"
#include "core/course/scenario.h"
#include "store/export.h"
#include "store/export_int.h"
#include "store/progress_score.h"

const char export_sql_drops[] =
    "SELECT drop_id AS \"drop\", status, started, finished, seconds,"
    " position, last_seen FROM drop_progress WHERE profile_id = ?"
    " ORDER BY drop_id";
const char export_sql_answers[] =
    "SELECT drop_id AS \"drop\", question_id AS question, attempt, correct,"
    " response, seconds, answered, rule FROM answers WHERE profile_id = ?"
    " ORDER BY drop_id, question_id, attempt, id";
/* A defense's written trade-off, keyed by the attempt it came with. */
const char export_sql_tradeoffs[] =
    "SELECT a.drop_id AS \"drop\", a.question_id AS question, a.attempt,"
    " t.text FROM scenario_tradeoffs t JOIN answers a ON a.id = t.answer_id"
    " WHERE a.profile_id = ? ORDER BY a.drop_id, a.question_id, a.attempt,"
    " a.id";
const char export_sql_settings[] =
    "SELECT key, value FROM settings WHERE profile_id = ? ORDER BY key";
/* Scenario attempts, in the answers' order (store/scenario_store.h). */
static const char sql_scenarios[] =
    "SELECT drop_id, substr(question_id, 10), correct FROM answers"
    " WHERE profile_id = ? AND substr(question_id, 1, 9) = 'scenario:'"
    " ORDER BY drop_id, question_id, attempt, id";

int
export_exact(int64_t v)
{
	return v >= -EXPORT_EXACT_MAX && v <= EXPORT_EXACT_MAX;
}

int
export_query(struct store *st, const char *sql, int64_t profile,
    sqlite3_stmt **s, struct pl_err *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	sqlite3_bind_int64(*s, 1, profile);
	return 0;
}

int
export_find_profile(struct store *st, const char *name, int64_t *id,
    int64_t *created, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, "SELECT id, created FROM profiles"
	    " WHERE name = ?", -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(s, 0);
		*created = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return store_fail(st, err);
	pl_err_set(err, st->path, 0, 0, _("no profile called \"%s\""), name);
	return -1;
}

int
export_has_table(struct store *st, const char *name)
{
	sqlite3_stmt *s;
	int found = 0;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master WHERE"
	    " type = 'table' AND name = ?", -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

int
export_snapshot_begin(struct store *st, struct pl_err *err)
{
	if (!sqlite3_get_autocommit(st->db))
		return 0;
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(st, err);
	return 1;
}

void
export_snapshot_end(struct store *st, int began)
{
	if (began > 0)
		sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
}

const char *
export_tradeoff_text(sqlite3_stmt *s, int i, char **owned)
{
	const char *t;
	char *safe;
	size_t n;

	*owned = NULL;
	if (sqlite3_column_type(s, i) != SQLITE_TEXT &&
	    sqlite3_column_type(s, i) != SQLITE_BLOB)
		return NULL;
	t = (const char *)sqlite3_column_text(s, i);
	if (t == NULL || sc_tradeoff_ok(t))
		return t;
	if ((safe = safetext_dup(t, SAFETEXT_UTF8)) == NULL)
		return NULL;
	if ((n = strlen(safe)) > SC_TRADEOFF_LEN - 1) {
		n = SC_TRADEOFF_LEN - 1;
		while (n > 0 && ((unsigned char)safe[n] & 0xC0) == 0x80)
			n--;
		safe[n] = '\0';
	}
	if (!sc_tradeoff_ok(safe)) {
		free(safe);
		return NULL;
	}
	return *owned = safe;
}

/* One JSON export being written. */
struct xjson {
	struct store	*st;
	struct jsonw	 w;
	struct pl_err	*err;
	int		 e;	/* errno of the first failed write, or 0 */
};

/* 0 while every write went through; else -2 with x->e set. */
static int
written(struct xjson *x)
{
	if (ferror(x->w.fp)) {
		if (x->e == 0)
			x->e = errno != 0 ? errno : EIO;
		return -2;
	}
	return 0;
}

static void
put_integer(struct jsonw *w, int64_t v)
{
	char digits[32];

	if (export_exact(v)) {
		jsonw_number(w, (double)v);
		return;
	}
	snprintf(digits, sizeof digits, "%lld", (long long)v);
	jsonw_string(w, digits);
}

static void
put_column(struct jsonw *w, sqlite3_stmt *s, int i)
{
	switch (sqlite3_column_type(s, i)) {
	case SQLITE_NULL:
		jsonw_null(w);
		break;
	case SQLITE_INTEGER:
		put_integer(w, sqlite3_column_int64(s, i));
		break;
	case SQLITE_FLOAT:
		jsonw_number(w, sqlite3_column_double(s, i));
		break;
	default:
		jsonw_string(w, (const char *)sqlite3_column_text(s, i));
	}
}

/*
 * One row as an object: every column but the row id and the profile,
 * which differ between databases; column text_col (if >= 0) as text.
 */
static void
put_row(struct jsonw *w, sqlite3_stmt *s, int text_col, const char *text)
{
	int i, n = sqlite3_column_count(s);
	const char *k;

	jsonw_object_begin(w);
	for (i = 0; i < n; i++) {
		k = sqlite3_column_name(s, i);
		if (strcmp(k, "id") == 0 || strcmp(k, "profile_id") == 0)
			continue;
		jsonw_key(w, k);
		if (i == text_col)
			jsonw_string(w, text);
		else
			put_column(w, s, i);
	}
	jsonw_object_end(w);
}

/*
 * The rows of sql as an array under key. With tradeoffs set, the last
 * column is a trade-off's text (export_tradeoff_text). 0, -1 (err set)
 * or -2 (a write failed).
 */
static int
rows(struct xjson *x, const char *key, const char *sql, int64_t profile,
    int tradeoffs)
{
	sqlite3_stmt *s;
	const char *text = NULL;
	char *owned = NULL;
	int rc, col = -1, out = 0;

	if (export_query(x->st, sql, profile, &s, x->err) != 0)
		return -1;
	if (tradeoffs)
		col = sqlite3_column_count(s) - 1;
	jsonw_key(&x->w, key);
	jsonw_array_begin(&x->w);
	while (out == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (col < 0 || (text = export_tradeoff_text(s, col,
		    &owned)) != NULL)
			put_row(&x->w, s, col, text);
		free(owned);
		owned = NULL;
		out = written(x);
	}
	sqlite3_finalize(s);
	if (out != 0)
		return out;
	if (rc != SQLITE_DONE)
		return store_fail(x->st, x->err);
	jsonw_array_end(&x->w);
	return 0;
}

/*
 * Per scenario: attempts and whether any solved it. The playground keeps
 * scenario attempts in the answers table as "scenario:<id>"; the
 * diagnoses committed in an incident ("scenario:<id>#diagnosis") are
 * answers of their own, not attempts.
 */
static void
end_scenario(struct jsonw *w, int attempts, int solved)
{
	jsonw_key(w, "attempts");
	jsonw_number(w, attempts);
	jsonw_key(w, "solved");
	jsonw_bool(w, solved);
	jsonw_object_end(w);
}

/* What counts as a right answer: a number that is not 0 (as it was read
 * from an export, where a 64-bit integer is a string). */
static int
is_correct(sqlite3_stmt *s, int i)
{
	switch (sqlite3_column_type(s, i)) {
	case SQLITE_INTEGER:
		return export_exact(sqlite3_column_int64(s, i)) &&
		    sqlite3_column_int64(s, i) != 0;
	case SQLITE_FLOAT:
		return sqlite3_column_double(s, i) != 0;
	default:
		return 0;
	}
}

static int
scenarios(struct xjson *x, int64_t profile)
{
	char *drop = NULL, *scen = NULL;
	const char *d, *q;
	sqlite3_stmt *s;
	int rc, attempts = 0, solved = 0, open = 0;

	if (export_query(x->st, sql_scenarios, profile, &s, x->err) != 0)
		return -1;
	jsonw_key(&x->w, "scenarios");
	jsonw_array_begin(&x->w);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		d = (const char *)sqlite3_column_text(s, 0);
		q = (const char *)sqlite3_column_text(s, 1);
		if (d == NULL || q == NULL ||
		    strstr(q, STORE_DIAGNOSIS_SUFFIX) != NULL)
			continue;
		if (!open || strcmp(drop, d) != 0 || strcmp(scen, q) != 0) {
			free(drop);
			free(scen);
			drop = strdup(d);
			scen = strdup(q);
			if (drop == NULL || scen == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			if (open)
				end_scenario(&x->w, attempts, solved);
			jsonw_object_begin(&x->w);
			jsonw_key(&x->w, "drop");
			jsonw_string(&x->w, d);
			jsonw_key(&x->w, "scenario");
			jsonw_string(&x->w, q);
			attempts = solved = 0;
			open = 1;
		}
		attempts++;
		solved = solved || is_correct(s, 2);
	}
	sqlite3_finalize(s);
	free(drop);
	free(scen);
	if (rc == SQLITE_NOMEM) {
		pl_err_set(x->err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	if (rc != SQLITE_DONE)
		return store_fail(x->st, x->err);
	if (open)
		end_scenario(&x->w, attempts, solved);
	jsonw_array_end(&x->w);
	return written(x);
}

/*
 * Review statistics (issue 7): the review tables, each exported whole
 * (every column but the row id and the profile) and restored by
 * import_review(). A table this database does not have is left out; with
 * none of them the section is null. Add a table here and in
 * review_tables[] when the review schema grows one.
 */
static const struct review_table {
	const char	*name;		/* table, also the JSON key */
	const char	*order;		/* ORDER BY: its key */
} review_tables[] = {
	{ "cards", "card_id" },
	{ "user_cards", "card_id" },
	{ "review_log", "card_id, reviewed, id" },
};

static int
review(struct xjson *x, int64_t profile)
{
	char sql[256];
	size_t i, n = 0, k = sizeof review_tables / sizeof review_tables[0];
	int rc;

	jsonw_key(&x->w, "review");
	for (i = 0; i < k; i++)
		n += export_has_table(x->st, review_tables[i].name);
	if (n == 0) {
		jsonw_null(&x->w);
		return 0;
	}
	jsonw_object_begin(&x->w);
	for (i = 0; i < k; i++) {
		if (!export_has_table(x->st, review_tables[i].name))
			continue;
		snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE profile_id = ?"
		    " ORDER BY %s", review_tables[i].name,
		    review_tables[i].order);
		if ((rc = rows(x, review_tables[i].name, sql, profile, 0)) != 0)
			return rc;
	}
	jsonw_object_end(&x->w);
	return 0;
}

int
export_profile_write_json(struct store *st, const char *name,
    const struct content_course *c, FILE *fp, struct pl_err *err)
{
	struct xjson x = { st, { 0 }, err, 0 };
	int64_t id = 0, created = 0;
	int rc, began;

	(void)c;
	if (err != NULL)
		pl_err_clear(err);
	if ((began = export_snapshot_begin(st, err)) < 0)
		return -1;
	if (export_find_profile(st, name, &id, &created, err) != 0) {
		export_snapshot_end(st, began);
		return -1;
	}
	jsonw_init(&x.w, fp);
	jsonw_object_begin(&x.w);
	jsonw_key(&x.w, "schema");
	jsonw_string(&x.w, EXPORT_SCHEMA);
	jsonw_key(&x.w, "format");
	jsonw_string(&x.w, EXPORT_FORMAT);
	jsonw_key(&x.w, "version");
	jsonw_number(&x.w, EXPORT_VERSION);
	jsonw_key(&x.w, "db_schema");
	jsonw_number(&x.w, store_schema_version(st));
	jsonw_key(&x.w, "profile");
	jsonw_object_begin(&x.w);
	jsonw_key(&x.w, "name");
	jsonw_string(&x.w, name);
	jsonw_key(&x.w, "created");
	jsonw_number(&x.w, (double)created);
	jsonw_object_end(&x.w);
	/* The order an earlier parlearn's tree had. */
	if ((rc = rows(&x, "drops", export_sql_drops, id, 0)) == 0 &&
	    (rc = rows(&x, "settings", export_sql_settings, id, 0)) == 0 &&
	    (rc = rows(&x, "answers", export_sql_answers, id, 0)) == 0 &&
	    (rc = rows(&x, "tradeoffs", export_sql_tradeoffs, id, 1)) == 0 &&
	    (rc = scenarios(&x, id)) == 0 && (rc = review(&x, id)) == 0) {
		jsonw_object_end(&x.w);
		putc('\n', fp);
		rc = written(&x);
	}
	export_snapshot_end(st, began);
	if (rc == -2)
		errno = x.e;
	return rc;
}

/* What the writer gives, in memory. */
static char *
in_memory(struct store *st, const char *name,
    const struct content_course *c, int csv, struct pl_err *err)
{
	char *text = NULL;
	size_t n = 0;
	FILE *fp;
	int rc;

	if ((fp = open_memstream(&text, &n)) == NULL) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return NULL;
	}
	rc = csv ? export_profile_write_csv(st, name, fp, err) :
	    export_profile_write_json(st, name, c, fp, err);
	if (fclose(fp) != 0 && rc == 0)
		rc = -2;
	if (rc != 0) {
		if (rc == -2)
			pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		free(text);
		return NULL;
	}
	if (!csv && n > 0 && text[n - 1] == '\n')
		text[n - 1] = '\0';
	return text;
}

char *
export_profile_json(struct store *st, const char *name,
    const struct content_course *c, struct pl_err *err)
{
	return in_memory(st, name, c, 0, err);
}

char *
export_profile_csv(struct store *st, const char *name, struct pl_err *err)
{
	return in_memory(st, name, NULL, 1, err);
}

int
export_answer_summary(struct store *st, int64_t profile, const char *drop,
    const char *q, int *first, int *correct, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc, n = 0, scen;

	*first = *correct = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT correct FROM answers WHERE"
	    " profile_id = ? AND drop_id = ? AND question_id = ?"
	    " ORDER BY attempt, id", -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, drop, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, q, -1, SQLITE_STATIC);
	scen = strncmp(q, EXPORT_SCENARIO_PREFIX,
	    strlen(EXPORT_SCENARIO_PREFIX)) == 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*correct = (scen && *correct) || sqlite3_column_int(s, 0) != 0;
		if (n++ == 0)
			*first = *correct;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? n : store_fail(st, err);
}
