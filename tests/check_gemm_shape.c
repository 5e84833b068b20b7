/*
 * check_gemm_shape.c - the efficiency of one matrix product from wave and
 * tile quantization and the memory bound (core/engine/costmodel_gemm.c,
 * cm_gemm_eta_tiled) against every row of reference/h100-gemm.md: bf16
 * M x K by K x N on one H100 SXM, PyTorch 2.11 eager, mean of 10 products,
 * clocks not pinned (rows copied below; M, K, N, time in ms).
 *
 * The catalog H100 with its burst efficiency: gpus.json's note gives 0.80
 * for 10 back-to-back products at unpinned clocks (0.68 sustained); the
 * table is such a burst. Nothing in the model is fitted to these rows.
 *
 * Tolerances, by what each row measures:
 *  - rows at the eager loop's launch floor (0.030 ms or less: "Times near
 *    0.025 ms are the launch floor of an eager PyTorch loop, not the
 *    product itself"): the GPU's time must not exceed the measured one;
 *  - rows under 5 ms: within 22 % either way (what the
 *    model gets: the worst row is 32768 x 512 x 512 at -20.5 %, where the
 *    model overlaps loading A and storing C with the compute of each
 *    short 8-step main loop more than the GPU does);
 *  - rows of 5 ms and more run long enough for the clock to fall to the
 *    power limit (gpus.json's note: products of 5 ms and more fit 0.745,
 *    the 28.7 ms one 0.62), so the burst figure may be up to 25 % fast
 *    and at most 10 % slow.
 * Over the 35 rows above the floor the rms error is under 8 % (7.4 %); the
 * engine's default, the slower of the rule and this model, stays within a
 * point of the rule's own (5.6 %, 5.9 %). Split-K and grouped launches are
 * held to a re-derivation and to the waves they share.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_gemm.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static const double rows[][4] = {
	{ 512, 512, 512, 0.027 },
	{ 512, 512, 2048, 0.025 },
	{ 512, 1024, 1024, 0.028 },
	{ 512, 1024, 4096, 0.029 },
	{ 512, 2048, 2048, 0.027 },
	{ 512, 2048, 8192, 0.029 },
	{ 512, 4096, 4096, 0.028 },
	{ 512, 4096, 16384, 0.093 },
	{ 512, 8192, 8192, 0.091 },
	{ 512, 8192, 32768, 0.352 },
	{ 512, 12288, 12288, 0.205 },
	{ 512, 12288, 49152, 0.784 },
	{ 2048, 512, 512, 0.025 },
	{ 2048, 512, 2048, 0.023 },
	{ 2048, 1024, 1024, 0.022 },
	{ 2048, 1024, 4096, 0.029 },
	{ 2048, 2048, 2048, 0.027 },
	{ 2048, 2048, 8192, 0.097 },
	{ 2048, 4096, 4096, 0.091 },
	{ 2048, 4096, 16384, 0.355 },
	{ 2048, 8192, 8192, 0.345 },
	{ 2048, 8192, 32768, 1.404 },
	{ 2048, 12288, 12288, 0.764 },
	{ 2048, 12288, 49152, 3.131 },
	{ 8192, 512, 512, 0.025 },
	{ 8192, 512, 2048, 0.039 },
	{ 8192, 1024, 1024, 0.034 },
	{ 8192, 1024, 4096, 0.114 },
	{ 8192, 2048, 2048, 0.108 },
	{ 8192, 2048, 8192, 0.402 },
	{ 8192, 4096, 4096, 0.368 },
	{ 8192, 4096, 16384, 1.469 },
	{ 8192, 8192, 8192, 1.430 },
	{ 8192, 8192, 32768, 6.205 },
	{ 8192, 12288, 12288, 3.346 },
	{ 8192, 12288, 49152, 13.332 },
	{ 32768, 512, 512, 0.043 },
	{ 32768, 512, 2048, 0.134 },
	{ 32768, 1024, 1024, 0.119 },
	{ 32768, 1024, 4096, 0.466 },
	{ 32768, 2048, 2048, 0.417 },
	{ 32768, 2048, 8192, 1.569 },
	{ 32768, 4096, 4096, 1.558 },
	{ 32768, 4096, 16384, 5.983 },
	{ 32768, 8192, 8192, 5.946 },
	{ 32768, 8192, 32768, 28.666 },
	{ 32768, 12288, 12288, 13.849 },
	{ 32768, 12288, 49152, 56.742 },
};

START_TEST(h100_table)
{
	struct hw_gpu g = *hw_gpu_find(&cat, "h100-80gb");
	double sum2 = 0, worst = 0, m, k, n, ms, t, err, old, comb, sum2c = 0;
	double sum2r = 0;
	size_t i, nfit = 0;

	ck_assert_int_eq(g.sm_count, 132);
	g.gemm_eff = 0.80;	/* burst, see above */
	printf("gemm: M K N: measured ms, model ms (error); old rule ms\n");
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		m = rows[i][0];
		k = rows[i][1];
		n = rows[i][2];
		ms = rows[i][3];
		t = 2 * m * k * n / (g.peak_flops *
		    cm_gemm_eta_tiled(&g, m, k, n)) * 1e3;
		old = 2 * m * k * n / (g.peak_flops * cm_gemm_eta(&g, m, k, n)) *
		    1e3;
		err = t / ms - 1;
		printf("gemm: %5.0f %5.0f %5.0f: %7.3f ms, %8.4f ms (%+5.1f %%)"
		    "%s; old %8.4f ms (%+5.1f %%)\n", m, k, n, ms, t, 100 * err,
		    ms <= 0.030 ? " floor" : "", old, 100 * (old / ms - 1));
		if (ms <= 0.030) {
			ck_assert_msg(t <= ms, "row %zu above the floor", i);
			continue;
		}
		if (ms < 5)
			ck_assert_msg(fabs(err) <= 0.22, "row %zu: %+.1f %%", i,
			    100 * err);
		else
			ck_assert_msg(err >= -0.25 && err <= 0.10,
			    "row %zu: %+.1f %%", i, 100 * err);
		sum2 += err * err;
		comb = 2 * m * k * n / (g.peak_flops * cm_gemm_eta_combined(&g,
		    m, k, n, 1)) * 1e3;
		sum2c += (comb / ms - 1) * (comb / ms - 1);
		sum2r += (old / ms - 1) * (old / ms - 1);
		nfit++;
		if (fabs(err) > fabs(worst))
			worst = err;
	}
	printf("gemm: %zu rows above the floor: rms %.1f %%, worst %+.1f %%; "
	    "the rule %.1f %%, the default (the slower of the two) %.1f %%\n",
	    nfit, 100 * sqrt(sum2 / nfit), 100 * worst,
	    100 * sqrt(sum2r / nfit), 100 * sqrt(sum2c / nfit));
	ck_assert(sqrt(sum2 / nfit) < 0.08);
	/* the default stays within a point of the rule fitted on these
	 * rows */
	ck_assert(sqrt(sum2c / nfit) < sqrt(sum2r / nfit) + 0.01);
}
END_TEST

