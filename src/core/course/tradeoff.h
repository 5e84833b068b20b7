/*
 * tradeoff.h - grading a defense's written trade-off on its content.
 *
 * The learner writes, in their own words, what the chosen layout gives up
 * against the runner-up the engine ranks next to it (scenario_runner_up).
 * tradeoff_grade() finds the figures in the text that come with their
 * quantity - memory free (GB or % of the card), exposed communication (s,
 * ms or % of the step), the bubble (% or a fraction), tokens/s (absolute,
 * "84k", or % faster/slower) - by English and German keywords in the
 * same sentence, reading "18.2" and "18,2" alike. A figure is confirmed
 * when it lies within TO_REL_TOL (or a small absolute floor per unit) of
 * the engine's value for the chosen layout, the runner-up, or their
 * difference (for tokens/s also their ratio as % faster/slower). The
 * trade-off passes when it has TO_WORDS different words and a confirmed
 * figure of a quantity on which the chosen layout is worse than the
 * runner-up (what it gives up); when it is worse on none, a confirmed
 * figure of any quantity on which the two differ. Pure: no I/O.
 */
#ifndef PARLEARN_CORE_TRADEOFF_H
#define PARLEARN_CORE_TRADEOFF_H

#include "core/engine/costmodel.h"

#define TO_WORDS	8	/* different words a trade-off needs */
#define TO_REL_TOL	0.10	/* a figure's relative tolerance */
#define TO_MAX_FIGS	32	/* figures read from one text */

enum to_qty {
	TO_FREE,		/* memory free on the GPU */
	TO_COMM,		/* exposed communication */
	TO_BUBBLE,		/* pipeline bubble */
	TO_TOKENS,		/* tokens/s */
	TO_N_QTY
};

enum to_unit {
	TO_U_NONE,		/* a bare number */
	TO_U_GB,
	TO_U_PCT,		/* % or percentage points */
	TO_U_S,
	TO_U_MS,
	TO_U_TOKS		/* tokens/s, or a number with k */
};

/* One figure as read from the text. */
struct to_figure {
	enum to_qty	qty;
	enum to_unit	unit;
	double		value;		/* as written (k applied) */
	double		alt;		/* the other reading of "1,234", or
					 * value when there is none */
	int		at;		/* byte offset in the text */
};

struct to_verdict {
	int		pass;		/* bool */
	int		words;		/* different words */
	int		found;		/* figures with a quantity */
	int		confirmed;	/* bool: one is confirmed */
	struct to_figure fig;		/* the confirmed one, if any */
	enum to_qty	qty;		/* its quantity */
	int		gives_up;	/* bool: the chosen is worse on it */
	double		chosen, runner;	/* the engine's values of qty, in
					 * the figure's unit */
	char		text[400];	/* one line for the check screen */
};

/* The quantity's words: "memory free", "exposed communication" ... */
const char	*tradeoff_qty_label(enum to_qty);

/*
 * Figures with a quantity in text, at most max, in order. Returns how
 * many.
 */
int	tradeoff_find(const char *text, struct to_figure *out, int max);

/*
 * 1 if the chosen layout c is worse than the runner-up u on q (less free,
 * more exposed communication, a larger bubble, fewer tokens/s).
 */
int	tradeoff_worse(const struct cm_result *c, const struct cm_result *u,
	    enum to_qty q);

/* Grade text for chosen against runner (may be NULL: nothing passes). */
void	tradeoff_grade(const char *text, const struct cm_result *chosen,
	    const struct cm_result *runner, struct to_verdict *v);

/*
 * Words in text that say something: different runs of characters other
 * than spaces (case aside), each of two or more bytes with a letter, so
 * "a a a a a a a a" or one word repeated is not a written trade-off.
 */
int	tradeoff_count_words(const char *text);

#endif
