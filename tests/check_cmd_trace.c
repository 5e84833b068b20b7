/*
 * check_cmd_trace.c - `parlearn trace` called as main() calls it, with its
 * output captured: the JSON contract, the Gantt chart, the exit codes,
 * the figures issue 13 asks of the toy (16 all-reduces per device in TP,
 * a DP bucket reduced during backward, GPipe's and 1F1B's equal bubbles),
 * that every animation block of the course plays exactly what trace
 * prints for the same settings (one config builder), and --dump-weights.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/course/animation.h"
#include "core/sim/sim_keys.h"
#include "core/course/content.h"
#include "core/json.h"
#include "core/sim/schedule.h"
#include "core/sim/sim_knob.h"
#include "core/sim/sim.h"
#include "capture.h"

static struct cli_ctx ctx = { .db_path = "/nonexistent/progress.db",
	.profile = "t" };

/* Run `trace ARGS...` (NULL-terminated) and capture it. */
static void
trace(struct capture *c, ...)
{
	char *argv[20];
	int argc = 0;
	va_list ap;

	argv[argc++] = "trace";
	va_start(ap, c);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	capture_run(cli_trace_main, &ctx, argc, argv, c);
}

static double
num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	ck_assert_msg(cJSON_IsNumber(v), "\"%s\" is not a number", k);
	return v->valuedouble;
}

/* Parse the output; check the contract's fields on every event. */
static cJSON *
parse(const struct capture *c)
{
	static const char *const kinds[] = { "forward", "backward",
	    "all-reduce", "all-gather", "reduce-scatter", "send", "receive",
	    "optimizer", "idle", "ring-step" };
	static const char *const carries[] = { "none", "activations",
	    "activation-grads", "weight-grads", "params", "keys-values",
	    "key-value-grads", "dispatch", "combine" };
	cJSON *root = cJSON_Parse(c->out), *ev, *e;
	double sum = 0;
	size_t i;
	int ok;

	ck_assert_int_eq(c->rc, 0);
	ck_assert_ptr_nonnull(root);
	ev = cJSON_GetObjectItemCaseSensitive(root, "events");
	ck_assert(cJSON_IsArray(ev) && cJSON_GetArraySize(ev) > 0);
	cJSON_ArrayForEach(e, ev) {
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kind");

		ck_assert(cJSON_IsString(k));
		for (ok = 0, i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
			ok |= strcmp(k->valuestring, kinds[i]) == 0;
		ck_assert_msg(ok, "kind %s", k->valuestring);
		k = cJSON_GetObjectItemCaseSensitive(e, "carries");
		ck_assert(cJSON_IsString(k));
		for (ok = 0, i = 0; i < sizeof carries / sizeof carries[0]; i++)
			ok |= strcmp(k->valuestring, carries[i]) == 0;
		ck_assert_msg(ok, "carries %s", k->valuestring);
		ck_assert(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(e,
		    "overlap")));
		ck_assert(num(e, "device") >= 0);
		ck_assert(num(e, "layer") >= 0 && num(e, "layer") <= 4);
		ck_assert(num(e, "microbatch") >= -1);
		ck_assert(num(e, "shard") >= -1 && num(e, "chunk") >= -1);
		ck_assert(num(e, "end_s") >= num(e, "start_s"));
		k = cJSON_GetObjectItemCaseSensitive(e, "kind");
		/* Ring steps detail their collective: not counted again. */
		if (strcmp(k->valuestring, "receive") != 0 &&
		    strcmp(k->valuestring, "ring-step") != 0)
			sum += num(e, "bytes");
	}
	ck_assert_double_eq(num(root, "bytes_moved"), sum);
	ck_assert(num(root, "max_grad_error") < 1e-9);
	ck_assert(num(root, "loss") > 0);
	ck_assert(num(root, "bubble_fraction") >= 0);
	return root;
}

START_TEST(json_every_mode)
{
	static const char *const modes[] = { "single", "dp", "tp", "pp",
	    "fsdp", "3d", "cp" };
	struct capture c;
	cJSON *a, *b;
	double loss0 = 0;
	int i;

	for (i = 0; i < 7; i++) {
		trace(&c, "--mode", modes[i], "--json", NULL);
		a = parse(&c);
		if (i == 0)
			loss0 = num(a, "loss");
		ck_assert_double_eq_tol(num(a, "loss"), loss0, 1e-9);
		b = cJSON_GetObjectItemCaseSensitive(a, "mode");
		ck_assert_str_eq(b->valuestring, modes[i]);
		ck_assert_double_eq(num(a, "gpus"), i == 0 ? 1 : i == 5 ? 8 : 4);
		cJSON_Delete(a);
		capture_free(&c);
	}
}
END_TEST

