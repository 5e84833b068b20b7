/*
 * player.c - playback of a simulated step: the clock, stepping and speed,
 * and the questions an animation asks of the timeline at a time t.
 *
 * The layout (replicas d x stages p x TP ranks t, rank (r*p + s)*t + k,
 * chunks v, lps layers per virtual stage) is the simulator's: sim_run
 * reports d, t and p, and the rest follows from the config as in
 * sim.c's layout_of. From it the player knows each collective's ring
 * (member i sends to member i+1, as sim_collective.c's ring does): a TP
 * all-reduce (about a microbatch) runs over the devices of one (replica,
 * stage), a gradient all-reduce (mb -1) over the replicas of one (stage,
 * rank), FSDP's gathers and scatters over all replicas.
 *
 * Whether a send or a TP all-reduce carries activations or their
 * gradients is read off the timeline: it is a gradient if the device had
 * already finished the backward of that layer and microbatch when the
 * transfer began.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/player.h"

#define EPS	1e-12	/* seconds: starts closer than this are one stop */

static const double speeds[PLAYER_NSPEEDS] = {
	0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0
};

void
player_config_default(struct sim_config *cfg, enum sim_mode mode)
{
	sim_config_default(cfg, mode, mode == SIM_3D ? 8 : 4);
}

enum sim_mode
player_next_mode(enum sim_mode m)
{
	return m >= SIM_3D ? SIM_SINGLE : (enum sim_mode)(m + 1);
}

int
player_config_from_block(const struct content_animation *an,
    struct sim_config *cfg, struct pl_err *err)
{
	enum sim_mode mode = SIM_PP;

	if (an->mode != NULL && sim_mode_parse(an->mode, &mode) != 0) {
		pl_err_set(err, NULL, 0, 0, _("unknown mode '%s'"), an->mode);
		return -1;
	}
	player_config_default(cfg, mode);
	if (an->gpus > 0 && mode != SIM_SINGLE)
		cfg->gpus = an->gpus;
	if (an->microbatches > 0)
		cfg->microbatches = an->microbatches;
	if (an->schedule != NULL && pipe_schedule_parse(an->schedule,
	    &cfg->schedule) != 0) {
		pl_err_set(err, NULL, 0, 0, _("unknown schedule '%s'"),
		    an->schedule);
		return -1;
	}
	if (an->virtual_stages > 0)
		cfg->vstages = an->virtual_stages;
	else if (cfg->schedule == PIPE_INTERLEAVED && mode == SIM_PP)
		cfg->vstages = 2;
	return 0;
}

/* Replica, stage and TP rank of a device. */
static void
coords(const struct player *p, int dev, int *r, int *s, int *k)
{
	*k = dev % p->t;
	*s = (dev / p->t) % p->p;
	*r = dev / (p->t * p->p);
}

static int
rank_of(const struct player *p, int r, int s, int k)
{
	return (r * p->p + s) * p->t + k;
}

/* The ring of a collective event into g; returns the group size. */
static int
ring_of(const struct player *p, const struct sim_event *e, int *g)
{
	int r, s, k, i, n;

	coords(p, e->device, &r, &s, &k);
	if (e->kind == SIM_ALL_REDUCE && e->microbatch >= 0) {
		for (i = 0; i < p->t; i++)
			g[i] = rank_of(p, r, s, i);
		return p->t;
	}
	n = p->d;
	for (i = 0; i < n; i++)
		g[i] = rank_of(p, i, s, k);
	return n;
}

static int
is_collective(enum sim_kind k)
{
	return k == SIM_ALL_REDUCE || k == SIM_ALL_GATHER ||
	    k == SIM_REDUCE_SCATTER;
}

/* Had dev finished the backward of (layer, mb) by time t? */
static int
after_backward(const struct player *p, int dev, int layer, int mb, double t)
{
	const struct sim_timeline *tl = &p->res.tl;
	size_t i;

	for (i = 0; i < tl->n_ev && tl->ev[i].start <= t + EPS; i++)
		if (tl->ev[i].device == dev && tl->ev[i].kind == SIM_BACKWARD &&
		    tl->ev[i].layer == layer && tl->ev[i].microbatch == mb &&
		    tl->ev[i].end <= t + EPS)
			return 1;
	return 0;
}

