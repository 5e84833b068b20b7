/*
 * progress_score.h - each drop's score and status as the learner has
 * earned them: the answers table read per question (core/course/score.h
 * says what counts), combined with drop_progress's stored status.
 *
 * Nothing here writes. Scenario attempts are the answers whose question
 * id has EXPORT_SCENARIO_PREFIX (store/scenario_store.h).
 */
#ifndef PARLEARN_STORE_PROGRESS_SCORE_H
#define PARLEARN_STORE_PROGRESS_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/course/content.h"
#include "core/course/score.h"
#include "store/db.h"

/*
 * One record per question and per scenario of drop_id that has an
 * answer, into *recs (allocated; the caller frees it) and *n. Returns 0,
 * or -1 with err set (*recs NULL).
 */
int	store_drop_records(struct store *, int64_t profile,
	    const char *drop_id, struct score_record **recs, size_t *n,
	    struct pl_err *err);

/* Score drop d for the profile; *status gets its status to show. */
int	store_drop_score(struct store *, int64_t profile,
	    const struct content_drop *d, struct drop_score *out,
	    enum curriculum_status *status, struct pl_err *err);

/*
 * As store_course_status (store/progress.h), with each status raised to
 * DONE or MASTERED by its score; scores (may be NULL) gets one per drop.
 * The caller allocates status and scores with course->n_drops entries.
 */
int	store_course_progress(struct store *, int64_t profile,
	    const struct content_course *, enum curriculum_status *status,
	    struct drop_score *scores, int *last_index, struct pl_err *err);

#endif
