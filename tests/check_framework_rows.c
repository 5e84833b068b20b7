/*
 * check_framework_rows.c - a row is a layout and the framework that runs
 * it, priced as that framework runs it (issue 25 item 1,
 * framework_setup.c):
 *   - each framework's setup held to the source line it comes from
 *     (Megatron-LM's fp32 main gradients reduced in fp32, DeepSpeed's
 *     get_data_types, torchtitan's fp32 reduce and fused AdamW);
 *   - NVIDIA's Llama 2 70B layout on 64 H100 (TP 4, PP 4, interleaved,
 *     ZeRO 1, SP) priced as Megatron-LM is faster and smaller than as set
 *     (eager PyTorch), by the fused kernels and the fused optimizer;
 *   - the search lists a layout once per framework whose price differs,
 *     carries the framework in each row and in JSON, and keeps --kernels
 *     as given;
 *   - --framework X prices only as X, and refuses a layout X does not run;
 *   - the memory names ZeRO-3's whole weights and gradients under PP;
 *   - PyTorch's copies around its DP collectives (FSDP2, DDP), and no one
 *     else's.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/course/playground.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"
#include "core/engine/hardware.h"
#include "catfix.h"

/* Llama 2 70B on 64 H100: TP 4, PP 4, interleaved, ZeRO 1, SP. */
static void
nvidia_70b(struct cm_config *c)
{
	cm_config_default(c, hw_model_find(&cat, "llama2-70b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c->gpus = 64;
	c->dp = 4;
	c->tp = 4;
	c->pp = 4;
	c->schedule = PIPE_INTERLEAVED;
	c->virtual_stages = 2;
	c->zero = 1;
	c->seq_parallel = 1;
	c->global_batch = 128;
}

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

START_TEST(setups_follow_sources)
{
	struct cm_config c, m, d, p;

	nvidia_70b(&c);
	m = d = p = c;
	fw_setup_apply(&m, FW_MEGATRON);
	fw_setup_apply(&d, FW_DEEPSPEED);
	fw_setup_apply(&p, FW_PYTORCH);
	/* arguments.py: bf16 -> accumulate_allreduce_grads_in_fp32 */
	ck_assert_int_eq(m.kernels, CM_KERNELS_FUSED);
	ck_assert_int_eq(m.grad_accum_fp32, 1);
	ck_assert_int_eq(m.reduce_fp32, 1);
	ck_assert_int_eq(m.optimizer_impl, CM_OPT_IMPL_FUSED);
	ck_assert_int_eq(m.pp_scatter_gather, 1);
	ck_assert_int_eq(m.framework, CM_FW_MEGATRON);
	/* engine.py: bf16 under ZeRO accumulates and communicates in bf16 */
	ck_assert_int_eq(d.grad_accum_fp32, 0);
	ck_assert_int_eq(d.reduce_fp32, 0);
	ck_assert_int_eq(d.pp_scatter_gather, 0);
	ck_assert_int_eq(d.kernels, CM_KERNELS_FUSED);	/* Megatron-DeepSpeed */
	d.zero = 0;
	fw_setup_apply(&d, FW_DEEPSPEED);
	ck_assert_int_eq(d.grad_accum_fp32, 1);	/* BF16_Optimizer */
	d.tp = d.pp = 1;
	fw_setup_apply(&d, FW_DEEPSPEED);
	ck_assert_int_eq(d.kernels, CM_KERNELS_EAGER);	/* a Hugging Face model */
	/* torchtitan: compile off, reduce fp32, fused AdamW */
	ck_assert_int_eq(p.kernels, CM_KERNELS_EAGER);
	ck_assert_int_eq(p.grad_accum_fp32, 1);
	ck_assert_int_eq(p.reduce_fp32, 1);
	ck_assert_int_eq(p.optimizer_impl, CM_OPT_IMPL_FUSED);
	ck_assert_int_eq(p.pp_scatter_gather, 0);
	ck_assert(!fw_setup_same(&m, &p));
}
END_TEST

START_TEST(megatron_row_priced_as_megatron)
{
	struct cm_config c;
	struct cm_result set, meg;

	nvidia_70b(&c);
	eval(&c, &set);
	c.framework = CM_FW_MEGATRON;
	eval(&c, &meg);
	ck_assert_int_eq(set.cfg.kernels, CM_KERNELS_EAGER);
	ck_assert_int_eq(meg.cfg.kernels, CM_KERNELS_FUSED);
	ck_assert_uint_eq(meg.priced_as, FW_BIT(FW_MEGATRON));
	ck_assert_uint_eq(set.priced_as, 0);
	/* The fused layer: the same FLOPs in merged QKV and gate/up
	 * products, less element-wise traffic and no autocast casts. */
	ck_assert(meg.t_gemm <= set.t_gemm);
	ck_assert(meg.t_gemm > 0.9 * set.t_gemm);
	ck_assert(meg.t_elementwise < 0.6 * set.t_elementwise);
	ck_assert_msg(set.t_step / meg.t_step > 1.2, "%g vs %g",
	    set.t_step, meg.t_step);
	/* fp32 main gradients: 4 bytes a parameter, not 2 */
	ck_assert(fabs(meg.mem_grads - 2 * set.mem_grads) <
	    1e-9 * meg.mem_grads);
	/* ...and the fused kernels keep fewer activations */
	ck_assert(meg.mem_act < set.mem_act);
}
END_TEST

START_TEST(kernels_given_stay)
{
	struct cm_config c;
	struct cm_result r;

	nvidia_70b(&c);
	c.framework = CM_FW_MEGATRON;
	c.kernels = CM_KERNELS_COMPILED;
	c.setup_set = CM_SET_KERNELS;
	eval(&c, &r);
	ck_assert_int_eq(r.cfg.kernels, CM_KERNELS_COMPILED);
	ck_assert_int_eq(r.cfg.grad_accum_fp32, 1);
}
END_TEST

START_TEST(refuses_layout_framework_does_not_run)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;

	nvidia_70b(&c);
	c.framework = CM_FW_DEEPSPEED;	/* SP and interleaving: no */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "DeepSpeed"));
	ck_assert_ptr_nonnull(strstr(err.msg, "Megatron-LM"));
}
END_TEST

