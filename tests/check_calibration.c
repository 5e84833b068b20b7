/*
 * check_calibration.c - the cost model end to end against published runs
 * (reference/costmodel.md i), each within 15 %:
 *   - Megatron-LM weak scaling, [NAR21] Table 1 (hardware TFLOP/s, A100);
 *   - GPT-3 175B on 1024 A100s, [NAR21] 5.1;
 *   - [NAR21] Table 2: PTD-P on the 174.6B model at 384 / 768 / 1536 GPUs,
 *     and ZeRO-3 without model parallelism falling as the GPUs grow;
 *   - BLOOM-176B on Jean Zay (Megatron-DeepSpeed);
 *   - Llama 3 405B on 8192 H100s, [LLAMA3] Table 4 (model FLOP/s, MFU);
 *   - Megatron-Core on H100: NVIDIA's DGX Cloud benchmarks of Llama 3.1 8B
 *     and 70B in bf16 (NVIDIA/dgxc-benchmarking, llama3.1/README_8b.md and
 *     README_70b.md, NeMo 24.09: 59.37 % and 54.10 % MFU).
 * Every row prints engine vs published; the numbers go in the issue's
 * closing note.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

#define TOL	0.15

static struct hw_catalog cat;

static void
setup(void)
{
	struct pl_err err;

	ck_assert_msg(hw_catalog_load(&cat, TOP_SRCDIR "/data", &err) == 0,
	    "%s", err.msg);
}

static void
teardown(void)
{
	hw_catalog_free(&cat);
}

static void
cfg_for(struct cm_config *c, const char *model, const char *gpu, int d, int t,
    int p)
{
	const struct hw_model *m = hw_model_find(&cat, model);
	const struct hw_gpu *g = hw_gpu_find(&cat, gpu);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(g);
	cm_config_default(c, m, g);
	c->dp = d;
	c->tp = t;
	c->pp = p;
	c->gpus = d * t * p;
}

/* Print one row and check it within TOL. */
static void
row(const char *what, double got, double pub, const char *unit)
{
	double e = got / pub - 1;

	printf("calibration %-44s %7.1f vs %7.1f %s (%+.1f%%)\n", what, got,
	    pub, unit, 100 * e);
	ck_assert_msg(fabs(e) <= TOL, "%s off by %.1f%%", what, 100 * e);
}

/* Megatron 2021 as [NAR21] ran it: full recompute, fused kernels with
 * plain attention, gradient all-reduce not overlapped ([KOR22] 6.3). */
static void
megatron2021(struct cm_config *c, long B, int b, int v)
{
	c->global_batch = B;
	c->micro_batch = b;
	c->recompute = CM_RECOMPUTE_FULL;
	c->attention = CM_ATTN_PLAIN;
	c->dp_overlap = 0;
	c->schedule = v > 1 ? PIPE_INTERLEAVED : PIPE_1F1B;
	c->virtual_stages = v;
}

struct calib { const char *model; int t, p, d; long B; double pub; };

/* Best hardware TFLOP/s over the fitting (b, v), as Megatron tuned them. */
static double
nar21_row(const struct calib *k, int fix_b, int *bo, int *vo)
{
	struct cm_config c;
	struct cm_result r;
	double best = 0;
	int b, v;

	for (b = 1; b <= 8; b *= 2) {
		for (v = 1; v <= 8; v++) {
			if ((fix_b && b != fix_b) || (k->p == 1 && v > 1))
				continue;
			cfg_for(&c, k->model, "a100-80gb", k->d, k->t, k->p);
			megatron2021(&c, k->B, b, v);
			if (cm_evaluate(&c, &r, NULL) != 0 || !r.fits)
				continue;
			if (r.hw_tflops_per_gpu > best) {
				best = r.hw_tflops_per_gpu;
				*bo = b;
				*vo = v;
			}
		}
	}
	return best;
}

