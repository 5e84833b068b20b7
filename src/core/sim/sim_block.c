/*
 * sim_block.c - the transformer block's arithmetic: RMSNorm, causal
 * multi-head attention, the GELU MLP and the residuals, forward and
 * backward, on one rank's shard (see sim_block.h for the call order).
 *
 * RMSNorm (Zhang and Sennrich 2019, as in Llama): n = x * r * g with
 * r = 1/sqrt(mean(x^2) + eps). GELU is the tanh form of Hendrycks and
 * Gimpel (2016), as GPT-2 and Megatron-LM use it. Attention scores are
 * q.k / sqrt(head_dim) with positions after the query masked out.
 */
#include <math.h>
#include <string.h>

#include "core/sim/sim_block.h"

#define H	SIM_HIDDEN
#define S	SIM_SEQ
#define D	SIM_HEAD_DIM
#define EPS	1e-5
#define GELU_C	0.7978845608028654	/* sqrt(2/pi) */

int
sim_shape_tokens(const struct sim_shape *sh)
{
	return sh->cp > 1 ? sh->b * S / sh->cp : sh->b * S;
}

/* Doubles of the attention weights saved (with cp: the log-sum-exps). */
static size_t
weights_len(const struct sim_shape *sh)
{
	size_t heads = (size_t)(SIM_HEADS / sh->t);

	return sh->cp > 1 ? (size_t)sim_shape_tokens(sh) * heads :
	    (size_t)sh->b * heads * S * S;
}

int
sim_shape_local(const struct sim_shape *sh)
{
	return sh->sp ? sh->b * S / sh->t : sim_shape_tokens(sh);
}

/* The first whole row this rank holds. */
static size_t
row0(const struct sim_shape *sh, int k)
{
	return sh->sp ? (size_t)k * sim_shape_local(sh) : 0;
}

size_t
sim_saved_len(const struct sim_shape *sh)
{
	size_t T = (size_t)sim_shape_tokens(sh), Tl = (size_t)sim_shape_local(sh);
	size_t hl = (size_t)(H / sh->t), fl = (size_t)(SIM_FFN / sh->t);

	return 2 * T * H + 2 * Tl + 4 * T * hl + weights_len(sh) +
	    Tl * H + 2 * T * fl;
}

void
sim_saved_view(double *base, const struct sim_shape *sh, struct sim_saved *s)
{
	size_t T = (size_t)sim_shape_tokens(sh), Tl = (size_t)sim_shape_local(sh);
	size_t hl = (size_t)(H / sh->t), fl = (size_t)(SIM_FFN / sh->t);
	double *p = base;

	s->n1 = p;	p += T * H;
	s->r1 = p;	p += Tl;
	s->q = p;	p += T * hl;
	s->k = p;	p += T * hl;
	s->v = p;	p += T * hl;
	s->p = p;	p += weights_len(sh);
	s->ctx = p;	p += T * hl;
	s->h = p;	p += Tl * H;
	s->n2 = p;	p += T * H;
	s->r2 = p;	p += Tl;
	s->u = p;	p += T * fl;
	s->a = p;
}

size_t
sim_work_len(const struct sim_shape *sh)
{
	size_t T = (size_t)sim_shape_tokens(sh);
	size_t hl = (size_t)(H / sh->t), fl = (size_t)(SIM_FFN / sh->t);

	return 4 * T * hl + T * fl;
}

double
sim_flops_attn(const struct sim_shape *sh)
{
	double T = sim_shape_tokens(sh), hl = (double)H / sh->t;

	/* QKV and the output projection, then scores and weighted sum. */
	return 2.0 * T * H * 3.0 * hl + 2.0 * T * hl * H +
	    4.0 * sh->b * (SIM_HEADS / sh->t) * S * S * D;
}

double
sim_flops_mlp(const struct sim_shape *sh)
{
	return 4.0 * sim_shape_tokens(sh) * H * ((double)SIM_FFN / sh->t);
}

static void
rms_fwd(const double *x, const double *g, double *n, double *r, int rows)
{
	double ss;
	int i, j;

	for (i = 0; i < rows; i++) {
		for (ss = 0.0, j = 0; j < H; j++)
			ss += x[i * H + j] * x[i * H + j];
		r[i] = 1.0 / sqrt(ss / H + EPS);
		for (j = 0; j < H; j++)
			n[i * H + j] = x[i * H + j] * r[i] * g[j];
	}
}

