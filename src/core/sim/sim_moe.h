/*
 * sim_moe.h - the toy's mixture-of-experts variant: the MLP of every
 * layer becomes a router and E small experts (top-k of them per token),
 * with an optional shared expert every token goes through.
 *
 * Per token x (the normed h, H values):
 *   z     = x Wr                      router logits, E values, no bias
 *   S     = the top-k experts by z_j (+ router_bias for expert 0)
 *   gate  = softmax of z over S       Mixtral's gates (softmax over the
 *                                     top-k logits, HF MixtralSparseMoe-
 *                                     Block: softmax, top-k, renormalise)
 *   out   = shared(x) + sum over S, in top-k order, of gate_j E_j(x)
 *   E_j(x) = GELU(x W1_j + b1_j) W2_j  (no output bias: b2 is the layer's)
 * router_bias is added to expert 0's score for the choice only, as
 * DeepSeek-V3's balancing bias is (its report §2.1.2): gates and
 * gradients never see it. It sends most tokens to expert 0.
 *
 * Storage: the variant keeps the dense layer's parameter array (sim_model.h),
 * so every mode's sharding, buckets and checks carry over. With Fe =
 * (SIM_FFN - E) / (E + shared) columns an expert: the shared expert is
 * columns 0 .. Fe-1 of w1 and b1 and the same rows of w2, routed expert j
 * the next block (shared + j), and the router Wr the last E columns of w1
 * (H x E). Columns left over, and b1 and w2 under the router, are unused:
 * their gradients are 0 and Adam leaves them as they are.
 */
#ifndef PARLEARN_CORE_SIM_MOE_H
#define PARLEARN_CORE_SIM_MOE_H

#include "core/sim/sim_block.h"

#define SIM_MOE_MAX_EXPERTS	16	/* E; each keeps >= 2 columns */
#define SIM_MOE_MAX_BIAS	64	/* router_bias's largest value */

struct sim_moe {
	int	 experts;	/* E routed experts; 0: the dense MLP */
	int	 top_k;		/* experts a token goes to */
	int	 shared;	/* 1: a shared expert */
	int	 router_bias;	/* added to expert 0's score when choosing */
};

/* Columns of one expert, Fe. */
int	sim_moe_width(const struct sim_moe *);

/* The first column of expert j (-1: the shared expert). */
int	sim_moe_col0(const struct sim_moe *, int j);

/* Route one token: the top-k experts into sel (best first), their gates. */
void	sim_moe_route(const struct sim_moe *, const struct sim_lparams *,
	    const double *x, int *sel, double *gate);

/* Backward of the gates given dL/dgate (k values): router gradients into
 * g, the input gradient added to dx (H). */
void	sim_moe_route_bwd(const struct sim_moe *, const struct sim_lparams *,
	    const struct sim_lparams *g, const double *x, const int *sel,
	    const double *gate, const double *dgate, double *dx);

/* Expert j (-1: shared) on one token: u, a (Fe each) kept, o (H) out. */
void	sim_moe_expert_fwd(const struct sim_moe *, const struct sim_lparams *,
	    int j, const double *x, double *u, double *a, double *o);

/* Its backward given dout (H, the gate already applied): gradients into
 * g, the input gradient added to dx (H). */
void	sim_moe_expert_bwd(const struct sim_moe *, const struct sim_lparams *,
	    const struct sim_lparams *g, int j, const double *x,
	    const double *u, const double *a, const double *dout, double *dx);

/* FLOPs: the router and the shared expert on T tokens; one expert on
 * rows tokens. */
double	sim_moe_flops_local(const struct sim_moe *, int T);
double	sim_moe_flops_expert(const struct sim_moe *, int rows);

/*
 * The whole MoE MLP on one device holding every expert (TP 1): the
 * drop-in for sim_fwd_mlp and sim_bwd_mlp. u and a of struct sim_saved
 * (T x SIM_FFN) keep each token's experts in their columns; backward
 * recomputes the routing and the expert outputs the gates need.
 */
void	sim_moe_fwd_mlp(const struct sim_shape *, const struct sim_moe *,
	    const struct sim_lparams *, struct sim_saved *, double *part);
void	sim_moe_bwd_mlp(const struct sim_shape *, const struct sim_moe *,
	    const struct sim_lparams *, const struct sim_lparams *g,
	    const struct sim_saved *, const double *dy_whole, double *part);

#endif
