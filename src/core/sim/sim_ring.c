/*
 * sim_ring.c - ring attention's online softmax, forward and backward, on
 * one context-parallel rank (see sim_ring.h for the sources).
 */
#include <math.h>
#include <string.h>

#include "core/sim/sim_ring.h"

#define H	SIM_HIDDEN
#define S	SIM_SEQ
#define D	SIM_HEAD_DIM

int
sim_ring_position(int c, int ci, int lp)
{
	int hc = S / (2 * c);

	return lp < hc ? ci * hc + lp : (2 * c - 1 - ci) * hc + lp - hc;
}

static int
local_positions(const struct sim_shape *sh)
{
	return S / sh->cp;
}

void
sim_ring_fwd_init(const struct sim_shape *sh, double *m, double *l,
    double *ctx)
{
	size_t T = (size_t)sim_shape_tokens(sh), i;
	size_t heads = (size_t)(SIM_HEADS / sh->t);

	for (i = 0; i < T * heads; i++) {
		m[i] = -INFINITY;
		l[i] = 0.0;
	}
	memset(ctx, 0, T * (size_t)(H / sh->t) * sizeof *ctx);
}

static double
dot(const double *a, const double *b)
{
	double s = 0.0;
	int d;

	for (d = 0; d < D; d++)
		s += a[d] * b[d];
	return s;
}

void
sim_ring_fwd_step(const struct sim_shape *sh, int cq, int ckv,
    const double *q, const double *k, const double *v, double *m, double *l,
    double *ctx)
{
	int b = sh->b, hl = H / sh->t, heads = SIM_HEADS / sh->t;
	int sl = local_positions(sh), i, hh, pq, pk, d;
	double sc, w, r;

	for (pq = 0; pq < sl; pq++)
		for (i = 0; i < b; i++)
			for (hh = 0; hh < heads; hh++) {
				size_t row = (size_t)(pq * b + i);
				size_t st = row * heads + hh;
				const double *qr = q + row * hl + hh * D;
				double *c = ctx + row * hl + hh * D;

				for (pk = 0; pk < sl; pk++) {
					size_t rk = (size_t)(pk * b + i) * hl +
					    hh * D;

					if (sim_ring_position(sh->cp, ckv, pk) >
					    sim_ring_position(sh->cp, cq, pq))
						continue;
					sc = dot(qr, k + rk) / sqrt((double)D);
					if (sc > m[st]) {
						r = exp(m[st] - sc);
						l[st] *= r;
						for (d = 0; d < D; d++)
							c[d] *= r;
						m[st] = sc;
					}
					w = exp(sc - m[st]);
					l[st] += w;
					for (d = 0; d < D; d++)
						c[d] += w * v[rk + d];
				}
			}
}

void
sim_ring_fwd_finish(const struct sim_shape *sh, const double *m,
    const double *l, double *ctx, double *lse)
{
	size_t T = (size_t)sim_shape_tokens(sh), row, hh;
	size_t heads = (size_t)(SIM_HEADS / sh->t), hl = (size_t)(H / sh->t);
	int d;

	for (row = 0; row < T; row++)
		for (hh = 0; hh < heads; hh++) {
			size_t st = row * heads + hh;

			for (d = 0; d < D; d++)
				ctx[row * hl + hh * D + (size_t)d] /= l[st];
			lse[st] = m[st] + log(l[st]);
		}
}

void
sim_ring_bwd_init(const struct sim_shape *sh, const double *ctx,
    const double *dctx, double *dsum)
{
	size_t T = (size_t)sim_shape_tokens(sh), row, hh;
	size_t heads = (size_t)(SIM_HEADS / sh->t), hl = (size_t)(H / sh->t);

	for (row = 0; row < T; row++)
		for (hh = 0; hh < heads; hh++)
			dsum[row * heads + hh] = dot(ctx + row * hl + hh * D,
			    dctx + row * hl + hh * D);
}

void
sim_ring_bwd_step(const struct sim_shape *sh, int cq, int ckv,
    const double *q, const double *dctx, const double *lse,
    const double *dsum, const double *k, const double *v, double *dq,
    double *dk, double *dv)
{
	int b = sh->b, hl = H / sh->t, heads = SIM_HEADS / sh->t;
	int sl = local_positions(sh), i, hh, pq, pk, d;
	double scale = 1.0 / sqrt((double)D), p, ds;

	for (pq = 0; pq < sl; pq++)
		for (i = 0; i < b; i++)
			for (hh = 0; hh < heads; hh++) {
				size_t row = (size_t)(pq * b + i);
				size_t st = row * heads + hh;
				size_t rq = row * hl + hh * D;

				for (pk = 0; pk < sl; pk++) {
					size_t rk = (size_t)(pk * b + i) * hl +
					    hh * D;

					if (sim_ring_position(sh->cp, ckv, pk) >
					    sim_ring_position(sh->cp, cq, pq))
						continue;
					p = exp(dot(q + rq, k + rk) * scale -
					    lse[st]);
					ds = p * (dot(dctx + rq, v + rk) -
					    dsum[st]) * scale;
					for (d = 0; d < D; d++) {
						dq[rq + d] += ds * k[rk + d];
						dk[rk + d] += ds * q[rq + d];
						dv[rk + d] += p * dctx[rq + d];
					}
				}
			}
}

double
sim_ring_step_flops(const struct sim_shape *sh)
{
	double sl = local_positions(sh);

	return 4.0 * sh->b * (SIM_HEADS / sh->t) * sl * sl * D;
}
