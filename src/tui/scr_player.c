/*
 * scr_player.c - the animation player: the toy model's step played on
 * its devices.
 *
 * From the top: the configuration and play state, the lesson block's
 * caption, one box per device (what it holds, what it does now, its
 * memory), arrows between neighbouring boxes and a line per transfer in
 * flight, the bytes each link has carried, the Gantt chart with the
 * cursor and the bubble, the legend, and the measured figures. Every
 * figure comes from core/player; this file lays them out.
 *
 * The rows are budgeted (plan_rows): boxes, Gantt and figures first, then
 * the optional lines as the terminal allows. In projector mode the
 * bubble and the bytes moved are drawn in block digits below the Gantt
 * chart when the rows allow, without the legend. While playing, the screen
 * asks for a tick every 33 ms and advances the clock by the wall time
 * that really passed; paused, it asks for none, so the loop blocks.
 * ui.c redraws into stdscr and doupdate() sends only the cells that
 * changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/sim/player.h"
#include "core/wrap.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

#define TICK_MS		33	/* ~30 frames a second while playing */
#define BOX_MAX_W	30	/* widest device box, columns */
#define MAX_FLOWS	32	/* transfers listed at once, at most */
#define LABEL_W		4	/* "G0  " before a Gantt row */

struct pscr {
	struct app			*app;
	const struct content_animation	*an;	/* borrowed, may be NULL */
	struct sim_config		 block;	/* the block's config */
	int				 on_block;	/* playing the block's */
	struct player			 pl;
	int				 ok;	/* pl is initialised */
	char				 err[600];
	struct timespec			 last;	/* wall time of last tick */
	struct player_cell		*cells;	/* cached Gantt rows */
	int				 cells_w;	/* their width, 0 none */
	int				 max_flows;	/* most at once in the run */
};

/* Where each part goes; a count of 0 leaves the part out. */
struct plan {
	int	 cap_y, cap_n;		/* caption lines */
	int	 box_y, holds_n;	/* boxes: holds_n + 4 + detail_n rows */
	int	 detail_n;		/* memory by kind: 0 or SIM_NMEM */
	int	 flow_y, flow_n;
	int	 link_y, link_n;
	int	 gantt_y, gantt_n;	/* device rows; the cursor row follows */
	int	 legend_y;		/* -1 none */
	int	 stats_y, stats_n;
	int	 gap_n;			/* spare rows, spread as blank lines */
};

static const struct ui_key_help player_help[] = {
	{ N_("Space"), N_("play or pause") },
	{ N_("Right, l"), N_("step to the next event (pauses)") },
	{ N_("Left, h"), N_("step to the previous event") },
	{ N_("+, -"), N_("faster, slower") },
	{ N_("r"), N_("restart from the beginning") },
	{ N_("Tab"), N_("next mode: single, dp, tp, pp, fsdp, 3d") },
	{ N_("q, Esc"), N_("back") },
	{ NULL, NULL }
};

static void
fmt_bytes(double b, char *buf, size_t n)
{
	char num[20];
	const char *unit = ui_big_bytes(b, num, sizeof num);

	snprintf(buf, n, "%s %s", num, unit);
}

/* wrap_paragraph's emit when only the number of lines is wanted. */
static void
count_emit(const char *s, size_t n, void *arg)
{
	(void)s;
	(void)n;
	(void)arg;
}

static const char *
caption(const struct pscr *ps)
{
	if (ps->an == NULL || !ps->on_block || ps->an->caption == NULL)
		return NULL;
	return ps->an->caption;
}

