/*
 * check_lab_run.c - a lab's run step (core/lab: lab.c, lab_run.c): the
 * "run" object is checked with the simulator's config builder, the step
 * asks for one item, names the command to launch, and a submitted run
 * counts as right only if it was measured, is the step's run, and agrees
 * with one device.
 */
#include <check.h>
#include <math.h>
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
	struct sim_origin o = { 1, 4, 1, "test", 0 };
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

/*
 * A document as parlearn run writes it, made from the simulator's run of
 * cfg as a measured run would be: no ring steps (a run records each
 * collective whole) and times of its own (here the model's, stretched).
 * reduce is "ordered" or "mpi"; loss_off moves the loss (and the
 * simulator block with it) as the MPI library's order may.
 */
static char *
run_doc(const struct sim_config *cfg, const char *reduce, double loss_off)
{
	struct sim_result *res = calloc(1, sizeof *res);
	struct sim_origin o = { 1, cfg->gpus, 1, "test MPI", 0 };
	struct pl_err err;
	cJSON *root, *doc, *m, *h, *sm, *it;
	char *text;
	size_t i, n = 0;
	int k;

	ck_assert_int_eq(sim_run(cfg, res, &err), 0);
	for (i = 0; i < res->tl.n_ev; i++) {
		if (res->tl.ev[i].kind == SIM_RING_STEP)
			continue;
		res->tl.ev[n] = res->tl.ev[i];
		res->tl.ev[n].start *= 1.5;
		res->tl.ev[n].end *= 1.5;
		n++;
	}
	res->tl.n_ev = n;
	for (i = 0; i < res->tl.n_mem; i++)
		res->tl.mem[i].t *= 1.5;
	res->tl.t_end *= 1.5;
	res->step_time = res->tl.t_end;
	res->bubble = sim_timeline_bubble(&res->tl);
	res->bytes_moved = sim_timeline_bytes(&res->tl);
	res->loss += loss_off;
	res->max_loss_error = fabs(res->max_loss_error + loss_off);
	root = sim_result_json(cfg, res, &o);
	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "schema", "parlearn.run/1");
	while ((it = root->child) != NULL) {
		cJSON_DetachItemViaPointer(root, it);
		cJSON_AddItemToObject(doc, it->string, it);
	}
	cJSON_Delete(root);
	m = cJSON_GetObjectItem(doc, "measured");
	cJSON_AddStringToObject(m, "reduce", reduce);
	cJSON_AddNumberToObject(m, "clock_probe_max_s", 1e-5);
	cJSON_AddNumberToObject(m, "timeout_s", 60);
	h = cJSON_AddArrayToObject(m, "host_of_rank");
	for (k = 0; k < cfg->gpus; k++)
		cJSON_AddItemToArray(h, cJSON_CreateString("node1"));
	sm = cJSON_AddObjectToObject(doc, "simulator");
	cJSON_AddNumberToObject(sm, "loss", res->loss - loss_off);
	cJSON_AddNumberToObject(sm, "max_loss_diff", fabs(loss_off));
	cJSON_AddNumberToObject(sm, "max_grad_diff", 0);
	cJSON_AddNumberToObject(sm, "max_param_diff", 0);
	cJSON_AddBoolToObject(sm, "bit_for_bit", loss_off == 0);
	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	sim_result_free(res);
	free(res);
	return text;
}

/* Replace the first "key": value in text (as cJSON_Print writes it). */
static char *
edit(const char *text, const char *key, const char *value)
{
	char pat[64], *out = malloc(strlen(text) + strlen(value) + 1);
	const char *at, *end;

	snprintf(pat, sizeof pat, "\"%s\":\t", key);
	at = strstr(text, pat);
	ck_assert_ptr_nonnull(at);
	at += strlen(pat);
	end = at + strcspn(at, ",\n");
	sprintf(out, "%.*s%s%s", (int)(at - text), text, value, end);
	return out;
}

/*
 * lab_run_verify on text for a run of mode on gpus: 0, or -1 with the
 * JSON path of the reason in path.
 */
static int
verify(const char *text, char *path, size_t size, char *msg, size_t msize)
{
	struct sim_config cfg;
	struct sim_result *res = calloc(1, sizeof *res);
	struct sim_origin o;
	struct pl_err err;
	cJSON *root = cJSON_Parse(text);
	int rc;

	ck_assert_ptr_nonnull(root);
	ck_assert_msg(sim_result_from_json(root, "r.json", &cfg, res, &o,
	    &err) == 0, "%s", err.msg);
	rc = lab_run_verify(root, &cfg, res, &o, "r.json", &err);
	snprintf(path, size, "%s", rc == 0 ? "" : err.path);
	snprintf(msg, msize, "%s", rc == 0 ? "" : err.msg);
	if (rc != 0)
		ck_assert_str_eq(err.file, "r.json");
	cJSON_Delete(root);
	sim_result_free(res);
	free(res);
	return rc;
}

