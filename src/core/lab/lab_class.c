/*
 * lab_class.c - the class table: per question, how many students have it
 * right and wrong and how many missed it on the first try, and what the
 * grading (core/course/score.h) made of their answers: right on the first
 * try, right after feedback, not earned, attempts, and the patterns that
 * look like guessing; per step, how many students are on it; the
 * most-missed question; and the class report in CSV and JSON (its columns:
 * labs/README.md).
 *
 * The items of the table are those the script and the course name for each
 * step, plus any a student has answered (so an item the course no longer
 * has still shows). Results of another session (an earlier group) and
 * answers to steps past the end of the script are ignored.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/csv.h"
#include "core/lab/lab.h"
#include "core/number.h"

#define ITEMS_PER_STEP	64

static int
counts(const struct lab_result *r, size_t n_steps, const char *session)
{
	return (session == NULL || strcmp(r->session, session) == 0) &&
	    r->step >= 0 && (size_t)r->step < n_steps;
}

/* Gather the item keys into set (a result used as a sorted key set). */
static int
gather(const struct lab_script *ls, const struct content_course *c,
    const struct lab_result *res, size_t n, const char *session,
    struct lab_result *set)
{
	const char *ids[ITEMS_PER_STEP];
	enum lab_item_kind kinds[ITEMS_PER_STEP];
	size_t s, i, k;

	for (s = 0; s < ls->n_steps; s++) {
		k = lab_step_items(&ls->steps[s], c, ids, kinds, ITEMS_PER_STEP);
		for (i = 0; i < k; i++)
			if (lab_result_set(set, (int)s, kinds[i], ids[i], 1, 0,
			    0) != 0)
				return -1;
	}
	for (i = 0; i < n; i++) {
		if (!counts(&res[i], ls->n_steps, session))
			continue;
		for (k = 0; k < res[i].n_answers; k++) {
			const struct lab_answer *a = &res[i].answers[k];

			if ((size_t)a->step < ls->n_steps && lab_result_set(set,
			    a->step, a->kind, a->id, 1, 0, 0) != 0)
				return -1;
		}
	}
	return 0;
}

static void
add_answer(struct lab_item_stat *it, const struct lab_answer *a)
{
	it->right += a->correct;
	it->wrong += !a->correct;
	it->missed += !a->first_correct;
	it->answered++;
	it->first_right += a->first_correct;
	it->after_feedback += a->after_feedback;
	it->earned += a->earned;
	it->not_earned += !a->earned && !it->self_graded;
	it->attempts += a->attempts;
	it->all_ticked += a->all_ticked;
	it->followed += a->followed;
	it->guessing += a->all_ticked || a->followed;
}

double
lab_item_mean_attempts(const struct lab_item_stat *it)
{
	return it->answered > 0 ? (double)it->attempts / it->answered : 0;
}

/* 1 if the item is a reveal question of its step's drop in course c. */
static int
self_graded(const struct lab_script *ls, const struct content_course *c,
    const struct lab_item_stat *it)
{
	const struct content_drop *d;
	size_t i;

	if (c == NULL || it->kind != LAB_ITEM_QUESTION ||
	    ls->steps[it->step].drop == NULL ||
	    (d = content_find_drop(c, ls->steps[it->step].drop)) == NULL)
		return 0;
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_QUESTION &&
		    strcmp(d->blocks[i].question.id, it->id) == 0)
			return d->blocks[i].question.type == CONTENT_Q_REVEAL;
	return 0;
}

static void
tally(struct lab_class *cl, const struct lab_result *set,
    const struct lab_result *res, size_t n, const char *session)
{
	size_t i, k;
	int best = 0;

	for (i = 0; i < n; i++) {
		if (!counts(&res[i], cl->n_steps, session))
			continue;
		cl->n_students++;
		cl->on_step[res[i].step]++;
		for (k = 0; k < set->n_answers; k++) {
			const struct lab_answer *a = lab_result_find(&res[i],
			    cl->items[k].step, cl->items[k].kind,
			    cl->items[k].id);

			if (a == NULL)
				continue;
			add_answer(&cl->items[k], a);
		}
	}
	cl->most_missed = -1;
	for (k = 0; k < cl->n_items; k++)
		if (cl->items[k].missed > best) {
			best = cl->items[k].missed;
			cl->most_missed = (int)k;
		}
}

int
lab_class_build(const struct lab_script *ls, const struct content_course *c,
    const struct lab_result *res, size_t n, const char *session,
    struct lab_class *cl)
{
	struct lab_result set;
	size_t k;

