/*
 * sim_model.c - the toy network's data, initial weights and kernels.
 *
 * The PRNG is splitmix64 (Steele, Lea, Flood 2014) seeded with a constant,
 * so every run and every platform sees the same batch and weights; rand()
 * is never used. Weights are uniform in [-0.5, 0.5), biases in
 * [-0.1, 0.1), inputs and targets in [-1, 1): tanh stays away from
 * saturation, so gradients are well above rounding.
 */
#include <math.h>
#include <stddef.h>

#include "core/sim/sim_model.h"

#define SEED_DATA	0x5eedda7aULL
#define SEED_PARAMS	0x9a4a3e7eULL

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

	for (i = 0; i < SIM_BATCH * SIM_WIDTH; i++)
		x[i] = uniform(&s);
	for (i = 0; i < SIM_BATCH * SIM_WIDTH; i++)
		target[i] = uniform(&s);
}

void
sim_model_init(double *params)
{
	uint64_t s = SEED_PARAMS;
	int l, i;
	double *p;

	for (l = 0; l < SIM_LAYERS; l++) {
		p = params + (size_t)l * SIM_LAYER_PARAMS;
		for (i = 0; i < SIM_WIDTH * SIM_WIDTH; i++)
			p[i] = 0.5 * uniform(&s);
		for (i = 0; i < SIM_WIDTH; i++)
			p[SIM_WIDTH * SIM_WIDTH + i] = 0.1 * uniform(&s);
	}
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
sim_mm_nt(const double *d, const double *w, double *x, int r, int k, int n)
{
	int i, j, q;
	double sum;

	for (i = 0; i < r; i++)
		for (q = 0; q < k; q++) {
			for (sum = 0.0, j = 0; j < n; j++)
				sum += d[i * n + j] * w[q * n + j];
			x[i * k + q] = sum;
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

void
sim_tanh(double *h, int len)
{
	int i;

	for (i = 0; i < len; i++)
		h[i] = tanh(h[i]);
}

void
sim_tanh_back(double *dh, const double *h, int len)
{
	int i;

	for (i = 0; i < len; i++)
		dh[i] *= 1.0 - h[i] * h[i];
}

double
sim_loss(const double *y, const double *t, int rows, double *dy)
{
	double sum = 0.0, e;
	int i;

	for (i = 0; i < rows * SIM_WIDTH; i++) {
		e = y[i] - t[i];
		sum += e * e;
		dy[i] = e / SIM_BATCH;
	}
	return sum / (2.0 * SIM_BATCH);
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
