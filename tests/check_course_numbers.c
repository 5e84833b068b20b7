/*
 * check_course_numbers.c - figures the course states in prose agree with
 * the engine. Numeric questions are answered by the engine already (the
 * loader refuses typed answers); these are numbers a lesson has to write
 * in its text, issue 14's corrections among them: drop 2's 16-H200
 * all-reduce, drop 3's TP 16 premise that runs, drop 5's 64-H200
 * reduction that hides, drop 6's ratios for TP 16 across two nodes,
 * drop 11's 40% and drop 14's (2, 8, 4) headroom; then a table
 * (figures[]) of every engine figure in the prose of drops 8 and 10 to 14
 * and their cards, and what the incident briefs claim. Issue 25 added
 * drop 6 q4 and q5 checked through the plan commands they print, DP's
 * per-layer all-reduces against DDP's buckets, the break-even's
 * condition, the cards' memory, what recomputation buys the questions
 * that use it, and the ranking's top MFU with its 2021 settings.
 * Issue 26 added drop 15 (long context): its figures in the table, its
 * cards', and what it states without a number (drop15_long_context);
 * issue 27 drop 16 (sparse models) the same way (drop16_sparse), and
 * drop 17's bubbles re-derived from the schedules' formulas
 * (drop17_bubbles).
 *
 * Each check names a drop, a unit of it (a question id or a text block's
 * title), the words around the number, and the engine figure it must match
 * within a relative tolerance. The configurations are the lessons' own
 * (a question's "engine", a scenario's "start") with the keys the prose
 * changes laid over them.
 */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* The block of drop `drop` whose question id or text title is `unit`. */
static const struct content_block *
unit_of(const char *drop, const char *unit)
{
	const struct content_drop *d = content_find_drop(course, drop);
	const struct content_block *b;
	size_t i;

	ck_assert_msg(d != NULL, "no %s", drop);
	for (i = 0; i < d->n_blocks; i++) {
		b = &d->blocks[i];
		if ((b->question.id != NULL && strcmp(b->question.id, unit) ==
		    0) || (b->scenario.id != NULL && strcmp(b->scenario.id,
		    unit) == 0) || (b->title != NULL && strcmp(b->title,
		    unit) == 0))
			return b;
	}
	ck_abort_msg("%s has no block %s", drop, unit);
	return NULL;
}

/* All the prose of a block, joined; the caller frees it. */
static char *
prose(const struct content_block *b)
{
	static char buf[16384];
	const char *part[4];
	size_t i, k;

	buf[0] = '\0';
	part[0] = b->text;
	part[1] = b->question.prompt;
	part[2] = b->question.explain;
	part[3] = b->question.answer != NULL ? b->question.answer :
	    b->scenario.solution;
	for (i = 0; i < 4; i++)
		if (part[i] != NULL) {
			strncat(buf, part[i], sizeof buf - strlen(buf) - 2);
			strcat(buf, "\n");
		}
	for (k = 0; k < b->question.n_options; k++) {
		strncat(buf, b->question.options[k].text, sizeof buf -
		    strlen(buf) - 2);
		strcat(buf, "\n");
		strncat(buf, b->question.options[k].explain, sizeof buf -
		    strlen(buf) - 2);
		strcat(buf, "\n");
	}
	return strdup(buf);
}

/*
 * The number written between `before` and `after` in text ("22,700" reads
 * as 22700). Fails the test when the words are not there.
 */
static double
number_in(const char *text, const char *before, const char *after)
{
	const char *p = text, *q;
	char digits[64];
	size_t n;

	while ((p = strstr(p, before)) != NULL) {
		p += strlen(before);
		for (q = p, n = 0; (*q >= '0' && *q <= '9') || *q == ',' ||
		    *q == '.'; q++)
			if (*q != ',' && n + 1 < sizeof digits)
				digits[n++] = *q;
		if (n > 0 && digits[n - 1] == '.') {
			n--;
			q--;
		}
		digits[n] = '\0';
		if (n > 0 && strncmp(q, after, strlen(after)) == 0)
			return strtod(digits, NULL);
	}
	ck_abort_msg("no number between \"%s\" and \"%s\"", before, after);
	return NAN;
}

/* The config of base with the keys of `over` (a JSON object text) laid
 * on it. */
static void
config_of(const cJSON *base, const char *over, struct cm_config *c)
{
	cJSON *o = cJSON_Duplicate(base, 1), *x, *item;
	struct pl_err err;

	ck_assert_ptr_nonnull(o);
	if (over != NULL) {
		x = cJSON_Parse(over);
		ck_assert_ptr_nonnull(x);
		cJSON_ArrayForEach(item, x) {
			cJSON_DeleteItemFromObjectCaseSensitive(o,
			    item->string);
			cJSON_AddItemToObject(o, item->string,
			    cJSON_Duplicate(item, 1));
		}
		cJSON_Delete(x);
	}
	ck_assert_msg(cm_config_from_json(c, o, &cat, "test", "", &err) == 0,
	    "%s", err.msg);
	cJSON_Delete(o);
}

/* Evaluate base with the keys of `over` laid on it. */
static void
run(const cJSON *base, const char *over, struct cm_result *r)
{
	struct cm_config c;
	struct pl_err err;

	config_of(base, over, &c);
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s", err.msg);
}

static void
run_text(const char *json, struct cm_result *r)
{
	cJSON *o = cJSON_Parse(json);

	ck_assert_ptr_nonnull(o);
	run(o, NULL, r);
	cJSON_Delete(o);
}

/*
 * The engine configuration of the first "parlearn plan ..." command in
 * text, up to ", then" or the end of the sentence: each --key value (or
 * --flag) as a lesson's engine key, '-' read as '_'. A figure checked
 * against it is then the one the learner gets by typing the command.
 */
static cJSON *
plan_command(const char *text)
{
	const char *p = strstr(text, "parlearn plan "), *end;
	char word[64], key[64];
	cJSON *o = cJSON_CreateObject();
	size_t n, i;

	ck_assert_msg(p != NULL, "no parlearn plan command in the text");
	p += strlen("parlearn plan ");
	end = p + strcspn(p, ",\n");
	while (end > p && (end[-1] == '.' || end[-1] == ' '))
		end--;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		for (n = 0; p < end && *p != ' ' && n + 1 < sizeof word; p++)
			word[n++] = *p;
		word[n] = '\0';
		if (n == 0)
			break;
		ck_assert_msg(strncmp(word, "--", 2) == 0, "%s", word);
		for (i = 0; word[i + 2] != '\0'; i++)
			key[i] = word[i + 2] == '-' ? '_' : word[i + 2];
		key[i] = '\0';
		while (p < end && *p == ' ')
			p++;
		if (p >= end || strncmp(p, "--", 2) == 0) {
			cJSON_AddBoolToObject(o, key, 1);
			continue;
		}
		for (n = 0; p < end && *p != ' ' && n + 1 < sizeof word; p++)
			word[n++] = *p;
		word[n] = '\0';
		if (strspn(word, "0123456789.") == n)
			cJSON_AddNumberToObject(o, key, strtod(word, NULL));
		else
			cJSON_AddStringToObject(o, key, word);
	}
	return o;
}

#define NEAR(said, engine, tol) ck_assert_msg(fabs((said) - (engine)) <= \
	(tol) * fabs(engine), "prose says %g, the engine %g", (double)(said), \
	(double)(engine))

/*
 * Drop 2 q3: 16 H200s in two nodes reduce in about 63 ms, not 0.5 s. The
 * text above the question gives the 8 x 50 GB/s the node boundary
 * carries, not the time (issue 22: no answer stands above its question).
 */
START_TEST(drop02_two_nodes)
{
	const struct content_block *q = unit_of("drop-02", "q3");
	const struct content_block *t = unit_of("drop-02",
	    "How the all-reduce moves bytes");
	struct cm_result *r = calloc(1, sizeof *r);

	run(q->question.engine, NULL, r);
	ck_assert(r->group[MESH_DP].per_node == 8 && r->group[MESH_DP].nodes == 2);
	NEAR(number_in(q->question.explain, "about ", " ms, a fifth"),
	    r->t_dp * 1e3, 0.05);
	ck_assert_ptr_nonnull(strstr(t->text, "8 × 50 = 400 GB/s"));
	/* One rank per node would need about half a second. */
	run(q->question.engine, "{\"gpus_per_node\": 1}", r);
	ck_assert(r->t_dp > 0.4 && r->t_dp < 0.6);
	free(r);
}
END_TEST

/*
 * Drop 3 q5: Megatron-LM's 39.1B at TP 16 over two A100 nodes runs (64
 * heads split 16 ways, TP 8 x DP 2 does not fit) and makes about 30 %
 * fewer tokens than the paper's TP 8 x PP 2; most of its threefold TP
 * time would remain inside one 16-GPU NVLink domain.
 */
START_TEST(drop03_tp16_runs)
{
	char *q = prose(unit_of("drop-03", "q5"));
	struct cm_result *r = calloc(1, sizeof *r), *s = calloc(1, sizeof *s);
	struct cm_config c;
	struct pl_err err;
	cJSON *base = cJSON_Parse("{\"model\": \"megatron-39.1b\", \"gpu\": "
	    "\"a100-80gb\", \"gpus\": 16, \"gpus_per_node\": 8, "
	    "\"kernels\": \"fused\"}");

	ck_assert_ptr_nonnull(base);
	run(base, "{\"dp\": 2, \"tp\": 8, \"pp\": 1}", r);
	ck_assert(!r->fits);
	NEAR(number_in(q, "DP 2 would need about ", " GB"), r->mem_total / 1e9,
	    0.02);
	run(base, "{\"dp\": 1, \"tp\": 8, \"pp\": 2}", s);
	run(base, "{\"dp\": 1, \"tp\": 16, \"pp\": 1}", r);
	ck_assert(r->valid && r->fits && r->tp_inter &&
	    r->group[MESH_TP].per_node == 8);
	ck_assert(s->fits && !s->tp_inter);
	NEAR(number_in(q, "gives about ", " GB per GPU"), r->mem_total / 1e9,
	    0.02);
	NEAR(number_in(q, "GB per GPU and about ", " tokens/s"),
	    r->tokens_per_s, 0.02);
	NEAR(number_in(q, "against about ", " for TP 8"), s->tokens_per_s,
	    0.02);
	NEAR(number_in(q, "makes about ", " % fewer"), 100 * (1 -
	    r->tokens_per_s / s->tokens_per_s), 0.05);
	NEAR(number_in(q, "takes about ", " s of each step"), r->t_tp, 0.02);
	NEAR(number_in(q, "instead of about ", " s."), s->t_tp, 0.02);
	NEAR(number_in(q, "gets about ", " GB/s per GPU"), r->group_bw[MESH_TP] / 1e9,
	    0.02);
	NEAR(number_in(q, "GB/s per GPU against ", " on NVLink"), s->group_bw[MESH_TP] / 1e9,
	    0.02);
	ck_assert(r->t_tp / s->t_tp > 2.7 && r->t_tp / s->t_tp < 3.3);
	/* The same TP 16 in one 16-GPU NVLink domain. */
	run(base, "{\"dp\": 1, \"tp\": 16, \"pp\": 1, \"gpus_per_node\": 16}",
	    r);
	NEAR(number_in(q, "would still spend about ", " s"), r->t_tp, 0.02);
	/* OPT-30B, the old premise, cannot split its 56 heads 16 ways. */
	cJSON_Delete(base);
	base = cJSON_Parse("{\"model\": \"30b\", \"gpus\": 16, \"dp\": 1, "
	    "\"tp\": 16, \"pp\": 1}");
	ck_assert_ptr_nonnull(base);
	ck_assert(cm_config_from_json(&c, base, &cat, "test", "", &err) != 0 ||
	    cm_evaluate(&c, r, &err) != 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "56 heads"));
	cJSON_Delete(base);
	free(q);
	free(r);
	free(s);
}
END_TEST

/*
 * Drop 5 q5: 64 H200s of pure DP: about 0.07 s by bandwidth; in DDP's 515
 * buckets about 0.37 s, 0.13 s exposed; in 400 MiB buckets about 0.09 s,
 * none exposed.
 */
