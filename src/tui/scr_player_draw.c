/*
 * scr_player_draw.c - the player's text parts: the title and the
 * settings line, the caption, one box per device (what it holds, what it
 * does now, its memory), the transfers in flight with their ring step,
 * the bytes each link has carried, and the measured figures.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/wrap.h"
#include "core/sim/sim_keys.h"
#include "core/sim/sim_knob.h"
#include "tui/scr_player.h"
#include "tui/term.h"

#define BOX_MAX_W	30	/* widest device box, columns */

void
pscr_fmt_bytes(double b, char *buf, size_t n)
{
	char num[20];
	const char *unit = ui_big_bytes(b, num, sizeof num);

	snprintf(buf, n, "%s %s", num, unit);
}

void
pscr_draw_title(struct pscr *ps, WINDOW *w, int cols)
{
	const struct sim_config *c = &ps->pl.cfg;
	const struct sim_result *r = &ps->pl.res;
	char t[256], right[64], lay[96];
	int len;

	if (ps->pl.origin.measured && c->mode == SIM_CP)
		len = snprintf(t, sizeof t, P_("Measured on %d process: %s = "
		    "%s", "Measured on %d processes: %s = %s",
		    ps->pl.origin.processes), ps->pl.origin.processes,
		    sim_mode_name(c->mode),
		    mesh_keys_text(r->degree, lay, sizeof lay));
	else if (ps->pl.origin.measured)
		len = snprintf(t, sizeof t, P_("Measured on %d process: %s",
		    "Measured on %d processes: %s", ps->pl.origin.processes),
		    ps->pl.origin.processes, sim_mode_name(c->mode));
	else if (c->mode == SIM_3D || c->mode == SIM_CP)
		len = snprintf(t, sizeof t, _("Animation: %s, %d GPUs = %s"),
		    sim_mode_name(c->mode), player_devices(&ps->pl),
		    mesh_keys_text(r->degree, lay, sizeof lay));
	else
		len = snprintf(t, sizeof t, P_("Animation: %s, %d GPU",
		    "Animation: %s, %d GPUs", player_devices(&ps->pl)),
		    sim_mode_name(c->mode), player_devices(&ps->pl));
	if (r->pp > 1 && len > 0 && (size_t)len < sizeof t)
		len += snprintf(t + len, sizeof t - (size_t)len,
		    _(", %s, m=%d"), pipe_schedule_name(c->schedule),
		    c->microbatches);
	else if (c->microbatches > 1 && len > 0 && (size_t)len < sizeof t)
		len += snprintf(t + len, sizeof t - (size_t)len, _(", m=%d"),
		    c->microbatches);
	if (ps->pl.v > 1 && len > 0 && (size_t)len < sizeof t)
		len += snprintf(t + len, sizeof t - (size_t)len, _(", v=%d"),
		    ps->pl.v);
	if (c->seq_parallel && len > 0 && (size_t)len < sizeof t)
		snprintf(t + len, sizeof t - (size_t)len, "%s", _(", SP"));
	if (ps->pl.playing)
		snprintf(right, sizeof right, _("%s playing %gx"),
		    ui_glyph_arrow(), player_speed_factor(&ps->pl));
	else
		snprintf(right, sizeof right, _("paused %gx"),
		    player_speed_factor(&ps->pl));
	ui_title(w, cols, t, right);
}

/* One "key value" item of the settings line; returns columns used. */
static int
setting(WINDOW *w, int y, int x, int end, const char *key, const char *val)
{
	int kw = wrap_width(key, strlen(key)), vw = wrap_width(val, strlen(val));

	if (x + kw + 1 + vw > end)
		return -1;
	ui_put(w, y, x, key, kw, ui_attr(UI_C_ACCENT));
	ui_put(w, y, x + kw + 1, val, vw, A_NORMAL);
	return kw + 1 + vw + 2;
}

/*
 * The knobs this mode has, each as the simulator's table names it (its
 * key, sim_knob_value's value), then compare where there is a run to
 * compare with.
 */
void
pscr_draw_settings(struct pscr *ps, WINDOW *w, int y, int cols)
{
	const struct sim_config *c = &ps->cfg;
	const struct sim_key *k;
	struct sim_config other;
	char key[2], v[48];
	int x = 1, used;

	if (ps->note != NULL) {
		ui_put(w, y, 1, _(ps->note), cols - 2, ui_attr(UI_C_WARN));
		return;
	}
	for (k = sim_keys(); k->key != NULL; k++) {
		if (!(k->uses & SIM_FOR_KNOB) || k->knob_keys == NULL ||
		    !sim_knob_applies(c, (enum sim_knob)k->knob))
			continue;
		snprintf(key, sizeof key, "%c", k->knob_keys[0]);
		used = setting(w, y, x, cols - 1, key,
		    sim_knob_value(c, (enum sim_knob)k->knob, v, sizeof v));
		if (used < 0)
			return;
		x += used;
	}
	if (ps->cmp_ok || sim_config_compare(c, &other) == 0)
		setting(w, y, x, cols - 1, "x", ps->cmp_ok ? _("compare off") :
		    _("compare"));
}

