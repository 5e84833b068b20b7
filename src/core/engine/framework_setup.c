/*
 * framework_setup.c - a layout priced as the framework that runs it.
 *
 * framework.c says which frameworks can run a layout; this file says how
 * each runs it, in the knobs the engine prices: the kernels between the
 * matrix products, the dtype gradients are kept and reduced in, the
 * optimizer's implementation and how pipeline sends are split. Knobs
 * given explicitly (cfg.setup_set) stay as given, so --kernels still
 * overrides. Sources (the repositories as stored, commit in brackets):
 *
 * Megatron-LM (NVIDIA/Megatron-LM d98e8a6)
 *   - Kernels fused: Megatron-Core's layers are Transformer Engine's
 *     (megatron/core/extensions/transformer_engine.py: fused norms, merged
 *     QKV and fc1 products, fused bias-activation, rotary and
 *     cross-entropy).
 *   - Gradients fp32 and reduced in fp32: megatron/training/arguments.py,
 *     the bf16 branch of validate_args: "bfloat16 requires gradient
 *     accumulation and all-reduce to be done in fp32" sets
 *     accumulate_allreduce_grads_in_fp32 unless --grad-reduce-in-bf16.
 *   - Fused Adam (megatron/core/optimizer/__init__.py takes Transformer
 *     Engine's or Apex's FusedAdam).
 *   - Pipeline sends scattered over the TP ranks and gathered after
 *     ([NAR21] 4.1).
 *   - Gradient buckets of max(4e7, 1e6 x DP) elements with
 *     overlap_grad_reduce, one bucket for the whole buffer without
 *     (megatron/core/distributed/distributed_data_parallel.py).
 * DeepSpeed (microsoft/DeepSpeed 38327e0)
 *   - Gradients: DeepSpeedEngine.get_data_types accumulates in fp32 when
 *     the model is bf16 and ZeRO is off (the BF16_Optimizer wrapper), in
 *     the model's bf16 under ZeRO; communication_data_type is bf16 when
 *     bf16 is on (deepspeed/runtime/engine.py).
 *   - FusedAdam (deepspeed/ops/adam/fused_adam.py) for "Adam"/"AdamW".
 *   - Buckets of 5e8 elements: reduce_bucket_size and
 *     allgather_bucket_size (runtime/zero/config.py), and without ZeRO
 *     MEMORY_OPT_ALLREDUCE_SIZE (runtime/engine.py).
 *   - Kernels: DeepSpeed runs the model code it is given. Layouts with TP
 *     or PP come from Megatron-DeepSpeed, whose layers use Megatron's
 *     fused kernels; the rest are priced as a Hugging Face model in eager
 *     PyTorch.
 *   - PipelineEngine sends the whole activation from every TP rank (no
 *     scatter-gather; deepspeed/runtime/pipe/engine.py).
 * PyTorch FSDP2 / torchtitan (pytorch/torchtitan b5bcd76)
 *   - Eager kernels: CompileConfig.enable defaults to False
 *     (torchtitan/config/configs.py).
 *   - Gradients fp32: FSDP2 keeps fp32 sharded parameters and gives them
 *     fp32 gradients; under DDP autocast leaves the parameters, so their
 *     gradients, in fp32. Reduced in fp32: mixed_precision_reduce =
 *     "float32" (configs.py).
 *   - Fused AdamW: OptimizerConfig implementation = "fused"
 *     (torchtitan/components/optimizer/optimizer.py).
 *   - torch.distributed.pipelining sends whole tensors from every rank.
 *   - DDP's 25 MiB gradient buckets (bucket_cap_mb, torch/nn/parallel/
 *     distributed.py); FSDP2 reduces per layer as ZeRO-3 does.
 */
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"

_Static_assert(CM_FW_MEGATRON == 1 + FW_MEGATRON &&
    CM_FW_DEEPSPEED == 1 + FW_DEEPSPEED && CM_FW_PYTORCH == 1 + FW_PYTORCH,
    "enum cm_framework is 1 + enum fw_id");

/* What a framework sets; fields a row's price depends on. */
struct fw_setup {
	enum cm_kernels		kernels;
	int			grad_fp32;
	int			reduce_fp32;
	enum cm_opt_impl	opt_impl;
	int			pp_sends_split;
	double			bucket_elems;	/* 0: bucket_bytes below */
	double			bucket_bytes;
};

static void
setup_of(const struct cm_config *c, enum fw_id id, struct fw_setup *s)
{
	switch (id) {
	case FW_MEGATRON:
		s->kernels = CM_KERNELS_FUSED;
		s->grad_fp32 = 1;
		s->reduce_fp32 = 1;
		s->opt_impl = CM_OPT_IMPL_FUSED;
		s->pp_sends_split = 1;
		/* one bucket for the whole buffer without overlap */
		s->bucket_elems = c->dp_overlap ? (c->dp * 1e6 > 4e7 ?
		    c->dp * 1e6 : 4e7) : 1e15;
		break;
	case FW_DEEPSPEED:
		s->kernels = c->tp > 1 || c->pp > 1 ? CM_KERNELS_FUSED :
		    CM_KERNELS_EAGER;
		s->grad_fp32 = c->zero == 0;
		s->reduce_fp32 = 0;
		s->opt_impl = CM_OPT_IMPL_FUSED;
		s->pp_sends_split = 0;
		s->bucket_elems = 5e8;
		break;
	default:
		s->kernels = CM_KERNELS_EAGER;
		s->grad_fp32 = 1;
		s->reduce_fp32 = 1;
		s->opt_impl = CM_OPT_IMPL_FUSED;
		s->pp_sends_split = 0;
		s->bucket_elems = 0;
		s->bucket_bytes = CM_DDP_BUCKET_BYTES;
		break;
	}
}

void
fw_setup_apply(struct cm_config *c, enum fw_id id)
{
	struct fw_setup s;
	unsigned set = c->setup_set;

	setup_of(c, id, &s);
	c->framework = (enum cm_framework)(1 + id);
	if (!(set & CM_SET_KERNELS))
		c->kernels = s.kernels;
	if (!(set & CM_SET_GRAD_DTYPE))
		c->grad_accum_fp32 = s.grad_fp32;
	if (!(set & CM_SET_REDUCE_DTYPE))
		c->reduce_fp32 = s.reduce_fp32;
	if (!(set & CM_SET_OPT_IMPL))
		c->optimizer_impl = s.opt_impl;
	if (!(set & CM_SET_PP_SENDS))
		c->pp_scatter_gather = s.pp_sends_split;
	if (!(set & CM_SET_BUCKET))
		c->bucket_bytes = s.bucket_elems > 0 ? s.bucket_elems *
		    (c->reduce_fp32 ? 4 : cm_elem_bytes(c)) : s.bucket_bytes;
}

int
fw_setup_same(const struct cm_config *a, const struct cm_config *b)
{
	return a->kernels == b->kernels &&
	    a->grad_accum_fp32 == b->grad_accum_fp32 &&
	    a->reduce_fp32 == b->reduce_fp32 &&
	    a->optimizer_impl == b->optimizer_impl &&
	    (a->pp_scatter_gather == b->pp_scatter_gather || a->pp < 2 ||
	    a->tp < 2) && (a->bucket_bytes == b->bucket_bytes ||
	    a->dp < 2 || a->zero >= 3);
}
