/*
 * scr_player_gantt.c - the player's time axis: one Gantt row per device
 * (a letter per slice of the batch, upper case forward, lower case
 * backward, underlined for an interleaved device's later chunks, / for
 * a split backward's weight gradients), the
 * transfer lane of what runs beside compute, the cursor and the legend.
 * Idle inside the compute window is the bubble the figure counts; idle
 * outside it (the wait for the last all-reduce) has its own glyph.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/wrap.h"
#include "tui/scr_player.h"
#include "tui/term.h"

static void
cell_glyph(const struct player_cell *c, char *g, int *attr)
{
	static const char sym[] = "  =<>*~";

	g[1] = '\0';
	switch (c->kind) {
	case PLAYER_CELL_FORWARD:
	case PLAYER_CELL_BACKWARD:
		g[0] = (char)((c->kind == PLAYER_CELL_FORWARD ? 'A' : 'a') +
		    (c->label < 0 ? 0 : c->label % 26));
		*attr = ui_attr(c->kind == PLAYER_CELL_FORWARD ? UI_C_DONE :
		    UI_C_STARTED);
		if (c->chunk > 0)
			*attr |= A_UNDERLINE | A_BOLD;
		return;
	case PLAYER_CELL_BUBBLE:
		snprintf(g, 8, "%s", ui_glyph_bubble());
		*attr = ui_attr(UI_C_DIM);
		return;
	case PLAYER_CELL_WAIT:
		snprintf(g, 8, "%s", ui_glyph_wait());
		*attr = ui_attr(UI_C_DIM);
		return;
	case PLAYER_CELL_WEIGHTS:
		g[0] = '/';
		*attr = ui_attr(UI_C_STARTED) | A_BOLD;
		return;
	default:
		g[0] = sym[c->kind - PLAYER_CELL_FORWARD];
		*attr = ui_attr(UI_C_ACCENT);
	}
}

/* A lane cell: blank where nothing moves. */
static void
lane_glyph(const struct player_cell *c, char *g, int *attr)
{
	if (c->kind == PLAYER_CELL_BUBBLE) {
		snprintf(g, 8, " ");
		*attr = A_NORMAL;
	} else
		cell_glyph(c, g, attr);
}

void
pscr_draw_row(WINDOW *w, int y, const char *label,
    const struct player_cell *cells, int gw, int cur, int lane)
{
	char g[8];
	int c, attr;

	ui_put(w, y, 0, label, PSCR_LABEL_W - 1, ui_attr(UI_C_HEADING));
	for (c = 0; c < gw; c++) {
		if (lane)
			lane_glyph(&cells[c], g, &attr);
		else
			cell_glyph(&cells[c], g, &attr);
		if (c == cur)
			attr |= A_REVERSE;
		wattron(w, attr);
		mvwaddstr(w, y, PSCR_LABEL_W + c, g);
		wattroff(w, attr);
	}
}

void
pscr_drop_cells(struct pscr *ps)
{
	ps->cells_w = 0;
}

/* Device rows then the lane of the main run at width gw, cached. */
static const struct player_cell *
gantt_cells(struct pscr *ps, int gw)
{
	int n = player_devices(&ps->pl), d;
	struct player_cell *c;

	if (ps->cells != NULL && ps->cells_w == gw)
		return ps->cells;
	c = realloc(ps->cells, (size_t)((n + 1) * gw) * sizeof *c);
	if (c == NULL)
		return NULL;
	ps->cells = c;
	ps->cells_w = gw;
	for (d = 0; d < n; d++)
		player_gantt_row(&ps->pl, d, gw, 0.0, c + d * gw);
	player_transfer_row(&ps->pl, gw, 0.0, c + n * gw);
	return c;
}

