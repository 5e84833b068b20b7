/*
 * costmodel_json.c - a result as the `parlearn plan --json` contract. The
 * inputs (words, keys, the config builder) are in costmodel_keys.c.
 */
#include <cjson/cJSON.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_nccl.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/framework.h"

static void
add_layout(cJSON *o, const struct cm_result *r)
{
	const struct cm_config *c = &r->cfg;
	cJSON *l = cJSON_AddObjectToObject(o, "layout");
	int a;

	for (a = 0; a < MESH_N_AXES; a++)
		cJSON_AddNumberToObject(l, mesh_axis((enum mesh_axis)a)->key,
		    cm_degree(c, (enum mesh_axis)a));
	cJSON_AddNumberToObject(l, "zero", c->zero);
	cJSON_AddNumberToObject(l, "microbatches", (double)r->microbatches);
	cJSON_AddNumberToObject(l, "micro_batch", c->micro_batch);
	cJSON_AddStringToObject(l, "schedule", pipe_schedule_name(c->schedule));
	cJSON_AddNumberToObject(l, "virtual_stages", c->virtual_stages);
	cJSON_AddStringToObject(l, "recompute",
	    cm_recompute_name(c->recompute));
	cJSON_AddBoolToObject(l, "seq_parallel", c->seq_parallel);
	cJSON_AddStringToObject(l, "rank_order",
	    mesh_order_name(c->rank_order));
	cJSON_AddStringToObject(l, "cp_impl", cm_cp_impl_name(c->cp_impl));
	if (c->model.experts > 0) {
		cJSON_AddNumberToObject(l, "ep", cm_ep(c));
		cJSON_AddNumberToObject(l, "etp", cm_etp(c));
	}
	cJSON_AddStringToObject(l, "attention",
	    cm_attention_name(c->attention));
	cJSON_AddStringToObject(l, "kernels", cm_kernels_name(c->kernels));
	cJSON_AddStringToObject(l, "framework",
	    cm_framework_name(c->framework));
	cJSON_AddStringToObject(l, "grad_dtype", c->grad_accum_fp32 ? "fp32" :
	    "bf16");
	cJSON_AddStringToObject(l, "reduce_dtype", c->reduce_fp32 ? "fp32" :
	    "bf16");
	cJSON_AddStringToObject(l, "optimizer_impl",
	    cm_opt_impl_name(cm_opt_impl_of(c)));
	cJSON_AddStringToObject(l, "weight_gather",
	    cm_gather_name(c->weight_gather));
	cJSON_AddBoolToObject(l, "reshard_after_forward",
	    c->reshard_after_forward);
	cJSON_AddBoolToObject(l, "hsdp", c->hsdp);
	cJSON_AddBoolToObject(l, "dp_overlap", c->dp_overlap);
	cJSON_AddBoolToObject(l, "tp_overlap", c->tp_overlap);
	if (c->ep_overlap)	/* issue 27: absent, the JSON of before */
		cJSON_AddBoolToObject(l, "ep_overlap", 1);
	cJSON_AddBoolToObject(l, "dropout", c->model.dropout);
	cJSON_AddStringToObject(l, "gemm_model", cm_gemm_model_name(
	    c->gemm_model));
	cJSON_AddStringToObject(l, "nccl_model", cm_nccl_model_name(
	    c->nccl_model));
	if (cm_fp8(c)) {	/* bf16 and fp32 JSON as before */
		cJSON_AddStringToObject(l, "precision",
		    cm_precision_name(c->precision));
		cJSON_AddStringToObject(l, "fp8_recipe",
		    cm_fp8_recipe_name(c->fp8_recipe));
		cJSON_AddBoolToObject(l, "fp8_attention", c->fp8_attention);
	}
}

/*
 * FP8 runs: the recipe, the MFU convention (mfu_fraction is over the
 * bf16 dense peak, as torchtitan and NVIDIA report it; also given over
 * the FP8 peak), the FP8 weight copies (in memory_bytes.other) and the
 * activation bytes a layer saves in FP8 (costmodel_fp8.c).
 */
