/*
 * check_config_doors.c - one cost-model configuration builder behind two
 * doors. `parlearn plan`'s options and a lesson's engine block, given the
 * same inputs, must give the same struct cm_result field by field, the
 * same --json and the same quantities; every key of the builder is an
 * option of plan and every option a key; lessons/README.md lists exactly
 * the keys and the quantities the engine knows.
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "cli/plan_emit.h"
#include "core/course/answer.h"
#include "core/engine/costmodel.h"
#include "core/json.h"
#include "capture.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static struct cli_ctx ctx = { .data_dir = TOP_SRCDIR "/data",
	.db_path = "/nonexistent", .profile = "ada" };
/* The same inputs, as a learner types them and as a lesson writes them. */
struct doors {
	const char	*argv[48];
	const char	*lesson;
};

static const struct doors cases[] = {
	/* The custom model: 1.414 B in a lesson, 1.316 B in plan. */
	{ { "plan", "--layers", "24", "--hidden", "2048", "--heads", "16",
	    "--ffn", "8192", "--vocab", "50257", "--seq", "2048", "--gpus",
	    "8", "--dp", "8", "--tp", "1", "--pp", "1", NULL },
	  "{\"layers\": 24, \"hidden\": 2048, \"heads\": 16, \"ffn\": 8192,"
	  " \"vocab\": 50257, \"seq\": 2048, \"gpus\": 8, \"dp\": 8,"
	  " \"tp\": 1, \"pp\": 1}" },
	/* Interleaved without virtual stages, and every kind of key. */
	{ { "plan", "--model", "llama2-13b", "--gpu", "a100-80gb",
	    "--gpus-per-node", "4", "--dp", "4", "--tp", "2", "--pp", "2",
	    "--schedule", "interleaved", "--zero", "1", "--recompute", "full",
	    "--seq-parallel", "--micro-batch", "2", "--global-batch", "256",
	    "--intra-bw", "250.5", "--inter-bw", "12.5", "--realistic-links",
	    "--no-pp-scatter-gather", "--optimizer", "sgd", "--precision",
	    "fp32", "--attention", "plain", "--optimizer-impl", "for-loop",
	    "--grad-dtype", "fp32", "--reduce-dtype", "fp32", NULL },
	  "{\"model\": \"llama2-13b\", \"gpu\": \"a100-80gb\","
	  " \"gpus_per_node\": 4, \"dp\": 4, \"tp\": 2, \"pp\": 2,"
	  " \"schedule\": \"interleaved\", \"zero\": 1,"
	  " \"recompute\": \"full\","
	  " \"seq_parallel\": true, \"micro_batch\": 2, \"global_batch\": 256,"
	  " \"intra_bw\": 250.5, \"inter_bw\": 12.5, \"realistic_links\": true,"
	  " \"pp_scatter_gather\": false, \"optimizer\": \"sgd\","
	  " \"precision\": \"fp32\", \"attention\": \"plain\","
	  " \"optimizer_impl\": \"for-loop\", \"grad_dtype\": \"fp32\","
	  " \"reduce_dtype\": \"fp32\"}" },
	/* A custom SwiGLU model with GQA, gpus from the degrees. */
	{ { "plan", "--layers", "32", "--hidden", "4096", "--heads", "32",
	    "--kv-heads", "8", "--ffn", "14336", "--vocab", "128256", "--seq",
	    "8192", "--mlp", "swiglu", "--dp", "2", "--tp", "4", "--pp", "2",
	    "--schedule", "interleaved", "--virtual-stages", "4",
	    "--global-batch", "64", "--params", "8.03e9", NULL },
	  "{\"layers\": 32, \"hidden\": 4096, \"heads\": 32, \"kv_heads\": 8,"
	  " \"ffn\": 14336, \"vocab\": 128256, \"seq\": 8192,"
	  " \"mlp\": \"swiglu\", \"dp\": 2, \"tp\": 4, \"pp\": 2,"
	  " \"schedule\": \"interleaved\", \"virtual_stages\": 4,"
	  " \"global_batch\": 64, \"params\": 8.03e9}" }
};

static int
count(const char *const *argv)
{
	int n = 0;

	while (argv[n] != NULL)
		n++;
	return n;
}

