/*
 * scenario.h - an incident scenario's rules, and grading a layout by them.
 *
 * A scenario block (lessons/README.md, "scenario") gives a start
 * configuration, the knobs the learner may not turn, the goal (criteria
 * that must all hold) and, in drop 14, claims the learner asserts about
 * the chosen layout. scenario_parse() reads locked/goal/claims from the
 * block's JSON with located errors; scenario_start() builds the start
 * configuration with the catalog; scenario_grade() checks a result
 * against the goal and the claims using only the cost model's numbers, so
 * every learner gets the same verdict for the same layout.
 *
 * What an incident must hold so that no loophole passes it (issues 14
 * and 22): the model and the cluster its brief describes are locked
 * (model, gpu, gpus, gpus_per_node), and its goal has a throughput floor
 * against the starting layout (min_tokens_share_of_start), so a layout
 * slower than the one the incident opens on cannot pass. Every incident
 * has a diagnosis (one right cause among 3-5, each with its evidence) and
 * a prediction (a cost-model quantity the learner works out for the
 * layout they check, within a relative tolerance): a check passes only
 * with the right diagnosis committed and the prediction within tolerance
 * of the engine's figure for the checked layout. A defense (a scenario
 * with claims) passes only when no asserted claim is false, at least one
 * asserted claim holds on the chosen layout and fails on the runner-up
 * (scenario_runner_up), and the written trade-off names a figure the
 * engine confirms (core/course/tradeoff.h).
 */
#ifndef PARLEARN_CORE_SCENARIO_H
#define PARLEARN_CORE_SCENARIO_H

#include <cjson/cJSON.h>

#include "core/engine/costmodel.h"
#include "core/err.h"
#include "core/engine/hardware.h"
#include "core/course/playground.h"
#include "core/course/tradeoff.h"

#define SC_MAX_CLAIMS	8
#define SC_MAX_CRIT	8
#define SC_TEXT_LEN	200
#define SC_TRADEOFF_LEN		600	/* bytes it may have, with NUL */

/*
 * The rule for a trade-off's text, wherever it comes from (typed in the
 * playground, stored, exported, imported): 1 to SC_TRADEOFF_LEN - 1 bytes
 * of valid UTF-8 with no control character and no bidi override.
 */
int	sc_tradeoff_ok(const char *text);
#define SC_MIN_OPTIONS	3	/* diagnosis options, at least */
#define SC_MAX_OPTIONS	5	/* and at most */
#define SC_QTY_LEN	32	/* a cost-model quantity's name */

enum sc_crit_kind {
	SC_FITS,		/* bool */
	SC_MAX_BUBBLE,		/* fraction */
	SC_MIN_SHARE_START,	/* tokens/s share of the start's */
	SC_MIN_SHARE_BEST,	/* tokens/s share of the search's best */
	SC_MAX_STEP,		/* seconds */
	SC_TP_NODE,		/* bool */
	SC_N_CRIT
};

enum sc_claim_check {
	SC_CLAIM_FITS,		/* fits */
	SC_CLAIM_HEADROOM,	/* >= 10 % of GPU capacity free */
	SC_CLAIM_TP_NODE,	/* TP group inside one node */
	SC_CLAIM_BUBBLE,	/* bubble fraction <= 0.10 */
	SC_CLAIM_COMM,		/* exposed comm <= 15 % of the step */
	SC_CLAIM_MORE_FREE,	/* more memory free than the runner-up */
	SC_CLAIM_LESS_COMM,	/* less exposed comm than the runner-up */
	SC_CLAIM_LESS_BUBBLE,	/* smaller bubble than the runner-up */
	SC_N_CLAIM_CHECKS
};

struct sc_goal_item {
	enum sc_crit_kind	kind;
	double			target;	/* fraction, seconds, or 1 for bool */
};

struct sc_claim {
	char			id[64];
	char			*text;	/* sanitised, owned */
	enum sc_claim_check	check;
};

/* One cause the learner may commit to, with why it is right or wrong. */
struct sc_option {
	char	*text;		/* sanitised, owned */
	char	*explain;	/* sanitised, owned */
	int	 correct;	/* bool */
};

struct sc_diagnosis {
	char			*prompt;	/* sanitised, owned */
	struct sc_option	 options[SC_MAX_OPTIONS];
	int			 n_options;
	int			 right;		/* index of the correct one */
};

/* A figure the learner predicts for the layout they check. */
struct sc_prediction {
	char	*prompt;		/* sanitised, owned */
	char	 quantity[SC_QTY_LEN];	/* cm_quantity name */
	char	 unit[16];		/* shown after the input */
	double	 tolerance;		/* relative, (0, 1] */
	int	 fraction;		/* bool: "27%" means 0.27 */
};

struct scenario {
	unsigned		locked;		/* bit (1u << pg_knob) */
	struct sc_goal_item	goal[SC_MAX_CRIT];
	int			n_goal;
	struct sc_claim		claims[SC_MAX_CLAIMS];
	int			n_claims;
	struct sc_diagnosis	diagnosis;
	struct sc_prediction	prediction;
};

