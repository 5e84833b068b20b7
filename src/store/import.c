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
#include "store/progress.h"

#define ID_MAX_BYTES	256		/* drop, question, card ids, keys */
#define TEXT_MAX_BYTES	4096		/* responses, setting values */
#define FACE_MAX_BYTES	65536		/* a card's front or back */
#define MAX_NOTES	20		/* unknown drops/questions told */

enum ftype {
	F_ID,		/* text, 1..ID_MAX_BYTES, no control character */
	F_TEXT,		/* text, 0..TEXT_MAX_BYTES, no control character */
	F_FACE,		/* card text, newlines allowed */
	F_TRADEOFF,	/* text, 1..SC_TRADEOFF_LEN - 1, no control char */
	F_DECK,		/* a deck name (safetext_name_ok) */
	F_INT,		/* an integer from lo to hi */
	F_INT64,	/* any int64; a string of digits beyond 2^53 */
	F_TIME,		/* Unix seconds, 0..EXPORT_TIME_MAX */
	F_REAL		/* a finite number from lo to hi */
};

struct field {
	const char	*key;		/* JSON key, also the column */
	enum ftype	 type;
	int		 null_ok;	/* may be null or absent */
	double		 lo, hi;	/* F_INT, F_REAL */
};

struct section {
	const char		*json;		/* key in the root or in review */
	int			 in_review;
	const char		*table;
	const char		*verb;		/* INSERT, INSERT OR ... */
	const struct field	*fields;	/* key fields first */
	size_t			 n_fields;
	size_t			 n_key;
	const char		*existing;	/* SELECT of the key columns of
						 * the profile's rows, or NULL
						 * when the verb handles them */
	int			 optional;	/* may be absent (older files) */
	const char		*insert;	/* the INSERT, ?1 the profile and
						 * ?2... the fields; NULL: made
						 * from verb, table, fields */
};

