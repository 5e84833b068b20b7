/*
 * player_view.c - what the player draws besides the transfers: each
 * device's memory at a time t, the Gantt rows and the transfer lane
 * scaled to a width, the cursor, and what each device holds.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/player.h"

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
	case SIM_SEND:
		return PLAYER_CELL_SEND;
	default:
		return PLAYER_CELL_BUBBLE;
	}
}

static void
clear(struct player_cell *cells, int width)
{
	int c;

	for (c = 0; c < width; c++) {
		cells[c].kind = PLAYER_CELL_BUBBLE;
		cells[c].chunk = -1;
		cells[c].label = -1;
	}
}

static void
put(const struct player *p, const struct sim_event *e, struct player_cell *c)
{
	c->kind = e->kind == SIM_BACKWARD && e->part == SIM_PART_WEIGHTS ?
	    PLAYER_CELL_WEIGHTS : cell_kind(e->kind);
	c->chunk = (signed char)(sim_kind_is_compute(e->kind) ? e->chunk : -1);
	c->label = (short)(sim_kind_is_compute(e->kind) ?
	    player_label(p, e) : -1);
}

/* Seconds per column of a row of width columns over span. */
static double
col_of(const struct player *p, int width, double span)
{
	return (span > 0.0 ? span : p->res.tl.t_end) / (width > 0 ? width : 1);
}

void
player_gantt_row(const struct player *p, int dev, int width, double span,
    struct player_cell *cells)
{
	const struct sim_timeline *tl = &p->res.tl;
	double col = col_of(p, width, span), wlo, whi, t;
	int c, lo, hi, pass;
	size_t i;

	clear(cells, width);
	if (width <= 0 || col <= 0.0)
		return;
	/* Idle outside the compute window is no bubble (sim_timeline_bubble)
	 * but a wait for a transfer; compute and the rest are drawn over. */
	if (sim_timeline_compute_window(tl, &wlo, &whi))
		for (c = 0; c < width; c++) {
			t = (c + 0.5) * col;
			if ((t < wlo || t > whi) && t < tl->t_end)
				cells[c].kind = PLAYER_CELL_WAIT;
		}
	/* Communication first, so compute is drawn over it. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < tl->n_ev; i++) {
			const struct sim_event *e = &tl->ev[i];

			if (e->device != dev || !sim_event_is_busy(e) ||
			    sim_kind_is_compute(e->kind) != pass)
				continue;
			/* The columns whose middles fall in the span. */
			lo = (int)ceil(e->start / col - 0.5);
			hi = (int)ceil(e->end / col - 0.5);
			for (c = lo < 0 ? 0 : lo; c < hi && c < width; c++)
				put(p, e, &cells[c]);
		}
}

int
player_transfer_row(const struct player *p, int width, double span,
    struct player_cell *cells)
{
	const struct sim_timeline *tl = &p->res.tl;
	double col = col_of(p, width, span);
	int c, lo, hi, marked = 0;
	size_t i;

	clear(cells, width);
	if (width <= 0 || col <= 0.0)
		return 0;
	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->kind != SIM_SEND && !(sim_kind_is_collective(e->kind) &&
		    e->overlap))
			continue;
		lo = (int)floor(e->start / col);
		hi = (int)ceil(e->end / col);
		if (hi <= lo)
			hi = lo + 1;
		for (c = lo < 0 ? 0 : lo; c < hi && c < width; c++)
			put(p, e, &cells[c]);
	}
	for (c = 0; c < width; c++)
		marked += cells[c].kind != PLAYER_CELL_BUBBLE;
	return marked;
}

int
player_cursor_col(const struct player *p, int width, double span)
{
	double end = span > 0.0 ? span : p->res.step_time;
	int c;

	if (width <= 0 || end <= 0.0)
		return 0;
	c = (int)(p->now / end * width);
	return c >= width ? width - 1 : c < 0 ? 0 : c;
}

