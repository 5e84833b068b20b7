/*
 * check_cmd_plan.c - `parlearn plan` called as main() calls it: the JSON
 * contract of one layout and of the search, and the exit codes for
 * unknown names, impossible layouts and a malformed data file.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "capture.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static struct cli_ctx ctx = { .data_dir = TOP_SRCDIR "/data",
	.db_path = "/nonexistent", .profile = "ada" };

static double
num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);

	if (b != NULL)
		x = cJSON_GetObjectItemCaseSensitive(x, b);
	ck_assert_msg(cJSON_IsNumber(x), "%s.%s missing", a, b ? b : "");
	return x->valuedouble;
}

START_TEST(json_single_layout)
{
	char *argv[] = { "plan", "--model", "gpt3-175b", "--gpu", "a100-80gb",
	    "--gpus", "1024", "--dp", "16", "--tp", "8", "--pp", "8",
	    "--global-batch", "1536", "--seq-parallel", "--json", NULL };
	struct capture c;
	cJSON *o;
	double sum;

	capture_run(cli_plan_main, &ctx, 17, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	o = cJSON_Parse(c.out);
	ck_assert_ptr_nonnull(o);
	ck_assert_double_eq(num(o, "layout", "dp"), 16);
	ck_assert_double_eq(num(o, "layout", "tp"), 8);
	ck_assert_double_eq(num(o, "layout", "pp"), 8);
	ck_assert_double_eq(num(o, "layout", "zero"), 0);
	ck_assert_double_eq(num(o, "layout", "microbatches"), 96);
	ck_assert_double_eq(num(o, "layout", "micro_batch"), 1);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "layout"),
	    "schedule")->valuestring, "1f1b");
	sum = num(o, "memory_bytes", "parameters") +
	    num(o, "memory_bytes", "gradients") +
	    num(o, "memory_bytes", "optimizer") +
	    num(o, "memory_bytes", "activations") +
	    num(o, "memory_bytes", "other");
	ck_assert_double_eq_tol(sum / num(o, "memory_bytes", "total"), 1,
	    1e-12);
	/* 12 B/param of optimizer = 6x the 2-byte parameters (ZeRO 0). */
	ck_assert_double_eq_tol(num(o, "memory_bytes", "optimizer") /
	    num(o, "memory_bytes", "parameters"), 6, 1e-12);
	ck_assert_double_eq(num(o, "gpu_memory_bytes", NULL),
	    80 * 1073741824.0);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "fits")));
	ck_assert_double_eq_tol(num(o, "bubble_fraction", NULL), 7.0 / 103,
	    1e-12);
	ck_assert_double_eq_tol(num(o, "time_s", "step"),
	    num(o, "time_s", "compute") + num(o, "time_s", "exposed_comm") +
	    num(o, "time_s", "comm_slowed") + num(o, "time_s", "bubble") +
	    num(o, "time_s", "optimizer"), 1e-9);
	ck_assert_double_eq_tol(num(o, "tokens_per_s", NULL),
	    1536 * 2048 / num(o, "time_s", "step"), 1e-6);
	ck_assert(num(o, "tflops_per_gpu", NULL) > 0);
	ck_assert(num(o, "mfu_fraction", NULL) > 0 &&
	    num(o, "mfu_fraction", NULL) < 1);
	num(o, "time_s", "tp_comm");
	num(o, "time_s", "pp_comm");
	num(o, "time_s", "dp_comm");
	ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(o,
	    "reasons")), 0);
	cJSON_Delete(o);
	capture_free(&c);
}
END_TEST

static void
expect_rc(int argc, char **argv, int rc, const char *msg)
{
	struct capture c;

	capture_run(cli_plan_main, &ctx, argc, argv, &c);
	ck_assert_int_eq(c.rc, rc);
	ck_assert_msg(strstr(c.err, msg) != NULL, "stderr: %s", c.err);
	capture_free(&c);
}

