/*
 * check_costmodel.c - the cost model held to published numbers
 * (reference/costmodel.md): ZeRO's worked example, preset parameter counts,
 * the Megatron and PaLM FLOP formulas, [KOR22]'s activation memory, bubble
 * shares, collective times, and end-to-end calibration against [NAR21]
 * Table 1, GPT-3, BLOOM and Llama 3 405B (errors printed for the report).
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

#define MIB	1048576.0
#define GIB	1073741824.0

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
cfg_for(struct cm_config *c, const char *model, const char *gpu)
{
	const struct hw_model *m = hw_model_find(&cat, model);
	const struct hw_gpu *g = hw_gpu_find(&cat, gpu);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(g);
	cm_config_default(c, m, g);
}

static void
layout(struct cm_config *c, int d, int t, int p)
{
	c->dp = d;
	c->tp = t;
	c->pp = p;
	c->gpus = d * t * p;
}

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

START_TEST(zero_worked_example)
{
	/* [ZERO] Figure 1: Psi = 7.5B, N_d = 64, K = 12. */
	static const double want[] = { 120.0, 31.41, 16.64, 1.875 };
	struct cm_config c;
	struct cm_result r;
	double gb;
	int z;

	cfg_for(&c, "megatron-7.5b", "a100-80gb");
	c.model.params = 7.5e9;
	layout(&c, 64, 1, 1);
	for (z = 0; z <= 3; z++) {
		c.zero = z;
		eval(&c, &r);
		ck_assert_int_eq(cm_quantity(&r, "model_state_gb", &gb), 0);
		ck_assert_double_eq_tol(gb, want[z], 0.01);
	}
}
END_TEST

START_TEST(sixteen_bytes_rule)
{
	struct cm_config c;
	struct cm_result r;
	double gb;

	cfg_for(&c, "llama2-7b", "a100-80gb");
	c.model.params = 7e9;
	eval(&c, &r);
	ck_assert_int_eq(cm_quantity(&r, "model_state_gb", &gb), 0);
	ck_assert_double_eq_tol(gb, 112.0, 1e-6);
	ck_assert_int_eq(r.fits, 0);
}
END_TEST

