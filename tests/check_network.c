/*
 * check_network.c - which bandwidth a communication group gets and how long
 * its collectives take (core/engine/costmodel_net.c), held to NCCL's own
 * measurements and latency model (reference/costmodel.md f):
 *   - NVIDIA/nccl issue 812: ~192 GB/s all-reduce bus bandwidth across DGX
 *     A100 nodes with 8 x 200 Gb/s NICs;
 *   - NVIDIA/nccl-tests issue 290: 46-48 GB/s per NDR NIC;
 *   - inside an H100 node (NVIDIA/nccl-tests issue 212, NVIDIA/nccl issues
 *     1442 and 1455): ~370 GB/s ring bus bandwidth, all-reduce with NVLink
 *     SHARP ~480 GB/s on 8 GPUs, 420-460 on 5-7, the ring's on 2-4;
 *   - NCCL src/graph/tuning.cc: ring latency = 8.4 us + 3.4 us per NVLink
 *     step + 14 us per network step (Simple protocol);
 * and the rank order: TP laid one rank per node is much slower than TP in a
 * node, TP over two whole nodes only moderately slower; groups that cross
 * nodes share the NICs with DP traffic running behind compute.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "catfix.h"

/* The mesh order called name (core/mesh/mesh.h). */
static int
order_of(const char *name)
{
	int o = -1;

	ck_assert_int_eq(mesh_order_parse(name, &o), 0);
	return o;
}

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static void
cfg_for(struct cm_config *c, const char *model, const char *gpu, int d, int t,
    int p)
{
	cm_config_default(c, hw_model_find(&cat, model), hw_gpu_find(&cat, gpu));
	c->dp = d;
	c->tp = t;
	c->pp = p;
	c->gpus = d * t * p;
}

START_TEST(dgx_a100_allreduce_busbw)
{
	/* A DP group of 8 ranks in each of 4 DGX A100 nodes (t = p = 1). */
	struct cm_config c;
	struct mesh_span g;
	double bw, S = 8e9, t, busbw;

	cfg_for(&c, "gpt3-175b", "a100-80gb", 32, 1, 1);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_int_eq(g.per_node, 8);
	ck_assert_int_eq(g.nodes, 4);
	bw = cm_group_bw(&c, &g);
	/* nccl-tests busbw of a large all-reduce: 2 (n-1)/n S / t. */
	t = cm_coll_s(&c, CM_ALLREDUCE, &g, S);
	busbw = 2.0 * 31 / 32 * S / t;
	printf("network: DGX A100, 8 HDR NICs: engine %.1f GB/s bus bandwidth "
	    "(%.1f with latency, 8 GB all-reduce) vs 192 GB/s measured\n",
	    bw / 1e9, busbw / 1e9);
	ck_assert_double_eq_tol(bw / 1e9, 192, 192 * 0.05);
	ck_assert_double_eq_tol(busbw / 1e9, 192, 192 * 0.05);
}
END_TEST

START_TEST(h100_node_nvls)
{
	/* A DP group of 8 H100s in one node: a 4 GB all-reduce runs at
	 * NVLink SHARP's ~480 GB/s bus bandwidth, a gather at the ring's
	 * ~370; 4 ranks stay on the ring; off, every collective rings. */
	static const double want[] = { 369, 369, 369, 420, 440, 460, 480 };
	struct cm_config c;
	struct mesh_span g;
	double S = 4e9, busbw;
	int n;

	for (n = 2; n <= 8; n++) {
		cfg_for(&c, "llama2-7b", "h100-80gb", n, 1, 1);
		cm_group_of(&c, MESH_DP, &g);
		ck_assert_int_eq(g.nodes, 1);
		ck_assert_double_eq_tol(cm_group_bw(&c, &g) / 1e9, 369, 1);
		busbw = 2.0 * (n - 1) / n * S / cm_coll_s(&c, CM_ALLREDUCE, &g,
		    S);
		ck_assert_msg(fabs(busbw / 1e9 / want[n - 2] - 1) < 0.02,
		    "%d H100s: %.0f GB/s", n, busbw / 1e9);
		busbw = (n - 1.0) / n * S / cm_coll_s(&c, CM_ALLGATHER, &g, S);
		ck_assert_double_eq_tol(busbw / 1e9, 369, 369 * 0.02);
	}
	printf("network: 8 H100 in a node, 4 GB all-reduce: engine %.0f GB/s "
	    "bus bandwidth with NVLink SHARP vs ~480 measured\n", 2.0 * 7 / 8 *
	    S / cm_coll_s(&c, CM_ALLREDUCE, &g, S) / 1e9);
	c.nvls = 0;
	busbw = 2.0 * 7 / 8 * S / cm_coll_s(&c, CM_ALLREDUCE, &g, S);
	ck_assert_double_eq_tol(busbw / 1e9, 369, 369 * 0.02);
	/* A100s have no NVLS: the ring at 0.77 of 300 GB/s. */
	cfg_for(&c, "llama2-7b", "a100-80gb", 8, 1, 1);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_int_eq(c.nvls, 0);
	busbw = 2.0 * 7 / 8 * S / cm_coll_s(&c, CM_ALLREDUCE, &g, S);
	ck_assert_double_eq_tol(busbw / 1e9, 231, 231 * 0.02);
	/* Across two nodes the all-reduce rings (no NVLS-tree here). */
	cfg_for(&c, "llama2-7b", "h100-80gb", 16, 1, 1);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_double_eq(cm_nvls_bw(&c, &g), 0);
}
END_TEST