START_TEST(json_bubble)
{
	struct capture c;
	cJSON *a;

	trace(&c, "--mode", "pp", "--gpus", "2", "--schedule", "interleaved",
	    "--microbatches", "4", "--compute-only", "--json", NULL);
	a = parse(&c);
	ck_assert_double_eq_tol(num(a, "bubble_fraction"),
	    pipe_bubble_fraction(2, 4, 2), 1e-9);
	ck_assert_double_eq(num(a, "virtual_stages"), 2);
	cJSON_Delete(a);
	capture_free(&c);
	trace(&c, "--mode", "pp", "--schedule", "gpipe", "--compute-only",
	    "--json", NULL);
	a = parse(&c);
	ck_assert_double_eq_tol(num(a, "bubble_fraction"), 3.0 / 11, 1e-9);
	ck_assert_double_eq(num(a, "microbatches"), 8);
	cJSON_Delete(a);
	capture_free(&c);
}
END_TEST

START_TEST(json_dp_bytes)
{
	struct capture c;
	cJSON *a;

	/* Four buckets of 3248 doubles over 4: 2 * 3/4 * 25984 each. */
	trace(&c, "--mode", "dp", "--json", NULL);
	a = parse(&c);
	ck_assert_double_eq(num(a, "bytes_moved"), 4 * 4 * 38976);
	ck_assert_double_eq(num(a, "bubble_fraction"), 0);
	cJSON_Delete(a);
	capture_free(&c);
}
END_TEST

START_TEST(gantt)
{
	struct capture c;

	trace(&c, "--mode", "pp", "--gpus", "2", "--microbatches", "4", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "\nG0  |AAAABBBB."));
	ck_assert_ptr_nonnull(strstr(c.out, "\nG1  |....AAAAaaaa"));
	ck_assert_ptr_null(strstr(c.out, "G2  |"));
	ck_assert_ptr_nonnull(strstr(c.out, "legend"));
	ck_assert_ptr_nonnull(strstr(c.out, "bubble"));
	ck_assert_ptr_nonnull(strstr(c.out, "formula (p-1)/(v*m+p-1) 0.2000"));
	capture_free(&c);
	trace(&c, "--mode", "tp", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "="));
	capture_free(&c);
}
END_TEST

/*
 * GPUs are named as the lessons and the player name them, G0, G1, ...,
 * stages counted from 0 (stage 0 on G0), layers L1 to L4, and compute
 * lettered by slice of the batch as the player letters it.
 */
START_TEST(gpu_names)
{
	struct capture c;
	const cJSON *e, *d;
	cJSON *root;
	char want[16];
	int i = 0;

	trace(&c, "--mode", "pp", "--gpus", "2", "--microbatches", "4", NULL);
	ck_assert_ptr_nonnull(strstr(c.out, "pp on 2 GPUs (dp 1 x tp 1 x "
	    "pp 2), 1f1b, 4 microbatches"));
	ck_assert_ptr_nonnull(strstr(c.out, "\nstage 0: G0 (L1 L2)\n"
	    "stage 1: G1 (L3 L4)\n"));
	ck_assert_ptr_null(strstr(c.out, "dev "));
	capture_free(&c);
	trace(&c, "--mode", "3d", NULL);
	ck_assert_ptr_nonnull(strstr(c.out, "\nstage 0: G0 G1 G4 G5 (L1 L2)\n"
	    "stage 1: G2 G3 G6 G7 (L3 L4)\n"));
	/* Replica 1 works on micro-batches 8 to 15 of the batch: I on. */
	ck_assert_ptr_nonnull(strstr(c.out, "\nG4  |II"));
	capture_free(&c);
	trace(&c, "--mode", "dp", NULL);
	ck_assert_ptr_nonnull(strstr(c.out, "\nG3  |DDDD"));
	ck_assert_ptr_null(strstr(c.out, "1f1b"));
	capture_free(&c);

	trace(&c, "--mode", "3d", "--json", NULL);
	root = parse(&c);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "events")) {
		snprintf(want, sizeof want, "G%d", (int)num(e, "device"));
		ck_assert_str_eq(cJSON_GetObjectItem(e, "gpu")->valuestring,
		    want);
	}
	d = cJSON_GetObjectItem(root, "devices");
	ck_assert_int_eq(cJSON_GetArraySize(d), 8);
	cJSON_ArrayForEach(e, d) {
		snprintf(want, sizeof want, "G%d", i);
		ck_assert_str_eq(cJSON_GetObjectItem(e, "gpu")->valuestring,
		    want);
		ck_assert_double_eq(num(e, "device"), i);
		/* rank = (replica * pp + stage) * tp + tp_rank */
		ck_assert_double_eq(num(e, "replica"), i / 4);
		ck_assert_double_eq(num(e, "stage"), (i / 2) % 2);
		ck_assert_double_eq(num(e, "tp_rank"), i % 2);
		ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(e,
		    "layers")), 2);
		ck_assert_double_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(e,
		    "layers"), 0)->valuedouble, (i / 2) % 2 == 0 ? 1 : 3);
		i++;
	}
	cJSON_Delete(root);
	capture_free(&c);
}
END_TEST