static void
add_fp8(cJSON *o, const struct cm_result *r)
{
	const struct cm_config *c = &r->cfg;
	cJSON *f;
	double d = r->t_step * c->gpus * c->gpu.fp8_flops;

	if (!cm_fp8(c))
		return;
	f = cJSON_AddObjectToObject(o, "fp8");
	cJSON_AddStringToObject(f, "recipe", cm_fp8_recipe_name(c->fp8_recipe));
	cJSON_AddStringToObject(f, "attention", c->fp8_attention ? "fp8" :
	    "bf16");
	cJSON_AddStringToObject(f, "mfu_peak", "bf16");
	cJSON_AddNumberToObject(f, "fp8_peak_tflops", c->gpu.fp8_flops / 1e12);
	cJSON_AddNumberToObject(f, "mfu_of_fp8_peak_fraction",
	    d > 0 ? r->flops_model / d : 0);
	cJSON_AddNumberToObject(f, "weight_copies_bytes", r->mem_fp8);
	cJSON_AddNumberToObject(f, "activation_bytes_saved_per_layer",
	    cm_fp8_act_saving(c));
	cJSON_AddNumberToObject(f, "zero3_gather_bytes_fraction",
	    cm_fp8_gather_scale(c));
}

/* One group: ranks, ranks per node, nodes, bus bandwidth (bytes/s). */
static void
add_group(cJSON *o, const struct cm_result *r, enum mesh_axis a)
{
	static const char *const kind[] = { "all-reduce", "all-gather",
	    "reduce-scatter" };
	const struct mesh_span *g = &r->group[a];
	cJSON *j = cJSON_AddObjectToObject(o, mesh_axis(a)->key), *k;
	struct cm_coll_note n;

	cJSON_AddNumberToObject(j, "ranks", g->n);
	cJSON_AddNumberToObject(j, "per_node", g->per_node);
	cJSON_AddNumberToObject(j, "nodes", g->nodes);
	cJSON_AddNumberToObject(j, "bus_bw_bytes_per_s", r->group_bw[a]);
	if (!cm_group_collective(r, a, &n) || n.kind > CM_REDUCESCATTER)
		return;
	k = cJSON_AddObjectToObject(j, "collective");
	cJSON_AddStringToObject(k, "kind", kind[n.kind]);
	cJSON_AddNumberToObject(k, "bytes", n.bytes);
	cJSON_AddStringToObject(k, "nccl_algo", cm_nccl_algo_name(n.pick.algo));
	cJSON_AddStringToObject(k, "nccl_proto",
	    cm_nccl_proto_name(n.pick.proto));
	cJSON_AddNumberToObject(k, "nccl_s", n.pick.t);
	cJSON_AddNumberToObject(k, "ring_s", n.ring_s);
}

static void
add_network(cJSON *o, const struct cm_result *r)
{
	cJSON *n = cJSON_AddObjectToObject(o, "network");
	struct mesh m;
	int i;

	/* Innermost axis first, as the default rank order numbers them. */
	mesh_init(&m, 1);
	for (i = 0; i < MESH_N_AXES; i++)
		add_group(n, r, m.order[i]);
	cJSON_AddNumberToObject(n, "dp_bytes_per_gpu", r->dp_bytes);
	cJSON_AddNumberToObject(n, "dp_collectives", (double)r->dp_collectives);
	cJSON_AddNumberToObject(n, "cp_bytes_per_gpu", r->cp_bytes);
	if (r->cfg.model.experts > 0)
		cJSON_AddNumberToObject(n, "ep_bytes_per_gpu", r->ep_bytes);
	cJSON_AddBoolToObject(n, "nvls", r->cfg.nvls);
}

