/*
 * sim_model.c - the toy transformer's parameter layout, data, initial
 * weights, loss, Adam, and the dense matrix kernels.
 *
 * The PRNG is splitmix64 (Steele, Lea, Flood 2014) seeded with a constant,
 * so every run and every platform sees the same batch and weights; rand()
 * is never used. Weights are uniform in +-1/sqrt(fan-in), biases in
 * +-0.1, norm gains in 1 +- 0.1, inputs and targets in [-1, 1): the
 * activations stay of order one, so gradients are well above rounding.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sim_block.h"
#include "core/sim/sim_model.h"
#include "core/sim/sim_moe.h"

#define H	SIM_HIDDEN
#define F	SIM_FFN

#define SEED_DATA	0x5eedda7aULL
#define SEED_PARAMS	0x9a4a3e7eULL

size_t
sim_layer_size(int t)
{
	size_t hl = (size_t)(H / t), fl = (size_t)(F / t);

	return 2 * H + 3 * (H * hl + hl) + hl * H + H + H * fl + fl +
	    fl * H + H;
}

void
sim_lparams_view(double *base, int t, struct sim_lparams *lp)
{
	size_t hl = (size_t)(H / t), fl = (size_t)(F / t);
	double *p = base;

	lp->g1 = p;	p += H;
	lp->wq = p;	p += H * hl;
	lp->bq = p;	p += hl;
	lp->wk = p;	p += H * hl;
	lp->bk = p;	p += hl;
	lp->wv = p;	p += H * hl;
	lp->bv = p;	p += hl;
	lp->wo = p;	p += hl * H;
	lp->bo = p;	p += H;
	lp->g2 = p;	p += H;
	lp->w1 = p;	p += H * fl;
	lp->b1 = p;	p += fl;
	lp->w2 = p;	p += fl * H;
	lp->b2 = p;
}

/* Copy n values between loc and full in the direction to_local says. */
static void
move(double *loc, double *full, size_t n, int to_local)
{
	if (to_local)
		memcpy(loc, full, n * sizeof *loc);
	else
		memcpy(full, loc, n * sizeof *loc);
}

/* Columns c0 .. c0+w-1 of an r x n matrix. */
static void
move_cols(double *loc, double *full, int r, int n, int c0, int w,
    int to_local)
{
	int i;

	for (i = 0; i < r; i++)
		move(loc + (size_t)i * w, full + (size_t)i * n + c0, (size_t)w,
		    to_local);
}

void
sim_layer_map(int t, int k, double *loc, double *full, int to_local)
{
	struct sim_lparams l, f;
	int hl = H / t, fl = F / t;

	sim_lparams_view(loc, t, &l);
	sim_lparams_view(full, 1, &f);
	move(l.g1, f.g1, H, to_local);
	move_cols(l.wq, f.wq, H, H, k * hl, hl, to_local);
	move(l.bq, f.bq + k * hl, (size_t)hl, to_local);
	move_cols(l.wk, f.wk, H, H, k * hl, hl, to_local);
	move(l.bk, f.bk + k * hl, (size_t)hl, to_local);
	move_cols(l.wv, f.wv, H, H, k * hl, hl, to_local);
	move(l.bv, f.bv + k * hl, (size_t)hl, to_local);
	move(l.wo, f.wo + (size_t)k * hl * H, (size_t)hl * H, to_local);
	move(l.bo, f.bo, H, to_local);
	move(l.g2, f.g2, H, to_local);
	move_cols(l.w1, f.w1, H, F, k * fl, fl, to_local);
	move(l.b1, f.b1 + k * fl, (size_t)fl, to_local);
	move(l.w2, f.w2 + (size_t)k * fl * H, (size_t)fl * H, to_local);
	move(l.b2, f.b2, H, to_local);
}

static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [-1, 1) with 53 random bits. */
static double
uniform(uint64_t *s)
{
	return (double)(splitmix64(s) >> 11) * 0x1.0p-52 - 1.0;
}

void
sim_model_data(double *x, double *target)
{
	uint64_t s = SEED_DATA;
	int i;

	for (i = 0; i < SIM_TOKENS * H; i++)
		x[i] = uniform(&s);
	for (i = 0; i < SIM_TOKENS * H; i++)
		target[i] = uniform(&s);
}

static void
fill(double *p, size_t n, double scale, double base, uint64_t *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = base + scale * uniform(s);
}

void
sim_model_init(double *params)
{
	struct sim_lparams lp;
	uint64_t s = SEED_PARAMS;
	double wh = 1.0 / sqrt((double)H), wf = 1.0 / sqrt((double)F);
	int l;

	for (l = 0; l < SIM_LAYERS; l++) {
		sim_lparams_view(params + (size_t)l * SIM_LAYER_PARAMS, 1, &lp);
		fill(lp.g1, H, 0.1, 1.0, &s);
		fill(lp.wq, H * H, wh, 0.0, &s);
		fill(lp.bq, H, 0.1, 0.0, &s);
		fill(lp.wk, H * H, wh, 0.0, &s);
		fill(lp.bk, H, 0.1, 0.0, &s);
		fill(lp.wv, H * H, wh, 0.0, &s);
		fill(lp.bv, H, 0.1, 0.0, &s);
		fill(lp.wo, H * H, wh, 0.0, &s);
		fill(lp.bo, H, 0.1, 0.0, &s);
		fill(lp.g2, H, 0.1, 1.0, &s);
		fill(lp.w1, H * F, wh, 0.0, &s);
		fill(lp.b1, F, 0.1, 0.0, &s);
		fill(lp.w2, F * H, wf, 0.0, &s);
		fill(lp.b2, H, 0.1, 0.0, &s);
	}
}

