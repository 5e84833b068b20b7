/*
 * check_cmd_srs.c - `parlearn srs replay`, called as main() calls it, with
 * its output captured and its JSON checked against the py-fsrs vectors
 * (reference/srs.md §2.1) and hand-computed FSRS-6 steps.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "capture.h"

#define TOL	1e-4


static const struct cli_ctx ctx = { .db_path = "/nonexistent/db",
    .profile = "x" };

/* Run `srs ARGS...` (NULL-terminated) and capture it. */
static void
srs(struct capture *c, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	va_start(ap, c);
	argv[argc++] = "srs";
	while ((argv[argc] = va_arg(ap, char *)) != NULL && argc < 31)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	capture_run(cli_srs_main, &ctx, argc, argv, c);
}

/* The steps array of the captured JSON; *root to free. */
static cJSON *
steps(const struct capture *c, cJSON **root, int n)
{
	cJSON *s;

	ck_assert_int_eq(c->rc, 0);
	ck_assert_str_eq(c->err, "");
	*root = cJSON_Parse(c->out);
	ck_assert_ptr_nonnull(*root);
	s = cJSON_GetObjectItem(*root, "steps");
	ck_assert(cJSON_IsArray(s));
	ck_assert_int_eq(cJSON_GetArraySize(s), n);
	return s;
}

static double
num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);

	ck_assert_msg(cJSON_IsNumber(v), "%s is not a number", k);
	return v->valuedouble;
}

static const char *
str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);

	ck_assert_msg(cJSON_IsString(v), "%s is not a string", k);
	return v->valuestring;
}

/* An error: exit 1, nothing on stdout, one line starting "parlearn: ". */
static void
check_usage_error(struct capture *c, const char *needle)
{
	ck_assert_int_eq(c->rc, 1);
	ck_assert_str_eq(c->out, "");
	ck_assert_msg(strncmp(c->err, "parlearn: ", 10) == 0, "%s", c->err);
	ck_assert_ptr_eq(strchr(c->err, '\n'), c->err + strlen(c->err) - 1);
	ck_assert_msg(strstr(c->err, needle) != NULL, "%s", c->err);
	capture_free(c);
}

START_TEST(test_pyfsrs_vector)
{
	static const int ivl[13] = { 0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12,
	    21 };
	static const double s[13] = { 2.306500, 2.306500, 10.971048,
	    46.316858, 162.999816, 497.876555, 6.890413, 2.154598, 2.154598,
	    3.983123, 7.236254, 12.483044, 20.770357 };
	static const double d[13] = { 2.118104, 2.111214, 2.104331, 2.097455,
	    2.090586, 2.083724, 7.383202, 9.125105, 9.111208, 9.097325,
	    9.083456, 9.069601, 9.055760 };
	static const char *const state[13] = { "learning", "review", "review",
	    "review", "review", "review", "relearning", "relearning", "review",
	    "review", "review", "review", "review" };
	static const char *const due[13] = { "2022-11-29T12:40:00Z",
	    "2022-12-01T12:40:00Z", "2022-12-12T12:40:00Z",
	    "2023-01-27T12:40:00Z", "2023-07-09T12:40:00Z",
	    "2024-11-18T12:40:00Z", "2024-11-18T12:50:00Z",
	    "2024-11-18T13:00:00Z", "2024-11-20T13:00:00Z",
	    "2024-11-24T13:00:00Z", "2024-12-01T13:00:00Z",
	    "2024-12-13T13:00:00Z", "2025-01-03T13:00:00Z" };
	struct capture c;
	cJSON *root, *arr, *st;
	int i;

	srs(&c, "replay", "--ratings", "3,3,3,3,3,3,1,1,3,3,3,3,3",
	    "--start", "2022-11-29T12:30:00Z", "--no-fuzz", "--json", NULL);
	arr = steps(&c, &root, 13);
	for (i = 0; i < 13; i++) {
		st = cJSON_GetArrayItem(arr, i);
		ck_assert_str_eq(str(st, "rating"), i == 6 || i == 7 ? "again" :
		    "good");
		ck_assert_int_eq((int)num(st, "interval_days"), ivl[i]);
		ck_assert_double_eq_tol(num(st, "stability_days"), s[i], TOL);
		ck_assert_double_eq_tol(num(st, "difficulty"), d[i], TOL);
		ck_assert_str_eq(str(st, "state"), state[i]);
		ck_assert_str_eq(str(st, "due"), due[i]);
	}
	st = cJSON_GetArrayItem(arr, 0);
	ck_assert_str_eq(str(st, "reviewed"), "2022-11-29T12:30:00Z");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(st, "retrievability")));
	ck_assert_int_eq((int)num(st, "interval_s"), 600);
	/* Reviewed on its due date, 11 days on: R(11, 10.971048). */
	ck_assert_double_eq_tol(num(cJSON_GetArrayItem(arr, 3),
	    "retrievability"), 0.8998188, 1e-6);
	cJSON_Delete(root);
	capture_free(&c);
}
END_TEST

