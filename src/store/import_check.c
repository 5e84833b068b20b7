/*
 * import_check.c - the first pass of import: every row of the file
 * checked against the schema's table (import_int.h) for type, range and
 * text, its key checked for repeats, trade-offs matched to their
 * attempts, and unknown drops and questions noted, all before anything is
 * written. Repeats are found by sorting the keys, never by a query per
 * row.
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

int
import_keyset_add(struct keyset *ks, char *key)
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

int
import_cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
import_keyset_has(const struct keyset *ks, const char *key)
{
	return ks->n > 0 && bsearch(&key, ks->keys, ks->n, sizeof *ks->keys,
	    import_cmp_key) != NULL;
}

void
import_keyset_free(struct keyset *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		free(ks->keys[i]);
	free(ks->keys);
	memset(ks, 0, sizeof *ks);
}

/* An integer field's value: a number, or (F_INT64) a string of digits. */
int
import_int_value(const cJSON *v, enum ftype t, int64_t *out)
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
		if (import_int_value(v, f->type, iv) == 0)
			return 0;
		pl_err_set_path(im->err, im->file, path, "%s",
		    _("must be an integer from -2^63 to 2^63 - 1"));
		return -1;
	case F_INT:
	case F_TIME:
		if (import_int_value(v, f->type, iv) == 0 && (double)*iv >= lo &&
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
int
import_key_part(char *buf, size_t size, size_t *len, const cJSON *v,
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
			    &iv) != 0 || (k < sec->n_key && import_key_part(key,
			    sizeof key, &len, cJSON_GetObjectItemCaseSensitive(
			    row, sec->fields[k].key), &sec->fields[k], iv) != 0))
				rc = -1;
		}
		if (rc != 0)
			break;
		snprintf(key + len, sizeof key - len, "\x1e%d", r);
		if (import_keyset_add(&ks, strdup(key)) != 0) {
			pl_err_set(im->err, im->file, 0, 0, "%s",
			    _("out of memory"));
			rc = -1;
			break;
		}
		r++;
	}
	if (rc == 0 && ks.n > 1)
		qsort(ks.keys, ks.n, sizeof *ks.keys, import_cmp_key);
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
	import_keyset_free(&ks);
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
		import_int_value(v, f[k].type, &iv);
		import_key_part(key, size, &len, v, &f[k], iv);
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
		row_key(row, import_answer_fields, key, sizeof key);
		if (import_keyset_add(&ks, strdup(key)) != 0) {
			pl_err_set(im->err, im->file, 0, 0, "%s",
			    _("out of memory"));
			import_keyset_free(&ks);
			return -1;
		}
	}
	if (ks.n > 1)
		qsort(ks.keys, ks.n, sizeof *ks.keys, import_cmp_key);
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root,
	    "tradeoffs")) {
		pl_json_path_index(path, sizeof path, "tradeoffs", r++);
		q = cJSON_GetObjectItemCaseSensitive(row,
		    "question")->valuestring;
		row_key(row, import_tradeoff_fields, key, sizeof key);
		if (strncmp(q, EXPORT_SCENARIO_PREFIX,
		    strlen(EXPORT_SCENARIO_PREFIX)) != 0) {
			pl_err_set_path(im->err, im->file, path, _("a trade-off "
			    "belongs to a scenario attempt (\"%sID\"), not to "
			    "\"%s\""), EXPORT_SCENARIO_PREFIX, q);
			rc = -1;
		} else if (!import_keyset_has(&ks, key)) {
			pl_err_set_path(im->err, im->file, path, "%s",
			    _("names no attempt in answers (same drop, "
			    "question and attempt)"));
			rc = -1;
		}
		if (rc != 0)
			break;
	}
	import_keyset_free(&ks);
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
	    import_keyset_has(&im->noted, key))
		return;
	/* At most MAX_NOTES entries: sorting each time costs nothing. */
	if (import_keyset_add(&im->noted, strdup(key)) != 0)
		return;
	qsort(im->noted.keys, im->noted.n, sizeof *im->noted.keys, import_cmp_key);
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
const cJSON *
import_section_array(const cJSON *root, const struct section *sec)
{
	const cJSON *parent = sec->in_review ?
	    cJSON_GetObjectItemCaseSensitive(root, "review") : root;

	return cJSON_IsObject(parent) ?
	    cJSON_GetObjectItemCaseSensitive(parent, sec->json) : NULL;
}

int
import_check_header(struct import *im, const cJSON *o, const char **name)
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
	for (i = 0; i < import_n_sections; i++) {
		arr = import_section_array(o, &import_sections[i]);
		snprintf(where, sizeof where, "%s%s", import_sections[i].in_review ?
		    "review." : "", import_sections[i].json);
		if ((arr == NULL && (import_sections[i].in_review ||
		    import_sections[i].optional)) || cJSON_IsArray(arr))
			continue;
		pl_err_set_path(im->err, im->file, where, "%s",
		    _("must be an array"));
		return -1;
	}
	return 0;
}

int
import_check_all(struct import *im, const cJSON *o, const char *name)
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
	for (i = 0; i < import_n_sections; i++) {
		snprintf(where, sizeof where, "%s%s", import_sections[i].in_review ?
		    "review." : "", import_sections[i].json);
		if (check_section(im, &import_sections[i], import_section_array(o,
		    &import_sections[i]), where) != 0)
			return -1;
	}
	if (check_tradeoffs(im, o) != 0)
		return -1;
	check_course(im, o);
	return 0;
}