START_TEST(json_search)
{
	char *argv[] = { "plan", "--model", "llama3-70b", "--gpus", "64",
	    "--json", NULL };
	struct capture c;
	cJSON *o, *cand;

	capture_run(cli_plan_main, &ctx, 6, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	o = cJSON_Parse(c.out);
	ck_assert_ptr_nonnull(o);
	cand = cJSON_GetObjectItem(o, "candidates");
	ck_assert_int_eq(cJSON_GetArraySize(cand), 10);
	ck_assert(num(o, "evaluated", NULL) > 100);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(cand, 0),
	    "fits")));
	ck_assert(num(cJSON_GetArrayItem(cand, 0), "time_s", "step") <=
	    num(cJSON_GetArrayItem(cand, 1), "time_s", "step"));
	/* Ranks with ties, frameworks and coded reasons (issue 12). */
	ck_assert_double_eq(num(cJSON_GetArrayItem(cand, 0), "rank", NULL), 1);
	ck_assert(cJSON_IsBool(cJSON_GetObjectItem(cJSON_GetArrayItem(cand,
	    0), "tie")));
	ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(
	    cJSON_GetArrayItem(cand, 0), "frameworks")), 0);
	ck_assert(cJSON_IsString(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cand, 1), "reasons"), 0),
	    "code")));
	ck_assert(num(cJSON_GetArrayItem(cand, 0), "headroom_fraction",
	    NULL) >= 0.10);
	ck_assert_double_eq(num(o, "headroom_fraction", NULL), 0.10);
	ck_assert(num(o, "excluded_framework", NULL) > 0);
	cJSON_Delete(o);
	capture_free(&c);
}
END_TEST

/* Ranked layouts under --headroom F and --any-framework. */
static double
ranked(int argc, char **argv, const char *key)
{
	struct capture c;
	cJSON *o;
	double v;

	capture_run(cli_plan_main, &ctx, argc, argv, &c);
	ck_assert_msg(c.rc == 0, "%s", c.err);
	o = cJSON_Parse(c.out);
	ck_assert_ptr_nonnull(o);
	v = num(o, key, NULL);
	cJSON_Delete(o);
	capture_free(&c);
	return v;
}

START_TEST(search_options)
{
	char *a0[] = { "plan", "--model", "llama2-70b", "--gpus", "16",
	    "--json", NULL };
	char *a1[] = { "plan", "--model", "llama2-70b", "--gpus", "16",
	    "--headroom", "0.05", "--json", NULL };
	char *a2[] = { "plan", "--model", "llama2-70b", "--gpus", "16",
	    "--any-framework", "--json", NULL };
	char *a3[] = { "plan", "--model", "llama2-70b", "--gpus", "16",
	    "--headroom", "1.5", NULL };
	double base = ranked(6, a0, "ranked");

	ck_assert(ranked(8, a1, "ranked") > base);
	ck_assert_double_eq(ranked(8, a1, "headroom_fraction"), 0.05);
	ck_assert(ranked(7, a2, "ranked") > base);
	ck_assert_double_eq(ranked(7, a2, "excluded_framework"), 0);
	expect_rc(7, a3, 1, "--headroom");
}
END_TEST

/* A searched knob given on the command line is kept by the search. */
START_TEST(search_keeps_given_knobs)
{
	char *argv[] = { "plan", "--model", "llama2-70b", "--gpus", "64",
	    "--recompute", "full", "--micro-batch", "2", "--json", NULL };
	struct capture c;
	cJSON *o, *it;
	int n = 0;

	capture_run(cli_plan_main, &ctx, 10, argv, &c);
	ck_assert_msg(c.rc == 0, "%s", c.err);
	o = cJSON_Parse(c.out);
	ck_assert_ptr_nonnull(o);
	cJSON_ArrayForEach(it, cJSON_GetObjectItem(o, "candidates")) {
		const cJSON *l = cJSON_GetObjectItem(it, "layout");

		ck_assert_str_eq(cJSON_GetObjectItem(l, "recompute")->valuestring,
		    "full");
		ck_assert_int_eq(cJSON_GetObjectItem(l, "micro_batch")->valueint,
		    2);
		n++;
	}
	ck_assert_int_eq(n, 10);
	cJSON_Delete(o);
	capture_free(&c);
}
END_TEST


/* The kernels, the attention kernel and ZeRO-3's gathers are on screen
 * and in the JSON (issue 12). */
