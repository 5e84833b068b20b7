/*
 * check_cmd_trace.c - `parlearn trace` called as main() calls it, with its
 * output captured: the JSON contract, the Gantt chart, the exit codes.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/sim/schedule.h"
#include "capture.h"

static struct cli_ctx ctx = { NULL, NULL, "/nonexistent/progress.db", "t" };

/* Run `trace ARGS...` (NULL-terminated) and capture it. */
static void
trace(struct capture *c, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;

	argv[argc++] = "trace";
	va_start(ap, c);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	capture_run(cli_trace_main, &ctx, argc, argv, c);
}

static double
num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	ck_assert_msg(cJSON_IsNumber(v), "\"%s\" is not a number", k);
	return v->valuedouble;
}

/* Parse the output; check the contract's fields on every event. */
static cJSON *
parse(const struct capture *c)
{
	static const char *const kinds[] = { "forward", "backward",
	    "all-reduce", "all-gather", "reduce-scatter", "send", "receive",
	    "optimizer", "idle" };
	cJSON *root = cJSON_Parse(c->out), *ev, *e;
	double sum = 0;
	size_t i;
	int ok;

	ck_assert_int_eq(c->rc, 0);
	ck_assert_ptr_nonnull(root);
	ev = cJSON_GetObjectItemCaseSensitive(root, "events");
	ck_assert(cJSON_IsArray(ev) && cJSON_GetArraySize(ev) > 0);
	cJSON_ArrayForEach(e, ev) {
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kind");

		ck_assert(cJSON_IsString(k));
		for (ok = 0, i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
			ok |= strcmp(k->valuestring, kinds[i]) == 0;
		ck_assert_msg(ok, "kind %s", k->valuestring);
		ck_assert(num(e, "device") >= 0);
		ck_assert(num(e, "layer") >= 0 && num(e, "layer") <= 4);
		ck_assert(num(e, "microbatch") >= -1);
		ck_assert(num(e, "end") >= num(e, "start"));
		if (strcmp(k->valuestring, "receive") != 0)
			sum += num(e, "bytes");
	}
	ck_assert_double_eq(num(root, "bytes_moved"), sum);
	ck_assert(num(root, "max_grad_error") < 1e-9);
	ck_assert(num(root, "loss") > 0);
	ck_assert(num(root, "bubble_fraction") >= 0);
	return root;
}

START_TEST(json_every_mode)
{
	static const char *const modes[] = { "single", "dp", "tp", "pp",
	    "fsdp", "3d" };
	struct capture c;
	cJSON *a, *b;
	double loss0 = 0;
	int i;

	for (i = 0; i < 6; i++) {
		trace(&c, "--mode", modes[i], "--json", NULL);
		a = parse(&c);
		if (i == 0)
			loss0 = num(a, "loss");
		ck_assert_double_eq_tol(num(a, "loss"), loss0, 1e-9);
		b = cJSON_GetObjectItemCaseSensitive(a, "mode");
		ck_assert_str_eq(b->valuestring, modes[i]);
		ck_assert_double_eq(num(a, "gpus"), i == 0 ? 1 : i == 5 ? 8 : 4);
		cJSON_Delete(a);
		capture_free(&c);
	}
}
END_TEST

START_TEST(json_bubble)
{
	struct capture c;
	cJSON *a;

	trace(&c, "--mode", "pp", "--gpus", "2", "--schedule", "interleaved",
	    "--microbatches", "4", "--compute-only", "--json", NULL);
	a = parse(&c);
	ck_assert_double_eq_tol(num(a, "bubble_fraction"),
	    pipe_bubble_fraction(2, 4, 2), 1e-9);
	ck_assert_double_eq(num(a, "virtual_stages"), 2);
	cJSON_Delete(a);
	capture_free(&c);
	trace(&c, "--mode", "pp", "--schedule", "gpipe", "--compute-only",
	    "--json", NULL);
	a = parse(&c);
	ck_assert_double_eq_tol(num(a, "bubble_fraction"), 3.0 / 11, 1e-9);
	ck_assert_double_eq(num(a, "microbatches"), 8);
	cJSON_Delete(a);
	capture_free(&c);
}
END_TEST

START_TEST(json_dp_bytes)
{
	struct capture c;
	cJSON *a;

	/* Ring all-reduce of 1088 doubles over 4: 2 * 3/4 * 8704 each. */
	trace(&c, "--mode", "dp", "--json", NULL);
	a = parse(&c);
	ck_assert_double_eq(num(a, "bytes_moved"), 4 * 13056);
	ck_assert_double_eq(num(a, "bubble_fraction"), 0);
	cJSON_Delete(a);
	capture_free(&c);
}
END_TEST

START_TEST(gantt)
{
	struct capture c;

	trace(&c, "--mode", "pp", "--gpus", "2", "--microbatches", "4", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "dev  0 |AAAABBBB."));
	ck_assert_ptr_nonnull(strstr(c.out, "dev  1 |....AAAA"));
	ck_assert_ptr_null(strstr(c.out, "dev  2 |"));
	ck_assert_ptr_nonnull(strstr(c.out, "legend"));
	ck_assert_ptr_nonnull(strstr(c.out, "bubble"));
	ck_assert_ptr_nonnull(strstr(c.out, "formula (p-1)/(v*m+p-1) 0.2000"));
	capture_free(&c);
	trace(&c, "--mode", "tp", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "="));
	capture_free(&c);
}
END_TEST