	memset(cl, 0, sizeof *cl);
	memset(&set, 0, sizeof set);
	cl->n_steps = ls->n_steps;
	cl->most_missed = -1;
	cl->on_step = calloc(ls->n_steps + 1, sizeof *cl->on_step);
	if (cl->on_step == NULL || gather(ls, c, res, n, session, &set) != 0)
		goto fail;
	cl->items = calloc(set.n_answers + 1, sizeof *cl->items);
	if (cl->items == NULL)
		goto fail;
	cl->n_items = set.n_answers;
	for (k = 0; k < set.n_answers; k++) {
		cl->items[k].step = set.answers[k].step;
		cl->items[k].kind = set.answers[k].kind;
		memcpy(cl->items[k].id, set.answers[k].id, LAB_ID_MAX);
		cl->items[k].self_graded = self_graded(ls, c, &cl->items[k]);
	}
	tally(cl, &set, res, n, session);
	lab_result_free(&set);
	return 0;
fail:
	lab_result_free(&set);
	lab_class_free(cl);
	return -1;
}

void
lab_class_free(struct lab_class *cl)
{
	if (cl == NULL)
		return;
	free(cl->on_step);
	free(cl->items);
	cl->on_step = NULL;
	cl->items = NULL;
	cl->n_items = 0;
}

static const char *
kind_word(enum lab_item_kind k)
{
	return k == LAB_ITEM_SCENARIO ? "scenario" : k == LAB_ITEM_RUN ? "run" :
	    "question";
}

/* The guess flags of an answer, "all-ticked;followed-diagnostic", or
 * NULL (an empty cell). */
static const char *
guess_flags(const struct lab_answer *a)
{
	if (a == NULL)
		return NULL;
	if (a->all_ticked && a->followed)
		return "all-ticked;followed-diagnostic";
	return a->all_ticked ? "all-ticked" : a->followed ?
	    "followed-diagnostic" : NULL;
}

static void
csv_empties(struct csv *b, int n)
{
	while (n-- > 0)
		csv_empty(b);
}

/* The cells every row of a student's step starts with. */
static void
student_cells(struct csv *b, const struct lab_result *r, size_t step,
    const char *title)
{
	csv_text(b, r->user);
	csv_text(b, r->profile);
	csv_int(b, (long long)step + 1);
	csv_text(b, title);
}

static void
csv_student(struct csv *b, const struct lab_script *ls,
    const struct content_course *c, const struct lab_class *cl,
    const struct lab_result *r)
{
	const struct lab_answer *a;
	char title[300];
	size_t s, k;
	int right, wrong, solved;

	for (s = 0; s < ls->n_steps; s++) {
		lab_step_title(&ls->steps[s], c, title, sizeof title);
		lab_student_step(r, (int)s, &right, &wrong, &solved);
		student_cells(b, r, s, title);
		csv_word(b, "step");
		csv_empty(b);
		csv_empty(b);
		csv_empty(b);
		csv_empty(b);
		csv_int(b, right);
		csv_int(b, wrong);
		csv_int(b, solved);
		csv_word(b, (size_t)r->step == s ? "current" : NULL);
		csv_empty(b);
		csv_empties(b, 9);
		csv_end(b);
		for (k = 0; k < cl->n_items; k++) {
			if ((size_t)cl->items[k].step != s)
				continue;
			a = lab_result_find(r, (int)s, cl->items[k].kind,
			    cl->items[k].id);
			student_cells(b, r, s, title);
			csv_word(b, kind_word(cl->items[k].kind));
			csv_word(b, cl->items[k].id);
			csv_int(b, a != NULL ? a->attempts : 0);
			csv_int(b, a != NULL ? a->first_correct : 0);
			csv_int(b, a != NULL ? a->correct : 0);
			csv_empty(b);
			csv_empty(b);
			csv_empty(b);
			csv_word(b, a == NULL ? "unanswered" : a->correct ?
			    "right" : "wrong");
			/* A defense's written trade-off (drop 14). */
			if (a != NULL && a->tradeoff != NULL)
				csv_text(b, a->tradeoff);
			else
				csv_empty(b);
			csv_int(b, a != NULL ? a->first_correct : 0);
			csv_int(b, a != NULL ? a->after_feedback : 0);
			csv_int(b, a != NULL ? a->earned : 0);
			csv_word(b, guess_flags(a));
			csv_empties(b, 4);
			/* Why a run handed in was refused (lab_verify.c). */
			if (a != NULL && a->refused != NULL)
				csv_text(b, a->refused);
			else
				csv_empty(b);
			csv_end(b);
		}
	}
}

