/*
 * emit_deepspeed.c - a layout as a DeepSpeed JSON config, keys as
 * DeepSpeed v0.18.9 (8c93851) reads them: train_batch_size,
 * train_micro_batch_size_per_gpu and gradient_accumulation_steps
 * (runtime/constants.py; DeepSpeed checks that the first is the product
 * of the other two and the DP ranks), bf16.enabled
 * (runtime/precision_config.py), zero_optimization's stage, overlap_comm,
 * contiguous_gradients and mics_shard_size for HSDP (MiCS,
 * runtime/zero/config.py), and tensor_parallel.autotp_size, AutoTP
 * training's TP degree (runtime/tensor_parallel/config.py). JSON has no
 * comments: what the engine assumed is the plan's to print.
 */
#include <stdio.h>

#include "core/engine/emit.h"

int
emit_deepspeed(FILE *fp, const struct cm_config *c)
{
	int e = 0;

	e |= fprintf(fp, "{\n  \"train_batch_size\": %ld,\n"
	    "  \"train_micro_batch_size_per_gpu\": %d,\n"
	    "  \"gradient_accumulation_steps\": %ld,\n",
	    c->global_batch, c->micro_batch, emit_accumulation(c)) < 0;
	if (c->precision != CM_PREC_FP32)
		e |= fprintf(fp, "  \"bf16\": {\n    \"enabled\": true\n"
		    "  },\n") < 0;
	if (c->tp > 1)
		e |= fprintf(fp, "  \"tensor_parallel\": {\n"
		    "    \"autotp_size\": %d\n  },\n", c->tp) < 0;
	e |= fprintf(fp, "  \"zero_optimization\": {\n    \"stage\": %d,\n"
	    "    \"overlap_comm\": %s,\n    \"contiguous_gradients\": true",
	    c->zero, c->dp_overlap ? "true" : "false") < 0;
	if (c->zero >= 3 && c->hsdp)
		e |= fprintf(fp, ",\n    \"mics_shard_size\": %d",
		    emit_hsdp_shard(c)) < 0;
	e |= fprintf(fp, "\n  }\n}\n") < 0;
	return e ? -1 : 0;
}
