/*
 * curriculum.c - progress per phase and where to continue.
 */
#include "i18n.h"
#include "core/course/curriculum.h"

void
curriculum_phase(const struct content_course *c,
    const enum curriculum_status *status, int phase,
    struct curriculum_phase_progress *out)
{
	size_t i;

	out->done = out->mastered = out->started = out->total = 0;
	for (i = 0; i < c->n_drops; i++) {
		if (c->drops[i].phase != phase)
			continue;
		out->total++;
		if (curriculum_is_done(status[i]))
			out->done++;
		else if (status[i] != CURRICULUM_NEW)
			out->started++;
		if (status[i] == CURRICULUM_MASTERED)
			out->mastered++;
	}
	out->fraction = out->total > 0 ? (double)out->done / out->total : 0.0;
}

int
curriculum_minutes_left(const struct content_course *c,
    const enum curriculum_status *status, const int *minutes)
{
	size_t i;
	int left = 0;

	for (i = 0; i < c->n_drops; i++)
		if (!curriculum_is_done(status[i]))
			left += minutes[i];
	return left;
}

int
curriculum_is_done(enum curriculum_status s)
{
	return s == CURRICULUM_DONE || s == CURRICULUM_MASTERED;
}

int
curriculum_continue(const struct content_course *c,
    const enum curriculum_status *status, int last_index)
{
	size_t i;

	if (last_index >= 0 && (size_t)last_index < c->n_drops) {
		if (!curriculum_is_done(status[last_index]))
			return last_index;
		for (i = (size_t)last_index + 1; i < c->n_drops; i++)
			if (!curriculum_is_done(status[i]))
				return (int)i;
	}
	for (i = 0; i < c->n_drops; i++)
		if (!curriculum_is_done(status[i]))
			return (int)i;
	return -1;
}

const char *
curriculum_status_word(enum curriculum_status s)
{
	switch (s) {
	case CURRICULUM_STARTED:
		return N_("started");
	case CURRICULUM_READ:
		return N_("read");
	case CURRICULUM_ATTEMPTED:
		return N_("attempted");
	case CURRICULUM_DONE:
		return N_("done");
	case CURRICULUM_MASTERED:
		return N_("mastered");
	case CURRICULUM_NEW:
		break;
	}
	return N_("new");
}

const char *
curriculum_status_name(enum curriculum_status s)
{
	return _(curriculum_status_word(s));
}