static enum player_what
classify(const struct player *p, const struct sim_event *e)
{
	switch (e->kind) {
	case SIM_ALL_GATHER:
		return PLAYER_W_PARAMS;
	case SIM_REDUCE_SCATTER:
		return PLAYER_W_GRADS;
	case SIM_ALL_REDUCE:
		if (e->microbatch < 0)
			return PLAYER_W_GRADS;
		/* FALLTHROUGH */
	case SIM_SEND:
	case SIM_RECV:
		return after_backward(p, e->device, e->layer, e->microbatch,
		    e->start) ? PLAYER_W_ACT_GRADS : PLAYER_W_ACTS;
	default:
		return PLAYER_W_NONE;
	}
}

/* The device a transfer event's bytes go to, or -1. */
static int
target_of(const struct player *p, const struct sim_event *e)
{
	int g[PLAYER_MAX_DEVICES], n, i;

	if (e->kind == SIM_SEND)
		return e->peer;
	if (!is_collective(e->kind))
		return -1;
	n = ring_of(p, e, g);
	for (i = 0; i < n; i++)
		if (g[i] == e->device)
			return g[(i + 1) % n];
	return -1;
}

static int
build_stops(struct player *p)
{
	const struct sim_timeline *tl = &p->res.tl;
	size_t i;

	p->stops = malloc((tl->n_ev + 2) * sizeof *p->stops);
	if (p->stops == NULL)
		return -1;
	p->stops[p->n_stops++] = 0.0;
	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind != SIM_IDLE &&
		    tl->ev[i].start > p->stops[p->n_stops - 1] + EPS)
			p->stops[p->n_stops++] = tl->ev[i].start;
	if (tl->t_end > p->stops[p->n_stops - 1] + EPS)
		p->stops[p->n_stops++] = tl->t_end;
	return 0;
}

/* The link a-b (either order), added if new. NULL on ENOMEM. */
static struct player_link *
link_get(struct player *p, int a, int b)
{
	struct player_link *l;
	size_t i;
	int x;

	if (a > b) {
		x = a;
		a = b;
		b = x;
	}
	for (i = 0; i < p->n_links; i++)
		if (p->links[i].a == a && p->links[i].b == b)
			return &p->links[i];
	l = realloc(p->links, (p->n_links + 1) * sizeof *l);
	if (l == NULL)
		return NULL;
	p->links = l;
	l = &p->links[p->n_links++];
	l->a = a;
	l->b = b;
	l->bytes = 0.0;
	l->total = 0;
	return l;
}

static int
build_events(struct player *p)
{
	const struct sim_timeline *tl = &p->res.tl;
	struct player_link *l;
	size_t i;
	int d;

	p->what = calloc(tl->n_ev + 1, 1);
	p->next = calloc(tl->n_ev + 1, sizeof *p->next);
	if (p->what == NULL || p->next == NULL)
		return -1;
	for (i = 0; i < tl->n_ev; i++) {
		p->what[i] = (unsigned char)classify(p, &tl->ev[i]);
		p->next[i] = target_of(p, &tl->ev[i]);
		if (p->next[i] < 0 || tl->ev[i].bytes == 0)
			continue;
		if ((l = link_get(p, tl->ev[i].device, p->next[i])) == NULL)
			return -1;
		l->total += tl->ev[i].bytes;
	}
	for (d = 0; d < tl->n_devices; d++)
		if (sim_timeline_peak(tl, d) > p->peak)
			p->peak = sim_timeline_peak(tl, d);
	return 0;
}

int
player_init(struct player *p, const struct sim_config *cfg,
    struct pl_err *err)
{
	memset(p, 0, sizeof *p);
	p->speed = 3;
	p->cfg = *cfg;
	if (sim_run(cfg, &p->res, err) != 0)
		return -1;
	p->d = p->res.dp;
	p->p = p->res.pp;
	p->t = p->res.tp;
	p->v = cfg->mode == SIM_PP ? cfg->vstages : 1;
	p->lps = SIM_LAYERS / (p->p * p->v);
	if (p->res.tl.n_devices > PLAYER_MAX_DEVICES) {
		pl_err_set(err, NULL, 0, 0, _("the player shows at most %d "
		    "devices, not %d"), PLAYER_MAX_DEVICES,
		    p->res.tl.n_devices);
		player_free(p);
		return -1;
	}
	if (build_stops(p) != 0 || build_events(p) != 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		player_free(p);
		return -1;
	}
	return 0;
}

