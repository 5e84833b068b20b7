/*
 * term.c - starting and restoring the terminal, colours, signals.
 *
 * SIGINT, SIGTERM and SIGHUP only set ui_term_quit; the handler is
 * installed without SA_RESTART so a blocked getch returns and the key loop
 * leaves by the normal path, saving progress. Fatal signals restore the
 * terminal first and then re-raise, so the shell sees the real cause.
 */
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "core/safetext.h"
#include "tui/term.h"

#include <term.h>	/* setupterm, after curses.h */

struct ui_term ui_term;
volatile sig_atomic_t ui_term_quit;

static int attrs[UI_C_COUNT];

static void
on_quit(int sig)
{
	(void)sig;
	ui_term_quit = 1;
}

static void
on_fatal(int sig)
{
	/* Not async-signal-safe, as in htop's crash handler: the terminal is
	 * worth more than a clean signal context when we are going down. */
	if (ui_term.started) {
		endwin();
		ui_term.started = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
install_signals(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		sigaction(fatal[i], &sa, NULL);
}

/*
 * Home and End as the common terminals send them, whatever the terminfo
 * entry says: xterm (\E[H, \EOH), the VT220 keypad and tmux or screen
 * (\E[1~, \E[4~), rxvt (\E[7~, \E[8~). A sequence the entry already
 * binds to another key keeps that key.
 */
static void
define_keys(void)
{
	static const struct {
		const char	*seq;
		int		 key;
	} keys[] = {
		{ "\033[1~", KEY_HOME }, { "\033[4~", KEY_END },
		{ "\033[H", KEY_HOME }, { "\033[F", KEY_END },
		{ "\033OH", KEY_HOME }, { "\033OF", KEY_END },
		{ "\033[7~", KEY_HOME }, { "\033[8~", KEY_END },
	};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (key_defined(keys[i].seq) == 0)
			define_key(keys[i].seq, keys[i].key);
}

static void
init_colors(void)
{
	const char *nc = getenv("NO_COLOR");

	attrs[UI_C_NORMAL] = A_NORMAL;
	attrs[UI_C_TITLE] = A_REVERSE | A_BOLD;
	attrs[UI_C_HEADING] = A_BOLD;
	attrs[UI_C_SELECT] = A_REVERSE;
	attrs[UI_C_DIM] = A_DIM;
	attrs[UI_C_DONE] = A_BOLD;
	attrs[UI_C_STARTED] = A_UNDERLINE;
	attrs[UI_C_ACCENT] = A_BOLD;
	attrs[UI_C_WARN] = A_BOLD;
	ui_term.color = has_colors() && (nc == NULL || nc[0] == '\0');
	if (!ui_term.color)
		return;
	start_color();
	use_default_colors();
	init_pair(1, COLOR_CYAN, -1);
	init_pair(2, COLOR_GREEN, -1);
	init_pair(3, COLOR_YELLOW, -1);
	init_pair(4, COLOR_BLACK, COLOR_CYAN);
	init_pair(5, COLOR_RED, -1);
	attrs[UI_C_TITLE] = COLOR_PAIR(4) | A_BOLD;
	attrs[UI_C_HEADING] = COLOR_PAIR(1) | A_BOLD;
	attrs[UI_C_DONE] = COLOR_PAIR(2) | A_BOLD;
	attrs[UI_C_STARTED] = COLOR_PAIR(3);
	attrs[UI_C_ACCENT] = COLOR_PAIR(3) | A_BOLD;
	attrs[UI_C_WARN] = COLOR_PAIR(5) | A_BOLD;
}

/* Projector mode: everything bold, nothing dim, white on black. */
static void
init_projector(void)
{
	int i;

	for (i = 0; i < UI_C_COUNT; i++)
		attrs[i] = (attrs[i] & ~A_DIM) | A_BOLD;
	if (ui_term.color) {
		init_pair(6, COLOR_WHITE, COLOR_BLACK);
		bkgd(COLOR_PAIR(6) | A_BOLD);
	} else
		bkgd(A_BOLD);
}

static SCREEN *screen;		/* from newterm, freed at stop */
static char why[200];		/* why ui_term_start failed */

const char *
ui_term_error(void)
{
	return why[0] != '\0' ? why : NULL;
}

/*
 * newterm, not initscr: initscr exits by itself on an unknown TERM; here
 * the caller prints one line and exits 2. A terminal that cannot move
 * the cursor (TERM=dumb) cannot draw the screens either.
 */
static int
open_screen(void)
{
	const char *raw = getenv("TERM");
	char term[64];
	char *cup;
	int e;

	if (raw == NULL || raw[0] == '\0') {
		snprintf(why, sizeof why, "%s", _("TERM is not set; set it to "
		    "your terminal's type (for example TERM=xterm-256color)"));
		return -1;
	}
	/* TERM is shown in messages: never as control characters. */
	safetext_render(raw, term, sizeof term, 0);
	/* Look the type up first, writing nothing to the terminal. */
	if (setupterm(NULL, STDOUT_FILENO, &e) != OK) {
		snprintf(why, sizeof why, _("the terminal type \"%.60s\" is "
		    "unknown here; set TERM to one this system knows (for "
		    "example TERM=xterm-256color)"), term);
		return -1;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (cup == NULL || cup == (char *)-1) {
		snprintf(why, sizeof why, _("the terminal type \"%.60s\" cannot "
		    "move the cursor, so the screens cannot be drawn; try the "
		    "commands (parlearn --help)"), term);
		return -1;
	}
	if ((screen = newterm(NULL, stdout, stdin)) == NULL) {
		snprintf(why, sizeof why, _("cannot start the terminal \"%.60s\""),
		    term);
		return -1;
	}
	return 0;
}

int
ui_term_start(int projector)
{
	const char *cs = nl_langinfo(CODESET);

	why[0] = '\0';
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -1;
	ui_term.utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	if (open_screen() != 0)
		return -1;
	ui_term.started = 1;
	atexit(ui_term_stop);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	define_keys();
	set_escdelay(25);
	curs_set(0);
	init_colors();
	if (projector)
		init_projector();
	install_signals();
	return 0;
}

void
ui_term_stop(void)
{
	if (!ui_term.started)
		return;
	ui_term.started = 0;
	curs_set(1);
	endwin();
	fflush(stdout);
	if (screen != NULL)
		delscreen(screen);
	screen = NULL;
}

int
ui_attr(enum ui_color c)
{
	return attrs[c];
}

int
ui_term_too_small(WINDOW *w, int rows, int cols)
{
	char line[160];

	if (rows >= UI_MIN_ROWS && cols >= UI_MIN_COLS)
		return 0;
	werase(w);
	snprintf(line, sizeof line, _("Terminal too small: %dx%d, need %dx%d."),
	    cols, rows, UI_MIN_COLS, UI_MIN_ROWS);
	mvwaddnstr(w, rows / 2 - 1 > 0 ? rows / 2 - 1 : 0, 0, line, cols);
	mvwaddnstr(w, rows / 2 > 0 ? rows / 2 : 0, 0,
	    _("Enlarge the window, or press q to quit."), cols);
	return 1;
}

int
ui_term_getkey(int timeout_ms)
{
	wtimeout(stdscr, timeout_ms);
	return wgetch(stdscr);
}

const char *
ui_glyph_hline(void)
{
	return ui_term.utf8 ? "\u2500" : "-";
}

const char *
ui_glyph_full(void)
{
	return ui_term.utf8 ? "\u2588" : "#";
}

const char *
ui_glyph_empty(void)
{
	return ui_term.utf8 ? "\u2591" : ".";
}

const char *
ui_glyph_check(void)
{
	return ui_term.utf8 ? "\u2713" : "*";
}

const char *
ui_glyph_dot(void)
{
	return ui_term.utf8 ? "\u00b7" : "-";
}

const char *
ui_glyph_arrow(void)
{
	return ui_term.utf8 ? "\u25b6" : ">";
}

const char *
ui_glyph_bubble(void)
{
	return ui_term.utf8 ? "\u2592" : ".";
}

const char *
ui_glyph_wait(void)
{
	return ui_term.utf8 ? "\u00b7" : ":";
}

const char *
ui_glyph_right(void)
{
	return ui_term.utf8 ? "\u2192" : ">";
}

const char *
ui_glyph_left(void)
{
	return ui_term.utf8 ? "\u2190" : "<";
}

const char *
ui_glyph_both(void)
{
	return ui_term.utf8 ? "\u2194" : "=";
}