START_TEST(preset_params)
{
	static const struct { const char *m; double b; double tol; } t[] = {
		{ "gpt3-175b", 174.60, 0.02 }, { "llama2-7b", 6.738, 0.001 },
		{ "llama2-13b", 13.016, 0.001 }, { "llama2-70b", 68.977, 0.001 },
		{ "llama3-8b", 8.030, 0.001 }, { "llama3-70b", 70.554, 0.001 },
		{ "llama3-405b", 405.853, 0.001 },
		{ "bloom-176b", 176.247, 0.001 },
		{ "gpt-neox-20b", 20.555, 0.001 },
		{ "mt-nlg-530b", 529.60, 0.01 }, { "megatron-1t", 1008.04, 0.01 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		const struct hw_model *m = hw_model_find(&cat, t[i].m);

		ck_assert_ptr_nonnull(m);
		ck_assert_msg(fabs(cm_params(m) / 1e9 - t[i].b) <= t[i].tol,
		    "%s: %.4f B", t[i].m, cm_params(m) / 1e9);
	}
}
END_TEST

START_TEST(megatron_flops)
{
	const struct hw_model *m = hw_model_find(&cat, "gpt3-175b");
	double B = 1536, s = 2048, L = 96, h = 12288, V = 51200;
	double f72 = 72 * B * s * L * h * h * (1 + s / (6 * h) +
	    V / (12 * L * h));
	double f96 = 96 * B * s * L * h * h * (1 + s / (6 * h) +
	    V / (16 * L * h));
	/* Reference c, general form: selective adds one attention-core
	 * forward, 4 B s^2 L h. (Its [KOR22] eq. 8 row, s/(3h), adds 12 B s^2
	 * L h instead; the engine follows the general form.) */
	double fsel = f72 + 4 * B * s * s * L * h;

	/* [KOR22] eq. 7, [NAR21] eq. 3 vs the general form. */
	ck_assert_double_eq_tol(cm_flops_model(m, B) / f72, 1.0, 1e-12);
	ck_assert_double_eq_tol(cm_flops_hw(m, B, CM_RECOMPUTE_FULL) / f96,
	    1.0, 1e-12);
	ck_assert_double_eq_tol(cm_flops_hw(m, B, CM_RECOMPUTE_SELECTIVE) /
	    fsel, 1.0, 1e-12);
	ck_assert_double_eq(cm_flops_hw(m, B, CM_RECOMPUTE_NONE),
	    cm_flops_model(m, B));
	/* [PALM] App. B: 6N + 12 L H Q T per token. */
	ck_assert_double_eq_tol(cm_flops_model(m, 1) / s / 1e12, 1.0764,
	    5e-5);
}
END_TEST

/* GPT-3, s = 2048, b = 1, t = 8, plain attention ([KOR22] Table 2). */
static double
act_mib(int tp, int sp, enum cm_recompute rc)
{
	struct cm_config c;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	c.attention = CM_ATTN_PLAIN;
	c.tp = tp;
	c.seq_parallel = sp;
	c.recompute = rc;
	return cm_act_layer_bytes(&c) / MIB;
}

START_TEST(activation_per_layer)
{
	ck_assert_double_eq_tol(act_mib(1, 0, CM_RECOMPUTE_NONE), 2736, 1e-9);
	ck_assert_double_eq_tol(act_mib(8, 0, CM_RECOMPUTE_NONE), 552, 1e-9);
	ck_assert_double_eq_tol(act_mib(8, 1, CM_RECOMPUTE_NONE), 342, 1e-9);
	ck_assert_double_eq_tol(act_mib(8, 0, CM_RECOMPUTE_SELECTIVE), 312,
	    1e-9);
	ck_assert_double_eq_tol(act_mib(8, 1, CM_RECOMPUTE_SELECTIVE), 102,
	    1e-9);
	ck_assert_double_eq_tol(act_mib(1, 0, CM_RECOMPUTE_FULL), 48, 1e-9);
}
END_TEST

START_TEST(activation_stage0)
{
	struct cm_config c;
	double one, il;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	c.tp = 8;
	c.pp = 8;
	c.seq_parallel = 1;
	c.recompute = CM_RECOMPUTE_SELECTIVE;
	/* [KOR22] 4.2.3: stage 0 holds L layers' worth under 1F1B. */
	one = cm_act_layer_bytes(&c) * cm_inflight_layers(&c, 0, 12, 64);
	ck_assert_double_eq_tol(one / GIB, 9.5625, 1e-9);
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 3;
	il = cm_act_layer_bytes(&c) * cm_inflight_layers(&c, 0, 12, 64);
	ck_assert_double_eq_tol(il / one, 1 + 7.0 / 24, 1e-12);
	c.schedule = PIPE_GPIPE;
	c.virtual_stages = 1;
	ck_assert_double_eq(cm_inflight_layers(&c, 0, 12, 64), 64.0 * 12);
}
END_TEST

START_TEST(bubble_examples)
{
	ck_assert_double_eq_tol(pipe_bubble_fraction(8, 64, 1), 0.098592, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(8, 64, 3), 0.035176, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(4, 8, 1), 0.272727, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(4, 8, 2), 0.157895, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(16, 32, 1), 0.319149,
	    1e-6);
	ck_assert_double_eq(pipe_bubble_fraction(1, 64, 1), 0.0);
}
END_TEST

START_TEST(collective_times)
{
	double S = 2.0 * 2048 * 12288;

	ck_assert_double_eq(S, 50331648.0);
	ck_assert_double_eq_tol(cm_allreduce_s(S, 8, 300e9, 0) * 1e6, 293.6,
	    0.05);
	ck_assert_double_eq_tol(cm_sendrecv_s(S, 25e9, 0) * 1e3, 2.0133,
	    1e-4);
	ck_assert_double_eq_tol(cm_sendrecv_s(S / 8, 25e9, 0) * 1e3, 0.2517,
	    1e-4);
	ck_assert_double_eq_tol(cm_allreduce_s(2 * 174.6e9 / 64, 16, 25e9, 0),
	    0.4092, 1e-4);
}
END_TEST

START_TEST(step_consistency)
{
	struct cm_config c;
	struct cm_result r;
	double v;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	layout(&c, 16, 8, 8);
	eval(&c, &r);
	ck_assert_double_eq_tol(r.t_step, r.t_compute + r.t_exposed_comm +
	    r.t_bubble + r.t_optimizer, 1e-12);
	ck_assert_double_eq_tol(r.t_bubble / (r.t_step - r.t_dp_exposed -
	    r.t_optimizer), r.bubble_fraction, 1e-12);
	ck_assert_double_eq_tol(r.tokens_per_s, 1536.0 * 2048 / r.t_step, 1e-6);
	ck_assert_int_eq(cm_quantity(&r, "mfu", &v), 0);
	ck_assert_double_eq(v, r.mfu);
	ck_assert_int_eq(cm_quantity(&r, "no_such", &v), -1);
	ck_assert_int_eq(r.tp_inter, 0);
	ck_assert_int_eq(r.pp_inter, 1);
}
END_TEST

/* ---- calibration ---- */

struct calib { const char *model; int t, p, d; long B; double pub; };

/* Best hardware TFLOP/s of the fitting (b, v) choices, as Megatron tuned. */
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
			cfg_for(&c, k->model, "a100-80gb");
			layout(&c, k->d, k->t, k->p);
			cm_config_realistic(&c);
			c.global_batch = k->B;
			c.micro_batch = b;
			c.recompute = CM_RECOMPUTE_FULL;
			c.attention = CM_ATTN_PLAIN;	/* 2021 Megatron */
			c.dp_overlap = 0;		/* [KOR22] 6.3 */
			c.schedule = v > 1 ? PIPE_INTERLEAVED :
			    PIPE_1F1B;
			c.virtual_stages = v;
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

START_TEST(calibration_nar21)
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
	size_t i;
	int b = 0, v = 0;
	double got, e;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		got = nar21_row(&rows[i], 0, &b, &v);
		e = got / rows[i].pub - 1;
		printf("calibration [NAR21] %-16s t%d p%d d%d b%d v%d: "
		    "%.1f vs %.0f hw TFLOP/s (%+.1f%%)\n", rows[i].model,
		    rows[i].t, rows[i].p, rows[i].d, b, v, got, rows[i].pub,
		    100 * e);
		ck_assert_msg(fabs(e) <= 0.15, "%s off by %.1f%%",
		    rows[i].model, 100 * e);
	}
}
END_TEST