/* What the learner brings to one check. */
struct sc_attempt {
	unsigned	 asserted;	/* bit i: claim i asserted */
	const char	*tradeoff;	/* written trade-off, may be NULL */
	int		 diagnosis;	/* committed option, -1 for none */
	int		 predicted;	/* bool: a prediction was typed */
	double		 prediction;	/* in the quantity's unit */
	int		 reveal;	/* bool: show the engine's figure
					 * even when the prediction is off */
};

/* Knobs every incident locks: its model and its cluster. */
#define SC_LOCKED_ALWAYS	((1u << PG_MODEL) | (1u << PG_GPU) | \
				 (1u << PG_GPUS) | (1u << PG_GPN))

/* One criterion or claim as graded. */
struct sc_verdict {
	int	pass;			/* bool: criterion holds / claim is not
					 * asserted falsely */
	int	holds;			/* claims: the statement is true */
	int	asserted;		/* claims: the learner asserted it */
	int	holds_runner;		/* claims: true of the runner-up too */
	double	measured;		/* the engine's number (unit by kind) */
	char	text[SC_TEXT_LEN];	/* one line: criterion, measured, target */
};

struct sc_grade {
	int			pass;		/* bool: everything holds */
	int			valid;		/* bool: the layout evaluated */
	struct sc_verdict	crit[SC_MAX_CRIT];
	int			n_crit;
	struct sc_verdict	claims[SC_MAX_CLAIMS];
	int			n_claims;
	int			rank;		/* pg_rank, see playground.h */
	int			listed;		/* fastest layouts the search keeps */
	long			ranked;		/* layouts the search ranked */
	double			share_best;	/* tokens/s / best's, 0 if none */
	double			share_start;	/* tokens/s / start's */
	int			goal_ok;	/* bool: every criterion holds */
	int			diagnosis_ok;	/* bool: the right cause */
	struct sc_verdict	prediction;	/* pass: within tolerance */
	/* A defense only (claims): */
	int			claims_ok;	/* bool: none false, one
						 * distinguishes */
	int			distinguishing;	/* claim that does, or -1 */
	int			runner;		/* runner-up's index in best->top,
						 * or -1 */
	struct cm_result	runner_up;	/* valid if runner >= 0 */
	struct to_verdict	tradeoff;
	int			tradeoff_ok;	/* bool: none needed, or passes */
};

/*
 * Read locked, goal, claims, diagnosis and prediction of a scenario
 * block. file and path locate errors ("FILE: blocks[7].goal.max_bubble:
 * ...", "FILE: blocks[7].diagnosis.options[2].correct: ..."). Unknown
 * knob names, goal keys, claim checks and quantities are errors, and so
 * are a locked list without SC_LOCKED_ALWAYS, a goal without
 * min_tokens_share_of_start, a missing diagnosis or prediction, a
 * diagnosis without 3-5 options or without exactly one correct one.
 * Returns 0, or -1 with err set (sc is then empty). Free with
 * scenario_free.
 */
int	scenario_parse(struct scenario *sc, const cJSON *block,
	    const char *file, const char *path, struct pl_err *err);
void	scenario_free(struct scenario *sc);

/* Build the start configuration of block into cfg. 0, or -1 with err. */
int	scenario_start(const cJSON *block, const struct hw_catalog *cat,
	    struct cm_config *cfg, const char *file, const char *path,
	    struct pl_err *err);

/*
 * Grade r (NULL when the layout did not evaluate; why then says why)
 * against sc. start is the start's result; best the search over the
 * start's model and cluster (may be NULL when the goal does not need it
 * and there are no claims); a is what the learner committed: the
 * diagnosis, the prediction, and for a defense the asserted claims and
 * the trade-off. The prediction is compared with the engine's figure for
 * r; its line shows that figure only when it is within tolerance or
 * a->reveal is set. With claims: every claim is measured on r and on the
 * runner-up; a claim asserted but false fails the defense, a claim not
 * asserted is neither for nor against it, and at least one asserted
 * claim must hold on r and fail on the runner-up; the trade-off is
 * graded by tradeoff_grade() against the runner-up. The grade passes
 * when every goal criterion holds, the diagnosis is right, the
 * prediction within tolerance and, with claims, the claims and the
 * trade-off pass. An invalid layout fails with one criterion that gives
 * why, once.
 */
void	scenario_grade(const struct scenario *sc, const struct cm_result *r,
	    const char *why, const struct cm_result *start,
	    const struct cm_search *best, const struct sc_attempt *a,
	    struct sc_grade *g);

/*
 * The layout a defense of r is held against, as an index into s->top:
 * the row ranked right after r when r is the top row, else the row just
 * above it; the top row when r is not in the list. -1 when the list has
 * no such row.
 */
int	scenario_runner_up(const struct cm_search *s, const struct cm_result *r);

/*
 * Parse a typed prediction for sc (the locale's decimal comma, "3/31",
 * "9.7%" as a fraction when the quantity is one). 0, or -1 if text is not
 * a number.
 */
int	scenario_parse_prediction(const struct scenario *sc, const char *text,
	    double *out);

/* 1 if v is within the prediction's tolerance of the engine's want. */
int	scenario_prediction_within(const struct scenario *sc, double v,
	    double want);

/* The criterion in words, before any check ("bubble at most 15.0%"). */
void	scenario_goal_text(const struct sc_goal_item *it, char *buf,
	    size_t size);

/* Word of a claim check, "headroom_ge_10pct". */
const char	*scenario_check_name(enum sc_claim_check);

#endif