/* Names and numbers mix; the same list by name gives the same output. */
START_TEST(test_rating_names)
{
	struct capture a, b;

	srs(&a, "replay", "--ratings", "Again, hard,GOOD,easy", "--start",
	    "2024-01-01", "--no-fuzz", "--json", NULL);
	srs(&b, "replay", "--ratings", "1,2,3,4", "--start",
	    "2024-01-01T00:00:00Z", "--no-fuzz", "--json", NULL);
	ck_assert_int_eq(a.rc, 0);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_ptr_nonnull(strstr(a.out, "\"rating\":\t\"hard\""));
	capture_free(&a);
	capture_free(&b);
}
END_TEST

/*
 * Good, Good at the same moment, Good one day later (early: due in 2),
 * Hard half a day after that (same day).
 */
START_TEST(test_elapsed_days)
{
	static const double s[4] = { 2.3065, 2.3065, 7.319186, 7.319186 };
	static const double d[4] = { 2.118104, 2.111214, 2.104331, 4.743716 };
	static const int ivl[4] = { 0, 2, 7, 7 };
	static const char *const when[4] = { "2024-01-01T00:00:00Z",
	    "2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z",
	    "2024-01-02T12:00:00Z" };
	struct capture c;
	cJSON *root, *arr, *st;
	int i;

	srs(&c, "replay", "--ratings", "good,good,good,hard", "--elapsed-days",
	    "0,0,1,0.5", "--start", "2024-01-01", "--no-fuzz", "--json", NULL);
	arr = steps(&c, &root, 4);
	for (i = 0; i < 4; i++) {
		st = cJSON_GetArrayItem(arr, i);
		ck_assert_double_eq_tol(num(st, "stability_days"), s[i], TOL);
		ck_assert_double_eq_tol(num(st, "difficulty"), d[i], TOL);
		ck_assert_int_eq((int)num(st, "interval_days"), ivl[i]);
		ck_assert_str_eq(str(st, "reviewed"), when[i]);
	}
	ck_assert_int_eq((int)num(cJSON_GetArrayItem(arr, 2), "elapsed_days"),
	    1);
	ck_assert_double_eq_tol(num(cJSON_GetArrayItem(arr, 2),
	    "retrievability"), 0.9468475, 1e-6);
	ck_assert_str_eq(str(cJSON_GetArrayItem(arr, 3), "due"),
	    "2024-01-09T12:00:00Z");
	cJSON_Delete(root);
	capture_free(&c);
}
END_TEST

START_TEST(test_options_change_schedule)
{
	struct capture c;
	cJSON *root, *arr;

	/* No learning steps: Good graduates at once (round(2.3065) = 2). */
	srs(&c, "replay", "--ratings", "good", "--learning-steps", "",
	    "--start", "2024-01-01", "--no-fuzz", "--json", NULL);
	arr = steps(&c, &root, 1);
	ck_assert_str_eq(str(cJSON_GetArrayItem(arr, 0), "state"), "review");
	ck_assert_str_eq(str(cJSON_GetArrayItem(arr, 0), "due"),
	    "2024-01-03T00:00:00Z");
	cJSON_Delete(root);
	capture_free(&c);
	/* Retention 0.70 on the third Good of the trace: 102 days, not 11. */
	srs(&c, "replay", "--ratings", "good,good,good", "--retention", "0.70",
	    "--learning-steps", "1m,10m", "--start", "2022-11-29T12:30:00Z",
	    "--no-fuzz", "--json", NULL);
	arr = steps(&c, &root, 3);
	ck_assert_int_eq((int)num(cJSON_GetArrayItem(arr, 1), "interval_days"),
	    21);
	cJSON_Delete(root);
	capture_free(&c);
	/* Cap: Easy four times under a 5-day maximum. */
	srs(&c, "replay", "--ratings", "4,4,4,4", "--max-interval", "5",
	    "--start", "2024-01-01", "--no-fuzz", "--json", NULL);
	arr = steps(&c, &root, 4);
	ck_assert_int_eq((int)num(cJSON_GetArrayItem(arr, 0), "interval_days"),
	    5);
	ck_assert_int_eq((int)num(cJSON_GetArrayItem(arr, 3), "interval_days"),
	    5);
	cJSON_Delete(root);
	capture_free(&c);
	/* One 30-second relearning step, after a lapse. */
	srs(&c, "replay", "--ratings", "easy,again", "--relearning-steps",
	    "30s", "--start", "2024-01-01", "--no-fuzz", "--json", NULL);
	arr = steps(&c, &root, 2);
	ck_assert_int_eq((int)num(cJSON_GetArrayItem(arr, 1),
	    "interval_s"), 30);
	ck_assert_str_eq(str(cJSON_GetArrayItem(arr, 1), "state"),
	    "relearning");
	cJSON_Delete(root);
	capture_free(&c);
}
END_TEST

