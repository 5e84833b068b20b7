/*
 * score.h - what a learner's answers add up to (issue 22: "a grade that
 * means learned"). README.md and parlearn(1) state the same rules.
 *
 * Checked questions (single choice, multiple choice, numeric) have
 * counting tries (quiz_counting_tries: 1 for a single choice, 2 for
 * multiple choice and numeric). A checked question is
 * - attempted once it has an answer (a format slip, such as "20" typed
 *   where a fraction is asked, is no answer);
 * - earned when an answer within its counting tries was right: on the
 *   first try, or on the second after feedback that named only the kind
 *   of mistake. Answers saved before this rule (rule 1, whose feedback
 *   showed the size of a miss and marked options) earn on the first try
 *   only;
 * - over once it is right or out of counting tries; then the reader
 *   shows the figure, the right options and the explanation, and a
 *   question over and not earned becomes a mistake card;
 * - right once any of its answers was right.
 * Reveal questions are graded by the learner: kept and shown, never part
 * of the score or the status.
 * An incident is attempted once checked; passed once a check passed;
 * earned when it passed and the first diagnosis the learner committed
 * was right (rule 1 passes, from before diagnoses, are passed, not
 * earned).
 * The score is earned items / items; the items are the checked questions
 * and the incidents. A drop is
 * - read when its last line has been on a page;
 * - attempted when every item is attempted but it is not done;
 * - done when every checked question is right and every incident passed;
 * - mastered when done and every card of the drop (the deck cards it
 *   unlocks and its mistake cards) was recalled (rated Hard, Good or
 *   Easy) in a review on a day after the day it was done.
 * None of this is stored: it is recomputed from the answers and the
 * review log whenever it is shown.
 */
#ifndef PARLEARN_CORE_SCORE_H
#define PARLEARN_CORE_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/course/content.h"
#include "core/course/curriculum.h"

/* The grading rule answers are saved under now (answers.rule); 1 is the
 * rule before issue 22. */
#define SCORE_RULE	2

/* One saved answer of a question, or one check of an incident. */
struct score_attempt {
	int		 correct;	/* bool */
	int		 rule;		/* SCORE_RULE or 1 */
	const char	*response;	/* quiz_response's text; borrowed */
	int64_t		 at;		/* Unix s */
};

/* What the answers of one question or incident add up to. */
struct score_record {
	char	id[128];	/* question id, or the scenario's id */
	int	scenario;	/* bool: an incident */
	int	reveal;		/* bool: a self-graded question */
	int	attempts;	/* answers or checks counted */
	int	earned;		/* bool: see above */
	int	first_right;	/* bool: the first answer was right */
	int	after_feedback;	/* bool: earned on a later counting try */
	int	right;		/* bool: some answer right / check passed */
	int	last_right;	/* bool: the latest answer was right */
	int	over;		/* bool: right or out of counting tries */
	int	all_ticked;	/* bool: a choice answer ticked every option
				 * while some option is wrong */
	int	followed;	/* bool: right just after a rule-1 numeric
				 * diagnostic that showed the miss's size */
	int	diagnosed;	/* incidents: diagnoses committed */
	int64_t	right_at;	/* first right answer or pass, 0 if none */
	char	response[128];	/* the latest answer (questions) */
};

/*
 * Grade a question from its answers (n, oldest first) into rec (id and
 * flags filled; response is the latest answer's).
 */
void	score_question(const struct content_question *q,
	    const struct score_attempt *a, size_t n, struct score_record *rec);

/*
 * Grade an incident from its checks and the diagnoses committed (each
 * oldest first; correct = right diagnosis) into rec.
 */
void	score_incident(const char *id, const struct score_attempt *checks,
	    size_t n, const struct score_attempt *diag, size_t nd,
	    struct score_record *rec);

struct drop_score {
	int	questions;		/* checked question blocks */
	int	attempted;		/* of those, with an answer */
	int	right;			/* of those, answered right */
	int	first_right;		/* of those, right the first time */
	int	after_feedback;		/* earned on a later counting try */
	int	earned;			/* questions and incidents earned */
	int	reveals;		/* reveal questions */
	int	self_graded;		/* of those, graded by the learner */
	int	incidents;		/* scenario blocks */
	int	incidents_tried;
	int	incidents_passed;
	int	items;			/* checked questions + incidents */
	double	score;			/* earned / items, 0..1; 0 if no item */
	int	all_attempted;		/* bool: every item attempted */
	int	done;			/* bool: see above */
	int64_t	done_at;		/* when the last item became right */
	int	cards;			/* the drop's cards (score_recall) */
	int	recalled;		/* of those, recalled after done day */
	int	mastered;		/* bool */
};

/*
 * Score drop d from n records (in any order; records of items the drop no
 * longer has are ignored). read is 1 once the drop has been read to its
 * end. Fills out; mastered stays 0 until score_recall.
 */
void	score_drop(const struct content_drop *d, const struct score_record *recs,
	    size_t n, int read, struct drop_score *out);

/*
 * The retrieval half of mastery: the drop has `cards` cards, `recalled`
 * of which were recalled on a day after the day of s->done_at. Sets
 * s->mastered.
 */
void	score_recall(struct drop_score *s, int cards, int recalled);

/*
 * The status to show: the stored one (NEW, STARTED or READ) raised to
 * ATTEMPTED, DONE or MASTERED by the score.
 */
enum curriculum_status	score_status(enum curriculum_status stored,
			    const struct drop_score *);

/* Over a whole course (one score per drop): the end-of-course summary. */
struct course_summary {
	int	drops;			/* drops in the course */
	int	done;			/* done or mastered */
	int	mastered;
	int	read;			/* read or attempted, not done */
	int	questions;		/* over all drops */
	int	attempted;
	int	first_right;
	int	after_feedback;
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
