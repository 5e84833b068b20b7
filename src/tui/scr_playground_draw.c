/*
 * scr_playground_draw.c - drawing the playground: the knob column, the
 * figures panel (memory and step-time stacked bars, every figure with its
 * change since the previous setting or since the start, as the column's
 * header says, the engine's reasons), the incident
 * panel of a scenario and the ranked search. Only draws: every number is
 * read from a cm_result, a cm_search or an sc_grade computed in core.
 * Memory is shown in GB = 1e9 bytes; glyphs tell the bar segments apart,
 * colour only repeats them. In projector mode the figures panel is the
 * selected knob and the key figures in block digits, nothing else. Text
 * that does not fit ends with an ellipsis (ui_put_cut).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/wrap.h"
#include "tui/draw.h"
#include "tui/scr_playground.h"
#include "tui/term.h"

/* Column layout of the wide form (cols >= PGS_WIDE). */
#define PGS_WIDE	72
#define KNOB_LABEL_W	17
#define KNOB_VALUE_W	11
#define KNOB_W		(1 + KNOB_LABEL_W + 1 + KNOB_VALUE_W + 1 + 4)
/* Right-hand columns of a figure row: value and change. */
#define VAL_W		8
#define DELTA_W		9

#define GB(x)	((x) / 1e9)


/* Segment glyphs, Unicode or ASCII, and their colour hints. */
static const char *
seg_glyph(int i)
{
	static const char *const u[] = { "\u2588", "\u2593", "\u2592",
	    "\u2591", "\u00b7" };
	static const char *const a[] = { "#", "=", "%", "*", "." };

	return ui_term.utf8 ? u[i % 5] : a[i % 5];
}

static int
seg_attr(int i)
{
	static const enum ui_color c[] = { UI_C_ACCENT, UI_C_STARTED,
	    UI_C_HEADING, UI_C_DONE, UI_C_DIM };

	return ui_attr(c[i % 5]);
}

/*
 * A stacked bar of n parts over width cells scaled to scale; cap > 0 draws
 * a capacity line and marks cells past it.
 */
static void
stacked_bar(WINDOW *w, int y, int x, int width, const double *parts, int n,
    double scale, double cap)
{
	int i, seg, cap_at = -1;
	double at, sum;

	if (width < 3 || scale <= 0)
		return;
	ui_put(w, y, x, "[", 1, ui_attr(UI_C_DIM));
	ui_put(w, y, x + width - 1, "]", 1, ui_attr(UI_C_DIM));
	width -= 2;
	if (cap > 0)
		cap_at = (int)floor(cap / scale * width);
	for (i = 0; i < width; i++) {
		at = (i + 0.5) * scale / width;
		for (seg = 0, sum = parts[0]; seg < n - 1 && at > sum; )
			sum += parts[++seg];
		if (at > sum)
			continue;
		ui_put(w, y, x + 1 + i, seg_glyph(seg), 1, cap_at >= 0 &&
		    i >= cap_at ? ui_attr(UI_C_WARN) : seg_attr(seg));
	}
	if (cap_at >= 0 && cap_at < width)
		ui_put(w, y, x + 1 + cap_at, "|", 1, ui_attr(UI_C_WARN) |
		    A_BOLD);
}

