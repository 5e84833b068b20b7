/*
 * costmodel_sched.c - the pipeline schedules of 2024-25 in the engine:
 * zero-bubble ZB-H1 and DeepSeek's DualPipe, their bubble, what they hide
 * and what they hold.
 *
 * Both split a stage's backward into B, the input gradient the previous
 * stage waits for, and W, the weight gradient nothing waits for (Qi et
 * al., "Zero Bubble Pipeline Parallelism", arXiv 2311.09241, 2). W is the
 * weight-gradient products: each linear's backward is two products of
 * the forward's FLOPs, one for the input gradient and one for the weights
 * ([NAR21] eq. 3), so W is half of the stage's backward products (less
 * what full recomputation re-runs, which belongs to B); attention and the
 * element-wise kernels have no weights and stay in B.
 *
 * With F the forward, B the full backward (B + W above) and W the weight
 * part of one micro-batch on the slowest stage (reference: the DualPipe
 * README's table, deepseek-ai/DualPipe 3da1bbe, "based on the same number
 * of PP stages"):
 *
 *   1F1B      bubble (p-1)(F+B)              parameters 1x  activations p
 *   ZB-H1     bubble (p-1)(F+B-2W)           parameters 1x  activations p
 *   DualPipe  bubble (p/2-1)(F&B+B-3W)       parameters 2x  activations p+1
 *
 * ZB-H1 (arXiv 2311.09241, 3.1, Figure 3): each stage defers its W passes
 * into the drain, so with F = B = W the bubble is a third of 1F1B's at the
 * same peak memory. DualPipe (DeepSeek-V3 report, arXiv 2412.19437,
 * 3.2.1, Figure 5; dualpipe/dualpipe.py): micro-batches enter from both
 * ends, device i holding stage i for those from the front and stage
 * p-1-i for those from the back, so every device keeps two stages'
 * parameters (and their gradients and optimizer states); F&B is a
 * forward and a backward chunk of two micro-batches run together, whose
 * communication (EP's all-to-alls, PP's sends) hides under the other's
 * compute: it takes F + B of compute. It needs p even and at least 2p
 * micro-batches, an even number (the asserts of DualPipe.step).
 *
 * DualPipeV (the README's "cut-in-half" of DualPipe, Sea AI Lab;
 * dualpipe/dualpipev.py; PyTorch's ScheduleDualPipeV, which torchtitan
 * v0.2.2 runs): the model in 2p stages, device i holding stages i and
 * 2p-1-i in a V, one way only. In the README's stage terms its bubble is
 * DualPipe's, (2p/2-1)(F&B+B-3W) for stages of half a device's layers:
 * (p-1)(F+2B-3W)/2 in a device's micro-batch times; parameters 1x (a
 * device's two stages are its share), activations 2p+1 stages' worth,
 * p + 1/2 micro-batches of a device; at least 2p micro-batches.
 *
 * What hides: in dualpipe.py a device on the edge runs 2 (m/2 - p + 1)
 * overlapped pairs in its main step and p/2 - 1 more after it, m - 3p/2 + 1
 * of its m micro-batches; the middle devices run more. In dualpipev.py
 * device 0 runs 2 (m - 2p + 1) + p - 1 pairs of its 2m stage passes,
 * m - 3p/2 + 1/2 micro-batches. The engine takes the edge's count: the
 * step waits for the device with the most exposed.
 */
#include <stdio.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

int
cm_sched_split_backward(const struct cm_config *c)
{
	return c->pp > 1 && (c->schedule == PIPE_ZB_H1 ||
	    c->schedule == PIPE_DUALPIPE || c->schedule == PIPE_DUALPIPEV);
}

const char *
cm_sched_invalid(const struct cm_config *c, long m)
{
	static _Thread_local char buf[160];
	int few_stages, dv_short, dp_short;

	if (c->schedule != PIPE_ZB_H1 && c->schedule != PIPE_DUALPIPE &&
	    c->schedule != PIPE_DUALPIPEV)
		return NULL;
	few_stages = c->pp < 2 || (c->schedule == PIPE_DUALPIPE &&
	    c->pp % 2 != 0);
	dv_short = c->schedule == PIPE_DUALPIPEV && m < 2L * c->pp;
	dp_short = c->schedule == PIPE_DUALPIPE && (m < 2L * c->pp ||
	    m % 2 != 0);
	if (!few_stages && !dv_short && !dp_short)
		return NULL;
	if (cm_reason_quiet)	/* cm_valid_quick: no text wanted */
		return "";
	if (few_stages && c->schedule == PIPE_DUALPIPE)
		snprintf(buf, sizeof buf, _("DualPipe needs an even PP of 2 or "
		    "more (PP is %d)"), c->pp);
	else if (few_stages)
		snprintf(buf, sizeof buf, _("%s needs PP >= 2 (PP is %d)"),
		    c->schedule == PIPE_ZB_H1 ? "ZB-H1" : "DualPipeV", c->pp);
	else if (dv_short)
		snprintf(buf, sizeof buf, _("DualPipeV needs at least 2 x PP = "
		    "%d micro-batches (there are %ld)"), 2 * c->pp, m);
	else
		snprintf(buf, sizeof buf, _("DualPipe needs an even number of "
		    "micro-batches, at least 2 x PP = %d (there are %ld)"),
		    2 * c->pp, m);
	return buf;
}

double
cm_sched_bubble_slots(const struct cm_config *c, double tmb, double f,
    double w)
{
	double p = c->pp, b = tmb - f, s;

	if (c->pp < 2 || tmb <= 0)
		return 0;
	switch (c->schedule) {
	case PIPE_ZB_H1:
		s = (p - 1) * (f + b - 2 * w);
		break;
	case PIPE_DUALPIPE:
		s = (p / 2 - 1) * ((f + b) + b - 3 * w);
		break;
	case PIPE_DUALPIPEV:
		s = (p - 1) * ((f + b) + b - 3 * w) / 2;
		break;
	default:
		return (p - 1) / c->virtual_stages;
	}
	return s > 0 ? s / tmb : 0;
}

double
cm_sched_paired(const struct cm_config *c, double m)
{
	double paired;

	if (c->schedule == PIPE_DUALPIPE && c->pp >= 2)
		paired = m - 1.5 * c->pp + 1;
	else if (c->schedule == PIPE_DUALPIPEV && c->pp >= 2)
		paired = m - 1.5 * c->pp + 0.5;
	else
		paired = m - (c->pp > 1 ? c->pp : 1);
	return paired > 0 ? paired : 0;
}

double
cm_sched_param_copies(const struct cm_config *c)
{
	return c->schedule == PIPE_DUALPIPE && c->pp > 1 ? 2 : 1;
}

double
cm_sched_inflight(const struct cm_config *c, long m)
{
	double n = c->pp + (c->schedule == PIPE_DUALPIPEV ? 0.5 : 1.0);

	return n < (double)m ? n : (double)m;
}