/* rc 1, one line on stderr starting "parlearn: " and holding want. */
static void
expect_usage_error(struct capture *c, const char *want)
{
	ck_assert_int_eq(c->rc, 1);
	ck_assert_str_eq(c->out, "");
	ck_assert_msg(strncmp(c->err, "parlearn: ", 10) == 0, "%s", c->err);
	ck_assert_ptr_nonnull(strstr(c->err, want));
	ck_assert_ptr_eq(strchr(c->err, '\n'), c->err + strlen(c->err) - 1);
	capture_free(c);
}

START_TEST(errors)
{
	struct capture c;

	trace(&c, "--mode", "pp", "--gpus", "3", NULL);
	expect_usage_error(&c, "layers");
	trace(&c, "--mode", "pp", "--microbatches", "0", NULL);
	expect_usage_error(&c, "parlearn: trace: --microbatches: '0' is not a "
	    "whole number from 1 to 2147483647 (try 'parlearn trace --help')");
	trace(&c, "--mode", "zero", NULL);
	expect_usage_error(&c, "unknown mode 'zero'");
	trace(&c, "--mode", "3d", "--gpus", "4", NULL);
	expect_usage_error(&c, "8 GPUs");
	trace(&c, "--mode", "tp", "--gpus", "8", NULL);
	expect_usage_error(&c, "heads");
	trace(&c, "--mode", "dp", "--sequence-parallel", NULL);
	expect_usage_error(&c, "sequence parallelism");
	trace(&c, "--gpus", "four", NULL);
	expect_usage_error(&c, "--gpus: 'four' is not a whole number");
	/* Trailing junk after digits is refused, not read as 4. */
	trace(&c, "--gpus", "4x", NULL);
	expect_usage_error(&c, "parlearn: trace: --gpus: '4x' is not a whole "
	    "number from 1 to 2147483647 (try 'parlearn trace --help')");
	trace(&c, "--virtual-stages", "99999999999999999999", NULL);
	expect_usage_error(&c, "--virtual-stages: '99999999999999999999' is not "
	    "a whole number");
	trace(&c, "--schedule", "zigzag", NULL);
	expect_usage_error(&c, "unknown schedule");
	trace(&c, "stray", NULL);
	expect_usage_error(&c, "unexpected argument");
	trace(&c, "--bogus", NULL);
	ck_assert_int_eq(c.rc, 1);
	capture_free(&c);
}
END_TEST

START_TEST(help)
{
	struct capture c;

	trace(&c, "--help", NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "Usage: parlearn trace"));
	ck_assert_ptr_nonnull(strstr(c.out, "--virtual-stages"));
	ck_assert_ptr_nonnull(strstr(c.out, "--sequence-parallel"));
	ck_assert_ptr_nonnull(strstr(c.out, "--no-overlap"));
	capture_free(&c);
}
END_TEST

/* Events of kind on device dev, as a count. */
static int
count(const cJSON *root, int dev, const char *kind)
{
	const cJSON *e;
	int n = 0;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root,
	    "events"))
		n += num(e, "device") == dev && strcmp(cJSON_GetObjectItem(e,
		    "kind")->valuestring, kind) == 0;
	return n;
}

/* Issue 13's "done means", as the JSON shows them. */
START_TEST(tp_sixteen_all_reduces)
{
	struct capture c;
	cJSON *a;
	int d;

	trace(&c, "--mode", "tp", "--gpus", "4", "--json", NULL);
	a = parse(&c);
	for (d = 0; d < 4; d++)
		ck_assert_int_eq(count(a, d, "all-reduce"), 16);
	ck_assert_double_eq(num(cJSON_GetObjectItem(a, "model"), "layers"),
	    4);
	cJSON_Delete(a);
	capture_free(&c);
	/* With sequence parallelism: gathers and scatters instead. */
	trace(&c, "--mode", "tp", "--sequence-parallel", "--json", NULL);
	a = parse(&c);
	ck_assert_int_eq(count(a, 0, "all-gather"), 16);
	ck_assert_int_eq(count(a, 0, "reduce-scatter"), 16);
	cJSON_Delete(a);
	capture_free(&c);
}
END_TEST

START_TEST(dp_all_reduce_during_backward)
{
	const cJSON *e;
	struct capture c;
	double last_bwd = 0, first_ar = 1e9;
	cJSON *a;

	trace(&c, "--mode", "dp", "--json", NULL);
	a = parse(&c);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(a, "events")) {
		const char *k = cJSON_GetObjectItem(e, "kind")->valuestring;

		if (strcmp(k, "backward") == 0 && num(e, "end_s") > last_bwd)
			last_bwd = num(e, "end_s");
		if (strcmp(k, "all-reduce") == 0 && num(e, "start_s") < first_ar) {
			first_ar = num(e, "start_s");
			ck_assert_str_eq(cJSON_GetObjectItem(e,
			    "carries")->valuestring, "weight-grads");
			ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(e,
			    "overlap")));
		}
	}
	ck_assert_msg(first_ar < last_bwd, "first all-reduce %g, last "
	    "backward ends %g", first_ar, last_bwd);
	cJSON_Delete(a);
	capture_free(&c);
}
END_TEST

