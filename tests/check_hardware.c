/*
 * check_hardware.c - the GPU and model catalogs: the shipped files load
 * with the reference's figures, and malformed files are refused with the
 * file and JSON path named.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/hardware.h"
#include "tmpdir.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

START_TEST(shipped_catalog)
{
	static const char *gpus[] = { "v100-32gb", "a100-40gb", "a100-80gb",
	    "h100-80gb", "h200-141gb" };
	static const char *models[] = { "gpt3-175b", "llama2-7b",
	    "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b",
	    "llama3-405b", "bloom-176b", "megatron-1t", "30b" };
	struct hw_catalog cat;
	struct pl_err err;
	const struct hw_gpu *g;
	const struct hw_model *m;
	size_t i;

	ck_assert_msg(hw_catalog_load(&cat, TOP_SRCDIR "/data", &err) == 0,
	    "%s", err.msg);
	for (i = 0; i < sizeof gpus / sizeof gpus[0]; i++)
		ck_assert_ptr_nonnull(hw_gpu_find(&cat, gpus[i]));
	for (i = 0; i < sizeof models / sizeof models[0]; i++)
		ck_assert_ptr_nonnull(hw_model_find(&cat, models[i]));
	ck_assert_ptr_null(hw_gpu_find(&cat, "tpu-v4"));
	g = hw_gpu_find(&cat, "a100-80gb");
	ck_assert_double_eq(g->peak_flops, 312e12);
	ck_assert_double_eq(g->nvlink_bw, 300e9);	/* per direction */
	ck_assert_double_eq(g->inter_bw, 25e9);
	ck_assert_double_eq(g->hbm_bw, 2039e9);
	ck_assert_double_eq(g->mem_bytes, 80.0 * 1073741824.0);
	ck_assert_double_eq(g->flash2_ratio, 1);	/* FA2 is its best */
	g = hw_gpu_find(&cat, "h100-80gb");
	ck_assert_double_eq_tol(g->peak_flops, 989.4e12, 1);
	ck_assert_double_eq(g->nvlink_bw, 450e9);
	/* FA2 329 vs cuDNN / FA3 631 TFLOP/s (pytorch/pytorch issue 142132) */
	ck_assert_double_eq(g->flash2_ratio, 0.52);
	/* DeepSeek-V3 report 3.2.2: NVLink 160 GB/s, IB 50 GB/s, on the
	 * H100's silicon with NVLink cut to 400 GB/s both ways */
	g = hw_gpu_find(&cat, "h800-80gb");
	ck_assert_ptr_nonnull(g);
	ck_assert_double_eq(g->nvlink_bw, 200e9);
	ck_assert_double_eq_tol(g->nvlink_bw * g->nvlink_eff, 160e9, 1);
	ck_assert_double_eq(g->inter_bw, 50e9);
	ck_assert_double_eq(g->peak_flops, hw_gpu_find(&cat,
	    "h100-80gb")->peak_flops);
	ck_assert_double_eq(g->fp8_flops, hw_gpu_find(&cat,
	    "h100-80gb")->fp8_flops);
	ck_assert_double_eq(g->nvls_bw, 0);
	m = hw_model_find(&cat, "llama3-405b");
	ck_assert_int_eq(m->layers, 126);
	ck_assert_int_eq(m->kv_heads, 8);
	ck_assert_int_eq(m->mlp, HW_MLP_SWIGLU);
	ck_assert_int_eq(m->tied, 0);
	ck_assert_int_eq(m->global_batch, 2048);
	hw_catalog_free(&cat);
	hw_catalog_free(&cat);	/* twice is harmless */
	hw_catalog_free(NULL);
}
END_TEST

static void
expect_error(const char *text, const char *want)
{
	char path[4096], buf[2048], exp[6200];
	struct hw_catalog cat = { 0 };
	struct pl_err err;
	FILE *fp;
	int fd = mkstemp(test_tmp_path(path, sizeof path, "check_hw_XXXXXX"));

	ck_assert_int_ge(fd, 0);
	fp = fdopen(fd, "w");
	fputs(text, fp);
	fclose(fp);
	ck_assert_int_eq(hw_load_gpus(&cat, path, &err), -1);
	snprintf(exp, sizeof exp, "%s: %s", path, want);
	ck_assert_str_eq(pl_err_format(&err, buf, sizeof buf), exp);
	hw_catalog_free(&cat);
	remove(path);
}