static void
add_memory(cJSON *o, const struct cm_result *r)
{
	cJSON *m = cJSON_AddObjectToObject(o, "memory_bytes");

	cJSON_AddNumberToObject(m, "parameters", r->mem_params);
	cJSON_AddNumberToObject(m, "gradients", r->mem_grads);
	cJSON_AddNumberToObject(m, "optimizer", r->mem_optim);
	cJSON_AddNumberToObject(m, "activations", r->mem_act);
	cJSON_AddNumberToObject(m, "other", r->mem_other);
	cJSON_AddNumberToObject(m, "buffers", r->mem_buffers);
	cJSON_AddNumberToObject(m, "nccl_buffers", r->mem_nccl);
	cJSON_AddNumberToObject(m, "gathered_weights", r->mem_gathered);
	cJSON_AddNumberToObject(m, "unsharded_gradients", r->mem_grads_whole);
	cJSON_AddNumberToObject(m, "cp_kv_in_flight", r->mem_cp);
	if (cm_fp8(&r->cfg))
		cJSON_AddNumberToObject(m, "fp8_weight_copies", r->mem_fp8);
	cJSON_AddNumberToObject(m, "total", r->mem_total);
	cJSON_AddNumberToObject(o, "gpu_memory_bytes", r->mem_gpu);
	cJSON_AddNumberToObject(o, "usable_memory_bytes", r->mem_usable);
	cJSON_AddBoolToObject(o, "fits", r->fits);
}

static void
add_time(cJSON *o, const struct cm_result *r)
{
	cJSON *t = cJSON_AddObjectToObject(o, "time_s");

	cJSON_AddNumberToObject(t, "compute", r->t_compute);
	cJSON_AddNumberToObject(t, "matmuls", r->t_gemm);
	cJSON_AddNumberToObject(t, "attention", r->t_attn);
	cJSON_AddNumberToObject(t, "elementwise", r->t_elementwise);
	cJSON_AddNumberToObject(t, "dp_copies", r->t_dp_copies);
	cJSON_AddNumberToObject(t, "kernel_issue", r->t_overhead);
	cJSON_AddNumberToObject(t, "host_forward", r->t_host_fwd);
	cJSON_AddNumberToObject(t, "host_backward", r->t_host_bwd);
	cJSON_AddNumberToObject(t, "host_optimizer", r->t_host_opt);
	cJSON_AddNumberToObject(t, "host_exposed", r->t_overhead);
	cJSON_AddNumberToObject(t, "tp_comm", r->t_tp);
	cJSON_AddNumberToObject(t, "pp_comm", r->t_pp);
	cJSON_AddNumberToObject(t, "dp_comm", r->t_dp);
	cJSON_AddNumberToObject(t, "cp_comm", r->t_cp);
	cJSON_AddNumberToObject(t, "tp_exposed", r->t_tp_exposed);
	cJSON_AddNumberToObject(t, "pp_exposed", r->t_pp);
	cJSON_AddNumberToObject(t, "dp_exposed", r->t_dp_exposed);
	cJSON_AddNumberToObject(t, "cp_exposed", r->t_cp_exposed);
	if (r->cfg.model.experts > 0)
		cJSON_AddNumberToObject(t, "ep_comm", r->t_ep);
	if (r->cfg.ep_overlap || r->t_ep_exposed < r->t_ep)	/* or DualPipe */
		cJSON_AddNumberToObject(t, "ep_exposed", r->t_ep_exposed);
	if (r->cfg.model.dense_layers > 0 && r->cfg.model.experts > 0) {
		/* the stage that paces the step (costmodel_layers.c) */
		cJSON_AddNumberToObject(t, "slowest_stage", r->slow_stage);
		cJSON_AddNumberToObject(t, "slowest_stage_dense_layers",
		    r->slow_dense);
	}
	cJSON_AddNumberToObject(t, "exposed_comm", r->t_exposed_comm);
	cJSON_AddNumberToObject(t, "nic_shared", r->t_nic_shared);
	cJSON_AddNumberToObject(t, "comm_slowed", r->t_comm_slowed);
	cJSON_AddNumberToObject(t, "bubble", r->t_bubble);
	cJSON_AddNumberToObject(t, "optimizer", r->t_optimizer);
	cJSON_AddNumberToObject(t, "step", r->t_step);
}