/* dx = (or +=, acc) d/dx of n = x r g given dn; dg += dn x r. */
static void
rms_bwd(const double *x, const double *g, const double *r, const double *dn,
    double *dg, double *dx, int rows)
{
	double dot, c;
	int i, j;

	for (i = 0; i < rows; i++) {
		for (dot = 0.0, j = 0; j < H; j++) {
			dot += g[j] * dn[i * H + j] * x[i * H + j];
			dg[j] += dn[i * H + j] * x[i * H + j] * r[i];
		}
		c = r[i] * r[i] * r[i] * dot / H;
		for (j = 0; j < H; j++)
			dx[i * H + j] += r[i] * g[j] * dn[i * H + j] -
			    c * x[i * H + j];
	}
}

double
sim_gelu(double u)
{
	return 0.5 * u * (1.0 + tanh(GELU_C * (u + 0.044715 * u * u * u)));
}

double
sim_gelu_grad(double u)
{
	double th = tanh(GELU_C * (u + 0.044715 * u * u * u));

	return 0.5 * (1.0 + th) + 0.5 * u * (1.0 - th * th) * GELU_C *
	    (1.0 + 3.0 * 0.044715 * u * u);
}

void
sim_fwd_norm1(const struct sim_shape *sh, int k, const struct sim_lparams *lp,
    const double *x, struct sim_saved *s)
{
	rms_fwd(x, lp->g1, s->n1 + row0(sh, k) * H, s->r1,
	    sim_shape_local(sh));
}

/* Causal softmax attention of every local head of every sequence. */
static void
attention(const struct sim_shape *sh, struct sim_saved *s)
{
	int b = sh->b, hl = H / sh->t, heads = SIM_HEADS / sh->t;
	int i, hh, p, q, d;
	double *w, sc, mx, sum;

	for (i = 0; i < b; i++)
		for (hh = 0; hh < heads; hh++)
			for (p = 0; p < S; p++) {
				const double *qr = s->q + (size_t)(p * b + i) *
				    hl + hh * D;
				double *c = s->ctx + (size_t)(p * b + i) * hl +
				    hh * D;

				w = s->p + ((size_t)(i * heads + hh) * S + p) * S;
				for (mx = -INFINITY, q = 0; q <= p; q++) {
					const double *kr = s->k + (size_t)(q * b +
					    i) * hl + hh * D;

					for (sc = 0.0, d = 0; d < D; d++)
						sc += qr[d] * kr[d];
					w[q] = sc / sqrt((double)D);
					if (w[q] > mx)
						mx = w[q];
				}
				for (sum = 0.0, q = 0; q <= p; q++)
					sum += (w[q] = exp(w[q] - mx));
				for (q = 0; q < S; q++)
					w[q] = q <= p ? w[q] / sum : 0.0;
				for (d = 0; d < D; d++)
					for (c[d] = 0.0, q = 0; q <= p; q++)
						c[d] += w[q] * s->v[(size_t)(q *
						    b + i) * hl + hh * D + d];
			}
}

void
sim_fwd_qkv(const struct sim_shape *sh, const struct sim_lparams *lp,
    struct sim_saved *s)
{
	int T = sim_shape_tokens(sh), hl = H / sh->t;

	sim_mm(s->n1, lp->wq, s->q, T, H, hl);
	sim_add_bias(s->q, lp->bq, T, hl);
	sim_mm(s->n1, lp->wk, s->k, T, H, hl);
	sim_add_bias(s->k, lp->bk, T, hl);
	sim_mm(s->n1, lp->wv, s->v, T, H, hl);
	sim_add_bias(s->v, lp->bv, T, hl);
}

void
sim_fwd_proj(const struct sim_shape *sh, const struct sim_lparams *lp,
    const struct sim_saved *s, double *part)
{
	sim_mm(s->ctx, lp->wo, part, sim_shape_tokens(sh), H / sh->t, H);
}

void
sim_fwd_attn(const struct sim_shape *sh, const struct sim_lparams *lp,
    struct sim_saved *s, double *part)
{
	sim_fwd_qkv(sh, lp, s);
	attention(sh, s);
	sim_fwd_proj(sh, lp, s, part);
}

void
sim_fwd_resid1(const struct sim_shape *sh, int k, const struct sim_lparams *lp,
    const double *x, const double *sum, struct sim_saved *s)
{
	int Tl = sim_shape_local(sh), i, j;
	const double *in = sum + row0(sh, k) * H;

	for (i = 0; i < Tl; i++)
		for (j = 0; j < H; j++)
			s->h[i * H + j] = x[i * H + j] + in[i * H + j] +
			    lp->bo[j];
	rms_fwd(s->h, lp->g2, s->n2 + row0(sh, k) * H, s->r2, Tl);
}

void
sim_fwd_mlp(const struct sim_shape *sh, const struct sim_lparams *lp,
    struct sim_saved *s, double *part)
{
	int T = sim_shape_tokens(sh), fl = SIM_FFN / sh->t;
	size_t i;