/* FSRS-5 weights (19 values) are accepted; decay 0.5 changes intervals. */
START_TEST(test_params)
{
	struct capture c;
	cJSON *root, *arr;

	srs(&c, "replay", "--ratings", "good,good", "--start", "2024-01-01",
	    "--no-fuzz", "--json", "--params",
	    "0.212,1.2931,2.3065,8.2956,6.4133,0.8334,3.0194,0.001,1.8722,"
	    "0.1666,0.796,1.4835,0.0614,0.2629,1.6483,0.6014,1.8729,0.5425,"
	    "0.0912", NULL);
	arr = steps(&c, &root, 2);
	/* w19 = 0: same-day Good multiplies S by e^(0.5425 * 0.0912). */
	ck_assert_double_eq_tol(num(cJSON_GetArrayItem(arr, 1),
	    "stability_days"), 2.4234865, 1e-6);
	cJSON_Delete(root);
	capture_free(&c);
}
END_TEST

START_TEST(test_fuzz_deterministic)
{
	struct capture a, b;
	cJSON *root, *arr;
	int ivl;

	srs(&a, "replay", "--ratings", "3,3,3,3", "--card-id", "12345",
	    "--start", "2024-01-01", "--json", NULL);
	srs(&b, "replay", "--ratings", "3,3,3,3", "--card-id", "12345",
	    "--start", "2024-01-01", "--json", NULL);
	ck_assert_str_eq(a.out, b.out);
	arr = steps(&a, &root, 4);
	/* Raw interval 10.97 days: the fuzz range is [9, 13]. */
	ivl = (int)num(cJSON_GetArrayItem(arr, 2), "interval_days");
	ck_assert_int_ge(ivl, 9);
	ck_assert_int_le(ivl, 13);
	cJSON_Delete(root);
	capture_free(&a);
	capture_free(&b);
}
END_TEST

START_TEST(test_table)
{
	struct capture c;

	srs(&c, "replay", "--ratings", "good,good", "--start",
	    "2022-11-29T12:30:00Z", "--no-fuzz", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "desired retention 0.90"));
	ck_assert_ptr_nonnull(strstr(c.out, "Learning steps: 1m 10m"));
	ck_assert_ptr_nonnull(strstr(c.out, "  1  good    2022-11-29T12:30:00Z"
	    "  -       learning         10m     2.3065      2.1181  "
	    "2022-11-29T12:40:00Z\n"));
	ck_assert_ptr_nonnull(strstr(c.out, "  2  good    2022-11-29T12:40:00Z"
	    "  100.0%  review            2d     2.3065      2.1112  "
	    "2022-12-01T12:40:00Z\n"));
	capture_free(&c);
}
END_TEST

