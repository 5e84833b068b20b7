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
#include <stdio.h>

#include "core/course/content.h"
#include "core/err.h"
#include "store/db.h"

/*
 * Question-id prefix of scenario attempts in the answers table: the one
 * constant store/scenario_store.c writes and export and labs read.
 */
#define EXPORT_SCENARIO_PREFIX	"scenario:"

/*
 * The format name and version written into every export, and its name in
 * the contract of the JSON documents (schema/export.json describes it).
 */
#define EXPORT_FORMAT	"parlearn-profile"
#define EXPORT_VERSION	1
#define EXPORT_SCHEMA	"parlearn.export/1"

/*
 * Write the profile called name to fp as JSON (ending in a newline) or
 * CSV, each row as it is read from one snapshot of the database, so that
 * memory does not grow with the profile. course may be NULL. Returns 0;
 * -1 with err set when there is no such profile (nothing is written then)
 * or the database fails; -2 when a write to fp failed, with errno saying
 * why (fp may hold part of the export).
 */
int	export_profile_write_json(struct store *, const char *name,
	    const struct content_course *course, FILE *fp,
	    struct pl_err *err);
int	export_profile_write_csv(struct store *, const char *name, FILE *fp,
	    struct pl_err *err);

/*
 * The same in memory, for a small profile: the text (caller frees; the
 * JSON without its final newline), or NULL with err set.
 */
char	*export_profile_json(struct store *, const char *name,
	    const struct content_course *course, struct pl_err *err);
char	*export_profile_csv(struct store *, const char *name,
	    struct pl_err *err);

/* Largest integer a JSON number (a double) holds exactly: 2^53. */
#define EXPORT_EXACT_MAX	9007199254740992LL

/*
 * The export's schema, which import checks field by field (import.c holds
 * it as a table). Times are Unix seconds, 0 to EXPORT_TIME_MAX. Texts are
 * valid UTF-8 with no control character (card faces may hold newlines).
 * An integer beyond +-2^53 (a card's 64-bit seed) is written as a string
 * of decimal digits so that it reads back exactly.
 *
 *   schema "parlearn.export/1" (or an integer, the database's schema, in
 *   files written before it was named), format "parlearn-profile",
 *   version 1, db_schema (integer, optional)
 *   profile   { name: 1..64 characters, created: time (optional) }
 *   drops[]   { drop, status 0..2, seconds, position, started, finished,
 *               last_seen (times or null) }            key: drop
 *   answers[] { drop, question, attempt 1.., correct 0|1, response,
 *               seconds, answered }                    key: drop, question,
 *                                                           attempt
 *   tradeoffs[] { drop, question, attempt, text }      key: drop, question,
 *               the trade-off written with a scenario       attempt
 *               attempt (drop 14's defense): the answers[] row of the
 *               same key; text 1..SC_TRADEOFF_LEN - 1 bytes. Files
 *               written before it have no tradeoffs[].
 *   settings[] { key, value }                          key: key
 *   scenarios[] derived from answers; ignored by import
 *   review    null, or { cards[], user_cards[], review_log[] }, each row
 *             every column of its table but the row id and the profile
 *
 * Rows whose drop or question the course does not have are imported and
 * reported: the course may have changed since the export.
 */
#define EXPORT_TIME_MAX		1e11

/*
 * Restore a profile from export_profile_json's text (file names it for
 * errors). as_name, if not NULL, imports under another profile name.
 * Every field is checked against the schema above before anything is
 * written; a refusal names the JSON path ("answers[3].attempt"). A key
 * repeated within the file is refused. Rows already in the database are
 * kept, never duplicated; drops and settings from the file replace theirs.
 * Everything is written in one transaction. course (may be NULL) is used
 * to report, in notes (may be NULL), rows naming a drop or question it
 * does not have. *added (may be NULL) receives the rows inserted. Time
 * and memory are linear in the size of the file and of the profile.
 */
int	export_import_json(struct store *, const char *text, const char *file,
	    const char *as_name, const struct content_course *course,
	    int *added, struct content_problems *notes, struct pl_err *err);

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
