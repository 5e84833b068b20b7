/*
 * sim_cursor.c - one pipeline pass (a forward, a backward or a W) as a
 * sequence of steps: its layers' steps (sim_layer_step_kind), then the
 * hand-over to the next stage. The simulator (sim_pipeline.c) and the
 * MPI run (run_exec.c) walk passes with it, so both run the same steps.
 */
#include <string.h>

#include "core/sim/sim_modes.h"

void
sim_cursor_init(struct sim_cursor *c, const struct sim_layout *lay,
    const struct sched *sc, int s, const struct sched_op *op)
{
	memset(c, 0, sizeof *c);
	c->s = s;
	c->vs = sched_vstage(sc, s, op);
	c->mb = op->mb;
	/* events carry: interleaved, the chunk vs / p; DualPipe, the
	 * direction */
	c->chunk = lay->dual ? sched_direction(sc, op->mb) : c->vs / lay->p;
	c->pass = op->pass;
	c->forward = op->forward;
}

int
sim_cursor_layer(const struct sim_layout *lay, const struct sim_cursor *c)
{
	int l0 = c->vs * lay->lps;

	return c->forward ? l0 + c->l : l0 + lay->lps - 1 - c->l;
}

static enum sim_step_kind
step_kind(const struct sim_layout *lay, const struct sim_cursor *c)
{
	if (c->pass == SCHED_W)
		return c->step == 0 ? SIM_STEP_COMPUTE : SIM_STEP_NONE;
	return sim_layer_step_kind(lay, c->forward, c->step);
}

enum sim_step_kind
sim_cursor_peek(const struct sim_layout *lay, struct sim_cursor *c)
{
	enum sim_step_kind k;

	for (; c->l < lay->lps; c->l++, c->step = 0)
		for (; c->step < SIM_LAYER_NSTEPS; c->step++)
			if ((k = step_kind(lay, c)) != SIM_STEP_NONE)
				return k;
	return c->handed || c->pass == SCHED_W ? SIM_STEP_NONE :
	    SIM_STEP_COMM;
}