/* Search rows for llama2-70b on 64 H100, 128 samples a step. */
static void
search_70b(struct cm_search *s, enum cm_framework fw, unsigned set,
    enum cm_kernels k)
{
	struct cm_config c;
	struct pl_err err;

	nvidia_70b(&c);
	c.framework = fw;
	c.setup_set = set;
	c.kernels = k;
	ck_assert_int_eq(cm_search(&c, CM_SEARCH_MAX, s, &err), 0);
	ck_assert_int_gt(s->n_top, 0);
}

START_TEST(search_prices_each_framework)
{
	static struct cm_search s;
	unsigned seen = 0;
	int i, j, twice = 0;

	search_70b(&s, CM_FW_AUTO, 0, CM_KERNELS_EAGER);
	for (i = 0; i < s.n_top; i++) {
		const struct cm_result *r = &s.top[i];

		/* every row priced as a framework that runs it */
		ck_assert_uint_ne(r->priced_as, 0);
		ck_assert_uint_eq(r->priced_as & ~r->frameworks, 0);
		ck_assert_int_ne(r->cfg.framework, CM_FW_AUTO);
		ck_assert(r->priced_as & FW_BIT(r->cfg.framework - 1));
		seen |= r->priced_as;
		for (j = 0; j < i; j++)
			if (s.top[j].cfg.dp == r->cfg.dp &&
			    s.top[j].cfg.tp == r->cfg.tp &&
			    s.top[j].cfg.pp == r->cfg.pp &&
			    s.top[j].cfg.micro_batch == r->cfg.micro_batch &&
			    s.top[j].cfg.schedule == r->cfg.schedule &&
			    s.top[j].cfg.virtual_stages ==
			    r->cfg.virtual_stages) {
				twice++;
				/* a second row of a layout has its own price */
				ck_assert(s.top[j].t_step != r->t_step ||
				    s.top[j].mem_total != r->mem_total);
				ck_assert_int_ne(s.top[j].cfg.framework,
				    r->cfg.framework);
			}
	}
	ck_assert(seen & FW_BIT(FW_MEGATRON));
	ck_assert_int_gt(twice, 0);
	/* the fastest row is Megatron-LM's: fused kernels */
	ck_assert(s.top[0].priced_as & FW_BIT(FW_MEGATRON));
	ck_assert_int_eq(s.top[0].cfg.kernels, CM_KERNELS_FUSED);
}
END_TEST

START_TEST(search_one_framework)
{
	static struct cm_search s;
	int i;

	search_70b(&s, CM_FW_PYTORCH, 0, CM_KERNELS_EAGER);
	for (i = 0; i < s.n_top; i++) {
		ck_assert_uint_eq(s.top[i].priced_as, FW_BIT(FW_PYTORCH));
		ck_assert_int_eq(s.top[i].cfg.kernels, CM_KERNELS_EAGER);
	}
	/* --kernels given: every row keeps them */
	search_70b(&s, CM_FW_AUTO, CM_SET_KERNELS, CM_KERNELS_COMPILED);
	for (i = 0; i < s.n_top; i++)
		ck_assert_int_eq(s.top[i].cfg.kernels, CM_KERNELS_COMPILED);
}
END_TEST