/* Rows for the optional parts, in order of importance. */
static void
plan_optional(struct plan *pl, int extra, int cap_want, int nflows)
{
	static const int order[] = { 0, 1, 2, 3, 4, 5, 2, 3, 2, 3, 3, 4 };
	size_t i;

	for (i = 0; i < sizeof order / sizeof order[0] && extra > 0; i++) {
		switch (order[i]) {
		case 0:
			pl->holds_n++;
			break;
		case 1:
			pl->stats_n++;
			break;
		case 2:
			if (pl->flow_n >= (nflows > 1 ? nflows : 1))
				continue;
			pl->flow_n++;
			break;
		case 3:
			if (pl->cap_n >= cap_want)
				continue;
			pl->cap_n++;
			break;
		case 4:
			pl->link_n++;
			break;
		case 5:
			pl->legend_y = 0;
			break;
		}
		extra--;
	}
	for (; extra > 0 && pl->flow_n < nflows && pl->flow_n < 6; extra--)
		pl->flow_n++;
	if (extra >= SIM_NMEM + 1) {
		pl->detail_n = SIM_NMEM;
		extra -= SIM_NMEM;
	}
	if (cap_want > pl->cap_n && extra > 0) {
		i = (size_t)(extra < cap_want - pl->cap_n ? extra :
		    cap_want - pl->cap_n);
		pl->cap_n += (int)i;
		extra -= (int)i;
	}
	pl->gap_n = extra;
}

static void
plan_rows(const struct pscr *ps, int rows, int cols, struct plan *pl)
{
	int n = player_devices(&ps->pl), avail = rows - 2, need, y;
	int cap_want = 0, nflows = ps->max_flows < 3 ? 3 : ps->max_flows;

	memset(pl, 0, sizeof *pl);
	pl->legend_y = -1;
	pl->holds_n = 1;
	pl->stats_n = 1;
	pl->gantt_n = n;
	if (caption(ps) != NULL)
		cap_want = wrap_paragraph(_(caption(ps)), cols - 4, count_emit,
		    NULL);
	need = 5 + n + 1 + 1;
	if (need > avail) {
		pl->gantt_n -= need - avail;
		if (pl->gantt_n < 1)
			pl->gantt_n = 1;
	}
	plan_optional(pl, avail - (5 + pl->gantt_n + 2), cap_want, nflows);
	y = 1;
	pl->cap_y = y;
	y += pl->cap_n;
	pl->box_y = y;
	y += pl->holds_n + 4 + pl->detail_n;
	y += pl->gap_n > 2 ? 1 : 0;
	pl->flow_y = y;
	y += pl->flow_n;
	pl->link_y = y;
	y += pl->link_n;
	y += pl->gap_n > 0 ? 1 : 0;
	pl->gantt_y = y;
	y += pl->gantt_n + 1;
	if (pl->legend_y == 0)
		pl->legend_y = y++;
	y += pl->gap_n > 1 ? 1 : 0;
	pl->stats_y = y;
}

struct cap_draw {
	WINDOW	*w;
	int	 y, end;
};

static void
cap_emit(const char *s, size_t n, void *arg)
{
	struct cap_draw *d = arg;
	char line[512];

	if (d->y >= d->end || n >= sizeof line)
		return;
	memcpy(line, s, n);
	line[n] = '\0';
	ui_put(d->w, d->y++, 2, line, 1000, A_NORMAL);
}

static void
draw_title(struct pscr *ps, WINDOW *w, int cols)
{
	const struct sim_config *c = &ps->pl.cfg;
	const struct sim_result *r = &ps->pl.res;
	char t[256], right[64];
	int len;

	if (c->mode == SIM_3D)
		len = snprintf(t, sizeof t, _("Animation: %s, %d GPUs = dp %d x "
		    "tp %d x pp %d"), sim_mode_name(c->mode),
		    player_devices(&ps->pl), r->dp, r->tp, r->pp);
	else
		len = snprintf(t, sizeof t, P_("Animation: %s, %d GPU",
		    "Animation: %s, %d GPUs", player_devices(&ps->pl)),
		    sim_mode_name(c->mode), player_devices(&ps->pl));
	if (r->pp > 1 && len > 0 && (size_t)len < sizeof t)
		len += snprintf(t + len, sizeof t - (size_t)len,
		    _(", %s, m=%d"), pipe_schedule_name(c->schedule),
		    c->microbatches);
	if (ps->pl.v > 1 && len > 0 && (size_t)len < sizeof t)
		snprintf(t + len, sizeof t - (size_t)len, _(", v=%d"),
		    ps->pl.v);
	if (ps->pl.playing)
		snprintf(right, sizeof right, _("%s playing %gx"),
		    ui_glyph_arrow(), player_speed_factor(&ps->pl));
	else
		snprintf(right, sizeof right, _("paused %gx"),
		    player_speed_factor(&ps->pl));
	ui_title(w, cols, t, right);
}