START_TEST(tp_under_sp_rings)
{
	/* Sequence parallelism turns TP's all-reduces into reduce-scatters
	 * and all-gathers, which NVLink SHARP does not shorten: TP 8 on
	 * H100s spends more time with SP than without. */
	struct cm_config c;
	struct cm_result a, b;

	cfg_for(&c, "llama2-70b", "h100-80gb", 1, 8, 1);
	c.global_batch = 1;
	c.seq_parallel = 0;
	ck_assert_int_eq(cm_evaluate(&c, &a, NULL), 0);
	c.seq_parallel = 1;
	ck_assert_int_eq(cm_evaluate(&c, &b, NULL), 0);
	ck_assert(b.t_tp > 1.2 * a.t_tp);
	c.nvls = 0;
	c.seq_parallel = 0;
	ck_assert_int_eq(cm_evaluate(&c, &a, NULL), 0);
	/* the same ring bytes; SP pays NCCL's base latency twice */
	ck_assert(a.t_tp < b.t_tp && a.t_tp > 0.97 * b.t_tp);
}
END_TEST

START_TEST(ndr_nic_one_rank_per_node)
{
	/* TP = 8 fills each H100 node, so a DP group has 1 rank per node. */
	struct cm_config c;
	struct mesh_span g;
	double bw;

	cfg_for(&c, "llama3-70b", "h100-80gb", 16, 8, 1);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_int_eq(g.per_node, 1);
	ck_assert_int_eq(g.nodes, 16);
	bw = cm_group_bw(&c, &g);
	printf("network: one rank per node on NDR: engine %.1f GB/s vs 46-48 "
	    "GB/s per NIC measured\n", bw / 1e9);
	ck_assert(bw >= 46e9 && bw <= 48.5e9);
}
END_TEST

START_TEST(partial_nodes)
{
	/* TP 2 inside a node leaves 4 DP ranks per node: 4 NICs' worth. */
	struct cm_config c;
	struct mesh_span g;

	cfg_for(&c, "llama3-70b", "h100-80gb", 8, 2, 1);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_int_eq(g.per_node, 4);
	ck_assert_int_eq(g.nodes, 2);
	ck_assert_double_eq_tol(cm_group_bw(&c, &g),
	    4 * c.inter_bw * c.inter_eff, 1);
	/* Never more than NVLink: 8 NDR NICs (400 GB/s) vs 450 x eff. */
	cfg_for(&c, "llama3-70b", "h100-80gb", 16, 1, 1);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert(cm_group_bw(&c, &g) <= c.intra_bw * c.intra_eff + 1);
	/* Inside one node: NVLink. */
	cfg_for(&c, "llama3-70b", "h100-80gb", 1, 8, 1);
	cm_group_of(&c, MESH_TP, &g);
	ck_assert_int_eq(g.nodes, 1);
	ck_assert_double_eq(cm_group_bw(&c, &g), c.intra_bw * c.intra_eff);
}
END_TEST

