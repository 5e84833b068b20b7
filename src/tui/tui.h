/*
 * tui.h - the one way into the interactive program.
 *
 * The CLI (the tutor with no command, `review`, `lab host`, `lab join`)
 * fills a struct tui_start and calls tui_run() once. tui_run builds the
 * screens' shared struct app from it, starts the terminal, pushes the
 * first screens, runs the key loop and restores the terminal; nothing
 * else outside src/tui starts curses or pushes a screen.
 */
#ifndef PARLEARN_TUI_TUI_H
#define PARLEARN_TUI_TUI_H

#include <stdint.h>

#include "core/course/content.h"
#include "core/engine/hardware.h"
#include "core/sim/sim_json.h"
#include "core/sim/trace_vs_plan.h"
#include "store/progress.h"

enum tui_first {
	TUI_HOME,		/* the home screen; the reader again if the
				   learner quit while reading */
	TUI_REVIEW,		/* flashcard review (cram, deck) */
	TUI_LAB_HOST,		/* the instructor's dashboard over lab_dir */
	TUI_REPLAY,		/* the player on a recorded step (replay) */
	TUI_LAB_STUDENT		/* the student's lab screen over lab_dir,
				   the home screen under it */
};

/* TUI_REPLAY: a step read by sim_result_from_json (`trace --from`). */
struct tui_replay {
	struct sim_config	 cfg;
	struct sim_result	*res;		/* its timeline is taken */
	struct sim_origin	 origin;
	const struct trace_vs_plan *against;	/* --against, or NULL */
};

struct tui_start {
	enum tui_first		 first;
	int			 projector;	/* bool: bold, high contrast,
						   big figures on every screen */
	struct content_course	*course;	/* borrowed; NULL only for
						   TUI_LAB_HOST */
	struct store		*store;		/* borrowed; NULL only for
						   TUI_LAB_HOST */
	int64_t			 profile;	/* profile id in the store */
	const char		*profile_name;	/* borrowed */
	int			 problems;	/* content files skipped */
	const struct hw_catalog	*catalog;	/* borrowed; NULL if not loaded */
	const char		*lab_dir;	/* TUI_LAB_*: the lab directory */
	int			 cram;		/* TUI_REVIEW: bool, cram mode */
	const char		*deck;		/* TUI_REVIEW: one deck, or NULL */
	struct tui_replay	*replay;	/* TUI_REPLAY */
};

/*
 * Run the interactive program until the learner quits. Everything in st is
 * borrowed for the call. Returns the exit code: 0, or 2 (after one line on
 * stderr) if standard input or output is not a terminal, memory runs out,
 * or the lab directory cannot be read.
 */
int	tui_run(const struct tui_start *st);

#endif
