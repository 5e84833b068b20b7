/*
 * check_nccl.c - NCCL's choice of algorithm and protocol and its predicted
 * time (core/engine/costmodel_nccl.c), held to NCCL's own tuning model:
 * NVIDIA/nccl src/graph/tuning.cc at 5067397c2676d5aed50042fc39e5c8ee96eb0027
 * (default tuner constants, ncclTopoTuneModel, ncclTopoGetAlgoTime; the
 * least predicted time wins, src/enqueue.cc topoGetAlgoInfo).
 *
 * Expected picks and times were worked out by hand from tuning.cc's
 * formulas (an independent re-implementation, not this code) for H100s
 * with the engine's bus bandwidths: 369 GB/s ring inside a node (450 GB/s
 * NVLink x 0.82), 480 GB/s NVLink SHARP on 8 GPUs, 8 x 50 GB/s x 0.96 of
 * NICs per node.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_nccl.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static void
dp_group(struct cm_config *c, const char *gpu, int d, struct mesh_span *g)
{
	cm_config_default(c, hw_model_find(&cat, "llama2-7b"),
	    hw_gpu_find(&cat, gpu));
	c->dp = d;
	c->gpus = d;
	cm_group_of(c, MESH_DP, g);
}

/* Pick for an all-reduce of S bytes is algo/proto in t_us (0.5 %). */
static void
want_pick(const struct cm_config *c, enum cm_coll kind,
    const struct mesh_span *g, double S, int algo, int proto, double t_us)
{
	struct cm_nccl_pick p;
	double t = cm_nccl_coll_s(c, kind, g, S, &p);

	printf("nccl: %d ranks in %d nodes, %.0f bytes: %s/%s %.2f us "
	    "(tuning.cc: %s/%s %.2f us)\n", g->n, g->domains, S,
	    cm_nccl_algo_name(p.algo), cm_nccl_proto_name(p.proto), t * 1e6,
	    cm_nccl_algo_name(algo), cm_nccl_proto_name(proto), t_us);
	ck_assert_int_eq(p.algo, algo);
	ck_assert_int_eq(p.proto, proto);
	ck_assert_double_eq_tol(t * 1e6, t_us, t_us * 0.005);
	ck_assert_double_eq(p.t, t);
}

START_TEST(constants_are_tuning_cc)
{
	/* baseLatencies */
	ck_assert_double_eq(cm_nccl_base_lat_us(CM_NCCL_TREE, CM_NCCL_LL), 6.8);
	ck_assert_double_eq(cm_nccl_base_lat_us(CM_NCCL_TREE, CM_NCCL_LL128),
	    14.0);
	ck_assert_double_eq(cm_nccl_base_lat_us(CM_NCCL_RING, CM_NCCL_LL), 6.6);
	ck_assert_double_eq(cm_nccl_base_lat_us(CM_NCCL_RING, CM_NCCL_LL128),
	    14.0);
	ck_assert_double_eq(cm_nccl_base_lat_us(CM_NCCL_RING, CM_NCCL_SIMPLE),
	    8.4);
	ck_assert_double_eq(cm_nccl_base_lat_us(CM_NCCL_PAT, CM_NCCL_SIMPLE),
	    8.0);
	/* hwLatencies: NVLink */
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NVLINK, CM_NCCL_RING,
	    CM_NCCL_LL), 0.6);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NVLINK, CM_NCCL_RING,
	    CM_NCCL_LL128), 1.9);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NVLINK, CM_NCCL_RING,
	    CM_NCCL_SIMPLE), 3.4);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NVLINK, CM_NCCL_TREE,
	    CM_NCCL_LL128), 1.25);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NVLINK, CM_NCCL_TREE,
	    CM_NCCL_SIMPLE), 4.0);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NVLINK, CM_NCCL_NVLS,
	    CM_NCCL_SIMPLE), 25);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NVLINK,
	    CM_NCCL_NVLS_TREE, CM_NCCL_SIMPLE), 25);
	/* PCI */
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_PCI, CM_NCCL_RING,
	    CM_NCCL_SIMPLE), 5.7);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_PCI, CM_NCCL_RING,
	    CM_NCCL_LL128), 2.5);
	/* NET */
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NET, CM_NCCL_TREE,
	    CM_NCCL_LL), 5.0);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NET, CM_NCCL_TREE,
	    CM_NCCL_LL128), 8.5);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NET, CM_NCCL_RING,
	    CM_NCCL_LL), 2.7);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NET, CM_NCCL_RING,
	    CM_NCCL_LL128), 4.0);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NET, CM_NCCL_RING,
	    CM_NCCL_SIMPLE), 14.0);
	ck_assert_double_eq(cm_nccl_hw_lat_us(CM_NCCL_NET, CM_NCCL_NVLS_TREE,
	    CM_NCCL_SIMPLE), 20.9);
	/* the catalog's generations pick the rows */
	ck_assert_int_eq(hw_gpu_find(&cat, "h100-80gb")->arch, HW_ARCH_HOPPER);
	ck_assert_int_eq(hw_gpu_find(&cat, "a100-80gb")->arch, HW_ARCH_AMPERE);
	ck_assert_int_eq(hw_gpu_find(&cat, "b200-180gb")->arch,
	    HW_ARCH_BLACKWELL);
	ck_assert_int_eq(hw_gpu_find(&cat, "v100-32gb")->arch, HW_ARCH_VOLTA);
	/* llMaxBws: Hopper in a node, Intel CPUs across 2 and more */
	ck_assert_double_eq(cm_nccl_ll_max_gbps(2, 0), 141.0);
	ck_assert_double_eq(cm_nccl_ll_max_gbps(1, 0), 87.7);
	ck_assert_double_eq(cm_nccl_ll_max_gbps(0, 1), 39.0);
	ck_assert_double_eq(cm_nccl_ll_max_gbps(0, 2), 20.4);
	ck_assert_double_eq(cm_nccl_ll_max_gbps(3, 0), 2 * 141.0);
}
END_TEST