/* A run as parlearn run writes it passes, in every mode. */
START_TEST(genuine_runs_verify)
{
	static const enum sim_mode modes[] = { SIM_DP, SIM_TP, SIM_PP,
	    SIM_FSDP, SIM_3D, SIM_CP };
	struct sim_config cfg;
	char path[256], msg[512], *text;
	size_t i;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		sim_config_default(&cfg, modes[i], modes[i] == SIM_3D ? 8 : 4);
		text = run_doc(&cfg, "ordered", 0);
		ck_assert_msg(verify(text, path, sizeof path, msg,
		    sizeof msg) == 0, "%s: %s: %s", sim_mode_name(modes[i]),
		    path, msg);
		free(text);
	}
	/* The MPI library's order: a loss off by rounding still passes. */
	sim_config_default(&cfg, SIM_TP, 4);
	text = run_doc(&cfg, "mpi", 1e-12);
	ck_assert_msg(verify(text, path, sizeof path, msg, sizeof msg) == 0,
	    "%s: %s", path, msg);
	free(text);
}
END_TEST

/* Each forgery is refused at the member that gives it away. */
START_TEST(forged_runs_are_refused)
{
	static const struct {
		const char	*key, *value, *path, *msg;
	} bad[] = {
		/* a real run.json edited to "loss": 123 (issue 23) */
		{ "loss", "123", "loss", "the simulator computes" },
		{ "schema", "\"parlearn.trace/1\"", "measured",
		    "trace document carries no \"measured\"" },
		{ "schema", "\"parlearn.run/0\"", "schema",
		    "not a parlearn.run/1" },
		{ "max_grad_error", "0", "max_grad_error", "cannot be" },
		{ "max_param_error", "1e-14", "max_param_error", "cannot be" },
		{ "max_loss_error", "0.5", "max_loss_error", "differs" },
		{ "bytes_moved", "1", "bytes_moved", "events move" },
		{ "step_time_s", "0.5", "step_time_s", "events span" },
		{ "processes", "2", "measured.processes", "one process per" },
		{ "hosts", "3", "measured.hosts", "ranks name 1" },
		{ "dp", "2", "dp", "not the layout" },
		{ "replica", "1", "devices[0]", "G0 is not placed" },
		{ "reduce", "\"fast\"", "measured.reduce", "unknown value" },
		{ "bit_for_bit", "false", "simulator", "not those of its loss" },
		{ "max_grad_diff", "1e-6", "simulator", "not those of its loss" },
		{ "layer", "3", "events", "not the events of" },
	};
	struct sim_config cfg;
	char path[256], msg[512], *text, *forged;
	size_t i;

	sim_config_default(&cfg, SIM_DP, 4);
	text = run_doc(&cfg, "ordered", 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		forged = edit(text, bad[i].key, bad[i].value);
		ck_assert_msg(verify(forged, path, sizeof path, msg,
		    sizeof msg) == -1, "%s %s passed", bad[i].key,
		    bad[i].value);
		ck_assert_msg(strcmp(path, bad[i].path) == 0 &&
		    strstr(msg, bad[i].msg) != NULL, "%s %s: %s: %s",
		    bad[i].key, bad[i].value, path, msg);
		free(forged);
	}
	free(text);
	/* The MPI library's order agrees to 1e-9, no further. */
	text = run_doc(&cfg, "mpi", 1e-6);
	ck_assert_int_eq(verify(text, path, sizeof path, msg, sizeof msg), -1);
	ck_assert_str_eq(path, "loss");
	ck_assert_ptr_nonnull(strstr(msg, "to 1e-9"));
	free(text);
	text = run_doc(&cfg, "mpi", 1e-12);
	forged = edit(text, "max_grad_diff", "1e-6");
	ck_assert_int_eq(verify(forged, path, sizeof path, msg, sizeof msg),
	    -1);
	ck_assert_str_eq(path, "simulator");
	ck_assert_ptr_nonnull(strstr(msg, "agrees to 1e-9"));
	free(forged);
	free(text);
}
END_TEST

/*
 * The simulator's own timeline handed in as a run: `parlearn trace
 * --json` with a "measured" block copied in (issue 23), and the same
 * made to look like a run document, with and without its ring steps.
 */
