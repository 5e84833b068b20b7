/*
 * lab.h - instructor-led labs: the lab script, the lab's state, each
 * student's results and the class table built from them.
 *
 * A lab script (schema: labs/README.md) is a titled list of steps, each a
 * drop, a scenario (with an optional override of the cluster), a set of
 * questions from a drop, or a break, with minutes and talking points. The
 * host writes a lab state (the current step); each student writes a result
 * (the step being viewed and the answers given). This module parses,
 * validates and serialises all three and builds the class table; it does
 * no I/O beyond the text it is given (file handling: store/labdir.h).
 * Every string returned in a struct is owned by that struct.
 */
#ifndef PARLEARN_CORE_LAB_H
#define PARLEARN_CORE_LAB_H

#include <stddef.h>
#include <stdint.h>

#include "core/course/content.h"
#include "core/course/score.h"
#include "core/err.h"
#include "core/sim/sim_json.h"

enum lab_step_kind {
	LAB_STEP_DROP,
	LAB_STEP_SCENARIO,
	LAB_STEP_QUESTIONS,
	LAB_STEP_BREAK,
	LAB_STEP_RUN,		/* launch `parlearn run`, submit its timeline */
	LAB_STEP_EMIT		/* `plan --emit` a layout, submit the config */
};

/* What an emit step has each student write (lab_emit.c). */
struct lab_emit {
	char	*model;		/* model preset */
	char	*gpu;		/* GPU catalog name; NULL: h100-80gb */
	int	 gpus, dp, tp, pp, cp, ep, zero, micro_batch;
	long	 global_batch;
	unsigned targets;	/* 1 << enum emit_kind allowed; 0: all */
};

/* What a run step has each student launch (`parlearn run`). */
struct lab_run {
	char	*mode;		/* dp, tp, pp, fsdp or 3d */
	int	 np;		/* processes; 0: the mode's default */
	int	 microbatches;	/* 0: the mode's default */
	char	*schedule;	/* gpipe, 1f1b, interleaved; NULL: default */
};

/* The room's own cluster, replacing fields of a scenario's start. */
struct lab_override {
	char	*gpu;		/* GPU catalog name, or NULL to keep */
	int	 gpus;		/* total GPUs, 0 = keep */
	int	 gpus_per_node;	/* 0 = keep */
	double	 intra_bw;	/* intra-node GB/s, 0 = keep */
	double	 inter_bw;	/* inter-node GB/s, 0 = keep */
};

struct lab_step {
	enum lab_step_kind	 kind;
	char			*title;		/* never NULL (derived if absent) */
	int			 has_title;	/* the script gave the title */
	int			 minutes;	/* planned time, 1..240 */
	char			*drop;		/* drop id; NULL for a break */
	char			*scenario;	/* scenario id (scenario steps) */
	int			 has_override;
	struct lab_override	 override;
	char			**questions;	/* question ids; may be empty */
	size_t			 n_questions;
	char			**points;	/* talking points */
	size_t			 n_points;
	struct lab_run		 run;		/* run steps */
	struct lab_emit		 emit;		/* emit steps */
};

struct lab_script {
	char		*title;
	char		*file;		/* path it was read from, or "" */
	struct lab_step	*steps;
	size_t		 n_steps;
	int		 minutes;	/* sum of the steps' minutes */
};

/* The lab as the host runs it (DIR/state.json). */
struct lab_state {
	int	step;			/* current step, 0-based */
	int	n_steps;		/* steps in the script */
	int64_t	started;		/* Unix s the lab started */
	int64_t	step_started;		/* Unix s the current step started */
	char	session[40];		/* changes at each reset */
};

enum lab_item_kind {
	LAB_ITEM_QUESTION,
	LAB_ITEM_SCENARIO,
	LAB_ITEM_RUN		/* id LAB_RUN_ID; correct: the run's answers
				   matched one device's */
};

#define LAB_RUN_ID	"run"	/* the one item of a run step */
#define LAB_RUN_TOLERANCE	1e-9	/* a run's largest difference from
					   one device that counts as right */

#define LAB_ID_MAX	64		/* question/scenario id bytes, with NUL */
#define LAB_MAX_ANSWERS	1024		/* answers one result may hold */
#define LAB_TRADEOFF_MAX	600		/* bytes of a trade-off, with NUL */
#define LAB_REFUSED_MAX		400		/* bytes of a refusal's reason,
						   with NUL */