START_TEST(drop05_hides)
{
	const struct content_block *q = unit_of("drop-05", "q5");
	struct cm_result *r = calloc(1, sizeof *r);
	const char *seven = "{\"model\": \"llama2-7b\", \"gpu\": "
	    "\"h200-141gb\", \"gpus\": 64, \"gpus_per_node\": 8, "
	    "\"inter_bw\": 50, \"dp\": 64, \"tp\": 1, \"pp\": 1, "
	    "\"zero\": 0, \"global_batch\": 64, \"micro_batch\": 1, "
	    "\"kernels\": \"eager\"}";
	const char *a = q->question.answer;

	run_text(seven, r);
	NEAR(number_in(a, "bandwidth part at about ", " s."),
	    r->dp_bytes / r->group_bw[MESH_DP], 0.1);
	NEAR(number_in(a, "64 ranks: about ", " s of all-reduce"), r->t_dp,
	    0.05);
	NEAR(number_in(a, "and about ", " s of it exposed"), r->t_dp_exposed,
	    0.1);
	ck_assert_int_eq(r->dp_collectives, 515);
	ck_assert_ptr_nonnull(strstr(a, "DDP's 515 buckets"));
	free(r);
	r = calloc(1, sizeof *r);
	{
		cJSON *o = cJSON_Parse(seven);

		run(o, "{\"bucket_mb\": 400}", r);
		cJSON_Delete(o);
	}
	NEAR(number_in(a, "(400 MiB: ", " buckets"),
	    (double)r->dp_collectives, 0);
	NEAR(number_in(a, "buckets, about ", " s, none"), r->t_dp, 0.1);
	ck_assert_double_eq(r->t_dp_exposed, 0);
	free(r);
}
END_TEST

/*
 * Drop 6: TP 16 over two nodes of 8 is about 1.1 times slower than NVLink
 * in bandwidth on H100s, 1.5 times on A100s; for GPT-NeoX-20B a layer's
 * all-reduces take about 1.5 times as long, and the q4 premise runs.
 */
START_TEST(drop06_ratios)
{
	char *t = prose(unit_of("drop-06", "Why TP stops at eight"));
	char *q4 = prose(unit_of("drop-06", "q4"));
	struct cm_result *r = calloc(1, sizeof *r), *s = calloc(1, sizeof *s);
	/* q4's own command: what the learner types is what is checked */
	cJSON *base = plan_command(q4);
	double per16, per8;

	ck_assert_ptr_nonnull(base);
	run(base, "{\"tp\": 16, \"pp\": 1, \"intra_eff\": 1, \"inter_eff\": 1}",
	    r);
	run(base, "{\"tp\": 8, \"pp\": 2, \"intra_eff\": 1, \"inter_eff\": 1}",
	    s);
	ck_assert(r->tp_inter && r->group[MESH_TP].per_node == 8);
	NEAR(number_in(t, "only about ", " times slower than TP inside one"),
	    s->group_bw[MESH_TP] / r->group_bw[MESH_TP], 0.05);
	run(base, "{\"gpu\": \"a100-80gb\", \"tp\": 16, \"pp\": 1, "
	    "\"intra_eff\": 1, \"inter_eff\": 1}", r);
	run(base, "{\"gpu\": \"a100-80gb\", \"tp\": 8, \"pp\": 2, "
	    "\"intra_eff\": 1, \"inter_eff\": 1}", s);
	NEAR(number_in(t, "200 against 300 GB/s, about ", " times."),
	    s->group_bw[MESH_TP] / r->group_bw[MESH_TP], 0.05);
	/* Per layer and micro-batch, at the engine's defaults. */
	run(base, "{\"tp\": 16, \"pp\": 1}", r);
	run(base, "{\"tp\": 8, \"pp\": 2}", s);
	per16 = r->t_tp / r->stage_layers;
	per8 = s->t_tp / s->stage_layers;
	NEAR(number_in(t, "take about ", " times as long as TP 8's"),
	    per16 / per8, 0.05);
	/* q4: the batch it states, and every figure of its options */
	ck_assert_ptr_nonnull(strstr(q4, "global batch of 16 sequences of "
	    "2,048 tokens, micro-batch 1, sequence parallelism on"));
	ck_assert(r->cfg.global_batch == 16 && r->cfg.micro_batch == 1 &&
	    r->cfg.seq_parallel && r->cfg.kernels == CM_KERNELS_FUSED);
	ck_assert(r->fits && s->fits);
	NEAR(number_in(q4, "Megatron-based trainer, that is about ",
	    " tokens/s against"), r->tokens_per_s, 0.03);
	NEAR(number_in(q4, "tokens/s against ", ". What"), s->tokens_per_s,
	    0.03);
	NEAR(number_in(q4, "puts TP at ", " s of a"), r->t_tp, 0.02);
	NEAR(number_in(q4, " s of a ", " s step"), r->t_step, 0.01);
	ck_assert_ptr_nonnull(strstr(q4, "step, against about a third of a "));
	NEAR(1.0 / 3, s->t_tp / s->t_step, 0.1);
	NEAR(number_in(q4, "a third of a ", " s step for TP 8"), s->t_step,
	    0.01);
	NEAR(number_in(q4, "each layer's all-reduces take about ",
	    " times as long"), per16 / per8, 0.05);
	NEAR(number_in(q4, "not more: about ", " GB against"),
	    r->mem_total / 1e9, 0.03);
	NEAR(number_in(q4, "GB against ", " GB in the engine"),
	    s->mem_total / 1e9, 0.03);
	cJSON_Delete(base);
	free(t);
	free(q4);
	free(r);
	free(s);
}
END_TEST

/*
 * Drop 6 q5: the TP time of one micro-batch over Llama 2 70B's 80 layers,
 * by hand (the formula, 450 and 50 GB/s) and in the engine (q5's own
 * command), each against the compute it is compared with.
 */
START_TEST(drop06_q5_named)
{
	char *a = prose(unit_of("drop-06", "q5"));
	struct cm_result *r = calloc(1, sizeof *r);
	cJSON *base = plan_command(a);
	/* one all-reduce of b s h bf16 values over t = 8, per GPU */
	double ar = 2.0 * 7 / 8 * 2 * 4096 * 8192;

	NEAR(number_in(a, "about ", " s in TP all-reduces on NVLink"),
	    80 * 4 * ar / 450e9, 0.05);
	NEAR(number_in(a, "NVLink and about ", " s with one rank per node, "
	    "against 80"), 80 * 4 * ar / 50e9, 0.02);
	NEAR(number_in(a, "against 80 × 5.7 ≈ ", " s of compute"), 80 * 5.7e-3,
	    0.02);
	run(base, NULL, r);
	ck_assert_int_eq(r->microbatches, 1);
	ck_assert_int_eq(r->stage_layers, 80);
	ck_assert(r->group[MESH_TP].per_node == 8);
	NEAR(number_in(a, "gives about ", " s on NVLink"), r->t_tp, 0.05);
	NEAR(number_in(a, "against ", " s of compute: parlearn"),
	    r->t_compute, 0.03);
	run(base, "{\"gpus_per_node\": 1}", r);
	ck_assert(r->group[MESH_TP].per_node == 1);
	NEAR(number_in(a, "s on NVLink and ", " s with one rank per node, "
	    "against 0"), r->t_tp, 0.03);
	cJSON_Delete(base);
	free(a);
	free(r);
}
END_TEST

/*
 * Drops 2 and 5: the questions ask for one all-reduce of the whole
 * gradient (bucket_mb past its size: one collective); the prose gives
 * PyTorch DDP's buckets beside it (bucket_cap_mb = 25, in MiB:
 * torch/nn/parallel/distributed.py multiplies by 1024 * 1024), 13.5 GB /
 * 25 MiB, and the engine's time with them.
 */
START_TEST(dp_collectives_named)
{
	const struct content_block *q2 = unit_of("drop-02", "q2");
	const struct content_block *q3 = unit_of("drop-02", "q3");
	const struct content_block *q5 = unit_of("drop-05", "q2");
	const char *ddp = "{\"bucket_mb\": 25}";
	struct cm_result *r = calloc(1, sizeof *r);

	run(q2->question.engine, NULL, r);
	ck_assert(r->fits);
	ck_assert_int_eq(r->dp_collectives, 1);
	NEAR(number_in(q2->question.explain, "single ring latency: about ",
	    " ms."), r->t_dp * 1e3, 0.02);
	NEAR(number_in(q2->question.explain, "26.2 MB), about ",
	    " all-reduces for 13.5 GB"), 2 * r->params / (25 * 1048576.0), 0.02);
	run(q2->question.engine, ddp, r);
	ck_assert_int_eq(r->dp_collectives, 515);
	NEAR(number_in(q2->question.explain, "the engine gives about ",
	    " ms, most"), r->t_dp * 1e3, 0.03);
	run(q3->question.engine, NULL, r);
	ck_assert(r->fits);
	ck_assert_int_eq(r->dp_collectives, 1);
	run(q3->question.engine, ddp, r);
	NEAR(number_in(q3->question.explain, "Sent as DDP's ", " buckets"),
	    (double)r->dp_collectives, 0);
	NEAR(number_in(q3->question.explain, "it takes about ",
	    " ms in the engine"), r->t_dp * 1e3, 0.03);
	run(q5->question.engine, NULL, r);
	ck_assert(r->fits);
	ck_assert_int_eq(r->dp_collectives, 1);
	NEAR(number_in(q5->question.explain, "≈ ", " s, which is what the "
	    "engine gives"), r->t_dp, 0.05);
	run(q5->question.engine, ddp, r);
	NEAR(number_in(q5->question.explain, "would send it as about ",
	    " buckets"), (double)r->dp_collectives, 0);
	NEAR(number_in(q5->question.explain, "ring latency: about ",
	    " s in the engine"), r->t_dp, 0.05);
	free(r);
}
END_TEST

/*
 * Drop 5 and card p2-dp-breakeven: break-even tokens per GPU, 2 F / (3 B)
 * at F = 400 TFLOP/s, and the condition each bandwidth needs; in the
 * engine a 7B replica with one 4,096-token sequence and one NIC per GPU
 * reduces for longer than it computes, as the text says.
 */
START_TEST(dp_breakeven)
{
	char *t = prose(unit_of("drop-05", "When the all-reduce costs more "
	    "than the compute"));
	const char *back = NULL;
	struct cm_result *r = calloc(1, sizeof *r);
	size_t i;

	for (i = 0; i < course->n_cards; i++)
		if (strcmp(course->cards[i].id, "p2-dp-breakeven") == 0)
			back = course->cards[i].back;
	ck_assert_ptr_nonnull(back);
	NEAR(number_in(back, "break-even is near ", " tokens per GPU"),
	    2 * 400e12 / (3 * 50e9), 0.01);
	ck_assert_ptr_nonnull(strstr(back, "with one rank per node"));
	NEAR(number_in(back, "(450 GB/s) near ", "."), 2 * 400e12 / (3 *
	    450e9), 0.02);
	NEAR(number_in(t, "break-even sits near ", " tokens per GPU on NVLink"),
	    2 * 400e12 / (3 * 450e9), 0.02);
	NEAR(number_in(t, "(450 GB/s), near ", " when all eight"),
	    2 * 400e12 / (3 * 400e9), 0.01);
	NEAR(number_in(t, "but near ", " tokens when each GPU"),
	    2 * 400e12 / (3 * 50e9), 0.01);
	run_text("{\"model\": \"llama2-7b\", \"gpu\": \"h200-141gb\", "
	    "\"gpus\": 64, \"gpus_per_node\": 1, \"inter_bw\": 50, "
	    "\"dp\": 64, \"tp\": 1, \"pp\": 1, \"global_batch\": 64, "
	    "\"micro_batch\": 1}", r);
	ck_assert(r->group[MESH_DP].per_node == 1);
	ck_assert_msg(r->t_dp > r->t_compute, "%g s of all-reduce, %g s of "
	    "compute", r->t_dp, r->t_compute);
	free(t);
	free(r);
}
END_TEST

/*
 * Drop 3: Megatron-LM's 2021 whole steps, [NAR21] Table 1 (the rows of
 * tests/check_calibration), as TFLOP/s and share of the A100's peak, and
 * the share of their work that full recomputation adds, as the engine
 * counts it for one of those runs.
 */