#define GPU_OK	"\"label\": \"X\", \"memory_mib\": 1024, \"peak_tflops\": 1," \
	" \"fp32_tflops\": 1, \"hbm_gbps\": 1, \"nvlink_gbps\": 1," \
	" \"inter_gbps\": 1, \"intra_latency_us\": 1, \"inter_latency_us\": 1," \
	" \"gemm_efficiency\": 0.8"

START_TEST(malformed_gpus)
{
	expect_error("{\"gpus\": []}", "gpus: must be a non-empty array");
	expect_error("{\"gpus\": [{\"name\": \"x\", " GPU_OK "}, 3]}",
	    "gpus[1]: must be an object");
	expect_error("{\"gpus\": [{\"name\": \"x\", " GPU_OK "},"
	    " {\"name\": \"x\", " GPU_OK "}]}",
	    "gpus[1]: duplicate name \"x\"");
	expect_error("{\"gpus\": [{\"label\": \"X\"}]}",
	    "gpus[0].name: required field is missing");
	expect_error("{\"gpus\": [{\"name\": \"x\", " GPU_OK ","
	    " \"flash2_ratio\": 2}]}",
	    "gpus[0].flash2_ratio: must be between 0.01 and 1");
	/* issue 25 part 6: the GPU generation picks NCCL's tuning row */
	expect_error("{\"gpus\": [{\"name\": \"x\", " GPU_OK ","
	    " \"arch\": \"pascal\"}]}",
	    "gpus[0].arch: unknown value \"pascal\"");
	expect_error("{\"gpus\": [{\"name\": \"x\", " GPU_OK ","
	    " \"sm_count\": 0}]}",
	    "gpus[0].sm_count: must be between 1 and 100000000");
}
END_TEST

/* A valid small SwiGLU model with `extra` members is refused: want. */
static void
expect_model_error(const char *path, const char *extra, const char *want)
{
	struct hw_catalog cat = { 0 };
	struct pl_err err;
	char buf[2048];
	FILE *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	fprintf(fp, "{\"models\": [{\"name\": \"m\", \"layers\": 2, "
	    "\"hidden\": 64, \"heads\": 4, \"kv_heads\": 4, \"ffn\": 256, "
	    "\"vocab\": 10, \"seq\": 8, \"mlp\": \"swiglu\", \"norm\": "
	    "\"rmsnorm\", \"tied\": false, \"learned_pos\": false, "
	    "\"biases\": false, \"dropout\": false, %s}]}", extra);
	fclose(fp);
	ck_assert_int_eq(hw_load_models(&cat, path, &err), -1);
	pl_err_format(&err, buf, sizeof buf);
	ck_assert_msg(strstr(buf, want) != NULL, "%s", buf);
	hw_catalog_free(&cat);
}

START_TEST(malformed_models)
{
	char path[4096], buf[2048];
	struct hw_catalog cat = { 0 };
	struct pl_err err;
	FILE *fp;
	int fd = mkstemp(test_tmp_path(path, sizeof path, "check_hwm_XXXXXX"));

	fp = fdopen(fd, "w");
	fputs("{\"models\": [{\"name\": \"m\", \"layers\": 2, \"hidden\": 64,"
	    " \"heads\": 6, \"kv_heads\": 6, \"ffn\": 256, \"vocab\": 10,"
	    " \"seq\": 8, \"mlp\": \"gelu\", \"norm\": \"layernorm\","
	    " \"tied\": true, \"learned_pos\": true, \"biases\": true,"
	    " \"dropout\": false}]}", fp);
	fclose(fp);
	ck_assert_int_eq(hw_load_models(&cat, path, &err), -1);
	pl_err_format(&err, buf, sizeof buf);
	ck_assert_ptr_nonnull(strstr(buf, "models[0]: heads (6) must divide "
	    "hidden (64)"));
	hw_catalog_free(&cat);
	/* a mixture of experts: an expert count out of range, and top_k
	 * past the experts, named with the model's path */
	expect_model_error(path, "\"experts\": 1",
	    "models[0].experts: must be between 2 and 4096");
	expect_model_error(path, "\"experts\": 4, \"top_k\": 8, "
	    "\"expert_ffn\": 64", "models[0]: a mixture of experts needs at "
	    "least 2 experts");
	ck_assert_int_eq(hw_catalog_load(&cat, "/nonexistent", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.file, "gpus.json"));
	remove(path);
}
END_TEST

static Suite *
hardware_suite(void)
{
	Suite *s = suite_create("hardware");
	TCase *tc = tcase_create("catalog");

	tcase_add_test(tc, shipped_catalog);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad input");
	tcase_add_test(tc, malformed_gpus);
	tcase_add_test(tc, malformed_models);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(hardware_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
