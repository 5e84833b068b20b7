/*
 * exportref.c - the profile export as parlearn wrote it before it was
 * streamed (issue 23): the whole profile built as one cJSON tree, then
 * printed. Kept only as the reference the streamed export
 * (store/export.c, export_csv.c) must match byte for byte; a copy of the
 * code it replaced, not used by parlearn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/csv.h"
#include "core/safetext.h"
#include "core/course/scenario.h"
#include "store/export.h"
#include "store/progress_score.h"
#include "exportref.h"

static const char sql_drops[] =
    "SELECT drop_id AS \"drop\", status, started, finished, seconds,"
    " position, last_seen FROM drop_progress WHERE profile_id = ?"
    " ORDER BY drop_id";
static const char sql_answers[] =
    "SELECT drop_id AS \"drop\", question_id AS question, attempt, correct,"
    " response, seconds, answered, rule FROM answers WHERE profile_id = ?"
    " ORDER BY drop_id, question_id, attempt, id";
/* A defense's written trade-off, keyed by the attempt it came with. */
static const char sql_tradeoffs[] =
    "SELECT a.drop_id AS \"drop\", a.question_id AS question, a.attempt,"
    " t.text FROM scenario_tradeoffs t JOIN answers a ON a.id = t.answer_id"
    " WHERE a.profile_id = ? ORDER BY a.drop_id, a.question_id, a.attempt,"
    " a.id";
static const char sql_settings[] =
    "SELECT key, value FROM settings WHERE profile_id = ? ORDER BY key";

/*
 * An integer as a JSON number when a double holds it exactly, else (card
 * seeds are 64-bit) as a string of its decimal digits, which import reads
 * back exactly.
 */
static void
add_integer(cJSON *o, const char *k, int64_t v)
{
	char digits[32];

	if (v >= -EXPORT_EXACT_MAX && v <= EXPORT_EXACT_MAX) {
		cJSON_AddNumberToObject(o, k, (double)v);
		return;
	}
	snprintf(digits, sizeof digits, "%lld", (long long)v);
	cJSON_AddStringToObject(o, k, digits);
}

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
				add_integer(o, k, sqlite3_column_int64(s, i));
				break;
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
	pl_err_set(err, st->path, 0, 0, "no profile called \"%s\"", name);
	return -1;
}

/*
 * Per scenario: attempts and whether any solved it. The playground keeps
 * scenario attempts in the answers table as "scenario:<id>"
 * (store/scenario_store.h); the diagnoses committed in an incident
 * ("scenario:<id>#diagnosis") are answers of their own, not attempts.
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
		if (strstr(q, STORE_DIAGNOSIS_SUFFIX) != NULL)
			continue;
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
} review_tables[] = {
	{ "cards", "card_id" },
	{ "user_cards", "card_id" },
	{ "review_log", "card_id, reviewed, id" },
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

/*
 * A trade-off an older parlearn stored that import refuses (a control
 * character, a bidi override, bytes that are not UTF-8) is exported as
 * its safe rendering, cut to the limit at a character; one with nothing
 * left is not exported. Import takes back all it is given.
 */