void
player_free(struct player *p)
{
	if (p == NULL)
		return;
	sim_result_free(&p->res);
	free(p->what);
	free(p->next);
	free(p->stops);
	free(p->links);
	p->what = NULL;
	p->next = NULL;
	p->stops = NULL;
	p->links = NULL;
	p->n_stops = p->n_links = 0;
}

void
player_toggle(struct player *p)
{
	if (!p->playing && p->now >= p->res.step_time)
		p->now = 0.0;
	p->playing = !p->playing;
}

void
player_restart(struct player *p)
{
	p->now = 0.0;
	p->playing = 1;
}

int
player_advance(struct player *p, double wall_s)
{
	double end = p->res.step_time, old = p->now;

	if (!p->playing || wall_s <= 0.0)
		return 0;
	p->now += wall_s * speeds[p->speed] * end / PLAYER_BASE_SECONDS;
	if (p->now >= end) {
		p->now = end;
		p->playing = 0;
	}
	return p->now != old;
}

int
player_step(struct player *p, int dir)
{
	double old = p->now;
	size_t i;

	p->playing = 0;
	if (dir > 0) {
		for (i = 0; i < p->n_stops; i++)
			if (p->stops[i] > p->now + EPS) {
				p->now = p->stops[i];
				break;
			}
	} else {
		for (i = p->n_stops; i-- > 0;)
			if (p->stops[i] < p->now - EPS) {
				p->now = p->stops[i];
				break;
			}
	}
	return p->now != old;
}

double
player_speed_change(struct player *p, int dir)
{
	p->speed += dir > 0 ? 1 : -1;
	if (p->speed < 0)
		p->speed = 0;
	if (p->speed >= PLAYER_NSPEEDS)
		p->speed = PLAYER_NSPEEDS - 1;
	return speeds[p->speed];
}

double
player_speed_factor(const struct player *p)
{
	return speeds[p->speed];
}

int
player_devices(const struct player *p)
{
	return p->res.tl.n_devices;
}

const struct sim_event *
player_busy(const struct player *p, int dev, double t)
{
	const struct sim_timeline *tl = &p->res.tl;
	const struct sim_event *best = NULL, *e;
	size_t i;

	for (i = 0; i < tl->n_ev && tl->ev[i].start <= t; i++) {
		e = &tl->ev[i];
		if (e->device != dev || e->end <= t || e->kind == SIM_IDLE ||
		    e->kind == SIM_SEND || e->kind == SIM_RECV)
			continue;
		if (sim_kind_is_compute(e->kind))
			return e;
		best = e;
	}
	return best;
}

enum player_what
player_event_what(const struct player *p, const struct sim_event *e)
{
	size_t i = (size_t)(e - p->res.tl.ev);

	if (i >= p->res.tl.n_ev)
		return PLAYER_W_NONE;
	return (enum player_what)p->what[i];
}

/* Is the flow out[0..n) already the collective of e? */
static int
flow_seen(const struct player_flow *out, size_t n, const struct sim_event *e,
    unsigned bit)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (out[i].from < 0 && out[i].kind == e->kind &&
		    (out[i].members & bit))
			return 1;
	return 0;
}

/* Bytes all members of the collective at ev[i] sent (same kind, start). */
static size_t
group_bytes(const struct sim_timeline *tl, size_t i, unsigned members)
{
	const struct sim_event *e = &tl->ev[i], *f;
	size_t j, sum = 0;

	for (j = i; j < tl->n_ev && tl->ev[j].start <= e->start + EPS; j++) {
		f = &tl->ev[j];
		if (f->kind == e->kind && f->layer == e->layer &&
		    f->microbatch == e->microbatch &&
		    (members & (1u << f->device)))
			sum += f->bytes;
	}
	return sum;
}

