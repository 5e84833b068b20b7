/*
 * check_number.c - numbers read and written the same in every locale
 * (core/number.c).
 *
 * The "decimal comma" case runs under de_DE.UTF-8, where the C library's
 * own strtod refuses "12.5" and printf writes "12,5": it is what a German
 * learner's parlearn sees. .ci/run generates that locale; outside CI a
 * machine without it skips that case (exit 77 after the others pass).
 */
#include <check.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/number.h"

static const char *comma_locale;	/* a locale whose decimal point is ',' */

static double
parsed(const char *s, unsigned flags)
{
	double v = -12345;

	ck_assert_msg(pl_parse_double(s, flags, &v) == 0, "\"%s\" refused", s);
	return v;
}

static void
refused(const char *s, unsigned flags)
{
	double v = -12345;

	ck_assert_msg(pl_parse_double(s, flags, &v) == -1,
	    "\"%s\" accepted as %g", s, v);
	ck_assert(v == -12345);
}

static long
whole(const char *s, long min, long max)
{
	long v = -12345;

	ck_assert_msg(pl_parse_long(s, min, max, &v) == 0, "\"%s\" refused", s);
	return v;
}

static void
not_whole(const char *s, long min, long max)
{
	long v = -12345;

	ck_assert_msg(pl_parse_long(s, min, max, &v) == -1,
	    "\"%s\" accepted as %ld", s, v);
	ck_assert(v == -12345);
}

START_TEST(whole_numbers)
{
	ck_assert(whole("4", 1, 8) == 4);
	ck_assert(whole("  12 ", 0, 100) == 12);
	ck_assert(whole("+7", 0, 100) == 7);
	ck_assert(whole("-3", -5, 5) == -3);
	ck_assert(whole("-0", 0, 0) == 0);
	ck_assert(whole("007", 0, 10) == 7);
	/* Sign: a negative number where only positive ones are asked. */
	not_whole("-1", 0, 10);
	/* Trailing junk, and forms strtod or strtol would take. */
	not_whole("4x", 1, 8);
	not_whole("4 x", 1, 8);
	not_whole("1e3", 0, 10000);
	not_whole("1.0", 0, 10);
	not_whole("0x10", 0, 100);
	not_whole("1,000", 0, 10000);
	not_whole("1 000", 0, 10000);
	/* Empty, spaces or a sign alone. */
	not_whole("", 0, 10);
	not_whole("   ", 0, 10);
	not_whole("-", -10, 10);
	not_whole("+ 1", 0, 10);
	ck_assert(pl_parse_long(NULL, 0, 10, &(long){ 0 }) == -1);
}
END_TEST

START_TEST(whole_bounds)
{
	char b[64];

	ck_assert(whole("1", 1, 8) == 1);
	ck_assert(whole("8", 1, 8) == 8);
	not_whole("0", 1, 8);
	not_whole("9", 1, 8);
	not_whole("5", 6, 4);	/* an empty range */
	/* The ends of long itself, and one past them. */
	snprintf(b, sizeof b, "%ld", LONG_MAX);
	ck_assert(whole(b, LONG_MIN, LONG_MAX) == LONG_MAX);
	snprintf(b, sizeof b, "%ld", LONG_MIN);
	ck_assert(whole(b, LONG_MIN, LONG_MAX) == LONG_MIN);
	snprintf(b, sizeof b, "%lu", (unsigned long)LONG_MAX + 1);
	not_whole(b, LONG_MIN, LONG_MAX);
	snprintf(b, sizeof b, "-%lu", (unsigned long)LONG_MAX + 2);
	not_whole(b, LONG_MIN, LONG_MAX);
	not_whole("99999999999999999999999999", LONG_MIN, LONG_MAX);
	/* Beyond int, as --gpus bounds it. */
	not_whole("2147483648", 1, INT_MAX);
	ck_assert(whole("2147483647", 1, INT_MAX) == INT_MAX);
}
END_TEST

