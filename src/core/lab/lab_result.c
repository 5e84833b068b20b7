/*
 * lab_result.c - one student's lab results, the class table and the class
 * report.
 *
 * A result file is written by a student and read by the host, so parsing
 * trusts nothing: every field is checked for type and range, ids must be
 * short and plain, and the number of answers is capped. Answers are kept
 * sorted by (step, kind, id), so the JSON a result writes is the same for
 * the same answers whatever order they came in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/json.h"
#include "core/lab/lab.h"
#include "core/safetext.h"

static int
cmp_key(int s1, int k1, const char *i1, int s2, int k2, const char *i2)
{
	if (s1 != s2)
		return s1 < s2 ? -1 : 1;
	if (k1 != k2)
		return k1 < k2 ? -1 : 1;
	return strcmp(i1, i2);
}

/* Index of (step, kind, id), or -(insertion point) - 1. */
static long
search(const struct lab_result *r, int step, enum lab_item_kind k,
    const char *id)
{
	size_t lo = 0, hi = r->n_answers;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct lab_answer *a = &r->answers[mid];
		int c = cmp_key(a->step, a->kind, a->id, step, k, id);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -(long)lo - 1;
}

const struct lab_answer *
lab_result_find(const struct lab_result *r, int step, enum lab_item_kind k,
    const char *id)
{
	long i = search(r, step, k, id);

	return i >= 0 ? &r->answers[i] : NULL;
}

/* The record for the key, inserted if new; NULL if full or invalid. */
static struct lab_answer *
slot(struct lab_result *r, int step, enum lab_item_kind k, const char *id)
{
	struct lab_answer *na;
	long i;
	size_t at;

	if (step < 0 || !lab_id_valid(id))
		return NULL;
	i = search(r, step, k, id);
	if (i >= 0)
		return &r->answers[i];
	if (r->n_answers >= LAB_MAX_ANSWERS)
		return NULL;
	na = realloc(r->answers, (r->n_answers + 1) * sizeof *na);
	if (na == NULL)
		return NULL;
	r->answers = na;
	at = (size_t)(-i - 1);
	memmove(&na[at + 1], &na[at], (r->n_answers - at) * sizeof *na);
	r->n_answers++;
	memset(&na[at], 0, sizeof *na);
	na[at].step = step;
	na[at].kind = k;
	snprintf(na[at].id, sizeof na[at].id, "%s", id);
	return &na[at];
}

int
lab_result_answer(struct lab_result *r, int step, enum lab_item_kind k,
    const char *id, int correct, int tries)
{
	struct lab_answer *a = slot(r, step, k, id);

	if (a == NULL)
		return -1;
	if (a->attempts == 0)
		a->first_correct = correct != 0;
	a->attempts++;
	a->correct = correct != 0;
	/* An earlier right answer within the tries has earned already. */
	if (correct && !a->earned && a->attempts <= tries) {
		a->earned = 1;
		a->after_feedback = a->attempts > 1;
	}
	return 0;
}

int
lab_result_add(struct lab_result *r, int step, enum lab_item_kind k,
    const char *id, int correct)
{
	return lab_result_answer(r, step, k, id, correct, 1);
}

int
lab_result_set(struct lab_result *r, int step, enum lab_item_kind k,
    const char *id, int attempts, int first_correct, int correct)
{
	struct lab_answer *a;

	if (attempts < 1)
		return -1;
	if ((a = slot(r, step, k, id)) == NULL)
		return -1;
	a->attempts = attempts;
	a->first_correct = first_correct != 0;
	a->correct = correct != 0;
	a->earned = a->after_feedback = a->all_ticked = a->followed = 0;
	return 0;
}

int
lab_result_set_score(struct lab_result *r, int step, enum lab_item_kind k,
    const struct score_record *rec)
{
	struct lab_answer *a;
	int q = k == LAB_ITEM_QUESTION;

	if (rec->attempts < 1 || (a = slot(r, step, k, rec->id)) == NULL)
		return -1;
	a->attempts = rec->attempts;
	a->first_correct = rec->first_right != 0;
	a->correct = (q ? rec->last_right : rec->right) != 0;
	a->earned = rec->earned != 0;
	a->after_feedback = rec->earned && rec->after_feedback;
	a->all_ticked = q && rec->all_ticked;
	a->followed = q && rec->followed;
	return 0;
}

