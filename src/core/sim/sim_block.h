/*
 * sim_block.h - one transformer block of the toy, forward and backward,
 * cut at the points where a tensor-parallel group must communicate.
 *
 * These are pure functions on arrays: they read parameters and
 * activations, write results, and neither allocate nor move data between
 * devices. The simulator (sim_layer.c) calls them on every simulated
 * device and runs the collectives in between; a driver on real processes
 * can call them the same way with MPI collectives in between.
 *
 * A rank holds a shard of a layer (struct sim_lparams with t, see
 * sim_model.h) and works on a micro-batch of b sequences, T = b*SIM_SEQ
 * tokens in the [position][sequence] layout. Without sequence parallelism
 * (sp 0) the residual stream x, h, y is whole on every rank (Tl = T
 * rows); with it (sp 1) rank k holds positions k*SIM_SEQ/t .. , Tl = T/t
 * rows starting at row k*Tl of the whole. Arrays named "whole" are T x H
 * and, with sp, carry this rank's rows at row k*Tl.
 *
 * The order of calls for one layer, with the communication between (t
 * ranks; with t = 1 every collective is a no-op):
 *
 *   forward                               backward (dy given, Tl x H)
 *   norm1          -> sp: all-gather n1   out    -> sp: all-gather dY
 *   attn -> part   -> all-reduce, or      mlp -> part -> all-reduce, or
 *                     sp: reduce-scatter                sp: reduce-scatter
 *   resid1 (and norm2) -> sp: gather n2   norm2  -> sp: all-gather dH
 *   mlp -> part    -> all-reduce / r-s    attn -> part -> all-reduce / r-s
 *   resid2 -> y                           norm1 -> dx
 *
 * Megatron-LM's f and g operators ([NAR21] §2.3): two all-reduces
 * forward and two backward per layer, or with sequence parallelism
 * ([KOR22] §4.2.2) two all-gathers and two reduce-scatters each way.
 */
#ifndef PARLEARN_CORE_SIM_BLOCK_H
#define PARLEARN_CORE_SIM_BLOCK_H

#include <stddef.h>

#include "core/sim/sim_model.h"

struct sim_shape {
	int	 b;		/* sequences in the micro-batch */
	int	 t;		/* TP ranks the layer is split over, 1 whole */
	int	 sp;		/* 1: sequence parallel residual stream */
	int	 cp;		/* context parallel ranks (0 or 1: none): this
				   rank holds SIM_SEQ/cp positions of each
				   sequence, attention runs in sim_ring.c */
};

/* What the forward pass keeps for the backward pass, one layer. */
struct sim_saved {
	double	*n1;		/* T x H: normed input (whole after gather) */
	double	*r1;		/* Tl: 1/rms of the local input rows */
	double	*q, *k, *v;	/* T x Hl */
	double	*p;		/* b x heads/t x S x S: attention weights; with
				   cp, T x heads: each row's log-sum-exp */
	double	*ctx;		/* T x Hl: attention output before wo */
	double	*h;		/* Tl x H: residual after attention */
	double	*n2;		/* T x H: normed h (whole after gather) */
	double	*r2;		/* Tl */
	double	*u;		/* T x Fl: MLP before GELU */
	double	*a;		/* T x Fl: after GELU */
};

/* Tokens T of a micro-batch, and the rows Tl a rank holds of them. */
int	sim_shape_tokens(const struct sim_shape *);
int	sim_shape_local(const struct sim_shape *);

/* Doubles of one struct sim_saved, and views into such an array. */
size_t	sim_saved_len(const struct sim_shape *);
void	sim_saved_view(double *base, const struct sim_shape *,
	    struct sim_saved *);

/* Doubles of scratch the backward functions need (work). */
size_t	sim_work_len(const struct sim_shape *);

/* GELU (tanh form) and its derivative, for the MoE experts too. */
double	sim_gelu(double u);
double	sim_gelu_grad(double u);

/* Forward FLOPs of the attention and MLP parts on one rank (matmuls). */
double	sim_flops_attn(const struct sim_shape *);
double	sim_flops_mlp(const struct sim_shape *);

/* Forward. x, y: Tl x H. part, sum: whole (T x H). k: this rank. */
void	sim_fwd_norm1(const struct sim_shape *, int k,
	    const struct sim_lparams *, const double *x, struct sim_saved *);