void
sim_model_slice(const double *batch, int g0, int b, int p0, int p1,
    double *out)
{
	int p, i;

	for (p = p0; p < p1; p++)
		for (i = 0; i < b; i++)
			memcpy(out + ((size_t)(p - p0) * b + i) * H,
			    batch + ((size_t)(g0 + i) * SIM_SEQ + p) * H,
			    H * sizeof *out);
}

double
sim_loss(const double *y, const double *t, int rows, double *dy)
{
	double sum = 0.0, e;
	int i;

	for (i = 0; i < rows * H; i++) {
		e = y[i] - t[i];
		sum += e * e;
		dy[i] = e / SIM_TOKENS;
	}
	return sum / (2.0 * SIM_TOKENS);
}

void
sim_adam(double *w, const double *g, double *m, double *v, size_t n)
{
	const double lr = 1e-3, b1 = 0.9, b2 = 0.999, eps = 1e-8;
	size_t i;

	/* Step 1: bias corrections 1 - b1 and 1 - b2. */
	for (i = 0; i < n; i++) {
		m[i] = b1 * m[i] + (1.0 - b1) * g[i];
		v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
		w[i] -= lr * (m[i] / (1.0 - b1)) /
		    (sqrt(v[i] / (1.0 - b2)) + eps);
	}
}

double
sim_model_loss(const double *params)
{
	return sim_model_loss_moe(params, NULL);
}

double
sim_model_loss_moe(const double *params, const struct sim_moe *moe)
{
	struct sim_shape sh = { SIM_BATCH, 1, 0, 1 };
	size_t n = (size_t)SIM_TOKENS * H, ns = sim_saved_len(&sh);
	double *x = malloc(n * sizeof *x), *t = malloc(n * sizeof *t);
	double *a = malloc(n * sizeof *a), *y = malloc(n * sizeof *y);
	double *part = malloc(n * sizeof *part), *dy = malloc(n * sizeof *dy);
	double *sv = malloc(ns * sizeof *sv), *raw = malloc(n * sizeof *raw);
	double *traw = malloc(n * sizeof *traw), loss = NAN;
	struct sim_lparams lp;
	struct sim_saved s;
	int l;

	if (x == NULL || t == NULL || a == NULL || y == NULL || part == NULL ||
	    dy == NULL || sv == NULL || raw == NULL || traw == NULL)
		goto out;
	sim_model_data(raw, traw);
	sim_model_slice(raw, 0, SIM_BATCH, 0, SIM_SEQ, x);
	sim_model_slice(traw, 0, SIM_BATCH, 0, SIM_SEQ, t);
	sim_saved_view(sv, &sh, &s);
	memcpy(a, x, n * sizeof *a);
	for (l = 0; l < SIM_LAYERS; l++) {
		sim_lparams_view((double *)params + (size_t)l * SIM_LAYER_PARAMS,
		    1, &lp);
		sim_fwd_norm1(&sh, 0, &lp, a, &s);
		sim_fwd_attn(&sh, &lp, &s, part);
		sim_fwd_resid1(&sh, 0, &lp, a, part, &s);
		if (moe != NULL && moe->experts > 0)
			sim_moe_fwd_mlp(&sh, moe, &lp, &s, part);
		else
			sim_fwd_mlp(&sh, &lp, &s, part);
		sim_fwd_resid2(&sh, 0, &lp, &s, part, y);
		memcpy(a, y, n * sizeof *a);
	}
	loss = sim_loss(a, t, SIM_TOKENS, dy);
out:
	free(x);
	free(t);
	free(a);
	free(y);
	free(part);
	free(dy);
	free(sv);
	free(raw);
	free(traw);
	return loss;
}

void
sim_mm(const double *a, const double *b, double *c, int r, int k, int n)
{
	int i, j, q;
	double sum;

	for (i = 0; i < r; i++)
		for (j = 0; j < n; j++) {
			for (sum = 0.0, q = 0; q < k; q++)
				sum += a[i * k + q] * b[q * n + j];
			c[i * n + j] = sum;
		}
}

void
sim_mm_tn_acc(const double *a, const double *d, double *g, int r, int k,
    int n)
{
	int i, j, q;
	double sum;

	for (q = 0; q < k; q++)
		for (j = 0; j < n; j++) {
			for (sum = 0.0, i = 0; i < r; i++)
				sum += a[i * k + q] * d[i * n + j];
			g[q * n + j] += sum;
		}
}

void
sim_mm_nt_acc(const double *d, const double *w, double *x, int r, int k,
    int n)
{
	int i, j, q;
	double sum;

	for (i = 0; i < r; i++)
		for (q = 0; q < k; q++) {
			for (sum = 0.0, j = 0; j < n; j++)
				sum += d[i * n + j] * w[q * n + j];
			x[i * k + q] += sum;
		}
}

void
sim_add_bias(double *z, const double *b, int r, int n)
{
	int i, j;

	for (i = 0; i < r; i++)
		for (j = 0; j < n; j++)
			z[i * n + j] += b[j];
}

void
sim_colsum_acc(const double *d, double *g, int r, int n)
{
	int i, j;
	double sum;

	for (j = 0; j < n; j++) {
		for (sum = 0.0, i = 0; i < r; i++)
			sum += d[i * n + j];
		g[j] += sum;
	}
}

size_t
sim_replicated_copy(const struct sim_lparams *p, double *buf, int to_buf)
{
	double *const parts[4] = { p->g1, p->bo, p->g2, p->b2 };
	size_t n = 0;
	int j;

	for (j = 0; j < 4; j++, n += SIM_HIDDEN) {
		if (to_buf)
			memcpy(buf + n, parts[j], SIM_HIDDEN * sizeof *buf);
		else
			memcpy(parts[j], buf + n, SIM_HIDDEN * sizeof *buf);
	}
	return n;
}