START_TEST(test_help)
{
	struct capture c;

	srs(&c, "replay", "--help", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Usage: parlearn srs replay"));
	capture_free(&c);
	srs(&c, "--help", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "--ratings"));
	capture_free(&c);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct capture c;

	srs(&c, NULL);
	check_usage_error(&c, "replay");
	srs(&c, "replay2", NULL);
	check_usage_error(&c, "replay2");
	srs(&c, "replay", "--json", NULL);
	check_usage_error(&c, "--ratings");
	srs(&c, "replay", "--ratings", "good,meh", NULL);
	check_usage_error(&c, "'meh'");
	srs(&c, "replay", "--ratings", "5", NULL);
	check_usage_error(&c, "'5'");
	srs(&c, "replay", "--ratings", "", NULL);
	check_usage_error(&c, "--ratings");
	srs(&c, "replay", "--ratings", "good", "--retention", "0.5", NULL);
	check_usage_error(&c, "0.5");
	srs(&c, "replay", "--ratings", "good", "--retention", "0.98", NULL);
	check_usage_error(&c, "--retention");
	srs(&c, "replay", "--ratings", "good", "--retention", "x", NULL);
	check_usage_error(&c, "--retention");
	srs(&c, "replay", "--ratings", "good", "--params", "1,2,3", NULL);
	check_usage_error(&c, "17, 19 or 21");
	srs(&c, "replay", "--ratings", "good", "--start", "2024-02-30", NULL);
	check_usage_error(&c, "--start");
	srs(&c, "replay", "--ratings", "good", "--start", "yesterday", NULL);
	check_usage_error(&c, "--start");
	srs(&c, "replay", "--ratings", "good,good", "--elapsed-days", "0",
	    NULL);
	check_usage_error(&c, "one value per rating (2), got 1");
	srs(&c, "replay", "--ratings", "good", "--elapsed-days", "-1", NULL);
	check_usage_error(&c, "'-1'");
	srs(&c, "replay", "--ratings", "good", "--learning-steps", "1m,0m",
	    NULL);
	check_usage_error(&c, "'0m'");
	srs(&c, "replay", "--ratings", "good", "--learning-steps", "10x",
	    NULL);
	check_usage_error(&c, "'10x'");
	srs(&c, "replay", "--ratings", "good", "--max-interval", "0", NULL);
	check_usage_error(&c, "--max-interval");
	srs(&c, "replay", "--ratings", "good", "extra", NULL);
	check_usage_error(&c, "'extra'");
	srs(&c, "replay", "--ratings", "good", "--bogus", NULL);
	check_usage_error(&c, "'--bogus'");
	srs(&c, "replay", "--ratings", NULL);
	check_usage_error(&c, "'--ratings'");
}
END_TEST

/*
 * --start is read as UTC in any time zone, and dates print back the same;
 * Good with no learning steps is due two days later, across month, leap
 * day and year ends. Dates that do not exist, or in other shapes, are
 * refused.
 */
START_TEST(test_start_calendar)
{
	static const struct {
		const char	*start, *reviewed, *due;
	} ok[] = {
		{ "1970-01-01", "1970-01-01T00:00:00Z", "1970-01-03T00:00:00Z" },
		{ "2024-02-28", "2024-02-28T00:00:00Z", "2024-03-01T00:00:00Z" },
		{ "2023-02-28", "2023-02-28T00:00:00Z", "2023-03-02T00:00:00Z" },
		{ "2024-02-29T08:15", "2024-02-29T08:15:00Z",
		    "2024-03-02T08:15:00Z" },
		{ "2024-12-31 23:59:59", "2024-12-31T23:59:59Z",
		    "2025-01-02T23:59:59Z" },
		{ "2100-02-28T12:00:00+00:00", "2100-02-28T12:00:00Z",
		    "2100-03-02T12:00:00Z" },
	};
	static const char *const bad[] = {
		"2023-02-29", "2100-02-29", "2024-04-31", "2024-13-01",
		"2024-00-10", "2024-01-00", "1969-12-31", "2024-01-01T24:00",
		"2024-01-01T12:60", "2024-01-01T12:30:60", "2024-1-1",
		" 2024-01-01", "2024-01-01x", "2024-01-01T12:30+01:00",
		"2024-01-01T", "",
	};
	struct capture c;
	cJSON *root, *arr;
	size_t i;

	setenv("TZ", "America/New_York", 1);
	tzset();
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		srs(&c, "replay", "--ratings", "good", "--learning-steps", "",
		    "--start", ok[i].start, "--no-fuzz", "--json", NULL);
		arr = steps(&c, &root, 1);
		ck_assert_str_eq(str(cJSON_GetArrayItem(arr, 0), "reviewed"),
		    ok[i].reviewed);
		ck_assert_str_eq(str(cJSON_GetArrayItem(arr, 0), "due"),
		    ok[i].due);
		cJSON_Delete(root);
		capture_free(&c);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		srs(&c, "replay", "--ratings", "good", "--start", bad[i], NULL);
		ck_assert_msg(c.rc == 1, "--start '%s' accepted", bad[i]);
		check_usage_error(&c, "--start");
	}
}
END_TEST

static Suite *
cmd_srs_suite(void)
{
	Suite *s = suite_create("cmd_srs");
	TCase *tc;

	tc = tcase_create("reference vectors");
	tcase_add_test(tc, test_pyfsrs_vector);
	tcase_add_test(tc, test_elapsed_days);
	tcase_add_test(tc, test_params);
	suite_add_tcase(s, tc);

	tc = tcase_create("options");
	tcase_add_test(tc, test_rating_names);
	tcase_add_test(tc, test_options_change_schedule);
	tcase_add_test(tc, test_fuzz_deterministic);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_start_calendar);
	suite_add_tcase(s, tc);

	tc = tcase_create("bad arguments");
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cmd_srs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
