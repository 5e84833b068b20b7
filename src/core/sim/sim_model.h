/*
 * sim_model.h - the toy transformer's sizes, its seeded data and initial
 * parameters, the loss and the optimizer, and the dense kernels every
 * device runs on its own buffers.
 *
 * The model: SIM_LAYERS pre-norm transformer blocks of width SIM_HIDDEN,
 * each
 *     h = x + Attn(RMSNorm(x; g1))      causal, SIM_HEADS heads
 *     y = h + MLP(RMSNorm(h; g2))       GELU(n W1 + b1) W2 + b2
 * on SIM_BATCH sequences of SIM_SEQ tokens with continuous inputs (no
 * embedding table) and the loss L = sum over tokens |y - target|^2 /
 * (2 * SIM_BATCH * SIM_SEQ). One step is forward, backward and one Adam
 * update (lr 1e-3, betas 0.9/0.999, eps 1e-8), in double precision.
 *
 * Layouts. Matrices are row-major doubles; a weight W is in x out, so a
 * linear layer is z = x W + b. Activations of a micro-batch of b
 * sequences are [position][sequence][feature] (Megatron's s x b x h), so
 * the rows of position p are p*b .. p*b+b-1 and a sequence-parallel shard
 * (a range of positions) is one contiguous block. A layer's parameters, in
 * the full layout of struct sim_result and on a TP rank that holds heads/t
 * heads and ffn/t MLP columns (Hl = hidden/t, Fl = ffn/t), are in this
 * order: g1[H], wq[H x Hl], bq[Hl], wk[H x Hl], bk[Hl], wv[H x Hl],
 * bv[Hl], wo[Hl x H], bo[H], g2[H], w1[H x Fl], b1[Fl], w2[Fl x H],
 * b2[H]. g1, g2, bo and b2 are replicated on every TP rank.
 */
#ifndef PARLEARN_CORE_SIM_MODEL_H
#define PARLEARN_CORE_SIM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define SIM_LAYERS	4	/* transformer blocks */
#define SIM_HIDDEN	16	/* model width H */
#define SIM_HEADS	4	/* attention heads */
#define SIM_HEAD_DIM	(SIM_HIDDEN / SIM_HEADS)
#define SIM_FFN		64	/* MLP inner width, 4H */
#define SIM_SEQ		8	/* tokens per sequence */
#define SIM_BATCH	16	/* sequences in the fixed batch */
#define SIM_TOKENS	(SIM_BATCH * SIM_SEQ)
#define SIM_LAYER_PARAMS	(2 * SIM_HIDDEN + 4 * SIM_HIDDEN * SIM_HIDDEN + \
	4 * SIM_HIDDEN + 2 * SIM_HIDDEN * SIM_FFN + SIM_FFN + SIM_HIDDEN)
#define SIM_NPARAMS	(SIM_LAYERS * SIM_LAYER_PARAMS)

/* One layer's parameters on one TP rank, as views into a flat array. */
struct sim_lparams {
	double	*g1;		/* H: RMSNorm gain before attention */
	double	*wq, *wk, *wv;	/* H x Hl each: this rank's heads */
	double	*bq, *bk, *bv;	/* Hl each */
	double	*wo;		/* Hl x H: rows of this rank's heads */
	double	*bo;		/* H */
	double	*g2;		/* H: RMSNorm gain before the MLP */
	double	*w1;		/* H x Fl */
	double	*b1;		/* Fl */
	double	*w2;		/* Fl x H */
	double	*b2;		/* H */
};

/* Values of one layer on a rank of t (t divides SIM_HEADS). */
size_t	sim_layer_size(int t);

/*
 * Copy the parameters every TP rank holds whole (g1, bo, g2, b2: H each)
 * of one layer to buf (to_buf) or back from it; returns 4 H.
 */
size_t	sim_replicated_copy(const struct sim_lparams *, double *buf,
	    int to_buf);

/* Point lp's fields into base, a layer of sim_layer_size(t) values. */
void	sim_lparams_view(double *base, int t, struct sim_lparams *lp);

/*
 * Copy layer values between the full layout (full, SIM_LAYER_PARAMS
 * values) and TP rank k of t's slice (loc, sim_layer_size(t) values):
 * to_local 1 copies full into loc, 0 loc into full.
 */
void	sim_layer_map(int t, int k, double *loc, double *full, int to_local);

/* The fixed batch, [sequence][position][feature]: x and target. */
void	sim_model_data(double *x, double *target);

/* The initial parameters in the full layout (SIM_NPARAMS values). */
void	sim_model_init(double *params);

/*
 * Copy sequences g0 .. g0+b-1, positions p0 .. p1-1, of a batch array
 * (SIM_BATCH x SIM_SEQ x H) into out in the [position][sequence] layout.
 */
void	sim_model_slice(const double *batch, int g0, int b, int p0, int p1,
	    double *out);

/*
 * The loss of rows of y against t (both rows x H): returns sum |y - t|^2
 * / (2 SIM_TOKENS) over those rows and writes dy = (y - t) / SIM_TOKENS.
 */
double	sim_loss(const double *y, const double *t, int rows, double *dy);

/* One Adam step at step 1 on n values: w, g, m, v as PyTorch's Adam. */
void	sim_adam(double *w, const double *g, double *m, double *v, size_t n);

/*
 * The loss of the whole model at params (full layout) on the fixed
 * batch, computed on one device: the reference finite differences and
 * tests check against.
 */
double	sim_model_loss(const double *params);

/* The same for the MoE variant moe (struct sim_moe, sim_moe.h; NULL or
 * experts 0: the dense model). */
struct sim_moe;
double	sim_model_loss_moe(const double *params, const struct sim_moe *moe);

/* C (r x n) = A (r x k) B (k x n). */
void	sim_mm(const double *a, const double *b, double *c, int r, int k,
	    int n);
/* G (k x n) += A^T D, A r x k, D r x n. */
void	sim_mm_tn_acc(const double *a, const double *d, double *g, int r,
	    int k, int n);
/* X (r x k) += D (r x n) W^T, W k x n. */
void	sim_mm_nt_acc(const double *d, const double *w, double *x, int r,
	    int k, int n);
/* z (r x n) += b (n) on every row. */
void	sim_add_bias(double *z, const double *b, int r, int n);
/* g (n) += column sums of d (r x n). */
void	sim_colsum_acc(const double *d, double *g, int r, int n);

#endif