size_t
player_flows(const struct player *p, double t, struct player_flow *out,
    size_t max)
{
	const struct sim_timeline *tl = &p->res.tl;
	const struct sim_event *e;
	int g[PLAYER_MAX_DEVICES], n, j;
	size_t i, k = 0;

	for (i = 0; i < tl->n_ev && tl->ev[i].start <= t && k < max; i++) {
		e = &tl->ev[i];
		if (e->end <= t || (e->kind != SIM_SEND &&
		    !is_collective(e->kind)) ||
		    flow_seen(out, k, e, 1u << e->device))
			continue;
		memset(&out[k], 0, sizeof out[k]);
		out[k].kind = e->kind;
		out[k].what = (enum player_what)p->what[i];
		out[k].layer = e->layer;
		out[k].mb = e->microbatch;
		out[k].progress = e->end > e->start ?
		    (t - e->start) / (e->end - e->start) : 1.0;
		out[k].from = out[k].to = -1;
		if (e->kind == SIM_SEND) {
			out[k].from = e->device;
			out[k].to = e->peer;
			out[k].bytes = e->bytes;
		} else {
			n = ring_of(p, e, g);
			for (j = 0; j < n; j++)
				out[k].members |= 1u << g[j];
			out[k].bytes = group_bytes(tl, i, out[k].members);
		}
		k++;
	}
	return k;
}

int
player_link_active(const struct player *p, double t, int a, int b)
{
	const struct sim_timeline *tl = &p->res.tl;
	size_t i;

	for (i = 0; i < tl->n_ev && tl->ev[i].start <= t; i++)
		if (tl->ev[i].device == a && p->next[i] == b &&
		    tl->ev[i].end > t && tl->ev[i].bytes > 0)
			return 1;
	return 0;
}

const struct player_link *
player_links_at(struct player *p, double t)
{
	const struct sim_timeline *tl = &p->res.tl;
	const struct sim_event *e;
	struct player_link *l;
	double f;
	size_t i;

	for (i = 0; i < p->n_links; i++)
		p->links[i].bytes = 0.0;
	for (i = 0; i < tl->n_ev && tl->ev[i].start <= t; i++) {
		e = &tl->ev[i];
		if (p->next[i] < 0 || e->bytes == 0)
			continue;
		f = e->end <= t || e->end <= e->start ? 1.0 :
		    (t - e->start) / (e->end - e->start);
		l = link_get(p, e->device, p->next[i]);
		if (l != NULL)
			l->bytes += f * (double)e->bytes;
	}
	return p->links;
}

size_t
player_mem(const struct player *p, int dev, double t, size_t *by_kind)
{
	const struct sim_timeline *tl = &p->res.tl;
	const struct sim_mem_sample *last = NULL;
	size_t i, sum = 0;
	int k;

	for (i = 0; i < tl->n_mem && tl->mem[i].t <= t; i++)
		if (tl->mem[i].device == dev)
			last = &tl->mem[i];
	for (k = 0; k < SIM_NMEM; k++) {
		if (by_kind != NULL)
			by_kind[k] = last != NULL ? last->bytes[k] : 0;
		sum += last != NULL ? last->bytes[k] : 0;
	}
	return sum;
}

static unsigned char
cell_kind(enum sim_kind k)
{
	switch (k) {
	case SIM_FORWARD:
		return PLAYER_CELL_FORWARD;
	case SIM_BACKWARD:
		return PLAYER_CELL_BACKWARD;
	case SIM_ALL_REDUCE:
		return PLAYER_CELL_ALL_REDUCE;
	case SIM_ALL_GATHER:
		return PLAYER_CELL_ALL_GATHER;
	case SIM_REDUCE_SCATTER:
		return PLAYER_CELL_REDUCE_SCATTER;
	case SIM_OPTIMIZER:
		return PLAYER_CELL_OPTIMIZER;
	default:
		return PLAYER_CELL_BUBBLE;
	}
}

/* Mark the columns whose middles fall in e's span; pass 0 non-compute. */
static void
gantt_mark(const struct sim_event *e, double col, int width,
    struct player_cell *cells)
{
	int c, lo, hi;

	lo = (int)ceil(e->start / col - 0.5);
	hi = (int)ceil(e->end / col - 0.5);
	if (lo < 0)
		lo = 0;
	if (hi > width)
		hi = width;
	for (c = lo; c < hi; c++) {
		cells[c].kind = cell_kind(e->kind);
		cells[c].mb = (short)(sim_kind_is_compute(e->kind) ?
		    e->microbatch : -1);
	}
}