/* Memory by kind, one line each, below the bar. */
static void
draw_mem_detail(struct pscr *ps, WINDOW *w, int dev, int y, int x, int width)
{
	static const char *const kind[SIM_NMEM] = {
		N_("params"), N_("grads"), N_("Adam"), N_("acts")
	};
	size_t by[SIM_NMEM];
	char b[32];
	int k, kw;

	player_mem(&ps->pl, dev, ps->pl.now, by);
	for (k = 0; k < SIM_NMEM; k++) {
		kw = ui_put(w, y + k, x, _(kind[k]), width, ui_attr(UI_C_DIM));
		fmt_bytes((double)by[k], b, sizeof b);
		if (kw + 1 + (int)strlen(b) <= width)
			ui_put(w, y + k, x + width - (int)strlen(b), b,
			    (int)strlen(b), A_NORMAL);
	}
}

/* What dev is doing now, long or compact. */
static void
doing_text(const struct sim_event *e, int compact, char *buf, size_t n)
{
	if (e == NULL)
		snprintf(buf, n, "%s", _("idle"));
	else if (e->kind == SIM_FORWARD)
		snprintf(buf, n, compact ? "F%d m%d" : _("forward L%d mb %d"),
		    e->layer, e->microbatch);
	else if (e->kind == SIM_BACKWARD)
		snprintf(buf, n, compact ? "B%d m%d" : _("backward L%d mb %d"),
		    e->layer, e->microbatch);
	else if (e->kind == SIM_OPTIMIZER)
		snprintf(buf, n, "%s", compact ? "opt" : _("optimizer step"));
	else if (compact)
		snprintf(buf, n, "%s", e->kind == SIM_ALL_REDUCE ? "AR" :
		    e->kind == SIM_ALL_GATHER ? "AG" : "RS");
	else
		snprintf(buf, n, "%s", sim_kind_name(e->kind));
}

static void
draw_box(struct pscr *ps, WINDOW *w, const struct plan *pl, int dev, int x,
    int bw)
{
	const struct sim_event *e = player_busy(&ps->pl, dev, ps->pl.now);
	int inner = bw - 2, compact = inner < 15, y = pl->box_y, i, bar, lab;
	double frac;
	char buf[64], mem[32];
	size_t bytes;

	ui_box(w, y, x, pl->holds_n + 4 + pl->detail_n, bw);
	snprintf(buf, sizeof buf, "G%d", dev);
	ui_put(w, y, x + 1, buf, inner, ui_attr(e != NULL ?
	    UI_C_ACCENT : UI_C_HEADING));
	for (i = 0; i < pl->holds_n; i++)
		ui_put(w, y + 1 + i, x + 1, player_holds(&ps->pl, dev, i,
		    compact, buf, sizeof buf), inner, A_NORMAL);
	y += 1 + pl->holds_n;
	doing_text(e, compact, buf, sizeof buf);
	ui_put(w, y, x + 1, buf, inner, ui_attr(e == NULL ? UI_C_DIM :
	    e->kind == SIM_FORWARD ? UI_C_DONE : e->kind == SIM_BACKWARD ?
	    UI_C_STARTED : UI_C_ACCENT));
	bytes = player_mem(&ps->pl, dev, ps->pl.now, NULL);
	frac = ps->pl.peak > 0 ? (double)bytes / (double)ps->pl.peak : 0.0;
	fmt_bytes((double)bytes, mem, sizeof mem);
	lab = inner >= 18 ? 4 : 0;
	bar = inner >= 14 ? inner - 9 - lab : inner;
	if (lab > 0)
		ui_put(w, y + 1, x + 1, _("mem"), lab - 1, ui_attr(UI_C_DIM));
	ui_bar(w, y + 1, x + 1 + lab, bar, frac);
	if (bar + lab < inner)
		ui_put(w, y + 1, x + 2 + lab + bar, mem, inner - bar - lab - 1,
		    A_NORMAL);
	if (pl->detail_n > 0)
		draw_mem_detail(ps, w, dev, y + 2, x + 1, inner);
}