START_TEST(calibration_gpt3)
{
	/* [NAR21] 5.1: 140 TFLOP/s, 1024 A100, batch 1536; Table 2: b = 1. */
	static const struct calib k = { "gpt3-175b", 8, 8, 16, 1536, 140 };
	int b = 0, v = 0;
	double got = nar21_row(&k, 1, &b, &v), e = got / k.pub - 1;

	printf("calibration GPT-3 175B t8 p8 d16 b%d v%d: %.1f vs 140 hw "
	    "TFLOP/s (%+.1f%%)\n", b, v, got, 100 * e);
	ck_assert_msg(fabs(e) <= 0.15, "GPT-3 off by %.1f%%", 100 * e);
}
END_TEST

START_TEST(calibration_bloom)
{
	/* 384 A100-80GB, TP4 PP12 DP8, ZeRO-1, b 2, Omni-Path 6.25 GB/s
	 * per GPU, full recompute, DeepSpeed 1F1B; ~150 TFLOP/s (the
	 * Megatron-DeepSpeed counter, recompute included). */
	struct cm_config c;
	struct cm_result r;
	double e;

	cfg_for(&c, "bloom-176b", "a100-80gb");
	layout(&c, 8, 4, 12);
	cm_config_realistic(&c);
	c.zero = 1;
	c.micro_batch = 2;
	c.global_batch = 2048;
	c.inter_bw = 6.25e9;
	c.recompute = CM_RECOMPUTE_FULL;
	c.attention = CM_ATTN_PLAIN;
	c.dp_overlap = 0;
	c.pp_scatter_gather = 0;	/* DeepSpeed's pipeline engine */
	eval(&c, &r);
	e = r.hw_tflops_per_gpu / 150 - 1;
	printf("calibration BLOOM-176B: %.1f hw (%.1f model) vs ~150 TFLOP/s "
	    "(%+.1f%%), step %.1f s vs ~105 s\n", r.hw_tflops_per_gpu,
	    r.tflops_per_gpu, 100 * e, r.t_step);
	ck_assert(r.fits);
	ck_assert_msg(fabs(e) <= 0.15, "BLOOM off by %.1f%%", 100 * e);
}
END_TEST

START_TEST(calibration_llama3)
{
	/* [LLAMA3] Table 4: 8192 H100, TP8 PP16 DP64 FSDP, 16M tokens,
	 * s = 8192: 430 TFLOP/s per GPU, 43 % MFU (model FLOPs). */
	struct cm_config c;
	struct cm_result r;
	double e;

	cfg_for(&c, "llama3-405b", "h100-80gb");
	layout(&c, 64, 8, 16);
	cm_config_realistic(&c);
	c.zero = 3;
	c.seq_parallel = 1;
	c.recompute = CM_RECOMPUTE_SELECTIVE;
	eval(&c, &r);
	e = r.tflops_per_gpu / 430 - 1;
	printf("calibration Llama 3 405B: %.1f vs 430 model TFLOP/s (%+.1f%%), "
	    "MFU %.1f%%\n", r.tflops_per_gpu, 100 * e, 100 * r.mfu);
	ck_assert(r.fits);
	ck_assert_msg(fabs(e) <= 0.15, "Llama 3 off by %.1f%%", 100 * e);
}
END_TEST