START_TEST(nar21_table1)
{
	static const struct calib rows[] = {
		{ "megatron-1.7b", 1, 1, 32, 512, 137 },
		{ "megatron-3.6b", 2, 1, 32, 512, 138 },
		{ "megatron-7.5b", 4, 1, 32, 512, 142 },
		{ "megatron-18.4b", 8, 1, 32, 1024, 135 },
		{ "megatron-39.1b", 8, 2, 32, 1536, 138 },
		{ "megatron-76.1b", 8, 4, 32, 1792, 140 },
		{ "megatron-145.6b", 8, 8, 24, 2304, 148 },
		{ "megatron-310.1b", 8, 16, 15, 2160, 155 },
		{ "megatron-529.6b", 8, 35, 9, 2520, 163 },
		{ "megatron-1t", 8, 64, 6, 3072, 163 },
	};
	char what[128];
	size_t i;
	int b = 0, v = 0;
	double got;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		got = nar21_row(&rows[i], 0, &b, &v);
		snprintf(what, sizeof what, "[NAR21] %s t%d p%d d%d b%d v%d",
		    rows[i].model, rows[i].t, rows[i].p, rows[i].d, b, v);
		row(what, got, rows[i].pub, "hw TFLOP/s");
	}
}
END_TEST

START_TEST(gpt3)
{
	/* [NAR21] 5.1: 140 TFLOP/s, 1024 A100, batch 1536; Table 2: b = 1. */
	static const struct calib k = { "gpt3-175b", 8, 8, 16, 1536, 140 };
	char what[128];
	int b = 0, v = 0;
	double got = nar21_row(&k, 1, &b, &v);

	snprintf(what, sizeof what, "GPT-3 175B t8 p8 d16 b%d v%d", b, v);
	row(what, got, k.pub, "hw TFLOP/s");
}
END_TEST

/*
 * [NAR21] Table 2, 174.6B model, batch 1536: PTD-P (t 8, p 12, b 1) at
 * 153 / 149 / 141 TFLOP/s on 384 / 768 / 1536 GPUs; ZeRO-3 without model
 * parallelism (DeepSpeed, b 4 / 2 / 1, so one micro-batch per step) at
 * 144 / 88 / 44.
 */
START_TEST(nar21_table2)
{
	static const int gpus[] = { 384, 768, 1536 };
	static const double ptdp[] = { 153, 149, 141 }, z3[] = { 144, 88, 44 };
	struct calib k = { "gpt3-175b", 8, 12, 0, 1536, 0 };
	struct cm_config c;
	struct cm_result r;
	char what[128];
	double z[3];
	int i, b = 0, v = 0;

	for (i = 0; i < 3; i++) {
		k.d = gpus[i] / 96;
		snprintf(what, sizeof what, "[NAR21] T2 PTD-P %d GPUs", gpus[i]);
		row(what, nar21_row(&k, 1, &b, &v), ptdp[i], "hw TFLOP/s");
	}
	for (i = 0; i < 3; i++) {
		cfg_for(&c, "gpt3-175b", "a100-80gb", gpus[i], 1, 1);
		megatron2021(&c, 1536, 4 >> i, 1);
		c.zero = 3;
		ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
		ck_assert_int_eq(r.microbatches, 1);
		z[i] = r.hw_tflops_per_gpu;
		printf("calibration [NAR21] T2 ZeRO-3 %4d GPUs %25s %7.1f vs "
		    "%7.1f hw TFLOP/s (%+.1f%%)\n", gpus[i], "", z[i], z3[i],
		    100 * (z[i] / z3[i] - 1));
	}
	/* ZeRO-3 loses throughput as the GPUs grow; PTD-P holds. */
	ck_assert(z[0] > z[1] && z[1] > z[2]);
	ck_assert(z[2] < 0.8 * z[0]);
}
END_TEST

