/*
 * check_giveaway.c - no answer stands above its question (issue 22):
 * answer_check_giveaways finds a numeric question's figure in every form
 * the grader accepts (a unit prefix, a percentage, a ratio, thousands
 * commas, an exponent), in the text of its drop above it, in its own
 * prompt and in any other question of the course, and the same question
 * asked twice; numbers of another quantity are left alone.
 *
 * The fixture is a course of two drops. Drop A: a text block, then the
 * numeric question. Drop B: a single-choice question, then optionally
 * a copy of drop A's numeric question.
 */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/answer.h"
#include "core/engine/hardware.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* Llama 2 7B on 8 H200s, the gradient all-reduce: about 0.054 s. */
#define DP_CFG "{\"model\": \"llama2-7b\", \"gpu\": \"h200-141gb\", " \
	"\"gpus\": 8, \"gpus_per_node\": 8, \"intra_eff\": 1, \"nvls\": " \
	"false, \"dp\": 8, \"tp\": 1, \"pp\": 1, \"zero\": 0, " \
	"\"global_batch\": 64, \"micro_batch\": 1, \"kernels\": \"eager\", " \
	"\"bucket_mb\": 16384}"
/* Llama 2 13B alone: about 208 GB of model state. */
#define MS_CFG "{\"model\": \"llama2-13b\", \"gpu\": \"a100-80gb\", " \
	"\"gpus\": 1, \"dp\": 1, \"tp\": 1, \"pp\": 1, \"zero\": 0}"
/* GPipe, p = 4, m = 28: a bubble of 3/31. */
#define PP_CFG "{\"model\": \"llama2-13b\", \"gpu\": \"a100-80gb\", " \
	"\"gpus\": 4, \"gpus_per_node\": 8, \"dp\": 1, \"tp\": 1, \"pp\": 4, " \
	"\"global_batch\": 28, \"micro_batch\": 1, \"schedule\": \"gpipe\", " \
	"\"recompute\": \"full\", \"kernels\": \"eager\"}"

static struct hw_catalog cat;
static struct content_problems probs;

static void
setup(void)
{
	struct pl_err err;

	ck_assert_msg(hw_catalog_load(&cat, TOP_SRCDIR "/data", &err) == 0,
	    "%s", err.msg);
	memset(&probs, 0, sizeof probs);
}

static void
teardown(void)
{
	content_problems_free(&probs);
	hw_catalog_free(&cat);
}

/* The engine's figure for cfg. */
static double
figure(const char *cfg, const char *quantity)
{
	struct pl_err err;
	cJSON *o = cJSON_Parse(cfg);
	double v;

	ck_assert_ptr_nonnull(o);
	ck_assert_msg(answer_engine(&cat, o, quantity, "x", "", &v, &err) ==
	    0, "%s", err.msg);
	cJSON_Delete(o);
	return v;
}

static struct content_question
numeric(const char *id, const char *prompt, const char *quantity,
    const char *unit)
{
	struct content_question q;

	memset(&q, 0, sizeof q);
	q.id = (char *)id;
	q.type = CONTENT_Q_NUMERIC;
	q.prompt = (char *)prompt;
	q.explain = "Worked out after the question is over.";
	q.quantity = (char *)quantity;
	q.unit = (char *)unit;
	q.tolerance = 0.05;
	return q;
}

/* What the course fixture holds. */
struct fixture {
	const char	*text;		/* drop A's text block */
	const char	*prompt;	/* drop A's numeric question */
	const char	*cfg;
	const char	*quantity;
	const char	*unit;
	const char	*other;		/* drop B's single-choice prompt */
	const char	*dup_cfg;	/* drop B's numeric question, or NULL */
};

/* Run the check on the fixture; the number of problems it adds. */
static size_t
run(const struct fixture *f)
{
	static struct content_option opt[2] = {
		{ "Yes", 1, "Right." }, { "No", 0, "Not so." }
	};
	struct content_block a[2], b[2];
	struct content_drop d[2];
	struct content_course c;
	size_t before = probs.n;

	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	memset(d, 0, sizeof d);
	memset(&c, 0, sizeof c);
	a[0].kind = CONTENT_TEXT;
	a[0].title = "Some figures";
	a[0].text = (char *)f->text;
	a[1].kind = CONTENT_QUESTION;
	a[1].question = numeric("q2", f->prompt, f->quantity, f->unit);
	a[1].question.engine = cJSON_Parse(f->cfg);
	ck_assert_ptr_nonnull(a[1].question.engine);
	b[0].kind = CONTENT_QUESTION;
	b[0].question.id = "q1";
	b[0].question.type = CONTENT_Q_SINGLE;
	b[0].question.prompt = (char *)(f->other != NULL ? f->other :
	    "Which axis shards the optimizer?");
	b[0].question.options = opt;
	b[0].question.n_options = 2;
	b[1].kind = CONTENT_QUESTION;
	b[1].question = numeric("q3", "Work it out again.", f->quantity,
	    f->unit);
	if (f->dup_cfg != NULL) {
		b[1].question.engine = cJSON_Parse(f->dup_cfg);
		ck_assert_ptr_nonnull(b[1].question.engine);
	}
	d[0].id = "drop-01";
	d[0].title = "First";
	d[0].file = "/course/lessons/1-a/01-first.json";
	d[0].blocks = a;
	d[0].n_blocks = 2;
	d[1].id = "drop-02";
	d[1].title = "Second";
	d[1].file = "/course/lessons/1-a/02-second.json";
	d[1].blocks = b;
	d[1].n_blocks = f->dup_cfg != NULL ? 2 : 1;
	c.dir = "/course";
	c.drops = d;
	c.n_drops = 2;
	ck_assert_int_eq(answer_check_giveaways(&cat, &c, &probs),
	    (int)(probs.n - before));
	cJSON_Delete(a[1].question.engine);
	cJSON_Delete(b[1].question.engine);
	return probs.n - before;
}

