/*
 * emit_torchtitan.c - a layout as torchtitan v0.2.2's TOML job config
 * (torchtitan/config/job_config.py, the dataclasses JobConfig reads a
 * config_file into). Sections and keys:
 *   [model] name, flavor, converters (quantize.linear.float8 / .mx);
 *   [training] local_batch_size, global_batch_size, seq_len,
 *     mixed_precision_param;
 *   [parallelism] the degrees, fsdp_reshard_after_forward,
 *     enable_async_tensor_parallel, pipeline_parallel_schedule and
 *     pipeline_parallel_microbatch_size, context_parallel_rotate_method;
 *   [activation_checkpoint] mode, selective_ac_option; [compile] enable, components;
 *   [quantize.linear.float8] / [quantize.linear.mx] recipe_name.
 * Batches: without PP a DP rank runs local_batch_size = b samples and
 * torchtitan accumulates global_batch_size / (b d) of them; with PP its
 * step feeds local_batch_size = B / d samples through the pipeline in
 * micro-batches of b (train.py, pipeline_parallel_microbatch_size).
 */
#include <stdio.h>

#include "i18n.h"
#include "core/engine/emit.h"
#include "core/engine/costmodel_fp8.h"

static const char *
schedule_name(enum pipe_schedule s)
{
	switch (s) {	/* torch.distributed.pipelining's class names */
	case PIPE_GPIPE: return "GPipe";
	case PIPE_INTERLEAVED: return "Interleaved1F1B";
	case PIPE_DUALPIPEV: return "DualPipeV";
	default: return "1F1B";
	}
}

static const char *
ac_mode(enum cm_recompute r)
{
	switch (r) {
	case CM_RECOMPUTE_NONE: return "none";
	case CM_RECOMPUTE_FULL: return "full";
	default: return "selective";
	}
}

static int
parallelism(FILE *fp, const struct cm_config *c)
{
	int rep = 1, shard = 1, e = 0;

	if (c->zero == 0)
		rep = c->dp;
	else if (c->zero >= 3 && c->hsdp) {
		shard = emit_hsdp_shard(c);
		rep = c->dp / shard;
	} else
		shard = c->dp;
	e |= fprintf(fp, "\n[parallelism]\n"
	    "data_parallel_replicate_degree = %d\n"
	    "data_parallel_shard_degree = %d\n"
	    "tensor_parallel_degree = %d\n"
	    "pipeline_parallel_degree = %d\n"
	    "context_parallel_degree = %d\n",
	    rep, shard, c->tp, c->pp, c->cp) < 0;
	if (c->model.experts > 0)
		e |= fprintf(fp, "expert_parallel_degree = %d\n"
		    "expert_tensor_parallel_degree = %d\n", cm_ep(c),
		    cm_etp(c)) < 0;
	if (shard > 1)
		e |= fprintf(fp, "fsdp_reshard_after_forward = \"%s\"\n",
		    c->zero == 2 || !c->reshard_after_forward ? "never" :
		    "default") < 0;
	if (c->tp > 1 && c->tp_overlap)
		e |= fprintf(fp, "enable_async_tensor_parallel = true\n") < 0;
	if (c->pp > 1)
		e |= fprintf(fp, "pipeline_parallel_schedule = \"%s\"\n"
		    "pipeline_parallel_microbatch_size = %d\n",
		    schedule_name(c->schedule), c->micro_batch) < 0;
	if (c->pp > 1 && c->schedule == PIPE_INTERLEAVED)
		e |= fprintf(fp, "pipeline_parallel_layers_per_stage = %d\n",
		    (c->model.layers + c->pp * c->virtual_stages - 1) /
		    (c->pp * c->virtual_stages)) < 0;
	if (c->pp > 1 && c->schedule == PIPE_DUALPIPEV)	/* 2 stages a GPU */
		e |= fprintf(fp, "pipeline_parallel_layers_per_stage = %d\n",
		    (c->model.layers + 2 * c->pp - 1) / (2 * c->pp)) < 0;
	if (c->cp > 1)
		e |= fprintf(fp, "context_parallel_rotate_method = \"%s\"\n",
		    c->cp_impl == CM_CP_ALLGATHER ? "allgather" :
		    "alltoall") < 0;
	return e;
}

static int
float8(FILE *fp, const struct cm_config *c)
{
	if (!cm_fp8(c))
		return 0;
	if (c->fp8_recipe == CM_FP8_MXFP8)
		return fprintf(fp, "\n[quantize.linear.mx]\n"
		    "recipe_name = \"mxfp8_cublas\"\n") < 0;
	return fprintf(fp, "\n[quantize.linear.float8]\n"
	    "recipe_name = \"%s\"\n"
	    "enable_fsdp_float8_all_gather = %s\n",
	    c->fp8_recipe == CM_FP8_ROWWISE ? "rowwise" : "tensorwise",
	    c->fp8_recipe == CM_FP8_TENSORWISE && c->zero >= 3 ? "true" :
	    "false") < 0;
}

int
emit_torchtitan(FILE *fp, const struct cm_config *c)
{
	const char *name = "llama3", *flavor = "debugmodel";
	long local = c->pp > 1 ? c->global_batch / c->dp : c->micro_batch;
	int e = 0;

	emit_torchtitan_model(c, &name, &flavor);
	e |= emit_header(fp, c, _("torchtitan v0.2.2 job config")) != 0;
	e |= fprintf(fp, "# torchrun --nproc_per_node=%d -m torchtitan.train "
	    "--job.config_file FILE\n", emit_procs_per_node(c)) < 0;
	e |= fprintf(fp, "\n[model]\nname = \"%s\"\nflavor = \"%s\"\n",
	    name, flavor) < 0;
	if (cm_fp8(c))
		e |= fprintf(fp, "converters = [\"%s\"]\n",
		    c->fp8_recipe == CM_FP8_MXFP8 ? "quantize.linear.mx" :
		    "quantize.linear.float8") < 0;
	e |= fprintf(fp, "\n[training]\nlocal_batch_size = %ld\n"
	    "global_batch_size = %ld\nseq_len = %d\n"
	    "mixed_precision_param = \"%s\"\n", local, c->global_batch,
	    c->model.seq, c->precision == CM_PREC_FP32 ? "float32" :
	    "bfloat16") < 0;
	e |= parallelism(fp, c);
	e |= fprintf(fp, "\n[activation_checkpoint]\nmode = \"%s\"\n",
	    ac_mode(c->recompute)) < 0;
	/* "op": per-operator selective recompute; its default "2" would
	 * recompute every second layer whole */
	if (c->recompute == CM_RECOMPUTE_SELECTIVE)
		e |= fprintf(fp, "selective_ac_option = \"op\"\n") < 0;
	e |= fprintf(fp, "\n[compile]\nenable = %s\n"
	    "components = [\"model\", \"loss\"]\n",
	    c->kernels != CM_KERNELS_EAGER ? "true" : "false") < 0;
	e |= float8(fp, c);
	return e ? -1 : 0;
}