int
lab_result_put(struct lab_result *r, const struct lab_answer *x)
{
	struct lab_answer *a;
	char *t = NULL, *f = NULL;

	if (x->attempts < 1 || (x->tradeoff != NULL &&
	    (t = strdup(x->tradeoff)) == NULL) || (x->refused != NULL &&
	    (f = strdup(x->refused)) == NULL) ||
	    (a = slot(r, x->step, x->kind, x->id)) == NULL) {
		free(t);
		free(f);
		return -1;
	}
	free(a->tradeoff);
	free(a->refused);
	*a = *x;
	a->tradeoff = t;
	a->refused = f;
	return 0;
}

int
lab_result_set_tradeoff(struct lab_result *r, int step, const char *id,
    const char *text)
{
	long i = search(r, step, LAB_ITEM_SCENARIO, id);
	char *t;

	if (i < 0 || strlen(text) >= LAB_TRADEOFF_MAX ||
	    (t = content_sanitize(text, NULL)) == NULL)
		return -1;
	free(r->answers[i].tradeoff);
	r->answers[i].tradeoff = t;
	return 0;
}

/* A copy of text without control characters, at most max - 1 bytes cut
 * on a character boundary; NULL if not UTF-8 or out of memory. */
static char *
clean_copy(const char *text, size_t max)
{
	char *t = content_sanitize(text, NULL);
	size_t n;

	if (t == NULL || (n = strlen(t)) < max)
		return t;
	n = max - 1;
	while (n > 0 && ((unsigned char)t[n] & 0xc0) == 0x80)
		n--;
	t[n] = '\0';
	return t;
}

int
lab_result_set_refused(struct lab_result *r, int step, const char *reason)
{
	long i = search(r, step, LAB_ITEM_RUN, LAB_RUN_ID);
	char *t;

	if (i < 0 || (t = clean_copy(reason, LAB_REFUSED_MAX)) == NULL)
		return -1;
	free(r->answers[i].refused);
	r->answers[i].refused = t;
	return 0;
}

void
lab_result_free(struct lab_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n_answers; i++) {
		free(r->answers[i].tradeoff);
		free(r->answers[i].refused);
	}
	free(r->answers);
	r->answers = NULL;
	r->n_answers = 0;
}