START_TEST(gpipe_and_1f1b_bubbles)
{
	struct capture c;
	double b[2];
	cJSON *a;
	int i;

	for (i = 0; i < 2; i++) {
		trace(&c, "--mode", "pp", "--microbatches", "8", "--schedule",
		    i == 0 ? "gpipe" : "1f1b", "--json", NULL);
		a = parse(&c);
		b[i] = num(a, "bubble_fraction");
		ck_assert(fabs(b[i] - 3.0 / 11) < 0.02);
		cJSON_Delete(a);
		capture_free(&c);
	}
	ck_assert_msg(fabs(b[0] - b[1]) < 0.02, "gpipe %.4f, 1f1b %.4f", b[0],
	    b[1]);
}
END_TEST

/* trace's argv for the settings of an animation block. */
static int
block_argv(const struct content_animation *an, char bufs[10][16], char **argv)
{
	int n = 0;

	argv[n++] = "trace";
	argv[n++] = "--mode";
	argv[n++] = (char *)an->req.mode;
	if (an->req.gpus > 0) {
		snprintf(bufs[0], 16, "%d", an->req.gpus);
		argv[n++] = "--gpus";
		argv[n++] = bufs[0];
	}
	if (an->req.microbatches > 0) {
		snprintf(bufs[1], 16, "%d", an->req.microbatches);
		argv[n++] = "--microbatches";
		argv[n++] = bufs[1];
	}
	if (an->req.schedule != NULL) {
		argv[n++] = "--schedule";
		argv[n++] = (char *)an->req.schedule;
	}
	if (an->req.vstages > 0) {
		snprintf(bufs[2], 16, "%d", an->req.vstages);
		argv[n++] = "--virtual-stages";
		argv[n++] = bufs[2];
	}
	if (an->req.tp > 0) {
		snprintf(bufs[3], 16, "%d", an->req.tp);
		argv[n++] = "--tp";
		argv[n++] = bufs[3];
	}
	if (an->req.pp > 0) {
		snprintf(bufs[4], 16, "%d", an->req.pp);
		argv[n++] = "--pp";
		argv[n++] = bufs[4];
	}
	if (an->req.ep > 0) {
		snprintf(bufs[5], 16, "%d", an->req.ep);
		argv[n++] = "--ep";
		argv[n++] = bufs[5];
	}
	if (an->req.moe > 0) {
		snprintf(bufs[6], 16, "%d", an->req.moe);
		argv[n++] = "--moe";
		argv[n++] = bufs[6];
	}
	if (an->req.top_k > 0) {
		snprintf(bufs[8], 16, "%d", an->req.top_k);
		argv[n++] = "--top-k";
		argv[n++] = bufs[8];
	}
	if (an->req.router_bias > 0) {
		snprintf(bufs[7], 16, "%d", an->req.router_bias);
		argv[n++] = "--router-bias";
		argv[n++] = bufs[7];
	}
	if (an->req.shared_expert)
		argv[n++] = "--shared-expert";
	if (an->req.seq_parallel)
		argv[n++] = "--sequence-parallel";
	if (an->req.no_overlap)
		argv[n++] = "--no-overlap";
	if (an->req.compute_only)
		argv[n++] = "--compute-only";
	argv[n++] = "--json";
	argv[n] = NULL;
	return n;
}

/* The block's run and trace's JSON agree on the config and every event. */
static void
same_run(const struct content_animation *an, const cJSON *root)
{
	static const char *const fields[] = { "device", "layer", "microbatch",
	    "shard", "chunk", "start_s", "end_s", "bytes", "peer", "collective" };
	static struct sim_result r;
	struct sim_config cfg;
	struct pl_err err;
	const cJSON *e;
	size_t i = 0, f;
	double a2a, hidden;

	ck_assert_int_eq(animation_config(an, &cfg, &err), 0);
	ck_assert_int_eq(sim_run(&cfg, &r, &err), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "mode")->valuestring,
	    sim_mode_name(cfg.mode));
	ck_assert_double_eq(num(root, "gpus"), cfg.gpus);
	ck_assert_double_eq(num(root, "microbatches"), cfg.microbatches);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "schedule")->valuestring,
	    pipe_schedule_name(cfg.schedule));
	ck_assert_double_eq(num(root, "virtual_stages"), cfg.vstages);
	ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(root, "overlap")),
	    cfg.overlap);
	ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(root,
	    "sequence_parallel")), cfg.seq_parallel);
	ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(root,
	    "compute_only")), cfg.compute_only);
	ck_assert_double_eq(num(root, "bytes_moved"), (double)r.bytes_moved);
	ck_assert_double_eq_tol(num(root, "step_time_s"), r.step_time, 1e-13);
	a2a = sim_timeline_a2a(&r.tl, -1, &hidden) / r.tl.n_devices;
	ck_assert_double_eq_tol(num(root, "all_to_all_s"), a2a, 1e-13);
	ck_assert_double_eq_tol(num(root, "all_to_all_hidden_s"),
	    hidden / r.tl.n_devices, 1e-13);
	ck_assert((a2a > 0.0) == (cfg.mode == SIM_EP && r.ep > 1));
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root,
	    "events")), (int)r.tl.n_ev);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "events")) {
		const struct sim_event *ev = &r.tl.ev[i++];
		double want[] = { ev->device, ev->layer, ev->microbatch,
		    ev->shard, ev->chunk, ev->start, ev->end, (double)ev->bytes,
		    ev->peer, ev->collective };

		ck_assert_str_eq(cJSON_GetObjectItem(e, "kind")->valuestring,
		    sim_kind_name(ev->kind));
		/* JSON keeps 15 significant digits of the times. */
		for (f = 0; f < sizeof fields / sizeof fields[0]; f++)
			ck_assert_double_eq_tol(num(e, fields[f]), want[f],
			    1e-13);
	}
	sim_result_free(&r);
}