START_TEST(bloom)
{
	/* 384 A100-80GB, TP4 PP12 DP8, ZeRO-1, b 2, Omni-Path 6.25 GB/s
	 * per GPU, full recompute, DeepSpeed 1F1B; ~150 TFLOP/s (the
	 * Megatron-DeepSpeed counter, recompute included). */
	struct cm_config c;
	struct cm_result r;

	cfg_for(&c, "bloom-176b", "a100-80gb", 8, 4, 12);
	megatron2021(&c, 2048, 2, 1);
	c.zero = 1;
	c.inter_bw = 6.25e9;
	c.pp_scatter_gather = 0;	/* DeepSpeed's pipeline engine */
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	ck_assert(r.fits);
	printf("calibration BLOOM-176B step %.1f s vs ~105 s\n", r.t_step);
	row("BLOOM-176B t4 p12 d8 b2", r.hw_tflops_per_gpu, 150, "hw TFLOP/s");
}
END_TEST

START_TEST(llama3_405b)
{
	/* [LLAMA3] Table 4: 8192 H100, TP8 PP16 DP64 with FSDP, 16M tokens,
	 * s = 8192: 430 TFLOP/s per GPU, 43 % MFU. 3.3.2: weights are not
	 * resharded after the forward; the interleaved schedule of Figure 6
	 * (eight stages on four ranks: two virtual stages per rank); "we
	 * could pre-train Llama 3 on sequences of 8K tokens without
	 * activation checkpointing" (they free pipeline tensors early, which
	 * the engine does not model, so its memory for this layout runs
	 * over 80 GB and is printed, not asserted). */
	struct cm_config c;
	struct cm_result r;

	cfg_for(&c, "llama3-405b", "h100-80gb", 64, 8, 16);
	c.zero = 3;
	c.reshard_after_forward = 0;
	c.seq_parallel = 1;
	c.recompute = CM_RECOMPUTE_NONE;
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 2;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	printf("calibration Llama 3 405B: %.1f GB per GPU in the engine, "
	    "bubble %.0f%% of the step\n", r.mem_total / 1e9,
	    100 * r.t_bubble / r.t_step);
	row("Llama 3 405B t8 p16 d64 v2 TFLOP/s", r.tflops_per_gpu, 430,
	    "TFLOP/s");
	row("Llama 3 405B MFU (%)", 100 * r.mfu, 43, "%");
}
END_TEST

/*
 * NeMo 24.09 on DGX H100, bf16: Llama 3.1 8B on 8 GPUs (TP1 PP1 CP2, MBS 1,
 * GBS 128) 12.91 s per step, 59.37 % MFU; Llama 3.1 70B on 64 GPUs (TP4
 * PP4 CP2 VP5, MBS 1, GBS 128) 14.72 s, 54.10 % MFU. Context parallelism
 * is not modelled: its two ranks are counted as two data-parallel ranks
 * (the same tokens per GPU). Megatron-Core's distributed optimizer is
 * ZeRO-1; the recipes overlap TP communication.
 */
START_TEST(nemo_h100)
{
	struct cm_config c;
	struct cm_result r;

	cfg_for(&c, "llama3-8b", "h100-80gb", 8, 1, 1);
	c.zero = 1;
	c.global_batch = 128;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	row("NeMo Llama 3.1 8B, 8 H100, MFU (%)", 100 * r.mfu, 59.37, "%");
	cfg_for(&c, "llama3-70b", "h100-80gb", 4, 4, 4);
	c.zero = 1;
	c.global_batch = 128;
	c.seq_parallel = 1;
	c.tp_overlap = 1;
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 5;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	row("NeMo Llama 3.1 70B, 64 H100, MFU (%)", 100 * r.mfu, 54.10, "%");
}
END_TEST

static Suite *
calibration_suite(void)
{
	Suite *s = suite_create("calibration");
	TCase *tc = tcase_create("A100");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nar21_table1);
	tcase_add_test(tc, gpt3);
	tcase_add_test(tc, nar21_table2);
	tcase_add_test(tc, bloom);
	suite_add_tcase(s, tc);
	tc = tcase_create("H100");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, llama3_405b);
	tcase_add_test(tc, nemo_h100);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(calibration_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