START_TEST(nvl72_domain)
{
	/* GB200 NVL72: trays of 4 GPUs, 72 on one NVLink fabric (NVIDIA
	 * GB200 NVL72 datasheet). A TP group of 8 spans 2 trays and keeps
	 * NVLink; the DP group of 18 spans 2 domains and takes the NIC's. */
	struct cm_config c;
	struct mesh_span g;
	double nvlink;

	cfg_for(&c, "llama3-70b", "gb200-186gb", 18, 8, 1);
	ck_assert_int_eq(c.gpus_per_node, 4);
	ck_assert_int_eq(c.nvlink_domain, 72);
	nvlink = c.intra_bw * c.intra_eff;
	ck_assert_double_eq_tol(c.intra_bw, 900e9, 1);
	cm_group_of(&c, MESH_TP, &g);
	ck_assert_int_eq(g.nodes, 2);
	ck_assert_int_eq(g.domains, 1);
	ck_assert_double_eq_tol(cm_group_bw(&c, &g), nvlink, 1);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_int_eq(g.domains, 2);
	ck_assert_double_eq_tol(cm_group_bw(&c, &g),
	    c.inter_bw * c.inter_eff, 1);
	/* Domain = tray (--nvlink-domain 4): the TP group crosses the NIC. */
	c.nvlink_domain = 4;
	cm_group_of(&c, MESH_TP, &g);
	ck_assert_int_eq(g.domains, 2);
	ck_assert(cm_group_bw(&c, &g) < nvlink / 2);
	/* An 8-GPU-node part: domains are nodes unless told otherwise. */
	cfg_for(&c, "llama3-70b", "h100-80gb", 2, 16, 1);
	ck_assert_int_eq(c.nvlink_domain, 0);
	cm_group_of(&c, MESH_TP, &g);
	ck_assert_int_eq(g.domains, g.nodes);
	ck_assert_int_eq(g.nodes, 2);
}
END_TEST

START_TEST(nccl_latency_model)
{
	/* tuning.cc, ring, Simple: base + steps x hop latency; only the
	 * steps that cross a node pay the network figure. */
	struct cm_config c;
	struct mesh_span g = { 16, 8, 2, 2 };
	double want;

	cfg_for(&c, "llama3-70b", "h100-80gb", 16, 1, 1);
	want = 8.4 + (2 * 15 - 2 * 1) * 3.4 + 2 * 1 * 14.0;
	ck_assert_double_eq_tol(cm_coll_s(&c, CM_ALLREDUCE, &g, 1) * 1e6,
	    want, 0.01);
	want = 8.4 + (15 - 1) * 3.4 + 1 * 14.0;
	ck_assert_double_eq_tol(cm_coll_s(&c, CM_ALLGATHER, &g, 1) * 1e6,
	    want, 0.01);
	g.n = g.nodes = 1;
	ck_assert_double_eq(cm_coll_s(&c, CM_ALLREDUCE, &g, 1e6), 0);
}
END_TEST

START_TEST(rank_order_places_groups)
{
	struct cm_config c;
	struct mesh_span g;

	cfg_for(&c, "gpt3-175b", "a100-80gb", 4, 8, 4);	/* 128 GPUs */
	cm_group_of(&c, MESH_TP, &g);
	ck_assert_int_eq(g.nodes, 1);
	cm_group_of(&c, MESH_PP, &g);
	ck_assert_int_eq(g.per_node, 1);
	ck_assert_int_eq(g.nodes, 4);
	/* TP outermost: each TP rank 16 GPUs apart, one per node. */
	c.rank_order = order_of("dp-pp-tp");
	cm_group_of(&c, MESH_TP, &g);
	ck_assert_int_eq(g.per_node, 1);
	ck_assert_int_eq(g.nodes, 8);
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_int_eq(g.nodes, 1);	/* DP innermost: 4 in a node */
}
END_TEST

/* TP time per micro-batch for a 175B layout with TP t and the order. */
static double
tp_time(int t, int o, struct cm_result *r)
{
	struct cm_config c;
	struct pl_err err;

	cfg_for(&c, "gpt3-175b", "a100-80gb", 16 / (t / 8 > 0 ? t / 8 : 1), t,
	    8);
	c.rank_order = o;
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s", err.msg);
	return r->t_tp / r->microbatches;
}

START_TEST(tp_across_nodes)
{
	struct cm_result in, per_node, two;
	double a = tp_time(8, order_of("tp-pp-dp"), &in);
	double b = tp_time(8, order_of("dp-pp-tp"), &per_node);
	double c = tp_time(16, order_of("tp-pp-dp"), &two);

	printf("network: GPT-3 TP time per micro-batch: TP 8 in a node %.1f "
	    "ms, one rank per node %.1f ms (%.1fx), TP 16 over two whole "
	    "nodes %.1f ms (%.2fx)\n", 1e3 * a, 1e3 * b, b / a, 1e3 * c,
	    c / a);
	ck_assert_int_eq(in.tp_inter, 0);
	ck_assert_int_eq(per_node.tp_inter, 1);
	ck_assert_int_eq(per_node.group[MESH_TP].per_node, 1);
	ck_assert(b > 5 * a);		/* the classic misconfiguration */
	ck_assert_int_eq(two.group[MESH_TP].per_node, 8);
	ck_assert(c > 1.05 * a && c < 2.5 * a);	/* moderately slower */
	ck_assert(per_node.t_step > 1.5 * in.t_step);
	ck_assert(two.t_step > in.t_step);
}
END_TEST

