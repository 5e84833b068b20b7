/*
 * ui.h - screens, the screen stack and the one key loop.
 *
 * A screen is a struct of functions (htop's PanelClass, tmux's
 * window_mode). ui_run() owns the loop: it reads a key, handles resize, '?'
 * and the quit signals itself, passes other keys to the top screen and acts
 * on the result. A screen's draw() only draws what core has computed.
 */
#ifndef PARLEARN_TUI_UI_H
#define PARLEARN_TUI_UI_H

#include <curses.h>

enum ui_result {
	UI_HANDLED,	/* redraw */
	UI_IGNORED,	/* key not used: no redraw */
	UI_BACK,	/* pop this screen */
	UI_QUIT		/* leave parlearn */
};

struct ui_key_help {
	const char	*keys;		/* N_("j/k"), shown as is */
	const char	*what;		/* N_("move") */
};

struct ui_screen {
	const char		 *title;	/* N_(), translated when drawn */
	const struct ui_key_help *help;		/* ends with { NULL, NULL } */
	void			(*draw)(struct ui_screen *, WINDOW *, int rows,
				    int cols);
	enum ui_result		(*key)(struct ui_screen *, int ch);
	/* Called when the screen becomes the top again (after a pop). */
	void			(*resume)(struct ui_screen *);
	/* Animation: ms until the next tick, or -1 when idle. May be NULL. */
	int			(*next_tick_ms)(struct ui_screen *);
	void			(*tick)(struct ui_screen *);
	/* 1 while the screen takes typed text (a search box): then '?' and
	 * the global key reach its key() too. May be NULL. */
	int			(*typing)(struct ui_screen *);
	void			(*free)(struct ui_screen *);
	void			 *state;	/* owned by the screen */
};

/* Push a screen; the stack owns it from here. */
void	ui_push(struct ui_screen *);
/* Run until the stack is empty, q on the last screen, or a quit signal. */
void	ui_run(void);
/* Pop and free every screen (each screen's free() saves its state). */
void	ui_clear(void);

/*
 * One key that works on every screen: key opens make(arg), a screen whose
 * title is title; pressed again on that screen, it closes it.
 */
void	ui_set_global_key(int key, const char *title,
	    struct ui_screen *(*make)(void *), void *arg);

/*
 * The scrolling keys, the same on every screen that scrolls: j/k and
 * Down/Up move one line, f, Space and PgDn a page on, b and PgUp a page
 * back, g and Home to the top, G and End to the end. If ch is one of them,
 * moves *pos (a top line or a selected row) within 0..max by page lines
 * per page (at least 1) and returns 1; else returns 0 and leaves *pos.
 */
int	ui_scroll_key(int ch, int *pos, int page, int max);

/* A one-line message shown in the status bar until the next key. */
void	ui_flash(const char *msg);

#endif