/* CP rank ci of c: the positions of its two chunks (sim_ring.h). */
static char *
cp_chunks(int c, int ci, int compact, char *buf, size_t n)
{
	int hc = SIM_SEQ / (2 * c), a = ci * hc, b = (2 * c - 1 - ci) * hc;

	if (hc == 1)
		snprintf(buf, n, compact ? "p%d,%d" : _("positions %d and %d"),
		    a, b);
	else
		snprintf(buf, n, compact ? "p%d-%d,%d-%d" :
		    _("positions %d-%d, %d-%d"), a, a + hc - 1, b, b + hc - 1);
	return buf;
}

/* Line 1 of a device box: its stage or its share of the batch. */
static char *
holds_where(const struct player *p, int dev, int compact, char *buf,
    size_t n)
{
	struct sim_place pl;
	int s, k, lo, hi;

	sim_device_place(&p->res, dev, &pl);
	s = pl.stage;
	k = pl.tp_rank;
	player_shard_seqs(p, dev, &lo, &hi);
	if (p->res.cp > 1)
		/* mesh order tp-cp-..: TP innermost, CP next */
		return cp_chunks(p->res.cp, dev / (p->t > 1 ? p->t : 1) %
		    p->res.cp, compact, buf, n);
	if (p->d > 1 && p->p > 1 && !compact)
		snprintf(buf, n, _("stage %d seqs %d-%d"), s, lo, hi);
	else if (p->d > 1)
		snprintf(buf, n, compact ? "q%d-%d" : _("seqs %d-%d"), lo, hi);
	else if (p->p > 1 && p->v > 1)
		snprintf(buf, n, compact ? "s%d" : _("stage %d, %d chunks"), s,
		    p->v);
	else if (p->p > 1 && p->res.schedule == PIPE_DUALPIPE)
		/* stage s of one direction, p-1-s of the other */
		snprintf(buf, n, compact ? "s%d+%d" : _("stages %d and %d"), s,
		    p->p - 1 - s);
	else if (p->p > 1)
		snprintf(buf, n, compact ? "s%d" : _("stage %d"), s);
	else if (p->t > 1)
		snprintf(buf, n, compact ? "f%d-%d" : _("ffn cols %d-%d"),
		    k * (SIM_FFN / p->t), (k + 1) * (SIM_FFN / p->t) - 1);
	else
		snprintf(buf, n, "%s", compact ? "all" : _("whole model"));
	return buf;
}

char *
player_holds(const struct player *p, int dev, int line, int compact,
    char *buf, size_t n)
{
	int hl = SIM_HEADS / p->t, k;
	struct sim_place pl;
	char list[32];

	buf[0] = '\0';
	if (line == 1)
		return holds_where(p, dev, compact, buf, n);
	sim_device_place(&p->res, dev, &pl);
	k = pl.tp_rank;
	sim_layers_text(pl.layers, list, sizeof list);
	if (p->res.ep > 1 && p->res.moe.experts > 0) {
		/* EP: the experts this GPU holds (sim_ep.c's placement) */
		k = p->res.moe.experts / p->res.ep;
		hl = pl.replica % p->res.ep * k;
		if (compact)
			snprintf(buf, n, "e%d-%d", hl, hl + k - 1);
		else if (k == 1)
			snprintf(buf, n, _("%s expert %d"), list, hl);
		else
			snprintf(buf, n, _("%s experts %d-%d"), list, hl,
			    hl + k - 1);
	} else if (p->cfg.mode == SIM_FSDP)
		snprintf(buf, n, compact ? "1/%d" : _("1/%d of %s"), p->d, list);
	else if (p->cfg.mode == SIM_DP && !compact)
		snprintf(buf, n, _("%s full copy"), list);
	else if (p->t > 1 && !compact && hl > 1)
		snprintf(buf, n, _("%s heads %d-%d"), list, k * hl,
		    k * hl + hl - 1);
	else if (p->t > 1 && !compact)
		snprintf(buf, n, _("%s head %d"), list, k * hl);
	else if (p->t > 1 && p->d == 1)
		snprintf(buf, n, "h%d-%d", k * hl, k * hl + hl - 1);
	else
		snprintf(buf, n, "%s", list);
	return buf;
}