/* One row per item: the class's counts. */
static void
csv_class(struct csv *b, const struct lab_script *ls,
    const struct content_course *c, const struct lab_class *cl)
{
	char title[300], mean[32];
	size_t k;

	for (k = 0; k < cl->n_items; k++) {
		const struct lab_item_stat *it = &cl->items[k];

		lab_step_title(&ls->steps[it->step], c, title, sizeof title);
		csv_empty(b);
		csv_empty(b);
		csv_int(b, (long long)it->step + 1);
		csv_text(b, title);
		csv_word(b, "class");
		csv_word(b, it->id);
		csv_int(b, it->attempts);
		csv_empties(b, 2);
		csv_int(b, it->right);
		csv_int(b, it->wrong);
		csv_empty(b);
		csv_word(b, it->self_graded ? "self-graded" :
		    kind_word(it->kind));
		csv_empty(b);
		csv_int(b, it->first_right);
		csv_int(b, it->after_feedback);
		csv_int(b, it->earned);
		csv_empty(b);
		csv_int(b, it->answered);
		if (it->self_graded)
			csv_empty(b);
		else
			csv_int(b, it->not_earned);
		csv_int(b, it->guessing);
		csv_word(b, pl_num_c(mean, sizeof mean,
		    lab_item_mean_attempts(it), 'f', 2));
		csv_empty(b);
		csv_end(b);
	}
}

char *
lab_report_csv(const struct lab_script *ls, const struct content_course *c,
    const struct lab_result *res, size_t n, const char *session)
{
	static const char *const head[] = { "user", "profile", "step",
	    "step_title", "row", "item", "attempts", "first_correct",
	    "correct", "right", "wrong", "scenarios_solved", "status", "tradeoff",
	    "first_try_right", "right_after_feedback", "earned", "guess_flags",
	    "answered", "not_earned", "guessing", "mean_attempts", "refused",
	    NULL };
	struct lab_class cl;
	struct csv b = { NULL, 0, 0, 0, 0 };
	size_t i;

	if (lab_class_build(ls, c, res, n, session, &cl) != 0)
		return NULL;
	csv_header(&b, head);
	for (i = 0; i < n; i++)
		if (counts(&res[i], ls->n_steps, session))
			csv_student(&b, ls, c, &cl, &res[i]);
	csv_class(&b, ls, c, &cl);
	lab_class_free(&cl);
	return csv_take(&b);
}