/* rc 1, one line on stderr starting "parlearn: " and holding want. */
static void
expect_usage_error(struct capture *c, const char *want)
{
	ck_assert_int_eq(c->rc, 1);
	ck_assert_str_eq(c->out, "");
	ck_assert_msg(strncmp(c->err, "parlearn: ", 10) == 0, "%s", c->err);
	ck_assert_ptr_nonnull(strstr(c->err, want));
	ck_assert_ptr_eq(strchr(c->err, '\n'), c->err + strlen(c->err) - 1);
	capture_free(c);
}

START_TEST(errors)
{
	struct capture c;

	trace(&c, "--mode", "pp", "--gpus", "3", NULL);
	expect_usage_error(&c, "layers");
	trace(&c, "--mode", "pp", "--microbatches", "0", NULL);
	expect_usage_error(&c, "at least 1");
	trace(&c, "--mode", "zero", NULL);
	expect_usage_error(&c, "unknown mode 'zero'");
	trace(&c, "--mode", "3d", "--gpus", "4", NULL);
	expect_usage_error(&c, "--gpus 8");
	trace(&c, "--gpus", "four", NULL);
	expect_usage_error(&c, "whole number");
	trace(&c, "--schedule", "zigzag", NULL);
	expect_usage_error(&c, "unknown schedule");
	trace(&c, "stray", NULL);
	expect_usage_error(&c, "unexpected argument");
	trace(&c, "--bogus", NULL);
	ck_assert_int_eq(c.rc, 1);
	capture_free(&c);
}
END_TEST

START_TEST(help)
{
	struct capture c;

	trace(&c, "--help", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Usage: parlearn trace"));
	ck_assert_ptr_nonnull(strstr(c.out, "--virtual-stages"));
	capture_free(&c);
}
END_TEST

static Suite *
cmd_trace_suite(void)
{
	Suite *s = suite_create("cmd_trace");
	TCase *tc;

	tc = tcase_create("json contract");
	tcase_add_test(tc, json_every_mode);
	tcase_add_test(tc, json_bubble);
	tcase_add_test(tc, json_dp_bytes);
	suite_add_tcase(s, tc);
	tc = tcase_create("text output");
	tcase_add_test(tc, gantt);
	tcase_add_test(tc, help);
	suite_add_tcase(s, tc);
	tc = tcase_create("usage errors");
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cmd_trace_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