static const char *const effect_w[] = { "note", "win", "loss" };

static void
add_reasons(cJSON *o, const struct cm_result *r)
{
	cJSON *rs = cJSON_AddArrayToObject(o, "reasons"), *one;
	int i;

	for (i = 0; i < r->n_reasons; i++) {
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "code", r->reasons[i].code);
		cJSON_AddStringToObject(one, "effect",
		    effect_w[r->reasons[i].effect]);
		if (r->reasons[i].vs > 0)
			cJSON_AddNumberToObject(one, "vs_row", r->reasons[i].vs);
		cJSON_AddStringToObject(one, "text", r->reasons[i].text);
		cJSON_AddItemToArray(rs, one);
	}
}

static void
add_fw_set(cJSON *o, const char *name, unsigned mask)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	int i;

	for (i = 0; i < FW_N; i++)
		if (mask & FW_BIT(i))
			cJSON_AddItemToArray(a,
			    cJSON_CreateString(fw_name((enum fw_id)i)));
}

cJSON *
cm_result_json(const struct cm_result *r)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL)
		return NULL;
	cJSON_AddStringToObject(o, "model", r->cfg.model.name);
	cJSON_AddStringToObject(o, "gpu", r->cfg.gpu.name);
	cJSON_AddNumberToObject(o, "gpus", r->cfg.gpus);
	cJSON_AddNumberToObject(o, "params", r->params);
	cJSON_AddNumberToObject(o, "active_params", r->params_active);
	add_layout(o, r);
	add_memory(o, r);
	cJSON_AddNumberToObject(o, "bubble_fraction", r->bubble_fraction);
	add_time(o, r);
	add_network(o, r);
	cJSON_AddNumberToObject(o, "tokens_per_s", r->tokens_per_s);
	cJSON_AddNumberToObject(o, "tflops_per_gpu", r->tflops_per_gpu);
	cJSON_AddNumberToObject(o, "hw_tflops_per_gpu", r->hw_tflops_per_gpu);
	cJSON_AddNumberToObject(o, "mfu_fraction", r->mfu);
	cJSON_AddNumberToObject(o, "headroom_fraction", r->headroom);
	add_fw_set(o, "frameworks", r->frameworks);
	add_fw_set(o, "priced_as", r->priced_as);
	add_fp8(o, r);
	if (r->rank > 0) {
		cJSON_AddNumberToObject(o, "rank", r->rank);
		cJSON_AddBoolToObject(o, "tie", r->tied);
	}
	add_reasons(o, r);
	return o;
}

cJSON *
cm_search_json(const struct cm_search *s)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	const struct cm_config *c = s->n_top > 0 ? &s->top[0].cfg :
	    &s->closest.cfg;
	int i;

	if (o == NULL)
		return NULL;
	arr = cJSON_AddArrayToObject(o, "candidates");
	for (i = 0; i < s->n_top; i++)
		cJSON_AddItemToArray(arr, cm_result_json(&s->top[i]));
	cJSON_AddNumberToObject(o, "evaluated", (double)s->evaluated);
	cJSON_AddNumberToObject(o, "fitting", (double)s->fitting);
	cJSON_AddNumberToObject(o, "excluded_headroom",
	    (double)s->low_headroom);
	cJSON_AddNumberToObject(o, "excluded_framework",
	    (double)s->no_framework);
	cJSON_AddNumberToObject(o, "ranked", (double)s->eligible);
	if (s->n_top > 0 || s->have_closest) {
		cJSON_AddNumberToObject(o, "headroom_fraction", c->headroom);
		cJSON_AddBoolToObject(o, "any_framework", c->any_framework);
		cJSON_AddBoolToObject(o, "tp_in_node", c->tp_in_node);
	}
	cJSON_AddNumberToObject(o, "tie_tolerance_fraction", CM_TIE_TOL);
	if (s->n_top == 0 && s->have_closest)
		cJSON_AddItemToObject(o, "closest",
		    cm_result_json(&s->closest));
	return o;
}