struct cap_draw {
	WINDOW	*w;
	int	 y, end;
	int	 lines;		/* of the whole caption */
	int	 width;
};

static void
cap_count(const char *s, size_t n, void *arg)
{
	(void)s;
	(void)n;
	((struct cap_draw *)arg)->lines++;
}

/* One line of the caption; the last one that fits ends in an ellipsis
 * when more of the caption does not fit. */
static void
cap_emit(const char *s, size_t n, void *arg)
{
	struct cap_draw *d = arg;
	char line[520];

	if (d->y >= d->end || n + 5 >= sizeof line)
		return;
	memcpy(line, s, n);
	line[n] = '\0';
	if (d->y == d->end - 1 && d->lines > 0) {
		strcat(line, " \u2026");
		ui_put_cut(d->w, d->y++, 2, line, d->width, A_NORMAL);
		return;
	}
	ui_put(d->w, d->y++, 2, line, 1000, A_NORMAL);
}

void
pscr_draw_caption(struct pscr *ps, WINDOW *w, const struct pscr_plan *pl,
    int cols)
{
	struct cap_draw cd = { w, pl->cap_y, pl->cap_y + pl->cap_n, 0,
	    cols - 4 };
	const char *cap;

	if (pl->cap_n <= 0 || (cap = pscr_caption(ps)) == NULL)
		return;
	wrap_paragraph(_(cap), cols - 4, cap_count, &cd);
	/* lines now counts what does not fit: 0 when all of it does. */
	cd.lines = cd.lines > pl->cap_n ? 1 : 0;
	wrap_paragraph(_(cap), cols - 4, cap_emit, &cd);
}

/* Memory by kind, one line each, below the bar. */
static void
draw_mem_detail(struct pscr *ps, WINDOW *w, int dev, int y, int x, int width)
{
	static const char *const kind[SIM_NMEM] = {
		N_("params"), N_("grads"), N_("Adam"), N_("acts"),
		N_("gathered")
	};
	size_t by[SIM_NMEM];
	char b[32];
	int k, kw;

	player_mem(&ps->pl, dev, ps->pl.now, by);
	for (k = 0; k < SIM_NMEM; k++) {
		kw = ui_put(w, y + k, x, _(kind[k]), width, ui_attr(UI_C_DIM));
		pscr_fmt_bytes((double)by[k], b, sizeof b);
		if (kw + 1 + (int)strlen(b) <= width)
			ui_put(w, y + k, x + width - (int)strlen(b), b,
			    (int)strlen(b), A_NORMAL);
	}
}

/* What dev is doing now, long or compact. */
static void
doing_text(const struct sim_event *e, int compact, char *buf, size_t n)
{
	const char *part = e == NULL ? "" : e->part == SIM_PART_ATTN ?
	    _("attn") : _("mlp");

	if (e == NULL)
		snprintf(buf, n, "%s", _("idle"));
	else if (sim_kind_is_compute(e->kind) && e->layer == 0)
		/* a measured region of the whole model (torch_trace.h) */
		snprintf(buf, n, "%s", e->kind == SIM_FORWARD ?
		    (compact ? "fwd" : _("forward, all layers")) :
		    (compact ? "bwd" : _("backward, all layers")));
	else if (sim_kind_is_compute(e->kind) && compact)
		snprintf(buf, n, "%c%d%c m%d", e->kind == SIM_FORWARD ? 'F' :
		    'B', e->layer, part[0], e->microbatch);
	else if (e->kind == SIM_FORWARD)
		snprintf(buf, n, _("fwd L%d %s, mb %d"), e->layer, part,
		    e->microbatch);
	else if (e->kind == SIM_BACKWARD)
		snprintf(buf, n, _("bwd L%d %s, mb %d"), e->layer, part,
		    e->microbatch);
	else if (e->kind == SIM_OPTIMIZER)
		snprintf(buf, n, "%s", compact ? "opt" : _("optimizer step"));
	else if (compact)
		snprintf(buf, n, "%s", e->kind == SIM_ALL_REDUCE ? "AR" :
		    e->kind == SIM_ALL_GATHER ? "AG" : "RS");
	else
		snprintf(buf, n, _("%s L%d"), sim_kind_name(e->kind), e->layer);
}

