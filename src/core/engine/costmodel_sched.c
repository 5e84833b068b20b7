/*
 * costmodel_sched.c - the pipeline schedules of 2024-25 in the engine:
 * zero-bubble ZB-H1 and DualPipe, their validity, bubble, what DualPipe's
 * overlap hides and the parameters it doubles.
 *
 * ZB-H1 (Qi et al., "Zero Bubble Pipeline Parallelism", arXiv 2311.09241,
 * section 3): the backward splits into B, the input gradient, and W, the
 * weight gradient; W waits and fills the bubble. With T_F, T_B, T_W of
 * one stage's micro-batch the bubble is (p-1)(T_F + T_B - T_W) against
 * 1F1B's (p-1)(T_F + T_B + T_W); activations stay 1F1B's (p micro-batches
 * on stage 0). In the engine the backward of a micro-batch holds both,
 * so the bubble is (p-1)(t_mb - 2 W): deepseek-ai/DualPipe 3da1bbe,
 * README.md's table writes it (PP-1)(F+B-2W) with B the full backward.
 *
 * DualPipe (DeepSeek-V3 report, arXiv 2412.19437, 3.2.1 and Table 2;
 * deepseek-ai/DualPipe 3da1bbe README.md): micro-batches enter from both
 * ends, a device holds stage r and stage p-1-r, and a forward chunk runs
 * beside a backward chunk so that each one's all-to-alls and PP sends
 * hide under the other's compute. Bubble (p/2-1)(F&B + B - 3W), F&B the
 * time of a forward and a backward chunk overlapped; parameters 2x,
 * activations p+1 micro-batches. dualpipe/dualpipe.py step() asserts
 * an even rank count and an even micro-batch count of at least twice it.
 *
 * W is the engine's own: each linear's weight-gradient product K x M by
 * M x N (costmodel_linears.c, priced as costmodel_time.c prices it), not
 * a share guessed for the whole backward.
 */
#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/framework.h"

int
cm_sched_new(const struct cm_config *c)
{
	return c->schedule == PIPE_ZB_H1 || c->schedule == PIPE_DUALPIPE;
}

const char *
cm_sched_invalid(const struct cm_config *c, long m)
{
	if (c->schedule == PIPE_ZB_H1 && c->pp < 2)
		return _("zb-h1 needs PP >= 2");
	if (c->schedule != PIPE_DUALPIPE)
		return NULL;
	/* dualpipe/dualpipe.py step(): num_ranks % 2 == 0, num_chunks > 0,
	 * even and >= num_ranks * 2 */
	if (c->pp < 2 || c->pp % 2 != 0)
		return _("dualpipe needs an even PP of at least 2 (its two "
		    "directions pair stage r with stage PP-1-r)");
	if (m % 2 != 0 || m < 2L * c->pp)
		return _("dualpipe needs an even micro-batch count of at "
		    "least 2 x PP (DualPipe's step() asserts it)");
	return NULL;
}

/* One linear's weight-gradient time, s: the K x M by M x N product of
 * its backward, in FP8 the same share of FP8's backward. */
static double
wgrad_s(const struct cm_config *c, const struct cm_linear *l)
{
	double w = cm_gemm_s(c, l->k, l->m, l->n), d, f = 0, b = 0;

	if (!cm_fp8(c) || l->routed == CM_LINEAR_ROUTER)
		return w;
	d = cm_gemm_s(c, l->m, l->n, l->k);
	cm_fp8_linear_s(c, l->m, l->k, l->n, &f, &b);
	return d + w > 0 ? b * w / (d + w) : 0;
}

/* W of one layer of c for one micro-batch, s. */
static double
layer_w(const struct cm_config *c)
{
	struct cm_linear l[CM_MAX_LINEARS];
	double w = 0;
	int i, n = cm_layer_linears(c, l);

	for (i = 0; i < n; i++)
		w += l[i].count * wgrad_s(c, &l[i]);
	return w;
}

/* W of the stage that paces the step (r's slow_* fields), s. */
static double
stage_w(const struct cm_config *c, const struct cm_result *r)
{
	const struct hw_model *m = &c->model;
	double w = (r->slow_layers - r->slow_dense) * layer_w(c);

	if (r->slow_dense > 0) {
		struct cm_config dc;

		cm_dense_config(c, &dc);
		w += r->slow_dense * layer_w(&dc);
	}
	if (r->slow_stage == c->pp - 1)	/* the output layer, bf16 */
		w += cm_gemm_s(c, m->hidden, cm_rank_tokens(c),
		    (double)m->vocab / c->tp);
	return w;
}

double
cm_sched_hide(const struct cm_config *c, double comp, double *ppmb,
    double *ep)
{
	double x, exposed;

	if (c->schedule != PIPE_DUALPIPE)
		return 0;
	/* F&B: one chunk's all-to-alls and sends under the other's compute;
	 * what exceeds it stays, EP's first; the compute they run beside is
	 * slowed as any hidden collective slows it (CM_COMM_SM_SHARE) */
	x = *ppmb + *ep;
	exposed = x > comp ? x - comp : 0;
	*ep = exposed < *ep ? exposed : *ep;
	*ppmb = exposed - *ep;
	return cm_comm_slowed(x - exposed, comp);
}

double
cm_sched_bubble(const struct cm_config *c, struct cm_result *r, double tmb,
    double bwd, double bubble)
{
	double w, b, p = c->pp;

	if (!cm_sched_new(c))
		return bubble;
	w = stage_w(c, r);
	r->t_wgrad_mb = w;
	if (c->schedule == PIPE_ZB_H1)	/* (p-1)(F + B - W), B input only */
		b = (p - 1) * (tmb - 2 * w);
	else	/* (p/2-1)(F&B + B - 3W), B the full backward */
		b = (p / 2 - 1) * (tmb + bwd - 3 * w);
	return b > 0 ? b : 0;
}

unsigned
cm_sched_frameworks(const struct cm_config *c)
{
	/*
	 * No framework we read runs either with one stage a device.
	 * Megatron-Core core_v0.15.3 (tests/data/frameworks, arguments.py):
	 * 1F1B and interleaving only; --delay-wgrad-compute defers W for
	 * --overlap-moe-expert-parallel-comm's batch-level overlap inside
	 * 1F1B, not a schedule. DeepSpeed's one TrainSchedule is 1F1B.
	 * torchtitan v0.2.2 (pipeline_parallel_schedule) takes torch's
	 * InterleavedZeroBubble (ZB1P), ZBVZeroBubble and DualPipeV, all
	 * multi-stage: "Multi-stage schedule requires at least 2 stages per
	 * rank", V-shaped ones exactly 2; DualPipe itself lives only in
	 * deepseek-ai/DualPipe.
	 */
	return cm_sched_new(c) ? 0 : FW_ALL;
}
