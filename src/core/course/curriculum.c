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

	out->done = out->started = out->total = 0;
	for (i = 0; i < c->n_drops; i++) {
		if (c->drops[i].phase != phase)
			continue;
		out->total++;
		if (status[i] == CURRICULUM_DONE)
			out->done++;
		else if (status[i] == CURRICULUM_STARTED)
			out->started++;
	}
	out->fraction = out->total > 0 ? (double)out->done / out->total : 0.0;
}

int
curriculum_continue(const struct content_course *c,
    const enum curriculum_status *status, int last_index)
{
	size_t i;

	if (last_index >= 0 && (size_t)last_index < c->n_drops) {
		if (status[last_index] != CURRICULUM_DONE)
			return last_index;
		for (i = (size_t)last_index + 1; i < c->n_drops; i++)
			if (status[i] != CURRICULUM_DONE)
				return (int)i;
	}
	for (i = 0; i < c->n_drops; i++)
		if (status[i] != CURRICULUM_DONE)
			return (int)i;
	return -1;
}

const char *
curriculum_status_word(enum curriculum_status s)
{
	switch (s) {
	case CURRICULUM_STARTED:
		return N_("started");
	case CURRICULUM_DONE:
		return N_("done");
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
