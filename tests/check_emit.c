/*
 * check_emit.c - the core of `plan --emit` (core/engine/emit.h):
 *   - which target can say which layout, and the reason when not;
 *   - the figures each file derives: nodes and processes per node,
 *     micro-batches per step, torchtitan's local batch with and without
 *     PP, HSDP's shard group, Megatron's layers per virtual stage;
 *   - the framework an sbatch script launches;
 *   - a failed write is reported, not swallowed.
 * tests/emit.sh reads the files back and checks the names.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/emit.h"
#include "emitfix.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static void
layout(struct cm_config *c, const char *model, int d, int t, int p, int z)
{
	cm_config_default(c, hw_model_find(&cat, model),
	    hw_gpu_find(&cat, "h100-80gb"));
	c->dp = d;
	c->tp = t;
	c->pp = p;
	c->gpus = d * t * p;
	c->zero = z;
	c->seq_parallel = t > 1;
	c->global_batch = 512;
}

static void
has_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n'))
			return;
		p += n;
	}
	ck_abort_msg("no line \"%s\" in:\n%s", line, text);
}

START_TEST(refusals_name_the_reason)
{
	struct cm_config c;
	char why[EMIT_WHY_LEN];
	int first, last;

	layout(&c, "llama3-70b", 4, 4, 4, 1);
	c.schedule = PIPE_1F1B;
	c.seq_parallel = 0;
	ck_assert_int_eq(emit_refuse(&c, EMIT_DEEPSPEED, why, sizeof why), 1);
	ck_assert_ptr_nonnull(strstr(why, "PipelineModule"));
	ck_assert_int_eq(emit_refuse(&c, EMIT_MEGATRON, why, sizeof why), 0);
	ck_assert_str_eq(why, "");
	ck_assert_int_eq(emit_refuse(&c, EMIT_TORCHTITAN, why, sizeof why), 1);
	ck_assert_ptr_nonnull(strstr(why, "ZeRO-1"));
	/* SP off under TP: torchtitan's plan has no such thing */
	c.zero = 3;
	c.pp = 1;
	c.dp = 16;
	ck_assert_int_eq(emit_refuse(&c, EMIT_TORCHTITAN, why, sizeof why), 1);
	ck_assert_ptr_nonnull(strstr(why, "sequence parallelism"));
	/* a model torchtitan does not define */
	layout(&c, "gpt3-175b", 8, 8, 1, 3);
	ck_assert_int_eq(emit_refuse(&c, EMIT_TORCHTITAN, why, sizeof why), 1);
	ck_assert_ptr_nonnull(strstr(why, "no model definition"));
	/* ZeRO 2 with PP: no framework at all, framework.c's sentence */
	layout(&c, "llama3-70b", 4, 4, 4, 2);
	ck_assert_int_eq(emit_refuse(&c, EMIT_MEGATRON, why, sizeof why), 1);
	ck_assert_int_ne(why[0], '\0');
	ck_assert_int_eq(emit_refuse(&c, EMIT_SBATCH, why, sizeof why), 1);
	/* 80 layers over 3 stages: 27, 27 and 26, as the engine splits
	 * them and Megatron's first/last-stage flags say */
	layout(&c, "llama3-70b", 2, 8, 3, 1);
	ck_assert_int_eq(emit_refuse(&c, EMIT_MEGATRON, why, sizeof why), 0);
	ck_assert_int_eq(emit_megatron_split(&c, &first, &last), 1);
	ck_assert_int_eq(first, 27);
	ck_assert_int_eq(last, 26);
	/* ... but not over 3 stages x 2 chunks: no such flags */
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 2;
	ck_assert_int_eq(emit_refuse(&c, EMIT_MEGATRON, why, sizeof why), 1);
	ck_assert_ptr_nonnull(strstr(why, "evenly"));
}
END_TEST

