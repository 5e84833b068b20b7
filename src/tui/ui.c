/*
 * ui.c - the screen stack and the key loop.
 *
 * The loop blocks in getch while nothing animates, so an idle parlearn
 * uses no CPU; a screen that animates asks for a tick through
 * next_tick_ms().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/wrap.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define STACK_MAX	16

static struct ui_screen *stack[STACK_MAX];
static int depth;
static int help_shown;
static char flash_msg[256];

static struct {
	int		  key;
	const char	 *title;
	struct ui_screen *(*make)(void *);
	void		 *arg;
} global_key;

static const struct ui_key_help global_help[] = {
	{ N_("?"), N_("show or hide this help") },
	{ N_("C"), N_("cheatsheet and key equations") },
	{ N_("q, Esc"), N_("go back (quit on the home screen)") },
	{ N_("Ctrl-C"), N_("quit, saving your place") },
	{ NULL, NULL }
};

void
ui_push(struct ui_screen *s)
{
	if (s == NULL)
		return;
	if (depth == STACK_MAX) {
		if (s->free != NULL)
			s->free(s);
		free(s);
		return;
	}
	stack[depth++] = s;
}

static void
pop(void)
{
	struct ui_screen *s;

	if (depth == 0)
		return;
	s = stack[--depth];
	if (s->free != NULL)
		s->free(s);
	free(s);
	if (depth > 0 && stack[depth - 1]->resume != NULL)
		stack[depth - 1]->resume(stack[depth - 1]);
}

void
ui_clear(void)
{
	while (depth > 0)
		pop();
}

void
ui_set_global_key(int key, const char *title,
    struct ui_screen *(*make)(void *), void *arg)
{
	global_key.key = key;
	global_key.title = title;
	global_key.make = make;
	global_key.arg = arg;
}

/* The global key: open its screen, or close it if it is on top. */
static int
global_key_pressed(int ch)
{
	if (global_key.make == NULL || ch != global_key.key)
		return 0;
	if (stack[depth - 1]->title != NULL &&
	    strcmp(stack[depth - 1]->title, global_key.title) == 0)
		pop();
	else
		ui_push(global_key.make(global_key.arg));
	return 1;
}

void
ui_flash(const char *msg)
{
	snprintf(flash_msg, sizeof flash_msg, "%s", msg);
}

/* Columns of the keys column and where the explanations start. */
#define HELP_KEYS_W	16
#define HELP_WHAT_X	19

/* Wrapped lines of one explanation, drawn from row y while below ymax. */
struct help_wrap {
	WINDOW	*w;		/* NULL: count only */
	int	 y, ymax, x, width;
	int	 lines;		/* lines produced, drawn or not */
};

static void
help_line(const char *s, size_t n, void *arg)
{
	struct help_wrap *hw = arg;
	char line[256];

	if (hw->w != NULL && hw->y + hw->lines < hw->ymax &&
	    n < sizeof line) {
		memcpy(line, s, n);
		line[n] = '\0';
		ui_put(hw->w, hw->y + hw->lines, hw->x, line, hw->width,
		    A_NORMAL);
	}
	hw->lines++;
}

/* Rows h takes when its explanations wrap at width - HELP_WHAT_X - 2. */
static int
help_rows(const struct ui_key_help *h, int width)
{
	struct help_wrap hw = { NULL, 0, 0, 0, 0, 0 };
	int n = 0;

	for (; h != NULL && h->keys != NULL; h++) {
		hw.lines = 0;
		wrap_paragraph(_(h->what), width - HELP_WHAT_X - 2, help_line,
		    &hw);
		n += hw.lines;
	}
	return n;
}

/*
 * Draw h from row *y, stopping before ymax; an explanation too long for
 * the box wraps onto the next rows. Returns 1 if some were cut.
 */
static int
draw_help_list(WINDOW *w, const struct ui_key_help *h, int *y, int ymax,
    int x, int width)
{
	struct help_wrap hw;

	for (; h != NULL && h->keys != NULL; h++) {
		if (*y >= ymax)
			return 1;
		hw = (struct help_wrap){ w, *y, ymax, x + HELP_WHAT_X,
		    width - HELP_WHAT_X - 2, 0 };
		ui_put(w, *y, x + 2, _(h->keys), HELP_KEYS_W,
		    ui_attr(UI_C_ACCENT));
		wrap_paragraph(_(h->what), width - HELP_WHAT_X - 2, help_line,
		    &hw);
		*y += hw.lines;
		if (*y > ymax)
			return 1;
	}
	return 0;
}