static const struct field drop_fields[] = {
	{ "drop", F_ID, 0, 0, 0 },
	{ "status", F_INT, 0, 0, 2 },
	{ "seconds", F_INT, 0, 0, 1e9 },
	{ "position", F_INT, 0, 0, 1e6 },
	{ "started", F_TIME, 1, 0, 0 },
	{ "finished", F_TIME, 1, 0, 0 },
	{ "last_seen", F_TIME, 1, 0, 0 },
};
static const struct field answer_fields[] = {
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
static const struct field tradeoff_fields[] = {
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
static const struct section sections[] = {
	{ "drops", 0, "drop_progress", "INSERT OR REPLACE", drop_fields,
	    N(drop_fields), 1, NULL, 0, NULL },
	{ "answers", 0, "answers", NULL, answer_fields, N(answer_fields),
	    3, "SELECT drop_id, question_id, attempt FROM answers"
	    " WHERE profile_id = ?1", 0,
	    "INSERT INTO answers (profile_id, drop_id, question_id, attempt,"
	    " correct, response, seconds, answered, rule) VALUES (?1, ?2, ?3,"
	    " ?4, ?5, ?6, ?7, ?8, COALESCE(?9, 1))" },
	{ "tradeoffs", 0, "scenario_tradeoffs", NULL, tradeoff_fields,
	    N(tradeoff_fields), 3, NULL, 1,
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

/* A sorted set of keys ("a\x1fb\x1f3"), or rows' keys with their index. */
struct keyset {
	char	**keys;
	size_t	 n, cap;
};

static int
keyset_add(struct keyset *ks, char *key)
{
	char **nk;

	if (key == NULL)
		return -1;
	if (ks->n == ks->cap) {
		ks->cap = ks->cap ? 2 * ks->cap : 256;
		if ((nk = realloc(ks->keys, ks->cap * sizeof *nk)) == NULL) {
			free(key);
			return -1;
		}
		ks->keys = nk;
	}
	ks->keys[ks->n++] = key;
	return 0;
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
keyset_has(const struct keyset *ks, const char *key)
{
	return ks->n > 0 && bsearch(&key, ks->keys, ks->n, sizeof *ks->keys,
	    cmp_key) != NULL;
}

static void
keyset_free(struct keyset *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		free(ks->keys[i]);
	free(ks->keys);
	memset(ks, 0, sizeof *ks);
}

/* What the checks share. */
struct import {
	struct store			*st;
	const char			*file;
	const struct content_course	*course;
	struct content_problems		*notes;
	size_t				 n_unknown;	/* rows noted or not */
	struct keyset			 noted;		/* drops/questions told */
	int64_t				 profile;
	int				 added;
	struct pl_err			*err;
};

/* An integer field's value: a number, or (F_INT64) a string of digits. */
static int
int_value(const cJSON *v, enum ftype t, int64_t *out)
{
	char *end;
	long long ll;

	if (cJSON_IsString(v) && t == F_INT64) {
		errno = 0;
		ll = strtoll(v->valuestring, &end, 10);
		if (errno != 0 || end == v->valuestring || *end != '\0')
			return -1;
		*out = (int64_t)ll;
		return 0;
	}
	/* -2^63 <= x < 2^63, both exact as doubles: no overflow below. */
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < -9223372036854775808.0 ||
	    v->valuedouble >= 9223372036854775808.0)
		return -1;
	*out = (int64_t)v->valuedouble;
	return 0;
}

/* 1 if s is text of at most max bytes free of control characters. */
static int
text_ok(const char *s, size_t max, int newlines)
{
	return safetext_text_ok(s, max, newlines);
}

/* Check one field of a row; its integer value (if any) goes to *iv. */
static int
check_field(struct import *im, const cJSON *row, const struct field *f,
    const char *rowpath, int64_t *iv)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, f->key);
	char path[128];
	double hi = f->type == F_TIME ? EXPORT_TIME_MAX : f->hi;
	double lo = f->type == F_TIME ? 0 : f->lo;

	pl_json_path_key(path, sizeof path, rowpath, f->key);
	if (v == NULL || cJSON_IsNull(v)) {
		if (f->null_ok)
			return 0;
		pl_err_set_path(im->err, im->file, path, "%s",
		    _("required field is missing"));
		return -1;
	}
	switch (f->type) {
	case F_ID:
	case F_TEXT:
	case F_FACE:
		if (cJSON_IsString(v) && text_ok(v->valuestring, f->type ==
		    F_ID ? ID_MAX_BYTES : f->type == F_TEXT ? TEXT_MAX_BYTES :
		    FACE_MAX_BYTES, f->type == F_FACE) &&
		    (f->type != F_ID || v->valuestring[0] != '\0'))
			return 0;
		pl_err_set_path(im->err, im->file, path, _("must be text of "
		    "at most %d bytes without control characters"),
		    f->type == F_ID ? ID_MAX_BYTES : f->type == F_TEXT ?
		    TEXT_MAX_BYTES : FACE_MAX_BYTES);
		return -1;
	case F_TRADEOFF:
		if (cJSON_IsString(v) && sc_tradeoff_ok(v->valuestring))
			return 0;
		pl_err_set_path(im->err, im->file, path, _("must be text of "
		    "1 to %d bytes without control characters"),
		    SC_TRADEOFF_LEN - 1);
		return -1;
	case F_DECK:
		if (cJSON_IsString(v) && safetext_name_ok(v->valuestring,
		    STORE_DECK_MAX_CHARS))
			return 0;
		pl_err_set_path(im->err, im->file, path, _("must be a name of "
		    "1 to %d characters without control characters"),
		    STORE_DECK_MAX_CHARS);
		return -1;
	case F_INT64:
		if (int_value(v, f->type, iv) == 0)
			return 0;
		pl_err_set_path(im->err, im->file, path, "%s",
		    _("must be an integer from -2^63 to 2^63 - 1"));
		return -1;
	case F_INT:
	case F_TIME:
		if (int_value(v, f->type, iv) == 0 && (double)*iv >= lo &&
		    (double)*iv <= hi)
			return 0;
		pl_err_set_path(im->err, im->file, path,
		    _("must be an integer from %.0f to %.0f"), lo, hi);
		return -1;
	case F_REAL:
		if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
		    v->valuedouble >= lo && v->valuedouble <= hi)
			return 0;
		pl_err_set_path(im->err, im->file, path,
		    _("must be a number from %g to %g"), lo, hi);
		return -1;
	}
	return -1;
}

/* Append a key field's value to the key being built. */
static int
key_part(char *buf, size_t size, size_t *len, const cJSON *v,
    const struct field *f, int64_t iv)
{
	int n;

	if (f->type == F_INT || f->type == F_TIME || f->type == F_INT64)
		n = snprintf(buf + *len, size - *len, "%s%" PRId64,
		    *len > 0 ? "\x1f" : "", iv);
	else
		n = snprintf(buf + *len, size - *len, "%s%s",
		    *len > 0 ? "\x1f" : "", v->valuestring);
	if (n < 0 || (size_t)n >= size - *len)
		return -1;
	*len += (size_t)n;
	return 0;
}

/*
 * Check every row of a section and that no key repeats. The key of row i
 * is stored as "KEY\x1e<i>" so a repeat can name both rows.
 */
static int
check_section(struct import *im, const struct section *sec,
    const cJSON *arr, const char *where)
{
	struct keyset ks = { NULL, 0, 0 };
	const cJSON *row;
	char rowpath[96], key[3 * ID_MAX_BYTES + 64], *a, *b;
	size_t i, len, k;
	int64_t iv = 0;
	int r = 0, rc = 0;

	cJSON_ArrayForEach(row, arr) {
		pl_json_path_index(rowpath, sizeof rowpath, where, r);
		if (!cJSON_IsObject(row)) {
			pl_err_set_path(im->err, im->file, rowpath, "%s",
			    _("must be an object"));
			rc = -1;
			break;
		}
		len = 0;
		for (k = 0; rc == 0 && k < sec->n_fields; k++) {
			iv = 0;
			if (check_field(im, row, &sec->fields[k], rowpath,
			    &iv) != 0 || (k < sec->n_key && key_part(key,
			    sizeof key, &len, cJSON_GetObjectItemCaseSensitive(
			    row, sec->fields[k].key), &sec->fields[k], iv) != 0))
				rc = -1;
		}
		if (rc != 0)
			break;
		snprintf(key + len, sizeof key - len, "\x1e%d", r);
		if (keyset_add(&ks, strdup(key)) != 0) {
			pl_err_set(im->err, im->file, 0, 0, "%s",
			    _("out of memory"));
			rc = -1;
			break;
		}
		r++;
	}
	if (rc == 0 && ks.n > 1)
		qsort(ks.keys, ks.n, sizeof *ks.keys, cmp_key);
	for (i = 1; rc == 0 && i < ks.n; i++) {
		a = strrchr(ks.keys[i - 1], '\x1e');
		b = strrchr(ks.keys[i], '\x1e');
		if (a - ks.keys[i - 1] != b - ks.keys[i] ||
		    strncmp(ks.keys[i - 1], ks.keys[i],
		    (size_t)(a - ks.keys[i - 1])) != 0)
			continue;
		pl_json_path_index(rowpath, sizeof rowpath, where,
		    atoi(b + 1));
		pl_err_set_path(im->err, im->file, rowpath,
		    _("repeats the key of %s[%d]"), where, atoi(a + 1));
		rc = -1;
	}
	keyset_free(&ks);
	return rc;
}

/* The key of an answers or tradeoffs row, already checked, into key. */
static void
row_key(const cJSON *row, const struct field *f, char *key, size_t size)
{
	const cJSON *v;
	size_t k, len = 0;
	int64_t iv;

	for (k = 0; k < 3; k++) {
		v = cJSON_GetObjectItemCaseSensitive(row, f[k].key);
		iv = 0;
		int_value(v, f[k].type, &iv);
		key_part(key, size, &len, v, &f[k], iv);
	}
}

/*
 * Every trade-off belongs to a scenario attempt the file holds: its key
 * names a "scenario:ID" row of answers[].
 */
static int
check_tradeoffs(struct import *im, const cJSON *root)
{
	struct keyset ks = { NULL, 0, 0 };
	const cJSON *row;
	char key[3 * ID_MAX_BYTES + 64], path[96];
	const char *q;
	int r = 0, rc = 0;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root,
	    "answers")) {
		row_key(row, answer_fields, key, sizeof key);
		if (keyset_add(&ks, strdup(key)) != 0) {
			pl_err_set(im->err, im->file, 0, 0, "%s",
			    _("out of memory"));
			keyset_free(&ks);
			return -1;
		}
	}
	if (ks.n > 1)
		qsort(ks.keys, ks.n, sizeof *ks.keys, cmp_key);
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root,
	    "tradeoffs")) {
		pl_json_path_index(path, sizeof path, "tradeoffs", r++);
		q = cJSON_GetObjectItemCaseSensitive(row,
		    "question")->valuestring;
		row_key(row, tradeoff_fields, key, sizeof key);
		if (strncmp(q, EXPORT_SCENARIO_PREFIX,
		    strlen(EXPORT_SCENARIO_PREFIX)) != 0) {
			pl_err_set_path(im->err, im->file, path, _("a trade-off "
			    "belongs to a scenario attempt (\"%sID\"), not to "
			    "\"%s\""), EXPORT_SCENARIO_PREFIX, q);
			rc = -1;
		} else if (!keyset_has(&ks, key)) {
			pl_err_set_path(im->err, im->file, path, "%s",
			    _("names no attempt in answers (same drop, "
			    "question and attempt)"));
			rc = -1;
		}
		if (rc != 0)
			break;
	}
	keyset_free(&ks);
	return rc;
}