void	sim_fwd_attn(const struct sim_shape *, const struct sim_lparams *,
	    struct sim_saved *, double *part);
void	sim_fwd_resid1(const struct sim_shape *, int k,
	    const struct sim_lparams *, const double *x, const double *sum,
	    struct sim_saved *);
void	sim_fwd_mlp(const struct sim_shape *, const struct sim_lparams *,
	    struct sim_saved *, double *part);
void	sim_fwd_resid2(const struct sim_shape *, int k,
	    const struct sim_lparams *, const struct sim_saved *,
	    const double *sum, double *y);

/*
 * The attention in three parts, for context parallelism, where the middle
 * one runs over the ring (sim_ring.h): the projections to q, k, v; the
 * output projection of ctx into part; backward, dctx (into work, T x Hl)
 * and wo's gradients; then, given dq, dk, dv, the projections' gradients
 * and their input gradient into part.
 */
void	sim_fwd_qkv(const struct sim_shape *, const struct sim_lparams *,
	    struct sim_saved *);
void	sim_fwd_proj(const struct sim_shape *, const struct sim_lparams *,
	    const struct sim_saved *, double *part);
void	sim_bwd_proj(const struct sim_shape *, const struct sim_lparams *,
	    const struct sim_lparams *g, const struct sim_saved *,
	    const double *dh_whole, double *dctx);
void	sim_bwd_qkv(const struct sim_shape *, const struct sim_lparams *,
	    const struct sim_lparams *g, const struct sim_saved *,
	    const double *dq, const double *dk, const double *dv,
	    double *part);

/*
 * Backward. g: the gradients, laid out as the parameters, accumulated
 * (+=). dy, dh, dx: Tl x H. dwhole: whole, this rank's rows written.
 */
void	sim_bwd_out(const struct sim_shape *, int k,
	    const struct sim_lparams *g, const double *dy, double *dwhole);
void	sim_bwd_mlp(const struct sim_shape *, const struct sim_lparams *,
	    const struct sim_lparams *g, const struct sim_saved *,
	    const double *dy_whole, double *part, double *work);
void	sim_bwd_norm2(const struct sim_shape *, int k,
	    const struct sim_lparams *, const struct sim_lparams *g,
	    const struct sim_saved *, const double *dy, const double *sum,
	    double *dh, double *dwhole);
void	sim_bwd_attn(const struct sim_shape *, const struct sim_lparams *,
	    const struct sim_lparams *g, const struct sim_saved *,
	    const double *dh_whole, double *part, double *work);
void	sim_bwd_norm1(const struct sim_shape *, int k,
	    const struct sim_lparams *, const struct sim_lparams *g,
	    const struct sim_saved *, const double *x, const double *dh,
	    const double *sum, double *dx);

/*
 * The backward split in two, as zero-bubble schedules run it (Qi et al.,
 * "Zero Bubble Pipeline Parallelism", arXiv 2311.09241, 2): B, the input
 * gradients, now;
 * W, the weight gradients, later. The backward functions above skip a
 * weight's product when g's pointer to it is NULL (biases and gains are
 * still summed); the caller keeps the output gradients those products
 * need in a stash (dY for w2, dU after GELU for w1, dH for wo, dq, dk, dv
 * for the projections) with the products' inputs (n1, ctx, n2, a), so
 * the rest of what the forward saved is freed at B; sim_bwd_weights runs
 * the products from the stash alone. mlp 0 leaves the MLP out (the MoE
 * variant's experts keep their products in B).
 */
struct sim_wstash {
	double	*dy;		/* T x H */
	double	*du;		/* T x Fl */
	double	*dh;		/* T x H */
	double	*dq, *dk, *dv;	/* T x Hl each */
	double	*n1, *ctx, *n2, *a;	/* the products' inputs, copied from
					   struct sim_saved */
};
size_t	sim_wstash_len(const struct sim_shape *);
void	sim_wstash_view(double *base, const struct sim_shape *,
	    struct sim_wstash *);
void	sim_bwd_weights(const struct sim_shape *, const struct sim_lparams *g,
	    const struct sim_wstash *, int mlp);
/* FLOPs of sim_bwd_weights: half the backward's products. */
double	sim_flops_weights(const struct sim_shape *, int mlp);

#endif