START_TEST(drop03_published_steps)
{
	char *t = prose(unit_of("drop-03", "Why it stays inside a node"));
	struct cm_result *r = calloc(1, sizeof *r);
	double lo = number_in(t, "ran at ", " to 163 TFLOP/s");
	double hi = number_in(t, " to ", " TFLOP/s, 43");

	ck_assert(lo == 135 && hi == 163);	/* [NAR21] Table 1 */
	NEAR(number_in(t, "TFLOP/s, ", " to 52 %"), 100 * lo / 312, 0.02);
	NEAR(number_in(t, " to ", " % of the peak"), 100 * hi / 312, 0.01);
	run_text("{\"model\": \"megatron-39.1b\", \"gpu\": \"a100-80gb\", "
	    "\"dp\": 32, \"tp\": 8, \"pp\": 2, \"global_batch\": 1536, "
	    "\"recompute\": \"full\", \"kernels\": \"fused\"}", r);
	/* "about a quarter of the work" */
	ck_assert(1 - r->flops_model / r->flops_hw > 0.22 &&
	    1 - r->flops_model / r->flops_hw < 0.28);
	ck_assert_ptr_nonnull(strstr(t, "about a quarter of the work"));
	/* drop 11: the same runs in model FLOPs */
	free(t);
	t = prose(unit_of("drop-11", "The fix, and what the ranking adds"));
	NEAR(number_in(t, "drop 3 about ", " to 39%"), 100 * lo / 312 *
	    r->flops_model / r->flops_hw, 0.03);
	NEAR(number_in(t, " to ", "% once their recomputation"), 100 * hi /
	    312 * r->flops_model / r->flops_hw, 0.03);
	free(t);
	free(r);
}
END_TEST

/*
 * The questions that switch full recomputation on say it is what makes
 * them fit (issue 25: opened, they said "does not fit"): without it they
 * do not.
 */
START_TEST(recompute_makes_them_fit)
{
	static const char *const units[][3] = {
		{ "drop-02", "q2", "so that it fits" },
		{ "drop-02", "q3", NULL },
		{ "drop-05", "q2", "so that it fits" },
		{ "drop-07", "q1", "so that 20 micro-batches fit" },
		{ "drop-09", "q2", "activations recomputed in full" },
	};
	struct cm_result *r = calloc(1, sizeof *r);
	const struct content_block *b;
	size_t i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		b = unit_of(units[i][0], units[i][1]);
		run(b->question.engine, NULL, r);
		ck_assert_msg(r->fits && r->cfg.recompute == CM_RECOMPUTE_FULL,
		    "%s %s", units[i][0], units[i][1]);
		run(b->question.engine, "{\"recompute\": \"selective\"}", r);
		ck_assert_msg(!r->fits, "%s %s fits without", units[i][0],
		    units[i][1]);
		if (units[i][2] != NULL)
			ck_assert_ptr_nonnull(strstr(b->question.prompt,
			    units[i][2]));
	}
	/* drop 2's text: 108 GB of state fits an H200, activations do not */
	b = unit_of("drop-02", "Why DP is the default");
	ck_assert_ptr_nonnull(strstr(b->text, "only with full recomputation"));
	free(r);
}
END_TEST

/* Drop 14: the H100's 81,559 MiB, as the engine has the card. */
START_TEST(drop14_card)
{
	char *t = prose(unit_of("drop-14", "Candidates side by side"));
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(unit_of("drop-14",
	    "defend-70b")->scenario.raw, "start");
	struct cm_result *r = calloc(1, sizeof *r);

	run(st, NULL, r);
	NEAR(number_in(t, "reports ", " MiB") * 1048576, r->mem_gpu, 0.0001);
	free(t);
	free(r);
}
END_TEST

/* Drop 11: TP 16 with one rank per node runs at 0.61 of the 64-GPU job. */
START_TEST(drop11_forty_percent)
{
	const struct content_block *sc = unit_of("drop-11", "tp-across-nodes");
	char *t = prose(unit_of("drop-11", "Count it"));
	const cJSON *start = cJSON_GetObjectItemCaseSensitive(sc->scenario.raw,
	    "start");
	struct cm_result *r = calloc(1, sizeof *r), *old = calloc(1,
	    sizeof *old);

	run(start, NULL, r);
	run(start, "{\"gpus\": 64, \"tp\": 8, \"pp\": 8, \"dp\": 1, "
	    "\"rank_order\": \"tp-pp-dp\"}", old);
	ck_assert_int_eq(r->group[MESH_TP].per_node, 1);
	NEAR(number_in(t, "is about ", " of the old total"),
	    r->tokens_per_s / old->tokens_per_s, 0.03);
	ck_assert(r->tokens_per_s / old->tokens_per_s > 0.55 &&
	    r->tokens_per_s / old->tokens_per_s < 0.65);
	NEAR(number_in(t, "1 per node      ", " ms"), r->t_tp * 1e3 /
	    (double)r->microbatches / r->stage_layers, 0.03);
	/* Ranks in blocks: the same TP 16 is 1.6 times the old rate. */
	run(start, "{\"rank_order\": \"tp-pp-dp\"}", r);
	NEAR(number_in(t, "would have run about ", " times faster"),
	    r->tokens_per_s / old->tokens_per_s, 0.05);
	free(t);
	free(r);
	free(old);
}
END_TEST

/* Drop 14: (2, 8, 4) keeps 8% free with ZeRO-1 and 15.7% with ZeRO-2. */
START_TEST(drop14_headroom)
{
	const struct content_block *q2 = unit_of("drop-14", "q2");
	char *t = prose(unit_of("drop-14", "Candidates side by side"));
	char *q5 = prose(unit_of("drop-14", "q5"));
	struct cm_result *r = calloc(1, sizeof *r);

	run(q2->question.engine, "{\"tp\": 2, \"pp\": 8, \"dp\": 4, "
	    "\"zero\": 2}", r);
	ck_assert(r->fits);
	NEAR(number_in(t, "free ", "% of the card"), 100 * r->headroom, 0.02);
	NEAR(number_in(q5, "ZeRO-2 frees ", "% of the card"), 100 *
	    r->headroom, 0.02);
	run(q2->question.engine, "{\"tp\": 2, \"pp\": 8, \"dp\": 4, "
	    "\"zero\": 1}", r);
	NEAR(number_in(t, "with only about ", "% of the card free"), 100 *
	    r->headroom, 0.1);
	ck_assert(r->headroom < 0.10);
	free(t);
	free(q5);
	free(r);
}
END_TEST

/*
 * The table: every engine figure the prose of drops 8 and 10 to 14 and
 * their cards states, held against the engine at the drop's own kernels
 * (fused: those runs are Megatron-LM, metaseq or NeMo jobs). A row names
 * where the number is (a drop's whole prose, or "card:ID"), the words
 * around it, the configuration (a scenario of the drop by id, whose start
 * is used, or a JSON object), keys laid over it, an optional second
 * overlay the figure is a ratio against, the quantity and a relative
 * tolerance that covers the prose's rounding.
 */
enum fig {
	FIG_TOKENS,		/* tokens/s */
	FIG_STEP_S,		/* step time, s */
	FIG_COMPUTE_S,		/* compute of a step, s */
	FIG_TP_LAYER_MS,	/* TP collectives per layer and micro-batch */
	FIG_COMPUTE_LAYER_MS,	/* compute per layer and micro-batch */
	FIG_TP_SHARE_PCT,	/* TP's share of a layer, % */
	FIG_SUSTAINED_TFLOPS,	/* model FLOP/s per GPU while computing */
	FIG_STATES_GB,		/* weights, gradients, optimizer */
	FIG_ACT_GB,
	FIG_TOTAL_GB,
	FIG_FREE_PCT,		/* headroom, % */
	FIG_EXPOSED_PCT,	/* exposed communication, % of the step */
	FIG_DP_S,		/* DP/ZeRO collectives, s */
	FIG_DP_EXPOSED_S,
	FIG_DP_EXPOSED_PCT,	/* exposed DP, % of the step */
	FIG_DP_TB,		/* DP/ZeRO bytes per GPU per step, TB */
	FIG_TOKENS_RATIO,	/* tokens/s over those of `vs` */
	FIG_GAIN_PCT,		/* % more tokens/s than `vs` */
	FIG_LOSS_PCT,		/* % fewer tokens/s than `vs` */
	FIG_SHARE_OF_BEST,	/* tokens/s over the best ranked layout's */
	FIG_BEHIND_BEST_PCT,	/* % fewer tokens/s than the best */
	FIG_BEST_FASTER_PCT,	/* % more tokens/s in the best layout */
	FIG_MFU_PCT,		/* model FLOPs utilisation, % */
	FIG_BEST_MFU_PCT,	/* the best ranked layout's MFU, % */
	FIG_BEST_2021_MFU_PCT,	/* that layout as Megatron-LM ran in 2021 */
	FIG_GPU_GB,		/* the card's memory as the engine has it */
	FIG_USABLE_GB,		/* less the engine's reserve */
	FIG_TP_MB_S,		/* TP collectives of one micro-batch, s */
	FIG_COMPUTE_MB_S,	/* compute of one micro-batch, s */
	FIG_CP_S,		/* CP K/V exchange of a step, s */
	FIG_CP_EXPOSED_S,	/* the part of it attention does not hide */
	FIG_EP_S,		/* EP all-to-alls of a step, s */
	FIG_TP_S,		/* TP collectives of a step, s */
	FIG_PARAMS_B,		/* all the parameters, billions */
	FIG_ACTIVE_B,		/* those a token uses, billions */
	FIG_WEIGHTS_GB		/* weights per GPU */
};

struct figure {
	const char	*drop;
	const char	*where;		/* NULL: the whole drop; "card:ID" */
	const char	*before, *after;
	const char	*base;		/* scenario id of the drop, or JSON */
	const char	*over;		/* JSON laid over base, or NULL */
	const char	*vs;		/* FIG_TOKENS_RATIO: the other overlay */
	enum fig	 fig;
	double		 tol;
};

#define SEVEN_B_DP "{\"model\": \"llama2-7b\", \"gpu\": \"a100-80gb\", " \
	"\"gpus\": 64, \"gpus_per_node\": 8, \"dp\": 64, \"tp\": 1, \"pp\": 1, " \
	"\"zero\": 1, \"global_batch\": 64, \"micro_batch\": 1, \"kernels\": " \
	"\"fused\"}"
#define THIRTEEN_B "{\"model\": \"llama2-13b\", \"gpu\": \"a100-80gb\", " \
	"\"gpus\": 32, \"gpus_per_node\": 8, \"global_batch\": 1024, " \
	"\"micro_batch\": 1, \"kernels\": \"fused\"}"
#define OLD64 "{\"gpus\": 64, \"tp\": 8, \"pp\": 8, \"dp\": 1, " \
	"\"rank_order\": \"tp-pp-dp\"}"
#define Z1(l) "{\"zero\": 1, " l "}"

/* drop 15: Llama 3 8B at long context (issue 26 item 4) */
#define L3_1M "{\"model\": \"llama3-8b\", \"gpu\": \"h100-80gb\", " \
	"\"gpus\": 8, \"seq\": 1048576, \"global_batch\": 8, \"dp\": 1, " \
	"\"tp\": 8, \"pp\": 1, \"recompute\": \"full\", \"kernels\": " \
	"\"fused\"}"
#define L3_128K "{\"model\": \"llama3-8b\", \"gpu\": \"h100-80gb\", " \
	"\"gpus\": 8, \"seq\": 131072, \"global_batch\": 8, \"dp\": 1, " \
	"\"tp\": 8, \"pp\": 1, \"recompute\": \"selective\", " \
	"\"kernels\": \"fused\"}"
#define L3_CP4(impl) "{\"gpus\": 32, \"cp\": 4, \"cp_impl\": \"" impl "\"}"
#define L3_CP8 "{\"gpus\": 64, \"cp\": 8}"
/* drop 16: Qwen3-30B-A3B on one node, EP 1 (issue 27 item 5) */
#define Q3_1N "{\"model\": \"qwen3-30b-a3b\", \"gpu\": \"h100-80gb\", " \
	"\"gpus\": 8, \"global_batch\": 64, \"dp\": 8, \"tp\": 1, " \
	"\"pp\": 1, \"zero\": 1, \"recompute\": \"full\", " \
	"\"kernels\": \"fused\"}"
