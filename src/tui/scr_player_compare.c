/*
 * scr_player_compare.c - the run and the one it is best compared with
 * (core's sim_config_compare: GPipe and 1F1B, DP with and without
 * overlap, TP with and without sequence parallelism, CP with and without
 * TP inside its ranks) on one time axis.
 *
 * From PSCR_SIDE_COLS columns the two stand side by side, each with its
 * own header, Gantt rows, transfer lane, cursor and figures (bubble,
 * step, bytes), and as rows allow each GPU's memory and the transfers in
 * flight; narrower, they stand one above the other with a
 * one-line header each. Both scale time to the longer step, so the
 * shorter run ends visibly earlier, and both show the same instant. A
 * measured run (`trace --from`) is compared with the simulator's run of
 * it; CPU and simulated H100 times share no axis, so there each run fills
 * the width and both show the same share of their step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/wrap.h"
#include "core/sim/sim_knob.h"
#include "tui/scr_player.h"
#include "tui/term.h"

/* What tells the two compared runs apart. */
static void
compare_label(const struct player *p, const struct player *other,
    int measuring, char *buf, size_t n)
{
	const struct sim_config *c = &p->cfg;
	char tp[16], ov[24];

	if (p->origin.measured)
		snprintf(buf, n, P_("measured on %d process",
		    "measured on %d processes", p->origin.processes),
		    p->origin.processes);
	else if (measuring)
		snprintf(buf, n, "%s", _("simulated on H100s"));
	else if (c->mode == SIM_CP) {
		/* cp is compared with TP toggled, else overlap: say both */
		sim_knob_value(c, SIM_KNOB_TP, tp, sizeof tp);
		sim_knob_value(c, SIM_KNOB_OVERLAP, ov, sizeof ov);
		snprintf(buf, n, "%s, %s", tp, ov);
	} else if (c->mode == SIM_EP)
		/* ep is compared on the router, or with stages under ZB-H1
		 * or DualPipe on the schedule: name what differs */
		sim_knob_value(c, other->cfg.schedule != c->schedule ?
		    SIM_KNOB_SCHEDULE : SIM_KNOB_ROUTER, buf, n);
	else
		sim_knob_value(c, c->mode == SIM_PP || c->mode == SIM_3D ?
		    SIM_KNOB_SCHEDULE : c->mode == SIM_TP ? SIM_KNOB_SP :
		    SIM_KNOB_OVERLAP,
		    buf, n);
}

/* The device that held the most at once, and how much ("1.2 MB"). */
static int
peak_device(const struct player *p, char *mem, size_t n)
{
	size_t most = 0, b;
	int d, at = 0;

	for (d = 0; d < player_devices(p); d++) {
		b = sim_timeline_peak(&p->res.tl, d);
		if (b > most) {
			most = b;
			at = d;
		}
	}
	pscr_fmt_bytes((double)most, mem, n);
	return at;
}

/* Rows d..shown of run p's Gantt, then its lane, from row y. */
static int
draw_rows(const struct player *p, WINDOW *w, int y, int shown, int gw,
    double span, int cur)
{
	struct player_cell *cells = malloc((size_t)gw * sizeof *cells);
	char lab[16];
	int d;

	if (cells == NULL)
		return y;
	for (d = 0; d < shown; d++) {
		player_gantt_row(p, d, gw, span, cells);
		pscr_draw_row(w, y++, sim_device_name(d, lab, sizeof lab),
		    cells, gw, cur, 0);
	}
	player_transfer_row(p, gw, span, cells);
	pscr_draw_row(w, y++, _("net"), cells, gw, cur, 1);
	free(cells);
	return y;
}

/* Stacked: one run from row y, a one-line header, rows, lane. */
static int
stacked_run(const struct player *p, const struct player *other, WINDOW *w,
    int y, int rows_max, int cols, double span, int cur)
{
	const struct sim_result *r = &p->res;
	int gw = cols - PSCR_LABEL_W - 1, n = player_devices(p), shown, at;
	char head[200], lab[48], mem[32], name[16], moved[32];

	if (gw < 1)
		return y;
	compare_label(p, other, span <= 0, lab, sizeof lab);
	at = peak_device(p, mem, sizeof mem);
	/* without a pipeline the bubble says little: the bytes moved do */
	if (r->pp > 1)
		snprintf(head, sizeof head, _("%s: step %.1f ms, bubble "
		    "%.1f%%, %s holds at most %s"), lab, r->step_time * 1e3,
		    100.0 * r->bubble, sim_device_name(at, name, sizeof name),
		    mem);
	else {
		pscr_fmt_bytes((double)r->bytes_moved, moved, sizeof moved);
		snprintf(head, sizeof head, _("%s: step %.1f ms, %s moved, %s "
		    "holds at most %s"), lab, r->step_time * 1e3, moved,
		    sim_device_name(at, name, sizeof name), mem);
	}
	ui_put(w, y++, 1, head, cols - 2, ui_attr(UI_C_HEADING));
	shown = n < rows_max - 2 ? n : rows_max - 2;
	return draw_rows(p, w, y, shown, gw, span, cur);
}

/* span 0: each run on its own step (a measured run). */
static void
draw_stacked(struct pscr *ps, WINDOW *w, int rows, int cols, double span,
    const struct player *lead)
{
	int gw = cols - PSCR_LABEL_W - 1, cur, y = 1, per;

	cur = player_cursor_col(lead, gw, span);
	per = (rows - 4) / 2;
	y = stacked_run(&ps->pl, &ps->cmp, w, y, per, cols, span, cur);
	y = stacked_run(&ps->cmp, &ps->pl, w, y, per, cols, span, cur);
	pscr_draw_cursor_row(lead, w, y, cur, gw, span > 0 ? span :
	    lead->res.step_time);
}

