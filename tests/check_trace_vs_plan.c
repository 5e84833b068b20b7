/*
 * check_trace_vs_plan.c - a measured step beside the engine's plan
 * (core/sim/trace_vs_plan.h): the measured rows from a timeline built by
 * hand, where every figure is known; the engine's rows from a plan the
 * engine itself prices and writes (cm_result_json); and the plans that
 * cannot be compared with a data-parallel trace, refused by key.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "core/sim/trace_vs_plan.h"
#include "catfix.h"

#define EPS	1e-12

/*
 * Two devices. Device 0: forward 0-1, backward 1-3, an all-reduce 2-4
 * (1 s of it beside the backward, 1 s alone) and another 2.5-3.5 inside
 * it, optimizer 4-4.5. Device 1: forward 0-2, backward 2-3, all-reduce
 * 3-4 alone. Means: compute (3 + 3) / 2, optimizer 0.25, in collectives
 * (2 + 1) / 2, not hidden (1 + 1) / 2, 3 and 1 collectives.
 */
static void
two_devices(struct sim_timeline *tl)
{
	ck_assert_int_eq(sim_timeline_init(tl, 2), 0);
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 0, SIM_FORWARD, 0, 0, 0,
	    1, 0));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 0, SIM_BACKWARD, 0, 0, 1,
	    3, 0));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 0, SIM_ALL_REDUCE, 0, -1,
	    2, 4, 1000));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 0, SIM_ALL_REDUCE, 0, -1,
	    2.5, 3.5, 3000));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 0, SIM_ALL_GATHER, 0, -1,
	    2.6, 2.7, 500));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 0, SIM_OPTIMIZER, 0, -1,
	    4, 4.5, 0));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 1, SIM_FORWARD, 0, 0, 0,
	    2, 0));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 1, SIM_BACKWARD, 0, 0, 2,
	    3, 0));
	ck_assert_ptr_nonnull(sim_timeline_add(tl, 1, SIM_ALL_REDUCE, 0, -1,
	    3, 4, 2000));
	sim_timeline_finish(tl);
}

START_TEST(measured_rows)
{
	struct sim_timeline tl;
	struct trace_vs_plan t;

	two_devices(&tl);
	memset(&t, 0, sizeof t);
	tvp_measure(&tl, 0, &t);
	ck_assert_int_eq(t.gpus, 2);
	ck_assert_double_eq_tol(t.measured[TVP_STEP], 4.5, EPS);
	ck_assert_double_eq_tol(t.measured[TVP_COMPUTE], 3, EPS);
	ck_assert_double_eq_tol(t.measured[TVP_OPTIMIZER], 0.25, EPS);
	ck_assert_double_eq_tol(t.measured[TVP_COMM], 1.5, EPS);
	ck_assert_double_eq_tol(t.measured[TVP_EXPOSED], 1, EPS);
	ck_assert_double_eq_tol(t.measured[TVP_COLLECTIVES], 2, EPS);
	/* the simulator's bytes are what each member sends */
	ck_assert_double_eq_tol(t.measured[TVP_BYTES], (4500 + 2000) / 2.0,
	    EPS);
	/* a profiler's are messages: all-reduce 2(n-1)/n, all-gather n-1 */
	tvp_measure(&tl, 1, &t);
	ck_assert_double_eq_tol(t.measured[TVP_BYTES], (4000 + 500 + 2000) /
	    2.0, EPS);
	sim_timeline_free(&tl);
}
END_TEST

/*
 * The engine's plan of Llama 2 7B on H100s, with the keys `parlearn plan
 * --json` writes them under (the CLI writes that document; tests/
 * torch-against.sh reads the real one).
 */
static cJSON *
plan_json(int dp, int tp, struct cm_result *r)
{
	cJSON *o = cJSON_CreateObject(), *t, *n, *l;
	const struct hw_model *m = hw_model_find(&cat, "llama2-7b");
	const struct hw_gpu *g = hw_gpu_find(&cat, "h100-80gb");
	struct cm_config c;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(g);
	cm_config_default(&c, m, g);
	c.dp = dp;
	c.tp = tp;
	c.pp = 1;
	c.gpus = dp * tp;
	c.zero = 1;
	ck_assert_int_eq(cm_evaluate(&c, r, NULL), 0);
	cJSON_AddStringToObject(o, "schema", "parlearn.plan/1");
	cJSON_AddStringToObject(o, "model", "llama2-7b");
	cJSON_AddStringToObject(o, "gpu", "h100-80gb");
	cJSON_AddNumberToObject(o, "gpus", c.gpus);
	l = cJSON_AddObjectToObject(o, "layout");
	cJSON_AddNumberToObject(l, "dp", dp);
	cJSON_AddNumberToObject(l, "tp", tp);
	cJSON_AddNumberToObject(l, "pp", 1);
	t = cJSON_AddObjectToObject(o, "time_s");
	cJSON_AddNumberToObject(t, "step", r->t_step);
	cJSON_AddNumberToObject(t, "compute", r->t_compute);
	cJSON_AddNumberToObject(t, "optimizer", r->t_optimizer);
	cJSON_AddNumberToObject(t, "dp_comm", r->t_dp);
	cJSON_AddNumberToObject(t, "dp_exposed", r->t_dp_exposed);
	n = cJSON_AddObjectToObject(o, "network");
	cJSON_AddNumberToObject(n, "dp_bytes_per_gpu", r->dp_bytes);
	cJSON_AddNumberToObject(n, "dp_collectives", (double)r->dp_collectives);
	return o;
}