static void
draw_boxes(struct pscr *ps, WINDOW *w, const struct plan *pl, int cols)
{
	int n = player_devices(&ps->pl), bw, x0, d, r, l;
	const char *g;

	bw = (cols - (n - 1)) / n;
	if (bw > BOX_MAX_W)
		bw = BOX_MAX_W;
	if (bw < 3)
		bw = 3;
	x0 = (cols - (n * bw + n - 1)) / 2;
	if (x0 < 0)
		x0 = 0;
	for (d = 0; d < n; d++)
		draw_box(ps, w, pl, d, x0 + d * (bw + 1), bw);
	for (d = 0; d + 1 < n; d++) {
		r = player_link_active(&ps->pl, ps->pl.now, d, d + 1);
		l = player_link_active(&ps->pl, ps->pl.now, d + 1, d);
		if (!r && !l)
			continue;
		g = r && l ? ui_glyph_both() : r ? ui_glyph_right() :
		    ui_glyph_left();
		ui_put(w, pl->box_y + 2 + pl->holds_n - 1, x0 + d * (bw + 1) +
		    bw, g, 1, ui_attr(UI_C_ACCENT));
	}
}

static const char *
what_text(enum player_what wh)
{
	switch (wh) {
	case PLAYER_W_ACTS:
		return _("activations");
	case PLAYER_W_ACT_GRADS:
		return _("activation gradients");
	case PLAYER_W_PARAMS:
		return _("parameters");
	case PLAYER_W_GRADS:
		return _("weight gradients");
	default:
		return "";
	}
}

static void
flow_text(const struct player_flow *f, char *buf, size_t n)
{
	char who[64];
	size_t used = 0;
	int d;

	who[0] = '\0';
	if (f->from >= 0)
		snprintf(who, sizeof who, "G%d%sG%d", f->from,
		    ui_glyph_right(), f->to);
	else
		for (d = 0; d < PLAYER_MAX_DEVICES && used < sizeof who; d++)
			if (f->members & (1u << d))
				used += (size_t)snprintf(who + used,
				    sizeof who - used, "%sG%d",
				    used > 0 ? "," : "", d);
	if (f->mb >= 0)
		snprintf(buf, n, _("%s %s: %s of L%d, mb %d"),
		    sim_kind_name(f->kind), who, what_text(f->what), f->layer,
		    f->mb);
	else
		snprintf(buf, n, _("%s %s: %s"), sim_kind_name(f->kind), who,
		    what_text(f->what));
}

static void
draw_flows(struct pscr *ps, WINDOW *w, const struct plan *pl, int cols)
{
	struct player_flow fl[MAX_FLOWS];
	size_t n, i;
	char text[160], b[32];
	int y = pl->flow_y, tw = cols - 22 > 60 ? 60 : cols - 22;

	n = player_flows(&ps->pl, ps->pl.now, fl, MAX_FLOWS);
	if (pl->flow_n > 0 && n == 0)
		ui_put(w, y, 2, _("no data moving"), cols - 4,
		    ui_attr(UI_C_DIM));
	for (i = 0; i < n && (int)i < pl->flow_n; i++, y++) {
		if ((int)i == pl->flow_n - 1 && n > i + 1) {
			snprintf(text, sizeof text, _("and %zu more transfers"),
			    n - i);
			ui_put(w, y, 2, text, cols - 4, ui_attr(UI_C_DIM));
			break;
		}
		flow_text(&fl[i], text, sizeof text);
		ui_put(w, y, 2, text, tw - 1, ui_attr(UI_C_ACCENT));
		ui_bar(w, y, tw + 2, 10, fl[i].progress);
		fmt_bytes((double)fl[i].bytes, b, sizeof b);
		ui_put(w, y, tw + 13, b, 8, A_NORMAL);
	}
}

