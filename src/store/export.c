/*
 * export.c - profile export (JSON, CSV) and import.
 *
 * Rows are turned into JSON objects generically: each SELECT names its
 * columns as the JSON keys, and a column's SQLite type decides the JSON
 * type (NULL, integer, real, text). Every SELECT has an ORDER BY on the
 * table's key, which is what makes an export deterministic. Import matches
 * rows by the same keys: (drop) for progress, (drop, question, attempt)
 * for answers, (key) for settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "core/json.h"
#include "core/number.h"
#include "store/export.h"

static const char sql_drops[] =
    "SELECT drop_id AS \"drop\", status, started, finished, seconds,"
    " position, last_seen FROM drop_progress WHERE profile_id = ?"
    " ORDER BY drop_id";
static const char sql_answers[] =
    "SELECT drop_id AS \"drop\", question_id AS question, attempt, correct,"
    " response, seconds, answered FROM answers WHERE profile_id = ?"
    " ORDER BY drop_id, question_id, attempt, id";
static const char sql_settings[] =
    "SELECT key, value FROM settings WHERE profile_id = ? ORDER BY key";

/* Run sql with the profile bound; append one object per row to arr. */
static int
rows_json(struct store *st, const char *sql, int64_t profile, cJSON *arr,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	cJSON *o;
	int rc, i, n;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	sqlite3_bind_int64(s, 1, profile);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		o = cJSON_CreateObject();
		n = sqlite3_column_count(s);
		for (i = 0; i < n; i++) {
			const char *k = sqlite3_column_name(s, i);

			/* Row ids and the profile differ between databases. */
			if (strcmp(k, "id") == 0 || strcmp(k, "profile_id") == 0)
				continue;
			switch (sqlite3_column_type(s, i)) {
			case SQLITE_NULL:
				cJSON_AddNullToObject(o, k);
				break;
			case SQLITE_INTEGER:
			case SQLITE_FLOAT:
				cJSON_AddNumberToObject(o, k,
				    sqlite3_column_double(s, i));
				break;
			default:
				cJSON_AddStringToObject(o, k, (const char *)
				    sqlite3_column_text(s, i));
			}
		}
		cJSON_AddItemToArray(arr, o);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, err);
}

static int
find_profile(struct store *st, const char *name, int64_t *id,
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

/*
 * Per scenario: attempts and whether any solved it. The playground keeps
 * scenario attempts in the answers table as "scenario:<id>"
 * (store/scenario_store.h).
 */
static cJSON *
scenarios_json(const cJSON *answers, const struct content_course *c)
{
	cJSON *arr = cJSON_CreateArray(), *a, *last = NULL, *o;
	const char *d, *q;
	int solved;

	(void)c;
	cJSON_ArrayForEach(a, answers) {
		d = cJSON_GetObjectItem(a, "drop")->valuestring;
		q = cJSON_GetObjectItem(a, "question")->valuestring;
		if (strncmp(q, EXPORT_SCENARIO_PREFIX,
		    strlen(EXPORT_SCENARIO_PREFIX)) != 0)
			continue;
		q += strlen(EXPORT_SCENARIO_PREFIX);
		if (last == NULL || strcmp(cJSON_GetObjectItem(last,
		    "drop")->valuestring, d) != 0 || strcmp(cJSON_GetObjectItem(
		    last, "scenario")->valuestring, q) != 0) {
			last = cJSON_CreateObject();
			cJSON_AddStringToObject(last, "drop", d);
			cJSON_AddStringToObject(last, "scenario", q);
			cJSON_AddNumberToObject(last, "attempts", 0);
			cJSON_AddBoolToObject(last, "solved", 0);
			cJSON_AddItemToArray(arr, last);
		}
		o = cJSON_GetObjectItem(last, "attempts");
		cJSON_SetNumberValue(o, o->valuedouble + 1);
		solved = cJSON_IsTrue(cJSON_GetObjectItem(last, "solved")) ||
		    cJSON_GetObjectItem(a, "correct")->valuedouble != 0;
		cJSON_ReplaceItemInObject(last, "solved",
		    cJSON_CreateBool(solved));
	}
	return arr;
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
	const char	*unique;	/* columns that identify a row */
} review_tables[] = {
	{ "cards", "card_id", "card_id" },
	{ "user_cards", "card_id", "card_id" },
	{ "review_log", "card_id, reviewed, id", "card_id, reviewed" },
};

static int
has_table(struct store *st, const char *name)
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

static cJSON *
export_review_stats(struct store *st, int64_t profile, struct pl_err *err)
{
	cJSON *o = cJSON_CreateObject();
	char sql[256];
	size_t i, n = 0;

	for (i = 0; i < sizeof review_tables / sizeof review_tables[0]; i++) {
		if (!has_table(st, review_tables[i].name))
			continue;
		snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE profile_id = ?"
		    " ORDER BY %s", review_tables[i].name,
		    review_tables[i].order);
		if (rows_json(st, sql, profile, cJSON_AddArrayToObject(o,
		    review_tables[i].name), err) != 0)
			break;
		n++;
	}
	if (n == 0) {
		cJSON_Delete(o);
		return cJSON_CreateNull();
	}
	return o;
}

