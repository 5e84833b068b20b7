/*
 * sim_moe.c - the mixture-of-experts MLP's arithmetic (sim_moe.h): the
 * router, one expert on one token forward and backward, and the whole
 * MLP on a device that holds every expert. Expert parallelism
 * (sim_ep.c, run_ep.c) calls the same per-token functions on the
 * devices the tokens travel to, in the same order, so its sums are the
 * single device's.
 */
#include <math.h>
#include <string.h>

#include "core/sim/sim_moe.h"

#define H	SIM_HIDDEN
#define F	SIM_FFN
#define KMAX	SIM_MOE_MAX_EXPERTS

int
sim_moe_width(const struct sim_moe *m)
{
	return (F - m->experts) / (m->experts + (m->shared ? 1 : 0));
}

int
sim_moe_col0(const struct sim_moe *m, int j)
{
	return j < 0 ? 0 : ((m->shared ? 1 : 0) + j) * sim_moe_width(m);
}

/* Router logit j of x: column F - E + j of w1. */
static double
logit(const struct sim_moe *m, const struct sim_lparams *w, const double *x,
    int j)
{
	int c = F - m->experts + j, h;
	double z = 0.0;

	for (h = 0; h < H; h++)
		z += x[h] * w->w1[h * F + c];
	return z;
}

void
sim_moe_route(const struct sim_moe *m, const struct sim_lparams *w,
    const double *x, int *sel, double *gate)
{
	double z[KMAX], score[KMAX], mx, sum = 0.0;
	int used[KMAX] = { 0 }, i, j, best;

	for (j = 0; j < m->experts; j++) {
		z[j] = logit(m, w, x, j);
		score[j] = z[j] + (j == 0 ? m->router_bias : 0);
	}
	/* top-k by score, ties to the lower index (torch.topk's order) */
	for (i = 0; i < m->top_k; i++) {
		best = -1;
		for (j = 0; j < m->experts; j++)
			if (!used[j] && (best < 0 || score[j] > score[best]))
				best = j;
		used[best] = 1;
		sel[i] = best;
	}
	mx = z[sel[0]];
	for (i = 1; i < m->top_k; i++)
		if (z[sel[i]] > mx)
			mx = z[sel[i]];
	for (i = 0; i < m->top_k; i++)
		sum += (gate[i] = exp(z[sel[i]] - mx));
	for (i = 0; i < m->top_k; i++)
		gate[i] /= sum;
}

void
sim_moe_route_bwd(const struct sim_moe *m, const struct sim_lparams *w,
    const struct sim_lparams *g, const double *x, const int *sel,
    const double *gate, const double *dgate, double *dx)
{
	double dot = 0.0, dz;
	int i, h, c;

	for (i = 0; i < m->top_k; i++)
		dot += gate[i] * dgate[i];
	for (i = 0; i < m->top_k; i++) {
		dz = gate[i] * (dgate[i] - dot);
		c = F - m->experts + sel[i];
		for (h = 0; h < H; h++) {
			g->w1[h * F + c] += x[h] * dz;
			dx[h] += w->w1[h * F + c] * dz;
		}
	}
}

void
sim_moe_expert_fwd(const struct sim_moe *m, const struct sim_lparams *w,
    int j, const double *x, double *u, double *a, double *o)
{
	int fe = sim_moe_width(m), c0 = sim_moe_col0(m, j), f, h;
	double s;

	for (f = 0; f < fe; f++) {
		for (s = w->b1[c0 + f], h = 0; h < H; h++)
			s += x[h] * w->w1[h * F + c0 + f];
		u[f] = s;
		a[f] = sim_gelu(s);
	}
	for (h = 0; h < H; h++) {
		for (s = 0.0, f = 0; f < fe; f++)
			s += a[f] * w->w2[(c0 + f) * H + h];
		o[h] = s;
	}
}

