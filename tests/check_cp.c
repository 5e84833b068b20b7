/*
 * check_cp.c - context parallelism in the engine (issue 26 item 1,
 * costmodel_cp.c): what CP divides (activations, attention, tokens) and
 * what it does not (weights, gradients, optimizer state); the gradient
 * group widened by CP; the ring's K/V bytes counted by hand and where
 * they hide behind attention; the all-gather's, always exposed; Ulysses'
 * heads rule; the load-balancing rule on the sequence; who runs which
 * form; the 1M-token Llama 3 8B that TP 8 cannot hold and CP 8 can; the
 * search's CP range; rank orders written before CP; the JSON.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/engine/costmodel.h"
#include "core/engine/framework.h"
#include "core/engine/hardware.h"
#include "core/mesh/mesh.h"
#include "catfix.h"

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
	ck_assert_msg(r->valid, "invalid layout");
}

/* Llama 3 8B at seq tokens on gpus H100s: DP x TP x CP, fused kernels. */
static void
llama8b(struct cm_config *c, int seq, int dp, int tp, int cp)
{
	cm_config_default(c, hw_model_find(&cat, "llama3-8b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c->model.seq = seq;
	c->dp = dp;
	c->tp = tp;
	c->cp = cp;
	c->gpus = dp * tp * cp;
	c->global_batch = 8 * dp;
	c->kernels = CM_KERNELS_FUSED;
}

static void
near(double got, double want, double rel, const char *what)
{
	ck_assert_msg(fabs(got - want) <= rel * fabs(want),
	    "%s: %.9g, want %.9g", what, got, want);
}

START_TEST(divides_activations_and_attention)
{
	struct cm_config c;
	struct cm_result r1, r2;

	llama8b(&c, 32768, 1, 8, 1);
	c.gpus = 16;
	c.dp = 2;
	eval(&c, &r1);
	c.dp = 1;
	c.cp = 2;
	eval(&c, &r2);
	/* every activation is per token: half the tokens, half the bytes */
	near(r2.act_layer, r1.act_layer / 2, 1e-12, "activations per layer");
	/* twice the micro-batches (DP 1), each half the attention */
	near(r2.t_attn, r1.t_attn, 1e-9, "attention");
	/* weights and gradients whole on every CP rank (ZeRO 0) */
	near(r2.mem_params, r1.mem_params, 1e-12, "weights");
	near(r2.mem_grads, r1.mem_grads, 1e-12, "gradients");
	/* the gradients are summed over DP x CP */
	ck_assert_int_eq(r2.group[MESH_DP].n, 2);
	ck_assert(r2.t_dp > 0);
	/* ZeRO 1 shards the optimizer over DP x CP as over DP */
	c.zero = 1;
	eval(&c, &r2);
	c.dp = 2;
	c.cp = 1;
	eval(&c, &r1);
	near(r2.mem_optim, r1.mem_optim, 1e-12, "optimizer shard");
}
END_TEST

START_TEST(ring_bytes_and_overlap)
{
	struct cm_config c;
	struct cm_result r;
	/* K and V of one chunk: 2 x (s / c) tokens x 8 KV heads x 128 / TP
	 * x 2 bytes */
	double s = 131072, n = 4, kv = 2 * (s / n) * 8 * 128 / 8 * 2;

	llama8b(&c, 131072, 1, 8, 4);
	c.recompute = CM_RECOMPUTE_SELECTIVE;
	eval(&c, &r);
	/* forward c-1 chunks, backward c-1 chunks and their gradients */
	near(r.cp_bytes, r.microbatches * 32.0 * 3 * (n - 1) * kv, 1e-12,
	    "ring bytes");
	near(r.mem_cp, 4 * kv, 1e-12, "K/V in flight");
	ck_assert(r.t_cp > 0);
	/* at 128K a step's attention outlasts its transfer */
	ck_assert(r.t_cp_exposed == 0);
	/* at 16K across nodes it no longer does */
	llama8b(&c, 16384, 1, 1, 16);
	c.recompute = CM_RECOMPUTE_SELECTIVE;
	eval(&c, &r);
	ck_assert(r.group[MESH_CP].nodes == 2);
	ck_assert_msg(r.t_cp_exposed > 0 && r.t_cp_exposed < r.t_cp,
	    "%g of %g", r.t_cp_exposed, r.t_cp);
	near(r.t_exposed_comm, r.t_tp_exposed + r.t_pp + r.t_dp_exposed +
	    r.t_cp_exposed, 1e-12, "in the exposed communication");
}
END_TEST

START_TEST(allgather_and_ulysses)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;
	double s = 131072, n = 4, kv = 2 * (s / n) * 8 * 128 / 8 * 2;

	llama8b(&c, 131072, 1, 8, 4);
	c.cp_impl = CM_CP_ALLGATHER;
	eval(&c, &r);
	/* [LLAMA3] 3.3.2: gathered before attention, not overlapped */
	near(r.t_cp_exposed, r.t_cp, 1e-12, "all-gather exposed");
	near(r.cp_bytes, r.microbatches * 32.0 * 3 * (n - 1) * kv, 1e-12,
	    "gather, gather again, reduce-scatter");
	near(r.mem_cp, 2 * n * kv, 1e-12, "the whole sequence's K/V");
	/* at 16K over two nodes the gathers show, and the notes say so */
	{
		struct cm_config x;
		struct cm_result y;
		int i, noted = 0;

		llama8b(&x, 16384, 1, 1, 16);
		x.cp_impl = CM_CP_ALLGATHER;
		eval(&x, &y);
		ck_assert(y.t_cp_exposed > 0.05 * y.t_step);
		for (i = 0; i < y.n_reasons; i++)
			noted += strcmp(y.reasons[i].code,
			    "cp_comm_exposed") == 0;
		ck_assert_int_eq(noted, 1);
	}
	/* Ulysses splits heads: 1 K/V head per TP rank at TP 8 */
	c.cp_impl = CM_CP_ULYSSES;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_msg(strstr(err.msg, "heads") != NULL, "%s", err.msg);
	llama8b(&c, 131072, 1, 1, 8);
	c.cp_impl = CM_CP_ULYSSES;
	eval(&c, &r);
	near(r.t_cp_exposed, r.t_cp, 1e-12, "all-to-alls exposed");
	ck_assert(r.cp_bytes > 0);
}
END_TEST

START_TEST(rules_and_frameworks)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;

	/* 2c load-balanced chunks must divide the sequence */
	llama8b(&c, 8192, 1, 8, 3);
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_msg(strstr(err.msg, "2 x CP") != NULL, "%s", err.msg);
	/* flash kernels only */
	llama8b(&c, 32768, 1, 8, 2);
	c.attention = CM_ATTN_PLAIN;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_msg(strstr(err.msg, "flash") != NULL, "%s", err.msg);
	/* Megatron-Core: ZeRO 0/1; torchtitan ring with FSDP2 */
	llama8b(&c, 32768, 2, 8, 2);
	c.zero = 1;
	ck_assert_uint_eq(fw_runs(&c), FW_BIT(FW_MEGATRON) |
	    FW_BIT(FW_PYTORCH));
	c.zero = 3;
	ck_assert_uint_eq(fw_runs(&c), FW_BIT(FW_PYTORCH));
	/* Ulysses: DeepSpeed without TP or PP, Megatron with ZeRO <= 1 */
	llama8b(&c, 32768, 2, 1, 8);
	c.cp_impl = CM_CP_ULYSSES;
	c.zero = 3;
	ck_assert_uint_eq(fw_runs(&c), FW_BIT(FW_DEEPSPEED));
	c.zero = 1;
	ck_assert_uint_eq(fw_runs(&c), FW_BIT(FW_MEGATRON) |
	    FW_BIT(FW_DEEPSPEED));
}
END_TEST

