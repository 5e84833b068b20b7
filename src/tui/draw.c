/*
 * draw.c - clipped text, frames, bars, and the block-digit figures of
 * projector mode.
 */
#include <stdio.h>
#include <string.h>

#include "core/safetext.h"
#include "core/translit.h"
#include "core/wrap.h"
#include "tui/draw.h"
#include "tui/term.h"

/*
 * Every text the screens draw passes here, so this is where what someone
 * else chose (a drop-box file name, a student's name) is made safe: curses
 * shows C0 controls as "^[" itself, but sends bidi overrides and C1
 * controls on as they are.
 */
int
ui_put(WINDOW *w, int y, int x, const char *raw, int width, int attr)
{
	char s[4096];
	int rows, cols;
	size_t n;

	getmaxyx(w, rows, cols);
	if (y < 0 || y >= rows || x < 0 || x >= cols || width <= 0)
		return 0;
	safetext_render(raw, s, sizeof s, SAFETEXT_UTF8);
	if (width > cols - x)
		width = cols - x;
	n = wrap_fit(s, width);
	wattron(w, attr);
	if (ui_term.utf8)
		mvwaddnstr(w, y, x, s, (int)n);
	else {	/* ASCII terminal: ×, ≈, α as x, ~=, alpha */
		char ascii[1024];

		translit_ascii(s, n, ascii, sizeof ascii);
		mvwaddstr(w, y, x, ascii);
	}
	wattroff(w, attr);
	return wrap_width(s, n);
}

int
ui_put_cut(WINDOW *w, int y, int x, const char *raw, int width, int attr)
{
	/* "..." in ASCII: ui_put would turn one "…" column into three. */
	const char *ell = ui_term.utf8 ? "\u2026" : "...";
	int ew = wrap_width(ell, strlen(ell)), used;
	char s[4096];

	/* Measure what ui_put will draw (rendering again changes nothing). */
	safetext_render(raw, s, sizeof s, SAFETEXT_UTF8);

	if (wrap_width(s, strlen(s)) <= width || width <= ew)
		return ui_put(w, y, x, s, width, attr);
	used = ui_put(w, y, x, s, width - ew, attr);
	return used + ui_put(w, y, x + used, ell, ew, attr);
}

void
ui_rule(WINDOW *w, int y, int x, int width)
{
	const char *g = ui_glyph_hline();
	int i;

	for (i = 0; i < width; i++)
		ui_put(w, y, x + i, g, 1, ui_attr(UI_C_DIM));
}

void
ui_text_line(const char *s, size_t n, void *arg)
{
	struct ui_text_draw *d = arg;
	char line[1024];

	d->total++;
	if (d->skip > 0) {
		d->skip--;
		return;
	}
	if (d->y > d->maxy || n >= sizeof line)
		return;
	memcpy(line, s, n);
	line[n] = '\0';
	ui_put(d->w, d->y++, d->x, line, d->width, d->attr);
}

void
ui_box(WINDOW *w, int y, int x, int h, int wd)
{
	const char *tl = "+", *tr = "+", *bl = "+", *br = "+", *v = "|";
	int i, j;

	if (ui_term.utf8) {
		tl = "\u250c";
		tr = "\u2510";
		bl = "\u2514";
		br = "\u2518";
		v = "\u2502";
	}
	for (i = 0; i < h; i++)
		for (j = 0; j < wd; j++)
			mvwaddch(w, y + i, x + j, ' ');
	ui_rule(w, y, x + 1, wd - 2);
	ui_rule(w, y + h - 1, x + 1, wd - 2);
	for (i = 1; i < h - 1; i++) {
		ui_put(w, y + i, x, v, 1, ui_attr(UI_C_DIM));
		ui_put(w, y + i, x + wd - 1, v, 1, ui_attr(UI_C_DIM));
	}
	ui_put(w, y, x, tl, 1, ui_attr(UI_C_DIM));
	ui_put(w, y, x + wd - 1, tr, 1, ui_attr(UI_C_DIM));
	ui_put(w, y + h - 1, x, bl, 1, ui_attr(UI_C_DIM));
	ui_put(w, y + h - 1, x + wd - 1, br, 1, ui_attr(UI_C_DIM));
}

static void
fill_row(WINDOW *w, int y, int cols, int attr)
{
	int i;

	wattron(w, attr);
	for (i = 0; i < cols; i++)
		mvwaddch(w, y, i, ' ');
	wattroff(w, attr);
}

void
ui_title(WINDOW *w, int cols, const char *title, const char *right)
{
	int a = ui_attr(UI_C_TITLE), used, rw;

	fill_row(w, 0, cols, a);
	used = ui_put_cut(w, 0, 1, title, cols - 2, a);
	if (right != NULL) {
		rw = wrap_width(right, strlen(right));
		if (rw < cols - used - 4)
			ui_put(w, 0, cols - rw - 1, right, rw, a);
	}
}

void
ui_status(WINDOW *w, int rows, int cols, const char *text, int attr)
{
	fill_row(w, rows - 1, cols, A_NORMAL);
	ui_put_cut(w, rows - 1, 1, text, cols - 2, attr);
}