#define Q3_EP8 "{\"ep\": 8}"
#define Q3_2N(ep) "{\"gpus\": 16, \"gpus_per_node\": 8, \"dp\": 16, " \
	"\"ep\": " ep "}"
#define Q3_IMB(more) "{\"ep\": 8, \"moe_imbalance\": 1.5" more "}"
#define MIX_TP(tp, dp, ep) "{\"tp\": " tp ", \"dp\": " dp ", \"ep\": " \
	ep "}"
#define L3_16K(impl) "{\"gpus\": 16, \"seq\": 16384, \"tp\": 1, " \
	"\"cp\": 16, \"zero\": 1, \"cp_impl\": \"" impl "\"}"

static const struct figure figures[] = {
	/* drop 8: 13B on 32 A100s, the same fused kernels for every layout */
	{ "drop-08", NULL, "puts FSDP at about ", " tokens/s", THIRTEEN_B,
	  "{\"dp\": 32, \"tp\": 1, \"pp\": 1, \"zero\": 3}", NULL, FIG_TOKENS,
	  0.03 },
	{ "drop-08", NULL, "TP 2 × DP 16 at about ", ".", THIRTEEN_B,
	  "{\"dp\": 16, \"tp\": 2, \"pp\": 1, \"zero\": 1}", NULL, FIG_TOKENS,
	  0.03 },
	{ "drop-08", NULL, "puts it at about ", " tokens/s, a third", THIRTEEN_B,
	  "{\"dp\": 4, \"tp\": 8, \"pp\": 1, \"zero\": 0}", NULL, FIG_TOKENS,
	  0.03 },
	/* drop 10: the OOM, its breakdown and its fixes */
	{ "drop-10", NULL, "5.5 bytes, ", " GB, the same", "oom-4000", NULL,
	  NULL, FIG_STATES_GB, 0.01 },
	{ "drop-10", NULL, "Before the switch: 17.8 + ", " about 50",
	  "oom-4000", "{\"seq\": 2048, \"global_batch\": 128}", NULL,
	  FIG_ACT_GB, 0.01 },
	{ "drop-10", NULL, "After: 17.8 + ", " about 114", "oom-4000", NULL,
	  NULL, FIG_ACT_GB, 0.01 },
	{ "drop-10", NULL, "17.8 + 94.4, about ", " GB, some", "oom-4000",
	  NULL, NULL, FIG_TOTAL_GB, 0.01 },
	{ "drop-10", NULL, "would have needed about ", " GB and fit",
	  "oom-4000", "{\"dropout\": false}", NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-10", NULL, "activations fall to about ", " GB and the total",
	  "oom-4000", "{\"recompute\": \"selective\"}", NULL, FIG_ACT_GB,
	  0.03 },
	{ "drop-10", NULL, "the total to about ", " GB. The price",
	  "oom-4000", "{\"recompute\": \"selective\"}", NULL, FIG_TOTAL_GB,
	  0.02 },
	{ "drop-10", NULL, "throughput at roughly ", " of the start",
	  "oom-4000", "{\"recompute\": \"selective\"}", "{}",
	  FIG_TOKENS_RATIO, 0.03 },
	{ "drop-10", NULL, "micro-batch 1 also fits (about ", " GB)",
	  "oom-4000", "{\"micro_batch\": 1}", NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-10", NULL, "for about ", "% of throughput", "oom-4000",
	  "{\"micro_batch\": 1}", "{}", FIG_LOSS_PCT, 0.3 },
	{ "drop-10", NULL, "runs at about ", " of the start and misses",
	  "oom-4000", "{\"recompute\": \"full\"}", "{}", FIG_TOKENS_RATIO,
	  0.02 },
	{ "drop-10", NULL, "Full recomputation fits too (about ", " GB)",
	  "oom-4000", "{\"recompute\": \"full\"}", NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-10", NULL, "would need about ", " GB of activations",
	  "oom-4000", "{\"seq\": 8192, \"global_batch\": 32, "
	  "\"micro_batch\": 1}", NULL, FIG_ACT_GB, 0.03 },
	{ "drop-10", "card:p3-s-doubling", "from about ", " GB to about",
	  "oom-4000", "{\"seq\": 2048, \"global_batch\": 128}", NULL,
	  FIG_ACT_GB, 0.02 },
	{ "drop-10", "card:p3-s-doubling", " GB to about ", " GB.",
	  "oom-4000", NULL, NULL, FIG_ACT_GB, 0.02 },
	/* drop 10: the A100's memory as the engine has it */
	{ "drop-10", NULL, "80 GiB is ", " GB; after", "oom-4000", NULL, NULL,
	  FIG_GPU_GB, 0.002 },
	{ "drop-10", NULL, "reserve, about ", " GB is usable", "oom-4000",
	  NULL, NULL, FIG_USABLE_GB, 0.002 },
	/* drop 11: the per-layer table and the fixes */
	{ "drop-11", NULL, "with about ", " TFLOP/s of sustained",
	  "tp-across-nodes", OLD64, NULL, FIG_SUSTAINED_TFLOPS, 0.03 },
	{ "drop-11", NULL, "TP 8, one node          ", " ms",
	  "tp-across-nodes", OLD64, NULL, FIG_TP_LAYER_MS, 0.03 },
	{ "drop-11", NULL, " ms            ", " ms\n  TP 16, 8",
	  "tp-across-nodes", OLD64, NULL, FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-11", NULL, "TP 16, 8 per node       ", " ms",
	  "tp-across-nodes", "{\"rank_order\": \"tp-pp-dp\"}", NULL,
	  FIG_TP_LAYER_MS, 0.03 },
	{ "drop-11", NULL, " ms             ", " ms\n  TP 16, 1",
	  "tp-across-nodes", NULL, NULL, FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-11", NULL, "engine puts the job at about ", " tokens/s",
	  "tp-across-nodes", "{\"rank_order\": \"tp-pp-dp\"}", NULL,
	  FIG_TOKENS, 0.01 },
	{ "drop-11", NULL, "tokens/s, ", " times the old 64-GPU",
	  "tp-across-nodes", "{\"rank_order\": \"tp-pp-dp\"}", OLD64,
	  FIG_TOKENS_RATIO, 0.03 },
	{ "drop-11", NULL, "per step. About ", " tokens/s, twice",
	  "tp-across-nodes", "{\"tp\": 8, \"pp\": 8, \"dp\": 2, "
	  "\"rank_order\": \"tp-pp-dp\"}", NULL, FIG_TOKENS, 0.01 },
	{ "drop-11", NULL, "each still small. About ", ".",
	  "tp-across-nodes", "{\"tp\": 8, \"pp\": 16, \"dp\": 1, "
	  "\"rank_order\": \"tp-pp-dp\"}", NULL, FIG_TOKENS, 0.01 },
	{ "drop-11", NULL, "at the top, about ", "% faster again",
	  "tp-across-nodes", "{\"tp\": 8, \"pp\": 8, \"dp\": 2, "
	  "\"rank_order\": \"tp-pp-dp\"}", NULL, FIG_BEST_FASTER_PCT, 0.15 },
	{ "drop-11", NULL, "Inside a node that takes about ", " s.",
	  SEVEN_B_DP, "{\"gpus\": 8, \"dp\": 8, \"global_batch\": 8}", NULL,
	  FIG_DP_S, 0.1 },
	{ "drop-11", NULL, "eight HDR NICs, about ", " s, against",
	  SEVEN_B_DP, NULL, NULL, FIG_DP_S, 0.05 },
	{ "drop-11", NULL, " s, against ", " s of compute", SEVEN_B_DP, NULL,
	  NULL, FIG_COMPUTE_S, 0.05 },
	{ "drop-11", NULL, "it grows to about ", " s, more than the backward",
	  SEVEN_B_DP, "{\"inter_bw\": 6.25}", NULL, FIG_DP_S, 0.03 },
	{ "drop-11", NULL, "cover: about ", " s stays exposed", SEVEN_B_DP,
	  "{\"inter_bw\": 6.25}", NULL, FIG_DP_EXPOSED_S, 0.05 },
	{ "drop-11", NULL, "engine puts it at about ", " ms per layer",
	  "tp-across-nodes", "{\"inter_bw\": 50}", NULL, FIG_TP_LAYER_MS,
	  0.03 },
	{ "drop-11", NULL, "under half the per-GPU efficiency, about ",
	  " of the old", "tp-across-nodes", "{\"inter_bw\": 50}", OLD64,
	  FIG_TOKENS_RATIO, 0.05 },
	{ "drop-11", NULL, "The engine puts such a layout at about ",
	  " times the old", "tp-across-nodes", "{\"rank_order\": "
	  "\"tp-pp-dp\"}", OLD64, FIG_TOKENS_RATIO, 0.03 },
	{ "drop-11", "card:p3-tp16", "NIC: about ", " ms per layer",
	  "tp-across-nodes", NULL, NULL, FIG_TP_LAYER_MS, 0.03 },
	{ "drop-11", "card:p3-tp16", "against ", " ms of compute",
	  "tp-across-nodes", NULL, NULL, FIG_COMPUTE_LAYER_MS, 0.05 },
	/* drop 11: the ranking's top as an upper bound (issue 25) */
	{ "drop-11", NULL, "this ranking at about ", "% MFU",
	  "tp-across-nodes", "{\"rank_order\": \"tp-pp-dp\"}", NULL,
	  FIG_BEST_MFU_PCT, 0.02 },
	{ "drop-11", NULL, "the engine gives about ", "%. The rest",
	  "tp-across-nodes", "{\"rank_order\": \"tp-pp-dp\"}", NULL,
	  FIG_BEST_2021_MFU_PCT, 0.05 },
	/* drop 12: memory of the fix */
	{ "drop-12", NULL, "(about ", " GB of model states with ZeRO-1)",
	  "bubble-35", "{\"tp\": 4, \"pp\": 4}", NULL, FIG_STATES_GB, 0.02 },
	{ "drop-12", NULL, "room to spare, at about ", " GB.", "bubble-35",
	  "{\"tp\": 4, \"pp\": 4}", NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-12", NULL, "recomputation (about ", " GB without",
	  "bubble-35", "{\"tp\": 4, \"pp\": 4, \"seq_parallel\": true, "
	  "\"recompute\": \"selective\"}", NULL, FIG_TOTAL_GB, 0.02 },
	/* drop 13: the per-layer table, memory, DP and the ranking */
	{ "drop-13", NULL, "(about ", " to 220 TFLOP/s", "choose-30b", NULL,
	  NULL, FIG_SUSTAINED_TFLOPS, 0.03 },
	{ "drop-13", NULL, " to ", " TFLOP/s per GPU with", "choose-30b",
	  "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL, FIG_SUSTAINED_TFLOPS,
	  0.03 },
	{ "drop-13", NULL, "  2   ", " ms", "choose-30b", "{\"tp\": 2, "
	  "\"pp\": 4, \"dp\": 4}", NULL, FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-13", NULL, " ms             ", " ms              3%",
	  "choose-30b", "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL,
	  FIG_TP_LAYER_MS, 0.1 },
	{ "drop-13", NULL, "  4   ", " ms", "choose-30b", "{\"tp\": 4, "
	  "\"pp\": 4, \"dp\": 2}", NULL, FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-13", NULL, " ms              ", " ms              9%",
	  "choose-30b", "{\"tp\": 4, \"pp\": 4, \"dp\": 2}", NULL,
	  FIG_TP_LAYER_MS, 0.05 },
	{ "drop-13", NULL, " ms              ", "%\n  8", "choose-30b",
	  "{\"tp\": 4, \"pp\": 4, \"dp\": 2}", NULL, FIG_TP_SHARE_PCT, 0.1 },
	{ "drop-13", NULL, "  8   ", " ms", "choose-30b", NULL, NULL,
	  FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-13", NULL, " ms              ", " ms              19%",
	  "choose-30b", NULL, NULL, FIG_TP_LAYER_MS, 0.05 },
	{ "drop-13", NULL, " ms              ", "%\n\nAt t = 8", "choose-30b",
	  NULL, NULL, FIG_TP_SHARE_PCT, 0.05 },
	{ "drop-13", NULL, "fits in about ", " GB with a 0.6%", "choose-30b",
	  NULL, NULL, FIG_TOTAL_GB, 0.03 },
	{ "drop-13", NULL, "12 GB   ~", " GB\n", "choose-30b", "{\"tp\": 2, "
	  "\"pp\": 4, \"dp\": 4}", NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-13", NULL, "48 GB   ~", " GB, tight", "choose-30b",
	  "{\"tp\": 1, \"pp\": 8, \"dp\": 4, \"micro_batch\": 2}", NULL,
	  FIG_TOTAL_GB, 0.02 },
	{ "drop-13", NULL, "7.8 GB per GPU, about ", " s over InfiniBand",
	  "choose-30b", "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL, FIG_DP_S,
	  0.05 },
	{ "drop-13", NULL, "covers under half: about ", " s stays exposed",
	  "choose-30b", "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL,
	  FIG_DP_EXPOSED_S, 0.1 },
	{ "drop-13", NULL, "stays exposed, around ", "% of the step",
	  "choose-30b", "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL,
	  FIG_DP_EXPOSED_PCT, 0.2 },
	{ "drop-13", NULL, "of which about ", " s, 1% of the step",
	  "choose-30b", "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL,
	  FIG_DP_EXPOSED_S, 0.1 },
	{ "drop-13", NULL, "places it at about ", " of the top",
	  "choose-30b", "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL,
	  FIG_SHARE_OF_BEST, 0.02 },
	{ "drop-13", NULL, "lands at about ", " of the best", "choose-30b",
	  "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL, FIG_SHARE_OF_BEST, 0.02 },
	{ "drop-13", NULL, "micro-batches, about ", " TB per GPU",
	  "choose-30b", "{\"tp\": 1, \"pp\": 1, \"dp\": 32, \"zero\": 3, "
	  "\"micro_batch\": 2}", NULL, FIG_DP_TB, 0.03 },
	{ "drop-13", NULL, "behind ", " s of compute", "choose-30b",
	  "{\"tp\": 1, \"pp\": 1, \"dp\": 32, \"zero\": 3, \"micro_batch\": 2}",
	  NULL, FIG_COMPUTE_S, 0.03 },
	{ "drop-13", "card:p3-30b-pick", "about ", " GB per GPU", "choose-30b",
	  "{\"tp\": 2, \"pp\": 4, \"dp\": 4}", NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-13", "card:p3-tp-narrow", "each layer (", "%)", "choose-30b",
	  NULL, NULL, FIG_TP_SHARE_PCT, 0.05 },
	{ "drop-13", NULL, "Here it is about ", "% MFU", "choose-30b", NULL,
	  NULL, FIG_BEST_MFU_PCT, 0.02 },
	{ "drop-13", NULL, "the same layout gives about ", "% in the engine",
	  "choose-30b", NULL, NULL, FIG_BEST_2021_MFU_PCT, 0.05 },
	/* drop 14: the per-layer table, the candidates, TP overlap */
	{ "drop-14", NULL, "top row here runs at about ", "% MFU",
	  "defend-70b", NULL, NULL, FIG_BEST_MFU_PCT, 0.02 },
	{ "drop-14", NULL, "81,559 MiB, ", " GB, about", "defend-70b", NULL,
	  NULL, FIG_GPU_GB, 0.002 },
	{ "drop-14", NULL, " GB, about ", " GB usable", "defend-70b", NULL,
	  NULL, FIG_USABLE_GB, 0.002 },
	{ "drop-14", NULL, "third of the ", " GB card", "defend-70b", NULL,
	  NULL, FIG_GPU_GB, 0.002 },
	{ "drop-14", NULL, " GB of the ", " GB card, 8%", "defend-70b", NULL,
	  NULL, FIG_GPU_GB, 0.002 },
	{ "drop-14", NULL, "  8   ", " ms", "defend-70b", Z1("\"tp\": 8, "
	  "\"pp\": 8, \"dp\": 1"), NULL, FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-14", NULL, " ms              ", " ms              24%",
	  "defend-70b", Z1("\"tp\": 8, \"pp\": 8, \"dp\": 1"), NULL,
	  FIG_TP_LAYER_MS, 0.03 },
	{ "drop-14", NULL, " ms              ", "%\n  4", "defend-70b",
	  Z1("\"tp\": 8, \"pp\": 8, \"dp\": 1"), NULL, FIG_TP_SHARE_PCT, 0.03 },
	{ "drop-14", NULL, "  4   ", " ms", "defend-70b", Z1("\"tp\": 4, "
	  "\"pp\": 4, \"dp\": 4"), NULL, FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-14", NULL, " ms              ", " ms              12%",
	  "defend-70b", Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL,
	  FIG_TP_LAYER_MS, 0.05 },	/* one decimal: 1.2 for 1.24 */
	{ "drop-14", NULL, " ms              ", "%\n  2", "defend-70b",
	  Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL, FIG_TP_SHARE_PCT, 0.05 },
	{ "drop-14", NULL, "  2   ", " ms", "defend-70b", Z1("\"tp\": 2, "
	  "\"pp\": 8, \"dp\": 4"), NULL, FIG_COMPUTE_LAYER_MS, 0.02 },
	{ "drop-14", NULL, " ms             ", " ms              4%",
	  "defend-70b", Z1("\"tp\": 2, \"pp\": 8, \"dp\": 4"), NULL,
	  FIG_TP_LAYER_MS, 0.05 },
	{ "drop-14", NULL, " ms              ", "%\n\nThe faster",
	  "defend-70b", Z1("\"tp\": 2, \"pp\": 8, \"dp\": 4"), NULL,
	  FIG_TP_SHARE_PCT, 0.1 },
	{ "drop-14", NULL, "(8, 8, 1) from about ", " to ", "defend-70b",
	  Z1("\"tp\": 8, \"pp\": 8, \"dp\": 1"), NULL, FIG_TOKENS, 0.02 },
	{ "drop-14", NULL, "62,000 to ", " tokens/s", "defend-70b",
	  Z1("\"tp\": 8, \"pp\": 8, \"dp\": 1, \"tp_overlap\": true"), NULL,
	  FIG_TOKENS, 0.02 },
	{ "drop-14", NULL, "(4, 4, 4) from about ", " to ", "defend-70b",
	  Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL, FIG_TOKENS, 0.02 },
	{ "drop-14", NULL, "75,000 to ", " and the gap", "defend-70b",
	  Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4, \"tp_overlap\": true"), NULL,
	  FIG_TOKENS, 0.02 },
	{ "drop-14", NULL, "(8, 8, 1)   18 GB   11 GB   ~", " GB",
	  "defend-70b", Z1("\"tp\": 8, \"pp\": 8, \"dp\": 1"), NULL,
	  FIG_TOTAL_GB, 0.02 },
	{ "drop-14", NULL, "1.3%    ~", "%\n  (8, 2, 4)", "defend-70b",
	  Z1("\"tp\": 8, \"pp\": 8, \"dp\": 1"), NULL, FIG_EXPOSED_PCT, 0.03 },
	{ "drop-14", NULL, "(8, 2, 4)   30 GB   11 GB   ~", " GB",
	  "defend-70b", Z1("\"tp\": 8, \"pp\": 2, \"dp\": 4"), NULL,
	  FIG_TOTAL_GB, 0.02 },
	{ "drop-14", NULL, "0.8%    ~", "%", "defend-70b", Z1("\"tp\": 8, "
	  "\"pp\": 2, \"dp\": 4"), NULL, FIG_EXPOSED_PCT, 0.03 },
	{ "drop-14", NULL, "(4, 4, 4)   30 GB   23 GB   ~", " GB",
	  "defend-70b", Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL,
	  FIG_TOTAL_GB, 0.02 },
	{ "drop-14", NULL, "2.3%    ~", "%", "defend-70b", Z1("\"tp\": 4, "
	  "\"pp\": 4, \"dp\": 4"), NULL, FIG_EXPOSED_PCT, 0.05 },
	{ "drop-14", NULL, "(4, 8, 2)   22 GB   23 GB   ~", " GB",
	  "defend-70b", Z1("\"tp\": 4, \"pp\": 8, \"dp\": 2"), NULL,
	  FIG_TOTAL_GB, 0.02 },
	{ "drop-14", NULL, "2.7%    ~", "%", "defend-70b", Z1("\"tp\": 4, "
	  "\"pp\": 8, \"dp\": 2"), NULL, FIG_EXPOSED_PCT, 0.05 },
	{ "drop-14", NULL, "(2, 8, 4)   31 GB   45 GB   ~", " GB",
	  "defend-70b", Z1("\"tp\": 2, \"pp\": 8, \"dp\": 4"), NULL,
	  FIG_TOTAL_GB, 0.02 },
	{ "drop-14", NULL, "5.2%    ~", "%", "defend-70b", Z1("\"tp\": 2, "
	  "\"pp\": 8, \"dp\": 4"), NULL, FIG_EXPOSED_PCT, 0.05 },
	{ "drop-14", NULL, "lifts exposed communication to about ", "%",
	  "defend-70b", "{\"tp\": 2, \"pp\": 8, \"dp\": 4, \"zero\": 2, "
	  "\"framework\": \"auto\"}",
	  NULL, FIG_EXPOSED_PCT, 0.05 },
	{ "drop-14", NULL, "every claim with ", "% free", "defend-70b",
	  Z1("\"tp\": 2, \"pp\": 16, \"dp\": 2"), NULL, FIG_FREE_PCT, 0.05 },
	{ "drop-14", NULL, "runs about ", "% faster than (4, 4, 4)",
	  "defend-70b", Z1("\"tp\": 2, \"pp\": 16, \"dp\": 2"),
	  Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), FIG_GAIN_PCT, 0.1 },
	{ "drop-14", NULL, "per step (about ", " s at 50 GB/s",
	  "defend-70b", Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL, FIG_DP_S,
	  0.03 },
	{ "drop-14", NULL, "ranking puts it about ", "% behind the top",
	  "defend-70b", Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL,
	  FIG_BEHIND_BEST_PCT, 0.05 },
	{ "drop-14", NULL, "Exposed communication: about ", "% of the step",
	  "defend-70b", Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL,
	  FIG_EXPOSED_PCT, 0.05 },
	{ "drop-14", "card:p4-444", "about ", " GB per GPU", "defend-70b",
	  Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-14", "card:p4-444", "about ", "% of the step", "defend-70b",
	  Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL, FIG_EXPOSED_PCT, 0.05 },
	{ "drop-14", "card:p4-tp-share", "About ", "%, 12%", "defend-70b",
	  Z1("\"tp\": 8, \"pp\": 8, \"dp\": 1"), NULL, FIG_TP_SHARE_PCT, 0.03 },
	{ "drop-14", "card:p4-tp-share", "%, ", "% and 4%", "defend-70b",
	  Z1("\"tp\": 4, \"pp\": 4, \"dp\": 4"), NULL, FIG_TP_SHARE_PCT, 0.05 },
	{ "drop-14", "card:p4-tp-share", "% and ", "% in the engine",
	  "defend-70b", Z1("\"tp\": 2, \"pp\": 8, \"dp\": 4"), NULL,
	  FIG_TP_SHARE_PCT, 0.1 },
	/* drop 15: long context */
	{ "drop-15", NULL, "come to about ", " GB per GPU, while", L3_1M, NULL,
	  NULL, FIG_STATES_GB, 0.03 },
	{ "drop-15", NULL, "the activations come to about ", " GB per GPU.",
	  L3_1M, NULL, NULL, FIG_ACT_GB, 0.01 },
	{ "drop-15", NULL, "would take about ", " s. Full", L3_1M, NULL, NULL,
	  FIG_STEP_S, 0.01 },
	{ "drop-15", NULL, "traffic is about ", " s a step either way",
	  L3_128K, L3_CP4("ring"), NULL, FIG_CP_S, 0.02 },
	{ "drop-15", NULL, "traffic is about ", " s a step either way",
	  L3_128K, L3_CP4("all-gather"), NULL, FIG_CP_EXPOSED_S, 0.02 },
	{ "drop-15", NULL, "the ring gives about ", "% more tokens/s",
	  L3_128K, L3_CP4("ring"), L3_CP4("all-gather"), FIG_GAIN_PCT, 0.1 },
	{ "drop-15", NULL, "ring: about ", " s of it shows", L3_128K,
	  L3_16K("ring"), NULL, FIG_CP_EXPOSED_S, 0.02 },
	{ "drop-15", NULL, "against ", " s for the all-gather", L3_128K,
	  L3_16K("all-gather"), NULL, FIG_CP_EXPOSED_S, 0.03 },
	{ "drop-15", NULL, "which gives about ", "% more tokens/s", L3_128K,
	  L3_16K("all-gather"), L3_16K("ring"), FIG_GAIN_PCT, 0.03 },
	{ "drop-15", NULL, "hides its K/V traffic behind that attention: about ",
	  " s, close", L3_1M, L3_CP8, NULL, FIG_STEP_S, 0.01 },
	{ "drop-15", NULL, "with about ", " GB of 81.2", L3_1M, L3_CP8, NULL,
	  FIG_TOTAL_GB, 0.01 },
	{ "drop-15", NULL, " GB of ", " usable per GPU.", L3_1M, L3_CP8, NULL,
	  FIG_USABLE_GB, 0.01 },
	{ "drop-15", NULL, "needs about ", " GB of activations per GPU and",
	  L3_128K, NULL, NULL, FIG_ACT_GB, 0.01 },
	{ "drop-15", NULL, "a step takes about ", " s, its", L3_128K,
	  L3_CP4("ring"), NULL, FIG_STEP_S, 0.001 },
	{ "drop-15", NULL, "s, its ", " s of K/V traffic hidden", L3_128K,
	  L3_CP4("ring"), NULL, FIG_CP_S, 0.01 },
	{ "drop-15", NULL, "about 12.97 + ", " about", L3_128K,
	  L3_CP4("all-gather"), NULL, FIG_CP_EXPOSED_S, 0.01 },
	{ "drop-15", NULL, ", about ", " s. Either", L3_128K,
	  L3_CP4("all-gather"), NULL, FIG_STEP_S, 0.01 },
	{ "drop-15", NULL, "the activations fall to a quarter, about ",
	  " GB, the", L3_128K, L3_CP4("ring"), NULL, FIG_ACT_GB, 0.01 },
	{ "drop-15", NULL, "the model states stay about ", " GB since",
	  L3_128K, L3_CP4("ring"), NULL, FIG_STATES_GB, 0.03 },
	{ "drop-15", NULL, "for a total of about ", " GB. The price", L3_128K,
	  L3_CP4("ring"), NULL, FIG_TOTAL_GB, 0.01 },
	{ "drop-15", "card:p5-million-tokens", "activations near ",
	  " GB per GPU", L3_1M, NULL, NULL, FIG_ACT_GB, 0.01 },
	{ "drop-15", "card:p5-million-tokens", "against about ",
	  " GB of model states", L3_1M, NULL, NULL, FIG_STATES_GB, 0.03 },
	/* drop 15's incident: 128K at TP 8 x DP 4 on 32 H100s */
	{ "drop-15", NULL, "shows about ", " GB of model states", "oom-128k",
	  NULL, NULL, FIG_STATES_GB, 0.02 },
	{ "drop-15", NULL, "states and about ", " GB of activations per GPU",
	  "oom-128k", NULL, NULL, FIG_ACT_GB, 0.01 },
	{ "drop-15", NULL, ", about ", " GB in all", "oom-128k", NULL, NULL,
	  FIG_TOTAL_GB, 0.01 },
	{ "drop-15", NULL, " GB in all against ", " GB usable", "oom-128k",
	  NULL, NULL, FIG_USABLE_GB, 0.005 },
	{ "drop-15", NULL, "sequence, the activations fall to about ",
	  " GB and the total", "oom-128k", "{\"cp\": 4, \"dp\": 1}", NULL,
	  FIG_ACT_GB, 0.01 },
	{ "drop-15", NULL, "and the total to about ", " GB, while the ring",
	  "oom-128k", "{\"cp\": 4, \"dp\": 1}", NULL, FIG_TOTAL_GB, 0.02 },
	{ "drop-15", NULL, "so a step takes about ", " s against",
	  "oom-128k", "{\"cp\": 4, \"dp\": 1}", NULL, FIG_STEP_S, 0.005 },
	{ "drop-15", NULL, " s against ", " s before:", "oom-128k", NULL, NULL,
	  FIG_STEP_S, 0.005 },
	{ "drop-15", NULL, "halves the activations to about ",
	  " GB and still", "oom-128k", "{\"cp\": 2, \"dp\": 2}", NULL,
	  FIG_ACT_GB, 0.01 },
	{ "drop-15", NULL, "does not fit (about ", " GB).", "oom-128k",
	  "{\"cp\": 2, \"dp\": 2}", NULL, FIG_TOTAL_GB, 0.01 },
	{ "drop-15", NULL, "fits on its own (about ", " GB at DP 4)",
	  "oom-128k", "{\"recompute\": \"full\"}", NULL, FIG_TOTAL_GB,
	  0.01 },
	{ "drop-15", NULL, "makes a step about ", " s, about", "oom-128k",
	  "{\"recompute\": \"full\"}", NULL, FIG_STEP_S, 0.005 },
	{ "drop-15", NULL, " s, about ", "% fewer tokens/s", "oom-128k",
	  "{\"recompute\": \"full\"}", "{}", FIG_LOSS_PCT, 0.05 },
	{ "drop-15", NULL, "shrinks only the ", " GB of states", "oom-128k",
	  NULL, NULL, FIG_STATES_GB, 0.02 },
	{ "drop-15", NULL, "falls to about ", " of the start", "oom-128k",
	  "{\"pp\": 4, \"dp\": 1, \"recompute\": \"full\"}", "{}",
	  FIG_TOKENS_RATIO, 0.02 },
	{ "drop-15", NULL, "so the run needs about ", " GB of activations",
	  L3_128K, "{\"recompute\": \"full\", \"attention\": \"plain\"}",
	  NULL, FIG_ACT_GB, 0.01 },
	/* drop 16: sparse models */
	{ "drop-16", NULL, "it has about ", " billion parameters, and",
	  "ep-across-nodes", NULL, NULL, FIG_PARAMS_B, 0.01 },
	{ "drop-16", NULL, "a token runs through about ", " billion of them",
	  "ep-across-nodes", NULL, NULL, FIG_ACTIVE_B, 0.01 },
	{ "drop-16", NULL, "every GPU holds all ", " billion parameters",
	  Q3_1N, NULL, NULL, FIG_PARAMS_B, 0.01 },
	{ "drop-16", NULL, "parameters: about ", " GB of weights alone",
	  Q3_1N, NULL, NULL, FIG_WEIGHTS_GB, 0.01 },
	{ "drop-16", NULL, "a step takes about ", " s, and about", Q3_1N,
	  Q3_EP8, NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, "and about ", " s of it are all-to-alls", Q3_1N,
	  Q3_EP8, NULL, FIG_EP_S, 0.02 },
	{ "drop-16", NULL, "about 5.2 billion parameters at 2 bytes: about ",
	  " GB", Q3_1N, Q3_EP8, NULL, FIG_WEIGHTS_GB, 0.01 },
	{ "drop-16", NULL, "inside one node: a step takes about ", " s, about",
	  Q3_1N, Q3_2N("8"), NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, " s, about ", " s of it all-to-all", Q3_1N,
	  Q3_2N("8"), NULL, FIG_EP_S, 0.02 },
	{ "drop-16", NULL, "grow from about ", " s to about", Q3_1N,
	  Q3_2N("8"), NULL, FIG_EP_S, 0.02 },
	{ "drop-16", NULL, " s to about ", " s a step, and the step", Q3_1N,
	  Q3_2N("16"), NULL, FIG_EP_S, 0.01 },
	{ "drop-16", NULL, "and the step to about ", " s. The memory", Q3_1N,
	  Q3_2N("16"), NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, "the weights to about ", " GB per GPU", Q3_1N,
	  Q3_2N("16"), NULL, FIG_WEIGHTS_GB, 0.01 },
	{ "drop-16", NULL, "(about ", " s a step with an even router)", Q3_1N,
	  Q3_EP8, NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, "The step grows from about ", " s to about", Q3_1N,
	  Q3_EP8, NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, " s to about ", " s, about a quarter", Q3_1N,
	  Q3_IMB(""), NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, "bring the step to about ", " s, at the price",
	  Q3_1N, Q3_IMB(", \"capacity_factor\": 1.25"), NULL, FIG_STEP_S,
	  0.01 },
	{ "drop-16", "card:p5-moe-counts", "holds about ", " billion",
	  "{\"model\": \"mixtral-8x7b\"}", NULL, NULL, FIG_PARAMS_B, 0.01 },
	{ "drop-16", "card:p5-moe-counts", "uses about ", " billion",
	  "{\"model\": \"mixtral-8x7b\"}", NULL, NULL, FIG_ACTIVE_B, 0.01 },
	/* drop 16's incident: Mixtral, TP 8 x DP 8 x EP 8 on 64 H100s */
	{ "drop-16", NULL, "shows about ", " s of compute", "ep-across-nodes",
	  NULL, NULL, FIG_COMPUTE_S, 0.01 },
	{ "drop-16", NULL, "compute and about ", " s of EP all-to-alls",
	  "ep-across-nodes", NULL, NULL, FIG_EP_S, 0.01 },
	{ "drop-16", NULL, "in a step of about ", " s. TP 8",
	  "ep-across-nodes", NULL, NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, "stay on NVLink and take about ", " s. Bring",
	  "ep-across-nodes", NULL, NULL, FIG_TP_S, 0.02 },
	{ "drop-16", NULL, "the all-to-alls fall to about ", " s; the step",
	  "ep-across-nodes", MIX_TP("1", "64", "8"), NULL, FIG_EP_S, 0.02 },
	{ "drop-16", NULL, "the step is about ", " s, about",
	  "ep-across-nodes", MIX_TP("1", "64", "8"), NULL, FIG_STEP_S, 0.01 },
	{ "drop-16", NULL, " s, about ", " times the tokens per second",
	  "ep-across-nodes", MIX_TP("1", "64", "8"), "{}", FIG_TOKENS_RATIO,
	  0.01 },
	{ "drop-16", NULL, "needs about ", " GB. TP 2", "ep-across-nodes",
	  MIX_TP("1", "64", "4"), NULL, FIG_TOTAL_GB, 0.01 },
	{ "drop-16", NULL, "and passes, at about ", " times. Dropping",
	  "ep-across-nodes", MIX_TP("2", "32", "4"), "{}", FIG_TOKENS_RATIO,
	  0.01 },
	{ "drop-16", NULL, "each TP group: about ", " times, short",
	  "ep-across-nodes", MIX_TP("8", "8", "1"), "{}", FIG_TOKENS_RATIO,
	  0.01 },
	{ "drop-16", NULL, "spans two nodes (about ", " times)",
	  "ep-across-nodes", MIX_TP("2", "32", "8"), "{}", FIG_TOKENS_RATIO,
	  0.01 },
};

