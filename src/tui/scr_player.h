/*
 * scr_player.h - the animation player screen's parts, shared by its files:
 *   scr_player.c        the screen: keys, the clock tick, loading runs
 *   scr_player_plan.c   which parts fit in how many rows
 *   scr_player_draw.c   title, settings, caption, device boxes,
 *                       transfers, links, figures
 *   scr_player_gantt.c  the Gantt chart, the transfer lane, the legend
 *   scr_player_compare.c  two runs on one time axis: side by side on a
 *                       wide terminal, one above the other otherwise
 * Every figure comes from core/sim/player.h; these files lay it out.
 */
#ifndef PARLEARN_TUI_SCR_PLAYER_H
#define PARLEARN_TUI_SCR_PLAYER_H

#include <time.h>

#include "core/course/content.h"
#include "core/sim/player.h"
#include "tui/app.h"
#include "tui/draw.h"

#define PSCR_MAX_FLOWS	32	/* transfers listed at once, at most */
#define PSCR_LABEL_W	4	/* "G0  " before a Gantt row */
#define PSCR_SIDE_COLS	160	/* columns from which a comparison
				   shows its runs side by side */

struct pscr {
	struct app			*app;
	const struct content_animation	*an;	/* borrowed, may be NULL */
	struct sim_config		 block;	/* the block's config */
	struct sim_config		 cfg;	/* what the learner set */
	struct player			 pl;
	int				 ok;	/* pl is initialised */
	struct player			 cmp;	/* the run compared with */
	int				 cmp_ok;	/* comparing: cmp is set */
	char				 err[600];
	const char			*note;	/* one-off message, or NULL */
	struct timespec			 last;	/* wall time of last tick */
	struct player_cell		*cells;	/* cached Gantt rows */
	int				 cells_w;	/* their width, 0 none */
	int				 max_flows;	/* most at once in the run */
	char				 measured[400];	/* caption of a measured
							   run, "" otherwise */
	const struct trace_vs_plan	*against;	/* --against, or NULL */
	int				 show_against;	/* x shows it */
};

/* Where each part goes; a count of 0 leaves the part out. */
struct pscr_plan {
	int	 set_y, set_n;		/* settings line */
	int	 cap_y, cap_n;		/* caption lines */
	int	 box_y, holds_n;	/* boxes: holds_n + 4 + detail_n rows */
	int	 detail_n;		/* memory by kind: 0 or SIM_NMEM */
	int	 flow_y, flow_n;
	int	 link_y, link_n;
	int	 gantt_y, gantt_n;	/* device rows; lane and cursor follow */
	int	 lane_n;		/* transfer lane: 0 or 1 */
	int	 legend_y;		/* -1 none */
	int	 stats_y, stats_n;
	int	 gap_n;			/* spare rows, spread as blank lines */
};

/* The caption to show, or NULL when the learner left the block's run. */
const char	*pscr_caption(const struct pscr *);

/* Budget rows x cols for the single-run view. */
void	pscr_plan(const struct pscr *, int rows, int cols, struct pscr_plan *);

/* scr_player_draw.c */
void	pscr_draw_title(struct pscr *, WINDOW *, int cols);
void	pscr_draw_settings(struct pscr *, WINDOW *, int y, int cols);
void	pscr_draw_caption(struct pscr *, WINDOW *, const struct pscr_plan *,
	    int cols);
void	pscr_draw_boxes(struct pscr *, WINDOW *, const struct pscr_plan *,
	    int cols);
/* The transfers in flight in run p, at most rows lines from row y. */
void	pscr_draw_flows(const struct player *, WINDOW *, int y, int rows,
	    int cols);
void	pscr_draw_links(struct pscr *, WINDOW *, const struct pscr_plan *,
	    int cols);
void	pscr_draw_stats(const struct player *, WINDOW *, int y, int n,
	    int cols);
void	pscr_draw_big_stats(struct pscr *, WINDOW *, int y, int rows,
	    int cols);
void	pscr_fmt_bytes(double bytes, char *buf, size_t n);

/* scr_player_gantt.c */
void	pscr_draw_gantt(struct pscr *, WINDOW *, const struct pscr_plan *,
	    int cols);
void	pscr_draw_legend(struct pscr *, WINDOW *, int y, int cols);
void	pscr_drop_cells(struct pscr *);
/* One Gantt row after its label: gw cells, the cursor's column reversed;
 * a lane row leaves idle columns blank. */
void	pscr_draw_row(WINDOW *, int y, const char *label,
	    const struct player_cell *, int gw, int cur, int lane);
/* The cursor mark at column cur and the time "t = X of span ms". */
void	pscr_draw_cursor_row(const struct player *, WINDOW *, int y,
	    int cur, int gw, double span);

/* scr_player_compare.c: the two runs, from row 1 to rows - 1. */
void	pscr_draw_compare(struct pscr *, WINDOW *, int rows, int cols);

/* scr_player_against.c: the measured step beside the engine's plan */
void	pscr_draw_against(struct pscr *, WINDOW *, int rows, int cols);

#endif