/* plan's door: its option parsing, then the builder, then the engine. */
static void
plan_door(const struct doors *d, struct cm_result *r)
{
	struct pl_err err;
	struct cm_config c;
	struct plan_args pa;
	cJSON *o;
	int rc;

	o = cli_plan_options(count(d->argv), (char **)d->argv, &pa, &rc);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, NULL, "", &err), 0);
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s", err.msg);
	cJSON_Delete(o);
}

/* A lesson's door: the engine block parsed from the file's text. */
static cJSON *
lesson_door(const struct doors *d, struct cm_result *r)
{
	struct pl_err err;
	struct cm_config c;
	char buf[2048];
	cJSON *o = cJSON_Parse(d->lesson);

	ck_assert_ptr_nonnull(o);
	ck_assert_msg(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err) == 0, "%s", pl_err_format(&err, buf, sizeof buf));
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s", err.msg);
	return o;
}

#define RD(f)	{ #f, offsetof(struct cm_result, f) }
#define CD(f)	{ "cfg." #f, offsetof(struct cm_result, cfg.f) }
#define CI(f)	{ "cfg." #f, offsetof(struct cm_result, cfg.f) }
struct field { const char *name; size_t off; };

static const struct field doubles[] = {
	RD(params), RD(params_gpu), RD(mem_params), RD(mem_grads),
	RD(mem_optim), RD(mem_act), RD(mem_other), RD(mem_total), RD(mem_gpu),
	RD(mem_usable), RD(act_layer), RD(flops_model), RD(flops_hw), RD(eta),
	RD(t_fwd_mb), RD(t_bwd_mb), RD(t_compute), RD(t_tp), RD(t_pp),
	RD(t_dp), RD(t_dp_exposed), RD(t_exposed_comm), RD(t_bubble),
	RD(t_optimizer), RD(t_step), RD(bubble_fraction), RD(tokens_per_s),
	RD(tflops_per_gpu), RD(hw_tflops_per_gpu), RD(mfu), RD(hfu),
	CD(intra_bw), CD(inter_bw), CD(intra_lat_s), CD(inter_lat_s),
	CD(intra_eff), CD(inter_eff), CD(buffers_bytes), CD(reserve_frac),
	CD(headroom), RD(headroom),
	CD(model.params), CD(gpu.mem_bytes), CD(gpu.peak_flops)
};
static const struct field ints[] = {
	RD(valid), RD(stage_layers), RD(fits), RD(tp_inter), RD(pp_inter),
	RD(dp_inter), RD(n_reasons), CI(gpus), CI(gpus_per_node),
	CI(micro_batch), CI(dp), CI(tp), CI(pp), CI(zero), CI(recompute),
	CI(seq_parallel), CI(schedule), CI(virtual_stages), CI(optimizer),
	CI(precision), CI(attention), CI(dp_overlap), CI(pp_scatter_gather),
	CI(any_framework), RD(frameworks),
	CI(grad_accum_fp32), CI(reduce_fp32), CI(optimizer_impl),
	CI(model.layers), CI(model.hidden),
	CI(model.heads), CI(model.kv_heads), CI(model.ffn), CI(model.vocab),
	CI(model.seq), CI(model.mlp), CI(model.norm), CI(model.tied),
	CI(model.learned_pos), CI(model.biases)
};

static void
same_result(const struct cm_result *a, const struct cm_result *b)
{
	size_t i;
	int j;

	for (i = 0; i < sizeof doubles / sizeof doubles[0]; i++) {
		double x = *(const double *)(const void *)((const char *)a +
		    doubles[i].off);
		double y = *(const double *)(const void *)((const char *)b +
		    doubles[i].off);

		ck_assert_msg(x == y, "%s: plan %.17g, lesson %.17g",
		    doubles[i].name, x, y);
	}
	for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		int x = *(const int *)(const void *)((const char *)a +
		    ints[i].off);
		int y = *(const int *)(const void *)((const char *)b +
		    ints[i].off);

		ck_assert_msg(x == y, "%s: plan %d, lesson %d", ints[i].name,
		    x, y);
	}
	ck_assert_int_eq(a->microbatches, b->microbatches);
	ck_assert_int_eq(a->cfg.global_batch, b->cfg.global_batch);
	ck_assert_str_eq(a->cfg.model.name, b->cfg.model.name);
	ck_assert_str_eq(a->cfg.gpu.name, b->cfg.gpu.name);
	for (j = 0; j < a->n_reasons; j++)
		ck_assert_str_eq(a->reasons[j].text, b->reasons[j].text);
	/* Fields added later are held too: both start from zeroed memory. */
	ck_assert_msg(memcmp(a, b, sizeof *a) == 0,
	    "a field of struct cm_result not listed above differs");
}

