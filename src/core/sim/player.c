/*
 * player.c - playback of a simulated step: running the config, the clock,
 * stepping and speed, and what a device is doing at a time t.
 *
 * The layout (replicas d x stages p x TP ranks t, rank (r*p + s)*t + k,
 * chunks v, lps layers per virtual stage) is the simulator's, as sim_run
 * reports it. Everything else comes from the events: which collective a
 * ring step belongs to and who its members are (the collective id), what
 * a transfer carries (its payload), which slice of the batch a pass works
 * on (its shard and micro-batch).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/sim/player.h"
#include "core/sim/player_int.h"

static const double speeds[PLAYER_NSPEEDS] = {
	0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0
};

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
		    tl->ev[i].start > p->stops[p->n_stops - 1] + PLAYER_EPS)
			p->stops[p->n_stops++] = tl->ev[i].start;
	if (tl->t_end > p->stops[p->n_stops - 1] + PLAYER_EPS)
		p->stops[p->n_stops++] = tl->t_end;
	return 0;
}

/* Who takes part in each collective and how many bytes it moves. */
static int
build_collectives(struct player *p)
{
	const struct sim_timeline *tl = &p->res.tl;
	const struct sim_event *e;
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].collective >= p->n_coll)
			p->n_coll = tl->ev[i].collective + 1;
	p->coll_members = calloc((size_t)p->n_coll + 1,
	    sizeof *p->coll_members);
	p->coll_bytes = calloc((size_t)p->n_coll + 1, sizeof *p->coll_bytes);
	if (p->coll_members == NULL || p->coll_bytes == NULL)
		return -1;
	for (i = 0; i < tl->n_ev; i++) {
		e = &tl->ev[i];
		if (e->collective < 0 || !sim_kind_is_collective(e->kind))
			continue;
		p->coll_members[e->collective] |= 1u << e->device;
		p->coll_bytes[e->collective] += e->bytes;
	}
	return 0;
}

/* The most activation bytes any device of tl held. */
static size_t
acts_peak(const struct sim_timeline *tl)
{
	size_t i, m = 0;

	for (i = 0; i < tl->n_mem; i++)
		if (tl->mem[i].bytes[SIM_MEM_ACTS] > m)
			m = tl->mem[i].bytes[SIM_MEM_ACTS];
	return m;
}

/* cp: its activation peak, and the single run's for comparison. */
static void
cp_savings(struct player *p)
{
	struct sim_config one;
	struct sim_result r;

	p->acts_peak = acts_peak(&p->res.tl);
	sim_config_default(&one, SIM_SINGLE, 1);
	if (sim_run(&one, &r, NULL) == 0)
		p->acts_single = acts_peak(&r.tl);
	sim_result_free(&r);
}

/* Everything playback reads off p->res. 0, or -1 (p freed). */
static int
prepare(struct player *p, struct pl_err *err)
{
	int d;

	p->d = p->res.dp;
	p->p = p->res.pp;
	p->t = p->res.tp;
	p->v = p->res.v;
	p->lps = SIM_LAYERS / (p->p * p->v);
	p->m = p->cfg.microbatches;
	p->b = SIM_BATCH / (p->d * p->m);
	if (p->res.tl.n_devices > PLAYER_MAX_DEVICES) {
		pl_err_set(err, NULL, 0, 0, _("the player shows at most %d "
		    "devices, not %d"), PLAYER_MAX_DEVICES,
		    p->res.tl.n_devices);
		player_free(p);
		return -1;
	}
	if (build_stops(p) != 0 || build_collectives(p) != 0 ||
	    player_build_links(p) != 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		player_free(p);
		return -1;
	}
	for (d = 0; d < p->res.tl.n_devices; d++)
		if (sim_timeline_peak(&p->res.tl, d) > p->peak)
			p->peak = sim_timeline_peak(&p->res.tl, d);
	if (p->res.cp > 1)
		cp_savings(p);
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
	return prepare(p, err);
}

int
player_init_result(struct player *p, const struct sim_config *cfg,
    struct sim_result *res, const struct sim_origin *origin,
    struct pl_err *err)
{
	memset(p, 0, sizeof *p);
	p->speed = 3;
	p->cfg = *cfg;
	p->res = *res;
	memset(&res->tl, 0, sizeof res->tl);
	if (origin != NULL)
		p->origin = *origin;
	return prepare(p, err);
}

void
player_free(struct player *p)
{
	if (p == NULL)
		return;
	sim_result_free(&p->res);
	free(p->stops);
	free(p->links);
	free(p->coll_members);
	free(p->coll_bytes);
	p->stops = NULL;
	p->links = NULL;
	p->coll_members = NULL;
	p->coll_bytes = NULL;
	p->n_stops = p->n_links = 0;
	p->n_coll = 0;
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
			if (p->stops[i] > p->now + PLAYER_EPS) {
				p->now = p->stops[i];
				break;
			}
	} else {
		for (i = p->n_stops; i-- > 0;)
			if (p->stops[i] < p->now - PLAYER_EPS) {
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
		if (e->device != dev || e->end <= t || !sim_event_is_busy(e))
			continue;
		if (sim_kind_is_compute(e->kind))
			return e;
		best = e;
	}
	return best;
}

int
player_label(const struct player *p, const struct sim_event *e)
{
	if (e->microbatch < 0)
		return -1;
	return (e->shard > 0 ? e->shard : 0) * p->m + e->microbatch;
}

void
player_shard_seqs(const struct player *p, int dev, int *lo, int *hi)
{
	int r = dev / (p->t * p->p);

	*lo = r * p->m * p->b;
	*hi = *lo + p->m * p->b - 1;
}