/*
 * One student's record of one item, as the grading (core/course/score.h)
 * reads their answers. A result written before the grading fields existed
 * parses with them 0.
 */
struct lab_answer {
	int			step;		/* 0-based step */
	enum lab_item_kind	kind;
	char			id[LAB_ID_MAX];
	int			attempts;	/* >= 1: counted answers (a
						 * format slip is none) */
	int			first_correct;	/* first attempt was right */
	int			correct;	/* latest attempt is right (a
						 * scenario: some check passed) */
	int			earned;		/* right within the counting
						 * tries (score.h) */
	int			after_feedback;	/* earned on the second counting
						 * try, after feedback that named
						 * only the kind of mistake */
	int			all_ticked;	/* guess: a choice answer ticked
						 * every option, some wrongly */
	int			followed;	/* guess: right straight after an
						 * old-rule diagnostic that
						 * showed the size of the miss */
	char			*tradeoff;	/* a defense's written trade-off
						 * (latest), or NULL; owned */
	char			*refused;	/* a run: why the last file
						 * refused was (lab_run_verify),
						 * or NULL; owned */
};

/* One student's results (DIR/results/USER@PROFILE.json). */
struct lab_result {
	char			 user[33];	/* Unix login name */
	char			 profile[65];	/* parlearn profile */
	char			 session[40];	/* lab session it belongs to */
	int			 step;		/* step the student views */
	int64_t			 step_since;	/* Unix s they reached it */
	int64_t			 updated;	/* Unix s of the last write */
	struct lab_answer	*answers;	/* sorted by step, kind, id */
	size_t			 n_answers;
};

/*
 * Parse a lab script. Syntax errors are FILE:LINE:COL, field errors
 * FILE: steps[2].drop: message. Returns NULL with err set; free with
 * lab_script_free().
 */
struct lab_script	*lab_script_parse(const char *text, const char *file,
			    struct pl_err *err);
struct lab_script	*lab_script_load(const char *path, struct pl_err *err);
void			 lab_script_free(struct lab_script *);

/*
 * Check a script against a course: every drop, scenario and question it
 * names must exist. Each problem is added to probs; returns the count.
 */
size_t	lab_script_check_course(const struct lab_script *,
	    const struct content_course *, struct content_problems *probs);

/*
 * The title to show for a step: the script's, else "Drop 3: <its title>"
 * when course has the drop, else the derived one. Writes into buf.
 */
const char	*lab_step_title(const struct lab_step *,
		    const struct content_course *, char *buf, size_t size);

/* Translated name of a step kind ("drop", "scenario", ...). */
const char	*lab_step_kind_name(enum lab_step_kind);

/*
 * The command a run step has students launch, such as "parlearn run
 * --mode 3d --np 8 -o run.json", into buf. Returns buf.
 */
const char	*lab_run_command(const struct lab_step *, char *buf,
		    size_t size);

/*
 * A student's measured run (read with sim_result_from_json from file)
 * for run step s: -1 with err if it is not a measured run of the step's
 * mode (and process count, if the step gives one); else 0, *correct 1 if
 * its loss, gradients and parameters are within LAB_RUN_TOLERANCE of one
 * device's.
 */
int	lab_run_check(const struct lab_step *s, const struct sim_config *,
	    const struct sim_result *, const struct sim_origin *,
	    const char *file, int *correct, struct pl_err *err);

/* An emit step's "emit" object into s (only an emit step has one). */
int	lab_emit_parse(const cJSON *st, struct lab_step *s, const char *file,
	    const char *parent, struct pl_err *err);
void	lab_emit_free(struct lab_emit *);

/*
 * The layout an emit step asks for, in words ("DP 4, TP 2, ..."; the
 * model and GPUs are the step's fields), and the targets it takes
 * ("megatron, torchtitan"):
 * what the student screen shows. Not the command: saying the layout with
 * plan's options is the student's part.
 */
const char	*lab_emit_layout(const struct lab_step *, char *buf,
		    size_t size);
const char	*lab_emit_targets(const struct lab_step *, char *buf,
		    size_t size);

/*
 * A student's emitted config (text, len bytes, read from file) for emit
 * step s, the models and GPUs from cat: 1 when it states the step's
 * layout in an allowed target, 0 when it states another (err says the
 * line and key), -1 when it is unreadable (err says why).
 */