static void
safe_tradeoffs(cJSON *arr)
{
	cJSON *row, *next, *t;
	char *safe;
	size_t n;

	for (row = arr != NULL ? arr->child : NULL; row != NULL; row = next) {
		next = row->next;
		t = cJSON_GetObjectItem(row, "text");
		if (cJSON_IsString(t) && sc_tradeoff_ok(t->valuestring))
			continue;
		safe = cJSON_IsString(t) ? safetext_dup(t->valuestring,
		    SAFETEXT_UTF8) : NULL;
		if (safe != NULL && (n = strlen(safe)) > SC_TRADEOFF_LEN - 1) {
			n = SC_TRADEOFF_LEN - 1;
			while (n > 0 && ((unsigned char)safe[n] & 0xC0) == 0x80)
				n--;
			safe[n] = '\0';
		}
		if (safe != NULL && sc_tradeoff_ok(safe))
			cJSON_ReplaceItemInObject(row, "text",
			    cJSON_CreateString(safe));
		else
			cJSON_Delete(cJSON_DetachItemViaPointer(arr, row));
		free(safe);
	}
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
	cJSON_AddStringToObject(o, "schema", EXPORT_SCHEMA);
	cJSON_AddStringToObject(o, "format", EXPORT_FORMAT);
	cJSON_AddNumberToObject(o, "version", EXPORT_VERSION);
	cJSON_AddNumberToObject(o, "db_schema", store_schema_version(st));
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
	if (rows_json(st, sql_tradeoffs, id, cJSON_AddArrayToObject(o,
	    "tradeoffs"), err) != 0) {
		cJSON_Delete(o);
		return NULL;
	}
	safe_tradeoffs(cJSON_GetObjectItem(o, "tradeoffs"));
	cJSON_AddItemToObject(o, "scenarios", scenarios_json(answers, c));
	cJSON_AddItemToObject(o, "review", export_review_stats(st, id, err));
	if (err != NULL && err->msg[0] != '\0') {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

char *
exportref_json(struct store *st, const char *name,
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

/* One cell from a JSON value: text quoted and made safe, numbers with '.'. */
static void
csv_value(struct csv *c, const cJSON *v)
{
	if (cJSON_IsNumber(v))
		csv_number(c, v->valuedouble);
	else if (cJSON_IsString(v))
		csv_text(c, v->valuestring);
	else
		csv_empty(c);
}

static void
csv_rows(struct csv *c, const char *kind, const cJSON *arr,
    const char *const *keys)
{
	const cJSON *row;
	int i;

	cJSON_ArrayForEach(row, arr) {
		csv_word(c, kind);
		for (i = 0; keys[i] != NULL; i++)
			if (keys[i][0] != '\0')
				csv_value(c, cJSON_GetObjectItem(row, keys[i]));
			else
				csv_empty(c);
		csv_end(c);
	}
}

/*
 * The review log, one row per review: the card in "item", the review's
 * time, its length in seconds, the state it left the card in and the
 * rating (1 again .. 4 easy) as the value.
 */
static void
csv_reviews(struct csv *c, const cJSON *review)
{
	const cJSON *row, *ms;

	cJSON_ArrayForEach(row, cJSON_GetObjectItem(review, "review_log")) {
		csv_word(c, "review");
		csv_empty(c);
		csv_value(c, cJSON_GetObjectItem(row, "card_id"));
		csv_empty(c);
		csv_empty(c);
		csv_value(c, cJSON_GetObjectItem(row, "state_after"));
		ms = cJSON_GetObjectItem(row, "duration_ms");
		if (cJSON_IsNumber(ms))
			csv_number(c, ms->valuedouble / 1000);
		else
			csv_empty(c);
		csv_value(c, cJSON_GetObjectItem(row, "reviewed"));
		csv_empty(c);
		csv_value(c, cJSON_GetObjectItem(row, "rating"));
		csv_end(c);
	}
}

char *
exportref_csv(struct store *st, const char *name, struct pl_err *err)
{
	static const char *const head[] = { "kind", "drop", "item", "attempt",
	    "correct", "status", "seconds", "time", "finished", "value", NULL };
	static const char *const drop_keys[] = { "drop", "", "", "", "status",
	    "seconds", "started", "finished", "", NULL };
	static const char *const ans_keys[] = { "drop", "question", "attempt",
	    "correct", "", "seconds", "answered", "", "response", NULL };
	static const char *const set_keys[] = { "", "key", "", "", "", "",
	    "", "", "value", NULL };
	static const char *const trade_keys[] = { "drop", "question",
	    "attempt", "", "", "", "", "", "text", NULL };
	cJSON *o = profile_tree(st, name, NULL, err);
	struct csv c = { NULL, 0, 0, 0, 0 };
	char *text;

	if (o == NULL)
		return NULL;
	csv_header(&c, head);
	csv_rows(&c, "drop", cJSON_GetObjectItem(o, "drops"), drop_keys);
	csv_rows(&c, "answer", cJSON_GetObjectItem(o, "answers"), ans_keys);
	csv_rows(&c, "tradeoff", cJSON_GetObjectItem(o, "tradeoffs"),
	    trade_keys);
	csv_rows(&c, "setting", cJSON_GetObjectItem(o, "settings"), set_keys);
	csv_reviews(&c, cJSON_GetObjectItem(o, "review"));
	cJSON_Delete(o);
	if ((text = csv_take(&c)) == NULL)
		pl_err_set(err, NULL, 0, 0, "%s", "out of memory");
	return text;
}

