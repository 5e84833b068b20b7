/*
 * costmodel_moe.c - the memory-bound work a mixture-of-experts layer adds
 * to its products (costmodel_linears.c), for one micro-batch on one rank
 * of M tokens, k experts each, E experts, width h, e bytes an element:
 *
 *   router   softmax of the M x E fp32 logits and the top-k choice,
 *            reading and writing them (8 bytes a score), and the same
 *            backward; Megatron-Core's TopKRouter (router.py, with
 *            --moe-router-dtype fp32) and torchtitan's TokenChoiceTopKRouter.
 *   dispatch the permutation that gathers each token's k copies into
 *            expert order: reads and writes k M h elements; backward the
 *            scatter of their gradients, as much.
 *   combine  the experts' k M h outputs weighted by the router's
 *            probabilities and summed back into M h; backward the same
 *            traffic and the probabilities' gradient, which reads the
 *            outputs again.
 *
 * Kernels: fused (Megatron-Core with --moe-permute-fusion, Transformer
 * Engine's moe_permute/moe_unpermute) and compiled (torchtitan) run each
 * step as one kernel; eager PyTorch (Hugging Face's
 * MixtralSparseMoeBlock.forward) loops over the experts, and for each
 * finds its tokens (torch.where), indexes them, scales the output by the
 * routing weight and adds it back (index_add_): four kernels per expert
 * each way, the router's softmax, topk and renormalisation three.
 *
 * Under TP each rank dispatches every token (Megatron-Core gathers the
 * sequence before the dispatcher), so none of this divides by t.
 */
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

void
cm_moe_elem(const struct cm_config *c, struct cm_moe_elem *x)
{
	const struct hw_model *m = &c->model;
	double M = cm_moe_tokens(c), e = cm_elem_bytes(c);
	double k = m->top_k, h = m->hidden, E = m->experts;
	double router = 2 * CM_OPMATH * M * E;
	double dispatch = 2 * e * k * M * h;
	double combine = e * (k + 1) * M * h;

	x->fwd = x->bwd = 0;
	x->kf = x->kb = 0;
	if (m->experts == 0)
		return;
	x->fwd = router + dispatch + combine;
	x->bwd = router + dispatch + combine + e * k * M * h;
	if (c->kernels == CM_KERNELS_EAGER) {
		x->kf = x->kb = 3 + 4 * m->experts;
	} else {
		x->kf = 4;	/* softmax + top-k, permute, unpermute */
		x->kb = 4;
	}
}