START_TEST(same_result_both_doors)
{
	const struct doors *d = &cases[_i];
	struct cm_result *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	cJSON *o;

	plan_door(d, a);
	o = lesson_door(d, b);
	same_result(a, b);
	cJSON_Delete(o);
	free(a);
	free(b);
}
END_TEST

/* The whole of plan --json equals the lesson result's JSON. */
START_TEST(same_json_both_doors)
{
	const struct doors *d = &cases[_i];
	struct cm_result *b = calloc(1, sizeof *b);
	const char *argv[64];
	struct capture c;
	cJSON *o, *got, *want;
	int n = count(d->argv);

	memcpy(argv, d->argv, n * sizeof argv[0]);
	argv[n] = "--json";
	argv[n + 1] = NULL;
	capture_run(cli_plan_main, &ctx, n + 1, (char **)argv, &c);
	ck_assert_msg(c.rc == 0, "%s", c.err);
	got = cJSON_Parse(c.out);
	/* The document's envelope (cli/jsonout.h) around the engine's JSON. */
	ck_assert_str_eq(cJSON_GetObjectItem(got, "schema")->valuestring,
	    "parlearn.plan/1");
	cJSON_DeleteItemFromObject(got, "schema");
	cJSON_DeleteItemFromObject(got, "assumed");
	o = lesson_door(d, b);
	want = cm_result_json(b);
	ck_assert_msg(cJSON_Compare(got, want, 1), "plan: %s", c.out);
	cJSON_Delete(got);
	cJSON_Delete(want);
	cJSON_Delete(o);
	capture_free(&c);
	free(b);
}
END_TEST

/* What a numeric question asks for is what plan computes. */
START_TEST(same_quantities_both_doors)
{
	const struct doors *d = &cases[_i];
	const char *const *q;
	struct cm_result *a = calloc(1, sizeof *a);
	struct pl_err err;
	double want, got;
	cJSON *o = cJSON_Parse(d->lesson);

	plan_door(d, a);
	for (q = cm_quantity_names(); *q != NULL; q++) {
		ck_assert_int_eq(cm_quantity(a, *q, &want), 0);
		ck_assert_msg(answer_engine(&cat, o, *q, "l.json", "engine",
		    &got, &err) == 0, "%s", err.msg);
		ck_assert_msg(got == want, "%s: lesson %.17g, plan %.17g", *q,
		    got, want);
	}
	cJSON_Delete(o);
	free(a);
}
END_TEST

/*
 * The settled count: a GeLU model given by sizes is GPT style, [NAR21]
 * eq. 2 L(12h^2 + 13h) + Vh + sh, plus the final LayerNorm's 2h.
 */
START_TEST(custom_model_params)
{
	struct cm_result *r = calloc(1, sizeof *r);
	double L = 24, h = 2048, V = 50257, s = 2048;

	plan_door(&cases[0], r);
	ck_assert_double_eq(r->params, L * (12 * h * h + 13 * h) + V * h +
	    s * h + 2 * h);
	ck_assert_double_eq_tol(r->params / 1e9, 1.3157, 5e-5);
	ck_assert(r->cfg.model.biases && r->cfg.model.tied &&
	    r->cfg.model.learned_pos && r->cfg.model.norm == HW_NORM_LAYER);
	/* SwiGLU sizes are Llama style: RMSNorm, no biases, untied. */
	plan_door(&cases[2], r);
	ck_assert(!r->cfg.model.biases && !r->cfg.model.tied &&
	    !r->cfg.model.learned_pos && r->cfg.model.norm == HW_NORM_RMS);
	free(r);
}
END_TEST

/* Interleaved without virtual stages is v = 2 at both doors. */
START_TEST(interleaved_default_v)
{
	struct cm_result *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	cJSON *o;

	plan_door(&cases[1], a);
	o = lesson_door(&cases[1], b);
	ck_assert_int_eq(a->cfg.schedule, PIPE_INTERLEAVED);
	ck_assert_int_eq(a->cfg.virtual_stages, CM_INTERLEAVED_V);
	ck_assert_int_eq(b->cfg.virtual_stages, CM_INTERLEAVED_V);
	ck_assert_int_eq(CM_INTERLEAVED_V, 2);
	cJSON_Delete(o);
	free(a);
	free(b);
}
END_TEST

