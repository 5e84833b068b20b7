/*
 * draw.h - small drawing helpers shared by the screens.
 *
 * All text goes through ui_put, which clips by display columns (not bytes),
 * so wide characters never spill past the edge. It is the one place text
 * reaches the terminal: when the locale is not UTF-8 it writes the text's
 * ASCII transliteration (core/translit.h), so a formula reads "2 x 4 ~= 8"
 * instead of curses' "~W" garbage.
 */
#ifndef PARLEARN_TUI_DRAW_H
#define PARLEARN_TUI_DRAW_H

#include <curses.h>
#include <stddef.h>

/* Draw s at (y, x), at most width columns, with attr. Returns columns used. */
int	ui_put(WINDOW *, int y, int x, const char *s, int width, int attr);
/*
 * Like ui_put, but text that does not fit ends with an ellipsis ("…", or
 * "..." in ASCII) in the last columns, so the reader sees it was cut.
 */
int	ui_put_cut(WINDOW *, int y, int x, const char *s, int width, int attr);
/* A frame of h rows and w columns with its inside cleared. */
void	ui_box(WINDOW *, int y, int x, int h, int w);
/*
 * The title bar on row 0: title on the left (cut with an ellipsis), right
 * text on the right when it fits.
 */
void	ui_title(WINDOW *, int cols, const char *title, const char *right);
/* The status bar on the last row, cut with an ellipsis. */
void	ui_status(WINDOW *, int rows, int cols, const char *text, int attr);
/* A horizontal bar of width cells, fraction (0..1) filled. */
void	ui_bar(WINDOW *, int y, int x, int width, double fraction);
/* A horizontal rule. */
void	ui_rule(WINDOW *, int y, int x, int width);

/*
 * Wrapped lines (core/wrap.h's callback) drawn from row y to maxy at
 * column x, after skip lines scrolled off; total counts every line, shown
 * or not, so a scrolling screen knows where its end is.
 */
struct ui_text_draw {
	WINDOW	*w;
	int	 y, x, maxy, width, attr;
	int	 skip;		/* lines still to scroll off */
	int	 total;		/* lines emitted, shown or not */
};
/* wrap_paragraph's emit: arg is a struct ui_text_draw. */
void	ui_text_line(const char *s, size_t n, void *arg);

/* Rows and columns of a big number drawn by ui_big_number. */
#define UI_BIG_ROWS	5
int	ui_big_width(const char *s);
/*
 * Draw s (digits and " .:/%-") in block digits UI_BIG_ROWS tall, for the
 * key figures in projector mode. Other characters draw as blanks. Clipped
 * to the window. Returns the columns used.
 */
int	ui_big_number(WINDOW *, int y, int x, const char *s, int attr);

/* A key figure for ui_big_figures: a big value over a normal-size label. */
struct ui_figure {
	const char	*value;		/* digits and " .:/%-", drawn big */
	const char	*label;		/* normal text under the value */
	int		 attr;		/* of the value */
};

/*
 * Draw n figures in block digits, side by side and centred in the width
 * columns from x, starting a new row of figures when one is full, within
 * rows rows from y. If they do not all fit, draw each as "label: value" in
 * normal-size text on its own line instead (as many as rows allow).
 * Returns the rows used.
 */
int	ui_big_figures(WINDOW *, int y, int x, int width, int rows,
	    const struct ui_figure *, int n);
/*
 * Bytes as a number that block digits can draw and its unit, returned as
 * a static string: "812" B, "12.5" kB, else "1.25" MB (1e3 steps).
 */
const char	*ui_big_bytes(double bytes, char *num, size_t n);

#endif