/* Seconds with a precision that suits the size. */
static void
fmt_s(char *buf, size_t n, double v, int sign)
{
	double a = fabs(v);

	snprintf(buf, n, sign ? (a >= 100 ? "%+.1f" : a >= 1 ? "%+.2f" :
	    "%+.3f") : (a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f"), v);
}

/* Value and change text of figure f. */
static void
fmt_fig(const struct pgs *p, enum pg_fig f, char *val, char *del, size_t n)
{
	double v = pg_figure(&p->pg.cur, f), d = pg_delta_from(&p->pg, f,
	    p->base);
	int unchanged;

	if (f <= PG_F_MEM_TOTAL) {
		snprintf(val, n, "%.1f", GB(v));
		snprintf(del, n, "%+.1f", GB(d));
		unchanged = fabs(GB(d)) < 0.05;
	} else if (f <= PG_F_T_STEP) {
		fmt_s(val, n, v, 0);
		fmt_s(del, n, d, 1);
		unchanged = fabs(d) < 5e-4 * (fabs(v) > 1 ? fabs(v) : 1);
	} else if (f == PG_F_TOKENS) {
		snprintf(val, n, "%.0f", v);
		snprintf(del, n, "%+.0f", d);
		unchanged = fabs(d) < 0.5;
	} else {
		snprintf(val, n, "%.1f%%", 100 * v);
		snprintf(del, n, _("%+.1f pt"), 100 * d);
		unchanged = fabs(100 * d) < 0.05;
	}
	if (!pg_has_base(&p->pg, p->base))
		snprintf(del, n, "%s", "");
	else if (unchanged)
		snprintf(del, n, "%s", "=");
}

/* One figure row: glyph (seg >= 0), label, value, change. */
static void
fig_row(const struct pgs *p, WINDOW *w, const struct pgs_box *b, int y, int seg,
    const char *label, enum pg_fig f)
{
	char val[32], del[32];
	double d = pg_delta_from(&p->pg, f, p->base);
	int good, attr = ui_attr(UI_C_DIM);

	if (y >= b->y + b->h)
		return;
	fmt_fig(p, f, val, del, sizeof val);
	if (seg >= 0)
		ui_put(w, y, b->x, seg_glyph(seg), 1, seg_attr(seg));
	ui_put_cut(w, y, b->x + 2, label, b->w - VAL_W - DELTA_W - 2,
	    (int)A_NORMAL);
	ui_put(w, y, b->x + b->w - VAL_W - DELTA_W + (VAL_W - 1 -
	    (int)strlen(val)), val, VAL_W, ui_attr(UI_C_ACCENT));
	/* Colour hint: green when the change helps, warn when it hurts. */
	good = f == PG_F_MFU || f == PG_F_TOKENS ? d > 0 : d < 0;
	if (strcmp(del, "=") != 0 && del[0] != '\0')
		attr = ui_attr(good ? UI_C_DONE : UI_C_WARN);
	ui_put(w, y, b->x + b->w - (int)strlen(del), del, DELTA_W, attr);
}

static void
flow_emit(const char *s, size_t n, void *arg)
{
	struct pgs_flow *f = arg;
	char line[1024];
	int indent = f->indent;

	f->total++;
	if (f->prefix != NULL) {
		snprintf(line, sizeof line, "%s%.*s", f->prefix, (int)n, s);
		f->prefix = NULL;
		f->indent += f->hang;
	} else {
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, s, n);
		line[n] = '\0';
	}
	if (f->skip > 0) {
		f->skip--;
		return;
	}
	if (f->y >= f->b.y + f->b.h) {
		f->more = 1;
		return;
	}
	ui_put_cut(f->w, f->y++, f->b.x + indent, line, f->b.w - indent,
	    f->attr);
}

void
pgs_flow_text(struct pgs_flow *f, const char *text, int indent, int attr)
{
	f->indent = indent;
	f->attr = attr;
	f->prefix = NULL;
	wrap_paragraph(text, f->b.w - indent, flow_emit, f);
}

/* Narrowest text column worth a hanging indent; below it, no hang. */
#define HANG_MIN_TEXT	12

void
pgs_flow_hang(struct pgs_flow *f, const char *prefix, const char *text,
    int indent, int attr)
{
	char line[2200];
	int hang = wrap_width(prefix, strlen(prefix));

	if (f->b.w - indent - hang < HANG_MIN_TEXT) {
		snprintf(line, sizeof line, "%s%s", prefix, text);
		pgs_flow_text(f, line, indent, attr);
		return;
	}
	f->indent = indent;
	f->attr = attr;
	f->prefix = prefix;
	f->hang = hang;
	wrap_paragraph(text, f->b.w - indent - hang, flow_emit, f);
	f->prefix = NULL;
}

static void
draw_reasons(const struct pgs *p, WINDOW *w, const struct pgs_box *b, int y)
{
	struct pgs_flow f = { w, { y, b->x, b->y + b->h - y, b->w }, y, 0, 0, 0,
	    0, 0, NULL, 0 };
	char line[CM_REASON_LEN + 8];
	int i;

	for (i = 0; i < p->pg.cur.n_reasons; i++) {
		snprintf(line, sizeof line, "- %s", p->pg.cur.reasons[i].text);
		pgs_flow_text(&f, line, 0, ui_attr(UI_C_DIM));
	}
}

/*
 * The engine's reason once; the degrees' product only when it is not the
 * reason (cm_validate already quotes it when it does not match the GPUs).
 */
static void
draw_invalid(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	struct pgs_flow f = { w, *b, b->y, 0, 0, 0, 0, 0, NULL, 0 };
	char line[200], named[96];
	const struct cm_config *c = &p->pg.cfg;
	long prod = cm_layout_gpus(c);
	struct mesh m;

	pgs_flow_text(&f, _("This combination is not a valid layout:"), 0,
	    ui_attr(UI_C_WARN));
	pgs_flow_text(&f, p->pg.why, 2, (int)A_NORMAL);
	f.y++;
	if (prod == c->gpus) {
		cm_mesh(c, &m);
		snprintf(line, sizeof line, _("%s = %ld GPUs, as it should "
		    "be."), mesh_layout_text(&m, named, sizeof named), prod);
		pgs_flow_text(&f, line, 2, ui_attr(UI_C_DIM));
	}
	pgs_flow_text(&f, p->base == PG_VS_START ? _("Turn a knob to get back "
	    "to a valid layout; the change column compares it with the "
	    "start.") : _("Turn a knob to get back to a valid layout; the "
	    "change column then compares with the last valid one."), 2,
	    ui_attr(UI_C_DIM));
}

/*
 * A section heading and its column heads, right-aligned over their
 * columns: "now", and what the change is measured from.
 */
static void
draw_heading(const struct pgs *p, WINDOW *w, const struct pgs_box *b, int y,
    const char *title)
{
	const char *now = _("now"), *vs = p->base == PG_VS_START ?
	    _("vs start") : _("vs prev");
	int nw = wrap_width(now, strlen(now)), vw = wrap_width(vs, strlen(vs));

	nw = nw < VAL_W - 1 ? nw : VAL_W - 1;
	vw = vw < DELTA_W ? vw : DELTA_W;
	ui_put_cut(w, y, b->x, title, b->w - VAL_W - DELTA_W - 1,
	    ui_attr(UI_C_HEADING));
	ui_put(w, y, b->x + b->w - DELTA_W - 1 - nw, now, nw,
	    ui_attr(UI_C_DIM));
	ui_put(w, y, b->x + b->w - vw, vs, vw, ui_attr(UI_C_DIM));
}

static void
draw_figures(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	static const char *const mem_labels[] = { N_("parameters"),
	    N_("gradients"), N_("optimizer states"), N_("activations"),
	    N_("other (buffers)") };
	static const char *const time_labels[] = { N_("compute"),
	    N_("exposed comm"), N_("bubble"), N_("optimizer step") };
	const struct cm_result *r = &p->pg.cur;
	double parts[5], scale;
	char label[80];
	int i, y = b->y;

	if (!p->pg.cur_valid) {
		draw_invalid(p, w, b);
		return;
	}
	for (i = 0; i < 5; i++)
		parts[i] = pg_figure(r, (enum pg_fig)(PG_F_MEM_PARAMS + i));
	draw_heading(p, w, b, y++, _("Memory/GPU, GB (1e9 B)"));
	scale = r->mem_total > r->mem_gpu ? r->mem_total : r->mem_gpu;
	stacked_bar(w, y++, b->x, b->w, parts, 5, scale, r->mem_usable);
	for (i = 0; i < 5; i++)
		fig_row(p, w, b, y++, i, _(mem_labels[i]),
		    (enum pg_fig)(PG_F_MEM_PARAMS + i));
	snprintf(label, sizeof label, r->fits ? _("total, fits %.1f usable") :
	    _("total, OVER %.1f usable"), GB(r->mem_usable));
	fig_row(p, w, b, y++, -1, label, PG_F_MEM_TOTAL);
	if (y < b->y + b->h)
		draw_heading(p, w, b, y++, _("Step time, s"));
	for (i = 0; i < 4; i++)
		parts[i] = pg_figure(r, (enum pg_fig)(PG_F_T_COMPUTE + i));
	if (y < b->y + b->h)
		stacked_bar(w, y++, b->x, b->w, parts, 4, r->t_step, 0);
	for (i = 0; i < 4; i++) {
		if (i == 2)
			snprintf(label, sizeof label, _("bubble (%.1f%%)"),
			    100 * r->bubble_fraction);
		fig_row(p, w, b, y++, i, i == 2 ? label : _(time_labels[i]),
		    (enum pg_fig)(PG_F_T_COMPUTE + i));
	}
	fig_row(p, w, b, y++, -1, _("step"), PG_F_T_STEP);
	fig_row(p, w, b, y++, -1, _("MFU"), PG_F_MFU);
	fig_row(p, w, b, y++, -1, _("tokens/s"), PG_F_TOKENS);
	if (y < b->y + b->h)
		draw_reasons(p, w, b, y);
}

/*
 * Projector: memory per GPU against the usable capacity, step time and
 * MFU in block digits (normal text if they do not fit), then whether the
 * layout fits.
 */
static void
draw_big(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	const struct cm_result *r = &p->pg.cur;
	struct ui_figure f[3];
	char mem[32], step[32], mfu[16], line[200];
	int y, a = ui_attr(r->fits ? UI_C_DONE : UI_C_WARN);

	if (!p->pg.cur_valid) {
		draw_invalid(p, w, b);
		return;
	}
	snprintf(mem, sizeof mem, "%.1f/%.1f", GB(pg_figure(r,
	    PG_F_MEM_TOTAL)), GB(r->mem_usable));
	fmt_s(step, sizeof step, pg_figure(r, PG_F_T_STEP), 0);
	snprintf(mfu, sizeof mfu, "%.0f%%", 100 * pg_figure(r, PG_F_MFU));
	f[0] = (struct ui_figure){ mem, _("GB per GPU / usable"), a };
	f[1] = (struct ui_figure){ step, _("s per step"),
	    ui_attr(UI_C_ACCENT) };
	f[2] = (struct ui_figure){ mfu, _("MFU"), ui_attr(UI_C_ACCENT) };
	y = b->y + ui_big_figures(w, b->y, b->x, b->w, b->h - 2, f, 3) + 1;
	snprintf(line, sizeof line, r->fits ?
	    _("Fits: %.1f GB of %.1f GB usable per GPU.") :
	    _("Does NOT fit: %.1f GB needed, %.1f GB usable per GPU."),
	    GB(pg_figure(r, PG_F_MEM_TOTAL)), GB(r->mem_usable));
	ui_put_cut(w, y, b->x, line, b->w, a);
}

/* The knob column (wide form). */
static void
draw_knobs(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	char val[64];
	int i, v, sel = 0, first = 0, y, attr, locked;

	/* rows are the shown knobs (pg_knob_shown) */
	for (i = 0; i < p->sel; i++)
		sel += pg_knob_shown(&p->pg, (enum pg_knob)i);
	if (sel >= b->h)
		first = sel - b->h + 1;
	for (i = 0, v = -1; i < PG_N_KNOBS; i++) {
		if (!pg_knob_shown(&p->pg, (enum pg_knob)i) || ++v < first)
			continue;
		if (v - first >= b->h)
			break;
		y = b->y + v - first;
		locked = (p->pg.locked >> i) & 1u;
		attr = i == p->sel ? ui_attr(UI_C_SELECT) : locked ?
		    ui_attr(UI_C_DIM) : (int)A_NORMAL;
		if (i == p->sel)
			ui_put(w, y, b->x, "                                   ",
			    KNOB_W, attr);
		ui_put_cut(w, y, b->x + 1, _(pg_knob_label((enum pg_knob)i)),
		    KNOB_LABEL_W, attr);
		pg_knob_value(&p->pg, (enum pg_knob)i, val, sizeof val);
		/* An unlocked value may use the lock mark's columns. */
		ui_put_cut(w, y, b->x + 2 + KNOB_LABEL_W, val, KNOB_VALUE_W +
		    (locked ? 0 : 5), attr | (locked ? 0 : A_BOLD));
		if (locked)
			ui_put(w, y, b->x + 3 + KNOB_LABEL_W + KNOB_VALUE_W,
			    _("lock"), 4, attr);
	}
}

/* The selected knob on one line (narrow form). */
static void
draw_knob_line(const struct pgs *p, WINDOW *w, int y, int cols)
{
	char val[64], line[160];

	pg_knob_value(&p->pg, (enum pg_knob)p->sel, val, sizeof val);
	snprintf(line, sizeof line, "%s %s: %s %s%s", ui_term.utf8 ?
	    "\u25c0" : "<", _(pg_knob_label((enum pg_knob)p->sel)), val,
	    ui_term.utf8 ? "\u25b6" : ">", (p->pg.locked >> p->sel) & 1u ?
	    _(" (locked)") : "");
	ui_put_cut(w, y, 1, line, cols - 2, ui_attr(UI_C_SELECT));
}

static void
draw_title(const struct pgs *p, WINDOW *w, int cols)
{
	char title[300], right[200];

	if (p->sc != NULL) {
		snprintf(title, sizeof title, _("Scenario: %s"), p->sc->title);
		if (p->passed)
			snprintf(right, sizeof right, "%s", _("passed"));
		else
			snprintf(right, sizeof right, P_("%d failed check",
			    "%d failed checks", p->failed), p->failed);
	} else {
		snprintf(title, sizeof title, "%s", _("Cost-model playground"));
		snprintf(right, sizeof right, _("%s on %d x %s"),
		    p->pg.cfg.model.name, p->pg.cfg.gpus, p->pg.cfg.gpu.name);
	}
	ui_title(w, cols, title, right);
}

/* The line above the status bar: the last note, else a reminder. */
static void
draw_note(const struct pgs *p, WINDOW *w, int y, int cols)
{
	char line[SC_TRADEOFF_LEN + 100];
	int i;

	/* What is being typed stays in sight however the panel scrolls. */
	if (p->typing != PGS_TYPE_NONE) {
		if (p->typing == PGS_TYPE_PREDICTION)
			snprintf(line, sizeof line, _("Prediction: %s_ %s"),
			    p->predict_text, p->rules.prediction.unit);
		else
			snprintf(line, sizeof line, _("Trade-off: %s_"),
			    p->tradeoff);
		ui_put_cut(w, y, 1, line, cols - 2, ui_attr(UI_C_ACCENT));
		return;
	}
	if (p->pg.note[0] != '\0') {
		ui_put_cut(w, y, 1, p->pg.note, cols - 2, ui_attr(UI_C_ACCENT));
		return;
	}
	if (p->sc == NULL || p->load_err[0] != '\0') {
		ui_put_cut(w, y, 1, p->load_err[0] != '\0' ? p->load_err :
		    _("GB = 1e9 bytes. Press s for the ranked search."),
		    cols - 2, ui_attr(p->load_err[0] ? UI_C_WARN : UI_C_DIM));
		return;
	}
	snprintf(line, sizeof line, "%s", _("Goal:"));
	for (i = 0; i < p->rules.n_goal; i++) {
		char g[160];

		scenario_goal_text(&p->rules.goal[i], g, sizeof g);
		snprintf(line + strlen(line), sizeof line - strlen(line),
		    "%s %s", i > 0 ? ";" : "", g);
	}
	ui_put_cut(w, y, 1, line, cols - 2, ui_attr(UI_C_DIM));
}

/* The incident, scrolled no further than its last page. */
static void
draw_incident_clamped(struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	int n = pgs_draw_incident(p, w, b), last = n - (b->h - 1), y;

	p->info_lines = n;
	p->info_rows = b->h - 1;
	if (last < 0)
		last = 0;
	if (p->info_top <= last)
		return;
	p->info_top = last;
	for (y = b->y; y < b->y + b->h; y++) {
		wmove(w, y, 0);
		wclrtoeol(w);
	}
	pgs_draw_incident(p, w, b);
}

static const char *
status_text(const struct pgs *p)
{
	static char keys[128];

	if (p->panel == PGS_SEARCH)
		return p->sc != NULL ? _("j/k select  s/q close  ? keys") :
		    _("j/k select  Enter apply  s/q close  ? keys");
	if (p->typing != PGS_TYPE_NONE)
		return _("type  Backspace erase  Enter or Esc ends");
	if (p->panel == PGS_DIAGNOSIS) {
		snprintf(keys, sizeof keys, _("1-%d commit a cause  e/q back "
		    "to the brief  ? keys"), p->rules.diagnosis.n_options);
		return keys;
	}
	if (p->panel == PGS_INCIDENT)
		return p->rules.n_claims > 0 ?
		    _("e cause  p predict  1-8 claims  t trade-off  c check  "
		    "Tab figures  q back") :
		    _("e cause  p predict  c check  j/k scroll  w solution  "
		    "Tab figures  q back");
	if (p->sc != NULL)
		return _("j/k knob  h/l change  e cause  p predict  c check  "
		    "Tab brief  q back");
	return _("j/k knob  h/l change  d prev/start  s search  r reset  "
	    "q back  ? keys");
}

void
pgs_draw(struct pgs *p, WINDOW *w, int rows, int cols)
{
	struct pgs_box b;
	int wide = cols >= PGS_WIDE;

	draw_title(p, w, cols);
	b.y = 2;
	b.h = rows - 4;
	if (p->panel != PGS_FIGURES) {
		b.x = 1;
		b.w = cols - 2 > 110 ? 110 : cols - 2;
		if (p->panel == PGS_SEARCH)
			pgs_draw_search(p, w, &b);
		else if (p->panel == PGS_DIAGNOSIS)
			pgs_draw_diagnosis(p, w, &b);
		else
			draw_incident_clamped(p, w, &b);
	} else if (p->app->projector) {
		draw_knob_line(p, w, 2, cols);
		b.y = 4;
		b.h = rows - 7;
		b.x = 1;
		b.w = cols - 2;
		draw_big(p, w, &b);
	} else if (wide) {
		b.x = 0;
		b.w = KNOB_W;
		draw_knobs(p, w, &b);
		b.x = KNOB_W + 1;
		b.w = cols - b.x - 1 > 70 ? 70 : cols - b.x - 1;
		draw_figures(p, w, &b);
	} else {
		draw_knob_line(p, w, 1, cols);
		b.x = 1;
		b.w = cols - 2;
		draw_figures(p, w, &b);
	}
	draw_note(p, w, rows - 2, cols);
	ui_status(w, rows, cols, status_text(p), ui_attr(UI_C_DIM));
}