/* ---- search ---- */

START_TEST(search_properties)
{
	struct cm_search *s = malloc(sizeof *s);
	struct cm_config c;
	struct pl_err err;
	int i;

	ck_assert_ptr_nonnull(s);
	cfg_for(&c, "llama2-70b", "h100-80gb");
	c.gpus = 64;
	ck_assert_int_eq(cm_search(&c, 10, s, &err), 0);
	ck_assert_int_gt(s->evaluated, 1000);
	ck_assert_int_eq(s->n_top, 10);
	for (i = 0; i < s->n_top; i++) {
		ck_assert(s->top[i].fits);
		ck_assert_int_eq(s->top[i].cfg.dp * s->top[i].cfg.tp *
		    s->top[i].cfg.pp, 64);
		if (i > 0)
			ck_assert(s->top[i].t_step >= s->top[i - 1].t_step);
		ck_assert_int_gt(s->top[i].n_reasons, 0);
	}
	/* A TP group inside a node fits here and is faster: never across. */
	ck_assert_int_eq(s->top[0].tp_inter, 0);
	ck_assert_int_le(s->top[0].cfg.tp, 8);
	/* 70B in bf16 Adam cannot fit one 80 GB GPU without sharding. */
	c.gpus = 1;
	ck_assert_int_eq(cm_search(&c, 10, s, &err), 0);
	ck_assert_int_eq(s->n_top, 0);
	ck_assert(s->have_closest);
	ck_assert(!s->closest.fits);
	free(s);
}
END_TEST

START_TEST(bad_input)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	layout(&c, 2, 8, 8);
	c.gpus = 64;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "64 GPUs"));
	layout(&c, 1, 5, 1);	/* 5 does not divide 96 heads */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "heads"));
	layout(&c, 1, 1, 97);	/* more stages than layers */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	layout(&c, 7, 1, 1);	/* 1536 not a multiple of 7 */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	layout(&c, 1, 1, 8);
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 5;	/* 96 / 40 leaves 24 short */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	c.gpus = 0;
	ck_assert_int_eq(cm_search(&c, 10, &(struct cm_search){ 0 }, &err), -1);
}
END_TEST

START_TEST(config_json)
{
	const char *ok = "{\"model\": \"llama2-70b\", \"gpu\": \"a100-80gb\","
	    " \"gpus\": 64, \"dp\": 2, \"tp\": 8, \"pp\": 4, \"zero\": 1,"
	    " \"recompute\": \"full\", \"seq_parallel\": true,"
	    " \"inter_bw\": 25, \"schedule\": \"interleaved\","
	    " \"virtual_stages\": 2}";
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;
	char buf[2048];
	cJSON *o = cJSON_Parse(ok);

	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), 0);
	ck_assert_int_eq(c.model.kv_heads, 8);
	ck_assert_int_eq(c.tp, 8);
	ck_assert_int_eq(c.recompute, CM_RECOMPUTE_FULL);
	ck_assert_double_eq(c.inter_bw, 25e9);
	ck_assert_double_eq(c.intra_bw, 300e9);
	eval(&c, &r);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"model\": \"llama2-70b\", \"zero\": 5}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), -1);
	ck_assert_str_eq(pl_err_format(&err, buf, sizeof buf),
	    "l.json: config.zero: must be between 0 and 3");
	cJSON_Delete(o);
	o = cJSON_Parse("{\"model\": \"gpt5\"}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(pl_err_format(&err, buf, sizeof buf),
	    "config.model"));
	cJSON_Delete(o);
	o = cJSON_Parse("{\"gpus\": 8, \"colour\": 1}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(err.path, "config.colour"));
	cJSON_Delete(o);
}
END_TEST

static Suite *
costmodel_suite(void)
{
	Suite *s = suite_create("costmodel");
	TCase *tc;

	tc = tcase_create("reference numbers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, zero_worked_example);
	tcase_add_test(tc, sixteen_bytes_rule);
	tcase_add_test(tc, preset_params);
	tcase_add_test(tc, megatron_flops);
	tcase_add_test(tc, activation_per_layer);
	tcase_add_test(tc, activation_stage0);
	tcase_add_test(tc, bubble_examples);
	tcase_add_test(tc, collective_times);
	tcase_add_test(tc, step_consistency);
	suite_add_tcase(s, tc);
	tc = tcase_create("calibration");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, calibration_nar21);
	tcase_add_test(tc, calibration_gpt3);
	tcase_add_test(tc, calibration_bloom);
	tcase_add_test(tc, calibration_llama3);
	suite_add_tcase(s, tc);
	tc = tcase_create("search");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, search_properties);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad input");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, config_json);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(costmodel_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