/* "--kv-heads" -> "kv_heads"; "--no-x" -> "x" when x is a BOOL key. */
static const struct cm_key *
key_of_option(const char *opt, int *neg)
{
	char k[64];
	const struct cm_key *key;
	size_t i;

	snprintf(k, sizeof k, "%s", opt);
	for (i = 0; k[i] != '\0'; i++)
		if (k[i] == '-')
			k[i] = '_';
	*neg = 0;
	if ((key = cm_key_find(k)) == NULL && strncmp(k, "no_", 3) == 0 &&
	    (key = cm_key_find(k + 3)) != NULL && key->kind == CM_KEY_BOOL)
		*neg = 1;
	else if (key == NULL)
		return NULL;
	return key;
}

/* Every "--word" of plan --help, NULL-terminated (caller frees). */
static char **
help_options(char *text)
{
	char **v = calloc(256, sizeof *v), *p = text;
	size_t n = 0, len;

	while ((p = strstr(p, "--")) != NULL && n < 255) {
		p += 2;
		len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-");
		if (len > 0)
			v[n++] = strndup(p, len);
		p += len;
	}
	return v;
}

static int
listed(char **v, const char *name)
{
	for (; *v != NULL; v++)
		if (strcmp(*v, name) == 0)
			return 1;
	return 0;
}

static void
free_list(char **v)
{
	char **p;

	for (p = v; *p != NULL; p++)
		free(*p);
	free(v);
}

/* A valid value for a key's option, or NULL for a flag. */
static const char *
sample(const struct cm_key *k)
{
	switch (k->kind) {
	case CM_KEY_INT:
	case CM_KEY_NUMBER:
		return k->lo >= 1 ? "1" : "0";
	case CM_KEY_WORD:
		return k->words[0];
	case CM_KEY_NAME:
		return "x";
	default:
		return NULL;
	}
}

START_TEST(options_are_keys)
{
	char *argv[] = { "plan", "--help", NULL };
	const struct cm_key *k;
	struct capture c;
	char **opts, name[64], neg[68];
	size_t i, n_opts = 0;
	int is_neg;

	capture_run(cli_plan_main, &ctx, 2, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	opts = help_options(c.out);
	/* Every option is a key (or one of plan's output options). */
	for (i = 0; opts[i] != NULL; i++, n_opts++)
		ck_assert_msg(strcmp(opts[i], "json") == 0 ||
		    strcmp(opts[i], "help") == 0 ||
		    strcmp(opts[i], "emit") == 0 ||
		    strcmp(opts[i], "output") == 0 ||
		    strcmp(opts[i], "row") == 0 ||
		    key_of_option(opts[i], &is_neg) != NULL,
		    "--%s is an option of plan but no engine key", opts[i]);
	ck_assert_int_gt(n_opts, 25);
	/* Every key is an option, and plan accepts it into that key. */
	for (k = cm_keys(); k->name != NULL; k++) {
		char *a[] = { "plan", name, (char *)sample(k), NULL };
		struct plan_args pa;
		int rc;
		cJSON *o;

		for (i = 0; k->name[i] != '\0' && i < 40; i++)
			name[i] = k->name[i] == '_' ? '-' : k->name[i];
		name[i] = '\0';
		ck_assert_msg(listed(opts, name), "key %s: no --%s in plan "
		    "--help", k->name, name);
		snprintf(neg, sizeof neg, "no-%s", name);
		if (k->kind == CM_KEY_BOOL)
			ck_assert_msg(listed(opts, neg), "no --%s", neg);
		memmove(name + 2, name, strlen(name) + 1);
		name[0] = name[1] = '-';
		o = cli_plan_options(a[2] != NULL ? 3 : 2, a, &pa, &rc);
		ck_assert_msg(o != NULL, "plan refuses %s", name);
		ck_assert_msg(cJSON_GetObjectItemCaseSensitive(o, k->name) !=
		    NULL, "%s does not set the key %s", name, k->name);
		cJSON_Delete(o);
	}
	free_list(opts);
	capture_free(&c);
}
END_TEST

/* The backquoted words of text between from and to, NULL-terminated. */
static char **
quoted(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from), *end, *q;
	char **v = calloc(256, sizeof *v);
	size_t n = 0;

	ck_assert_ptr_nonnull(p);
	end = strstr(p, to);
	ck_assert_ptr_nonnull(end);
	while ((p = strchr(p, '`')) != NULL && p < end && n < 255) {
		q = strchr(p + 1, '`');
		ck_assert_ptr_nonnull(q);
		/* Keys and quantities are [a-z][a-z0-9_]* (fp8_recipe);
		 * values are not. */
		if (q > p + 1 && p[1] >= 'a' && p[1] <= 'z' && strspn(p + 1,
		    "abcdefghijklmnopqrstuvwxyz0123456789_") ==
		    (size_t)(q - p - 1))
			v[n++] = strndup(p + 1, q - p - 1);
		p = q + 1;
	}
	return v;
}