/* All the prose of drop `drop` (every block, briefs and hints too). */
static char *
drop_prose(const char *drop)
{
	const struct content_drop *d = content_find_drop(course, drop);
	size_t i, k, len = 1;
	char *all, *part;

	ck_assert_msg(d != NULL, "no %s", drop);
	all = calloc(1, 1);
	for (i = 0; i < d->n_blocks; i++) {
		const struct content_scenario *s = &d->blocks[i].scenario;
		const char *extra[8];
		size_t n = 0;

		part = prose(&d->blocks[i]);
		extra[n++] = part;
		if (s->brief != NULL)
			extra[n++] = s->brief;
		for (k = 0; k < s->n_hints && n < 8; k++)
			extra[n++] = s->hints[k];
		for (k = 0; k < n; k++) {
			len += strlen(extra[k]) + 1;
			all = realloc(all, len);
			ck_assert_ptr_nonnull(all);
			strcat(all, extra[k]);
			strcat(all, "\n");
		}
		free(part);
	}
	return all;
}

/* The front and back of card `id`. */
static char *
card_prose(const char *id)
{
	size_t i;
	char *s;

	for (i = 0; i < course->n_cards; i++)
		if (strcmp(course->cards[i].id, id) == 0) {
			s = malloc(strlen(course->cards[i].front) +
			    strlen(course->cards[i].back) + 2);
			ck_assert_ptr_nonnull(s);
			sprintf(s, "%s\n%s", course->cards[i].front,
			    course->cards[i].back);
			return s;
		}
	ck_abort_msg("no card %s", id);
	return NULL;
}