/* Tell once about a drop or question the course does not have. */
static void
note_unknown(struct import *im, const char *path, const char *what,
    const char *drop, const char *question)
{
	struct pl_err e;
	char key[2 * ID_MAX_BYTES + 8];

	im->n_unknown++;
	snprintf(key, sizeof key, "%s\x1f%s", drop, question != NULL ?
	    question : "");
	if (im->notes == NULL || im->noted.n >= MAX_NOTES ||
	    keyset_has(&im->noted, key))
		return;
	/* At most MAX_NOTES entries: sorting each time costs nothing. */
	if (keyset_add(&im->noted, strdup(key)) != 0)
		return;
	qsort(im->noted.keys, im->noted.n, sizeof *im->noted.keys, cmp_key);
	if (question == NULL)
		pl_err_set_path(&e, im->file, path, _("imported, but the course "
		    "has no %s \"%s\""), what, drop);
	else
		pl_err_set_path(&e, im->file, path, _("imported, but drop "
		    "\"%s\" has no %s \"%s\""), drop, what, question);
	content_add_problem(im->notes, &e);
}

/* 1 if drop d has a question (or, "scenario:ID", a scenario) called q. */
static int
drop_has(const struct content_drop *d, const char *q)
{
	size_t i, n = strlen(EXPORT_SCENARIO_PREFIX);
	int scen = strncmp(q, EXPORT_SCENARIO_PREFIX, n) == 0;

	for (i = 0; i < d->n_blocks; i++) {
		const struct content_block *b = &d->blocks[i];

		if (scen && b->kind == CONTENT_SCENARIO &&
		    b->scenario.id != NULL && strcmp(b->scenario.id, q + n) == 0)
			return 1;
		if (!scen && b->kind == CONTENT_QUESTION &&
		    b->question.id != NULL && strcmp(b->question.id, q) == 0)
			return 1;
	}
	return 0;
}