START_TEST(json_carries_framework)
{
	static struct cm_search s;
	cJSON *o, *row, *l;
	const char *fw;

	search_70b(&s, CM_FW_AUTO, 0, CM_KERNELS_EAGER);
	o = cm_search_json(&s);
	ck_assert_ptr_nonnull(o);
	row = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "candidates"), 0);
	ck_assert_ptr_nonnull(row);
	l = cJSON_GetObjectItem(row, "layout");
	fw = cJSON_GetStringValue(cJSON_GetObjectItem(l, "framework"));
	ck_assert_str_eq(fw, cm_framework_name(s.top[0].cfg.framework));
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(l,
	    "kernels")), cm_kernels_name(s.top[0].cfg.kernels));
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(l,
	    "grad_dtype")), s.top[0].cfg.grad_accum_fp32 ? "fp32" : "bf16");
	ck_assert_int_ge(cJSON_GetArraySize(cJSON_GetObjectItem(row,
	    "priced_as")), 1);
	cJSON_Delete(o);
}
END_TEST

START_TEST(zero3_pp_memory_named)
{
	struct cm_config c;
	struct cm_result r;
	double np, d = 4;

	nvidia_70b(&c);
	c.schedule = PIPE_1F1B;
	c.virtual_stages = 1;
	c.zero = 3;
	c.framework = CM_FW_PYTORCH;
	eval(&c, &r);
	/* the stage's weights whole (bf16) and its gradients whole (fp32)
	 * beside their shards, each its own term */
	np = r.params_gpu;
	ck_assert(fabs(r.mem_gathered - np * (2 - 2 / d)) < 1e-6 * np);
	ck_assert(fabs(r.mem_grads_whole - np * (4 - 4 / d)) < 1e-6 * np);
	ck_assert(fabs(r.mem_other - (r.mem_buffers + r.mem_nccl +
	    r.mem_gathered + r.mem_grads_whole)) < 1);
	ck_assert(fabs(r.mem_total - (r.mem_params + r.mem_grads +
	    r.mem_optim + r.mem_act + r.mem_other)) < 1);
}
END_TEST

/*
 * PyTorch's copies on the compute stream (costmodel_dp.c). FSDP2's, from
 * torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py: after each
 * all-gather the flat buffer is copied into the parameters (read and
 * write the gathered bf16 bytes), before each reduce-scatter the
 * gradients into its input (read bf16, write the fp32 reduce dtype); one
 * kernel a layer each, at the HBM efficiency of its size. Re-derived here
 * from those words for Llama 2 7B on 64 H100, one micro-batch of 2048.
 */