static void
draw_links(struct pscr *ps, WINDOW *w, const struct plan *pl, int cols)
{
	const struct player_link *l = player_links_at(&ps->pl, ps->pl.now);
	int y = pl->link_y, x, used;
	char item[48], b[32];
	size_t i;

	if (pl->link_n == 0)
		return;
	x = 2 + ui_put(w, y, 2, _("bytes per link:"), cols - 4,
	    ui_attr(UI_C_HEADING));
	if (ps->pl.n_links == 0)
		ui_put(w, y, x + 1, _("none (one device, nothing to send)"),
		    cols - x - 2, ui_attr(UI_C_DIM));
	for (i = 0; i < ps->pl.n_links; i++) {
		fmt_bytes(l[i].bytes, b, sizeof b);
		snprintf(item, sizeof item, "G%d-G%d %s", l[i].a, l[i].b, b);
		used = wrap_width(item, strlen(item)) + 2;
		if (x + used > cols - 1) {
			if (++y >= pl->link_y + pl->link_n)
				break;
			x = 2;
		}
		ui_put(w, y, x + 1, item, used, A_NORMAL);
		x += used;
	}
}

static void
cell_glyph(const struct player_cell *c, char *g, int *attr)
{
	static const char sym[] = "  =<>*";

	g[1] = '\0';
	switch (c->kind) {
	case PLAYER_CELL_FORWARD:
		g[0] = (char)('A' + (c->mb < 0 ? 0 : c->mb % 26));
		*attr = ui_attr(UI_C_DONE);
		return;
	case PLAYER_CELL_BACKWARD:
		g[0] = (char)('a' + (c->mb < 0 ? 0 : c->mb % 26));
		*attr = ui_attr(UI_C_STARTED);
		return;
	case PLAYER_CELL_BUBBLE:
		snprintf(g, 8, "%s", ui_glyph_bubble());
		*attr = ui_attr(UI_C_DIM);
		return;
	default:
		g[0] = sym[c->kind - PLAYER_CELL_FORWARD];
		*attr = ui_attr(UI_C_ACCENT);
	}
}

/* The Gantt rows of every device at width gw, cached until it changes. */
static const struct player_cell *
gantt_cells(struct pscr *ps, int gw)
{
	int n = player_devices(&ps->pl), d;
	struct player_cell *c;

	if (ps->cells != NULL && ps->cells_w == gw)
		return ps->cells;
	c = realloc(ps->cells, (size_t)(n * gw) * sizeof *c);
	if (c == NULL)
		return NULL;
	ps->cells = c;
	ps->cells_w = gw;
	for (d = 0; d < n; d++)
		player_gantt_row(&ps->pl, d, gw, c + d * gw);
	return c;
}

static void
draw_cursor_row(struct pscr *ps, WINDOW *w, int y, int cur, int gw)
{
	char t[96];
	int tw;

	snprintf(t, sizeof t, _("t = %.1f of %.1f us"), ps->pl.now * 1e6,
	    ps->pl.res.step_time * 1e6);
	tw = wrap_width(t, strlen(t));
	ui_put(w, y, LABEL_W + cur, "^", 1, ui_attr(UI_C_ACCENT));
	if (cur + 2 + tw <= gw)
		ui_put(w, y, LABEL_W + cur + 2, t, tw, ui_attr(UI_C_DIM));
	else if (cur - 1 - tw >= 0)
		ui_put(w, y, LABEL_W + cur - 1 - tw, t, tw, ui_attr(UI_C_DIM));
}

