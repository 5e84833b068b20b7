/*
 * export.h - one learner's profile as a file, and back.
 *
 * The JSON export holds the profile, its drop progress, every answer,
 * settings, scenario results (answers whose id is a scenario of the
 * course) and review statistics. It is deterministic: the same database
 * gives the same bytes (rows sorted by key, no export time). Importing it
 * restores the profile in one transaction, matching rows by key, so
 * importing the same file twice adds nothing.
 */
#ifndef PARLEARN_STORE_EXPORT_H
#define PARLEARN_STORE_EXPORT_H

#include <stdint.h>

#include "core/course/content.h"
#include "core/err.h"
#include "store/db.h"

/*
 * Question-id prefix of scenario attempts in the answers table: the one
 * constant store/scenario_store.c writes and export and labs read.
 */
#define EXPORT_SCENARIO_PREFIX	"scenario:"

/* The format name and version written into every export. */
#define EXPORT_FORMAT	"parlearn-profile"
#define EXPORT_VERSION	1

/*
 * The profile called name as JSON or CSV (caller frees). course may be
 * NULL (then no scenario summary). NULL with err set on failure, or when
 * there is no such profile.
 */
char	*export_profile_json(struct store *, const char *name,
	    const struct content_course *course, struct pl_err *err);
char	*export_profile_csv(struct store *, const char *name,
	    struct pl_err *err);

/*
 * Restore a profile from export_profile_json's text (file names it for
 * errors). as_name, if not NULL, imports under another profile name.
 * Rows already present are kept, never duplicated. Everything is written
 * in one transaction. *added (may be NULL) receives the rows inserted.
 */
int	export_import_json(struct store *, const char *text, const char *file,
	    const char *as_name, int *added, struct pl_err *err);

/*
 * First and latest answer to a question: *first_correct and *correct, 1
 * or 0; returns the number of attempts (0 if none) or -1 on error. For a
 * scenario (question_id "scenario:<id>"), *correct is 1 if any attempt
 * passed.
 */
int	export_answer_summary(struct store *, int64_t profile,
	    const char *drop_id, const char *question_id, int *first_correct,
	    int *correct, struct pl_err *err);

#endif