/* Problems for text above a question for quantity in unit. */
static size_t
above(const char *text, const char *cfg, const char *quantity,
    const char *unit)
{
	struct fixture f = { text, "How much?", cfg, quantity, unit, NULL,
	    NULL };

	return run(&f);
}

/* The last problem's message holds s. */
static void
said(const char *s)
{
	ck_assert_uint_gt(probs.n, 0);
	ck_assert_msg(strstr(probs.items[probs.n - 1].msg, s) != NULL,
	    "\"%s\" not in \"%s\"", s, probs.items[probs.n - 1].msg);
}

/* 54 ms above a question that asks 0.054 s. */
START_TEST(unit_prefix)
{
	double v = figure(DP_CFG, "dp_comm_s");
	char text[160];

	ck_assert(v > 0.04 && v < 0.07);
	snprintf(text, sizeof text, "The ring finishes in about %.0f ms.",
	    v * 1e3);
	ck_assert_uint_eq(above(text, DP_CFG, "dp_comm_s", "s"), 1);
	said("about ");
	said(" ms\" in blocks[0].text");
	ck_assert_str_eq(probs.items[probs.n - 1].path, "blocks[1]");
	ck_assert_str_eq(probs.items[probs.n - 1].file,
	    "/course/lessons/1-a/01-first.json");
	snprintf(text, sizeof text, "It takes %.4f s.", v);
	ck_assert_uint_eq(above(text, DP_CFG, "dp_comm_s", "s"), 1);
	snprintf(text, sizeof text, "About %.0f\xc2\xa0\xc2\xb5s.", v * 1e6);
	ck_assert_uint_eq(above(text, DP_CFG, "dp_comm_s", "s"), 1);
	/* The same digits at the wrong scale or of another unit. */
	snprintf(text, sizeof text, "About %.0f \xc2\xb5s per hop.", v * 1e3);
	ck_assert_uint_eq(above(text, DP_CFG, "dp_comm_s", "s"), 0);
	snprintf(text, sizeof text, "A %.0f MB bucket.", v * 1e3);
	ck_assert_uint_eq(above(text, DP_CFG, "dp_comm_s", "s"), 0);
	snprintf(text, sizeof text, "Links of %.0f or 400 GB/s.", v * 1e3);
	ck_assert_uint_eq(above(text, DP_CFG, "dp_comm_s", "s"), 0);
}
END_TEST

/* 208,000 MB is 208 GB; 208 GiB is not; thousands commas, exponents. */
START_TEST(memory_forms)
{
	double v = figure(MS_CFG, "model_state_gb");
	char text[160];

	ck_assert(v > 200 && v < 215);
	snprintf(text, sizeof text, "That is %.0f,000 MB of state.", v);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 1);
	said(",000 MB\"");
	snprintf(text, sizeof text, "About %.2f TB.", v / 1e3);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 1);
	snprintf(text, sizeof text, "16 x 13e9 = %.3fe11 bytes.", v / 100);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 1);
	snprintf(text, sizeof text, "About %.2f × 10^11 bytes.", v / 100);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 1);
	snprintf(text, sizeof text, "About %.0f GB/GPU.", v);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 1);
	/* A bare number in a table above the question counts. */
	snprintf(text, sizeof text, "  model   GB\n  13B     %.1f\n", v);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 1);
	/* GiB is another unit, not a prefix of GB. */
	snprintf(text, sizeof text, "About %.0f GiB.", v);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 0);
}
END_TEST

