/*
 * check_lab_run.c - a lab's run step (core/lab: lab.c, lab_run.c): the
 * "run" object is checked with the simulator's config builder, the step
 * asks for one item, names the command to launch, and a submitted run
 * counts as right only if it was measured, is the step's run, and agrees
 * with one device.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lab/lab.h"
#include "core/sim/sim_json.h"

static struct lab_script *
parse(const char *steps, struct pl_err *err)
{
	char text[2048];

	snprintf(text, sizeof text, "{\"title\": \"t\", \"steps\": [%s]}",
	    steps);
	pl_err_clear(err);
	return lab_script_parse(text, "lab.json", err);
}

START_TEST(run_step_parses)
{
	struct pl_err err;
	struct lab_script *ls = parse("{\"kind\": \"run\", \"minutes\": 10, "
	    "\"run\": {\"mode\": \"3d\", \"np\": 8, \"microbatches\": 8, "
	    "\"schedule\": \"interleaved\"}}", &err);
	const char *ids[4];
	enum lab_item_kind kinds[4];
	char cmd[200];

	ck_assert_msg(ls != NULL, "%s", err.msg);
	ck_assert_int_eq(ls->steps[0].kind, LAB_STEP_RUN);
	ck_assert_ptr_null(ls->steps[0].drop);
	ck_assert_str_eq(ls->steps[0].run.mode, "3d");
	ck_assert_int_eq(ls->steps[0].run.np, 8);
	ck_assert_str_eq(ls->steps[0].title, "run 3d");
	ck_assert_str_eq(lab_run_command(&ls->steps[0], cmd, sizeof cmd),
	    "parlearn run --mode 3d --np 8 --microbatches 8 --schedule "
	    "interleaved -o run.json");
	ck_assert_uint_eq(lab_step_items(&ls->steps[0], NULL, ids, kinds, 4), 1);
	ck_assert_str_eq(ids[0], LAB_RUN_ID);
	ck_assert_int_eq(kinds[0], LAB_ITEM_RUN);
	lab_script_free(ls);
}
END_TEST

/* Each bad run step fails at steps[0].run with the builder's reason. */
START_TEST(run_step_errors_name_the_path)
{
	static const struct {
		const char	*step;
		const char	*msg;
	} bad[] = {
		{ "{\"kind\": \"run\", \"minutes\": 5, \"run\": {\"mode\": "
		    "\"5d\"}}", "unknown mode '5d'" },
		{ "{\"kind\": \"run\", \"minutes\": 5, \"run\": {\"mode\": "
		    "\"3d\", \"np\": 4}}", "needs 8 GPUs, not 4" },
		{ "{\"kind\": \"run\", \"minutes\": 5, \"run\": {\"mode\": "
		    "\"tp\", \"np\": 3}}", "attention heads" },
		{ "{\"kind\": \"run\", \"minutes\": 5, \"run\": {\"mode\": "
		    "\"single\", \"np\": 2}}", "runs on 1 processes, not 2" },
		{ "{\"kind\": \"run\", \"minutes\": 5}", "a run step needs" },
		{ "{\"kind\": \"drop\", \"drop\": \"drop-01\", \"minutes\": 5, "
		    "\"run\": {\"mode\": \"dp\"}}", "only a run step" },
	};
	struct lab_script *ls;
	struct pl_err err;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ls = parse(bad[i].step, &err);
		ck_assert_msg(ls == NULL, "accepted: %s", bad[i].step);
		ck_assert_str_eq(err.path, "steps[0].run");
		ck_assert_msg(strstr(err.msg, bad[i].msg) != NULL, "%s: %s",
		    bad[i].step, err.msg);
	}
}
END_TEST

/* A simulated dp run, made to look measured or not, wrong or right. */
START_TEST(submitted_run_is_checked)
{
	struct lab_script *ls;
	struct sim_config cfg;
	struct sim_result *res = calloc(1, sizeof *res);
	struct sim_origin o = { 1, 4, 1, "test" };
	struct pl_err err;
	int correct = -1;

	ls = parse("{\"kind\": \"run\", \"minutes\": 5, \"run\": {\"mode\": "
	    "\"dp\", \"np\": 4}}", &err);
	ck_assert_ptr_nonnull(ls);
	sim_config_default(&cfg, SIM_DP, 4);
	ck_assert_int_eq(sim_run(&cfg, res, &err), 0);
	ck_assert_int_eq(lab_run_check(&ls->steps[0], &cfg, res, &o, "r.json",
	    &correct, &err), 0);
	ck_assert_int_eq(correct, 1);
	res->max_param_error = 2e-9;
	ck_assert_int_eq(lab_run_check(&ls->steps[0], &cfg, res, &o, "r.json",
	    &correct, &err), 0);
	ck_assert_int_eq(correct, 0);
	o.processes = 2;
	ck_assert_int_eq(lab_run_check(&ls->steps[0], &cfg, res, &o, "r.json",
	    &correct, &err), -1);
	ck_assert_str_eq(err.file, "r.json");
	o.processes = 4;
	o.measured = 0;
	ck_assert_int_eq(lab_run_check(&ls->steps[0], &cfg, res, &o, "r.json",
	    &correct, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a measured run"));
	sim_result_free(res);
	free(res);
	lab_script_free(ls);
}
END_TEST

START_TEST(run_item_round_trip)
{
	struct lab_result r, back;
	struct pl_err err;
	char *text;

	memset(&r, 0, sizeof r);
	strcpy(r.user, "ada");
	strcpy(r.profile, "ada");
	strcpy(r.session, "s1");
	ck_assert_int_eq(lab_result_add(&r, 1, LAB_ITEM_RUN, LAB_RUN_ID, 1), 0);
	text = lab_result_to_json(&r);
	ck_assert_ptr_nonnull(strstr(text, "\"kind\":\"run\""));
	ck_assert_int_eq(lab_result_parse(text, "r.json", &back, &err), 0);
	ck_assert_ptr_nonnull(lab_result_find(&back, 1, LAB_ITEM_RUN,
	    LAB_RUN_ID));
	free(text);
	lab_result_free(&r);
	lab_result_free(&back);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("lab_run");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, run_step_parses);
	tcase_add_test(tc, run_step_errors_name_the_path);
	tcase_add_test(tc, submitted_run_is_checked);
	tcase_add_test(tc, run_item_round_trip);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