/* Report rows of drops and answers naming what the course lacks. */
static void
check_course(struct import *im, const cJSON *root)
{
	const struct content_drop *d;
	const cJSON *row;
	const char *drop, *q;
	char path[96];
	int r;

	if (im->course == NULL)
		return;
	r = 0;
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root,
	    "drops")) {
		pl_json_path_index(path, sizeof path, "drops", r++);
		drop = cJSON_GetObjectItemCaseSensitive(row, "drop")->valuestring;
		if (content_find_drop(im->course, drop) == NULL)
			note_unknown(im, path, _("drop"), drop, NULL);
	}
	r = 0;
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root,
	    "answers")) {
		pl_json_path_index(path, sizeof path, "answers", r++);
		drop = cJSON_GetObjectItemCaseSensitive(row, "drop")->valuestring;
		q = cJSON_GetObjectItemCaseSensitive(row,
		    "question")->valuestring;
		if ((d = content_find_drop(im->course, drop)) == NULL)
			note_unknown(im, path, _("drop"), drop, NULL);
		else if (!drop_has(d, q))
			note_unknown(im, path, strncmp(q,
			    EXPORT_SCENARIO_PREFIX, strlen(
			    EXPORT_SCENARIO_PREFIX)) == 0 ? _("scenario") :
			    _("question"), drop, q);
	}
}

static const char *
json_kind(const cJSON *o)
{
	if (cJSON_IsArray(o))
		return _("an array");
	if (cJSON_IsNull(o))
		return _("null");
	if (cJSON_IsString(o))
		return _("a string");
	if (cJSON_IsNumber(o))
		return _("a number");
	return _("true or false");
}

/* The sections' arrays: the root's and review's. NULL when absent. */
static const cJSON *
section_array(const cJSON *root, const struct section *sec)
{
	const cJSON *parent = sec->in_review ?
	    cJSON_GetObjectItemCaseSensitive(root, "review") : root;

	return cJSON_IsObject(parent) ?
	    cJSON_GetObjectItemCaseSensitive(parent, sec->json) : NULL;
}