struct hw_catalog;
int	lab_emit_check(const struct lab_step *s, const struct hw_catalog *cat,
	    const char *text, size_t len, const char *file,
	    struct pl_err *err);

/*
 * What a file-based grade can check of a measured run (lab_verify.c; what
 * it cannot: labs/README.md). root is the document sim_result_from_json
 * read as cfg, res and o. 0 when it is a parlearn.run/1 document whose
 * layout is cfg's, whose events are those of the simulator's run of cfg
 * with times of their own, whose summary is its events', and whose loss
 * and differences are the simulator's numbers for cfg: bit for bit with
 * ordered reductions, within LAB_RUN_TOLERANCE with the MPI library's.
 * Else -1 with err holding a one-line reason and the JSON path.
 */
int	lab_run_verify(const cJSON *root, const struct sim_config *,
	    const struct sim_result *, const struct sim_origin *,
	    const char *file, struct pl_err *err);

/*
 * Items a step asks about: its question ids (all the drop's questions
 * when a drop step lists none; course may be NULL), then its scenario.
 * Fills ids[] (borrowed) and kinds[] up to max; returns the count.
 */
size_t	lab_step_items(const struct lab_step *, const struct content_course *,
	    const char **ids, enum lab_item_kind *kinds, size_t max);

/* State as JSON (caller frees), and back. 0 or -1 with err set. */
char	*lab_state_to_json(const struct lab_state *);
int	 lab_state_parse(const char *text, const char *file,
	    struct lab_state *, struct pl_err *err);

/*
 * A result as JSON, deterministic (caller frees), and back. Parsing
 * checks every field and its range; on failure the result is emptied.
 */
char	*lab_result_to_json(const struct lab_result *);
int	 lab_result_parse(const char *text, const char *file,
	    struct lab_result *, struct pl_err *err);
void	 lab_result_free(struct lab_result *);

/*
 * Record one more attempt (lab_result_add), set a record's counts
 * (lab_result_set: the grading fields become 0), set a record as the
 * grading read it from the progress store (lab_result_set_score: id,
 * attempts and flags from rec; correct is the latest answer of a question,
 * any pass of a scenario), or copy a whole record, trade-off included
 * (lab_result_put; x must not be one of r's own records). Keeps answers
 * sorted. 0, or -1 when the id is invalid, attempts below 1, or the
 * result full (or out of memory).
 */
int	lab_result_add(struct lab_result *, int step, enum lab_item_kind,
	    const char *id, int correct);
int	lab_result_set(struct lab_result *, int step, enum lab_item_kind,
	    const char *id, int attempts, int first_correct, int correct);
int	lab_result_set_score(struct lab_result *, int step, enum lab_item_kind,
	    const struct score_record *rec);
int	lab_result_put(struct lab_result *r, const struct lab_answer *x);
/*
 * One more attempt of an item with `tries` counting tries (quiz.h:
 * quiz_counting_tries; 1 for a scenario or a run handed in from a shell,
 * 0 for a self-graded question): a right answer earns when no earlier one
 * did and it is within the tries, after feedback when it is not the first.
 * lab_result_add is this with one try.
 */
int	lab_result_answer(struct lab_result *, int step, enum lab_item_kind,
	    const char *id, int correct, int tries);
/*
 * Attach the trade-off written with a defense (drop 14) to the scenario
 * record (step, id), which must exist: a copy with control characters
 * removed, replacing any earlier one. 0, or -1 when there is no such
 * record, text is longer than LAB_TRADEOFF_MAX or not UTF-8, or memory
 * ran out.
 */
int	lab_result_set_tradeoff(struct lab_result *, int step, const char *id,
	    const char *text);
/*
 * Note on the run record (step, LAB_RUN_ID), which must exist, why the
 * file handed in for it was refused: a copy of reason with control
 * characters removed, cut to LAB_REFUSED_MAX - 1 bytes on a character
 * boundary, replacing any earlier one. 0, or -1 when there is no such
 * record, reason is not UTF-8, or memory ran out.
 */
int	lab_result_set_refused(struct lab_result *, int step,
	    const char *reason);
