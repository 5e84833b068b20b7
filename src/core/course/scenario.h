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
 */
#ifndef PARLEARN_CORE_SCENARIO_H
#define PARLEARN_CORE_SCENARIO_H

#include <cjson/cJSON.h>

#include "core/engine/costmodel.h"
#include "core/err.h"
#include "core/engine/hardware.h"

#define SC_MAX_CLAIMS	8
#define SC_MAX_CRIT	8
#define SC_TEXT_LEN	200

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

struct scenario {
	unsigned		locked;		/* bit (1u << pg_knob) */
	struct sc_goal_item	goal[SC_MAX_CRIT];
	int			n_goal;
	struct sc_claim		claims[SC_MAX_CLAIMS];
	int			n_claims;
};

/* One criterion or claim as graded. */
struct sc_verdict {
	int	pass;			/* bool: criterion holds / claim right */
	int	holds;			/* claims: the statement is true */
	int	asserted;		/* claims: the learner asserted it */
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
	int			listed;		/* layouts in the ranking */
	double			share_best;	/* tokens/s / best's, 0 if none */
	double			share_start;	/* tokens/s / start's */
};

/*
 * Read locked, goal and claims of a scenario block. file and path locate
 * errors ("FILE: blocks[7].goal.max_bubble: ..."). Unknown knob names,
 * goal keys and claim checks are errors. Returns 0, or -1 with err set
 * (sc is then empty). Free with scenario_free.
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
 * and there are no claims); asserted has bit i set when the learner
 * asserts claim i. A claim is right when asserted equals the truth; the
 * grade passes when every goal criterion holds and every claim is right.
 * An invalid layout fails with one criterion that gives why, once.
 */
void	scenario_grade(const struct scenario *sc, const struct cm_result *r,
	    const char *why, const struct cm_result *start,
	    const struct cm_search *best, unsigned asserted,
	    struct sc_grade *g);

/* The criterion in words, before any check ("bubble at most 15.0%"). */
void	scenario_goal_text(const struct sc_goal_item *it, char *buf,
	    size_t size);

/* Word of a claim check, "headroom_ge_10pct". */
const char	*scenario_check_name(enum sc_claim_check);

#endif
