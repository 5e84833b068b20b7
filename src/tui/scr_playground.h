/*
 * scr_playground.h - what the playground's key handling (scr_playground.c)
 * and its drawing (scr_playground_draw.c) share. Not used elsewhere: the
 * screen's public constructor is ui_playground_new() in app.h.
 */
#ifndef PARLEARN_TUI_SCR_PLAYGROUND_H
#define PARLEARN_TUI_SCR_PLAYGROUND_H

#include <curses.h>
#include <time.h>

#include "core/engine/costmodel.h"
#include "core/course/playground.h"
#include "core/course/scenario.h"
#include "tui/app.h"

/* Rows of the ranking shown (the search keeps CM_SEARCH_MAX for ranks). */
#define PGS_SHOWN	10

enum pgs_panel {
	PGS_FIGURES,		/* breakdowns, deltas, reasons */
	PGS_INCIDENT,		/* brief, goal, verdict, hints, solution */
	PGS_SEARCH,		/* the ranked layouts */
	PGS_DIAGNOSIS		/* a scenario's causes to commit to */
};

/* Where typed keys go. */
enum pgs_typing {
	PGS_TYPE_NONE,
	PGS_TYPE_TRADEOFF,	/* a defense's trade-off */
	PGS_TYPE_PREDICTION	/* the predicted figure */
};

struct pgs {
	struct app			*app;
	struct pg_state			 pg;
	int				 sel;		/* selected knob */
	enum pgs_panel			 panel;
	enum pg_base			 base;		/* change column: since
							 * previous or start */
	/* The ranking of the current model and cluster ('s'). */
	struct cm_search		*search;	/* owned */
	int				 search_sel;
	int				 rank;		/* pg_rank of cur */
	int				 rank_tied;	/* bool: a tie */
	/* Scenario mode (sc != NULL). */
	const struct content_scenario	*sc;		/* borrowed */
	const char			*drop_id;	/* borrowed */
	struct scenario			 rules;
	struct cm_result		 start;		/* start's result */
	struct cm_search		*best;		/* search of start, owned */
	char				 load_err[600];	/* scenario unusable */
	int				 failed;	/* failed checks, all visits */
	int				 passed;	/* ever passed */
	char				 passed_layout[512];
	struct sc_grade			 grade;
	int				 graded;	/* grade is for this cfg */
	unsigned			 asserted;	/* claims asserted, bits */
	char				 tradeoff[SC_TRADEOFF_LEN]; /* written
							 * with a defense */
	enum pgs_typing			 typing;	/* where keys go */
	int				 diagnosis;	/* committed option, or -1 */
	int				 diagnosis_right; /* bool */
	char				 predict_text[32]; /* as typed */
	double				 predicted;	/* parsed at the check */
	int				 predictions_off; /* checks with the
							 * prediction off */
	int				 show_solution;
	int				 info_top;	/* scroll of the incident */
	int				 info_lines;	/* its length, last draw */
	int				 info_rows;	/* rows it had, last draw */
	time_t				 opened;	/* start of this attempt */
};

/* Where a panel draws: rows y .. y+h-1, columns x .. x+w-1. */
struct pgs_box {
	int	y, x, h, w;
};

/* Wrapped lines inside a box, skipping the first `skip` (scrolling). */
struct pgs_flow {
	WINDOW		*w;
	struct pgs_box	 b;
	int		 y;		/* next screen row */
	int		 skip;		/* lines still to skip */
	int		 indent;	/* columns */
	int		 attr;
	int		 more;		/* bool: a line did not fit */
	int		 total;		/* lines produced, shown or not */
	const char	*prefix;	/* before the first line only */
	int		 hang;		/* then added to indent */
};

/* Wrap text into f at indent with attr (scr_playground_draw.c). */
void	pgs_flow_text(struct pgs_flow *f, const char *text, int indent,
	    int attr);

/* The same after prefix ("1. ", "- "), continuation lines under text. */
void	pgs_flow_hang(struct pgs_flow *f, const char *prefix,
	    const char *text, int indent, int attr);

/*
 * The incident and ranking panels (scr_playground_panels.c). The incident
 * returns its length in lines, so the caller can bound the scrolling.
 */
int	pgs_draw_incident(const struct pgs *, WINDOW *,
	    const struct pgs_box *);
void	pgs_draw_search(const struct pgs *, WINDOW *,
	    const struct pgs_box *);

/* Draw the whole screen (scr_playground_draw.c). */
void	pgs_draw(struct pgs *, WINDOW *, int rows, int cols);

/* The diagnosis panel (scr_playground_panels.c). */
void	pgs_draw_diagnosis(const struct pgs *, WINDOW *,
	    const struct pgs_box *);

/* Hints unlocked so far: one per failed check. */
int	pgs_hints_open(const struct pgs *);

#endif
