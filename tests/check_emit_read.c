/*
 * check_emit_read.c - reading an emitted config back (emit_read.h):
 *   - every kind round-trips over several layouts (emit, read, compare);
 *   - a file that says another TP, lacks a key, is garbage, is huge or
 *     holds a NUL byte is refused with the file and the line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/emit.h"
#include "emitfix.h"
#include "core/engine/emit_read.h"
#include "core/engine/hardware.h"
#include "core/lab/lab.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static void
layout(struct cm_config *c, const char *model, int gpus, int d, int t, int p,
    int z, int b)
{
	cm_config_default(c, hw_model_find(&cat, model),
	    hw_gpu_find(&cat, "h100-80gb"));
	c->dp = d;
	c->tp = t;
	c->pp = p;
	c->gpus = gpus;
	c->zero = z;
	c->micro_batch = b;
	c->seq_parallel = t > 1;
	c->global_batch = 512;
}

/* Read text back and check it against c: the check's return. */
static int
check_text(const char *text, size_t len, const struct cm_config *c,
    struct pl_err *err)
{
	struct emit_layout got;

	pl_err_clear(err);
	if (emit_read(text, len, "f.cfg", &got, err) != 0)
		return -1;
	return emit_read_check(&got, c, "f.cfg", err);
}

static void
replace(char **text, const char *from, const char *to)
{
	char *p = strstr(*text, from), *n;
	size_t a = (size_t)(p - *text);

	ck_assert_msg(p != NULL, "no \"%s\" in:\n%s", from, *text);
	n = malloc(strlen(*text) - strlen(from) + strlen(to) + 1);
	ck_assert_ptr_nonnull(n);
	memcpy(n, *text, a);
	strcpy(n + a, to);
	strcat(n, p + strlen(from));
	free(*text);
	*text = n;
}

static const struct { const char *model; int g, d, t, p, z, b; } lays[] = {
	{ "llama3-8b", 16, 16, 1, 1, 2, 1 },
	{ "llama3-8b", 16, 4, 2, 2, 1, 2 },
	{ "llama3-70b", 64, 8, 8, 1, 1, 1 },
	{ "llama3-70b", 64, 2, 4, 8, 0, 1 },
	{ "llama2-7b", 8, 8, 1, 1, 3, 4 },
};

START_TEST(round_trip)
{
	size_t i, checked = 0;
	int k;

	for (i = 0; i < sizeof(lays) / sizeof(lays[0]); i++)
		for (k = 0; k < EMIT_N; k++) {
			struct cm_config c;
			struct pl_err err;
			char why[EMIT_WHY_LEN], *t;

			layout(&c, lays[i].model, lays[i].g, lays[i].d,
			    lays[i].t, lays[i].p, lays[i].z, lays[i].b);
			if (emit_refuse(&c, k, why, sizeof(why)) != 0)
				continue;
			t = test_emitted(&c, k);
			ck_assert_msg(check_text(t, strlen(t), &c, &err) == 0,
			    "%s layout %zu: %s\n%s", emit_kind_names[k], i,
			    err.msg, t);
			free(t);
			checked++;
		}
	/* 14 of the 20 pairs are writable today (emit_refuse) */
	ck_assert_uint_ge(checked, 14);
}
END_TEST

START_TEST(wrong_tp_named_with_line)
{
	struct cm_config c;
	struct pl_err err;
	char *t;

	layout(&c, "llama3-8b", 16, 4, 2, 2, 1, 1);
	t = test_emitted(&c, EMIT_TORCHTITAN);
	replace(&t, "tensor_parallel_degree = 2", "tensor_parallel_degree = 4");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), 1);
	ck_assert_ptr_nonnull(strstr(err.msg, "tensor_parallel_degree is 4"));
	ck_assert_int_gt(err.line, 0);
	free(t);

	t = test_emitted(&c, EMIT_MEGATRON);
	replace(&t, "--tensor-model-parallel-size 2",
	    "--tensor-model-parallel-size 8");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), 1);
	ck_assert_ptr_nonnull(strstr(err.msg,
	    "--tensor-model-parallel-size is 8"));
	ck_assert_int_gt(err.line, 3);
	free(t);

	t = test_emitted(&c, EMIT_DEEPSPEED);
	replace(&t, "\"autotp_size\": 2", "\"autotp_size\": 1");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), 1);
	ck_assert_ptr_nonnull(strstr(err.msg, "autotp_size is 1"));
	free(t);

	t = test_emitted(&c, EMIT_SBATCH);
	replace(&t, "--nodes=2", "--nodes=3");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), 1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--nodes is 3"));
	free(t);
}
END_TEST