START_TEST(engine_rows)
{
	struct sim_timeline tl;
	struct trace_vs_plan t;
	struct cm_result r;
	struct pl_err err;
	cJSON *plan = plan_json(2, 1, &r);
	char buf[32];

	ck_assert_ptr_nonnull(plan);
	two_devices(&tl);
	ck_assert_int_eq(tvp_build(&tl, 0, plan, "p.json", &t, &err), 0);
	ck_assert_double_eq_tol(t.engine[TVP_STEP], r.t_step, 1e-9 * r.t_step);
	ck_assert_double_eq_tol(t.engine[TVP_OPTIMIZER], r.t_optimizer,
	    1e-9 * r.t_optimizer);
	ck_assert_double_eq_tol(t.engine[TVP_COMM], r.t_dp, 1e-9 * r.t_dp);
	ck_assert_double_eq_tol(t.engine[TVP_BYTES], r.dp_bytes,
	    1e-9 * r.dp_bytes);
	ck_assert_double_eq(t.engine[TVP_COLLECTIVES],
	    (double)r.dp_collectives);
	ck_assert_double_eq_tol(t.measured[TVP_STEP], 4.5, EPS);
	ck_assert_str_eq(t.model, "llama2-7b");
	ck_assert_str_eq(t.gpu, "h100-80gb");
	snprintf(buf, sizeof buf, "%.2fx", r.t_step / 4.5);
	ck_assert_str_eq(tvp_ratio_text(&t, TVP_STEP, buf + 16, 16), buf);
	ck_assert_str_eq(tvp_ratio_text(&t, TVP_EXPOSED, buf, sizeof buf),
	    t.engine[TVP_EXPOSED] > 0 ? buf : "-");
	ck_assert_str_eq(tvp_value_text(TVP_STEP, 0.0479, buf, sizeof buf),
	    "47.9 ms");
	ck_assert_str_eq(tvp_value_text(TVP_BYTES, 13.48e9, buf, sizeof buf),
	    "13.48 GB");
	ck_assert_str_eq(tvp_value_text(TVP_STEP, 231.88, buf, sizeof buf),
	    "231.88 s");
	cJSON_Delete(plan);
	sim_timeline_free(&tl);
}
END_TEST

/* Refused: each names the file and the key. */
START_TEST(refusals)
{
	struct sim_timeline tl;
	struct trace_vs_plan t;
	struct cm_result r;
	struct pl_err err;
	char msg[512];
	cJSON *plan;

	two_devices(&tl);
	plan = plan_json(4, 1, &r);	/* 4 GPUs, the trace has 2 */
	ck_assert_int_eq(tvp_build(&tl, 0, plan, "p.json", &t, &err), -1);
	pl_err_format(&err, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "p.json: gpus: the plan is for 4 GPUs, the "
	    "trace has 2 ranks") != NULL, "%s", msg);
	cJSON_Delete(plan);
	plan = plan_json(1, 2, &r);	/* TP 2 on 2 GPUs */
	ck_assert_int_eq(tvp_build(&tl, 0, plan, "p.json", &t, &err), -1);
	pl_err_format(&err, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "p.json: layout.tp: tp is 2") != NULL, "%s",
	    msg);
	cJSON_DeleteItemFromObjectCaseSensitive(plan, "time_s");
	ck_assert_int_eq(tvp_build(&tl, 0, plan, "p.json", &t, &err), -1);
	pl_err_format(&err, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "p.json: time_s: missing") != NULL, "%s",
	    msg);
	cJSON_ReplaceItemInObjectCaseSensitive(plan, "schema",
	    cJSON_CreateString("parlearn.trace/1"));
	ck_assert_int_eq(tvp_build(&tl, 0, plan, "p.json", &t, &err), -1);
	pl_err_format(&err, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "schema: not a parlearn.plan/1") != NULL,
	    "%s", msg);
	cJSON_Delete(plan);
	plan = plan_json(2, 1, &r);
	cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItem(plan,
	    "time_s"), "step", cJSON_CreateString("fast"));
	ck_assert_int_eq(tvp_build(&tl, 0, plan, "p.json", &t, &err), -1);
	pl_err_format(&err, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "time_s.step: missing, or not a number")
	    != NULL, "%s", msg);
	ck_assert_double_eq(t.measured[TVP_STEP], 0);
	cJSON_Delete(plan);
	sim_timeline_free(&tl);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("trace_vs_plan");
	TCase *tc = tcase_create("rows");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, measured_rows);
	tcase_add_test(tc, engine_rows);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