static int
check_header(struct import *im, const cJSON *o, const char **name)
{
	const cJSON *p, *rev, *arr, *sch;
	const char *fmt = NULL;
	char where[64];
	long v = 0;
	size_t i;

	if (!cJSON_IsObject(o)) {
		pl_err_set(im->err, im->file, 0, 0, _("a profile export is a JSON "
		    "object with \"format\": \"%s\"; this file holds %s"),
		    EXPORT_FORMAT, json_kind(o));
		return -1;
	}
	if (pl_json_string(o, "format", 1, &fmt, im->file, "", im->err) != 0)
		return -1;
	if (strcmp(fmt, EXPORT_FORMAT) != 0) {
		pl_err_set_path(im->err, im->file, "format",
		    _("not a parlearn profile export (\"%s\")"), EXPORT_FORMAT);
		return -1;
	}
	/* "schema" names the contract; before it did, it held the database's
	 * schema version, now "db_schema". */
	sch = cJSON_GetObjectItemCaseSensitive(o, "schema");
	if (cJSON_IsString(sch) && strcmp(sch->valuestring, EXPORT_SCHEMA) != 0) {
		pl_err_set_path(im->err, im->file, "schema",
		    _("\"%s\" is not \"%s\", the export this parlearn reads"),
		    sch->valuestring, EXPORT_SCHEMA);
		return -1;
	}
	if (pl_json_int(o, "version", 1, 1, EXPORT_VERSION, &v, im->file, "",
	    im->err) != 0 || (!cJSON_IsString(sch) && pl_json_int(o, "schema",
	    0, 1, 1000, &v, im->file, "", im->err) != 0) ||
	    pl_json_int(o, "db_schema", 0, 1, 1000, &v, im->file, "",
	    im->err) != 0)
		return -1;
	p = cJSON_GetObjectItemCaseSensitive(o, "profile");
	if (!cJSON_IsObject(p)) {
		pl_err_set_path(im->err, im->file, "profile", "%s",
		    _("must be an object"));
		return -1;
	}
	if (pl_json_string(p, "name", 1, name, im->file, "profile",
	    im->err) != 0)
		return -1;
	rev = cJSON_GetObjectItemCaseSensitive(o, "review");
	if (rev != NULL && !cJSON_IsNull(rev) && !cJSON_IsObject(rev)) {
		pl_err_set_path(im->err, im->file, "review", "%s",
		    _("must be an object or null"));
		return -1;
	}
	for (i = 0; i < N(sections); i++) {
		arr = section_array(o, &sections[i]);
		snprintf(where, sizeof where, "%s%s", sections[i].in_review ?
		    "review." : "", sections[i].json);
		if ((arr == NULL && (sections[i].in_review ||
		    sections[i].optional)) || cJSON_IsArray(arr))
			continue;
		pl_err_set_path(im->err, im->file, where, "%s",
		    _("must be an array"));
		return -1;
	}
	return 0;
}

static int
check_all(struct import *im, const cJSON *o, const char *name)
{
	double created = 0;
	char where[64];
	size_t i;

	if (!safetext_name_ok(name, STORE_PROFILE_MAX_CHARS)) {
		pl_err_set_path(im->err, im->file, "profile.name",
		    _("must be a name of 1 to %d characters without control "
		    "characters"), STORE_PROFILE_MAX_CHARS);
		return -1;
	}
	if (pl_json_number(cJSON_GetObjectItemCaseSensitive(o, "profile"),
	    "created", 0, 0, EXPORT_TIME_MAX, &created, im->file, "profile",
	    im->err) != 0)
		return -1;
	for (i = 0; i < N(sections); i++) {
		snprintf(where, sizeof where, "%s%s", sections[i].in_review ?
		    "review." : "", sections[i].json);
		if (check_section(im, &sections[i], section_array(o,
		    &sections[i]), where) != 0)
			return -1;
	}
	if (check_tradeoffs(im, o) != 0)
		return -1;
	check_course(im, o);
	return 0;
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
		if (keyset_add(ks, strdup(key)) != 0)
			break;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(im->st, im->err);
	if (ks->n > 1)
		qsort(ks->keys, ks->n, sizeof *ks->keys, cmp_key);
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
		int_value(v, f->type, &iv);
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
				int_value(v, sec->fields[k].type, &iv);
				key_part(key, sizeof key, &len, v,
				    &sec->fields[k], iv);
			}
			if (keyset_has(&have, key))
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
	keyset_free(&have);
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
	for (i = 0; i < N(sections); i++)
		if (insert_section(im, &sections[i], section_array(o,
		    &sections[i])) != 0)
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
	if (check_header(&im, o, &name) == 0 && check_all(&im,
	    o, as_name != NULL ? as_name : name) == 0 &&
	    store_begin(st, err) == 0)
		rc = store_end(st, write_all(&im, o, as_name != NULL ?
		    as_name : name), err);
	if (rc == 0 && notes != NULL && im.n_unknown > im.noted.n) {
		pl_err_set(&e, file, 0, 0, _("%zu rows in all name a drop or "
		    "question the course does not have"), im.n_unknown);
		content_add_problem(notes, &e);
	}
	keyset_free(&im.noted);
	cJSON_Delete(o);
	if (added != NULL && rc == 0)
		*added = im.added;
	return rc;
}