START_TEST(missing_key)
{
	struct cm_config c;
	struct pl_err err;
	char *t;

	layout(&c, "llama3-8b", 16, 16, 1, 1, 2, 1);
	t = test_emitted(&c, EMIT_MEGATRON);
	replace(&t, "--micro-batch-size 1\n", "");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), 1);
	ck_assert_ptr_nonnull(strstr(err.msg, "micro-batch"));
	free(t);

	t = test_emitted(&c, EMIT_DEEPSPEED);
	replace(&t, "\"stage\": 2", "\"stag\": 2");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), 1);
	ck_assert_ptr_nonnull(strstr(err.msg, "zero_optimization.stage"));
	free(t);
}
END_TEST

START_TEST(bad_input_refused)
{
	struct cm_config c;
	struct pl_err err;
	char *t, *big;
	size_t n = EMIT_READ_MAX + 10;

	layout(&c, "llama3-8b", 16, 16, 1, 1, 2, 1);
	ck_assert_int_eq(check_text("hello world\n", 12, &c, &err), -1);
	ck_assert_str_eq(err.file, "f.cfg");
	ck_assert_int_eq(check_text("{ \"train", 8, &c, &err), -1);
	ck_assert_int_eq(check_text("", 0, &c, &err), -1);

	t = test_emitted(&c, EMIT_TORCHTITAN);
	replace(&t, "tensor_parallel_degree = 1", "tensor_parallel_degree = x");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "tensor_parallel_degree"));
	ck_assert_int_gt(err.line, 0);

	t[10] = '\0';		/* a NUL byte in the comment */
	ck_assert_int_eq(check_text(t, 20, &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "NUL"));
	ck_assert_int_eq(err.line, 1);
	free(t);

	big = malloc(n);
	ck_assert_ptr_nonnull(big);
	memset(big, '#', n);
	ck_assert_int_eq(check_text(big, n, &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "too large"));
	free(big);

	t = test_emitted(&c, EMIT_SBATCH);
	replace(&t, "\nPARLEARN_CONFIG\n", "\n");
	ck_assert_int_eq(check_text(t, strlen(t), &c, &err), -1);
	free(t);
}
END_TEST

/*
 * What the student screen shows of labs/emit-config.json's step: the
 * layout in words and the targets, not a command to paste (saying the
 * layout with plan's options is what the step asks).
 */
START_TEST(step_shows_layout_not_command)
{
	struct pl_err err;
	struct lab_script *ls = lab_script_load(TOP_SRCDIR
	    "/labs/emit-config.json", &err);
	char buf[300];

	ck_assert_msg(ls != NULL, "%s", err.msg);
	ck_assert_int_eq(ls->steps[0].kind, LAB_STEP_EMIT);
	ck_assert_str_eq(lab_emit_layout(&ls->steps[0], buf, sizeof buf),
	    "DP 4, TP 2, PP 2, CP 1, EP 1, ZeRO 1, micro-batch 1, "
	    "global batch 512");
	ck_assert_ptr_null(strstr(buf, "--"));
	ck_assert_str_eq(lab_emit_targets(&ls->steps[0], buf, sizeof buf),
	    "torchtitan, megatron, sbatch");
	lab_script_free(ls);
}
END_TEST


static Suite *
emit_read_suite(void)
{
	Suite *s = suite_create("emit_read");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, wrong_tp_named_with_line);
	tcase_add_test(tc, missing_key);
	tcase_add_test(tc, bad_input_refused);
	tcase_add_test(tc, step_shows_layout_not_command);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(emit_read_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