START_TEST(every_block_plays_what_trace_prints)
{
	struct content_course *course = content_load(TOP_SRCDIR, NULL);
	char bufs[10][16], *argv[28];
	struct capture c;
	size_t d, b;
	int argc, blocks = 0;
	cJSON *root;

	ck_assert_ptr_nonnull(course);
	for (d = 0; d < course->n_drops; d++)
		for (b = 0; b < course->drops[d].n_blocks; b++) {
			const struct content_block *blk =
			    &course->drops[d].blocks[b];

			if (blk->kind != CONTENT_ANIMATION)
				continue;
			argc = block_argv(&blk->animation, bufs, argv);
			capture_run(cli_trace_main, &ctx, argc, argv, &c);
			root = parse(&c);
			same_run(&blk->animation, root);
			cJSON_Delete(root);
			capture_free(&c);
			blocks++;
		}
	ck_assert_int_ge(blocks, 10);
	content_free(course);
}
END_TEST

/*
 * A block with each of trace's settings, alone and together: each key
 * turns its setting (the config differs from the same block without it)
 * and the run is the one trace prints with the matching option.
 */
static const char *const key_blocks[] = {
	"\"mode\": \"tp\", \"gpus\": 2, \"sequence_parallel\": true",
	"\"mode\": \"dp\", \"no_overlap\": true",
	"\"mode\": \"fsdp\", \"gpus\": 2, \"no_overlap\": true",
	"\"mode\": \"pp\", \"compute_only\": true",
	"\"mode\": \"pp\", \"gpus\": 2, \"microbatches\": 4, "
	    "\"schedule\": \"interleaved\", \"virtual_stages\": 2",
	"\"mode\": \"3d\", \"sequence_parallel\": true, \"no_overlap\": true, "
	    "\"compute_only\": true, \"schedule\": \"gpipe\", "
	    "\"microbatches\": 4",
	"\"mode\": \"single\", \"compute_only\": false, \"no_overlap\": false",
	"\"mode\": \"cp\", \"gpus\": 8, \"tp\": 2",
};
#define N_KEY_BLOCKS	(sizeof key_blocks / sizeof key_blocks[0])

/* A course of one drop holding key_blocks, under a new directory. */
static char *
key_course(void)
{
	char *dir = test_tmpdir(), drop[4096];
	size_t i, used;

	ck_assert_ptr_nonnull(dir);
	used = (size_t)snprintf(drop, sizeof drop, "{\"id\": \"drop-k\", "
	    "\"phase\": 1, \"number\": 1, \"title\": \"K\", \"minutes\": 1, "
	    "\"blocks\": [");
	for (i = 0; i < N_KEY_BLOCKS; i++)
		used += (size_t)snprintf(drop + used, sizeof drop - used,
		    "%s{\"kind\": \"animation\", %s, \"caption\": \"c\"}",
		    i > 0 ? ", " : "", key_blocks[i]);
	snprintf(drop + used, sizeof drop - used, "]}");
	ck_assert_int_eq(test_write(dir, "lessons/course.json", "{\"title\": "
	    "\"T\", \"phases\": [{\"number\": 1, \"title\": \"One\"}]}"), 0);
	ck_assert_int_eq(test_write(dir, "lessons/1-k/01-k.json", drop), 0);
	return dir;
}

