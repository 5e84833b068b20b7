/*
 * progress.h - profiles, drop progress, answers and settings.
 *
 * Every function that writes does so in one transaction and returns 0, or
 * -1 with err set and nothing changed. Times are Unix seconds.
 */
#ifndef PARLEARN_STORE_PROGRESS_H
#define PARLEARN_STORE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "core/course/content.h"
#include "core/course/curriculum.h"
#include "store/db.h"

struct store_drop_progress {
	enum curriculum_status	status;
	int64_t			started;	/* Unix s, 0 if never */
	int64_t			finished;	/* Unix s, 0 if not done */
	int64_t			seconds;	/* time spent reading, s */
	int			position;	/* block index to resume at */
	int64_t			last_seen;	/* Unix s, 0 if never opened */
};

/* Longest profile name, in characters (code points), not bytes. */
#define STORE_PROFILE_MAX_CHARS	64

/*
 * Id of the profile called name, creating it if needed (a read-only
 * store, store_open_read: 0 when there is none). A name must pass
 * safetext_name_ok(name, STORE_PROFILE_MAX_CHARS): -1 with err otherwise.
 */
int	store_profile(struct store *, const char *name, int64_t now,
	    int64_t *id, struct pl_err *err);

/* Progress of one drop; a drop never opened reads as CURRICULUM_NEW, 0s. */
int	store_drop_get(struct store *, int64_t profile, const char *drop_id,
	    struct store_drop_progress *out, struct pl_err *err);

/*
 * Record a visit: marks the drop started (if new), sets its position and
 * last_seen, adds add_seconds of reading time.
 */
int	store_drop_visit(struct store *, int64_t profile, const char *drop_id,
	    int position, int64_t add_seconds, int64_t now, struct pl_err *err);

/*
 * Mark read to the end, CURRICULUM_READ (keeps the first finish time if
 * already read). Done and mastered are computed: store/progress_score.h.
 */
int	store_drop_finish(struct store *, int64_t profile, const char *drop_id,
	    int64_t now, struct pl_err *err);

/*
 * Drop id most recently visited by this profile into buf; returns 1 if
 * there is one, 0 if the profile has visited nothing, -1 on error.
 */
int	store_last_drop(struct store *, int64_t profile, char *buf,
	    size_t size, struct pl_err *err);

/*
 * Save one answer; attempt is computed (1 + earlier attempts at the same
 * question) and returned in *attempt_out (may be NULL).
 */
int	store_answer_add(struct store *, int64_t profile, const char *drop_id,
	    const char *question_id, int correct, const char *response,
	    double seconds, int64_t now, int *attempt_out, struct pl_err *err);

/* store_answer_add inside the caller's transaction (store_begin). */
int	store_answer_insert(struct store *, int64_t profile,
	    const char *drop_id, const char *question_id, int correct,
	    const char *response, double seconds, int64_t now,
	    int *attempt_out, struct pl_err *err);

/* Number of answers saved for a question, and whether the last was right. */
int	store_answer_stats(struct store *, int64_t profile,
	    const char *drop_id, const char *question_id, int *attempts,
	    int *last_correct, struct pl_err *err);

/* Settings: get returns 1 if found (value copied), 0 if not, -1 on error. */
int	store_setting_get(struct store *, int64_t profile, const char *key,
	    char *buf, size_t size, struct pl_err *err);
int	store_setting_set(struct store *, int64_t profile, const char *key,
	    const char *value, struct pl_err *err);

/*
 * Fill status[i] for every course->drops[i] (caller allocates n_drops) and
 * *last_index with the index of the most recently visited drop, or -1.
 */
int	store_course_status(struct store *, int64_t profile,
	    const struct content_course *, enum curriculum_status *status,
	    int *last_index, struct pl_err *err);

#endif