static void
draw_gantt(struct pscr *ps, WINDOW *w, const struct plan *pl, int cols)
{
	int gw = cols - LABEL_W - 1, cur, d, c, attr;
	const struct player_cell *cells = gantt_cells(ps, gw);
	char g[8], lab[16];

	if (cells == NULL || gw < 1)
		return;
	cur = player_cursor_col(&ps->pl, gw);
	for (d = 0; d < pl->gantt_n; d++) {
		snprintf(lab, sizeof lab, "G%d", d);
		ui_put(w, pl->gantt_y + d, 0, lab, LABEL_W - 1,
		    ui_attr(UI_C_HEADING));
		for (c = 0; c < gw; c++) {
			cell_glyph(&cells[d * gw + c], g, &attr);
			if (c == cur)
				attr |= A_REVERSE;
			wattron(w, attr);
			mvwaddstr(w, pl->gantt_y + d, LABEL_W + c, g);
			wattroff(w, attr);
		}
	}
	draw_cursor_row(ps, w, pl->gantt_y + pl->gantt_n, cur, gw);
}

/* The legend of the kinds of cell the Gantt chart shows, hint first. */
static int
legend_compose(const int *seen, int hint, char *buf, size_t n)
{
	static const char *const what[] = {
		NULL, N_("A-Z forward, a-z backward"), NULL,
		N_("= all-reduce"), N_("< all-gather"), N_("> reduce-scatter"),
		N_("* optimizer")
	};
	int i, len = 0;

	buf[0] = '\0';
	for (i = 0; i <= PLAYER_CELL_OPTIMIZER && len >= 0 &&
	    (size_t)len < n; i++)
		if (seen[i] && what[i] != NULL)
			len += snprintf(buf + len, n - (size_t)len, "%s%s%s",
			    len > 0 ? ", " : "", i == PLAYER_CELL_FORWARD &&
			    !hint ? _("A-Z fwd, a-z bwd") : _(what[i]),
			    hint && i == PLAYER_CELL_FORWARD ?
			    _(" (letter = microbatch)") : "");
	if (len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, _(", %s bubble"),
		    ui_glyph_bubble());
	return wrap_width(buf, strlen(buf));
}

static void
legend_text(struct pscr *ps, int cols, char *buf, size_t n)
{
	const struct player_cell *c = gantt_cells(ps, cols - LABEL_W - 1);
	int seen[PLAYER_CELL_OPTIMIZER + 1] = { 0 }, i;

	for (i = 0; c != NULL && i < player_devices(&ps->pl) * ps->cells_w;
	    i++)
		seen[c[i].kind] = 1;
	seen[PLAYER_CELL_FORWARD] = 1;
	if (legend_compose(seen, 1, buf, n) > cols - 2)
		legend_compose(seen, 0, buf, n);
}

static void
draw_stats(struct pscr *ps, WINDOW *w, const struct plan *pl, int cols)
{
	const struct sim_result *r = &ps->pl.res;
	char line[256], b[32];

	if (r->pp > 1)
		snprintf(line, sizeof line, _("bubble: %.1f%% measured with "
		    "transfer waits, %.1f%% by (p-1)/(v*m+p-1), compute only"),
		    100.0 * r->bubble, 100.0 * r->bubble_formula);
	else
		snprintf(line, sizeof line, _("bubble: %.1f%% measured; no "
		    "pipeline, so the formula gives 0"), 100.0 * r->bubble);
	if (r->pp > 1 && wrap_width(line, strlen(line)) > cols - 2)
		snprintf(line, sizeof line, _("bubble: %.1f%% measured, "
		    "%.1f%% by the formula (p-1)/(v*m+p-1)"), 100.0 * r->bubble,
		    100.0 * r->bubble_formula);
	if (wrap_width(line, strlen(line)) > cols - 2)
		snprintf(line, sizeof line, _("bubble %.1f%%, formula %.1f%%"),
		    100.0 * r->bubble, 100.0 * r->bubble_formula);
	ui_put(w, pl->stats_y, 1, line, cols - 2, ui_attr(UI_C_ACCENT));
	if (pl->stats_n < 2)
		return;
	fmt_bytes((double)r->bytes_moved, b, sizeof b);
	snprintf(line, sizeof line, _("loss %.12g, max gradient error vs "
	    "single %.2g, %s moved"), r->loss, r->max_grad_error, b);
	ui_put(w, pl->stats_y + 1, 1, line, cols - 2, A_NORMAL);
}

