/*
 * check_vocabulary.c - one word for each thing: every quantity name means
 * the field its name says, content knows exactly the engine's quantities,
 * every door gets the same default GPU, a playground knob is an engine
 * key, and a drop's status has one enum
 * whose values the database keeps.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/course/content.h"
#include "core/course/curriculum.h"
#include "core/course/playground.h"
#include "core/course/scenario.h"
#include "core/engine/costmodel.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* What each name says, read from the struct here, not from costmodel.c. */
static double
expected(const struct cm_result *r, const char *name)
{
	if (strcmp(name, "params_b") == 0)
		return r->params / 1e9;
	if (strcmp(name, "model_state_gb") == 0)
		return (r->mem_params + r->mem_grads + r->mem_optim) / 1e9;
	if (strcmp(name, "parameters_gb") == 0)
		return r->mem_params / 1e9;
	if (strcmp(name, "gradients_gb") == 0)
		return r->mem_grads / 1e9;
	if (strcmp(name, "optimizer_gb") == 0)
		return r->mem_optim / 1e9;
	if (strcmp(name, "activations_gb") == 0)
		return r->mem_act / 1e9;
	if (strcmp(name, "memory_total_gb") == 0)
		return r->mem_total / 1e9;
	if (strcmp(name, "bubble_fraction") == 0)
		return r->bubble_fraction;
	if (strcmp(name, "step_time_s") == 0)
		return r->t_step;
	if (strcmp(name, "tokens_per_s") == 0)
		return r->tokens_per_s;
	if (strcmp(name, "tflops_per_gpu") == 0)
		return r->tflops_per_gpu;
	if (strcmp(name, "mfu") == 0)
		return r->mfu;
	if (strcmp(name, "tp_comm_s") == 0)
		return r->t_tp;
	if (strcmp(name, "pp_comm_s") == 0)
		return r->t_pp;
	if (strcmp(name, "dp_comm_s") == 0)
		return r->t_dp;
	ck_abort_msg("quantity %s: say here which field it names", name);
	return NAN;
}

START_TEST(quantity_names_say_their_field)
{
	/* ZeRO 2 with Adam: parameters, gradients and optimizer all differ. */
	cJSON *o = cJSON_Parse("{\"model\": \"llama2-70b\", \"gpu\": "
	    "\"a100-80gb\", \"gpus\": 64, \"dp\": 2, \"tp\": 8, \"pp\": 4,"
	    " \"zero\": 2, \"inter_bw\": 25}");
	const char *const *q = cm_quantity_names(), *const *p;
	struct cm_result *r = calloc(1, sizeof *r);
	struct cm_config c;
	struct pl_err err;
	double got, want, other;
	int n = 0;

	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "t", "", &err), 0);
	ck_assert_int_eq(cm_evaluate(&c, r, &err), 0);
	for (; *q != NULL; q++, n++) {
		ck_assert_int_eq(cm_quantity(r, *q, &got), 0);
		want = expected(r, *q);
		ck_assert_msg(got == want, "%s: %.17g, its field says %.17g",
		    *q, got, want);
		/* Distinct values, so two names swapped cannot both pass. */
		for (p = cm_quantity_names(); *p != *q; p++) {
			other = expected(r, *p);
			ck_assert_msg(other != want, "%s and %s are equal "
			    "here; pick a layout that tells them apart", *p,
			    *q);
		}
	}
	ck_assert_int_eq(n, 15);
	ck_assert_int_eq(cm_quantity(r, "gradient_gb", &got), -1);
	cJSON_Delete(o);
	free(r);
}
END_TEST

START_TEST(content_knows_the_engine_quantities)
{
	const char *const *q;

	for (q = cm_quantity_names(); *q != NULL; q++)
		ck_assert_msg(content_quantity_known(*q), "%s", *q);
	ck_assert(!content_quantity_known("gradient_gb"));
	ck_assert(!content_quantity_known("params"));
	ck_assert(!content_quantity_known(""));
}
END_TEST

START_TEST(one_default_gpu)
{
	cJSON *o = cJSON_Parse("{\"model\": \"llama2-7b\"}");
	cJSON *sc = cJSON_Parse("{\"start\": {\"model\": \"llama2-7b\"}}");
	struct hw_gpu only = { .name = "a100-80gb" };
	struct hw_catalog one = { &only, 1, NULL, 0 };
	struct cm_config c;
	struct pl_err err;

	ck_assert_ptr_nonnull(hw_gpu_find(&cat, CM_DEFAULT_GPU));
	ck_assert_str_eq(cm_default_gpu(&cat)->name, CM_DEFAULT_GPU);
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "t", "", &err), 0);
	ck_assert_str_eq(c.gpu.name, CM_DEFAULT_GPU);
	ck_assert_int_eq(scenario_start(sc, &cat, &c, "t", "", &err), 0);
	ck_assert_str_eq(c.gpu.name, CM_DEFAULT_GPU);
	ck_assert_int_eq(pg_default_config(&cat, &c), 0);
	ck_assert_str_eq(c.gpu.name, CM_DEFAULT_GPU);
	/* A catalog without it falls back to its first GPU. */
	ck_assert_ptr_eq(cm_default_gpu(&one), &only);
	cJSON_Delete(o);
	cJSON_Delete(sc);
}
END_TEST

/* A playground knob (and a scenario's "locked" list) names an engine key. */
START_TEST(knobs_are_engine_keys)
{
	int k;

	for (k = 0; k < PG_N_KNOBS; k++)
		ck_assert_msg(cm_key_find(pg_knob_name((enum pg_knob)k)) !=
		    NULL, "knob %s is no engine key",
		    pg_knob_name((enum pg_knob)k));
}
END_TEST

/*
 * The stored values are the database's drop_progress.status: 0, 1, 2;
 * done and mastered are computed from the answers, above them.
 */
START_TEST(one_drop_status)
{
	ck_assert_int_eq(CURRICULUM_NEW, 0);
	ck_assert_int_eq(CURRICULUM_STARTED, 1);
	ck_assert_int_eq(CURRICULUM_READ, 2);
	ck_assert_int_gt(CURRICULUM_DONE, CURRICULUM_READ);
	ck_assert_int_gt(CURRICULUM_MASTERED, CURRICULUM_DONE);
	ck_assert_str_eq(curriculum_status_word(CURRICULUM_NEW), "new");
	ck_assert_str_eq(curriculum_status_word(CURRICULUM_STARTED),
	    "started");
	ck_assert_str_eq(curriculum_status_word(CURRICULUM_READ), "read");
	ck_assert_str_eq(curriculum_status_word(CURRICULUM_ATTEMPTED),
	    "attempted");
	ck_assert_str_eq(curriculum_status_word(CURRICULUM_DONE), "done");
	ck_assert_str_eq(curriculum_status_word(CURRICULUM_MASTERED),
	    "mastered");
}
END_TEST

static Suite *
vocabulary_suite(void)
{
	Suite *s = suite_create("vocabulary");
	TCase *tc = tcase_create("one word for each thing");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, quantity_names_say_their_field);
	tcase_add_test(tc, content_knows_the_engine_quantities);
	tcase_add_test(tc, one_default_gpu);
	tcase_add_test(tc, one_drop_status);
	tcase_add_test(tc, knobs_are_engine_keys);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(vocabulary_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