START_TEST(derived_figures)
{
	struct cm_config c;
	char *t;

	layout(&c, "llama3-70b", 4, 4, 4, 3);
	c.micro_batch = 2;
	ck_assert_int_eq(emit_nodes(&c), 8);
	ck_assert_int_eq(emit_procs_per_node(&c), 8);
	ck_assert_int_eq(emit_accumulation(&c), 64);	/* 512 / (2 x 4) */
	t = test_emitted(&c, EMIT_TORCHTITAN);
	has_line(t, "local_batch_size = 128");	/* B / d through the pipe */
	has_line(t, "pipeline_parallel_microbatch_size = 2");
	has_line(t, "data_parallel_shard_degree = 4");
	free(t);
	c.pp = 1;
	c.dp = 16;
	t = test_emitted(&c, EMIT_TORCHTITAN);
	has_line(t, "local_batch_size = 2");	/* b, accumulated */
	has_line(t, "global_batch_size = 512");
	free(t);
	/* 4 GPUs take part of one node */
	layout(&c, "llama3-8b", 4, 1, 1, 0);
	ck_assert_int_eq(emit_nodes(&c), 1);
	ck_assert_int_eq(emit_procs_per_node(&c), 4);
	/* HSDP shards over a node's 8 DP ranks, replicates over 4 nodes */
	layout(&c, "llama3-8b", 32, 1, 1, 3);
	c.hsdp = 1;
	ck_assert_int_eq(emit_hsdp_shard(&c), 8);
	t = test_emitted(&c, EMIT_TORCHTITAN);
	has_line(t, "data_parallel_replicate_degree = 4");
	has_line(t, "data_parallel_shard_degree = 8");
	free(t);
	/* interleaved: 80 layers over 4 stages x 5 chunks */
	layout(&c, "llama3-70b", 2, 8, 4, 1);
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 5;
	t = test_emitted(&c, EMIT_MEGATRON);
	has_line(t, "--num-layers-per-virtual-pipeline-stage 4");
	has_line(t, "--use-distributed-optimizer");
	has_line(t, "--sequence-parallel");
	free(t);
}
END_TEST

START_TEST(sbatch_framework)
{
	struct cm_config c;
	char why[EMIT_WHY_LEN], *t;

	layout(&c, "llama3-8b", 16, 1, 1, 1);
	ck_assert_int_eq(emit_sbatch_framework(&c, why, sizeof why),
	    FW_MEGATRON);
	c.zero = 3;
	c.framework = CM_FW_PYTORCH;
	ck_assert_int_eq(emit_sbatch_framework(&c, why, sizeof why),
	    FW_PYTORCH);
	t = test_emitted(&c, EMIT_SBATCH);
	has_line(t, "#SBATCH --nodes=2");
	has_line(t, "#SBATCH --gpus-per-node=8");
	has_line(t, "cat > job.toml <<'PARLEARN_CONFIG'");
	has_line(t, "PARLEARN_CONFIG");
	free(t);
	/* asked for DeepSpeed with PP: refused, not another framework */
	layout(&c, "llama3-70b", 4, 4, 4, 1);
	c.seq_parallel = 0;
	c.framework = CM_FW_DEEPSPEED;
	ck_assert_int_eq(emit_sbatch_framework(&c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "PipelineModule"));
}
END_TEST

START_TEST(names_stay_plain)
{
	ck_assert_str_eq(emit_safe_name("llama3-70b"), "llama3-70b");
	ck_assert_str_eq(emit_safe_name("x\"\n[job]"), "custom");
	ck_assert_str_eq(emit_safe_name("a b"), "custom");
	ck_assert_str_eq(emit_safe_name(""), "custom");
}
END_TEST

START_TEST(write_failure_reported)
{
	struct cm_config c;
	FILE *fp = fopen("/dev/full", "w");

	if (fp == NULL)
		return;
	setvbuf(fp, NULL, _IONBF, 0);
	layout(&c, "llama3-8b", 8, 1, 1, 0);
	ck_assert_int_eq(emit_write(fp, &c, EMIT_DEEPSPEED), -1);
	fclose(fp);
}
END_TEST

static Suite *
emit_suite(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("configs");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, refusals_name_the_reason);
	tcase_add_test(tc, derived_figures);
	tcase_add_test(tc, sbatch_framework);
	tcase_add_test(tc, names_stay_plain);
	tcase_add_test(tc, write_failure_reported);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(emit_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