void
sim_moe_expert_bwd(const struct sim_moe *m, const struct sim_lparams *w,
    const struct sim_lparams *g, int j, const double *x, const double *u,
    const double *a, const double *dout, double *dx)
{
	int fe = sim_moe_width(m), c0 = sim_moe_col0(m, j), f, h;
	double du[F], s;

	for (f = 0; f < fe; f++) {
		for (s = 0.0, h = 0; h < H; h++) {
			s += dout[h] * w->w2[(c0 + f) * H + h];
			g->w2[(c0 + f) * H + h] += a[f] * dout[h];
		}
		du[f] = s * sim_gelu_grad(u[f]);
		g->b1[c0 + f] += du[f];
	}
	for (h = 0; h < H; h++) {
		for (s = 0.0, f = 0; f < fe; f++) {
			s += w->w1[h * F + c0 + f] * du[f];
			g->w1[h * F + c0 + f] += x[h] * du[f];
		}
		dx[h] += s;
	}
}

double
sim_moe_flops_local(const struct sim_moe *m, int T)
{
	return 2.0 * T * H * m->experts +
	    (m->shared ? sim_moe_flops_expert(m, T) : 0.0);
}

double
sim_moe_flops_expert(const struct sim_moe *m, int rows)
{
	return 4.0 * rows * H * sim_moe_width(m);
}

void
sim_moe_fwd_mlp(const struct sim_shape *sh, const struct sim_moe *m,
    const struct sim_lparams *w, struct sim_saved *s, double *part)
{
	int T = sim_shape_tokens(sh), t, i, h, c0, sel[KMAX];
	double gate[KMAX], o[H], *x, *y;

	memset(s->u, 0, (size_t)T * F * sizeof *s->u);
	memset(s->a, 0, (size_t)T * F * sizeof *s->a);
	for (t = 0; t < T; t++) {
		x = s->n2 + (size_t)t * H;
		y = part + (size_t)t * H;
		memset(y, 0, H * sizeof *y);
		if (m->shared) {
			sim_moe_expert_fwd(m, w, -1, x, s->u + (size_t)t * F,
			    s->a + (size_t)t * F, o);
			memcpy(y, o, H * sizeof *y);
		}
		sim_moe_route(m, w, x, sel, gate);
		for (i = 0; i < m->top_k; i++) {
			c0 = sim_moe_col0(m, sel[i]);
			sim_moe_expert_fwd(m, w, sel[i], x,
			    s->u + (size_t)t * F + c0,
			    s->a + (size_t)t * F + c0, o);
			for (h = 0; h < H; h++)
				y[h] += gate[i] * o[h];
		}
	}
}

void
sim_moe_bwd_mlp(const struct sim_shape *sh, const struct sim_moe *m,
    const struct sim_lparams *w, const struct sim_lparams *g,
    const struct sim_saved *s, const double *dy_whole, double *part)
{
	int T = sim_shape_tokens(sh), t, i, h, c0, sel[KMAX];
	double gate[KMAX], dgate[KMAX], o[H], dout[H], ut[F], at[F];
	const double *x, *dy;
	double *dx;

	for (t = 0; t < T; t++) {
		x = s->n2 + (size_t)t * H;
		dy = dy_whole + (size_t)t * H;
		dx = part + (size_t)t * H;
		memset(dx, 0, H * sizeof *dx);
		if (m->shared)
			sim_moe_expert_bwd(m, w, g, -1, x, s->u + (size_t)t * F,
			    s->a + (size_t)t * F, dy, dx);
		sim_moe_route(m, w, x, sel, gate);
		for (i = 0; i < m->top_k; i++) {
			c0 = sim_moe_col0(m, sel[i]);
			sim_moe_expert_fwd(m, w, sel[i], x, ut, at, o);
			for (dgate[i] = 0.0, h = 0; h < H; h++) {
				dgate[i] += dy[h] * o[h];
				dout[h] = gate[i] * dy[h];
			}
			sim_moe_expert_bwd(m, w, g, sel[i], x,
			    s->u + (size_t)t * F + c0,
			    s->a + (size_t)t * F + c0, dout, dx);
		}
		sim_moe_route_bwd(m, w, g, x, sel, gate, dgate, dx);
	}
}
