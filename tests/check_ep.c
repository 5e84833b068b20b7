/*
 * check_ep.c - expert parallelism (core/engine/costmodel_ep.c): the
 * all-to-alls' bytes and time in a node and across nodes, the experts a
 * rank holds and the tokens each takes, memory with and without ZeRO,
 * the DP traffic of the experts' gradients, the frameworks that run it,
 * and the layouts it cannot take.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

/* r carries a reason `code` whose text holds `part`. */
static int
has_reason(const struct cm_result *r, const char *code, const char *part)
{
	int i;

	for (i = 0; i < r->n_reasons; i++)
		if (strcmp(r->reasons[i].code, code) == 0 &&
		    strstr(r->reasons[i].text, part) != NULL)
			return 1;
	return 0;
}

/* Mixtral 8x7B on 8 x dp GPUs as Megatron-LM runs it, 8 experts. */
static void
mixtral(struct cm_config *c, int dp, int tp, int ep)
{
	cm_config_default(c, hw_model_find(&cat, "mixtral-8x7b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c->dp = dp;
	c->tp = tp;
	c->gpus = dp * tp;
	c->ep = ep;
	c->global_batch = dp;
	c->kernels = CM_KERNELS_FUSED;
	c->zero = 1;
	c->recompute = CM_RECOMPUTE_SELECTIVE;
}

START_TEST(all_to_all_in_a_node)
{
	/* EP 8 over the 8 GPUs of a node: each all-to-all sends 7/8 of
	 * M k h bf16 elements over NVLink; dispatch and combine forward,
	 * both again backward, per layer and micro-batch */
	struct cm_config c;
	struct cm_result r;
	struct cm_ep_layer x;
	double M = 32768, one, t;

	mixtral(&c, 8, 1, 8);
	cm_ep_layer(&c, &x);
	one = M * 2 * 4096 * 2 * 7 / 8;
	ck_assert(x.in_domain);
	ck_assert_double_eq_tol(x.bytes, 2 * one, 1);
	t = one / (c.intra_bw * c.intra_eff) + c.coll_base_s + c.intra_lat_s;
	ck_assert_double_eq_tol(x.fwd, 2 * t, 1e-12);
	ck_assert_double_eq_tol(x.bwd, 2 * t, 1e-12);
	eval(&c, &r);
	ck_assert_double_eq_tol(r.t_ep, 32 * (x.fwd + x.bwd), 1e-9);
	ck_assert_double_eq_tol(r.ep_bytes, 32 * 2 * x.bytes, 1);
	/* full recomputation runs the forward's two again */
	c.recompute = CM_RECOMPUTE_FULL;
	cm_ep_layer(&c, &x);
	ck_assert_double_eq_tol(x.bwd, 4 * t, 1e-12);
}
END_TEST

START_TEST(all_to_all_across_nodes)
{
	/* TP 8 fills each node, so EP 8's ranks sit one per node: every
	 * copy to another rank crosses a NIC, and the step slows */
	struct cm_config c, n;
	struct cm_ep_layer x, y;
	struct cm_result rc, rn;
	double one = 32768.0 * 2 * 4096 * 2 * 7 / 8;

	mixtral(&c, 8, 8, 8);
	cm_ep_layer(&c, &x);
	ck_assert(!x.in_domain);
	ck_assert_double_eq_tol(x.fwd, 2 * (one / (c.inter_bw * c.inter_eff) +
	    c.coll_base_s + c.inter_lat_s), 1e-12);
	mixtral(&n, 8, 1, 8);
	n.gpus = 8;
	cm_ep_layer(&n, &y);
	ck_assert(x.fwd > 5 * y.fwd);
	eval(&c, &rc);
	eval(&n, &rn);
	ck_assert(rc.t_ep > 5 * rn.t_ep);
	/* the result says why, and names the NICs */
	ck_assert_msg(has_reason(&rc, "ep_comm_exposed", "cross a NIC"),
	    "no ep_comm_exposed across nodes");
	ck_assert(!has_reason(&rn, "ep_comm_exposed", ""));
}
END_TEST

START_TEST(a_rank_holds_its_experts)
{
	/* EP e leaves E / e experts a rank, each taking the tokens of e
	 * ranks: the products keep their FLOPs, on k M e / E rows each */
	struct cm_config c;
	struct cm_linear l[CM_MAX_LINEARS];
	int i, n, found = 0;

	mixtral(&c, 8, 1, 4);
	n = cm_layer_linears(&c, l);
	for (i = 0; i < n; i++) {
		if (l[i].routed != CM_LINEAR_EXPERT)
			continue;
		found++;
		ck_assert_double_eq(l[i].count, 2);
		ck_assert_double_eq(l[i].m, 32768.0 * 2 * 4 / 8);
	}
	ck_assert_int_eq(found, 2);	/* fused w1 w3, then w2 */
	/* one layer's parameters on a rank lose 3/4 of the experts */
	ck_assert_double_eq_tol(cm_layer_params_rank(&c),
	    4096.0 * (4096 + 2048) + 4096.0 * 4096 + 2 * 3.0 * 4096 * 14336 +
	    4096.0 * 8 + 2 * 4096, 1);
}
END_TEST

START_TEST(memory_and_dp_traffic)
{
	/* ZeRO 1: the weights and gradients a rank holds shrink by the
	 * experts it gives away; the optimizer's shard does not (the same
	 * experts' states are sharded over fewer ranks); the gradients
	 * reduced over DP shrink as the weights do */
	struct cm_config c;
	struct cm_result a, b;
	double gone;

	mixtral(&c, 8, 1, 1);
	eval(&c, &a);
	c.ep = 8;
	eval(&c, &b);
	gone = 32 * cm_layer_routed_rank(&c) * 7 / 8;
	ck_assert_double_eq_tol(a.params_gpu - b.params_gpu, gone, 1);
	ck_assert_double_eq_tol(a.mem_params - b.mem_params, 2 * gone, 1);
	ck_assert_double_eq_tol(a.mem_optim, b.mem_optim, 1);
	ck_assert_msg(b.dp_bytes < 0.2 * a.dp_bytes, "dp bytes %g -> %g",
	    a.dp_bytes, b.dp_bytes);
}
END_TEST

START_TEST(expert_tp_folds_ep_into_the_node)
{
	/* TP 8 filling each node with expert TP 1: EP 8 takes the TP ranks
	 * (Megatron-Core's parallel folding), so its all-to-alls stay on
	 * NVLink, each rank dispatching its own eighth of the tokens; a rank
	 * holds one whole expert where it held an eighth of one (the other
	 * nodes hold copies: expert data parallelism over 8) */
	struct cm_config c, f;
	struct cm_ep_layer x, y;
	double one;

	mixtral(&c, 8, 8, 8);
	cm_ep_layer(&c, &x);
	ck_assert(!x.in_domain);
	f = c;
	f.etp = 1;
	ck_assert_ptr_null(cm_ep_invalid(&f));
	cm_ep_layer(&f, &y);
	ck_assert(y.in_domain);
	one = 32768.0 / 8 * 2 * 4096 * 2 * 7 / 8;
	ck_assert_double_eq_tol(y.bytes, 2 * one, 1);
	ck_assert_double_eq_tol(cm_moe_tokens(&f), 32768.0 / 8, 1e-9);
	ck_assert_double_eq_tol(cm_layer_params_rank(&f) -
	    cm_layer_params_rank(&c), cm_layer_routed_all(&c) * (1.0 / 8 -
	    1.0 / 64), 1);
	ck_assert_uint_eq(cm_ep_frameworks(&f),
	    FW_BIT(FW_MEGATRON) | FW_BIT(FW_PYTORCH));
	/* EP may now reach past DP: 64 = TP 8 x DP 8, but not the 8 experts */
	f.ep = 64;
	ck_assert_ptr_nonnull(cm_ep_invalid(&f));
	f.etp = 3;
	f.ep = 8;
	ck_assert_ptr_nonnull(strstr(cm_ep_invalid(&f), "must divide TP"));
}
END_TEST

START_TEST(the_busiest_rank_sets_the_pace)
{
	/* --moe-imbalance 1.5: the busiest rank's experts take 1.5 times
	 * the even share of tokens, and its all-to-alls carry 1.5 times the
	 * bytes; a capacity factor of 1.25 drops what passes it; without EP
	 * every rank sees the same total */
	struct cm_config c;
	struct cm_ep_layer even, hot;
	struct cm_linear l[CM_MAX_LINEARS];
	double lat;
	int i, n;

	mixtral(&c, 8, 1, 8);
	cm_ep_layer(&c, &even);
	c.moe_imbalance = 1.5;
	ck_assert_double_eq(cm_moe_load(&c), 1.5);
	cm_ep_layer(&c, &hot);
	lat = c.coll_base_s + c.intra_lat_s;
	ck_assert_double_eq_tol(hot.fwd / 2 - lat, 1.5 * (even.fwd / 2 - lat),
	    1e-12);
	ck_assert_double_eq_tol(hot.bytes, 1.5 * even.bytes, 1);
	n = cm_layer_linears(&c, l);
	for (i = 0; i < n; i++)
		if (l[i].routed == CM_LINEAR_EXPERT)
			ck_assert_double_eq(l[i].m, 1.5 * 32768 * 2 * 8 / 8);
	c.capacity_factor = 1.25;
	ck_assert_double_eq(cm_moe_load(&c), 1.25);
	c.ep = 1;
	ck_assert_double_eq(cm_moe_load(&c), 1);
}
END_TEST

START_TEST(frameworks_that_run_it)
{
	struct cm_config c;

	mixtral(&c, 8, 1, 8);
	ck_assert_uint_eq(cm_ep_frameworks(&c), FW_ALL);
	c.zero = 2;
	ck_assert_uint_eq(cm_ep_frameworks(&c),
	    FW_BIT(FW_DEEPSPEED) | FW_BIT(FW_PYTORCH));
	c.zero = 3;
	ck_assert_uint_eq(cm_ep_frameworks(&c), FW_BIT(FW_PYTORCH));
	c.ep = 1;
	ck_assert_uint_eq(cm_ep_frameworks(&c), FW_ALL);
}
END_TEST

START_TEST(layouts_it_cannot_take)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;

	mixtral(&c, 8, 1, 16);
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "does not divide the 8 experts"));
	mixtral(&c, 2, 4, 4);
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "must divide TP / ETP x DP x "
	    "CP (2)"));
	cm_config_default(&c, hw_model_find(&cat, "llama3-8b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.dp = c.gpus = 8;
	c.ep = 2;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "has none"));
}
END_TEST

static Suite *
ep_suite(void)
{
	Suite *s = suite_create("ep");
	TCase *tc = tcase_create("expert parallelism");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, all_to_all_in_a_node);
	tcase_add_test(tc, all_to_all_across_nodes);
	tcase_add_test(tc, a_rank_holds_its_experts);
	tcase_add_test(tc, memory_and_dp_traffic);
	tcase_add_test(tc, expert_tp_folds_ep_into_the_node);
	tcase_add_test(tc, the_busiest_rank_sets_the_pace);
	tcase_add_test(tc, frameworks_that_run_it);
	tcase_add_test(tc, layouts_it_cannot_take);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(ep_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