	sim_mm(s->n2, lp->w1, s->u, T, H, fl);
	sim_add_bias(s->u, lp->b1, T, fl);
	for (i = 0; i < (size_t)T * fl; i++)
		s->a[i] = sim_gelu(s->u[i]);
	sim_mm(s->a, lp->w2, part, T, fl, H);
}

void
sim_fwd_resid2(const struct sim_shape *sh, int k, const struct sim_lparams *lp,
    const struct sim_saved *s, const double *sum, double *y)
{
	int Tl = sim_shape_local(sh), i, j;
	const double *in = sum + row0(sh, k) * H;

	for (i = 0; i < Tl; i++)
		for (j = 0; j < H; j++)
			y[i * H + j] = s->h[i * H + j] + in[i * H + j] +
			    lp->b2[j];
}

void
sim_bwd_out(const struct sim_shape *sh, int k, const struct sim_lparams *g,
    const double *dy, double *dwhole)
{
	int Tl = sim_shape_local(sh);

	sim_colsum_acc(dy, g->b2, Tl, H);
	memcpy(dwhole + row0(sh, k) * H, dy, (size_t)Tl * H * sizeof *dy);
}

void
sim_bwd_mlp(const struct sim_shape *sh, const struct sim_lparams *lp,
    const struct sim_lparams *g, const struct sim_saved *s,
    const double *dy_whole, double *part, double *work)
{
	int T = sim_shape_tokens(sh), fl = SIM_FFN / sh->t;
	double *du = work;
	size_t i, n = (size_t)T * fl;

	if (g->w2 != NULL)
		sim_mm_tn_acc(s->a, dy_whole, g->w2, T, fl, H);
	memset(du, 0, n * sizeof *du);
	sim_mm_nt_acc(dy_whole, lp->w2, du, T, fl, H);
	for (i = 0; i < n; i++)
		du[i] *= sim_gelu_grad(s->u[i]);
	if (g->w1 != NULL)
		sim_mm_tn_acc(s->n2, du, g->w1, T, H, fl);
	sim_colsum_acc(du, g->b1, T, fl);
	memset(part, 0, (size_t)T * H * sizeof *part);
	sim_mm_nt_acc(du, lp->w1, part, T, H, fl);
}

void
sim_bwd_norm2(const struct sim_shape *sh, int k, const struct sim_lparams *lp,
    const struct sim_lparams *g, const struct sim_saved *s, const double *dy,
    const double *sum, double *dh, double *dwhole)
{
	int Tl = sim_shape_local(sh);

	memcpy(dh, dy, (size_t)Tl * H * sizeof *dh);
	rms_bwd(s->h, lp->g2, s->r2, sum + row0(sh, k) * H, g->g2, dh, Tl);
	sim_colsum_acc(dh, g->bo, Tl, H);
	memcpy(dwhole + row0(sh, k) * H, dh, (size_t)Tl * H * sizeof *dh);
}

/* Gradients of q, k, v from dctx through the softmax. */
static void
attention_bwd(const struct sim_shape *sh, const struct sim_saved *s,
    const double *dctx, double *dq, double *dk, double *dv)
{
	int b = sh->b, hl = H / sh->t, heads = SIM_HEADS / sh->t;
	int i, hh, p, q, d;
	double dp[S], dot, ds, scale = 1.0 / sqrt((double)D);

	for (i = 0; i < b; i++)
		for (hh = 0; hh < heads; hh++)
			for (p = 0; p < S; p++) {
				size_t rp = (size_t)(p * b + i) * hl + hh * D;
				const double *w = s->p + ((size_t)(i * heads +
				    hh) * S + p) * S;

				for (dot = 0.0, q = 0; q <= p; q++) {
					size_t rq = (size_t)(q * b + i) * hl +
					    hh * D;

					for (dp[q] = 0.0, d = 0; d < D; d++) {
						dp[q] += dctx[rp + d] * s->v[rq + d];
						dv[rq + d] += w[q] * dctx[rp + d];
					}
					dot += w[q] * dp[q];
				}
				for (q = 0; q <= p; q++) {
					size_t rq = (size_t)(q * b + i) * hl +
					    hh * D;

					ds = w[q] * (dp[q] - dot) * scale;
					for (d = 0; d < D; d++) {
						dq[rp + d] += ds * s->k[rq + d];
						dk[rq + d] += ds * s->q[rp + d];
					}
				}
			}
}