START_TEST(wave_quantization)
{
	/* 132 output tiles of 128 x 256 fill one wave; one row more needs
	 * a second wave, or smaller tiles (here 64 x 128: 5 waves of a
	 * quarter of the work each, 1.25 times as long) */
	struct hw_gpu g = *hw_gpu_find(&cat, "h100-80gb");
	double one = cm_gemm_eta_tiled(&g, 128 * 12, 8192, 256 * 11);
	double two = cm_gemm_eta_tiled(&g, 128 * 12 + 1, 8192, 256 * 11);

	ck_assert(one > 0.9 * g.gemm_eff);
	ck_assert(two < 0.85 * one && two > 0.75 * one);
	/* without an SM count, no quantization */
	g.sm_count = 0;
	ck_assert_double_eq_tol(cm_gemm_eta_tiled(&g, 128 * 12 + 1, 8192,
	    256 * 11), cm_gemm_eta_tiled(&g, 128 * 12, 8192, 256 * 11), 0.01);
}
END_TEST

START_TEST(tile_quantization_and_memory_bound)
{
	struct hw_gpu g = *hw_gpu_find(&cat, "h100-80gb");
	double a = cm_gemm_eta_tiled(&g, 8192, 8192, 8192);
	double b = cm_gemm_eta_tiled(&g, 8192, 8192, 8192 + 1);
	double bytes = 2.0 * (65536.0 * 64 * 2 + 64 * 64);
	double ai = 2.0 * 65536 * 64 * 64 / bytes;

	ck_assert(b < a);	/* one more column: a column of tiles more */
	/* arithmetic intensity (~32 FLOP/B) far below the ops:byte ratio
	 * (989 / 3.35 = 295): no faster than HBM allows */
	ck_assert(cm_gemm_eta_tiled(&g, 65536, 64, 64) <= ai /
	    (g.peak_flops / g.hbm_bw));
}
END_TEST

