/*
 * score.c - grading a question or an incident from its saved answers,
 * a drop's score and status, and the course's summary (rules in
 * score.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/course/quiz.h"
#include "core/course/score.h"
#include "core/number.h"

/*
 * A saved answer that is a format slip, not an answer: a number above 1
 * where a fraction is asked. Rule 2 never saves one; rule 1 did.
 */
static int
slip(const struct content_question *q, const char *response)
{
	double v;

	return q->type == CONTENT_Q_NUMERIC && quiz_wants_fraction(q) &&
	    response != NULL && pl_parse_double(response, 0, &v) == 0 &&
	    fabs(v) > 1;
}

/* Every option of a choice answer ticked ("1,2,3,4"), some wrongly. */
static int
every_option(const struct content_question *q, const char *response)
{
	char all[64];
	size_t i, n = 0;
	int some_wrong = 0;

	if ((q->type != CONTENT_Q_SINGLE && q->type != CONTENT_Q_MULTIPLE) ||
	    response == NULL || q->n_options < 2)
		return 0;
	all[0] = '\0';
	for (i = 0; i < q->n_options && n + 4 < sizeof all; i++) {
		n += (size_t)snprintf(all + n, sizeof all - n, "%s%zu",
		    i > 0 ? "," : "", i + 1);
		some_wrong |= !q->options[i].correct;
	}
	return some_wrong && strcmp(response, all) == 0;
}

void
score_question(const struct content_question *q,
    const struct score_attempt *a, size_t n, struct score_record *rec)
{
	int tries = quiz_counting_tries(q), leaked = 0, prev_wrong = 0;
	size_t i;

	memset(rec, 0, sizeof *rec);
	snprintf(rec->id, sizeof rec->id, "%s", q->id);
	rec->reveal = q->type == CONTENT_Q_REVEAL;
	for (i = 0; i < n; i++) {
		if (slip(q, a[i].response))
			continue;
		rec->attempts++;
		if (rec->attempts == 1)
			rec->first_right = a[i].correct != 0;
		rec->all_ticked |= every_option(q, a[i].response);
		if (a[i].correct && !rec->right) {
			rec->right = 1;
			rec->right_at = a[i].at;
		}
		if (a[i].correct && !rec->reveal && !rec->earned &&
		    rec->attempts <= tries && (rec->attempts == 1 || !leaked)) {
			rec->earned = 1;
			rec->after_feedback = rec->attempts > 1;
		}
		/* Rule 1 printed the size of a numeric miss ("about 2.1e+02
		 * times too low"): a right answer next followed it. */
		if (a[i].correct && prev_wrong && a[i].rule < SCORE_RULE &&
		    q->type == CONTENT_Q_NUMERIC)
			rec->followed = 1;
		if (!a[i].correct && a[i].rule < SCORE_RULE)
			leaked = 1;
		prev_wrong = !a[i].correct;
		rec->last_right = a[i].correct != 0;
		snprintf(rec->response, sizeof rec->response, "%s",
		    a[i].response != NULL ? a[i].response : "");
	}
	rec->over = rec->attempts > 0 && (rec->right || rec->attempts >= tries);
}

void
score_incident(const char *id, const struct score_attempt *checks, size_t n,
    const struct score_attempt *diag, size_t nd, struct score_record *rec)
{
	size_t i;

	memset(rec, 0, sizeof *rec);
	snprintf(rec->id, sizeof rec->id, "%s", id);
	rec->scenario = 1;
	rec->attempts = (int)n;
	rec->diagnosed = (int)nd;
	for (i = 0; i < n; i++) {
		if (i == 0)
			rec->first_right = checks[i].correct != 0;
		if (checks[i].correct && !rec->right) {
			rec->right = 1;
			rec->right_at = checks[i].at;
		}
		rec->last_right = checks[i].correct != 0;
	}
	rec->over = rec->right;
	rec->earned = rec->right && nd > 0 && diag[0].correct &&
	    diag[0].rule >= SCORE_RULE;
}