/*
 * The '?' overlay: the top screen's keys, then the keys that work anywhere.
 * On a short terminal the list is cut and the last line says so.
 */
static void
draw_help(WINDOW *w, int rows, int cols)
{
	const struct ui_key_help *h = stack[depth - 1]->help;
	int width = cols - 4 < 64 ? cols - 4 : 64;
	int n = help_rows(h, width) + help_rows(global_help, width) + 5;
	int hb = n < rows - 1 ? n : rows - 1;
	int top = (rows - hb) / 2 < 1 ? 1 : (rows - hb) / 2;
	int x = (cols - width) / 2, y, ymax, cut;

	if (top + hb > rows)
		top = rows - hb;
	ymax = top + hb - 2;
	ui_box(w, top, x, hb, width);
	y = top + 1;
	ui_put(w, y++, x + 2, _("Keys on this screen"), width - 4,
	    ui_attr(UI_C_HEADING));
	cut = draw_help_list(w, h, &y, ymax, x, width);
	if (!cut && y < ymax) {
		ui_put(w, y++, x + 2, _("Everywhere"), width - 4,
		    ui_attr(UI_C_HEADING));
		cut = draw_help_list(w, global_help, &y, ymax, x, width);
	} else
		cut = 1;
	ui_put(w, top + hb - 2, x + 2, cut ?
	    _("More keys in a larger window. Any key closes.") :
	    _("Press any key to close this help."), width - 4,
	    ui_attr(UI_C_DIM));
}

static void
draw_all(void)
{
	struct ui_screen *s = stack[depth - 1];
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	if (ui_term_too_small(stdscr, rows, cols)) {
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	werase(stdscr);
	s->draw(s, stdscr, rows, cols);
	if (flash_msg[0] != '\0')
		ui_status(stdscr, rows, cols, flash_msg, ui_attr(UI_C_ACCENT));
	if (help_shown)
		draw_help(stdscr, rows, cols);
	wnoutrefresh(stdscr);
	doupdate();
}

/* Act on one key. Returns 0 to go on, 1 to leave the loop. */
static int
handle_key(int ch)
{
	struct ui_screen *s = stack[depth - 1];
	int rows, cols, typing = s->typing != NULL && s->typing(s);

	getmaxyx(stdscr, rows, cols);
	flash_msg[0] = '\0';
	if (ch == KEY_RESIZE)
		return 0;
	if (help_shown) {
		help_shown = 0;
		return 0;
	}
	if (ui_term_too_small(stdscr, rows, cols))
		return ch == 'q' || ch == 'Q';
	if (ch == '?' && !typing) {
		help_shown = 1;
		return 0;
	}
	if (!typing && global_key_pressed(ch))
		return depth == 0;
	switch (s->key(s, ch)) {
	case UI_BACK:
		pop();
		return depth == 0;
	case UI_QUIT:
		return 1;
	case UI_HANDLED:
	case UI_IGNORED:
		break;
	}
	return 0;
}

int
ui_scroll_key(int ch, int *pos, int page, int max)
{
	int v = *pos;

	if (page < 1)
		page = 1;
	switch (ch) {
	case 'j': case KEY_DOWN: v++; break;
	case 'k': case KEY_UP: v--; break;
	case 'f': case ' ': case KEY_NPAGE: v += page; break;
	case 'b': case KEY_PPAGE: v -= page; break;
	case 'g': case KEY_HOME: v = 0; break;
	case 'G': case KEY_END: v = max; break;
	default: return 0;
	}
	*pos = v > max ? max : v;
	if (*pos < 0)
		*pos = 0;
	return 1;
}

void
ui_run(void)
{
	int ch, ms;

	while (depth > 0 && !ui_term_quit) {
		struct ui_screen *s = stack[depth - 1];

		draw_all();
		ms = s->next_tick_ms != NULL ? s->next_tick_ms(s) : -1;
		ch = ui_term_getkey(ms);
		if (ui_term_quit)
			break;
		if (ch == ERR) {
			if (ms >= 0 && s->tick != NULL)
				s->tick(s);
			continue;
		}
		if (handle_key(ch))
			break;
	}
}