START_TEST(allreduce_in_a_node)
{
	struct cm_config c;
	struct mesh_span g;

	dp_group(&c, "h100-80gb", 8, &g);
	ck_assert_int_eq(g.domains, 1);
	/* LL up to ~1 MB: 6.6 + 14 x 0.6 us, half the bandwidth */
	want_pick(&c, CM_ALLREDUCE, &g, 1024, CM_NCCL_RING, CM_NCCL_LL, 15.01);
	want_pick(&c, CM_ALLREDUCE, &g, 65536, CM_NCCL_RING, CM_NCCL_LL,
	    15.81);
	want_pick(&c, CM_ALLREDUCE, &g, 1 << 20, CM_NCCL_RING, CM_NCCL_LL,
	    28.01);
	/* large: NVLink SHARP, 25 us + 7/4 x 256 MB / 480 GB/s */
	want_pick(&c, CM_ALLREDUCE, &g, 256.0 * (1 << 20), CM_NCCL_NVLS,
	    CM_NCCL_SIMPLE, 1003.67);
	/* without NVLS the Simple ring at 369 GB/s */
	c.nvls = 0;
	want_pick(&c, CM_ALLREDUCE, &g, 256.0 * (1 << 20), CM_NCCL_RING,
	    CM_NCCL_SIMPLE, 1329.1);
	/* its Simple ring is the engine's cm_coll_s (base + 14 x 3.4 us) */
	ck_assert_double_eq_tol(cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 4e9,
	    CM_NCCL_RING, CM_NCCL_SIMPLE), cm_coll_s(&c, CM_ALLREDUCE, &g, 4e9),
	    1e-9);
}
END_TEST

START_TEST(allreduce_across_4_nodes)
{
	struct cm_config c;
	struct mesh_span g;

	dp_group(&c, "h100-80gb", 32, &g);
	ck_assert_int_eq(g.domains, 4);
	ck_assert_int_eq(g.per_node, 8);
	/* tree: 6.8 + 2 (7 x 0.6 + log2(4) x 5.0) us */
	want_pick(&c, CM_ALLREDUCE, &g, 1024, CM_NCCL_TREE, CM_NCCL_LL, 35.31);
	want_pick(&c, CM_ALLREDUCE, &g, 65536, CM_NCCL_TREE, CM_NCCL_LL,
	    45.91);
	want_pick(&c, CM_ALLREDUCE, &g, 1 << 20, CM_NCCL_TREE, CM_NCCL_LL128,
	    76.48);
	/* NVLS in each node, a tree of nodes over the NICs (384 GB/s) */
	want_pick(&c, CM_ALLREDUCE, &g, 256.0 * (1 << 20), CM_NCCL_NVLS_TREE,
	    CM_NCCL_SIMPLE, 1463.0);
	/* the ring's Simple latency gets the plateau factor 1.4 */
	ck_assert_double_eq_tol(cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 1e6,
	    CM_NCCL_RING, CM_NCCL_SIMPLE) * 1e6, 1.4 * (8.4 + 56 * 3.4 +
	    6 * 14.0) + 2.0 * 31 / 32 * 1e6 / 369e9 * 1e6, 0.01);
}
END_TEST