char *
lab_result_to_json(const struct lab_result *r)
{
	cJSON *o = cJSON_CreateObject(), *arr, *a;
	char *s;
	size_t i;

	if (o == NULL)
		return NULL;
	cJSON_AddNumberToObject(o, "version", 1);
	cJSON_AddStringToObject(o, "user", r->user);
	cJSON_AddStringToObject(o, "profile", r->profile);
	cJSON_AddStringToObject(o, "session", r->session);
	cJSON_AddNumberToObject(o, "step", r->step);
	cJSON_AddNumberToObject(o, "step_since", (double)r->step_since);
	cJSON_AddNumberToObject(o, "updated", (double)r->updated);
	arr = cJSON_AddArrayToObject(o, "answers");
	for (i = 0; arr != NULL && i < r->n_answers; i++) {
		const struct lab_answer *x = &r->answers[i];

		if ((a = cJSON_CreateObject()) == NULL)
			break;
		cJSON_AddNumberToObject(a, "step", x->step);
		cJSON_AddStringToObject(a, "kind", x->kind == LAB_ITEM_SCENARIO ?
		    "scenario" : x->kind == LAB_ITEM_RUN ? "run" : "question");
		cJSON_AddStringToObject(a, "id", x->id);
		cJSON_AddNumberToObject(a, "attempts", x->attempts);
		cJSON_AddBoolToObject(a, "first_correct", x->first_correct);
		cJSON_AddBoolToObject(a, "correct", x->correct);
		cJSON_AddBoolToObject(a, "earned", x->earned);
		cJSON_AddBoolToObject(a, "after_feedback", x->after_feedback);
		cJSON_AddBoolToObject(a, "all_ticked", x->all_ticked);
		cJSON_AddBoolToObject(a, "followed", x->followed);
		if (x->tradeoff != NULL)
			cJSON_AddStringToObject(a, "tradeoff", x->tradeoff);
		if (x->refused != NULL)
			cJSON_AddStringToObject(a, "refused", x->refused);
		cJSON_AddItemToArray(arr, a);
	}
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

static int
copy_name(char *dst, size_t size, const cJSON *o, const char *key,
    const char *file, struct pl_err *err)
{
	const char *v = NULL;
	size_t n;

	if (pl_json_string(o, key, 1, &v, file, "", err) != 0)
		return -1;
	n = strlen(v);
	/* A student wrote this file: what the reports and --json show must
	 * hold no control character, C1 or bidi override included. */
	if (n >= size || !safetext_name_ok(v, size - 1)) {
		pl_err_set_path(err, file, key, "%s",
		    _("must be a short printable name"));
		return -1;
	}
	memcpy(dst, v, n + 1);
	return 0;
}

/*
 * The grading fields (absent in a result from before them: 0). Earned
 * after feedback is earned on a later try; a guess flag is a question's.
 */
static int
parse_grading(const cJSON *a, enum lab_item_kind k, long att,
    struct lab_answer *x, const char *file, const char *path,
    struct pl_err *err)
{
	int earned = 0, after = 0, ticked = 0, followed = 0;

	if (pl_json_bool(a, "earned", 0, &earned, file, path, err) != 0 ||
	    pl_json_bool(a, "after_feedback", 0, &after, file, path,
	    err) != 0 || pl_json_bool(a, "all_ticked", 0, &ticked, file, path,
	    err) != 0 || pl_json_bool(a, "followed", 0, &followed, file, path,
	    err) != 0)
		return -1;
	if (after && (!earned || att < 2)) {
		pl_err_set_path(err, file, path, "%s", _("after_feedback needs "
		    "earned and at least 2 attempts"));
		return -1;
	}
	if ((ticked || followed) && k != LAB_ITEM_QUESTION) {
		pl_err_set_path(err, file, path, "%s", _("all_ticked and "
		    "followed belong to a question only"));
		return -1;
	}
	x->earned = earned;
	x->after_feedback = after;
	x->all_ticked = ticked;
	x->followed = followed;
	return 0;
}

static int
parse_answer(const cJSON *a, struct lab_result *r, const char *file,
    const char *path, struct pl_err *err)
{
	const char *kind = NULL, *id = NULL, *tradeoff = NULL, *refused = NULL;
	struct lab_answer x;
	long step = 0, att = 0;
	int first = 0, corr = 0;
	enum lab_item_kind k;

	if (!cJSON_IsObject(a)) {
		pl_err_set_path(err, file, path, "%s", _("must be an object"));
		return -1;
	}
	if (pl_json_int(a, "step", 1, 0, 199, &step, file, path, err) != 0 ||
	    pl_json_string(a, "kind", 1, &kind, file, path, err) != 0 ||
	    pl_json_string(a, "id", 1, &id, file, path, err) != 0 ||
	    pl_json_int(a, "attempts", 1, 1, 1000000, &att, file, path,
	    err) != 0 || pl_json_bool(a, "first_correct", 1, &first, file,
	    path, err) != 0 || pl_json_bool(a, "correct", 1, &corr, file, path,
	    err) != 0 || pl_json_string(a, "tradeoff", 0, &tradeoff, file, path,
	    err) != 0 || pl_json_string(a, "refused", 0, &refused, file, path,
	    err) != 0)
		return -1;
	if (strcmp(kind, "question") == 0)
		k = LAB_ITEM_QUESTION;
	else if (strcmp(kind, "scenario") == 0)
		k = LAB_ITEM_SCENARIO;
	else if (strcmp(kind, "run") == 0)
		k = LAB_ITEM_RUN;
	else {
		pl_err_set_path(err, file, path, "%s",
		    _("kind must be \"question\", \"scenario\" or \"run\""));
		return -1;
	}
	memset(&x, 0, sizeof x);
	if (parse_grading(a, k, att, &x, file, path, err) != 0)
		return -1;
	x.step = (int)step;
	x.kind = k;
	x.attempts = (int)att;
	x.first_correct = first;
	x.correct = corr;
	snprintf(x.id, sizeof x.id, "%s", id);
	if (strcmp(x.id, id) != 0 || lab_result_find(r, (int)step, k,
	    id) != NULL || lab_result_put(r, &x) != 0) {
		pl_err_set_path(err, file, path, "%s",
		    _("a bad or repeated id, or too many answers"));
		return -1;
	}
	if (tradeoff != NULL && (k != LAB_ITEM_SCENARIO ||
	    lab_result_set_tradeoff(r, (int)step, id, tradeoff) != 0)) {
		pl_err_set_path(err, file, path, "%s", _("tradeoff must be a "
		    "scenario's text of at most 599 bytes"));
		return -1;
	}
	if (refused != NULL && (k != LAB_ITEM_RUN ||
	    strlen(refused) >= LAB_REFUSED_MAX ||
	    lab_result_set_refused(r, (int)step, refused) != 0)) {
		pl_err_set_path(err, file, path, _("refused must be a run's "
		    "text of at most %d bytes"), LAB_REFUSED_MAX - 1);
		return -1;
	}
	return 0;
}

static int
parse_fields(const cJSON *o, struct lab_result *r, const char *file,
    struct pl_err *err)
{
	const cJSON *arr, *a;
	double since = 0, upd = 0;
	char path[64];
	long step = 0;
	int i = 0;

	if (copy_name(r->user, sizeof r->user, o, "user", file, err) != 0 ||
	    copy_name(r->profile, sizeof r->profile, o, "profile", file,
	    err) != 0 || copy_name(r->session, sizeof r->session, o, "session",
	    file, err) != 0 || pl_json_int(o, "step", 1, 0, 199, &step, file,
	    "", err) != 0 || pl_json_number(o, "step_since", 1, 0, 1e11, &since,
	    file, "", err) != 0 || pl_json_number(o, "updated", 1, 0, 1e11, &upd,
	    file, "", err) != 0)
		return -1;
	r->step = (int)step;
	r->step_since = (int64_t)since;
	r->updated = (int64_t)upd;
	arr = cJSON_GetObjectItemCaseSensitive(o, "answers");
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > LAB_MAX_ANSWERS) {
		pl_err_set_path(err, file, "answers",
		    _("must be an array of at most %d answers"),
		    LAB_MAX_ANSWERS);
		return -1;
	}
	cJSON_ArrayForEach(a, arr) {
		pl_json_path_index(path, sizeof path, "answers", i++);
		if (parse_answer(a, r, file, path, err) != 0)
			return -1;
	}
	return 0;
}