START_TEST(every_key_plays_what_trace_prints)
{
	char *dir = key_course(), bufs[10][16], *argv[28];
	struct content_problems p = { NULL, 0, 0 };
	struct content_course *course = content_load(dir, &p);
	const struct content_drop *d;
	struct sim_config cfg, plain;
	struct content_animation bare;
	struct pl_err err;
	struct capture c;
	cJSON *root;
	size_t b;
	int argc;

	ck_assert_ptr_nonnull(course);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_uint_eq(course->n_drops, 1);
	d = &course->drops[0];
	ck_assert_uint_eq(d->n_blocks, N_KEY_BLOCKS);
	for (b = 0; b < d->n_blocks; b++) {
		const struct content_animation *an = &d->blocks[b].animation;

		ck_assert_int_eq(animation_config(an, &cfg, &err), 0);
		ck_assert_int_eq(cfg.seq_parallel, an->req.seq_parallel);
		ck_assert_int_eq(cfg.overlap, !an->req.no_overlap);
		ck_assert_int_eq(cfg.compute_only, an->req.compute_only);
		/* Without its switches the block asks for another run. */
		bare = *an;
		bare.req.seq_parallel = bare.req.no_overlap = 0;
		bare.req.compute_only = 0;
		if (an->req.seq_parallel || an->req.no_overlap ||
		    an->req.compute_only) {
			ck_assert_int_eq(animation_config(&bare, &plain, &err),
			    0);
			ck_assert(!sim_config_same(&cfg, &plain));
		}
		argc = block_argv(an, bufs, argv);
		capture_run(cli_trace_main, &ctx, argc, argv, &c);
		root = parse(&c);
		same_run(an, root);
		cJSON_Delete(root);
		capture_free(&c);
	}
	content_free(course);
	content_problems_free(&p);
	test_rmrf(dir);
	free(dir);
}
END_TEST

/*
 * trace's options but --json, --help, --from and --dump-weights are the
 * block's keys, '_' for '-'.
 */
START_TEST(every_option_is_a_key)
{
	const struct sim_key *k;
	struct capture c;
	const char *s;
	char name[64];
	size_t n, i, options = 0;

	trace(&c, "--help", NULL);
	ck_assert_int_eq(c.rc, 0);
	for (s = strstr(c.out, "\n  --"); s != NULL;
	    s = strstr(s + 1, "\n  --")) {
		s += 5;
		n = strcspn(s, " \n");
		ck_assert_uint_lt(n, sizeof name);
		memcpy(name, s, n);
		name[n] = '\0';
		/* Not a run's setting: how to print it, which to replay,
		 * or where to write the weights. */
		if (strcmp(name, "json") == 0 || strcmp(name, "help") == 0 ||
		    strcmp(name, "from") == 0 || strcmp(name, "against") == 0 ||
		    strcmp(name, "dump-weights") == 0)
			continue;
		for (i = 0; i < n; i++)
			if (name[i] == '-')
				name[i] = '_';
		ck_assert_msg(animation_key_known(name), "trace's option for "
		    "%s has no animation key", name);
		options++;
	}
	for (i = 0, k = sim_keys(); k->key != NULL; k++)
		i += (k->uses & SIM_FOR_BLOCK) != 0;
	ck_assert_uint_eq(options, i);
	ck_assert_uint_eq(options, 15);
	capture_free(&c);
}
END_TEST

/* The options trace --help lists, without the dashes (NULL-terminated). */
static size_t
help_options(char names[][32], size_t max)
{
	struct capture c;
	const char *s;
	size_t n = 0, len;

	trace(&c, "--help", NULL);
	ck_assert_int_eq(c.rc, 0);
	for (s = strstr(c.out, "\n  --"); s != NULL && n < max;
	    s = strstr(s + 1, "\n  --")) {
		len = strcspn(s + 5, " \n");
		ck_assert_uint_lt(len, 32);
		memcpy(names[n], s + 5, len);
		names[n++][len] = '\0';
	}
	capture_free(&c);
	return n;
}

/*
 * The man page and README list every option of trace; lessons/README.md's
 * table of animation keys lists exactly the keys a block may have.
 */
START_TEST(docs_list_every_option)
{
	const struct sim_key *k;
	char opts[24][32], want[80], *man, *readme, *lessons;
	const char *sec, *end, *row;
	struct pl_err err;
	size_t n, i, j, rows = 0;

	man = pl_read_file(TOP_SRCDIR "/doc/parlearn.1", NULL, &err);
	readme = pl_read_file(TOP_SRCDIR "/README.md", NULL, &err);
	lessons = pl_read_file(TOP_SRCDIR "/lessons/README.md", NULL, &err);
	ck_assert(man != NULL && readme != NULL && lessons != NULL);
	n = help_options(opts, 24);
	/* Every option but "-h, --help", whose line starts with -h. */
	ck_assert_uint_eq(n, 19);
	for (i = 0; i < n; i++) {
		/* groff writes every '-' of an option as "\-". */
		strcpy(want, "\\-\\-");
		for (j = 0; opts[i][j] != '\0'; j++)
			strcat(want, opts[i][j] == '-' ? "\\-" :
			    (char[2]){ opts[i][j], '\0' });
		ck_assert_msg(strstr(man, want) != NULL, "doc/parlearn.1 "
		    "lacks %s", want);
		if (strcmp(opts[i], "help") == 0)
			continue;
		ck_assert_int_lt(snprintf(want, sizeof want, "`--%s", opts[i]),
		    (int)sizeof want);
		ck_assert_msg(strstr(readme, want) != NULL, "README.md lacks "
		    "%s`", want);
	}
	sec = strstr(lessons, "### `animation`");
	ck_assert_ptr_nonnull(sec);
	end = strstr(sec, "\n### ");
	ck_assert_ptr_nonnull(end);
	for (row = strstr(sec, "\n| `"); row != NULL && row < end;
	    row = strstr(row + 1, "\n| `")) {
		i = strcspn(row + 4, "`");
		ck_assert_uint_lt(i, sizeof want);
		memcpy(want, row + 4, i);
		want[i] = '\0';
		ck_assert_msg(animation_key_known(want) ||
		    strcmp(want, "caption") == 0, "lessons/README.md lists "
		    "`%s`, not an animation key", want);
		rows++;
	}
	for (i = 0, k = sim_keys(); k->key != NULL; k++) {
		if (!(k->uses & SIM_FOR_BLOCK))
			continue;
		snprintf(want, sizeof want, "\n| `%s` |", k->key);
		ck_assert_msg(strstr(sec, want) != NULL && strstr(sec, want) <
		    end, "lessons/README.md lacks the key %s", k->key);
		i++;
	}
	ck_assert_uint_eq(rows, i + 1);
	free(man);
	free(readme);
	free(lessons);
}
END_TEST