START_TEST(tree_beats_ring_small_many_nodes)
{
	struct cm_config c;
	struct mesh_span g;
	double tree, ring;
	int p;

	dp_group(&c, "h100-80gb", 512, &g);	/* 64 nodes */
	ck_assert_int_eq(g.domains, 64);
	for (p = 0; p < CM_NCCL_N_PROTOS; p++) {
		tree = cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 1024, CM_NCCL_TREE,
		    p);
		ring = cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 1024, CM_NCCL_RING,
		    p);
		ck_assert(tree > 0 && ring > 0);
		ck_assert_msg(tree < ring / 3, "%s: tree %.1f ring %.1f us",
		    cm_nccl_proto_name(p), tree * 1e6, ring * 1e6);
	}
	want_pick(&c, CM_ALLREDUCE, &g, 1024, CM_NCCL_TREE, CM_NCCL_LL, 75.31);
	/* The tree's latency grows with log2 of the nodes, the ring's
	 * linearly with the ranks. */
	dp_group(&c, "h100-80gb", 64, &g);	/* 8 nodes */
	tree = cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 64, CM_NCCL_TREE,
	    CM_NCCL_LL);
	ck_assert_double_eq_tol(tree * 1e6, 6.8 + 2 * (7 * 0.6 + 3 * 5.0) +
	    64 / (0.92 * 369 / 3.8 * 0.5 * 1e3), 0.01);
}
END_TEST

START_TEST(gathers_and_pat)
{
	struct cm_config c;
	struct mesh_span g;
	struct cm_nccl_pick p;

	/* All-gather has no tree: the ring, LL for small messages. */
	dp_group(&c, "h100-80gb", 32, &g);
	ck_assert(cm_nccl_algo_s(&c, CM_ALLGATHER, &g, 1024, CM_NCCL_TREE,
	    CM_NCCL_LL) < 0);
	cm_nccl_coll_s(&c, CM_ALLGATHER, &g, 1024, &p);
	ck_assert_int_eq(p.algo, CM_NCCL_RING);
	ck_assert_int_eq(p.proto, CM_NCCL_LL);
	/* One rank per node (TP 8 fills the node): PAT, 8 + log2(64) x
	 * 14 / 3.5 + 64 x 2.8 us, beats the ring's 63 network steps. */
	cm_config_default(&c, hw_model_find(&cat, "llama2-7b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.dp = 64;
	c.tp = 8;
	c.gpus = 512;
	cm_group_of(&c, MESH_DP, &g);
	ck_assert_int_eq(g.per_node, 1);
	cm_nccl_coll_s(&c, CM_ALLGATHER, &g, 1024, &p);
	ck_assert_int_eq(p.algo, CM_NCCL_PAT);
	ck_assert_double_eq_tol(p.t * 1e6, 8 + 6 * 14 / 3.5 + 64 * 2.8 +
	    1024 / (0.75 * cm_group_bw(&c, &g)) * 1e6, 0.01);
}
END_TEST

START_TEST(a100_no_nvls)
{
	struct cm_config c;
	struct mesh_span g;
	struct cm_nccl_pick p;

	/* Ampere: no NVLS; LL capped at 87.7 GB/s in a node */
	dp_group(&c, "a100-80gb", 8, &g);
	ck_assert(cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 1e9, CM_NCCL_NVLS,
	    CM_NCCL_SIMPLE) < 0);
	ck_assert_double_eq_tol(cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 1e9,
	    CM_NCCL_RING, CM_NCCL_LL), (6.6 + 14 * 0.6) * 1e-6 + 1e9 * 2 * 7 /
	    8 / 87.7e9, 1e-9);
	cm_nccl_coll_s(&c, CM_ALLREDUCE, &g, 256.0 * (1 << 20), &p);
	ck_assert_int_eq(p.algo, CM_NCCL_RING);
	ck_assert_int_eq(p.proto, CM_NCCL_SIMPLE);
	dp_group(&c, "a100-80gb", 32, &g);
	ck_assert(cm_nccl_algo_s(&c, CM_ALLREDUCE, &g, 1e9,
	    CM_NCCL_NVLS_TREE, CM_NCCL_SIMPLE) < 0);
}
END_TEST

/* --nccl-model tuned prices every collective as NCCL picks it; ring
 * (the default) keeps the calibrated Simple ring; the step follows. */