/* 9.7% and 3/31 above a question that asks the bubble, 0.097. */
START_TEST(fraction_forms)
{
	double v = figure(PP_CFG, "bubble_fraction");
	char text[160];

	ck_assert_double_eq_tol(v, 3.0 / 31, 1e-3);
	snprintf(text, sizeof text, "The bubble is %.1f%% of the step.",
	    100 * v);
	ck_assert_uint_eq(above(text, PP_CFG, "bubble_fraction", "fraction"),
	    1);
	said("%\"");
	ck_assert_uint_eq(above("Fill and drain: 3/31 of the step.", PP_CFG,
	    "bubble_fraction", "fraction"), 1);
	said("3/31");
	ck_assert_uint_eq(above("A bubble of 0.097.", PP_CFG,
	    "bubble_fraction", "fraction"), 1);
	/* A percentage counts only as a fraction, not of another unit. */
	snprintf(text, sizeof text, "%.3f GB of activations.", v);
	ck_assert_uint_eq(above(text, PP_CFG, "bubble_fraction", "fraction"),
	    0);
	/* A percentage is no answer to a question in GB. */
	ck_assert_uint_eq(above("Hold 208% of the card.", MS_CFG,
	    "model_state_gb", "GB"), 0);
}
END_TEST

/* The question's own prompt, and another question anywhere. */
START_TEST(prompt_and_other_question)
{
	double v = figure(MS_CFG, "model_state_gb");
	char prompt[160], other[160];
	struct fixture f = { "Sixteen bytes a parameter.", prompt, MS_CFG,
	    "model_state_gb", "GB", NULL, NULL };

	snprintf(prompt, sizeof prompt, "It needs about %.0f GB. How many "
	    "GB of model state?", v);
	ck_assert_uint_eq(run(&f), 1);
	said("blocks[1].prompt");
	said("stands above it");
	f.prompt = "How many GB of model state?";
	snprintf(other, sizeof other, "Llama 2 13B (about %.0f GB of model "
	    "state) runs out of memory. Why?", v);
	f.other = other;
	ck_assert_uint_eq(run(&f), 1);
	said("another question, lessons/1-a/02-second.json "
	    "blocks[0].prompt");
	ck_assert_str_eq(probs.items[probs.n - 1].file,
	    "/course/lessons/1-a/01-first.json");
	/* A bare number far from its context does not count there. */
	snprintf(other, sizeof other, "Which of %.0f or 400 is right?", v);
	ck_assert_uint_eq(run(&f), 0);
}
END_TEST

/* The same quantity with the same figure, asked twice. */
START_TEST(asked_twice)
{
	struct fixture f = { "Sixteen bytes a parameter.", "How many GB?",
	    MS_CFG, "model_state_gb", "GB", NULL, MS_CFG };

	ck_assert_uint_eq(run(&f), 1);
	said("question \"q3\" asks again what question \"q2\" of "
	    "lessons/1-a/01-first.json (blocks[1]) asks");
	ck_assert_str_eq(probs.items[probs.n - 1].file,
	    "/course/lessons/1-a/02-second.json");
	/* Another configuration with another figure is another question. */
	f.dup_cfg = "{\"model\": \"llama2-7b\", \"gpu\": \"a100-80gb\", "
	    "\"gpus\": 1, \"dp\": 1, \"tp\": 1, \"pp\": 1, \"zero\": 0}";
	ck_assert_uint_eq(run(&f), 0);
}
END_TEST

/* Numbers of another quantity are not the answer. */
START_TEST(unrelated_numbers)
{
	double v = figure(MS_CFG, "model_state_gb");
	char text[400];
	int n = (int)lround(v);

	snprintf(text, sizeof text, "Train on %d GPUs, or %d A100s, as a "
	    "%d-GPU unit of %d layers; %d tokens/s at %d TFLOP/s, H%d and "
	    "bf%d names, %d x faster, %d,%03d steps, %dx the batch, links of "
	    "%d Gb/s.", n, n, n, n, n, n, n, n, n, n, n, n, n);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 0);
	/* A number within tolerance but past it is no answer either. */
	snprintf(text, sizeof text, "About %.0f GB.", v * 1.1);
	ck_assert_uint_eq(above(text, MS_CFG, "model_state_gb", "GB"), 0);
	/* Counts are never a bubble. */
	ck_assert_uint_eq(above("4 stages, 28 micro-batches, 1F1B, 3D.",
	    PP_CFG, "bubble_fraction", "fraction"), 0);
}
END_TEST

/* The shipped course gives no answer away. */
START_TEST(shipped_course)
{
	struct content_course *c = content_load(TOP_SRCDIR, NULL);

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(answer_check_giveaways(&cat, c, &probs), 0);
	ck_assert_uint_eq(probs.n, 0);
	content_free(c);
}
END_TEST

static Suite *
giveaway_suite(void)
{
	Suite *s = suite_create("giveaway");
	TCase *tc = tcase_create("forms");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, unit_prefix);
	tcase_add_test(tc, memory_forms);
	tcase_add_test(tc, fraction_forms);
	tcase_add_test(tc, prompt_and_other_question);
	tcase_add_test(tc, asked_twice);
	tcase_add_test(tc, unrelated_numbers);
	tcase_add_test(tc, shipped_course);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	sr = srunner_create(giveaway_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