static cJSON *
json_students(const struct lab_script *ls, const struct lab_result *res,
    size_t n, const char *session)
{
	cJSON *arr = cJSON_CreateArray(), *o, *steps, *so;
	size_t i, s;
	int right, wrong, solved;

	for (i = 0; arr != NULL && i < n; i++) {
		if (!counts(&res[i], ls->n_steps, session))
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "user", res[i].user);
		cJSON_AddStringToObject(o, "profile", res[i].profile);
		cJSON_AddNumberToObject(o, "step", res[i].step + 1);
		cJSON_AddNumberToObject(o, "step_since_unix_s",
		    (double)res[i].step_since);
		steps = cJSON_AddArrayToObject(o, "steps");
		for (s = 0; s < ls->n_steps; s++) {
			lab_student_step(&res[i], (int)s, &right, &wrong,
			    &solved);
			so = cJSON_CreateObject();
			cJSON_AddNumberToObject(so, "step", (double)s + 1);
			cJSON_AddNumberToObject(so, "right", right);
			cJSON_AddNumberToObject(so, "wrong", wrong);
			cJSON_AddNumberToObject(so, "scenarios_solved", solved);
			cJSON_AddItemToArray(steps, so);
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* What the grading made of one answer. */
static void
json_grading(cJSON *a, const struct lab_answer *x)
{
	cJSON *g;

	cJSON_AddBoolToObject(a, "first_try_right", x->first_correct);
	cJSON_AddBoolToObject(a, "right_after_feedback", x->after_feedback);
	cJSON_AddBoolToObject(a, "earned", x->earned);
	g = cJSON_AddArrayToObject(a, "guess_flags");
	if (x->all_ticked)
		cJSON_AddItemToArray(g, cJSON_CreateString("all-ticked"));
	if (x->followed)
		cJSON_AddItemToArray(g, cJSON_CreateString(
		    "followed-diagnostic"));
}

static void
json_answers(cJSON *students, const struct lab_result *res, size_t n,
    size_t n_steps, const char *session)
{
	cJSON *st = students->child, *arr, *a;
	size_t i, k;

	for (i = 0; i < n && st != NULL; i++) {
		if (!counts(&res[i], n_steps, session))
			continue;
		arr = cJSON_AddArrayToObject(st, "answers");
		for (k = 0; k < res[i].n_answers; k++) {
			const struct lab_answer *x = &res[i].answers[k];

			if ((size_t)x->step >= n_steps)
				continue;
			a = cJSON_CreateObject();
			cJSON_AddNumberToObject(a, "step", x->step + 1);
			cJSON_AddStringToObject(a, "kind", kind_word(x->kind));
			cJSON_AddStringToObject(a, "id", x->id);
			cJSON_AddNumberToObject(a, "attempts", x->attempts);
			cJSON_AddBoolToObject(a, "first_correct",
			    x->first_correct);
			cJSON_AddBoolToObject(a, "correct", x->correct);
			if (x->tradeoff != NULL)
				cJSON_AddStringToObject(a, "tradeoff",
				    x->tradeoff);
			if (x->refused != NULL)
				cJSON_AddStringToObject(a, "refused",
				    x->refused);
			json_grading(a, x);
			cJSON_AddItemToArray(arr, a);
		}
		st = st->next;
	}
}

static void
json_class_counts(cJSON *o, const struct lab_item_stat *it)
{
	cJSON_AddBoolToObject(o, "self_graded", it->self_graded);
	cJSON_AddNumberToObject(o, "answered", it->answered);
	cJSON_AddNumberToObject(o, "first_try_right", it->first_right);
	cJSON_AddNumberToObject(o, "right_after_feedback", it->after_feedback);
	cJSON_AddNumberToObject(o, "earned", it->earned);
	cJSON_AddNumberToObject(o, "not_earned", it->not_earned);
	cJSON_AddNumberToObject(o, "attempts", it->attempts);
	/* Two decimals, as the CSV has it. */
	cJSON_AddNumberToObject(o, "mean_attempts",
	    round(lab_item_mean_attempts(it) * 100) / 100);
	cJSON_AddNumberToObject(o, "all_ticked", it->all_ticked);
	cJSON_AddNumberToObject(o, "followed_diagnostic", it->followed);
	cJSON_AddNumberToObject(o, "guessing", it->guessing);
}

static cJSON *
json_items(const struct lab_class *cl)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t k;

	for (k = 0; arr != NULL && k < cl->n_items; k++) {
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "step", cl->items[k].step + 1);
		cJSON_AddStringToObject(o, "kind", kind_word(cl->items[k].kind));
		cJSON_AddStringToObject(o, "id", cl->items[k].id);
		cJSON_AddNumberToObject(o, "right", cl->items[k].right);
		cJSON_AddNumberToObject(o, "wrong", cl->items[k].wrong);
		cJSON_AddNumberToObject(o, "missed_first_try",
		    cl->items[k].missed);
		json_class_counts(o, &cl->items[k]);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

char *
lab_report_json(const struct lab_script *ls, const struct content_course *c,
    const struct lab_result *res, size_t n, const char *session)
{
	struct lab_class cl;
	cJSON *o, *students, *mm;
	char *s;

	if (lab_class_build(ls, c, res, n, session, &cl) != 0)
		return NULL;
	o = cJSON_CreateObject();
	/* The contract of the CLI's JSON documents (cli/jsonout.h). */
	cJSON_AddStringToObject(o, "schema", "parlearn.lab-report/1");
	cJSON_AddStringToObject(o, "lab", ls->title);
	cJSON_AddStringToObject(o, "session", session != NULL ? session : "");
	cJSON_AddNumberToObject(o, "students", (double)cl.n_students);
	students = json_students(ls, res, n, session);
	json_answers(students, res, n, ls->n_steps, session);
	cJSON_AddItemToObject(o, "table", students);
	cJSON_AddItemToObject(o, "questions", json_items(&cl));
	if (cl.most_missed >= 0) {
		mm = cJSON_AddObjectToObject(o, "most_missed");
		cJSON_AddNumberToObject(mm, "step",
		    cl.items[cl.most_missed].step + 1);
		cJSON_AddStringToObject(mm, "id", cl.items[cl.most_missed].id);
		cJSON_AddNumberToObject(mm, "missed",
		    cl.items[cl.most_missed].missed);
	} else
		cJSON_AddNullToObject(o, "most_missed");
	s = cJSON_Print(o);
	cJSON_Delete(o);
	lab_class_free(&cl);
	return s;
}