static const struct score_record *
find(const struct score_record *recs, size_t n, const char *id,
    int scenario)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (recs[i].scenario == scenario &&
		    strcmp(recs[i].id, id) == 0)
			return &recs[i];
	return NULL;
}

static void
later(int64_t *at, int64_t t)
{
	if (t > *at)
		*at = t;
}

void
score_drop(const struct content_drop *d, const struct score_record *recs,
    size_t n, int read, struct drop_score *out)
{
	const struct score_record *r;
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < d->n_blocks; i++) {
		const struct content_block *b = &d->blocks[i];

		if (b->kind == CONTENT_QUESTION &&
		    b->question.type == CONTENT_Q_REVEAL) {
			out->reveals++;
			r = find(recs, n, b->question.id, 0);
			out->self_graded += r != NULL && r->attempts > 0;
		} else if (b->kind == CONTENT_QUESTION) {
			out->questions++;
			r = find(recs, n, b->question.id, 0);
			if (r == NULL || r->attempts == 0)
				continue;
			out->attempted++;
			out->right += r->right;
			out->first_right += r->first_right;
			out->after_feedback += r->after_feedback;
			out->earned += r->earned;
			later(&out->done_at, r->right_at);
		} else if (b->kind == CONTENT_SCENARIO) {
			out->incidents++;
			r = find(recs, n, b->scenario.id, 1);
			if (r == NULL || r->attempts == 0)
				continue;
			out->incidents_tried++;
			out->incidents_passed += r->right;
			out->earned += r->earned;
			later(&out->done_at, r->right_at);
		}
	}
	out->items = out->questions + out->incidents;
	out->score = out->items > 0 ? (double)out->earned / out->items : 0;
	out->all_attempted = out->items > 0 &&
	    out->attempted == out->questions &&
	    out->incidents_tried == out->incidents;
	out->done = out->right == out->questions &&
	    out->incidents_passed == out->incidents &&
	    (out->items > 0 || read);
	if (!out->done)
		out->done_at = 0;
}

void
score_recall(struct drop_score *s, int cards, int recalled)
{
	s->cards = cards;
	s->recalled = recalled;
	s->mastered = s->done && s->items > 0 && cards > 0 &&
	    recalled >= cards;
}

enum curriculum_status
score_status(enum curriculum_status stored, const struct drop_score *s)
{
	if (s->mastered)
		return CURRICULUM_MASTERED;
	if (s->done)
		return CURRICULUM_DONE;
	if (s->all_attempted)
		return CURRICULUM_ATTEMPTED;
	return stored > CURRICULUM_READ ? CURRICULUM_READ : stored;
}

void
score_course(const struct content_course *c, const struct drop_score *s,
    const enum curriculum_status *status, struct course_summary *out)
{
	double low = 2;
	size_t i;

	memset(out, 0, sizeof *out);
	out->weakest = -1;
	for (i = 0; i < c->n_drops; i++) {
		out->drops++;
		out->done += curriculum_is_done(status[i]);
		out->mastered += status[i] == CURRICULUM_MASTERED;
		out->read += status[i] == CURRICULUM_READ ||
		    status[i] == CURRICULUM_ATTEMPTED;
		out->questions += s[i].questions;
		out->attempted += s[i].attempted;
		out->first_right += s[i].first_right;
		out->after_feedback += s[i].after_feedback;
		out->earned += s[i].earned;
		out->items += s[i].items;
		out->incidents += s[i].incidents;
		out->incidents_passed += s[i].incidents_passed;
		if (curriculum_is_done(status[i]) && s[i].items > 0 &&
		    s[i].score < 1 && s[i].score < low) {
			low = s[i].score;
			out->weakest = (int)i;
		}
	}
	out->score = out->items > 0 ? (double)out->earned / out->items : 0;
	out->complete = out->drops > 0 && out->done == out->drops;
}