static void
draw_box(struct pscr *ps, WINDOW *w, const struct pscr_plan *pl, int dev,
    int x, int bw)
{
	const struct sim_event *e = player_busy(&ps->pl, dev, ps->pl.now);
	int inner = bw - 2, compact = inner < 15, y = pl->box_y, i, bar, lab;
	double frac;
	char buf[64], mem[32];
	size_t bytes;

	ui_box(w, y, x, pl->holds_n + 4 + pl->detail_n, bw);
	sim_device_name(dev, buf, sizeof buf);
	/* A pipeline's stages idle differently: each box says its share. */
	if (ps->pl.res.pp > 1 && inner >= 13)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
		    _(" idle %.0f%%"), 100.0 * sim_timeline_device_bubble(
		    &ps->pl.res.tl, dev));
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
	pscr_fmt_bytes((double)bytes, mem, sizeof mem);
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

void
pscr_draw_boxes(struct pscr *ps, WINDOW *w, const struct pscr_plan *pl,
    int cols)
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
what_text(enum sim_payload wh)
{
	switch (wh) {
	case SIM_P_ACTS:
		return _("activations");
	case SIM_P_ACT_GRADS:
		return _("activation grads");
	case SIM_P_PARAMS:
		return _("parameters");
	case SIM_P_WEIGHT_GRADS:
		return _("weight grads");
	case SIM_P_KV:
		return _("K/V");
	case SIM_P_KV_GRADS:
		return _("K/V grads");
	case SIM_P_DISPATCH:
		return _("dispatch");
	case SIM_P_COMBINE:
		return _("combine");
	default:
		return "";
	}
}

/* "L3" or "the model", for a flow's layer. */
static void
layer_text(const struct player_flow *f, char *buf, size_t n)
{
	if (f->layer > 0)
		snprintf(buf, n, "L%d", f->layer);
	else
		snprintf(buf, n, "%s", _("all layers"));
}

/* The chunk each member of a ring sends now, in ring order. */
static void
chunks_text(const struct player_flow *f, char *buf, size_t n)
{
	size_t used = 0;
	int d;

	buf[0] = '\0';
	for (d = 0; d < PLAYER_MAX_DEVICES && used < n; d++)
		if ((f->members & (1u << d)) && f->sends[d] >= 0)
			used += (size_t)snprintf(buf + used, n - used, "%s%d",
			    used > 0 ? " " : "", f->sends[d]);
}

static void
flow_text(const struct player_flow *f, char *buf, size_t n)
{
	char lay[32], ch[64], from[16], to[16];

	layer_text(f, lay, sizeof lay);
	if (f->from >= 0 && f->expert >= 0) {
		/* EP: which tokens go to which expert */
		snprintf(buf, n, P_("%s %s, mb %d: %d token of expert %d, "
		    "%s%s%s", "%s %s, mb %d: %d tokens of expert %d, %s%s%s",
		    f->tokens), what_text(f->what), lay, f->mb, f->tokens,
		    f->expert, sim_device_name(f->from, from, sizeof from),
		    ui_glyph_right(), sim_device_name(f->to, to, sizeof to));
		return;
	}
	if (f->from >= 0 && f->mb >= 0) {
		snprintf(buf, n, _("send %s %s, mb %d: %s%s%s"),
		    what_text(f->what), lay, f->mb, sim_device_name(f->from,
		    from, sizeof from), ui_glyph_right(), sim_device_name(f->to,
		    to, sizeof to));
		return;
	}
	chunks_text(f, ch, sizeof ch);
	if (f->step >= 0 && f->kind == SIM_ALL_REDUCE)
		snprintf(buf, n, _("%s %s %s: %s %d/%d [%s]%s"),
		    sim_kind_name(f->kind), what_text(f->what), lay,
		    sim_kind_name(f->phase), f->step + 1, f->steps, ch,
		    f->overlap ? _(", beside compute") : "");
	else if (f->step >= 0)
		snprintf(buf, n, _("%s %s %s: step %d/%d [%s]%s"),
		    sim_kind_name(f->kind), what_text(f->what), lay,
		    f->step + 1, f->steps, ch,
		    f->overlap ? _(", beside compute") : "");
	else
		snprintf(buf, n, _("%s %s %s"), sim_kind_name(f->kind),
		    what_text(f->what), lay);
}

