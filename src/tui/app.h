/*
 * app.h - what every screen shares: the course, the store, the learner and
 * the display options. tui_run() (tui.h) builds the one struct app of a
 * run and passes it to the first screens; every screen keeps a pointer.
 */
#ifndef PARLEARN_TUI_APP_H
#define PARLEARN_TUI_APP_H

#include <stdint.h>

#include "core/course/content.h"
#include "core/course/curriculum.h"
#include "core/course/score.h"
#include "core/engine/hardware.h"
#include "core/sim/trace_vs_plan.h"
#include "core/sim/sim_json.h"
#include "store/progress.h"

struct app {
	struct content_course	*course;	/* borrowed */
	struct store		*store;		/* borrowed */
	int64_t			 profile;	/* profile id in the store */
	const char		*profile_name;
	int			 problems;	/* content files skipped */
	enum curriculum_status	*status;	/* per drop, owned */
	struct drop_score	*scores;	/* per drop, owned */
	int			*minutes;	/* per drop, owned: the time a
						   drop takes, estimated from its
						   content (core/course/duration.h) */
	int			 last_drop;	/* index, or -1 */
	const struct hw_catalog	*catalog;	/* borrowed; NULL if not loaded */
	const char		*lab_dir;	/* lab mode: the lab directory */
	int			 projector;	/* bool: projector mode (bold,
						   big figures, fewer lines) */
	/* Called after an answer or a scenario attempt is saved (the
	 * student's lab screen hands it in at once); may be NULL. */
	void			(*answered)(void *);
	void			*answered_arg;
};

/*
 * Reload app->status, app->scores and app->last_drop from the store (0 or
 * -1).
 */
int	app_refresh(struct app *);

/* Report a store failure on the status line; the session goes on. */
void	app_store_error(const struct pl_err *);

/* An answer or a scenario attempt was saved: tell app->answered. */
void	app_answered(struct app *);

/* Screens. Each returns a new screen for ui_push(). */
struct ui_screen	*ui_home_new(struct app *);
struct ui_screen	*ui_reader_new(struct app *, int drop_index);
struct ui_screen	*ui_info_new(const char *title, const char *const *body);
/* Title of the reference screen; ui.c's C key uses it to toggle. */
#define UI_REFERENCE_TITLE	N_("Cheatsheet and key equations")
/* The cheatsheet and key equations (lessons/reference.json), or NULL. */
struct ui_screen	*ui_reference_new(struct app *);
/*
 * The cost-model playground. With sc == NULL, a free playground; with a
 * scenario block (borrowed from the course, which outlives the screen), the
 * incident: start configuration, locked knobs, goal, hints, grading, and
 * results saved for drop_id.
 */
struct ui_screen	*ui_playground_new(struct app *,
			    const struct content_scenario *sc,
			    const char *drop_id);
/*
 * The animation player. With an (borrowed) animation block, plays its
 * configuration; with NULL, starts on pipeline parallelism and Tab moves
 * through the modes.
 */
struct ui_screen	*ui_player_new(struct app *,
			    const struct content_animation *an);
/*
 * The player on a step recorded elsewhere (`parlearn trace --from`, a
 * measured run): takes res's timeline; its settings stay fixed, and x puts
 * the simulator's run of the same config beside it, or, with against
 * (borrowed, may be NULL), the engine's plan of it.
 */
struct ui_screen	*ui_player_replay(struct app *, const struct sim_config *,
			    struct sim_result *res, const struct sim_origin *,
			    const struct trace_vs_plan *against);
/*
 * Labs. The host's dashboard over app->lab_dir (app->course may be NULL,
 * app->store is not used), and the student's lab screen for app->lab_dir.
 * NULL if the lab cannot be read.
 */
struct ui_screen	*ui_lab_host_new(const struct app *);
struct ui_screen	*ui_lab_student_new(struct app *);
/*
 * Flashcard review: the due queue of every deck (deck NULL) or one deck;
 * with cram, every card of it, without changing any schedule. deck is
 * copied.
 */
struct ui_screen	*ui_review_new(struct app *, int cram, const char *deck);
/* Flashcard statistics: forecast, heatmap, retention, counts by state. */
struct ui_screen	*ui_stats_new(struct app *);
/*
 * The end-of-course summary: drops done and mastered, scores, incidents,
 * each drop's status, the weakest drop, time spent (scr_summary.c).
 */
struct ui_screen	*ui_summary_new(struct app *);

#endif