/* The members issue 17 gave a unit, each with the name it had before. */
static const char *const renamed[][2] = {
	{ "step_time_s", "step_time" },
	{ "bubble_formula_fraction", "bubble_formula" },
	{ "start_s", "start" }, { "end_s", "end" }, { "t_s", "t" },
	{ "params_bytes", "params" }, { "grads_bytes", "grads" },
	{ "optimizer_bytes", "optimizer" },
	{ "activations_bytes", "activations" },
	{ "gathered_bytes", "gathered" },
};
#define N_RENAMED	(sizeof renamed / sizeof renamed[0])

/* Give every renamed member of o its old name; how many it had. */
static int
to_old_names(cJSON *o)
{
	cJSON *v;
	size_t i;
	int n = 0;

	for (i = 0; i < N_RENAMED; i++)
		if ((v = cJSON_DetachItemFromObjectCaseSensitive(o,
		    renamed[i][0])) != NULL) {
			cJSON_AddItemToObject(o, renamed[i][1], v);
			n++;
		}
	return n;
}

/* `trace --from FILE --json` on text written to dir/name. */
static void
replay(struct capture *c, const char *dir, const char *name, char *text)
{
	char path[4096];

	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(test_write(dir, name, text), 0);
	free(text);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	trace(c, "--from", path, "--json", NULL);
}

/*
 * Times are "_s" and sizes "_bytes" in the document, and --from reads a
 * file with those names and one with the names before them alike.
 */
START_TEST(json_units_and_old_names)
{
	char *dir = test_tmpdir();
	struct capture c, back, old;
	cJSON *root, *e, *mem;
	int n = 0, mems = 0;
	size_t i;

	ck_assert_ptr_nonnull(dir);
	trace(&c, "--mode", "fsdp", "--json", NULL);
	root = parse(&c);
	ck_assert(num(root, "step_time_s") > 0);
	ck_assert_double_eq(num(root, "bubble_formula_fraction"), 0);
	mem = cJSON_GetObjectItemCaseSensitive(root, "memory");
	cJSON_ArrayForEach(e, mem) {
		ck_assert(num(e, "t_s") >= 0 && num(e, "t_s") <=
		    num(root, "step_time_s"));
		for (i = 5; i < N_RENAMED; i++)
			ck_assert(num(e, renamed[i][0]) >= 0);
		mems += num(e, "gathered_bytes") > 0;
	}
	ck_assert_int_gt(mems, 0);	/* ZeRO-3 gathers weights */
	for (i = 0; i < N_RENAMED; i++)
		ck_assert_msg(strstr(c.out, renamed[i][1]) == NULL ||
		    strstr(c.out, renamed[i][0]) != NULL, "%s", renamed[i][1]);

	/* A replay splits a sample that changes several kinds: compare
	 * replays with each other, and with the run only the events. */
	replay(&back, dir, "new.json", cJSON_Print(root));
	ck_assert_int_eq(back.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "\"memory\""));
	ck_assert(strncmp(back.out, c.out, (size_t)(strstr(c.out,
	    "\"memory\"") - c.out)) == 0);

	n += to_old_names(root);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "events"))
		n += to_old_names(e);
	cJSON_ArrayForEach(e, mem)
		n += to_old_names(e);
	ck_assert_int_gt(n, 2);
	replay(&old, dir, "old.json", cJSON_Print(root));
	ck_assert_int_eq(old.rc, 0);
	ck_assert(strcmp(old.out, back.out) == 0);
	capture_free(&old);

	/* Neither name: the error names the new one. */
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(root, "events"), 0), "start");
	replay(&old, dir, "none.json", cJSON_Print(root));
	ck_assert_int_eq(old.rc, 2);
	ck_assert_msg(strstr(old.err, "none.json") != NULL &&
	    strstr(old.err, "events[0].start_s") != NULL, "%s", old.err);
	capture_free(&old);
	capture_free(&back);
	capture_free(&c);
	cJSON_Delete(root);
	test_rmrf(dir);
	free(dir);
}
END_TEST