START_TEST(plain_numbers)
{
	ck_assert(parsed("12.5", 0) == 12.5);
	ck_assert(parsed("  -3 ", 0) == -3);
	ck_assert(parsed("+0.85", 0) == 0.85);
	ck_assert(parsed(".5", 0) == 0.5);
	ck_assert(parsed("5.", 0) == 5);
	ck_assert(parsed("107.8", 0) == 107.8);
}
END_TEST

START_TEST(scientific)
{
	ck_assert(parsed("7.5e9", 0) == 7.5e9);
	ck_assert(parsed("1E-3", 0) == 1e-3);
	ck_assert(parsed("2.5e+2", 0) == 250);
	refused("1e", 0);
	refused("2e+", 0);
	refused("1e400", 0);	/* overflows to inf */
}
END_TEST

START_TEST(garbage)
{
	static const char *const bad[] = { "", " ", "abc", "inf", "nan",
	    "-inf", "0x10", "1.2.3", "1 2", "12a", "--1", ".", "-", "1,5",
	    "%", "5%%", NULL };
	int i;

	for (i = 0; bad[i] != NULL; i++)
		refused(bad[i], PL_NUM_RATIO | PL_NUM_FRACTION);
	refused(NULL, 0);
}
END_TEST

START_TEST(percent)
{
	/* A fraction asked: 27% is 0.27; a percentage asked: 27% is 27. */
	ck_assert(parsed("27%", PL_NUM_FRACTION) == 0.27);
	ck_assert(parsed("27 %", PL_NUM_FRACTION) == 0.27);
	ck_assert(parsed("27%", 0) == 27);
	ck_assert(parsed("0.27", PL_NUM_FRACTION) == 0.27);
	ck_assert(parsed("1.5e1%", PL_NUM_FRACTION) == 0.15);
}
END_TEST

START_TEST(ratio)
{
	ck_assert(fabs(parsed("3/11", PL_NUM_RATIO) - 3.0 / 11) < 1e-15);
	ck_assert(parsed(" 3 / 12 ", PL_NUM_RATIO) == 0.25);
	ck_assert(parsed("1.5/3", PL_NUM_RATIO) == 0.5);
	refused("3/11", 0);
	refused("3/0", PL_NUM_RATIO);
	refused("3/", PL_NUM_RATIO);
	refused("3/11/2", PL_NUM_RATIO);
	refused("3/11%", PL_NUM_RATIO);
}
END_TEST

START_TEST(c_locale_comma)
{
	/* In a locale whose point is '.', a comma is never a decimal point. */
	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C"));
	refused("107,8", PL_NUM_LOCALE);
	refused("1,000", PL_NUM_LOCALE);
}
END_TEST

START_TEST(formatting_c)
{
	char b[64];

	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C"));
	ck_assert_str_eq(pl_num_c(b, sizeof b, 0.85, 'g', 3), "0.85");
	ck_assert_str_eq(pl_num_c(b, sizeof b, 12.5, 'f', 2), "12.50");
	ck_assert_str_eq(pl_num_c(b, sizeof b, 7.5e9, 'e', 1), "7.5e+09");
	ck_assert_str_eq(pl_num_local(b, sizeof b, 107.8, 'f', 1), "107.8");
	ck_assert_str_eq(pl_num_c(b, 4, 107.8, 'f', 1), "107");
}
END_TEST

