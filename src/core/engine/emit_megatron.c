/*
 * emit_megatron.c - a layout as Megatron-LM's command-line flags, one per
 * line, every name and choice as megatron/training/arguments.py has it at
 * core_v0.15.3 (309ffca). The model's shape goes in too, so that
 * pretrain_gpt.py builds the model the engine priced; data and tokenizer
 * flags are the user's to add. ZeRO 1 is the distributed optimizer; ZeRO 2
 * and 3 are Megatron-FSDP's optim_grads and optim_grads_params.
 */
#include <stdio.h>

#include "i18n.h"
#include "core/number.h"
#include "core/engine/emit.h"
#include "core/engine/costmodel_fp8.h"

static int
flag(FILE *fp, const char *name)
{
	return fprintf(fp, "--%s\n", name) < 0;
}

static int
flag_int(FILE *fp, const char *name, long v)
{
	return fprintf(fp, "--%s %ld\n", name, v) < 0;
}

static int
flag_str(FILE *fp, const char *name, const char *v)
{
	return fprintf(fp, "--%s %s\n", name, v) < 0;
}

static int
model_flags(FILE *fp, const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	char num[32];
	int e = 0;

	e |= flag_int(fp, "num-layers", m->layers);
	e |= flag_int(fp, "hidden-size", m->hidden);
	e |= flag_int(fp, "ffn-hidden-size", m->ffn);
	e |= flag_int(fp, "num-attention-heads", m->heads);
	if (m->kv_heads > 0 && m->kv_heads < m->heads) {
		e |= flag(fp, "group-query-attention");
		e |= flag_int(fp, "num-query-groups", m->kv_heads);
	}
	if (HW_MLA(m)) {
		e |= flag(fp, "multi-latent-attention");
		if (m->q_lora_rank > 0)
			e |= flag_int(fp, "q-lora-rank", m->q_lora_rank);
		e |= flag_int(fp, "kv-lora-rank", m->kv_lora_rank);
		e |= flag_int(fp, "qk-head-dim", m->head_dim -
		    m->rope_head_dim);
		e |= flag_int(fp, "qk-pos-emb-head-dim", m->rope_head_dim);
		e |= flag_int(fp, "v-head-dim", m->v_head_dim > 0 ?
		    m->v_head_dim : m->head_dim);
	} else if (m->head_dim > 0)
		e |= flag_int(fp, "kv-channels", m->head_dim);
	if (m->qk_norm)
		e |= flag(fp, "qk-layernorm");
	e |= flag_int(fp, "seq-length", m->seq);
	e |= flag_int(fp, "max-position-embeddings", m->seq);
	e |= flag_str(fp, "position-embedding-type", m->learned_pos ?
	    "learned_absolute" : "rope");
	if (m->mlp == HW_MLP_SWIGLU)
		e |= flag(fp, "swiglu");
	if (m->norm == HW_NORM_RMS)
		e |= flag_str(fp, "normalization", "RMSNorm");
	if (!m->tied)
		e |= flag(fp, "untie-embeddings-and-output-weights");
	if (!m->biases)
		e |= flag(fp, "disable-bias-linear");
	if (m->experts > 0) {
		e |= flag_int(fp, "num-experts", m->experts);
		e |= flag_int(fp, "moe-router-topk", m->top_k);
		e |= flag_int(fp, "moe-ffn-hidden-size", m->expert_ffn);
		if (m->shared_experts > 0)
			e |= flag_int(fp, "moe-shared-expert-intermediate-size",
			    (long)m->shared_experts * m->expert_ffn);
		if (m->dense_layers > 0)	/* a Python list, one per layer */
			e |= fprintf(fp, "--moe-layer-freq ([0]*%d+[1]*%d)\n",
			    m->dense_layers, m->layers - m->dense_layers) < 0;
		e |= flag_str(fp, "moe-token-dispatcher-type", "alltoall");
		e |= flag(fp, "moe-grouped-gemm");
		if (c->capacity_factor > 0)
			e |= flag_str(fp, "moe-expert-capacity-factor",
			    pl_num_c(num, sizeof num, c->capacity_factor, 'g',
			    6));
	}
	return e;
}

