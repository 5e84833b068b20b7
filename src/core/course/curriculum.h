/*
 * curriculum.h - what the home screen and `parlearn list` report about a
 * learner's place in the course, from the per-drop statuses.
 */
#ifndef PARLEARN_CORE_CURRICULUM_H
#define PARLEARN_CORE_CURRICULUM_H

#include <stddef.h>

#include "core/course/content.h"

/*
 * A drop's status, the one enum for core, the store and the screens.
 * NEW, STARTED and READ are what the database keeps in
 * drop_progress.status (never renumber them); ATTEMPTED, DONE and
 * MASTERED are computed from the answers and the review log
 * (core/course/score.h) and never stored: reading a drop to its end does
 * not make it done.
 */
enum curriculum_status {
	CURRICULUM_NEW = 0,		/* never opened */
	CURRICULUM_STARTED = 1,		/* opened */
	CURRICULUM_READ = 2,		/* its last line has been on a page */
	CURRICULUM_ATTEMPTED = 3,	/* every checked question answered,
					 * every incident checked; not done */
	CURRICULUM_DONE = 4,		/* every checked question right, every
					 * incident passed */
	CURRICULUM_MASTERED = 5		/* done, and its cards recalled on a
					 * later day */
};

/* 1 for DONE and MASTERED: the drop counts as finished. */
int	curriculum_is_done(enum curriculum_status);

struct curriculum_phase_progress {
	int	done;		/* drops done or mastered */
	int	mastered;	/* of those, mastered */
	int	started;	/* drops started, read or attempted, not
				 * done */
	int	total;		/* drops in the phase */
	double	fraction;	/* done / total, 0 when total is 0 */
};

/* Count status[i] (one per course->drops[i]) for one phase. */
void	curriculum_phase(const struct content_course *,
	    const enum curriculum_status *status, int phase,
	    struct curriculum_phase_progress *out);

/*
 * Index of the drop "continue" should open: the last visited drop
 * (last_index, or -1 if none) unless it is done, in which case the first
 * drop after it that is not done, else the first not-done drop of the
 * course. Returns -1 when every drop is done.
 */
int	curriculum_continue(const struct content_course *,
	    const enum curriculum_status *status, int last_index);

/*
 * The minutes the drops not done yet take: the sum of minutes[i] (one per
 * course->drops[i], as duration_course() gives them) over the drops whose
 * status[i] is not done or mastered.
 */
int	curriculum_minutes_left(const struct content_course *,
	    const enum curriculum_status *status, const int *minutes);

/*
 * One-word name of a status: "new", "started", "read", "attempted",
 * "done", "mastered" (for JSON).
 */
const char	*curriculum_status_word(enum curriculum_status);

/* The same word, translated (for screens). */
const char	*curriculum_status_name(enum curriculum_status);

#endif