/* The configuration a row names: a scenario's start, or its JSON. */
static cJSON *
base_of(const struct figure *f)
{
	const struct content_block *b;

	if (f->base[0] == '{')
		return cJSON_Parse(f->base);
	b = unit_of(f->drop, f->base);
	return cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
	    b->scenario.raw, "start"), 1);
}

/*
 * The best ranked layout, searched from base with `over` laid on it, as
 * the playground searches from the settings of the moment; with `nar21`
 * set, that layout re-evaluated as Megatron-LM ran its 2021 steps (full
 * recomputation, the score-writing attention, the gradient reduction
 * after the backward pass: [NAR21], as tests/check_calibration sets it).
 */
static void
best_of(const cJSON *base, const char *over, int nar21, struct cm_result *r)
{
	struct cm_search *s = calloc(1, sizeof *s);
	struct cm_config c;
	struct pl_err err;

	ck_assert_ptr_nonnull(s);
	config_of(base, over, &c);
	ck_assert_int_eq(cm_search(&c, 1, s, &err), 0);
	ck_assert_int_ge(s->n_top, 1);
	*r = s->top[0];
	free(s);
	if (!nar21)
		return;
	c = r->cfg;
	c.recompute = CM_RECOMPUTE_FULL;
	c.attention = CM_ATTN_PLAIN;
	c.dp_overlap = 0;
	ck_assert_msg(cm_evaluate(&c, r, &err) == 0, "%s", err.msg);
	ck_assert(r->valid);
}