/* Projector: the bubble and the bytes moved in block digits. */
static void
draw_big_stats(struct pscr *ps, WINDOW *w, int y, int rows, int cols)
{
	const struct sim_result *r = &ps->pl.res;
	char bub[16], form[16], b[32], lab[64];
	struct ui_figure f[3] = {
		{ bub, _("bubble, measured"), ui_attr(UI_C_ACCENT) },
		{ form, _("bubble by the formula"), ui_attr(UI_C_HEADING) },
		{ b, lab, ui_attr(UI_C_DONE) }
	};

	snprintf(bub, sizeof bub, "%.1f%%", 100.0 * r->bubble);
	snprintf(form, sizeof form, "%.1f%%", 100.0 * r->bubble_formula);
	snprintf(lab, sizeof lab, _("%s moved in the step"), ui_big_bytes(
	    (double)r->bytes_moved, b, sizeof b));
	if (r->pp <= 1)		/* no pipeline: no formula */
		f[1] = f[2];
	ui_big_figures(w, y, 1, cols - 2, rows - 1 - y, f, r->pp > 1 ? 3 : 2);
}

static void
player_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct pscr *ps = s->state;
	struct plan pl;
	struct cap_draw cd;
	char legend[256];
	int big;

	if (!ps->ok) {
		ui_title(w, cols, _("Animation"), NULL);
		ui_put(w, 2, 2, ps->err, cols - 4, ui_attr(UI_C_WARN));
		ui_status(w, rows, cols, _("q back  Tab next mode  ? keys"),
		    ui_attr(UI_C_DIM));
		return;
	}
	/* Projector: room below the essentials for the big figures. */
	big = ps->app->projector && rows - UI_BIG_ROWS - 1 >= 9 +
	    player_devices(&ps->pl);
	plan_rows(ps, big ? rows - UI_BIG_ROWS - 1 : rows, cols, &pl);
	draw_title(ps, w, cols);
	if (pl.cap_n > 0) {
		cd.w = w;
		cd.y = pl.cap_y;
		cd.end = pl.cap_y + pl.cap_n;
		wrap_paragraph(_(caption(ps)), cols - 4, cap_emit, &cd);
	}
	draw_boxes(ps, w, &pl, cols);
	draw_flows(ps, w, &pl, cols);
	draw_links(ps, w, &pl, cols);
	draw_gantt(ps, w, &pl, cols);
	if (pl.legend_y >= 0 && !big) {
		legend_text(ps, cols, legend, sizeof legend);
		ui_put(w, pl.legend_y, 1, legend, cols - 2, ui_attr(UI_C_DIM));
	}
	if (big)
		draw_big_stats(ps, w, pl.stats_y + 1, rows, cols);
	else
		draw_stats(ps, w, &pl, cols);
	ui_status(w, rows, cols, cols >= 78 ? _("Space play  Left/Right step  "
	    "+/- speed  r restart  Tab mode  q back  ? keys") :
	    _("Space play  Left/Right step  q back  ? keys"),
	    ui_attr(UI_C_DIM));
}