/* Under a decimal-comma locale: what a German learner's parlearn does. */
START_TEST(decimal_comma)
{
	char b[64], *end;
	double v;

	ck_assert_ptr_nonnull(setlocale(LC_ALL, comma_locale));
	/* The C library alone gets this wrong: the bug this module fixes. */
	v = strtod("12.5", &end);
	ck_assert(v == 12 && *end == '.');
	snprintf(b, sizeof b, "%.1f", 107.8);
	ck_assert_str_eq(b, "107,8");

	/* '.' always works: options, files, the answer box. */
	ck_assert(parsed("12.5", 0) == 12.5);
	ck_assert(parsed("0.85", 0) == 0.85);
	ck_assert(parsed("7.5e9", 0) == 7.5e9);
	ck_assert(parsed("27%", PL_NUM_FRACTION) == 0.27);
	/* The locale's comma only where asked (the TUI's answer box). */
	ck_assert(parsed("107,8", PL_NUM_LOCALE) == 107.8);
	ck_assert(parsed("-0,5e3", PL_NUM_LOCALE) == -500);
	ck_assert(parsed("3/4", PL_NUM_LOCALE | PL_NUM_RATIO) == 0.75);
	ck_assert(parsed("2,5/10", PL_NUM_LOCALE | PL_NUM_RATIO) == 0.25);
	ck_assert(parsed("27,5%", PL_NUM_LOCALE | PL_NUM_FRACTION) == 0.275);
	refused("107,8", 0);
	/* Whole numbers: no grouping, whatever the locale's. */
	ck_assert(whole("1078", 0, 10000) == 1078);
	not_whole("1.078", 0, 10000);
	not_whole("1,078", 0, 10000);
	/* A '.' is a decimal point, never a thousands separator. */
	ck_assert(parsed("1.078", PL_NUM_LOCALE) == 1.078);
	refused("1.078,5", PL_NUM_LOCALE);

	/* JSON and CSV get '.', screens the locale's ','. */
	ck_assert_str_eq(pl_num_c(b, sizeof b, 107.8, 'f', 1), "107.8");
	ck_assert_str_eq(pl_num_c(b, sizeof b, 0.85, 'g', 17),
	    "0.84999999999999998");
	ck_assert_str_eq(pl_num_c(b, sizeof b, 7.5e9, 'e', 2), "7.50e+09");
	ck_assert_str_eq(pl_num_local(b, sizeof b, 107.8, 'f', 1), "107,8");
	/* What pl_num_c writes, pl_parse_double reads back exactly. */
	pl_num_c(b, sizeof b, 1.0 / 3, 'g', 17);
	ck_assert(parsed(b, 0) == 1.0 / 3);
	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C"));
}
END_TEST

static Suite *
number_suite(void)
{
	Suite *s = suite_create("number");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, plain_numbers);
	tcase_add_test(tc, scientific);
	tcase_add_test(tc, garbage);
	tcase_add_test(tc, whole_numbers);
	tcase_add_test(tc, whole_bounds);
	tcase_add_test(tc, percent);
	tcase_add_test(tc, ratio);
	tcase_add_test(tc, c_locale_comma);
	suite_add_tcase(s, tc);
	tc = tcase_create("format");
	tcase_add_test(tc, formatting_c);
	suite_add_tcase(s, tc);
	if (comma_locale != NULL) {
		tc = tcase_create("decimal comma");
		tcase_add_test(tc, decimal_comma);
		suite_add_tcase(s, tc);
	}
	return s;
}

/* The first installed locale with a decimal comma, or NULL. */
static const char *
find_comma_locale(void)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8",
	    "fr_FR.UTF-8", "fr_FR.utf8", NULL };
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (setlocale(LC_ALL, names[i]) != NULL &&
		    strcmp(localeconv()->decimal_point, ",") == 0) {
			setlocale(LC_ALL, "C");
			return names[i];
		}
	setlocale(LC_ALL, "C");
	return NULL;
}

int
main(void)
{
	SRunner *sr;
	const char *ci = getenv("CI");
	int failed;

	comma_locale = find_comma_locale();
	if (comma_locale == NULL && ci != NULL && strcmp(ci, "true") == 0) {
		fprintf(stderr, "FAIL: de_DE.UTF-8 is required under CI "
		    "(localedef -i de_DE -f UTF-8 de_DE.UTF-8)\n");
		return EXIT_FAILURE;
	}
	sr = srunner_create(number_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (failed != 0)
		return EXIT_FAILURE;
	if (comma_locale == NULL) {
		fprintf(stderr, "SKIP: no de_DE.UTF-8 locale for the decimal "
		    "comma case\n");
		return 77;
	}
	return EXIT_SUCCESS;
}
