/*
 * progress_score.h - each drop's score and status as the learner has
 * earned them: the answers table read per question and incident, graded
 * by core/course/score.h, with drop_progress's stored status and, for
 * mastery, the review log of the drop's cards.
 *
 * Nothing here writes. Scenario checks are the answers whose question
 * id is EXPORT_SCENARIO_PREFIX + the scenario's id; the diagnoses
 * committed in an incident add STORE_DIAGNOSIS_SUFFIX to that.
 */
#ifndef PARLEARN_STORE_PROGRESS_SCORE_H
#define PARLEARN_STORE_PROGRESS_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/course/content.h"
#include "core/course/score.h"
#include "store/db.h"

#define STORE_DIAGNOSIS_SUFFIX	"#diagnosis"

/*
 * One record per question and per incident of drop d that has an
 * answer, graded by score_question / score_incident, into *recs
 * (allocated; the caller frees it) and *n. Returns 0, or -1 with err set
 * (*recs NULL).
 */
int	store_drop_records(struct store *, int64_t profile,
	    const struct content_drop *d, struct score_record **recs,
	    size_t *n, struct pl_err *err);

/*
 * Score drop d of course c for the profile, mastery included; *status
 * gets its status to show.
 */
int	store_drop_score(struct store *, int64_t profile,
	    const struct content_course *c, const struct content_drop *d,
	    struct drop_score *out, enum curriculum_status *status,
	    struct pl_err *err);

/*
 * As store_course_status (store/progress.h), with each status raised to
 * ATTEMPTED, DONE or MASTERED by its score; scores (may be NULL) gets
 * one per drop. The caller allocates status and scores with
 * course->n_drops entries.
 */
int	store_course_progress(struct store *, int64_t profile,
	    const struct content_course *, enum curriculum_status *status,
	    struct drop_score *scores, int *last_index, struct pl_err *err);

#endif