/*
 * Split-K (CUTLASS's GemmSplitKParallel): one 128 x 256 output tile with a
 * K loop of 256 steps would run on one SM of 132. Cut over s SMs, each
 * runs 256 / s steps and stores an fp32 partial tile; a reduction reads
 * the s partials and writes C in bf16. Re-derived here from those words,
 * not from costmodel_gemm.c, over the four tile shapes and s = 1, 2, 4 ...
 * while the split tiles fit on the SMs.
 */
START_TEST(split_k)
{
	const struct hw_gpu *g = hw_gpu_find(&cat, "h100-80gb");
	double m = 128, k = 16384, n = 256, P = g->peak_flops;
	double bytes = 2 * (m * k + k * n + m * n), bw, best = HUGE_VAL, t;
	double one = 0, s;

	static const double tile[4][2] = { { 128, 256 }, { 256, 128 },
	    { 128, 128 }, { 64, 128 } };
	double nt;
	int i;

	bw = g->hbm_bw * cm_hbm_eff(bytes);
	for (i = 0; i < 4; i++) {
		nt = ceil(m / tile[i][0]) * ceil(n / tile[i][1]);
		for (s = 1; s <= 256 && nt * s <= 132; s *= 2) {
			t = 2 * tile[i][0] * tile[i][1] * 64 * ceil(256 / s) /
			    (P * g->gemm_eff / 132) + (s > 1 ? 4 : 2) *
			    (m * n / nt) / (bw / (nt * s)) + (s > 1 ?
			    (2 * s * 4 + 2) * m * n / bw : 0);
			if (s == 1 && i == 0)
				one = t;
			if (t < best)
				best = t;
		}
	}
	if (bytes / bw > best)
		best = bytes / bw;
	printf("gemm: 128 x 16384 x 256 on one tile: %.1f us unsplit, "
	    "%.1f us split-K\n", one * 1e6, best * 1e6);
	ck_assert(best < one / 10);
	ck_assert_double_eq_tol(cm_gemm_eta_tiled(g, m, k, n),
	    2 * m * k * n / (best * P), 1e-9);
}
END_TEST

/*
 * A grouped GEMM runs all experts' tiles in one launch, so they share
 * the waves: Qwen3-30B-A3B's experts (h 2048, f 768) with 256 tokens each
 * leave 6 tiles of 128 x 256 apiece, 4.5 % of an H100's SMs alone.
 */
START_TEST(grouped_experts_share_waves)
{
	const struct hw_gpu *g = hw_gpu_find(&cat, "h100-80gb");
	double alone = cm_gemm_eta_tiled(g, 256, 2048, 768);
	double g128 = cm_gemm_eta_tiled_grouped(g, 256, 2048, 768, 128);

	printf("gemm: 256 x 2048 x 768: %.1f %% of peak alone, %.1f %% as "
	    "one of 128 grouped\n", 100 * alone, 100 * g128);
	ck_assert_double_eq(cm_gemm_eta_tiled_grouped(g, 256, 2048, 768, 1),
	    alone);
	ck_assert(g128 > 1.5 * alone);
	ck_assert(g128 <= g->gemm_eff);
	/* the combined default: the lower of rule and tiles, either way */
	ck_assert_double_eq(cm_gemm_eta_combined(g, 256, 2048, 768, 128),
	    fmin(cm_gemm_eta(g, 256, 2048, 768), g128));
	ck_assert_double_eq(cm_gemm_eta_combined(g, 256, 2048, 768, 1),
	    fmin(cm_gemm_eta(g, 256, 2048, 768), alone));
}
END_TEST

/*
 * The default (combined) prices each product at the lower of the rule and
 * the tile model; --gemm-model rule and tiled price with one alone.
 */
