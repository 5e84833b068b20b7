/*
 * common.h - what several subcommands need: the course and the learner's
 * progress, opened with errors reported the same way everywhere.
 */
#ifndef PARLEARN_CLI_COMMON_H
#define PARLEARN_CLI_COMMON_H

#include <stdint.h>

#include "cli/cli.h"
#include "core/course/content.h"
#include "core/course/curriculum.h"
#include "core/course/score.h"
#include "core/engine/hardware.h"
#include "store/progress.h"
#include "tui/tui.h"

struct cli_session {
	struct content_course	*course;
	struct store		*store;
	int64_t			 profile;
	enum curriculum_status	*status;	/* per drop */
	struct drop_score	*scores;	/* per drop */
	int			 last_drop;	/* index or -1 */
	int			 problems;	/* content files skipped */
	struct hw_catalog	 catalog;	/* GPUs and model presets */
	int			 have_catalog;	/* catalog loaded */
};

/*
 * Load the course (printing each skipped file's problem to stderr as
 * "parlearn: warning: ..." when warn is set) and open the store. Returns 0,
 * or the exit code (2) after printing a one-line error.
 */
int	cli_session_open(const struct cli_ctx *, struct cli_session *,
	    int warn);
/*
 * The same for a command that only reads: the store is opened with
 * store_open_read, so a database (or its directory) that cannot be
 * written is read as it is, and no profile is created.
 */
int	cli_session_read(const struct cli_ctx *, struct cli_session *,
	    int warn);
/*
 * The course and the catalog only, as cli_session_open loads them: no
 * store (s->store NULL), so nothing is read from or written to the
 * progress database. 0 or 2.
 */
int	cli_course_open(const struct cli_ctx *, struct cli_session *,
	    int warn);
void	cli_session_close(struct cli_session *);

/*
 * Whether deck is a course deck or one of the learner's own with a card:
 * 1 or 0; -1 with err set when the store fails.
 */
int	cli_deck_known(const struct cli_session *, const char *deck,
	    struct pl_err *err);

/*
 * Fill st for tui_run(): first screen first, ctx's profile name and
 * projector mode, and s's course, store, learner and catalog (borrowed;
 * s may be NULL, as for the lab dashboard). Other fields are zero.
 */
void	cli_tui_start(struct tui_start *st, const struct cli_ctx *ctx,
	    const struct cli_session *s, enum tui_first first);

/* Print "parlearn: FILE:LINE:COL: message" to stderr. */
void	cli_print_err(const struct pl_err *);

#endif