/* The record for (step, kind, id), or NULL. Borrowed. */
const struct lab_answer	*lab_result_find(const struct lab_result *, int step,
			    enum lab_item_kind, const char *id);

/* 1 if s is a valid question/scenario id: 1..63 of [A-Za-z0-9_.-]. */
int	lab_id_valid(const char *s);

/* Per question or scenario, over the whole class. */
struct lab_item_stat {
	int			step;
	enum lab_item_kind	kind;
	char			id[LAB_ID_MAX];
	int			right;		/* students whose latest is right */
	int			wrong;		/* students whose latest is wrong */
	int			missed;		/* students whose first was wrong */
	int			self_graded;	/* bool: a reveal question (course
						 * known): earns nothing */
	int			answered;	/* students with an answer */
	int			first_right;	/* students right on the first try */
	int			after_feedback;	/* students right after feedback */
	int			earned;		/* students who earned it */
	int			not_earned;	/* answered, not earned (0 when
						 * self-graded) */
	int			attempts;	/* counted answers, all students */
	int			all_ticked;	/* students who ticked every option */
	int			followed;	/* students who followed an old
						 * diagnostic's numbers */
	int			guessing;	/* students with either flag */
};

/* Attempts per student who answered (0 when none did). */
double	lab_item_mean_attempts(const struct lab_item_stat *);

struct lab_class {
	size_t			 n_students;
	size_t			 n_steps;
	int			*on_step;	/* students viewing each step */
	struct lab_item_stat	*items;		/* sorted by step, kind, id */
	size_t			 n_items;
	int			 most_missed;	/* index in items, or -1 */
};

/*
 * Build the class table from n results (results of another session are
 * ignored). course may be NULL. 0, or -1 when out of memory.
 */
int	lab_class_build(const struct lab_script *,
	    const struct content_course *, const struct lab_result *, size_t n,
	    const char *session, struct lab_class *);
void	lab_class_free(struct lab_class *);

/* Counts over one student's answers on one step. */
void	lab_student_step(const struct lab_result *, int step, int *right,
	    int *wrong, int *scenarios_solved);

/*
 * The class report (one row per student per step, then one per question),
 * as CSV or JSON; deterministic for the same input. Caller frees; NULL when
 * out of memory. Results are taken in the order given (sort them first).
 */
char	*lab_report_csv(const struct lab_script *,
	    const struct content_course *, const struct lab_result *, size_t n,
	    const char *session);
char	*lab_report_json(const struct lab_script *,
	    const struct content_course *, const struct lab_result *, size_t n,
	    const char *session);

/*
 * Following the instructor. When the lab's state changes from was to now
 * (read from DIR/state.json; a script of n_steps steps), the step a
 * student's screen shows (*view) follows it when the student was on the
 * lab's step, or is ahead of the new one (the lab went back); a student
 * looking back at an earlier step stays there. A new session starts on
 * its step. A state for another script, or out of range, changes nothing.
 */
enum lab_follow {
	LAB_FOLLOW_NONE,	/* nothing for the student to do */
	LAB_FOLLOW_KEEP,	/* the lab moved; *view kept (looking back) */
	LAB_FOLLOW_STEP,	/* the lab moved and *view with it: say so */
	LAB_FOLLOW_RESET	/* a new session: results start afresh */
};
enum lab_follow	lab_follow(const struct lab_state *was,
		    const struct lab_state *now, size_t n_steps, int *view);

/* A student's own move by delta: back to step 0, never past the lab's. */
int	lab_view_move(const struct lab_state *, int view, int delta);

/* A scenario step's scenario, with the room's cluster in its start. */
struct lab_scenario {
	struct content_scenario	 sc;		/* the block, start overridden */
	int			 owned;		/* sc.raw is a copy we free */
};

/*
 * The scenario step ls opens: its scenario block in drop d, or, when the
 * step has an override, a copy in *out whose "start" has the override's
 * fields set (replaced or added). Returns the block or &out->sc, NULL when
 * d has no such scenario or memory ran out. Free *out with
 * lab_scenario_free() (harmless when nothing was copied).
 */
const struct content_scenario	*lab_step_scenario(const struct lab_step *ls,
				    const struct content_drop *d,
				    struct lab_scenario *out);
void	lab_scenario_free(struct lab_scenario *);

/* Sort results by user, then profile. */
void	lab_results_sort(struct lab_result *, size_t n);

#endif
