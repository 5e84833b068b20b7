/*
 * sim_ring.h - ring attention's arithmetic for context parallelism: one
 * rank's share of causal attention when the sequence is split over c
 * ranks and the keys and values travel round the ring.
 *
 * Load balance (Megatron-Core's context parallelism): each sequence is
 * cut into 2c chunks of SIM_SEQ/(2c) positions and rank i holds chunks i
 * and 2c-1-i, so every rank has the same share of the causal mask. Its
 * local positions 0 .. SIM_SEQ/c - 1 are chunk i then chunk 2c-1-i.
 *
 * Forward: the rank's queries meet one K/V block per ring step (its own
 * first, then c-1 visitors) and merge the partial results with the online
 * softmax of FlashAttention (Dao et al. 2022, Algorithm 1) as Ring
 * Attention does (Liu et al. 2023, §3): a running maximum m and sum l
 * per query row and head, ctx rescaled by exp(m_old - m_new). The finish
 * divides by l and keeps lse = m + log l, the only softmax state the
 * backward needs. Backward (FlashAttention's Algorithm 2): with
 * D = rowsum(dctx * ctx), each visiting block gives p = exp(s - lse),
 * dq += ds k, and dk, dv of the visitor (ds = p (dctx.v - D) / sqrt(d)),
 * which travel on with the block back to its owner.
 *
 * Arrays are the rank's T = b*SIM_SEQ/c rows in the [position][sequence]
 * layout, Hl = hidden/t columns; state and lse are T x heads/t.
 */
#ifndef PARLEARN_CORE_SIM_RING_H
#define PARLEARN_CORE_SIM_RING_H

#include "core/sim/sim_block.h"

/* Global position of local position lp on CP rank ci of c. */
int	sim_ring_position(int c, int ci, int lp);

/* Clear the online-softmax state (m, l: T x heads) and ctx. */
void	sim_ring_fwd_init(const struct sim_shape *, double *m, double *l,
	    double *ctx);

/*
 * One ring step: rank cq's queries q against the block k, v of rank ckv,
 * causally masked by global position, merged into m, l, ctx.
 */
void	sim_ring_fwd_step(const struct sim_shape *, int cq, int ckv,
	    const double *q, const double *k, const double *v, double *m,
	    double *l, double *ctx);

/* Normalise ctx by l and write lse = m + log l. */
void	sim_ring_fwd_finish(const struct sim_shape *, const double *m,
	    const double *l, double *ctx, double *lse);

/* D = rowsum(dctx * ctx) per row and head, into dsum (T x heads). */
void	sim_ring_bwd_init(const struct sim_shape *, const double *ctx,
	    const double *dctx, double *dsum);

/*
 * One backward ring step: rank cq's queries against the visiting block
 * of rank ckv; dq (this rank's) and dk, dv (the visitor's) accumulated.
 */
void	sim_ring_bwd_step(const struct sim_shape *, int cq, int ckv,
	    const double *q, const double *dctx, const double *lse,
	    const double *dsum, const double *k, const double *v, double *dq,
	    double *dk, double *dv);

/* Forward FLOPs of one ring step's scores and weighted sum. */
double	sim_ring_step_flops(const struct sim_shape *);

#endif
