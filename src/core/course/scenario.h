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
 * What an incident must hold so that no loophole passes it (issue 14):
 * the model and the cluster its brief describes are locked (model, gpu,
 * gpus, gpus_per_node), and its goal has a throughput floor against the
 * starting layout (min_tokens_share_of_start), so a layout slower than
 * the one the incident opens on cannot pass. A defense (a scenario with
 * claims) passes only when every claim holds and is asserted, and the
 * learner has written the trade-off it makes (SC_TRADEOFF_WORDS words).
 */
#ifndef PARLEARN_CORE_SCENARIO_H
#define PARLEARN_CORE_SCENARIO_H

#include <cjson/cJSON.h>

#include "core/engine/costmodel.h"
#include "core/err.h"
#include "core/engine/hardware.h"
#include "core/course/playground.h"

#define SC_MAX_CLAIMS	8
#define SC_MAX_CRIT	8
#define SC_TEXT_LEN	200
#define SC_TRADEOFF_WORDS	8	/* words a written trade-off needs */
#define SC_TRADEOFF_LEN		600	/* bytes it may have, with NUL */

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

/* Knobs every incident locks: its model and its cluster. */
#define SC_LOCKED_ALWAYS	((1u << PG_MODEL) | (1u << PG_GPU) | \
				 (1u << PG_GPUS) | (1u << PG_GPN))

/* One criterion or claim as graded. */
struct sc_verdict {
	int	pass;			/* bool: criterion holds / claim holds
					 * and is asserted */
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
	int			listed;		/* fastest layouts the search keeps */
	long			ranked;		/* layouts the search ranked */
	double			share_best;	/* tokens/s / best's, 0 if none */
	double			share_start;	/* tokens/s / start's */
	int			tradeoff_words;	/* words of the trade-off */
	int			tradeoff_ok;	/* bool: none needed, or written */
};

/*
 * Read locked, goal and claims of a scenario block. file and path locate
 * errors ("FILE: blocks[7].goal.max_bubble: ..."). Unknown knob names,
 * goal keys and claim checks are errors, and so are a locked list
 * without SC_LOCKED_ALWAYS and a goal without min_tokens_share_of_start.
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
 * and there are no claims); asserted has bit i set when the learner
 * asserts claim i; tradeoff is the learner's written trade-off (may be
 * NULL). Every claim is graded whether asserted or not: it passes when it
 * holds and is asserted, so a defense that leaves out the claim its
 * layout fails, fails. With claims, the trade-off must have
 * SC_TRADEOFF_WORDS words. The grade passes when every goal criterion
 * holds, every claim passes and the trade-off is written. An invalid
 * layout fails with one criterion that gives why, once.
 */
void	scenario_grade(const struct scenario *sc, const struct cm_result *r,
	    const char *why, const struct cm_result *start,
	    const struct cm_search *best, unsigned asserted,
	    const char *tradeoff, struct sc_grade *g);

/*
 * Words in text that say something: different runs of characters other
 * than spaces (case aside), each of two or more bytes with a letter, so
 * "a a a a a a a a" or one word repeated is not a written trade-off.
 */
int	scenario_count_words(const char *text);

/* The criterion in words, before any check ("bubble at most 15.0%"). */
void	scenario_goal_text(const struct sc_goal_item *it, char *buf,
	    size_t size);

/* Word of a claim check, "headroom_ge_10pct". */
const char	*scenario_check_name(enum sc_claim_check);

#endif