static double
best_tokens(const cJSON *base, const char *over)
{
	struct cm_result *r = calloc(1, sizeof *r);
	double t;

	ck_assert_ptr_nonnull(r);
	best_of(base, over, 0, r);
	t = r->tokens_per_s;
	free(r);
	return t;
}

static double
figure_value(const struct figure *f, const cJSON *base)
{
	struct cm_result *r = calloc(1, sizeof *r), *v;
	double layer, x = NAN;

	ck_assert_ptr_nonnull(r);
	run(base, f->over, r);
	layer = (double)r->microbatches * r->stage_layers;
	switch (f->fig) {
	case FIG_TOKENS:		x = r->tokens_per_s; break;
	case FIG_STEP_S:		x = r->t_step; break;
	case FIG_COMPUTE_S:		x = r->t_compute; break;
	case FIG_TP_LAYER_MS:		x = r->t_tp * 1e3 / layer; break;
	case FIG_COMPUTE_LAYER_MS:	x = r->t_compute * 1e3 / layer; break;
	case FIG_TP_SHARE_PCT:
		x = 100 * r->t_tp / (r->t_tp + r->t_compute);
		break;
	case FIG_SUSTAINED_TFLOPS:
		x = r->tflops_per_gpu * r->t_step / r->t_compute;
		break;
	case FIG_STATES_GB:
		x = (r->mem_params + r->mem_grads + r->mem_optim) / 1e9;
		break;
	case FIG_ACT_GB:		x = r->mem_act / 1e9; break;
	case FIG_TOTAL_GB:		x = r->mem_total / 1e9; break;
	case FIG_FREE_PCT:		x = 100 * r->headroom; break;
	case FIG_EXPOSED_PCT:
		x = 100 * r->t_exposed_comm / r->t_step;
		break;
	case FIG_DP_S:			x = r->t_dp; break;
	case FIG_DP_EXPOSED_S:		x = r->t_dp_exposed; break;
	case FIG_DP_EXPOSED_PCT:	x = 100 * r->t_dp_exposed / r->t_step;
		break;
	case FIG_DP_TB:			x = r->dp_bytes / 1e12; break;
	case FIG_TOKENS_RATIO:
	case FIG_GAIN_PCT:
	case FIG_LOSS_PCT:
		v = calloc(1, sizeof *v);
		ck_assert_ptr_nonnull(v);
		run(base, f->vs, v);
		x = r->tokens_per_s / v->tokens_per_s;
		if (f->fig == FIG_GAIN_PCT)
			x = 100 * (x - 1);
		else if (f->fig == FIG_LOSS_PCT)
			x = 100 * (1 - x);
		free(v);
		break;
	case FIG_SHARE_OF_BEST:
		x = r->tokens_per_s / best_tokens(base, f->over);
		break;
	case FIG_BEHIND_BEST_PCT:
		x = 100 * (1 - r->tokens_per_s / best_tokens(base, f->over));
		break;
	case FIG_BEST_FASTER_PCT:
		x = 100 * (best_tokens(base, f->over) / r->tokens_per_s - 1);
		break;
	case FIG_MFU_PCT:		x = 100 * r->mfu; break;
	case FIG_BEST_MFU_PCT:
	case FIG_BEST_2021_MFU_PCT:
		best_of(base, f->over, f->fig == FIG_BEST_2021_MFU_PCT, r);
		x = 100 * r->mfu;
		break;
	case FIG_GPU_GB:		x = r->mem_gpu / 1e9; break;
	case FIG_USABLE_GB:		x = r->mem_usable / 1e9; break;
	case FIG_TP_MB_S:		x = r->t_tp / (double)r->microbatches;
		break;
	case FIG_COMPUTE_MB_S:
		x = r->t_compute / (double)r->microbatches;
		break;
	case FIG_CP_S:			x = r->t_cp; break;
	case FIG_CP_EXPOSED_S:		x = r->t_cp_exposed; break;
	case FIG_EP_S:			x = r->t_ep; break;
	case FIG_TP_S:			x = r->t_tp; break;
	case FIG_PARAMS_B:		x = r->params / 1e9; break;
	case FIG_ACTIVE_B:		x = r->params_active / 1e9; break;
	case FIG_WEIGHTS_GB:		x = r->mem_params / 1e9; break;
	}
	free(r);
	return x;
}

START_TEST(prose_figures)
{
	const struct figure *f = &figures[_i];
	cJSON *base = base_of(f);
	char *text;
	double said, engine;

	ck_assert_ptr_nonnull(base);
	text = f->where == NULL ? drop_prose(f->drop) :
	    card_prose(f->where + strlen("card:"));
	said = number_in(text, f->before, f->after);
	engine = figure_value(f, base);
	ck_assert_msg(fabs(said - engine) <= f->tol * fabs(engine),
	    "%s %s: \"%s%g%s\" but the engine says %.4g", f->drop,
	    f->where != NULL ? f->where : "", f->before, said, f->after,
	    engine);
	free(text);
	cJSON_Delete(base);
}
END_TEST

/*
 * What the incident briefs and solutions state without a number: drop 10's
 * start does not fit, drop 11's old 64-GPU job outran the start, drop 12's
 * TP 8 x PP 2 meets the goal too, drop 13's draft fits, drop 14's does not.
 */
START_TEST(incident_briefs)
{
	struct cm_result *r = calloc(1, sizeof *r), *s = calloc(1, sizeof *s);
	const cJSON *st;

	st = cJSON_GetObjectItemCaseSensitive(unit_of("drop-10",
	    "oom-4000")->scenario.raw, "start");
	run(st, NULL, r);
	ck_assert(!r->fits);
	st = cJSON_GetObjectItemCaseSensitive(unit_of("drop-11",
	    "tp-across-nodes")->scenario.raw, "start");
	run(st, NULL, r);
	run(st, OLD64, s);
	ck_assert(s->tokens_per_s > r->tokens_per_s);
	st = cJSON_GetObjectItemCaseSensitive(unit_of("drop-12",
	    "bubble-35")->scenario.raw, "start");
	run(st, NULL, r);
	run(st, "{\"tp\": 8, \"pp\": 2}", s);
	ck_assert(s->fits && s->bubble_fraction <= 0.15);
	ck_assert(s->tokens_per_s >= r->tokens_per_s);
	st = cJSON_GetObjectItemCaseSensitive(unit_of("drop-13",
	    "choose-30b")->scenario.raw, "start");
	run(st, NULL, r);
	ck_assert(r->fits);
	st = cJSON_GetObjectItemCaseSensitive(unit_of("drop-14",
	    "defend-70b")->scenario.raw, "start");
	run(st, NULL, r);
	ck_assert(!r->fits);
	free(r);
	free(s);
}
END_TEST

/*
 * What drop 15's incident states without a number: the start does not
 * fit, CP 4 in DP's place fits with its ring wholly hidden, CP 2 alone
 * does not fit and does with full recomputation, ZeRO-3 does not fit,
 * PP 4 with full recomputation does.
 */
START_TEST(drop15_incident)
{
	struct cm_result *r = calloc(1, sizeof *r);
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(unit_of("drop-15",
	    "oom-128k")->scenario.raw, "start");

	ck_assert_ptr_nonnull(r);
	run(st, NULL, r);
	ck_assert(!r->fits);
	run(st, "{\"cp\": 4, \"dp\": 1}", r);
	ck_assert(r->fits && r->t_cp > 0 && r->t_cp_exposed == 0);
	run(st, "{\"cp\": 2, \"dp\": 2}", r);
	ck_assert(!r->fits);
	run(st, "{\"cp\": 2, \"dp\": 2, \"recompute\": \"full\"}", r);
	ck_assert(r->fits);
	run(st, "{\"zero\": 3}", r);
	ck_assert(!r->fits);
	run(st, "{\"pp\": 4, \"dp\": 1, \"recompute\": \"full\"}", r);
	ck_assert(r->fits);
	free(r);
}
END_TEST

/*
 * What drop 15 states without a figure table entry: the million-token run
 * does not fit at TP 8 and fits at CP 8; the 128K run does not fit on one
 * node with selective recomputation and fits with full; plain attention
 * with full recomputation still does not (its scores per layer are the
 * figure the reveal gives); Ulysses at TP 8 is refused at CP 2 and moves
 * the least at TP 1; the ring hides entirely at 128K.
 */
START_TEST(drop15_long_context)
{
	struct cm_result *r = calloc(1, sizeof *r), *f = calloc(1, sizeof *f);
	cJSON *m = cJSON_Parse(L3_1M), *k = cJSON_Parse(L3_128K);
	char *t = prose(unit_of("drop-15", "q5"));
	struct cm_config c;
	struct pl_err err;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(k);
	run(m, NULL, r);
	ck_assert(!r->fits);
	run(m, "{\"gpus\": 64, \"cp\": 8}", r);
	ck_assert(r->fits);
	run(k, NULL, r);
	ck_assert(!r->fits);
	run(k, "{\"recompute\": \"full\"}", r);
	ck_assert(r->fits);
	run(k, "{\"recompute\": \"full\", \"attention\": \"plain\"}", r);
	ck_assert(!r->fits);
	run(k, L3_CP4("ring"), r);
	ck_assert(r->fits && r->t_cp > 0 && r->t_cp_exposed == 0);
	run(k, "{\"recompute\": \"none\", \"attention\": \"plain\"}", r);
	run(k, "{\"recompute\": \"none\", \"attention\": \"flash\"}", f);
	/* 2 bytes x 4 heads a rank x s^2 scores a layer */
	ck_assert_ptr_nonnull(strstr(t, "8·s² bytes: well over a hundred "
	    "gigabytes per layer"));
	ck_assert_msg(fabs(r->act_layer - f->act_layer - 8.0 * 131072 *
	    131072) < 0.001 * 8.0 * 131072 * 131072 && r->act_layer -
	    f->act_layer > 100e9, "scores per layer %g GB",
	    (r->act_layer - f->act_layer) / 1e9);
	/* "nearly a quarter fewer tokens/s" with full recomputation */
	run(k, NULL, r);
	run(k, "{\"recompute\": \"full\"}", f);
	ck_assert(f->tokens_per_s / r->tokens_per_s > 0.75 &&
	    f->tokens_per_s / r->tokens_per_s < 0.80);
	config_of(k, "{\"gpus\": 16, \"cp\": 2, \"cp_impl\": \"ulysses\"}",
	    &c);
	ck_assert(cm_evaluate(&c, r, &err) != 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "Ulysses"));
	config_of(k, "{\"gpus\": 16, \"cp\": 2, \"cp_impl\": \"ring\"}", &c);
	ck_assert_int_eq(cm_evaluate(&c, r, &err), 0);
	/* "Ulysses moves the least when heads are plenty": 16K, TP 1, CP 8
	 * in one node, its two all-to-alls against the ring and the gather */
	run(k, "{\"seq\": 16384, \"tp\": 1, \"cp\": 8, \"zero\": 1, "
	    "\"cp_impl\": \"ulysses\"}", r);
	run(k, "{\"seq\": 16384, \"tp\": 1, \"cp\": 8, \"zero\": 1, "
	    "\"cp_impl\": \"all-gather\"}", f);
	ck_assert(r->t_cp < f->t_cp);
	run(k, "{\"seq\": 16384, \"tp\": 1, \"cp\": 8, \"zero\": 1, "
	    "\"cp_impl\": \"ring\"}", f);
	ck_assert(r->t_cp < f->t_cp);
	cJSON_Delete(m);
	cJSON_Delete(k);
	free(t);
	free(r);
	free(f);
}
END_TEST