START_TEST(trace_passed_off_as_run_is_refused)
{
	struct sim_config cfg;
	struct sim_result *res = calloc(1, sizeof *res);
	struct sim_origin o = { 1, 4, 1, "copied", 0 };
	struct pl_err err;
	cJSON *doc, *sm;
	char path[256], msg[512], *text, *run;
	size_t i, n = 0;

	sim_config_default(&cfg, SIM_DP, 4);
	ck_assert_int_eq(sim_run(&cfg, res, &err), 0);
	doc = sim_result_json(&cfg, res, &o);
	cJSON_AddStringToObject(doc, "schema", "parlearn.trace/1");
	text = cJSON_Print(doc);
	ck_assert_int_eq(verify(text, path, sizeof path, msg, sizeof msg), -1);
	ck_assert_str_eq(path, "measured");
	free(text);

	/* Renamed a run, with the run's blocks: its ring steps give it away. */
	cJSON_ReplaceItemInObject(doc, "schema",
	    cJSON_CreateString("parlearn.run/1"));
	cJSON_AddStringToObject(cJSON_GetObjectItem(doc, "measured"), "reduce",
	    "ordered");
	sm = cJSON_AddArrayToObject(cJSON_GetObjectItem(doc, "measured"),
	    "host_of_rank");
	for (i = 0; i < 4; i++)
		cJSON_AddItemToArray(sm, cJSON_CreateString("n"));
	sm = cJSON_AddObjectToObject(doc, "simulator");
	cJSON_AddNumberToObject(sm, "loss", res->loss);
	cJSON_AddNumberToObject(sm, "max_loss_diff", 0);
	cJSON_AddNumberToObject(sm, "max_grad_diff", 0);
	cJSON_AddNumberToObject(sm, "max_param_diff", 0);
	cJSON_AddBoolToObject(sm, "bit_for_bit", 1);
	text = cJSON_Print(doc);
	ck_assert_int_eq(verify(text, path, sizeof path, msg, sizeof msg), -1);
	ck_assert_str_eq(path, "events");
	ck_assert_ptr_nonnull(strstr(msg, "ring steps"));
	free(text);
	cJSON_Delete(doc);

	/* Without them, its times are still the simulator's model. */
	for (i = 0; i < res->tl.n_ev; i++)
		if (res->tl.ev[i].kind != SIM_RING_STEP)
			res->tl.ev[n++] = res->tl.ev[i];
	res->tl.n_ev = n;
	run = run_doc(&cfg, "ordered", 0);
	doc = cJSON_Parse(run);
	sm = sim_result_json(&cfg, res, &o);
	cJSON_ReplaceItemInObject(doc, "events", cJSON_DetachItemFromObject(sm,
	    "events"));
	cJSON_Delete(sm);
	text = cJSON_Print(doc);
	ck_assert_int_eq(verify(text, path, sizeof path, msg, sizeof msg), -1);
	ck_assert_ptr_nonnull(strstr(msg, "times are the simulator's"));
	free(text);
	free(run);
	cJSON_Delete(doc);
	sim_result_free(res);
	free(res);
}
END_TEST

/* A refusal's reason rides on the run record, through the file. */
START_TEST(refusal_round_trip)
{
	struct lab_result r, back;
	struct pl_err err;
	char *text, big[1000];

	memset(&r, 0, sizeof r);
	strcpy(r.user, "ada");
	strcpy(r.profile, "ada");
	strcpy(r.session, "s1");
	ck_assert_int_eq(lab_result_set_refused(&r, 1, "no record"), -1);
	ck_assert_int_eq(lab_result_add(&r, 1, LAB_ITEM_RUN, LAB_RUN_ID, 0), 0);
	ck_assert_int_eq(lab_result_set_refused(&r, 1,
	    "loss: 123 is not\x1b[2J the loss"), 0);
	ck_assert_str_eq(lab_result_find(&r, 1, LAB_ITEM_RUN,
	    LAB_RUN_ID)->refused, "loss: 123 is not the loss");
	text = lab_result_to_json(&r);
	ck_assert_int_eq(lab_result_parse(text, "r.json", &back, &err), 0);
	ck_assert_str_eq(lab_result_find(&back, 1, LAB_ITEM_RUN,
	    LAB_RUN_ID)->refused, "loss: 123 is not the loss");
	free(text);
	lab_result_free(&back);
	/* Cut on a character boundary. */
	memset(big, 0, sizeof big);
	for (size_t i = 0; i + 2 < sizeof big; i += 2)
		memcpy(big + i, "\xc3\xa4", 2);
	ck_assert_int_eq(lab_result_set_refused(&r, 1, big), 0);
	ck_assert_uint_eq(strlen(lab_result_find(&r, 1, LAB_ITEM_RUN,
	    LAB_RUN_ID)->refused), LAB_REFUSED_MAX - 2);
	lab_result_free(&r);
	/* Only a run carries one. */
	ck_assert_int_eq(lab_result_parse("{\"user\": \"a\", \"profile\": "
	    "\"a\", \"session\": \"s\", \"step\": 0, \"step_since\": 0, "
	    "\"updated\": 0, \"answers\": [{\"step\": 0, \"kind\": "
	    "\"question\", \"id\": \"q1\", \"attempts\": 1, "
	    "\"first_correct\": false, \"correct\": false, \"refused\": "
	    "\"x\"}]}", "r.json", &back, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "refused must be a run's"));
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
	tcase_add_test(tc, genuine_runs_verify);
	tcase_add_test(tc, forged_runs_are_refused);
	tcase_add_test(tc, trace_passed_off_as_run_is_refused);
	tcase_add_test(tc, refusal_round_trip);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