/*
 * Llama 2 70B on H100, d x t x 1 with 8 micro-batches a step whatever d,
 * ZeRO `zero` with DP overlap on.
 */
static void
eval_shared(int d, int t, int zero, struct cm_result *r)
{
	struct cm_config c;
	struct pl_err err;

	cfg_for(&c, "llama2-70b", "h100-80gb", d, t, 1);
	c.global_batch = 8L * d;
	c.zero = zero;
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(r->microbatches, 8);
}

START_TEST(nic_shared_with_dp)
{
	struct cm_result alone, shared;
	double hidden;
	int zero;

	for (zero = 1; zero <= 3; zero += 2) {
		eval_shared(1, 16, zero, &alone);	/* no DP traffic */
		eval_shared(4, 16, zero, &shared);	/* DP over 4 x 2 nodes */
		hidden = shared.t_dp - shared.t_dp_exposed;
		printf("network: TP 16 over two nodes, ZeRO %d, 8 micro-batches: "
		    "TP %.1f ms a step alone, %.1f ms beside DP traffic "
		    "(%.1f ms of it hidden); step +%.1f ms from shared NICs\n",
		    zero, 1e3 * alone.t_tp, 1e3 * shared.t_tp, 1e3 * hidden,
		    1e3 * shared.t_nic_shared);
		ck_assert_int_eq(shared.group[MESH_TP].per_node, 8);
		ck_assert_int_eq(shared.dp_inter, 1);
		ck_assert(alone.t_nic_shared == 0);
		ck_assert(shared.t_nic_shared > 0);
		/* TP slows, and no more than by the DP traffic it meets. */
		ck_assert(shared.t_tp > 1.002 * alone.t_tp);
		ck_assert(shared.t_tp - alone.t_tp <= hidden);
		ck_assert(shared.t_tp_exposed > alone.t_tp_exposed);
	}
}
END_TEST

START_TEST(nic_not_shared_unchanged)
{
	struct cm_result alone, dp;

	/* TP 8 fills the node: only DP crosses nodes, nothing to share. */
	eval_shared(1, 8, 1, &alone);
	eval_shared(8, 8, 1, &dp);
	ck_assert_int_eq(dp.dp_inter, 1);
	ck_assert_int_eq(dp.tp_inter, 0);
	ck_assert(dp.t_nic_shared == 0);
	ck_assert_double_eq_tol(dp.t_tp, alone.t_tp, 1e-12);
	ck_assert_double_eq_tol(dp.t_tp_exposed, alone.t_tp_exposed, 1e-12);
	/* TP 16 over two nodes without DP overlap: DP runs alone. */
	{
		struct cm_config c;
		struct pl_err err;

		cfg_for(&c, "llama2-70b", "h100-80gb", 4, 16, 1);
		c.global_batch = 32;
		c.zero = 1;
		c.dp_overlap = 0;
		ck_assert(cm_evaluate(&c, &dp, &err) == 0);
		eval_shared(1, 16, 1, &alone);
		ck_assert(dp.t_nic_shared == 0);
		ck_assert_double_eq_tol(dp.t_tp, alone.t_tp, 1e-12);
	}
}
END_TEST

static Suite *
network_suite(void)
{
	Suite *s = suite_create("network");
	TCase *tc = tcase_create("published NCCL figures");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, dgx_a100_allreduce_busbw);
	tcase_add_test(tc, ndr_nic_one_rank_per_node);
	tcase_add_test(tc, partial_nodes);
	tcase_add_test(tc, nccl_latency_model);
	suite_add_tcase(s, tc);
	tc = tcase_create("rank order");
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, rank_order_places_groups);
	tcase_add_test(tc, tp_across_nodes);
	tcase_add_test(tc, nic_shared_with_dp);
	tcase_add_test(tc, h100_node_nvls);
	tcase_add_test(tc, tp_under_sp_rings);
	tcase_add_test(tc, nic_not_shared_unchanged);
	tcase_add_test(tc, nvl72_domain);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(network_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