/*
 * Llama 3 8B, 8 query groups: with full recomputation TP 8 cannot hold a
 * 1M-token sequence; CP 8 on top of it can.
 */
START_TEST(million_tokens)
{
	struct cm_config c;
	struct cm_result r;

	llama8b(&c, 1048576, 1, 8, 1);
	c.global_batch = 8;
	c.recompute = CM_RECOMPUTE_FULL;
	eval(&c, &r);
	ck_assert(!r.fits);
	llama8b(&c, 1048576, 1, 8, 8);
	c.global_batch = 8;
	c.recompute = CM_RECOMPUTE_FULL;
	eval(&c, &r);
	ck_assert_msg(r.fits, "%.1f GB", r.mem_total / 1e9);
}
END_TEST

/*
 * Long-sequence memory: materialised scores grow with s^2 (2 bytes per
 * score without dropout, [KOR22]), flash keeps 4 bytes of softmax
 * statistics per row; full recomputation keeps each layer's input, but
 * the layer being recomputed still needs its whole working set, scores
 * and all.
 */
START_TEST(scores_memory)
{
	struct cm_config c;
	struct cm_result plain, flash, full;
	double s = 131072;

	llama8b(&c, 131072, 1, 8, 1);
	c.recompute = CM_RECOMPUTE_NONE;
	c.attention = CM_ATTN_PLAIN;
	eval(&c, &plain);
	c.attention = CM_ATTN_FLASH;
	eval(&c, &flash);
	near(plain.act_layer - flash.act_layer, 2.0 * 32 / 8 * s * s -
	    4.0 * 32 / 8 * s, 1e-3, "the scores");
	ck_assert(plain.act_layer > 100e9);	/* 137 GB a layer */
	c.recompute = CM_RECOMPUTE_FULL;
	eval(&c, &full);
	ck_assert(full.fits);
	c.attention = CM_ATTN_PLAIN;
	eval(&c, &full);
	ck_assert(!full.fits);
	ck_assert(full.mem_act > 2.0 * 32 / 8 * s * s);
}
END_TEST

