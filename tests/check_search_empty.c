/*
 * check_search_empty.c - the explanation of an empty layout search agrees
 * with the search itself, names the rule each layout breaks, and points
 * to GPU counts that do have layouts.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/search_empty.h"
#include "catfix.h"

static void
config(struct cm_config *c, const char *model, int gpus, long batch)
{
	const struct hw_model *m = hw_model_find(&cat, model);

	ck_assert_ptr_nonnull(m);
	cm_config_default(c, m, hw_gpu_find(&cat, "h100-80gb"));
	c->gpus = gpus;
	if (batch > 0)
		c->global_batch = batch;
}

static long
evaluated(const struct cm_config *c)
{
	struct cm_search *s = malloc(sizeof *s);
	struct pl_err err;
	long n;

	ck_assert_int_eq(cm_search(c, 10, s, &err), 0);
	n = s->evaluated;
	free(s);
	return n;
}

static const struct cm_empty_reason *
reason(const struct cm_empty *e, const char *code)
{
	int i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->reasons[i].code, code) == 0)
			return &e->reasons[i];
	return NULL;
}

/* For every GPU count, "why empty" answers exactly when the search found
 * nothing to evaluate: the two walk the same grid. */
START_TEST(agrees_with_the_search)
{
	static const char *const models[] = { "llama2-70b", "llama2-7b",
	    "gpt3-175b" };
	struct cm_config c;
	struct cm_empty e;
	int g, m, empty = 0;

	for (m = 0; m < 3; m++)
		for (g = 1; g <= 72; g++) {
			config(&c, models[m], g, 0);
			cm_search_why_empty(&c, &e);
			ck_assert_msg((evaluated(&c) == 0) == (e.n > 0),
			    "%s on %d GPUs: evaluated %ld, %d reasons",
			    models[m], g, evaluated(&c), e.n);
			ck_assert_int_eq(cm_search_has_layout(&c), e.n == 0);
			empty += e.n > 0;
		}
	/* The range holds both kinds, so the test can tell them apart. */
	ck_assert_int_gt(empty, 10);
	ck_assert_int_lt(empty, 3 * 72 - 10);
}
END_TEST

/* The case: Llama 2 70B (80 layers, global batch 1024) on 63. */
START_TEST(sixty_three_gpus)
{
	const struct cm_empty_reason *r;
	struct cm_config c;
	struct cm_empty e;
	int g;

	config(&c, "llama2-70b", 63, 0);
	ck_assert_int_eq(c.global_batch, 1024);
	ck_assert_int_gt(cm_search_why_empty(&c, &e), 0);
	r = reason(&e, "batch_indivisible");
	ck_assert_ptr_nonnull(r);
	/* 1024 = 2^10: no odd DP divides it. */
	ck_assert_ptr_nonnull(strstr(r->text, "global batch 1024"));
	ck_assert_ptr_nonnull(strstr(r->text, "DP 63"));
	/* DP 1 leaves 63 stages for 80 layers: 17 short. */
	r = reason(&e, "layers_uneven");
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(strstr(r->text, "63"));
	ck_assert_ptr_nonnull(strstr(r->text, "80 layers"));
	ck_assert_ptr_nonnull(reason(&e, "tp_power_of_two"));
	/* The nearest counts have layouts; none in between has. */
	ck_assert_int_eq(e.gpus_above, 64);
	ck_assert_int_gt(e.gpus_below, 0);
	config(&c, "llama2-70b", e.gpus_below, 0);
	ck_assert_int_gt(evaluated(&c), 0);
	for (g = e.gpus_below + 1; g < 64; g++) {
		config(&c, "llama2-70b", g, 0);
		ck_assert_msg(evaluated(&c) == 0, "%d GPUs have layouts", g);
	}
}
END_TEST

/* On 63 GPUs the batch decides: 1008 = 16 x 63 samples let DP 63 run
 * with micro-batch 8 or less; 1024 = 2^10 lets no odd DP run. */
START_TEST(the_batch_decides)
{
	struct cm_config c;
	struct cm_empty e;

	config(&c, "llama2-70b", 63, 1008);
	ck_assert_int_eq(cm_search_why_empty(&c, &e), 0);
	ck_assert_int_gt(evaluated(&c), 0);
	config(&c, "llama2-70b", 63, 1024);
	ck_assert_int_gt(cm_search_why_empty(&c, &e), 0);
	ck_assert_ptr_nonnull(reason(&e, "batch_indivisible"));
	config(&c, "llama2-70b", 64, 1024);
	ck_assert_int_eq(cm_search_why_empty(&c, &e), 0);
}
END_TEST

static Suite *
empty_suite(void)
{
	Suite *s = suite_create("search_empty");
	TCase *tc = tcase_create("why");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, agrees_with_the_search);
	tcase_add_test(tc, sixty_three_gpus);
	tcase_add_test(tc, the_batch_decides);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(empty_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