START_TEST(engine_option)
{
	const struct hw_gpu *g = hw_gpu_find(&cat, "h100-80gb");
	struct cm_config c;
	struct cm_result comb, rule, tiled;

	cm_config_default(&c, hw_model_find(&cat, "llama3-8b"), g);
	c.global_batch = 8;
	ck_assert_int_eq(c.gemm_model, CM_GEMM_COMBINED);
	/* 2048 tokens by a TP-8 slice of the MLP: 16 x 7 tiles of 128 x 256
	 * fill 112 of 132 SMs, and the tile model is the lower */
	ck_assert_double_eq(cm_gemm_eta_of(&c, g, 2048, 4096, 1792, 1),
	    cm_gemm_eta_tiled(g, 2048, 4096, 1792));
	ck_assert(cm_gemm_eta_tiled(g, 2048, 4096, 1792) <
	    cm_gemm_eta(g, 2048, 4096, 1792));
	/* a full product fills its waves: the rule is the lower */
	ck_assert_double_eq(cm_gemm_eta_of(&c, g, 8192, 4096, 4096, 1),
	    cm_gemm_eta(g, 8192, 4096, 4096));
	ck_assert_int_eq(cm_evaluate(&c, &comb, NULL), 0);
	c.gemm_model = CM_GEMM_RULE;
	ck_assert_double_eq(cm_gemm_eta_of(&c, g, 2048, 4096, 1792, 1),
	    cm_gemm_eta(g, 2048, 4096, 1792));
	ck_assert_int_eq(cm_evaluate(&c, &rule, NULL), 0);
	c.gemm_model = CM_GEMM_TILED;
	ck_assert_double_eq(cm_gemm_eta_of(&c, g, 8192, 4096, 4096, 1),
	    cm_gemm_eta_tiled(g, 8192, 4096, 4096));
	ck_assert_int_eq(cm_evaluate(&c, &tiled, NULL), 0);
	ck_assert(fabs(tiled.t_gemm / rule.t_gemm - 1) > 1e-3);
	ck_assert(fabs(tiled.t_gemm / rule.t_gemm - 1) < 0.2);
	/* never faster than either */
	ck_assert(comb.t_gemm >= rule.t_gemm);
	ck_assert(comb.t_gemm >= tiled.t_gemm * (1 - 1e-12) ||
	    comb.t_gemm >= rule.t_gemm);
}
END_TEST

/* The reason a plan gives when the tile model costs the products. */
static const char *
idle_reason(const struct cm_result *r)
{
	int i;

	for (i = 0; i < r->n_reasons; i++)
		if (strcmp(r->reasons[i].code, "idle_sms") == 0)
			return r->reasons[i].text;
	return NULL;
}

/*
 * GPT-2 small (h 768) on TP 4 with 1024 tokens a micro-batch: a 1024 x
 * 768 by 768 x 576 QKV slice is 8 x 3 tiles of 128 x 256 (24 of 132
 * SMs; 64 x 128 tiles: 16 x 5, 80). The plan names the idle SMs and says
 * how much of the products they cost; Llama 3 8B with 8192 tokens on one
 * GPU fills its waves and hears nothing of it. An eager MoE loop is told
 * of the grouped GEMM, which the compiled run has.
 */
START_TEST(idle_sms_named)
{
	struct hw_model gpt2 = *hw_model_find(&cat, "llama3-8b");
	struct cm_config c;
	struct cm_result r, rule;
	const char *why;

	gpt2.layers = 12;
	gpt2.hidden = 768;
	gpt2.heads = gpt2.kv_heads = 12;
	gpt2.ffn = 3072;
	gpt2.vocab = 50304;
	gpt2.seq = 1024;
	gpt2.mlp = HW_MLP_GELU;
	cm_config_default(&c, &gpt2, hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = c.tp = 4;
	c.global_batch = 8;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	why = idle_reason(&r);
	ck_assert_ptr_nonnull(why);
	printf("gemm: GPT-2 small, TP 4: %s\n", why);
	/* whole, not cut at CM_REASON_LEN */
	ck_assert_int_eq(why[strlen(why) - 1], ')');
	c.gemm_model = CM_GEMM_RULE;
	ck_assert_int_eq(cm_evaluate(&c, &rule, NULL), 0);
	ck_assert(r.t_gemm > 1.05 * rule.t_gemm);
	ck_assert_ptr_null(idle_reason(&rule));

	cm_config_default(&c, hw_model_find(&cat, "llama3-8b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.global_batch = 1;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	ck_assert_ptr_null(idle_reason(&r));

	cm_config_default(&c, hw_model_find(&cat, "qwen3-30b-a3b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = c.dp = 8;
	c.zero = 3;
	c.kernels = CM_KERNELS_EAGER;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	why = idle_reason(&r);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "grouped GEMM"));
	ck_assert_int_eq(why[strlen(why) - 1], ')');
	c.kernels = CM_KERNELS_COMPILED;
	ck_assert_int_eq(cm_evaluate(&c, &r, NULL), 0);
	ck_assert_ptr_null(idle_reason(&r));
}
END_TEST

static Suite *
gemm_suite(void)
{
	Suite *s = suite_create("gemm_shape");
	TCase *tc = tcase_create("h100-gemm.md");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, h100_table);
	tcase_add_test(tc, wave_quantization);
	tcase_add_test(tc, tile_quantization_and_memory_bound);
	tcase_add_test(tc, split_k);
	tcase_add_test(tc, grouped_experts_share_waves);
	tcase_add_test(tc, engine_option);
	tcase_add_test(tc, idle_sms_named);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(gemm_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
