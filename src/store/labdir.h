/*
 * labdir.h - the lab directory on a shared filesystem: no server, only
 * files with the right owners and modes.
 *
 *   DIR/              the instructor's, 0755
 *   DIR/script.json   the lab script, 0644, written by the host
 *   DIR/state.json    the current step, 0644, written by the host
 *   DIR/results/      the drop box: 03733 (setgid, sticky, -wx for all):
 *                     students create files but cannot list the directory,
 *                     and cannot remove or replace one another's files
 *   DIR/results/.USER@PROFILE.json.lock
 *                     the student's lock (flock) for writing the next file
 *   DIR/results/.USER.profiles
 *                     the student's result file names, one a line, flock'ed
 *                     while a submit runs: a new profile beyond
 *                     LABDIR_MAX_PER_USER is refused
 *   DIR/results/USER@PROFILE.json
 *                     one student's results, created O_EXCL|O_NOFOLLOW
 *                     0600 (0640 with the directory's group when the
 *                     student is not the instructor, so only the
 *                     instructor's group can read it), replaced by
 *                     write-to-temp-then-rename
 *   DIR/archive-STAMP/ earlier groups, moved there by labdir_reset()
 *
 * Every write is atomic (temp file, fsync, rename). Reading a student's
 * file trusts nothing: it must not be a symlink, must be a regular file
 * owned by the user its name names, at most LABDIR_RESULT_MAX bytes, and
 * valid JSON whose user and profile match its name; any other file is
 * reported and skipped. Functions return 0, or -1 with err set.
 */
#ifndef PARLEARN_STORE_LABDIR_H
#define PARLEARN_STORE_LABDIR_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/err.h"
#include "core/lab/lab.h"

#define LABDIR_RESULT_MAX	(64 * 1024)	/* bytes per result file */

/*
 * Create (or take up again) a lab directory owned by the caller and put
 * script_text in it as script.json. Refuses a DIR that exists and is not
 * the caller's directory, and a drop box whose group (which may read
 * every result) has members besides the caller: the drop box takes the
 * caller's own group instead when that one is private, else the error
 * says how to fix it.
 */
int	labdir_create(const char *dir, const char *script_text,
	    struct pl_err *err);

/* Write or read DIR/state.json. */
int	labdir_write_state(const char *dir, const struct lab_state *,
	    struct pl_err *err);
int	labdir_read_state(const char *dir, struct lab_state *,
	    struct pl_err *err);

/* DIR/script.json, parsed. Free with lab_script_free(). */
struct lab_script	*labdir_load_script(const char *dir, struct pl_err *err);

/* The caller's login name (from the real uid, not $USER). 0 or -1. */
int	labdir_whoami(char *buf, size_t size);

/*
 * File name for a user and profile ("USER@PROFILE.json", the profile
 * escaped to [A-Za-z0-9_-] with %XX). 0, or -1 if it does not fit.
 */
int	labdir_result_name(const char *user, const char *profile, char *buf,
	    size_t size);

/*
 * Read the caller's own result (r->user and r->profile say whose).
 * Returns 1 if found, 0 if there is none yet (r keeps only its names),
 * -1 on error.
 */
int	labdir_read_own(const char *dir, struct lab_result *r,
	    struct pl_err *err);
/*
 * Write the caller's result atomically, merged under the caller's lock
 * (DIR/results/.USER@PROFILE.json.lock, a file the caller owns, flock'ed)
 * with what the file holds now: an answer only the file has is kept, and
 * of two records of one answer the one with more attempts wins. So the
 * student screen and `lab submit` in another terminal lose nothing. A
 * student (not the host) with result files under LABDIR_MAX_PER_USER
 * profiles is refused a new one: the host would never read it.
 */
int	labdir_submit(const char *dir, const struct lab_result *,
	    struct pl_err *err);

/*
 * Add one attempt of an item with `tries` counting tries
 * (lab_result_answer) to the caller's result under the lock: read the
 * file, start afresh if it belongs to another session than r->session,
 * move to step, add, write. A run's attempt may carry why the file was
 * refused (refused, else NULL: lab_result_set_refused). r names the
 * user, profile and session, and receives the result written. 0, or -1
 * with err set.
 */
int	labdir_submit_answer(const char *dir, struct lab_result *r, int step,
	    enum lab_item_kind kind, const char *id, int correct, int tries,
	    const char *refused, int64_t now, struct pl_err *err);

/* Bounds of one pass over the drop box, whatever students put in it. */
#define LABDIR_MAX_PER_USER	8	/* result files (profiles) per student */
#define LABDIR_MAX_USERS	4096	/* distinct users named per pass */
#define LABDIR_MAX_PROBLEMS	50	/* problems kept; the rest counted */
#define LABDIR_SCAN_DUTY	150	/* refresh: wait 150x a pass's cost */

/* What one pass over the drop box found. */
struct labdir_scan {
	struct lab_result	*results;	/* sorted by user, profile */
	size_t			 n, cap;
	struct pl_err		*problems;	/* the first entries skipped,
						 * squatted names first */
	size_t			 n_problems;
	size_t			 n_skipped;	/* all entries skipped */
	/* what labdir_scan_refresh compares (private) */
	struct timespec		 box_mtime, box_ctime;
	int64_t			 scanned_ms;	/* monotonic ms of the pass */
	int64_t			 cost_ms;	/* how long it took */
	int			 valid;
};

/*
 * Read every result in DIR/results (the host). Files that are not a valid
 * result of the user they name are skipped and reported: not a result
 * name, no such user, a symlink or not a regular file, made by another
 * user than the one named ("squatted"), bad JSON, more than
 * LABDIR_MAX_PER_USER for one student (the host is not capped). A
 * student's lock or profile list made by another user is reported as
 * squatted too. Free with labdir_scan_free.
 */
int	labdir_scan(const char *dir, struct labdir_scan *,
	    struct pl_err *err);
/*
 * Bring sc (zeroed, or from an earlier call) up to date for a dashboard
 * that polls: 1 when it rescanned, 0 when nothing changed or the last
 * pass was too recent for its cost, -1 with err set.
 */
int	labdir_scan_refresh(const char *dir, struct labdir_scan *sc,
	    struct pl_err *err);
void	labdir_scan_free(struct labdir_scan *);

/*
 * Archive the results and state into DIR/archive-YYYYMMDD-HHMMSS and start
 * a new session at step 0. The archive's name goes into archived.
 */
int	labdir_reset(const char *dir, int64_t now, char *archived,
	    size_t size, struct pl_err *err);

/* A new random session id into buf (at least 17 bytes). */
void	labdir_new_session(char *buf, size_t size);

#endif