static int
max_cp(const struct cm_search *s)
{
	int i, m = 0;

	for (i = 0; i < s->n_top; i++)
		if (s->top[i].cfg.cp > m)
			m = s->top[i].cfg.cp;
	return m;
}

START_TEST(search_range)
{
	struct cm_config c;
	struct cm_search *s = malloc(sizeof *s);
	struct pl_err err;

	ck_assert_ptr_nonnull(s);
	llama8b(&c, 8192, 8, 1, 1);
	c.gpus = 64;
	c.global_batch = 64;
	ck_assert_int_eq(cm_search(&c, CM_SEARCH_MAX, s, &err), 0);
	ck_assert_int_eq(max_cp(s), 1);	/* 8K: not split */
	c.model.seq = 131072;
	ck_assert_int_eq(cm_search(&c, CM_SEARCH_MAX, s, &err), 0);
	ck_assert_int_gt(s->n_top, 0);
	ck_assert_int_gt(max_cp(s), 1);
	ck_assert_int_le(max_cp(s), 131072 / MESH_SEQ_CHUNK);
	free(s);
}
END_TEST

START_TEST(rank_orders_and_json)
{
	struct cm_config c;
	struct cm_result r;
	cJSON *j, *o, *l;
	int order;
	struct pl_err err;

	ck_assert_str_eq(mesh_order_name(0), "tp-cp-pp-dp");
	ck_assert_int_eq(mesh_order_parse("pp-tp-dp", &order), 0);
	ck_assert_str_eq(mesh_order_name(order), "pp-tp-cp-dp");
	ck_assert_int_eq(mesh_order_parse("dp-tp", &order), -1);
	ck_assert_int_eq(mesh_order_parse("dp-tp-pp", &order), 0);
	ck_assert_str_eq(mesh_order_name(order), "dp-tp-cp-pp");
	ck_assert_int_eq(mesh_order_parse("tp-tp-dp", &order), -1);
	ck_assert_int_eq(mesh_order_parse("tp-xx", &order), -1);
	ck_assert_int_eq(mesh_order_parse("tp-", &order), -1);
	o = cJSON_Parse("{\"model\":\"llama3-8b\",\"seq\":32768,\"dp\":2,"
	    "\"tp\":4,\"pp\":1,\"cp\":2,\"cp_impl\":\"all-gather\","
	    "\"rank_order\":\"tp-pp-dp\"}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "x", "", &err), 0);
	cJSON_Delete(o);
	ck_assert_int_eq(c.cp, 2);
	ck_assert_int_eq(c.cp_impl, CM_CP_ALLGATHER);
	ck_assert_str_eq(mesh_order_name(c.rank_order), "tp-cp-pp-dp");
	eval(&c, &r);
	j = cm_result_json(&r);
	l = cJSON_GetObjectItem(j, "layout");
	ck_assert_int_eq(cJSON_GetObjectItem(l, "cp")->valueint, 2);
	ck_assert_str_eq(cJSON_GetObjectItem(l, "cp_impl")->valuestring,
	    "all-gather");
	ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(j, "network"), "cp"), "ranks")->valueint, 2);
	near(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "time_s"),
	    "cp_exposed")->valuedouble, r.t_cp_exposed, 1e-12, "JSON");
	cJSON_Delete(j);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cp");
	TCase *tc = tcase_create("context parallelism");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, divides_activations_and_attention);
	tcase_add_test(tc, ring_bytes_and_overlap);
	tcase_add_test(tc, allgather_and_ulysses);
	tcase_add_test(tc, rules_and_frameworks);
	tcase_add_test(tc, million_tokens);
	tcase_add_test(tc, scores_memory);
	tcase_add_test(tc, search_range);
	tcase_add_test(tc, rank_orders_and_json);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