/*
 * What drop 16 states without a table entry: q1's worked split of
 * Qwen3-30B-A3B's weights (29.0 billion in the experts from the preset's
 * sizes, 3.6 billion of them per GPU at EP 8, about 1.5 billion whole,
 * 5.2 in all, EP 1 six times as much), EP 1 not fitting and EP 8 fitting
 * on one node, the straggler's step growing by about a quarter, and the
 * incident's TP 1 fitting only at EP 8.
 */
START_TEST(drop16_sparse)
{
	struct cm_result *r = calloc(1, sizeof *r), *e = calloc(1, sizeof *e);
	cJSON *q = cJSON_Parse(Q3_1N), *mix;
	const struct hw_model *m = hw_model_find(&cat, "qwen3-30b-a3b");
	double experts, rest;

	ck_assert_ptr_nonnull(m);
	experts = (double)m->layers * m->experts * 3.0 * m->hidden *
	    m->expert_ffn;
	ck_assert(fabs(experts / 1e9 - 29.0) < 0.05);
	ck_assert(fabs(experts / 8 / 1e9 - 3.6) < 0.05);
	run(q, NULL, r);
	ck_assert(!r->fits);
	rest = r->params - experts;
	ck_assert(fabs(rest / 1e9 - 1.5) < 0.05);
	ck_assert(fabs((rest + experts / 8) / 1e9 - 5.2) < 0.05);
	run(q, Q3_EP8, e);
	ck_assert(e->fits);
	ck_assert(fabs(2 * (rest + experts / 8) - e->mem_params) <
	    0.01 * e->mem_params);
	ck_assert(fabs(r->mem_params / e->mem_params - 6) < 0.5);
	run(q, Q3_IMB(""), r);
	ck_assert(fabs(r->t_step / e->t_step - 1.25) < 0.03);
	run(q, Q3_2N("16"), r);
	ck_assert(r->fits);
	mix = cJSON_GetObjectItemCaseSensitive(unit_of("drop-16",
	    "ep-across-nodes")->scenario.raw, "start");
	run(mix, MIX_TP("1", "64", "8"), r);
	ck_assert(r->fits);
	run(mix, MIX_TP("1", "64", "4"), r);
	ck_assert(!r->fits);
	run(mix, MIX_TP("1", "64", "2"), r);
	ck_assert(!r->fits);
	cJSON_Delete(q);
	free(r);
	free(e);
}
END_TEST

/*
 * Drop 17 (pipeline schedules): idle time per GPU in units of one pass,
 * F = B = W = 1 (B the input gradient only). 1F1B (p-1)(F+B+W); ZB-H1
 * (p-1)(F+B-W) (Qi et al. 2023, arXiv 2311.09241); DualPipe
 * (p/2-1)(F&B+Bfull-3W) with Bfull = B+W (deepseek-ai/DualPipe README,
 * DeepSeek-V3 report §3.2.1), F&B = F+Bfull when running two chunks
 * together gains nothing. The work of a step is m(F+B+W).
 */
#define ZB_F 1
#define ZB_B 1
#define ZB_W 1
static int idle_1f1b(int p) { return (p - 1) * (ZB_F + ZB_B + ZB_W); }
static int idle_zbh1(int p) { return (p - 1) * (ZB_F + ZB_B - ZB_W); }
static int idle_dualpipe(int p)
{
	int bfull = ZB_B + ZB_W, fb = ZB_F + bfull;

	return (p / 2 - 1) * (fb + bfull - 3 * ZB_W);
}
static int work_of(int m) { return m * (ZB_F + ZB_B + ZB_W); }

/* text holds idle/(idle+work), as is or in lowest terms, and, after `lead`, its rounded %. */
static void
share_said(const char *text, int idle, int work, const char *lead,
    const char *tail, double digits)
{
	char frac[32];
	double pc = 100.0 * idle / (idle + work);
	int a = idle, b = idle + work, r;

	while (b != 0) {
		r = a % b;
		a = b;
		b = r;
	}
	snprintf(frac, sizeof frac, "%d/%d", idle / a, (idle + work) / a);
	if (strstr(text, frac) == NULL)
		snprintf(frac, sizeof frac, "%d/%d", idle, idle + work);
	ck_assert_msg(strstr(text, frac) != NULL, "no %s in drop 17", frac);
	ck_assert_msg(fabs(number_in(text, lead, tail) - pc) <= 0.5 *
	    pow(10, -digits) + 1e-9, "%s %s: %.2f %%", lead, tail, pc);
}

START_TEST(drop17_bubbles)
{
	char *t1 = prose(unit_of("drop-17", "What 1F1B leaves idle"));
	char *t2 = prose(unit_of("drop-17", "ZB-H1: let W wait"));
	char *t3 = prose(unit_of("drop-17",
	    "DualPipe: feed the pipe from both ends"));
	char *q1 = prose(unit_of("drop-17", "q1"));
	char *q4 = prose(unit_of("drop-17", "q4"));
	const struct content_block *b1 = unit_of("drop-17", "q1");
	size_t k, right = 0;

	/* 1F1B's share is drop 7's (p-1)/(m+p-1) whatever F, B and W. */
	ck_assert_int_eq(idle_1f1b(4) * (8 + 4 - 1), 3 * (idle_1f1b(4) +
	    work_of(8)));
	ck_assert_int_eq(number_in(t1, "that is ", " units of idle"),
	    idle_1f1b(4));
	ck_assert_int_eq(number_in(t1, " against ", " of work"), work_of(8));
	share_said(t1, idle_1f1b(4), work_of(8), "the ", " % of drop 7", 0);
	/* ZB-H1: one unit per wait instead of three, a third. */
	ck_assert_int_eq(3 * idle_zbh1(4), idle_1f1b(4));
	ck_assert_ptr_nonnull(strstr(t2, "one unit per wait instead of "
	    "three: a third"));
	share_said(t2, idle_1f1b(4), work_of(8), "from 9/33 (", " %) to", 0);
	share_said(t2, idle_zbh1(4), work_of(8), "to 3/27 (", " %)", 0);
	ck_assert_ptr_nonnull(strstr(t3, "(p-1)(F+B-2W)"));
	ck_assert_ptr_nonnull(strstr(t3, "(p/2-1)(F&B+B-3W)"));
	/* q1: p = 8, m = 16; the right option and the two distractors. */
	share_said(q1, idle_1f1b(8), work_of(16), "idle, about ", " %", 0);
	share_said(q1, idle_zbh1(8), work_of(16), "7/55, about ", " %", 1);
	ck_assert_int_eq(number_in(q1, "16 × 3 = ", " of work"),
	    work_of(16));
	ck_assert_ptr_nonnull(strstr(q1, "7/69, about 10 %"));
	ck_assert(fabs(7.0 / 69 - (double)idle_1f1b(8) / (idle_1f1b(8) +
	    work_of(16)) / 3) < 0.002);
	for (k = 0; k < b1->question.n_options; k++)
		if (b1->question.options[k].correct)
			right = k + 1;
	ck_assert_uint_eq(right, 1);
	/*
	 * q1b: 2W's share of F + B + W, inverted from the engine's ZB-H1
	 * bubble, 3(1 - 2w)/(8 + 3(1 - 2w)), p = 4, m = 8; 1F1B's 3/11.
	 */
	{
		const struct content_block *qb = unit_of("drop-17", "q1b");
		struct cm_result *r = calloc(1, sizeof *r);
		double f, x, two_w, params_1f1b;

		run(qb->question.engine, NULL, r);
		f = r->bubble_fraction;
		x = 8 * f / (1 - f);
		two_w = 1 - x / 3;
		NEAR(number_in(qb->question.prompt, "at about ", " % of a"),
		    100 * two_w, 0.03);
		NEAR(number_in(qb->question.explain, " = 0.", " units, so"),
		    100 * (1 - two_w), 0.03);
		NEAR(number_in(qb->question.explain, "so ", " units idle"),
		    x, 0.03);
		NEAR(number_in(qb->question.explain, "≈ ", ". The smaller"),
		    f, 0.03);
		ck_assert_ptr_nonnull(strstr(qb->question.prompt,
		    "1F1B idles 3/11"));
		run(qb->question.engine, "{\"schedule\": \"1f1b\"}", r);
		ck_assert(fabs(r->bubble_fraction - 3.0 / 11) < 1e-6);
		params_1f1b = r->mem_params;
		/* DualPipe: "2x the weights of 1F1B" (text and q2). */
		run(qb->question.engine, "{\"schedule\": \"dualpipe\", "
		    "\"recompute\": \"full\"}", r);
		NEAR(r->mem_params / params_1f1b, 2.0, 0.01);
		ck_assert_ptr_nonnull(strstr(t3, "2x the weights of 1F1B"));
		free(r);
	}
	/* q4: p = 8 in units. */
	ck_assert_int_eq(number_in(q4, "F + B + W, ", " units"),
	    idle_1f1b(8));
	ck_assert_int_eq(number_in(q4, "F + B - W, ", " units"),
	    idle_zbh1(8));
	ck_assert_int_eq(number_in(q4, "3 × 2 = ", " units"),
	    idle_dualpipe(8));
	ck_assert_int_eq(number_in(q4, "(8/2 - 1)(3 + 2 - 3) = ", " × 2"),
	    8 / 2 - 1);
	free(t1);
	free(t2);
	free(t3);
	free(q1);
	free(q4);
}
END_TEST

static Suite *
numbers_suite(void)
{
	Suite *s = suite_create("course numbers");
	TCase *tc = tcase_create("prose against the engine");

	tcase_add_checked_fixture(tc, catfix_course_setup,
	    catfix_course_teardown);
	tcase_add_test(tc, drop02_two_nodes);
	tcase_add_test(tc, drop03_tp16_runs);
	tcase_add_test(tc, drop05_hides);
	tcase_add_test(tc, drop06_ratios);
	tcase_add_test(tc, drop06_q5_named);
	tcase_add_test(tc, dp_collectives_named);
	tcase_add_test(tc, dp_breakeven);
	tcase_add_test(tc, drop03_published_steps);
	tcase_add_test(tc, drop14_card);
	tcase_add_test(tc, recompute_makes_them_fit);
	tcase_add_test(tc, drop11_forty_percent);
	tcase_add_test(tc, drop14_headroom);
	tcase_add_test(tc, incident_briefs);
	tcase_add_test(tc, drop15_long_context);
	tcase_add_test(tc, drop15_incident);
	tcase_add_test(tc, drop16_sparse);
	tcase_add_test(tc, drop17_bubbles);
	tcase_add_loop_test(tc, prose_figures, 0, (int)(sizeof figures /
	    sizeof figures[0]));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(numbers_suite());
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