START_TEST(kernels_shown)
{
	char *a1[] = { "plan", "--model", "llama2-7b", "--dp", "1", "--tp",
	    "1", "--pp", "1", "--global-batch", "4", NULL };
	char *a2[] = { "plan", "--model", "gpt3-175b", "--gpu", "a100-80gb",
	    "--dp", "384", "--tp", "1", "--pp", "1", "--micro-batch", "4",
	    "--zero", "3", "--kernels", "fused", "--attention", "flash2",
	    "--weight-gather", "param", NULL };
	char *a3[] = { "plan", "--model", "gpt3-175b", "--gpu", "a100-80gb",
	    "--dp", "384", "--tp", "1", "--pp", "1", "--micro-batch", "4",
	    "--zero", "3", "--kernels", "fused", "--weight-gather", "param",
	    "--json", NULL };
	struct capture c;
	cJSON *o, *l;

	capture_run(cli_plan_main, &ctx, 11, a1, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Kernels eager, attention flash\n"));
	capture_free(&c);
	capture_run(cli_plan_main, &ctx, 21, a2, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Kernels fused, attention flash2, "
	    "ZeRO-3 gathers per param\n"));
	capture_free(&c);
	capture_run(cli_plan_main, &ctx, 20, a3, &c);
	ck_assert_int_eq(c.rc, 0);
	o = cJSON_Parse(c.out);
	ck_assert_ptr_nonnull(o);
	l = cJSON_GetObjectItem(o, "layout");
	ck_assert_str_eq(cJSON_GetObjectItem(l, "kernels")->valuestring,
	    "fused");
	ck_assert_str_eq(cJSON_GetObjectItem(l, "weight_gather")->valuestring,
	    "param");
	ck_assert_double_eq(num(o, "network", "dp_collectives"),
	    96 * (2 * 12 + 1));
	cJSON_Delete(o);
	capture_free(&c);
}
END_TEST

/* Eight H100s of DP in a node: the gradient all-reduce hides behind the
 * backward, so the compute it slows is a line of its own, and the DP
 * group's all-reduces run at NVLink SHARP's rate; --no-nvls rings them. */
START_TEST(network_lines)
{
	char *on[] = { "plan", "--model", "llama2-7b", "--dp", "8", "--tp", "1",
	    "--pp", "1", NULL };
	char *off[] = { "plan", "--model", "llama2-7b", "--dp", "8", "--tp",
	    "1", "--pp", "1", "--no-nvls", "--json", NULL };
	struct capture c;
	cJSON *o;

	capture_run(cli_plan_main, &ctx, 9, on, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "  slowed compute "));
	ck_assert_ptr_nonnull(strstr(c.out, "DP group: 8 ranks, 8 per node on "
	    "1 node(s), 369 GB/s\n    its all-reduces: 480 GB/s with NVLink "
	    "SHARP\n"));
	capture_free(&c);
	capture_run(cli_plan_main, &ctx, 11, off, &c);
	ck_assert_int_eq(c.rc, 0);
	o = cJSON_Parse(c.out);
	ck_assert_ptr_nonnull(o);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(o,
	    "network"), "nvls")));
	ck_assert(num(o, "time_s", "comm_slowed") > 0);
	cJSON_Delete(o);
	capture_free(&c);
}
END_TEST

START_TEST(errors)
{
	char *a1[] = { "plan", "--model", "gpt-9", NULL };
	char *a2[] = { "plan", "--model", "gpt3-175b", "--gpus", "64", "--dp",
	    "2", "--tp", "8", "--pp", "8", NULL };
	char *a3[] = { "plan", "--model", "gpt3-175b", "--gpus", "8", "--dp",
	    "1", "--tp", "8", "--pp", "1", "--gpu", "tpu", NULL };
	char *a4[] = { "plan", "--model", "gpt3-175b", "--dp", "1", "--tp",
	    "5", "--pp", "1", NULL };
	char *a5[] = { "plan", "--help", NULL };
	char *dir = test_tmpdir();
	char data[4096];
	struct capture c;

	expect_rc(3, a1, 1, "parlearn: plan: --model: unknown model \"gpt-9\"");
	expect_rc(11, a2, 1, "not the 64 GPUs");
	expect_rc(13, a3, 1, "parlearn: plan: --gpu: unknown GPU \"tpu\"");
	expect_rc(9, a4, 1, "heads");
	capture_run(cli_plan_main, &ctx, 2, a5, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Usage: parlearn plan"));
	capture_free(&c);
	test_write(dir, "gpus.json", "{\"gpus\": [}");
	snprintf(data, sizeof data, "%s", dir);
	ctx.data_dir = data;
	expect_rc(3, a1, 2, "gpus.json:1:");
	ctx.data_dir = TOP_SRCDIR "/data";
	test_rmrf(dir);
	free(dir);
}
END_TEST

static Suite *
cmd_plan_suite(void)
{
	Suite *s = suite_create("cmd_plan");
	TCase *tc = tcase_create("json contract");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, json_single_layout);
	tcase_add_test(tc, json_search);
	tcase_add_test(tc, search_options);
	tcase_add_test(tc, search_keeps_given_knobs);
	tcase_add_test(tc, kernels_shown);
	tcase_add_test(tc, network_lines);
	suite_add_tcase(s, tc);
	tc = tcase_create("exit codes");
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cmd_plan_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
