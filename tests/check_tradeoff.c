/*
 * check_tradeoff.c - a defense's written trade-off graded on content
 * (core/course/tradeoff.c): figures found with their quantity in English
 * and German, either decimal separator, confirmed against the chosen
 * layout, the runner-up or their difference, and only a quantity the
 * chosen layout gives up counts. Fruit, word counts and figures without
 * a quantity fail.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/tradeoff.h"

/* Drop 14's (4, 4, 4) at ZeRO-1 and the top row it is held against. */
static struct cm_result chosen, runner;

static void
setup(void)
{
	memset(&chosen, 0, sizeof chosen);
	memset(&runner, 0, sizeof runner);
	chosen.mem_gpu = runner.mem_gpu = 85.9e9;
	chosen.mem_total = 55.7e9;		/* 30.2 GB free */
	runner.mem_total = 67.3e9;		/* 18.6 GB free */
	chosen.t_step = 28.1;
	chosen.t_exposed_comm = 3.36;		/* 12.0 % */
	runner.t_step = 24.8;
	runner.t_exposed_comm = 1.20;		/* 4.8 % */
	chosen.bubble_fraction = 3.0 / 131;
	runner.bubble_fraction = 0;
	chosen.tokens_per_s = 74578;
	runner.tokens_per_s = 84436;
}

static struct to_verdict v;

static int
passes(const char *text)
{
	tradeoff_grade(text, &chosen, &runner, &v);
	return v.pass;
}

START_TEST(finds_figures)
{
	struct to_figure f[8];

	ck_assert_int_eq(tradeoff_find("keeps 30.2 GB free", f, 8), 1);
	ck_assert_int_eq(f[0].qty, TO_FREE);
	ck_assert_int_eq(f[0].unit, TO_U_GB);
	ck_assert_double_eq_tol(f[0].value, 30.2, 1e-9);
	ck_assert_int_eq(tradeoff_find("30,2 GB bleiben frei", f, 8), 1);
	ck_assert_double_eq_tol(f[0].value, 30.2, 1e-9);
	ck_assert_int_eq(tradeoff_find("Blase 2,3 %", f, 8), 1);
	ck_assert_int_eq(f[0].qty, TO_BUBBLE);
	ck_assert_int_eq(tradeoff_find("exposed comm 3360 ms", f, 8), 1);
	ck_assert_int_eq(f[0].qty, TO_COMM);
	ck_assert_int_eq(f[0].unit, TO_U_MS);
	ck_assert_int_eq(tradeoff_find("84k tokens/s", f, 8), 1);
	ck_assert_double_eq_tol(f[0].value, 84000, 1e-9);
	ck_assert_int_eq(tradeoff_find("84,436 tokens/s", f, 8), 1);
	ck_assert_double_eq_tol(f[0].alt, 84436, 1e-9);
	/* A layout's degrees are not figures, nor a number alone. */
	ck_assert_int_eq(tradeoff_find("TP 4 x PP 4 x DP 4 with ZeRO-1", f,
	    8), 0);
	ck_assert_int_eq(tradeoff_find("1 2 3 4 5", f, 8), 0);
	ck_assert_int_eq(tradeoff_find("banana 12% apple", f, 8), 0);
}
END_TEST

START_TEST(gives_up_passes)
{
	ck_assert(passes("We give up throughput: about 12% of the step is "
	    "exposed communication against 5% on the runner-up"));
	ck_assert_int_eq(v.qty, TO_COMM);
	ck_assert(v.gives_up);
	ck_assert(passes("The ZeRO-3 layout runs about 13% faster than ours, "
	    "which we accept for the memory margin"));
	ck_assert_int_eq(v.qty, TO_TOKENS);
	ck_assert(passes("Wir verzichten auf Durchsatz: 74.600 Token/s statt "
	    "84.400 beim Zweitplatzierten"));
	ck_assert(passes("Our pipeline adds a bubble of 2,3 % that the "
	    "runner-up does not have at all"));
	ck_assert_int_eq(v.qty, TO_BUBBLE);
	/* The difference counts too: 3.36 - 1.20 s. */
	ck_assert(passes("We expose 2.2 s more communication per step than "
	    "the layout ranked above"));
}
END_TEST

START_TEST(what_fails)
{
	/* The fruit. */
	ck_assert(!passes("banana apple cherry grape lemon mango peach plum"));
	ck_assert_int_eq(v.found, 0);
	ck_assert_ptr_nonnull(strstr(v.text, "no figure with its quantity"));
	/* Words without a figure. */
	ck_assert(!passes("TP 4 costs NVLink time but leaves a third of "
	    "memory free"));
	/* A figure the engine does not confirm. */
	ck_assert(!passes("We give up throughput: about 40% of the step is "
	    "exposed communication"));
	ck_assert(v.found == 1 && !v.confirmed);
	/* No figure is revealed in a failure. */
	ck_assert_ptr_null(strstr(v.text, "11.9"));
	ck_assert_ptr_null(strstr(v.text, "4.8"));
	/* Confirmed, but what the chosen layout wins, not gives up. */
	ck_assert(!passes("We keep about 30 GB of memory free on every card, "
	    "a good margin for later"));
	ck_assert(v.confirmed && !v.gives_up);
	ck_assert_ptr_nonnull(strstr(v.text, "name what it gives up"));
	/* Too few words around a confirmed figure. */
	ck_assert(!passes("comm 12%"));
	/* No runner-up: nothing to hold it against. */
	tradeoff_grade("exposed comm 12%", &chosen, NULL, &v);
	ck_assert(!v.pass);
}
END_TEST

/* When the chosen layout is worse on nothing, any differing quantity. */
START_TEST(worse_on_none)
{
	struct cm_result t = chosen;

	chosen = runner;
	runner = t;
	ck_assert(!tradeoff_worse(&chosen, &runner, TO_COMM));
	ck_assert(tradeoff_worse(&chosen, &runner, TO_FREE));
	ck_assert(passes("It keeps 18.6 GB free where the next row keeps "
	    "30 GB, the one thing it gives up"));
	chosen.mem_total = runner.mem_total;
	ck_assert(!tradeoff_worse(&chosen, &runner, TO_FREE));
	/* Now better or equal on all four: a confirmed figure of a
	 * quantity that differs is enough. */
	ck_assert(passes("Exposed communication is 4.8% of the step against "
	    "12% for the runner-up"));
	ck_assert(!v.gives_up);
	/* Equal quantities do not count. */
	ck_assert(!passes("Both keep 30.2 GB of memory free on each card "
	    "today"));
}
END_TEST

START_TEST(words)
{
	ck_assert_int_eq(tradeoff_count_words("  two\twords "), 2);
	ck_assert_int_eq(tradeoff_count_words(NULL), 0);
	ck_assert_int_eq(tradeoff_count_words("a a a a a a a a"), 0);
	ck_assert_int_eq(tradeoff_count_words("ok ok OK ok Ok ok ok ok"), 1);
	ck_assert_int_eq(tradeoff_count_words("1 2 3 4 5 6 7 8 9 10"), 0);
}
END_TEST

static Suite *
tradeoff_suite(void)
{
	Suite *s = suite_create("tradeoff");
	TCase *tc = tcase_create("content");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, finds_figures);
	tcase_add_test(tc, gives_up_passes);
	tcase_add_test(tc, what_fails);
	tcase_add_test(tc, worse_on_none);
	tcase_add_test(tc, words);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(tradeoff_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