/* Memory per GPU now, bars on a scale both runs share, with each peak. */
static void
side_memory(const struct player *p, WINDOW *w, int y, int rows, int cols,
    size_t scale)
{
	char name[16], now[32], peak[32], tail[80];
	int d, bw, tw;

	ui_put(w, y++, 1, _("memory per GPU now (peak in the step)"), cols - 2,
	    ui_attr(UI_C_HEADING));
	for (d = 0; d < player_devices(p) && d < rows - 1; d++, y++) {
		pscr_fmt_bytes((double)player_mem(p, d, p->now, NULL), now,
		    sizeof now);
		pscr_fmt_bytes((double)sim_timeline_peak(&p->res.tl, d), peak,
		    sizeof peak);
		snprintf(tail, sizeof tail, _("%s (peak %s)"), now, peak);
		tw = wrap_width(tail, strlen(tail));
		bw = cols - PSCR_LABEL_W - tw - 3;
		ui_put(w, y, 0, sim_device_name(d, name, sizeof name),
		    PSCR_LABEL_W - 1, ui_attr(UI_C_HEADING));
		if (bw < 4) {
			ui_put(w, y, PSCR_LABEL_W, tail,
			    cols - PSCR_LABEL_W - 1, A_NORMAL);
			continue;
		}
		ui_bar(w, y, PSCR_LABEL_W, bw, scale > 0 ? (double)player_mem(p,
		    d, p->now, NULL) / (double)scale : 0.0);
		ui_put(w, y, PSCR_LABEL_W + bw + 1, tail, tw, A_NORMAL);
	}
}

/*
 * Side by side: one run in a window h rows high. First its header, every
 * device row that fits, the lane and its own cursor; then, as rows allow,
 * its figures, the memory of each GPU (scale: the larger peak of the two
 * runs) and the transfers in flight.
 */
static void
side_run(const struct player *p, const struct player *other, WINDOW *w,
    int h, int cols, double span, size_t scale)
{
	const struct sim_result *r = &p->res;
	int gw = cols - PSCR_LABEL_W - 1, n = player_devices(p), shown, y, at;
	int cur = player_cursor_col(p, gw, span);
	char head[200], lab[48], mem[32], name[16], line[200];

	compare_label(p, other, span <= 0, lab, sizeof lab);
	snprintf(head, sizeof head, _("%s: step %.1f ms"), lab,
	    r->step_time * 1e3);
	ui_put(w, 0, 1, head, cols - 2, ui_attr(UI_C_HEADING));
	/* Header, rows, lane, cursor, a blank and the bubble line. */
	shown = h - 5 < n ? h - 5 : n;
	if (shown < 1)
		shown = 1;
	y = draw_rows(p, w, 1, shown, gw, span, cur);
	pscr_draw_cursor_row(p, w, y, cur, gw, span > 0 ? span :
	    r->step_time);
	y += 2;
	pscr_draw_stats(p, w, y, h - y >= 2 ? 2 : 1, cols);
	y += 2;
	if (h - y >= n + 2) {
		side_memory(p, w, y + 1, n + 1, cols, scale);
		y += n + 2;
	} else if (h - y >= 1) {
		at = peak_device(p, mem, sizeof mem);
		snprintf(line, sizeof line, _("memory: %s holds the most, %s"),
		    sim_device_name(at, name, sizeof name), mem);
		ui_put(w, y++, 1, line, cols - 2, A_NORMAL);
	}
	if (h - y >= 3) {
		ui_put(w, y + 1, 1, _("moving now"), cols - 2,
		    ui_attr(UI_C_HEADING));
		pscr_draw_flows(p, w, y + 2, h - y - 2 < 8 ? h - y - 2 : 8,
		    cols);
	}
}

static void
draw_side(struct pscr *ps, WINDOW *w, int rows, int cols, double span)
{
	int half = (cols - 1) / 2, h = rows - 1, y, legend;
	const char *bar = ui_term.utf8 ? "\u2502" : "|";
	size_t scale = ps->pl.peak > ps->cmp.peak ? ps->pl.peak : ps->cmp.peak;
	WINDOW *sub;

	/* The legend goes last when both runs' rows fit above it. */
	legend = h - 1 >= player_devices(&ps->pl) + 8 &&
	    h - 1 >= player_devices(&ps->cmp) + 8;
	if (legend)
		h--;
	if ((sub = derwin(w, h, half, 1, 0)) != NULL) {
		side_run(&ps->pl, &ps->cmp, sub, h, half, span, scale);
		wsyncup(sub);
		delwin(sub);
	}
	for (y = 1; y < 1 + h; y++)
		ui_put(w, y, half, bar, 1, ui_attr(UI_C_DIM));
	if ((sub = derwin(w, h, half, 1, half + 1)) != NULL) {
		side_run(&ps->cmp, &ps->pl, sub, h, half, span, scale);
		wsyncup(sub);
		delwin(sub);
	}
	if (legend)
		pscr_draw_legend(ps, w, rows - 1, cols);
}

void
pscr_draw_compare(struct pscr *ps, WINDOW *w, int rows, int cols)
{
	double span = ps->pl.res.step_time > ps->cmp.res.step_time ?
	    ps->pl.res.step_time : ps->cmp.res.step_time;
	const struct player *lead = ps->pl.res.step_time >=
	    ps->cmp.res.step_time ? &ps->pl : &ps->cmp;

	if (ps->pl.origin.measured) {
		span = 0;
		lead = &ps->pl;
	}
	if (cols >= PSCR_SIDE_COLS)
		draw_side(ps, w, rows, cols, span);
	else
		draw_stacked(ps, w, rows, cols, span, lead);
}