static int
parallel_flags(FILE *fp, const struct cm_config *c)
{
	int e = 0, first, last;

	e |= flag_int(fp, "tensor-model-parallel-size", c->tp);
	e |= flag_int(fp, "pipeline-model-parallel-size", c->pp);
	if (emit_megatron_split(c, &first, &last) > 0) {
		e |= flag_int(fp, "decoder-first-pipeline-num-layers", first);
		e |= flag_int(fp, "decoder-last-pipeline-num-layers", last);
	}
	if (c->pp > 1 && c->schedule == PIPE_INTERLEAVED &&
	    c->virtual_stages > 1)
		e |= flag_int(fp, "num-layers-per-virtual-pipeline-stage",
		    c->model.layers / (c->pp * c->virtual_stages));
	if (c->tp > 1 && c->seq_parallel)
		e |= flag(fp, "sequence-parallel");
	if (c->tp > 1 && c->tp_overlap)
		e |= flag(fp, "tp-comm-overlap");
	if (c->cp > 1) {
		e |= flag_int(fp, "context-parallel-size", c->cp);
		e |= flag_str(fp, "cp-comm-type", c->cp_impl == CM_CP_ULYSSES ?
		    "a2a" : c->cp_impl == CM_CP_ALLGATHER ? "allgather" :
		    "p2p");
	}
	if (c->model.experts > 0) {
		e |= flag_int(fp, "expert-model-parallel-size", cm_ep(c));
		e |= flag_int(fp, "expert-tensor-parallel-size", cm_etp(c));
	}
	if (c->ep_overlap && cm_ep(c) > 1) {
		e |= flag(fp, "overlap-moe-expert-parallel-comm");
		e |= flag(fp, "delay-wgrad-compute");
	}
	if (c->model.mtp > 0)
		e |= flag_int(fp, "mtp-num-layers", c->model.mtp);
	if (c->zero == 1)
		e |= flag(fp, "use-distributed-optimizer");
	else if (c->zero >= 2) {
		e |= flag(fp, "use-megatron-fsdp");
		e |= flag_str(fp, "data-parallel-sharding-strategy",
		    c->zero == 2 ? "optim_grads" : "optim_grads_params");
	}
	if (c->dp > 1 && c->dp_overlap) {
		e |= flag(fp, "overlap-grad-reduce");
		if (c->zero == 1)
			e |= flag(fp, "overlap-param-gather");
	}
	return e;
}

static int
step_flags(FILE *fp, const struct cm_config *c)
{
	int e = 0;

	e |= flag_int(fp, "micro-batch-size", c->micro_batch);
	e |= flag_int(fp, "global-batch-size", c->global_batch);
	if (c->recompute == CM_RECOMPUTE_FULL) {
		e |= flag_str(fp, "recompute-granularity", "full");
		e |= flag_str(fp, "recompute-method", "uniform");
		e |= flag_int(fp, "recompute-num-layers", 1);
	} else if (c->recompute == CM_RECOMPUTE_SELECTIVE)
		e |= flag_str(fp, "recompute-granularity", "selective");
	if (c->precision != CM_PREC_FP32)
		e |= flag(fp, "bf16");
	if (cm_fp8(c)) {
		e |= flag_str(fp, "fp8-format", "hybrid");
		e |= flag_str(fp, "fp8-recipe", c->fp8_recipe ==
		    CM_FP8_MXFP8 ? "mxfp8" : c->fp8_recipe == CM_FP8_DELAYED ?
		    "delayed" : "tensorwise");
	}
	e |= flag_str(fp, "attention-backend", c->attention == CM_ATTN_PLAIN ?
	    "unfused" : "flash");
	return e;
}

int
emit_megatron(FILE *fp, const struct cm_config *c)
{
	int e = 0;

	e |= emit_header(fp, c, _("Megatron-LM core_v0.15.3 flags")) != 0;
	e |= fprintf(fp, "# set -f; torchrun --nproc_per_node=%d pretrain_gpt.py "
	    "$(grep -v '^#' FILE) --data-path ... --tokenizer-type ...\n",
	    emit_procs_per_node(c)) < 0;
	e |= parallel_flags(fp, c);
	e |= step_flags(fp, c);
	e |= model_flags(fp, c);
	return e ? -1 : 0;
}