START_TEST(pytorch_dp_copies)
{
	struct cm_config c;
	struct cm_result r, one;
	double P, L, bw, out, cat_b, want, m;

	cm_config_default(&c, hw_model_find(&cat, "llama2-7b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = c.dp = 64;
	c.zero = 3;
	c.global_batch = 128;
	c.model.seq = 2048;
	c.framework = CM_FW_PYTORCH;
	eval(&c, &r);
	P = r.params_gpu;
	L = r.stage_layers;
	m = (double)r.microbatches;
	bw = c.gpu.hbm_bw;
	out = 4 * P / (bw * cm_hbm_eff(4 * P / L));
	cat_b = 6 * P / (bw * cm_hbm_eff(6 * P / L));
	want = m * (2 * out + cat_b);	/* gathers before fwd and bwd */
	ck_assert_double_eq_tol(r.t_dp_copies, want, 1e-9 * want);
	ck_assert(r.t_elementwise > r.t_dp_copies);
	/* kept gathered to the backward: one copy-out a micro-batch */
	c.reshard_after_forward = 0;
	eval(&c, &one);
	ck_assert_double_eq_tol(one.t_dp_copies, m * (out + cat_b),
	    1e-9 * want);
	/* Megatron's and DeepSpeed's buffers need no copies */
	c.reshard_after_forward = 1;
	c.framework = CM_FW_DEEPSPEED;
	eval(&c, &one);
	ck_assert_double_eq(one.t_dp_copies, 0);
	c.framework = CM_FW_PYTORCH;
	c.zero = 1;
	eval(&c, &one);
	ck_assert_double_eq(one.t_dp_copies, 0);
	/* DDP: each fp32 gradient into its bucket and back, once a step, a
	 * kernel per tensor each way (gradient_as_bucket_view off) */
	c.zero = 0;
	eval(&c, &one);
	{
		double el[16], T = L * cm_layer_tensors(&one.cfg, el, 16);

		want = 2 * 8 * P / (bw * cm_hbm_eff(8 * P / T));
		ck_assert_double_eq_tol(one.t_dp_copies, want, 1e-9 * want);
	}
	/* one GPU: nothing sharded, nothing copied */
	c.zero = 3;
	c.gpus = c.dp = 1;
	c.global_batch = 2;
	eval(&c, &one);
	ck_assert_double_eq(one.t_dp_copies, 0);
}
END_TEST

/* Gradient buckets as each framework sizes them (framework_setup.c). */
START_TEST(buckets_per_framework)
{
	struct cm_config c;
	struct cm_result r;
	double n;

	cm_config_default(&c, hw_model_find(&cat, "llama2-7b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = c.dp = 8;
	eval(&c, &r);
	n = cm_params(&c.model);
	/* as set: PyTorch DDP's 25 MiB of bf16 gradients */
	ck_assert_int_eq(r.dp_collectives, (long)ceil(2 * n / (25 * 1048576.0)));
	ck_assert_int_gt(r.dp_collectives, 500);
	c.framework = CM_FW_MEGATRON;	/* max(4e7, 1e6 x 8) elements */
	eval(&c, &r);
	ck_assert_int_eq(r.dp_collectives, (long)ceil(n / 4e7));
	c.dp_overlap = 0;		/* one bucket: the whole buffer */
	eval(&c, &r);
	ck_assert_int_eq(r.dp_collectives, 1);
	c.dp_overlap = 1;
	c.framework = CM_FW_DEEPSPEED;	/* 5e8 elements */
	eval(&c, &r);
	ck_assert_int_eq(r.dp_collectives, (long)ceil(n / 5e8));
	c.zero = 1;	/* reduce-scatter and all-gather, each in buckets */
	eval(&c, &r);
	ck_assert_int_eq(r.dp_collectives, 2 * (long)ceil(n / 5e8));
}
END_TEST

/* A ranked row applied in the playground keeps its price, and the next
 * search still prices every framework. */
START_TEST(playground_applies_a_row)
{
	static struct cm_search s;
	static struct pg_state pg;
	struct cm_config c, from;
	struct pl_err err;

	nvidia_70b(&c);
	pg_init(&pg, &cat, &c, 0);
	pg_search_config(&pg, &from);
	ck_assert_int_eq(cm_search(&from, CM_SEARCH_MAX, &s, &err), 0);
	ck_assert_int_ne(s.top[0].cfg.framework, CM_FW_AUTO);
	pg_apply(&pg, &s.top[0].cfg);
	ck_assert(pg.cur_valid);
	ck_assert(fabs(pg.cur.t_step - s.top[0].t_step) <
	    1e-9 * s.top[0].t_step);
	ck_assert(pg_is_row(&pg, &s.top[0].cfg));
	pg_search_config(&pg, &from);
	ck_assert_int_eq(from.framework, CM_FW_AUTO);
	/* as set, a layout is the row of any framework with its shape */
	pg_init(&pg, &cat, &s.top[0].cfg, 0);
	pg.cfg.framework = CM_FW_AUTO;
	ck_assert(pg_is_row(&pg, &s.top[0].cfg));
}
END_TEST

START_TEST(framework_key)
{
	struct cm_config c;
	struct pl_err err;
	cJSON *o;

	o = cJSON_Parse("{\"model\":\"llama2-7b\",\"dp\":8,\"framework\":"
	    "\"megatron\",\"kernels\":\"eager\"}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err), 0);
	ck_assert_int_eq(c.framework, CM_FW_MEGATRON);
	ck_assert_uint_eq(c.setup_set, CM_SET_KERNELS);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"model\":\"llama2-7b\",\"framework\":\"jax\"}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "jax"));
	cJSON_Delete(o);
}
END_TEST

static Suite *
rows_suite(void)
{
	Suite *s = suite_create("framework rows");
	TCase *tc = tcase_create("priced as the framework runs it");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, setups_follow_sources);
	tcase_add_test(tc, megatron_row_priced_as_megatron);
	tcase_add_test(tc, kernels_given_stay);
	tcase_add_test(tc, refuses_layout_framework_does_not_run);
	tcase_add_test(tc, search_prices_each_framework);
	tcase_add_test(tc, search_one_framework);
	tcase_add_test(tc, json_carries_framework);
	tcase_add_test(tc, zero3_pp_memory_named);
	tcase_add_test(tc, pytorch_dp_copies);
	tcase_add_test(tc, buckets_per_framework);
	tcase_add_test(tc, playground_applies_a_row);
	tcase_add_test(tc, framework_key);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(rows_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