START_TEST(engine_option)
{
	struct cm_config c;
	struct mesh_span g;
	struct cm_result ring, tuned;

	dp_group(&c, "h100-80gb", 64, &g);
	ck_assert_int_eq(c.nccl_model, CM_COLL_RING);
	ck_assert(cm_coll_s(&c, CM_ALLREDUCE, &g, 1e6) >
	    2 * cm_nccl_coll_s(&c, CM_ALLREDUCE, &g, 1e6, NULL));
	c.global_batch = 64;
	ck_assert_int_eq(cm_evaluate(&c, &ring, NULL), 0);
	c.nccl_model = CM_COLL_TUNED;
	ck_assert_double_eq(cm_coll_s(&c, CM_ALLREDUCE, &g, 1e6),
	    cm_nccl_coll_s(&c, CM_ALLREDUCE, &g, 1e6, NULL));
	ck_assert_int_eq(cm_evaluate(&c, &tuned, NULL), 0);
	/* 515 buckets of 25 MiB over 8 nodes: the tree's latency */
	ck_assert(tuned.t_dp < 0.8 * ring.t_dp);
	ck_assert_int_eq(tuned.dp_collectives, ring.dp_collectives);
}
END_TEST

/*
 * What plan prints under a group: the collective it runs most often, NCCL's
 * pick for it and both times. FSDP2 on 64 H100s gathers one layer's bf16
 * weights; TP 8 all-reduces a micro-batch's activations; DDP's buckets are
 * 25 MiB of gradients at most; a group of one rank has none.
 */
START_TEST(group_collective)
{
	struct cm_config c;
	struct cm_result r;
	struct cm_coll_note n;
	struct mesh_span g;
	double t;

	dp_group(&c, "h100-80gb", 64, &g);
	c.global_batch = 64;
	c.zero = 3;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	ck_assert_int_eq(cm_group_collective(&r, MESH_DP, &n), 1);
	ck_assert_int_eq(n.kind, CM_ALLGATHER);
	ck_assert_double_eq_tol(n.bytes, 2 * r.params_gpu / r.stage_layers,
	    1);
	t = cm_nccl_coll_s(&c, CM_ALLGATHER, &g, n.bytes, NULL);
	ck_assert_double_eq(n.pick.t, t);
	ck_assert_double_eq(n.ring_s, cm_coll_s(&c, CM_ALLGATHER, &g,
	    n.bytes));
	ck_assert_int_eq(cm_group_collective(&r, MESH_TP, &n), 0);
	ck_assert_int_eq(cm_group_collective(&r, MESH_PP, &n), 0);

	c.zero = 0;	/* DDP: 25 MiB buckets of bf16 gradients, as set */
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	ck_assert_int_eq(cm_group_collective(&r, MESH_DP, &n), 1);
	ck_assert_int_eq(n.kind, CM_ALLREDUCE);
	ck_assert(n.bytes <= 25 * 1048576.0 && n.bytes > 24 * 1048576.0);
	printf("nccl: DDP bucket of %.0f bytes on 64 H100s: %s/%s %.1f us, "
	    "Simple ring %.1f us\n", n.bytes, cm_nccl_algo_name(n.pick.algo),
	    cm_nccl_proto_name(n.pick.proto), n.pick.t * 1e6, n.ring_s * 1e6);

	cm_config_default(&c, hw_model_find(&cat, "llama2-7b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = c.tp = 8;
	c.global_batch = 1;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	ck_assert_int_eq(cm_group_collective(&r, MESH_TP, &n), 1);
	ck_assert_int_eq(n.kind, CM_ALLREDUCE);
	ck_assert_double_eq(n.bytes, 2.0 * 4096 * 4096);
	/* one node of NVSwitch H100s: NVLink SHARP, as NCCL's tuning has it */
	ck_assert_int_eq(n.pick.algo, CM_NCCL_NVLS);
	ck_assert_int_eq(cm_group_collective(&r, MESH_DP, &n), 0);
}
END_TEST

static Suite *
nccl_suite(void)
{
	Suite *s = suite_create("nccl");
	TCase *tc = tcase_create("tuning.cc");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, constants_are_tuning_cc);
	tcase_add_test(tc, allreduce_in_a_node);
	tcase_add_test(tc, allreduce_across_4_nodes);
	tcase_add_test(tc, tree_beats_ring_small_many_nodes);
	tcase_add_test(tc, gathers_and_pat);
	tcase_add_test(tc, a100_no_nvls);
	tcase_add_test(tc, engine_option);
	tcase_add_test(tc, group_collective);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(nccl_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