int
lab_result_parse(const char *text, const char *file, struct lab_result *r,
    struct pl_err *err)
{
	cJSON *o;
	int rc;

	memset(r, 0, sizeof *r);
	o = pl_json_parse(text, file, err);
	if (o == NULL)
		return -1;
	if (!cJSON_IsObject(o)) {
		pl_err_set_path(err, file, "", "%s", _("must be an object"));
		rc = -1;
	} else
		rc = parse_fields(o, r, file, err);
	cJSON_Delete(o);
	if (rc != 0) {
		lab_result_free(r);
		memset(r, 0, sizeof *r);
	}
	return rc;
}

static int
cmp_result(const void *a, const void *b)
{
	const struct lab_result *x = a, *y = b;
	int c = strcmp(x->user, y->user);

	return c != 0 ? c : strcmp(x->profile, y->profile);
}

void
lab_results_sort(struct lab_result *r, size_t n)
{
	if (n > 1)
		qsort(r, n, sizeof *r, cmp_result);
}

void
lab_student_step(const struct lab_result *r, int step, int *right,
    int *wrong, int *solved)
{
	size_t i;

	*right = *wrong = *solved = 0;
	for (i = 0; i < r->n_answers; i++) {
		const struct lab_answer *a = &r->answers[i];

		if (a->step != step)
			continue;
		if (a->kind == LAB_ITEM_SCENARIO)
			*solved += a->correct;
		else if (a->correct)
			(*right)++;
		else
			(*wrong)++;
	}
}