void
pscr_draw_flows(const struct player *p, WINDOW *w, int y, int rows, int cols)
{
	struct player_flow fl[PSCR_MAX_FLOWS];
	size_t n, i;
	char text[200], b[32];
	int tw = cols - 22;

	n = player_flows(p, p->now, fl, PSCR_MAX_FLOWS);
	if (rows > 0 && n == 0)
		ui_put(w, y, 2, _("no data moving"), cols - 4,
		    ui_attr(UI_C_DIM));
	for (i = 0; i < n && (int)i < rows; i++, y++) {
		if ((int)i == rows - 1 && n > i + 1) {
			snprintf(text, sizeof text, _("and %zu more transfers"),
			    n - i);
			ui_put(w, y, 2, text, cols - 4, ui_attr(UI_C_DIM));
			break;
		}
		flow_text(&fl[i], text, sizeof text);
		ui_put(w, y, 2, text, tw - 1, ui_attr(UI_C_ACCENT));
		ui_bar(w, y, tw + 2, 10, fl[i].progress);
		pscr_fmt_bytes((double)fl[i].bytes, b, sizeof b);
		ui_put(w, y, tw + 13, b, 8, A_NORMAL);
	}
}

void
pscr_draw_links(struct pscr *ps, WINDOW *w, const struct pscr_plan *pl,
    int cols)
{
	const struct player_link *l = player_links_at(&ps->pl, ps->pl.now);
	int y = pl->link_y, x, used;
	char item[64], b[32], a_name[16], b_name[16];
	size_t i;

	if (pl->link_n == 0)
		return;
	x = 2 + ui_put(w, y, 2, _("bytes per link:"), cols - 4,
	    ui_attr(UI_C_HEADING));
	if (ps->pl.n_links == 0)
		ui_put_cut(w, y, x + 1, player_devices(&ps->pl) > 1 ?
		    _("none recorded; the total moved is below") :
		    _("none (one device, nothing to send)"), cols - x - 2,
		    ui_attr(UI_C_DIM));
	for (i = 0; i < ps->pl.n_links; i++) {
		pscr_fmt_bytes(l[i].bytes, b, sizeof b);
		snprintf(item, sizeof item, "%s-%s %s", sim_device_name(l[i].a,
		    a_name, sizeof a_name), sim_device_name(l[i].b, b_name,
		    sizeof b_name), b);
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

void
pscr_draw_stats(const struct player *p, WINDOW *w, int y, int n, int cols)
{
	const struct sim_result *r = &p->res;
	char line[256], b[32], one[32];
	double all, hidden;
	size_t len;

	if (r->cp > 1 && p->acts_single > 0) {
		pscr_fmt_bytes((double)p->acts_peak, b, sizeof b);
		pscr_fmt_bytes((double)p->acts_single, one, sizeof one);
		snprintf(line, sizeof line, _("activations: at most %s a GPU, "
		    "one GPU alone %s (%.2f); step %.0f ms"), b, one,
		    (double)p->acts_peak / (double)p->acts_single,
		    r->step_time * 1e3);
	} else if (r->pp > 1)
		snprintf(line, sizeof line, _("bubble: %.1f%% measured, %.1f%% "
		    "by %s; step %.0f ms"), 100.0 * r->bubble,
		    100.0 * r->bubble_formula, sim_bubble_formula_text(r),
		    r->step_time * 1e3);
	else
		snprintf(line, sizeof line, _("bubble: %.1f%% measured, no "
		    "pipeline; step %.0f ms"), 100.0 * r->bubble,
		    r->step_time * 1e3);
	if (wrap_width(line, strlen(line)) > cols - 2)
		snprintf(line, sizeof line, _("bubble %.1f%%, formula %.1f%%"),
		    100.0 * r->bubble, 100.0 * r->bubble_formula);
	ui_put(w, y, 1, line, cols - 2, ui_attr(UI_C_ACCENT));
	if (n < 2)
		return;
	pscr_fmt_bytes((double)r->bytes_moved, b, sizeof b);
	if (p->origin.profiler)
		snprintf(line, sizeof line, _("a profiler trace: no loss; %s "
		    "moved by the collectives it sized"), b);
	else
		snprintf(line, sizeof line, _("loss %.10g, max gradient error "
		    "vs single %.2g, %s moved"), r->loss, r->max_grad_error, b);
	/* EP, where the terminal is wide enough: the all-to-alls hidden */
	if ((all = sim_timeline_a2a(&r->tl, -1, &hidden)) > 0.0) {
		len = strlen(line);
		snprintf(line + len, sizeof line - len, _(", all-to-alls "
		    "%.0f%% under compute"), 100.0 * hidden / all);
		if (wrap_width(line, strlen(line)) > cols - 2)
			line[len] = '\0';
	}
	ui_put(w, y + 1, 1, line, cols - 2, A_NORMAL);
}

/* Projector: the bubble and the bytes moved in block digits. */
void
pscr_draw_big_stats(struct pscr *ps, WINDOW *w, int y, int rows, int cols)
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
