/*
 * score.c - a drop's score and its done / mastered status from the
 * records of its answers (rules in score.h), and the course's summary.
 */
#include <string.h>

#include "core/course/score.h"

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

void
score_drop(const struct content_drop *d, const struct score_record *recs,
    size_t n, int read, struct drop_score *out)
{
	const struct score_record *r;
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < d->n_blocks; i++) {
		const struct content_block *b = &d->blocks[i];

		if (b->kind == CONTENT_QUESTION) {
			out->questions++;
			r = find(recs, n, b->question.id, 0);
			if (r == NULL || r->attempts == 0)
				continue;
			out->attempted++;
			out->first_right += r->first_right != 0;
			out->earned += r->earned != 0;
		} else if (b->kind == CONTENT_SCENARIO) {
			out->incidents++;
			r = find(recs, n, b->scenario.id, 1);
			if (r != NULL && r->earned) {
				out->incidents_passed++;
				out->earned++;
			}
		}
	}
	out->items = out->questions + out->incidents;
	out->score = out->items > 0 ? (double)out->earned / out->items : 0;
	out->done = out->attempted == out->questions &&
	    out->incidents_passed == out->incidents &&
	    (out->items > 0 || read);
	out->mastered = out->done && out->items > 0 &&
	    out->earned == out->items;
}

enum curriculum_status
score_status(enum curriculum_status stored, const struct drop_score *s)
{
	if (s->mastered)
		return CURRICULUM_MASTERED;
	if (s->done)
		return CURRICULUM_DONE;
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
		out->read += status[i] == CURRICULUM_READ;
		out->questions += s[i].questions;
		out->attempted += s[i].attempted;
		out->first_right += s[i].first_right;
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
