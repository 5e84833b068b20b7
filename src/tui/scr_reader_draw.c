/*
 * scr_reader_draw.c - drawing the reader: the page of a drop's lines as
 * core/course/reader laid them out, the marker, the title and position.
 * In projector mode a page shows one block, with wide margins and double
 * spacing when it fits. Nothing here writes to the store.
 */
#include <stdio.h>

#include "i18n.h"
#include "tui/draw.h"
#include "tui/scr_reader.h"
#include "tui/term.h"

static const struct content_drop *
drop_of(const struct reader_scr *r)
{
	return r->rd.drop;
}

static int
line_attr(const struct layout_line *l)
{
	switch (l->style) {
	case LAYOUT_HEADING:
		return ui_attr(UI_C_HEADING);
	case LAYOUT_PROMPT:
		return ui_attr(UI_C_ACCENT);
	case LAYOUT_NOTE:
		return ui_attr(UI_C_DIM);
	case LAYOUT_INPUT:
		return ui_attr(UI_C_ACCENT);
	case LAYOUT_RIGHT:
		return ui_attr(UI_C_DONE);
	case LAYOUT_WRONG:
		return ui_attr(UI_C_WARN);
	default:
		return A_NORMAL;
	}
}

/* Line l at row y, its text from column x; the marker two columns left. */
static void
draw_line(WINDOW *w, int y, int x, int width, const struct layout_line *l,
    int marked)
{
	if (l->style == LAYOUT_BULLET)
		ui_put(w, y, x, ui_glyph_dot(), 1, A_NORMAL);
	if (marked)
		ui_put(w, y, x - 2, ui_glyph_arrow(), 1, ui_attr(UI_C_ACCENT));
	ui_put(w, y, x + l->indent, l->text, width - l->indent, line_attr(l));
}

static void
draw_title(const struct reader_scr *r, WINDOW *w, int cols, int projector)
{
	const struct content_drop *d = drop_of(r);
	char title[400], right[120];

	if (r->reference)
		snprintf(title, sizeof title, "%s", d->title);
	else
		snprintf(title, sizeof title, _("Drop %d: %s"), d->number,
		    d->title);
	if (projector)	/* without the phase and minutes */
		right[0] = '\0';
	else if (r->reference)
		snprintf(right, sizeof right, "%s", _("C or q to close"));
	else
		snprintf(right, sizeof right, P_("phase %d, %d min",
		    "phase %d, %d min", r->app->minutes[r->drop]), d->phase,
		    r->app->minutes[r->drop]);
	ui_title(w, cols, title, right[0] != '\0' ? right : NULL);
}

static void
draw_position(const struct reader_scr *r, WINDOW *w, int rows, int cols)
{
	const struct layout *lo = &r->rd.lo;
	int top = r->rd.top, page = r->rd.page;
	int last = top + page < (int)lo->n ? top + page : (int)lo->n;
	int pct = lo->n == 0 ? 100 : (int)(100.0 * last / (double)lo->n);
	int block = lo->n > 0 ? lo->lines[top].block + 1 : 0;
	char pos[200];

	/* With the end of the drop on the page, the last block is read. */
	if (lo->n > 0 && last >= (int)lo->n)
		block = (int)drop_of(r)->n_blocks;

	snprintf(pos, sizeof pos, _("lines %d-%d of %zu (%d%%)  block %d/%zu  "
	    "? keys"), lo->n > 0 ? top + 1 : 0, last, lo->n, pct, block,
	    drop_of(r)->n_blocks);
	ui_status(w, rows, cols, pos, ui_attr(UI_C_DIM));
}

/* The reader's note, on the row above the status line. */
static void
draw_note(const struct reader_scr *r, WINDOW *w, int rows, int cols)
{
	if (r->note[0] != '\0')
		ui_put(w, rows - 2, 1, r->note, cols - 2, ui_attr(UI_C_ACCENT) |
		    A_BOLD);
}

/* Projector: one block per page, double-spaced when it fits. */
static void
projector_draw(struct reader_scr *r, WINDOW *w, int rows, int cols)
{
	int width = cols - 8 > 72 ? 72 : cols - 8;
	int step, i, mark, b;
	char pos[120];

	draw_title(r, w, cols, 1);
	step = reader_view_block(&r->rd, width, rows - 5);
	if (step < 0 || r->rd.lo.n == 0)
		return;
	mark = reader_marker_line(&r->rd);
	b = r->rd.lo.lines[r->rd.top].block;
	for (i = 0; i < r->rd.page; i++)
		draw_line(w, 3 + i * step, 4, width,
		    &r->rd.lo.lines[r->rd.top + i], r->rd.top + i == mark);
	snprintf(pos, sizeof pos, _("block %d/%zu  %s %s step  q back"), b + 1,
	    drop_of(r)->n_blocks, ui_glyph_left(), ui_glyph_right());
	ui_status(w, rows, cols, pos, ui_attr(UI_C_DIM));
	draw_note(r, w, rows, cols);
}

void
rs_draw(struct reader_scr *r, WINDOW *w, int rows, int cols)
{
	int width = cols - 4 > 100 ? 100 : cols - 4, i, mark, line;

	if (r->app->projector) {
		projector_draw(r, w, rows, cols);
		return;
	}
	draw_title(r, w, cols, 0);
	if (reader_view(&r->rd, width, rows - 4) != 0)
		return;
	mark = reader_marker_line(&r->rd);
	for (i = 0; i < r->rd.page; i++) {
		line = r->rd.top + i;
		if (line >= (int)r->rd.lo.n)
			break;
		draw_line(w, 2 + i, 2, width, &r->rd.lo.lines[line],
		    line == mark);
	}
	draw_position(r, w, rows, cols);
	draw_note(r, w, rows, cols);
}