/* Every value of a JSON array of n numbers equals v[i] exactly. */
static void
same_numbers(const cJSON *root, const char *key, const double *v, int n)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key), *e;
	int i = 0;

	ck_assert_msg(cJSON_GetArraySize(a) == n, "%s: %d values, want %d",
	    key, cJSON_GetArraySize(a), n);
	cJSON_ArrayForEach(e, a) {
		ck_assert_msg(cJSON_IsNumber(e) && e->valuedouble == v[i],
		    "%s[%d]: %.17g, want %.17g", key, i, e->valuedouble, v[i]);
		i++;
	}
}

/*
 * --dump-weights FILE (examples/pytorch reads it): the batch, the initial
 * weights and the run's loss, gradients and updated weights, every double
 * exactly the simulator's; through the safe writer; not with --from.
 */
START_TEST(dump_weights_exact)
{
	static double x[SIM_TOKENS * SIM_HIDDEN], t[SIM_TOKENS * SIM_HIDDEN];
	static double init[SIM_NPARAMS];
	static struct sim_result res;
	struct sim_request req = { .mode = "dp", .gpus = 2 };
	char *dir = test_tmpdir(), path[4096], link[4096];
	struct sim_config cfg;
	struct capture c;
	struct pl_err err;
	cJSON *root;
	char *text;

	ck_assert_ptr_nonnull(dir);
	snprintf(path, sizeof path, "%s/w.json", dir);
	trace(&c, "--mode", "dp", "--gpus", "2", "--json", "--dump-weights",
	    path, NULL);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "\"parlearn.trace/1\""));
	capture_free(&c);
	text = pl_read_file(path, NULL, &err);
	ck_assert_ptr_nonnull(text);
	root = cJSON_Parse(text);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root,
	    "schema")->valuestring, "parlearn.weights/1");
	ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root,
	    "mode")->valuestring, "dp");
	ck_assert_int_eq((int)num(root, "dp"), 2);
	sim_model_data(x, t);
	sim_model_init(init);
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), 0);
	ck_assert_int_eq(sim_run(&cfg, &res, &err), 0);
	same_numbers(root, "x", x, SIM_TOKENS * SIM_HIDDEN);
	same_numbers(root, "target", t, SIM_TOKENS * SIM_HIDDEN);
	same_numbers(root, "params", init, SIM_NPARAMS);
	same_numbers(root, "grads", res.grads, SIM_NPARAMS);
	same_numbers(root, "params_after", res.params, SIM_NPARAMS);
	ck_assert(num(root, "loss") == res.loss);
	sim_result_free(&res);
	cJSON_Delete(root);
	free(text);

	/* A planted link is refused, its target untouched. */
	snprintf(link, sizeof link, "%s/link.json", dir);
	ck_assert_int_eq(symlink(path, link), 0);
	trace(&c, "--mode", "single", "--dump-weights", link, NULL);
	ck_assert_int_eq(c.rc, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "symbolic link"));
	capture_free(&c);
	/* A replay makes no run to dump: a usage error. */
	trace(&c, "--from", path, "--dump-weights", path, NULL);
	ck_assert_int_eq(c.rc, 1);
	capture_free(&c);
	test_rmrf(dir);
	free(dir);
}
END_TEST

static Suite *
cmd_trace_suite(void)
{
	Suite *s = suite_create("cmd_trace");
	TCase *tc;

	tc = tcase_create("json contract");
	tcase_add_test(tc, json_every_mode);
	tcase_add_test(tc, json_bubble);
	tcase_add_test(tc, json_dp_bytes);
	tcase_add_test(tc, json_units_and_old_names);
	tcase_add_test(tc, dump_weights_exact);
	suite_add_tcase(s, tc);
	tc = tcase_create("the toy's figures");
	tcase_add_test(tc, tp_sixteen_all_reduces);
	tcase_add_test(tc, dp_all_reduce_during_backward);
	tcase_add_test(tc, gpipe_and_1f1b_bubbles);
	suite_add_tcase(s, tc);
	tc = tcase_create("one config builder");
	tcase_add_test(tc, every_block_plays_what_trace_prints);
	tcase_add_test(tc, every_key_plays_what_trace_prints);
	tcase_add_test(tc, every_option_is_a_key);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tc = tcase_create("text output");
	tcase_add_test(tc, gantt);
	tcase_add_test(tc, gpu_names);
	tcase_add_test(tc, help);
	tcase_add_test(tc, docs_list_every_option);
	suite_add_tcase(s, tc);
	tc = tcase_create("usage errors");
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cmd_trace_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