static cJSON *
profile_tree(struct store *st, const char *name,
    const struct content_course *c, struct pl_err *err)
{
	cJSON *o, *p, *answers;
	int64_t id = 0, created = 0;

	if (err != NULL)
		pl_err_clear(err);
	if (find_profile(st, name, &id, &created, err) != 0)
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "format", EXPORT_FORMAT);
	cJSON_AddNumberToObject(o, "version", EXPORT_VERSION);
	cJSON_AddNumberToObject(o, "schema", store_schema_version(st));
	p = cJSON_AddObjectToObject(o, "profile");
	cJSON_AddStringToObject(p, "name", name);
	cJSON_AddNumberToObject(p, "created", (double)created);
	answers = cJSON_CreateArray();
	if (rows_json(st, sql_drops, id, cJSON_AddArrayToObject(o, "drops"),
	    err) != 0 || rows_json(st, sql_answers, id, answers, err) != 0 ||
	    rows_json(st, sql_settings, id, cJSON_AddArrayToObject(o,
	    "settings"), err) != 0) {
		cJSON_Delete(answers);
		cJSON_Delete(o);
		return NULL;
	}
	cJSON_AddItemToObject(o, "answers", answers);
	cJSON_AddItemToObject(o, "scenarios", scenarios_json(answers, c));
	cJSON_AddItemToObject(o, "review", export_review_stats(st, id, err));
	if (err != NULL && err->msg[0] != '\0') {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

char *
export_profile_json(struct store *st, const char *name,
    const struct content_course *c, struct pl_err *err)
{
	cJSON *o = profile_tree(st, name, c, err);
	char *s;

	if (o == NULL)
		return NULL;
	s = cJSON_Print(o);
	cJSON_Delete(o);
	return s;
}

/* Append a CSV field (quoted, quotes doubled, formula chars defused). */
static void
csv_field(FILE *fp, const cJSON *v)
{
	const char *s;

	if (v == NULL || cJSON_IsNull(v))
		return;
	if (cJSON_IsNumber(v)) {	/* '.' whatever the locale */
		char num[64];

		fputs(pl_num_c(num, sizeof num, v->valuedouble, 'g', 17), fp);
		return;
	}
	s = v->valuestring;
	fputc('"', fp);
	if (strchr("=+-@", s[0]) != NULL && s[0] != '\0')
		fputc('\'', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void
csv_rows(FILE *fp, const char *kind, const cJSON *arr,
    const char *const *keys)
{
	const cJSON *row;
	int i;

	cJSON_ArrayForEach(row, arr) {
		fputs(kind, fp);
		for (i = 0; keys[i] != NULL; i++) {
			fputc(',', fp);
			if (keys[i][0] != '\0')
				csv_field(fp, cJSON_GetObjectItem(row, keys[i]));
		}
		fputc('\n', fp);
	}
}

char *
export_profile_csv(struct store *st, const char *name, struct pl_err *err)
{
	static const char *const drop_keys[] = { "drop", "", "", "", "status",
	    "seconds", "started", "finished", "", NULL };
	static const char *const ans_keys[] = { "drop", "question", "attempt",
	    "correct", "", "seconds", "answered", "", "response", NULL };
	static const char *const set_keys[] = { "", "key", "", "", "", "",
	    "", "", "value", NULL };
	cJSON *o = profile_tree(st, name, NULL, err);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (o == NULL || (fp = open_memstream(&buf, &len)) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	fputs("kind,drop,item,attempt,correct,status,seconds,time,finished,value\n",
	    fp);
	csv_rows(fp, "drop", cJSON_GetObjectItem(o, "drops"), drop_keys);
	csv_rows(fp, "answer", cJSON_GetObjectItem(o, "answers"), ans_keys);
	csv_rows(fp, "setting", cJSON_GetObjectItem(o, "settings"), set_keys);
	fclose(fp);
	cJSON_Delete(o);
	return buf;
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

/* Bind a JSON value (number, string, null) as parameter i. */
static void
bind_json(sqlite3_stmt *s, int i, const cJSON *v)
{
	if (cJSON_IsNumber(v)) {
		if (v->valuedouble == (double)(int64_t)v->valuedouble)
			sqlite3_bind_int64(s, i, (int64_t)v->valuedouble);
		else
			sqlite3_bind_double(s, i, v->valuedouble);
	} else if (cJSON_IsString(v))
		sqlite3_bind_text(s, i, v->valuestring, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

/*
 * Insert each row of arr with sql, whose parameters are the profile then
 * keys[] in order; rows that must not be null are checked first.
 */
static int
import_rows(struct store *st, const char *sql, int64_t profile,
    const cJSON *arr, const char *const *keys, int n_required,
    const char *file, const char *what, int *added, struct pl_err *err)
{
	const cJSON *row, *v;
	char path[64];
	sqlite3_stmt *s;
	int i, r = 0;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	cJSON_ArrayForEach(row, arr) {
		pl_json_path_index(path, sizeof path, what, r++);
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		sqlite3_bind_int64(s, 1, profile);
		for (i = 0; keys[i] != NULL; i++) {
			v = cJSON_GetObjectItemCaseSensitive(row, keys[i]);
			if (i < n_required && !cJSON_IsNumber(v) &&
			    !cJSON_IsString(v)) {
				pl_err_set_path(err, file, path,
				    _("\"%s\" is missing"), keys[i]);
				sqlite3_finalize(s);
				return -1;
			}
			bind_json(s, i + 2, v);
		}
		if (sqlite3_step(s) != SQLITE_DONE) {
			sqlite3_finalize(s);
			return store_fail(st, err);
		}
		*added += sqlite3_changes(st->db);
	}
	sqlite3_finalize(s);
	return 0;
}

/* 1 if col is a column of table (other than id and profile_id). */
static int
is_column(struct store *st, const char *table, const char *col)
{
	sqlite3_stmt *s;
	char sql[128];
	int found = 0;

	if (strcmp(col, "id") == 0 || strcmp(col, "profile_id") == 0)
		return 0;
	snprintf(sql, sizeof sql, "PRAGMA table_info(%s)", table);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return 0;
	while (!found && sqlite3_step(s) == SQLITE_ROW)
		found = strcmp((const char *)sqlite3_column_text(s, 1), col) == 0;
	sqlite3_finalize(s);
	return found;
}

/*
 * One review row: its keys that are columns of the table (names checked
 * against the schema, so none reaches the SQL unchecked), inserted unless
 * a row with the same unique columns exists.
 */
static int
import_review_row(struct store *st, const struct review_table *t,
    int64_t profile, const cJSON *row, int *added, struct pl_err *err)
{
	char sql[2048], cols[1024] = "profile_id", vals[512] = "?1";
	char where[512] = "", one[160];
	const cJSON *v;
	sqlite3_stmt *s;
	int n = 1, rc;

	cJSON_ArrayForEach(v, row) {
		if (!is_column(st, t->name, v->string) || n >= 60)
			continue;
		n++;
		snprintf(one, sizeof one, ", %s", v->string);
		strncat(cols, one, sizeof cols - strlen(cols) - 1);
		snprintf(one, sizeof one, ", ?%d", n);
		strncat(vals, one, sizeof vals - strlen(vals) - 1);
		if (strstr(t->unique, v->string) != NULL) {
			snprintf(one, sizeof one, " AND %s IS ?%d", v->string, n);
			strncat(where, one, sizeof where - strlen(where) - 1);
		}
	}
	snprintf(sql, sizeof sql, "INSERT INTO %s (%s) SELECT %s WHERE NOT"
	    " EXISTS (SELECT 1 FROM %s WHERE profile_id = ?1%s)", t->name, cols,
	    vals, t->name, where);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	sqlite3_bind_int64(s, 1, profile);
	n = 1;
	cJSON_ArrayForEach(v, row)
		if (is_column(st, t->name, v->string) && n < 60)
			bind_json(s, ++n, v);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(st, err);
	*added += sqlite3_changes(st->db);
	return 0;
}

static int
import_review(struct store *st, int64_t profile, const cJSON *review,
    int *added, struct pl_err *err)
{
	const cJSON *arr, *row;
	size_t i;

	for (i = 0; cJSON_IsObject(review) &&
	    i < sizeof review_tables / sizeof review_tables[0]; i++) {
		arr = cJSON_GetObjectItemCaseSensitive(review,
		    review_tables[i].name);
		if (!cJSON_IsArray(arr) || !has_table(st, review_tables[i].name))
			continue;
		cJSON_ArrayForEach(row, arr)
			if (cJSON_IsObject(row) && import_review_row(st,
			    &review_tables[i], profile, row, added, err) != 0)
				return -1;
	}
	return 0;
}

static int
import_tree(struct store *st, const cJSON *o, const char *name,
    const char *file, int *added, struct pl_err *err)
{
	static const char *const dk[] = { "drop", "status", "seconds",
	    "position", "started", "finished", "last_seen", NULL };
	static const char *const ak[] = { "drop", "question", "attempt",
	    "correct", "response", "seconds", "answered", NULL };
	static const char *const sk[] = { "key", "value", NULL };
	const cJSON *p = cJSON_GetObjectItem(o, "profile");
	double created = 0;
	int64_t id = 0, c0 = 0;
	sqlite3_stmt *s;

	pl_json_number(p, "created", 0, 0, 1e11, &created, file, "profile",
	    err);
	if (sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO profiles"
	    " (name, created) VALUES (?, ?)", -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, (int64_t)created);
	if (sqlite3_step(s) != SQLITE_DONE) {
		sqlite3_finalize(s);
		return store_fail(st, err);
	}
	sqlite3_finalize(s);
	if (find_profile(st, name, &id, &c0, err) != 0)
		return -1;
	/* Progress and settings: the export wins; answers: only new keys. */
	return import_rows(st, "INSERT OR REPLACE INTO drop_progress"
	    " (profile_id, drop_id, status, seconds, position, started,"
	    " finished, last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", id,
	    cJSON_GetObjectItem(o, "drops"), dk, 4, file, "drops", added,
	    err) != 0 || import_rows(st, "INSERT INTO answers (profile_id,"
	    " drop_id, question_id, attempt, correct, response, seconds,"
	    " answered) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE NOT EXISTS"
	    " (SELECT 1 FROM answers WHERE profile_id = ?1 AND drop_id = ?2"
	    " AND question_id = ?3 AND attempt = ?4)", id,
	    cJSON_GetObjectItem(o, "answers"), ak, 7, file, "answers", added,
	    err) != 0 || import_rows(st, "INSERT OR REPLACE INTO settings"
	    " (profile_id, key, value) VALUES (?, ?, ?)", id,
	    cJSON_GetObjectItem(o, "settings"), sk, 2, file, "settings", added,
	    err) != 0 || import_review(st, id, cJSON_GetObjectItem(o, "review"),
	    added, err) != 0 ? -1 : 0;
}

static int
check_header(const cJSON *o, const char *file, const char **name,
    struct pl_err *err)
{
	const char *fmt = NULL;
	long v = 0;
	static const char *const arrays[] = { "drops", "answers", "settings" };
	size_t i;

	if (!cJSON_IsObject(o) || pl_json_string(o, "format", 1, &fmt, file,
	    "", err) != 0 || pl_json_int(o, "version", 1, 1, EXPORT_VERSION,
	    &v, file, "", err) != 0)
		return -1;
	if (strcmp(fmt, EXPORT_FORMAT) != 0) {
		pl_err_set_path(err, file, "format",
		    _("not a parlearn profile export (\"%s\")"), EXPORT_FORMAT);
		return -1;
	}
	if (pl_json_string(cJSON_GetObjectItem(o, "profile"), "name", 1, name,
	    file, "profile", err) != 0)
		return -1;
	for (i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		if (!cJSON_IsArray(cJSON_GetObjectItem(o, arrays[i]))) {
			pl_err_set_path(err, file, arrays[i], "%s",
			    _("must be an array"));
			return -1;
		}
	return 0;
}

int
export_import_json(struct store *st, const char *text, const char *file,
    const char *as_name, int *added, struct pl_err *err)
{
	const char *name = NULL;
	cJSON *o;
	int n = 0, rc = -1;

	o = pl_json_parse(text, file, err);
	if (o == NULL)
		return -1;
	if (check_header(o, file, &name, err) == 0 &&
	    store_begin(st, err) == 0) {
		if (import_tree(st, o, as_name != NULL ? as_name : name, file,
		    &n, err) == 0)
			rc = store_commit(st, err);
		else
			store_rollback(st);
	}
	cJSON_Delete(o);
	if (added != NULL)
		*added = rc == 0 ? n : 0;
	return rc;
}