void
player_gantt_row(const struct player *p, int dev, int width,
    struct player_cell *cells)
{
	const struct sim_timeline *tl = &p->res.tl;
	double col = tl->t_end / (width > 0 ? width : 1);
	size_t i;
	int c, pass;

	for (c = 0; c < width; c++) {
		cells[c].kind = PLAYER_CELL_BUBBLE;
		cells[c].mb = -1;
	}
	if (width <= 0 || col <= 0.0)
		return;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < tl->n_ev; i++) {
			const struct sim_event *e = &tl->ev[i];

			if (e->device != dev || cell_kind(e->kind) ==
			    PLAYER_CELL_BUBBLE ||
			    sim_kind_is_compute(e->kind) != pass)
				continue;
			gantt_mark(e, col, width, cells);
		}
}

int
player_cursor_col(const struct player *p, int width)
{
	double end = p->res.step_time;
	int c;

	if (width <= 0 || end <= 0.0)
		return 0;
	c = (int)(p->now / end * width);
	return c >= width ? width - 1 : c < 0 ? 0 : c;
}

/* "L1 L3" or "L1-L4": the held layers of mask (bit l = layer l+1). */
static void
layer_list(unsigned mask, char *buf, size_t n)
{
	int l, first = -1, last = -1, count = 0, gaps = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (l = 0; l < SIM_LAYERS; l++)
		if (mask & (1u << l)) {
			if (last >= 0 && l != last + 1)
				gaps = 1;
			if (first < 0)
				first = l;
			last = l;
			count++;
		}
	if (count > 2 && !gaps) {
		snprintf(buf, n, "L%d-L%d", first + 1, last + 1);
		return;
	}
	for (l = 0; l < SIM_LAYERS && used < n; l++)
		if (mask & (1u << l))
			used += (size_t)snprintf(buf + used, n - used, "%sL%d",
			    used > 0 ? " " : "", l + 1);
}

/* Layers held by stage s, as a bit mask; split 1 col, 2 row, 0 any. */
static unsigned
held(const struct player *p, int s, int split)
{
	unsigned m = 0;
	int l;

	for (l = 0; l < SIM_LAYERS; l++)
		if ((l / p->lps) % p->p == s && (split == 0 ||
		    (split == 1) == (l % 2 == 0)))
			m |= 1u << l;
	return m;
}

/* The TP lines: column-parallel layers, then row-parallel ones. */
static char *
holds_tp(const struct player *p, int s, int k, int line, int compact,
    char *buf, size_t n)
{
	char list[32];
	unsigned m = held(p, s, line == 0 ? 1 : 2);
	int w = SIM_WIDTH / p->t, lo = k * w, hi = lo + w - 1;

	buf[0] = '\0';
	if (m == 0)
		return buf;
	layer_list(m, list, sizeof list);
	if (compact)
		snprintf(buf, n, "%s%c%d-%d", list, line == 0 ? 'c' : 'r', lo,
		    hi);
	else if (line == 0)
		snprintf(buf, n, _("%s cols %d-%d"), list, lo, hi);
	else
		snprintf(buf, n, _("%s rows %d-%d"), list, lo, hi);
	return buf;
}

char *
player_holds(const struct player *p, int dev, int line, int compact,
    char *buf, size_t n)
{
	int r, s, k;

	coords(p, dev, &r, &s, &k);
	if (p->t > 1)
		return holds_tp(p, s, k, line, compact, buf, n);
	if (line == 0) {
		layer_list(held(p, s, 0), buf, n);
		return buf;
	}
	if (p->cfg.mode == SIM_FSDP)
		snprintf(buf, n, compact ? "%d/%d" : _("shard %d of %d"),
		    r + 1, p->d);
	else if (p->p > 1 && p->v > 1)
		snprintf(buf, n, compact ? "s%d" : _("stage %d, %d chunks"), s,
		    p->v);
	else if (p->p > 1)
		snprintf(buf, n, compact ? "s%d" : _("stage %d"), s);
	else if (p->d > 1)
		snprintf(buf, n, compact ? "copy" : _("full copy"));
	else
		snprintf(buf, n, compact ? "all" : _("whole model"));
	return buf;
}
