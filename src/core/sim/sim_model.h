/*
 * sim_model.h - the toy network's numbers: its seeded data and initial
 * parameters, and the dense kernels a device runs on its own buffers.
 *
 * Matrices are row-major doubles. A layer's weight W is in x out, so a
 * forward pass is z = x W + b for x of rows x in. The full parameter
 * layout (struct sim_result's grads and params) is, layer after layer,
 * W (16 x 16) then b (16): SIM_LAYER_PARAMS values per layer.
 */
#ifndef PARLEARN_CORE_SIM_MODEL_H
#define PARLEARN_CORE_SIM_MODEL_H

#include <stdint.h>

#include "core/sim/sim.h"

#define SIM_LAYER_PARAMS	(SIM_WIDTH * SIM_WIDTH + SIM_WIDTH)

/* The fixed batch: x and target, each SIM_BATCH x SIM_WIDTH. */
void	sim_model_data(double *x, double *target);

/* The initial parameters in the full layout (SIM_NPARAMS values). */
void	sim_model_init(double *params);

/* C (r x n) = A (r x k) B (k x n). */
void	sim_mm(const double *a, const double *b, double *c, int r, int k,
	    int n);
/* G (k x n) += A^T D, A r x k, D r x n. */
void	sim_mm_tn_acc(const double *a, const double *d, double *g, int r,
	    int k, int n);
/* X (r x k) = D (r x n) W^T, W k x n. */
void	sim_mm_nt(const double *d, const double *w, double *x, int r, int k,
	    int n);
/* z (r x n) += b (n) on every row. */
void	sim_add_bias(double *z, const double *b, int r, int n);
/* g (n) += column sums of d (r x n). */
void	sim_colsum_acc(const double *d, double *g, int r, int n);
/* h = tanh(h), elementwise over len values. */
void	sim_tanh(double *h, int len);
/* dz = dh * (1 - h^2), in place in dh. */
void	sim_tanh_back(double *dh, const double *h, int len);

/*
 * The loss of rows of y against their targets t (both rows x SIM_WIDTH):
 * returns sum |y - t|^2 / (2 B) over those rows, B = SIM_BATCH, and writes
 * dy = (y - t) / B.
 */
double	sim_loss(const double *y, const double *t, int rows, double *dy);

/* One Adam step at step 1 on n values: w, g, m, v as PyTorch's Adam. */
void	sim_adam(double *w, const double *g, double *m, double *v, size_t n);

#endif
