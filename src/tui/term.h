/*
 * term.h - the one owner of the terminal.
 *
 * Only term.c calls newterm, endwin and start_color and installs signal
 * handlers. ui_term_stop() is safe to call twice and is registered with
 * atexit(), so every way out restores the terminal.
 */
#ifndef PARLEARN_TUI_TERM_H
#define PARLEARN_TUI_TERM_H

#include <curses.h>
#include <signal.h>

/* Colour roles; in monochrome they map to attributes. */
enum ui_color {
	UI_C_NORMAL,
	UI_C_TITLE,	/* screen title bar */
	UI_C_HEADING,	/* phase names, block titles */
	UI_C_SELECT,	/* the selected row */
	UI_C_DIM,	/* secondary text, key hints */
	UI_C_DONE,	/* "done" status, full bar */
	UI_C_STARTED,	/* "started" status */
	UI_C_ACCENT,	/* prompts, numbers */
	UI_C_WARN,	/* warnings */
	UI_C_COUNT
};

struct ui_term {
	int	started;	/* curses is active */
	int	color;		/* colours in use (terminal has them, no NO_COLOR) */
	int	utf8;		/* locale is UTF-8: use Unicode drawing */
};

extern struct ui_term ui_term;
/* Set by SIGINT/SIGTERM/SIGHUP; the key loop leaves when it is non-zero. */
extern volatile sig_atomic_t ui_term_quit;

/* Minimum usable size; below it a message replaces the screen. */
#define UI_MIN_COLS	50
#define UI_MIN_ROWS	14

/*
 * Start curses (newterm); with projector set, every colour role is bold and
 * nothing is dim, white on black (screens read the mode from struct app).
 * Returns 0, or -1 if the terminal cannot be used: not a terminal, TERM
 * unset or unknown, or unable to move the cursor (TERM=dumb).
 */
int	ui_term_start(int projector);
/* Why ui_term_start failed, in one line; NULL when stdin or stdout is
 * simply not a terminal (the caller says what to use instead). */
const char	*ui_term_error(void);
/* Restore the terminal. Idempotent. */
void	ui_term_stop(void);
/* Attribute for a colour role. */
int	ui_attr(enum ui_color);
/* 1 if the window is below the minimum size (and draws the message). */
int	ui_term_too_small(WINDOW *, int rows, int cols);
/* Block for a key (timeout_ms < 0) or wait at most timeout_ms. */
int	ui_term_getkey(int timeout_ms);

/* Drawing characters, Unicode or ASCII by locale. */
const char	*ui_glyph_hline(void);
const char	*ui_glyph_full(void);
const char	*ui_glyph_empty(void);
const char	*ui_glyph_check(void);
const char	*ui_glyph_dot(void);
const char	*ui_glyph_arrow(void);
/* The player: idle time in a Gantt row, data moving right, left, both. */
const char	*ui_glyph_bubble(void);
const char	*ui_glyph_wait(void);	/* waiting for a transfer */
const char	*ui_glyph_right(void);
const char	*ui_glyph_left(void);
const char	*ui_glyph_both(void);

#endif