void
pscr_draw_cursor_row(const struct player *p, WINDOW *w, int y, int cur,
    int gw, double span)
{
	char t[96];
	int tw;

	snprintf(t, sizeof t, _("t = %.1f of %.1f ms"), p->now * 1e3,
	    span * 1e3);
	tw = wrap_width(t, strlen(t));
	ui_put(w, y, PSCR_LABEL_W + cur, "^", 1, ui_attr(UI_C_ACCENT));
	if (cur + 2 + tw <= gw)
		ui_put(w, y, PSCR_LABEL_W + cur + 2, t, tw, ui_attr(UI_C_DIM));
	else if (cur - 1 - tw >= 0)
		ui_put(w, y, PSCR_LABEL_W + cur - 1 - tw, t, tw,
		    ui_attr(UI_C_DIM));
}

void
pscr_draw_gantt(struct pscr *ps, WINDOW *w, const struct pscr_plan *pl,
    int cols)
{
	int gw = cols - PSCR_LABEL_W - 1, cur, d, n = player_devices(&ps->pl);
	const struct player_cell *cells = gantt_cells(ps, gw);
	char lab[16];

	if (cells == NULL || gw < 1)
		return;
	cur = player_cursor_col(&ps->pl, gw, 0.0);
	for (d = 0; d < pl->gantt_n; d++) {
		sim_device_name(d, lab, sizeof lab);
		pscr_draw_row(w, pl->gantt_y + d, lab, cells + d * gw, gw, cur,
		    0);
	}
	if (pl->lane_n > 0)
		pscr_draw_row(w, pl->gantt_y + pl->gantt_n, _("net"),
		    cells + n * gw, gw, cur, 1);
	pscr_draw_cursor_row(&ps->pl, w, pl->gantt_y + pl->gantt_n +
	    pl->lane_n, cur, gw, ps->pl.res.step_time);
}

/* The legend of the kinds of cell the rows show (seen), hint first. */
static int
legend_compose(const int *seen, int hint, int chunks, char *buf, size_t n)
{
	static const char *const what[PLAYER_NCELLS] = {
		NULL, N_("A-Z forward, a-z backward"), NULL,
		N_("= all-reduce"), N_("< all-gather"), N_("> reduce-scatter"),
		N_("* optimizer"), N_("~ send"), NULL,
		N_("/ W grads")
	};
	int i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < PLAYER_NCELLS && len >= 0 && (size_t)len < n; i++)
		if (seen[i] && what[i] != NULL)
			len += snprintf(buf + len, n - (size_t)len, "%s%s%s",
			    len > 0 ? ", " : "", i == PLAYER_CELL_FORWARD &&
			    !hint ? _("A-Z fwd, a-z bwd") : _(what[i]),
			    hint && i == PLAYER_CELL_FORWARD ? (chunks ?
			    _(" (letter = slice of the batch, underlined = "
			    "2nd chunk)") : _(" (letter = slice of the batch)")) :
			    "");
	if (chunks && !hint && len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, "%s",
		    _(", underlined: 2nd chunk"));
	if (seen[PLAYER_CELL_BUBBLE] && len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, _(", %s bubble"),
		    ui_glyph_bubble());
	if (seen[PLAYER_CELL_WAIT] && len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len,
		    _(", %s waiting for a transfer"), ui_glyph_wait());
	return wrap_width(buf, strlen(buf));
}

void
pscr_draw_legend(struct pscr *ps, WINDOW *w, int y, int cols)
{
	int gw = cols - PSCR_LABEL_W - 1, n = player_devices(&ps->pl);
	const struct player_cell *c = gantt_cells(ps, gw);
	int seen[PLAYER_NCELLS] = { 0 }, i;
	char buf[320];

	/* The lane's blank cells are no bubble: device rows only for it. */
	for (i = 0; c != NULL && i < (n + 1) * gw; i++)
		if (c[i].kind != PLAYER_CELL_BUBBLE || i < n * gw)
			seen[c[i].kind] = 1;
	seen[PLAYER_CELL_FORWARD] = 1;
	if (legend_compose(seen, 1, ps->pl.v > 1, buf, sizeof buf) > cols - 2)
		legend_compose(seen, 0, ps->pl.v > 1, buf, sizeof buf);
	ui_put_cut(w, y, 1, buf, cols - 2, ui_attr(UI_C_DIM));
}
