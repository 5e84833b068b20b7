/*
 * score.h - how far a learner has got in a drop, from what the store
 * holds of their answers: the drop's score and whether it is done or
 * mastered (issue 14: "done means learned").
 *
 * The items of a drop are its questions and its incidents (scenario
 * blocks). A question is attempted once it has one saved answer; it is
 * earned when one of its first SCORE_EARN_ATTEMPTS answers was right,
 * that is before the reader gives anything away (the figure of a numeric
 * question and the right options of a choice question appear only after
 * a second miss). An incident is earned when it has passed. The score is
 * earned items / items. A drop is done when every question is attempted
 * and every incident passed, and mastered when, in addition, every item
 * is earned. A drop with no item is done once it has been read, and
 * never mastered.
 */
#ifndef PARLEARN_CORE_SCORE_H
#define PARLEARN_CORE_SCORE_H

#include <stddef.h>

#include "core/course/content.h"
#include "core/course/curriculum.h"

/* Answers within which a right one still counts as earned. */
#define SCORE_EARN_ATTEMPTS	2

/* What the store holds about one question or incident of a drop. */
struct score_record {
	char	id[128];	/* question id, or the scenario's id */
	int	scenario;	/* bool: an incident's checks */
	int	attempts;	/* answers or checks saved */
	int	earned;		/* bool: right within SCORE_EARN_ATTEMPTS
				 * (question), passed (incident) */
	int	first_right;	/* bool: the first answer was right */
	int	last_right;	/* bool: the latest answer was right */
	char	response[128];	/* the latest answer as quiz_response()
				 * wrote it (questions) */
};

struct drop_score {
	int	questions;		/* question blocks */
	int	attempted;		/* of those, with an answer */
	int	first_right;		/* of those, right the first time */
	int	earned;			/* questions and incidents earned */
	int	incidents;		/* scenario blocks */
	int	incidents_passed;
	int	items;			/* questions + incidents */
	double	score;			/* earned / items, 0..1; 0 if no item */
	int	done;			/* bool: see above */
	int	mastered;		/* bool */
};

/*
 * Score drop d from n records (in any order; records of items the drop no
 * longer has are ignored). read is 1 once the drop has been read to its
 * end. Fills out.
 */
void	score_drop(const struct content_drop *d, const struct score_record *recs,
	    size_t n, int read, struct drop_score *out);

/*
 * The status to show: the stored one (NEW, STARTED or READ) raised to
 * DONE or MASTERED by the score.
 */
enum curriculum_status	score_status(enum curriculum_status stored,
			    const struct drop_score *);

/* Over a whole course (one score per drop): the end-of-course summary. */
struct course_summary {
	int	drops;			/* drops in the course */
	int	done;			/* done or mastered */
	int	mastered;
	int	read;			/* read to the end, not done */
	int	questions;		/* over all drops */
	int	attempted;
	int	first_right;
	int	earned;
	int	items;
	int	incidents;
	int	incidents_passed;
	double	score;			/* earned / items over the course */
	int	weakest;		/* index of the done drop with the lowest
					 * score below 1, or -1 */
	int	complete;		/* bool: every drop done */
};

void	score_course(const struct content_course *, const struct drop_score *,
	    const enum curriculum_status *status, struct course_summary *out);

#endif
