/*
 * player_flow.c - the transfers of a simulated step as a player shows
 * them: what is in flight at a time t and how far its ring has got, which
 * links are busy, and the bytes each link has carried.
 *
 * A link's bytes come from the sends and the ring steps (each step moves
 * one chunk from a member to its ring neighbour); the whole-collective
 * events only group them, so nothing is counted twice.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sim/player.h"
#include "core/sim/player_int.h"

/* Does event e move bytes over a link (a send or a ring step)? */
static int
on_link(const struct sim_event *e)
{
	return (e->kind == SIM_SEND || e->kind == SIM_RING_STEP) &&
	    e->peer >= 0 && e->bytes > 0;
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

int
player_build_links(struct player *p)
{
	const struct sim_timeline *tl = &p->res.tl;
	struct player_link *l;
	size_t i;

	for (i = 0; i < tl->n_ev; i++) {
		if (!on_link(&tl->ev[i]))
			continue;
		if ((l = link_get(p, tl->ev[i].device, tl->ev[i].peer)) == NULL)
			return -1;
		l->total += tl->ev[i].bytes;
	}
	return 0;
}

/* Is collective id among ids[0..n)? */
static int
seen(const int *ids, size_t n, int id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* The ring step of the collective at ev[i] running at t, into f. */
static void
ring_at(const struct sim_timeline *tl, size_t i, double t,
    struct player_flow *f)
{
	const struct sim_event *c = &tl->ev[i], *e;
	size_t j;

	f->steps = c->ring_steps;
	f->step = -1;
	memset(f->sends, -1, sizeof f->sends);
	/* Ring steps may sort before their collective's event: same start. */
	for (j = i; j > 0 && tl->ev[j - 1].start >= c->start; j--)
		;
	for (; j < tl->n_ev && tl->ev[j].start <= t; j++) {
		e = &tl->ev[j];
		if (e->kind != SIM_RING_STEP || e->collective != c->collective ||
		    e->end <= t || e->device >= PLAYER_MAX_DEVICES)
			continue;
		f->step = e->ring_step;
		f->phase = e->phase;
		f->sends[e->device] = (signed char)e->ring_chunk;
	}
}

size_t
player_flows(const struct player *p, double t, struct player_flow *out,
    size_t max)
{
	const struct sim_timeline *tl = &p->res.tl;
	const struct sim_event *e;
	int ids[PLAYER_MAX_FLOWS];
	size_t i, k = 0;

	if (max > PLAYER_MAX_FLOWS)
		max = PLAYER_MAX_FLOWS;
	for (i = 0; i < tl->n_ev && tl->ev[i].start <= t && k < max; i++) {
		e = &tl->ev[i];
		if (e->end <= t || (e->kind != SIM_SEND &&
		    !sim_kind_is_collective(e->kind)))
			continue;
		if (e->kind != SIM_SEND && seen(ids, k, e->collective))
			continue;
		memset(&out[k], 0, sizeof out[k]);
		out[k].kind = e->kind;
		out[k].what = e->what;
		out[k].layer = e->layer;
		out[k].mb = e->microbatch;
		out[k].shard = e->shard;
		out[k].overlap = e->overlap;
		out[k].progress = e->end > e->start ?
		    (t - e->start) / (e->end - e->start) : 1.0;
		out[k].from = out[k].to = -1;
		out[k].expert = e->expert;
		out[k].tokens = e->tokens;
		ids[k] = e->collective;
		if (e->kind == SIM_SEND) {
			out[k].from = e->device;
			out[k].to = e->peer;
			out[k].bytes = e->bytes;
		} else {
			out[k].members = p->coll_members[e->collective];
			out[k].bytes = p->coll_bytes[e->collective];
			ring_at(tl, i, t, &out[k]);
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
		if (tl->ev[i].device == a && tl->ev[i].peer == b &&
		    tl->ev[i].end > t && on_link(&tl->ev[i]))
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
		if (!on_link(e))
			continue;
		f = e->end <= t || e->end <= e->start ? 1.0 :
		    (t - e->start) / (e->end - e->start);
		l = link_get(p, e->device, e->peer);
		if (l != NULL)
			l->bytes += f * (double)e->bytes;
	}
	return p->links;
}