void
sim_bwd_attn(const struct sim_shape *sh, const struct sim_lparams *lp,
    const struct sim_lparams *g, const struct sim_saved *s,
    const double *dh_whole, double *part, double *work)
{
	int T = sim_shape_tokens(sh), hl = H / sh->t;
	size_t n = (size_t)T * hl;
	double *dctx = work, *dq = work + n, *dk = dq + n, *dv = dk + n;

	memset(work, 0, 4 * n * sizeof *work);
	sim_bwd_proj(sh, lp, g, s, dh_whole, dctx);
	attention_bwd(sh, s, dctx, dq, dk, dv);
	sim_bwd_qkv(sh, lp, g, s, dq, dk, dv, part);
}

void
sim_bwd_proj(const struct sim_shape *sh, const struct sim_lparams *lp,
    const struct sim_lparams *g, const struct sim_saved *s,
    const double *dh_whole, double *dctx)
{
	int T = sim_shape_tokens(sh), hl = H / sh->t;

	if (g->wo != NULL)
		sim_mm_tn_acc(s->ctx, dh_whole, g->wo, T, hl, H);
	sim_mm_nt_acc(dh_whole, lp->wo, dctx, T, hl, H);
}

void
sim_bwd_qkv(const struct sim_shape *sh, const struct sim_lparams *lp,
    const struct sim_lparams *g, const struct sim_saved *s,
    const double *dq, const double *dk, const double *dv, double *part)
{
	int T = sim_shape_tokens(sh), hl = H / sh->t;

	if (g->wq != NULL) {
		sim_mm_tn_acc(s->n1, dq, g->wq, T, H, hl);
		sim_mm_tn_acc(s->n1, dk, g->wk, T, H, hl);
		sim_mm_tn_acc(s->n1, dv, g->wv, T, H, hl);
	}
	sim_colsum_acc(dq, g->bq, T, hl);
	sim_colsum_acc(dk, g->bk, T, hl);
	sim_colsum_acc(dv, g->bv, T, hl);
	memset(part, 0, (size_t)T * H * sizeof *part);
	sim_mm_nt_acc(dq, lp->wq, part, T, H, hl);
	sim_mm_nt_acc(dk, lp->wk, part, T, H, hl);
	sim_mm_nt_acc(dv, lp->wv, part, T, H, hl);
}

void
sim_bwd_norm1(const struct sim_shape *sh, int k, const struct sim_lparams *lp,
    const struct sim_lparams *g, const struct sim_saved *s, const double *x,
    const double *dh, const double *sum, double *dx)
{
	int Tl = sim_shape_local(sh);

	memcpy(dx, dh, (size_t)Tl * H * sizeof *dx);
	rms_bwd(x, lp->g1, s->r1, sum + row0(sh, k) * H, g->g1, dx, Tl);
}

size_t
sim_wstash_len(const struct sim_shape *sh)
{
	size_t T = (size_t)sim_shape_tokens(sh);
	size_t hl = (size_t)(H / sh->t), fl = (size_t)(SIM_FFN / sh->t);

	return 4 * T * H + 2 * T * fl + 4 * T * hl;
}

void
sim_wstash_view(double *base, const struct sim_shape *sh,
    struct sim_wstash *ws)
{
	size_t T = (size_t)sim_shape_tokens(sh);
	size_t hl = (size_t)(H / sh->t), fl = (size_t)(SIM_FFN / sh->t);

	ws->dy = base;
	ws->du = ws->dy + T * H;
	ws->dh = ws->du + T * fl;
	ws->dq = ws->dh + T * H;
	ws->dk = ws->dq + T * hl;
	ws->dv = ws->dk + T * hl;
	ws->n1 = ws->dv + T * hl;
	ws->ctx = ws->n1 + T * H;
	ws->n2 = ws->ctx + T * hl;
	ws->a = ws->n2 + T * H;
}

void
sim_bwd_weights(const struct sim_shape *sh, const struct sim_lparams *g,
    const struct sim_wstash *ws, int mlp)
{
	int T = sim_shape_tokens(sh), hl = H / sh->t, fl = SIM_FFN / sh->t;

	if (mlp) {
		sim_mm_tn_acc(ws->a, ws->dy, g->w2, T, fl, H);
		sim_mm_tn_acc(ws->n2, ws->du, g->w1, T, H, fl);
	}
	sim_mm_tn_acc(ws->ctx, ws->dh, g->wo, T, hl, H);
	sim_mm_tn_acc(ws->n1, ws->dq, g->wq, T, H, hl);
	sim_mm_tn_acc(ws->n1, ws->dk, g->wk, T, H, hl);
	sim_mm_tn_acc(ws->n1, ws->dv, g->wv, T, H, hl);
}

double
sim_flops_weights(const struct sim_shape *sh, int mlp)
{
	double T = sim_shape_tokens(sh), hl = (double)H / sh->t;

	return 2.0 * T * H * 4.0 * hl + (mlp ? sim_flops_mlp(sh) : 0.0);
}