/* Load cfg into the player; on failure the screen shows err. */
static void
load(struct pscr *ps, const struct sim_config *cfg)
{
	struct player_flow fl[MAX_FLOWS];
	struct pl_err err;
	int playing = ps->ok && ps->pl.playing, n;
	size_t i;

	if (ps->ok)
		player_free(&ps->pl);
	ps->ok = player_init(&ps->pl, cfg, &err) == 0;
	if (!ps->ok)
		snprintf(ps->err, sizeof ps->err, "%s", err.msg);
	else
		ps->pl.playing = playing;
	ps->cells_w = 0;
	ps->max_flows = 0;
	for (i = 0; ps->ok && i < ps->pl.n_stops; i++) {
		n = (int)player_flows(&ps->pl, ps->pl.stops[i], fl, MAX_FLOWS);
		if (n > ps->max_flows)
			ps->max_flows = n;
	}
	clock_gettime(CLOCK_MONOTONIC, &ps->last);
}

static void
next_mode(struct pscr *ps)
{
	struct sim_config cfg;
	enum sim_mode m = player_next_mode(ps->ok ? ps->pl.cfg.mode :
	    ps->block.mode);

	ps->on_block = ps->an != NULL && m == ps->block.mode;
	if (ps->on_block)
		cfg = ps->block;
	else
		player_config_default(&cfg, m);
	load(ps, &cfg);
}

static enum ui_result
player_key(struct ui_screen *s, int ch)
{
	struct pscr *ps = s->state;

	if (ch == 'q' || ch == 'Q' || ch == 27)
		return UI_BACK;
	if (ch == '\t') {
		next_mode(ps);
		return UI_HANDLED;
	}
	if (!ps->ok)
		return UI_IGNORED;
	switch (ch) {
	case ' ':
		player_toggle(&ps->pl);
		clock_gettime(CLOCK_MONOTONIC, &ps->last);
		return UI_HANDLED;
	case KEY_RIGHT:
	case 'l':
		player_step(&ps->pl, 1);
		return UI_HANDLED;
	case KEY_LEFT:
	case 'h':
		player_step(&ps->pl, -1);
		return UI_HANDLED;
	case '+':
	case '=':
		player_speed_change(&ps->pl, 1);
		return UI_HANDLED;
	case '-':
	case '_':
		player_speed_change(&ps->pl, -1);
		return UI_HANDLED;
	case 'r':
		player_restart(&ps->pl);
		clock_gettime(CLOCK_MONOTONIC, &ps->last);
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

static int
player_next_tick(struct ui_screen *s)
{
	struct pscr *ps = s->state;

	return ps->ok && ps->pl.playing ? TICK_MS : -1;
}

static void
player_tick(struct ui_screen *s)
{
	struct pscr *ps = s->state;
	struct timespec now;
	double dt;

	clock_gettime(CLOCK_MONOTONIC, &now);
	dt = (double)(now.tv_sec - ps->last.tv_sec) +
	    (double)(now.tv_nsec - ps->last.tv_nsec) / 1e9;
	ps->last = now;
	if (dt > 0.5)
		dt = 0.5;
	if (ps->ok)
		player_advance(&ps->pl, dt);
}

static void
player_scr_free(struct ui_screen *s)
{
	struct pscr *ps = s->state;

	if (ps == NULL)
		return;
	if (ps->ok)
		player_free(&ps->pl);
	free(ps->cells);
	free(ps);
}

struct ui_screen *
ui_player_new(struct app *a, const struct content_animation *an)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct pscr *ps = calloc(1, sizeof *ps);
	struct pl_err err;

	if (s == NULL || ps == NULL) {
		free(s);
		free(ps);
		return NULL;
	}
	ps->app = a;
	ps->an = an;
	player_config_default(&ps->block, SIM_PP);
	if (an != NULL && player_config_from_block(an, &ps->block,
	    &err) != 0) {
		snprintf(ps->err, sizeof ps->err, "%s", err.msg);
	} else {
		ps->on_block = an != NULL;
		load(ps, &ps->block);
	}
	s->title = N_("Animation");
	s->help = player_help;
	s->draw = player_draw;
	s->key = player_key;
	s->next_tick_ms = player_next_tick;
	s->tick = player_tick;
	s->free = player_scr_free;
	s->state = ps;
	return s;
}