START_TEST(readme_lists_keys_and_quantities)
{
	struct pl_err err;
	char *text = pl_read_file(TOP_SRCDIR "/lessons/README.md", NULL,
	    &err);
	const char *const *q;
	const struct cm_key *k;
	char **keys, **qs;
	size_t i;

	ck_assert_ptr_nonnull(text);
	keys = quoted(text, "### Engine configurations", "Quantities");
	qs = quoted(text, "Quantities", "## A deck");
	for (i = 0; keys[i] != NULL; i++)
		ck_assert_msg(cm_key_find(keys[i]) != NULL, "README lists "
		    "`%s`, which the engine does not take", keys[i]);
	for (k = cm_keys(); k->name != NULL; k++)
		ck_assert_msg(listed(keys, k->name), "README does not list "
		    "the key `%s`", k->name);
	for (i = 0; qs[i] != NULL; i++) {
		double v;

		ck_assert_msg(cm_quantity(&(struct cm_result){ 0 }, qs[i],
		    &v) == 0, "README lists quantity `%s`", qs[i]);
	}
	for (q = cm_quantity_names(); *q != NULL; q++)
		ck_assert_msg(listed(qs, *q), "README misses quantity `%s`",
		    *q);
	free_list(keys);
	free_list(qs);
	free(text);
}
END_TEST

/* Builder errors at plan's door name the option. */
static void
expect_err(int argc, char **argv, const char *msg)
{
	struct capture c;

	capture_run(cli_plan_main, &ctx, argc, argv, &c);
	ck_assert_int_eq(c.rc, 1);
	ck_assert_msg(strstr(c.err, msg) != NULL, "stderr: %s", c.err);
	capture_free(&c);
}

START_TEST(errors_name_the_option)
{
	char *a1[] = { "plan", "--model", "gpt3-175b", "--zero", "5", NULL };
	char *a2[] = { "plan", "--model", "gpt3-175b", "--tp", "x", NULL };
	char *a3[] = { "plan", "--model", "gpt3-175b", "--tp", "1.5", NULL };
	char *a4[] = { "plan", "--layers", "2", "--hidden", "64", NULL };
	char *a5[] = { "plan", "--model", "gpt3-175b", "--schedule", "zigzag",
	    NULL };
	char *a6[] = { "plan", "--model", "gpt3-175b", "--gpus-per-node", "0",
	    NULL };

	expect_err(5, a1, "parlearn: plan: --zero: must be between 0 and 3");
	expect_err(5, a2, "parlearn: plan: --tp: invalid number 'x'");
	expect_err(5, a3, "parlearn: plan: --tp: must be an integer");
	expect_err(5, a4, "parlearn: plan: --heads: needed when no model");
	expect_err(5, a5, "parlearn: plan: --schedule: unknown value "
	    "\"zigzag\"");
	expect_err(5, a6, "parlearn: plan: --gpus-per-node: must be between");
}
END_TEST

static Suite *
doors_suite(void)
{
	Suite *s = suite_create("config_doors");
	int n = (int)(sizeof cases / sizeof cases[0]);
	TCase *tc = tcase_create("plan and lesson agree");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_loop_test(tc, same_result_both_doors, 0, n);
	tcase_add_loop_test(tc, same_json_both_doors, 0, n);
	tcase_add_loop_test(tc, same_quantities_both_doors, 0, n);
	tcase_add_test(tc, custom_model_params);
	tcase_add_test(tc, interleaved_default_v);
	suite_add_tcase(s, tc);
	tc = tcase_create("one list of keys");
	tcase_add_test(tc, options_are_keys);
	tcase_add_test(tc, readme_lists_keys_and_quantities);
	tcase_add_test(tc, errors_name_the_option);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(doors_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