void
ui_bar(WINDOW *w, int y, int x, int width, double fraction)
{
	int i, full;

	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	full = (int)(fraction * width + 0.5);
	for (i = 0; i < width; i++)
		ui_put(w, y, x + i, i < full ? ui_glyph_full() :
		    ui_glyph_empty(), 1, ui_attr(i < full ? UI_C_DONE :
		    UI_C_DIM));
}

/* 3x5 block glyphs, one string of 15 cells per character, row by row. */
static const char *
big_glyph(char c)
{
	static const char *const digits[] = {
		"###" "# #" "# #" "# #" "###", "  #" "  #" "  #" "  #" "  #",
		"###" "  #" "###" "#  " "###", "###" "  #" "###" "  #" "###",
		"# #" "# #" "###" "  #" "  #", "###" "#  " "###" "  #" "###",
		"###" "#  " "###" "# #" "###", "###" "  #" "  #" "  #" "  #",
		"###" "# #" "###" "# #" "###", "###" "# #" "###" "  #" "###",
	};

	if (c >= '0' && c <= '9')
		return digits[c - '0'];
	switch (c) {
	case ':':
		return "   " " # " "   " " # " "   ";
	case '/':
		return "  #" "  #" " # " "#  " "#  ";
	case '%':
		return "# #" "  #" " # " "#  " "# #";
	case '.':
		return "   " "   " "   " "   " " # ";
	case '-':
		return "   " "   " "###" "   " "   ";
	default:
		return "   " "   " "   " "   " "   ";
	}
}

int
ui_big_width(const char *s)
{
	int n = (int)strlen(s);

	return n > 0 ? 4 * n - 1 : 0;
}

int
ui_big_number(WINDOW *w, int y, int x, const char *s, int attr)
{
	const char *g;
	int r, c, i;

	for (i = 0; s[i] != '\0'; i++) {
		g = big_glyph(s[i]);
		for (r = 0; r < UI_BIG_ROWS; r++)
			for (c = 0; c < 3; c++)
				if (g[r * 3 + c] == '#')
					ui_put(w, y + r, x + 4 * i + c,
					    ui_glyph_full(), 1, attr);
	}
	return ui_big_width(s);
}

#define BIG_GAP		4	/* columns between two big figures */
#define BIG_MAX		8	/* figures ui_big_figures draws, at most */

/* Columns a figure takes: its big value or its label, the wider. */
static int
fig_width(const struct ui_figure *f)
{
	int vw = ui_big_width(f->value);
	int lw = wrap_width(f->label, strlen(f->label));

	return vw > lw ? vw : lw;
}

/*
 * Split the figures into rows of at most width columns: starts[k] is the
 * first figure of row k, starts[rows] = n. Returns the number of rows, or
 * -1 if one figure alone is wider than width.
 */
static int
big_split(const struct ui_figure *f, int n, int width, int *starts)
{
	int i, k = 0, used = 0, fw;

	for (i = 0; i < n; i++) {
		fw = fig_width(&f[i]);
		if (fw > width)
			return -1;
		if (i == 0 || used + BIG_GAP + fw > width) {
			starts[k++] = i;
			used = fw;
		} else
			used += BIG_GAP + fw;
	}
	starts[k] = n;
	return k;
}

/* Figures a .. b-1 on one row, centred in width columns from x. */
static void
big_row(WINDOW *w, int y, int x, int width, const struct ui_figure *f, int a,
    int b)
{
	int i, used = 0, fw, lw;

	for (i = a; i < b; i++)
		used += (i > a ? BIG_GAP : 0) + fig_width(&f[i]);
	x += (width - used) / 2;
	for (i = a; i < b; i++) {
		fw = fig_width(&f[i]);
		lw = wrap_width(f[i].label, strlen(f[i].label));
		ui_big_number(w, y, x + (fw - ui_big_width(f[i].value)) / 2,
		    f[i].value, f[i].attr);
		ui_put(w, y + UI_BIG_ROWS, x + (fw - lw) / 2, f[i].label, fw,
		    A_NORMAL);
		x += fw + BIG_GAP;
	}
}

int
ui_big_figures(WINDOW *w, int y, int x, int width, int rows,
    const struct ui_figure *f, int n)
{
	int starts[BIG_MAX + 1], k, i, need, used;

	if (n > BIG_MAX)
		n = BIG_MAX;
	k = big_split(f, n, width, starts);
	need = k * (UI_BIG_ROWS + 2) - 1;
	if (k > 0 && need <= rows) {
		for (i = 0; i < k; i++)
			big_row(w, y + i * (UI_BIG_ROWS + 2), x, width, f,
			    starts[i], starts[i + 1]);
		return need;
	}
	for (i = 0; i < n && i < rows; i++) {
		used = ui_put(w, y + i, x, f[i].label, width, A_NORMAL);
		used += ui_put(w, y + i, x + used, ": ", width - used,
		    A_NORMAL);
		ui_put(w, y + i, x + used, f[i].value, width - used, f[i].attr);
	}
	return i;
}

const char *
ui_big_bytes(double bytes, char *num, size_t n)
{
	if (bytes < 1e3) {
		snprintf(num, n, "%.0f", bytes);
		return "B";
	}
	if (bytes < 1e6) {
		snprintf(num, n, "%.1f", bytes / 1e3);
		return "kB";
	}
	snprintf(num, n, "%.2f", bytes / 1e6);
	return "MB";
}
