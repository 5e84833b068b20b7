/*
 * playground_figure.c - the playground's figures and their changes
 * against the previous or the starting layout.
 */
#include "core/course/playground.h"

double
pg_figure(const struct cm_result *r, enum pg_fig f)
{
	switch (f) {
	case PG_F_MEM_PARAMS: return r->mem_params;
	case PG_F_MEM_GRADS: return r->mem_grads;
	case PG_F_MEM_OPTIM: return r->mem_optim;
	case PG_F_MEM_ACT: return r->mem_act;
	case PG_F_MEM_OTHER: return r->mem_other;
	case PG_F_MEM_TOTAL: return r->mem_total;
	/* compute slowed by collectives beside it is compute time */
	case PG_F_T_COMPUTE: return r->t_compute + r->t_comm_slowed;
	case PG_F_T_COMM: return r->t_exposed_comm;
	case PG_F_T_BUBBLE: return r->t_bubble;
	case PG_F_T_OPTIM: return r->t_optimizer;
	case PG_F_T_STEP: return r->t_step;
	case PG_F_BUBBLE: return r->bubble_fraction;
	case PG_F_MFU: return r->mfu;
	case PG_F_TOKENS: return r->tokens_per_s;
	default: return 0;
	}
}

int
pg_has_base(const struct pg_state *s, enum pg_base base)
{
	return base == PG_VS_START ? s->have_start : s->have_prev;
}

double
pg_delta_from(const struct pg_state *s, enum pg_fig f, enum pg_base base)
{
	if (!s->cur_valid || !pg_has_base(s, base))
		return 0;
	return pg_figure(&s->cur, f) - pg_figure(base == PG_VS_START ?
	    &s->start : &s->prev, f);
}

double
pg_delta(const struct pg_state *s, enum pg_fig f)
{
	return pg_delta_from(s, f, PG_VS_PREV);
}
