/*
 * check_course_toy.c - what the lessons say the toy does, it does.
 *
 * Drop 5's step table: each DP replica scales its loss by the whole
 * batch's token count (sim_loss), so the gradient all-reduce is a plain
 * sum that reproduces the single-GPU gradient; the sequences per GPU and
 * tokens the table names are the toy's. Drops 4 and 7: micro-batches
 * count from 0, as the player labels them ("mb 0", letter A), like the
 * GPUs (G0) and the stages (stage 0).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/animation.h"
#include "core/course/content.h"
#include "core/sim/player.h"
#include "core/sim/sim.h"
#include "core/sim/sim_model.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static struct content_course *course;

static void
setup(void)
{
	course = content_load(TOP_SRCDIR, NULL);
	ck_assert_ptr_nonnull(course);
}

static void
teardown(void)
{
	content_free(course);
}

/* Block `title` (a text block) or the first animation of drop `drop`. */
static const struct content_block *
block_of(const char *drop, const char *title)
{
	const struct content_drop *d = content_find_drop(course, drop);
	size_t i;

	ck_assert_msg(d != NULL, "no %s", drop);
	for (i = 0; i < d->n_blocks; i++)
		if (title != NULL ? d->blocks[i].title != NULL &&
		    strcmp(d->blocks[i].title, title) == 0 :
		    d->blocks[i].kind == CONTENT_ANIMATION)
			return &d->blocks[i];
	ck_abort_msg("%s has no block %s", drop, title ? title : "animation");
	return NULL;
}

/* The integer written between `before` and `after`; fails when absent. */
static int
int_in(const char *text, const char *before, const char *after)
{
	const char *p = text;
	char *end;
	long v;

	while ((p = strstr(p, before)) != NULL) {
		p += strlen(before);
		v = strtol(p, &end, 10);
		if (end > p && strncmp(end, after, strlen(after)) == 0)
			return (int)v;
	}
	ck_abort_msg("no number between \"%s\" and \"%s\"", before, after);
	return -1;
}

static void
run_block(const struct content_block *b, struct sim_config *cfg,
    struct sim_result *r)
{
	struct pl_err err;

	pl_err_clear(&err);
	ck_assert_msg(animation_config(&b->animation, cfg, &err) == 0, "%s",
	    err.msg);
	ck_assert_msg(sim_run(cfg, r, &err) == 0, "%s", err.msg);
}

/* The table's counts are the toy's, on drop 5's own animation. */
START_TEST(drop05_counts)
{
	const char *t = block_of("drop-05", "The step, event by event")->text;
	struct sim_config cfg;
	struct sim_result *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	run_block(block_of("drop-05", NULL), &cfg, r);
	ck_assert_int_eq(r->dp, 4);
	ck_assert_int_eq(int_in(t, "reads its own ", " sequences"),
	    SIM_BATCH / r->dp);
	ck_assert_int_eq(int_in(t, "squared errors of its ", "\n"),
	    SIM_BATCH / r->dp);
	ck_assert_int_eq(int_in(t, "divides by the ", " tokens of the"),
	    SIM_TOKENS);
	ck_assert_int_eq(int_in(t, "whole batch (", " sequences of"),
	    SIM_BATCH);
	ck_assert_int_eq(int_in(t, " sequences of ", ")"), SIM_SEQ);
	ck_assert_int_eq(int_in(t, "not by its own ", "\n"), SIM_TOKENS /
	    r->dp);
	ck_assert_int_eq(int_in(t, "mean loss over all ", " tokens"),
	    SIM_TOKENS);
	ck_assert_int_eq(int_in(t, "running a batch of ", "."), SIM_BATCH);
	ck_assert_ptr_nonnull(strstr(t, "a plain sum"));
	sim_result_free(r);
	free(r);
}
END_TEST

/*
 * Event 3: a replica's loss over its 4 sequences is divided by the whole
 * batch's tokens, not its own; the four add up to the full batch's mean.
 */
START_TEST(drop05_loss_scaled_by_whole_batch)
{
	enum { ROWS = SIM_TOKENS * SIM_HIDDEN, SLICE = ROWS / 4 };
	double *y = malloc(ROWS * sizeof *y), *t = malloc(ROWS * sizeof *t);
	double *dy = malloc(ROWS * sizeof *dy), whole, parts = 0.0, e;
	int i, k;

	ck_assert(y != NULL && t != NULL && dy != NULL);
	for (i = 0; i < ROWS; i++) {
		y[i] = sin(0.37 * i);
		t[i] = cos(0.11 * i);
	}
	whole = sim_loss(y, t, SIM_TOKENS, dy);
	for (k = 0; k < 4; k++)
		parts += sim_loss(y + k * SLICE, t + k * SLICE,
		    SIM_TOKENS / 4, dy + k * SLICE);
	ck_assert(fabs(parts - whole) < 1e-12 * fabs(whole));
	for (i = 0; i < ROWS; i++) {
		e = y[i] - t[i];
		ck_assert(fabs(dy[i] - e / SIM_TOKENS) < 1e-15);
	}
	free(y);
	free(t);
	free(dy);
}
END_TEST

/*
 * Events 5 and 6: with losses so scaled, the DP run's gradients equal the
 * single GPU's, so the all-reduce summed them; an average would be a
 * quarter of the reference.
 */
START_TEST(drop05_sync_is_a_sum)
{
	struct sim_request req;
	struct sim_config cfg;
	struct sim_result *dp = calloc(1, sizeof *dp), *one = calloc(1,
	    sizeof *one);
	struct pl_err err;
	double num = 0.0, den = 0.0;
	size_t i;

	ck_assert(dp != NULL && one != NULL);
	run_block(block_of("drop-05", NULL), &cfg, dp);
	memset(&req, 0, sizeof req);
	req.mode = "single";
	ck_assert(sim_config_build(&req, &cfg, &err) == 0);
	ck_assert(sim_run(&cfg, one, &err) == 0);
	for (i = 0; i < SIM_NPARAMS; i++) {
		num += dp->grads[i] * one->grads[i];
		den += one->grads[i] * one->grads[i];
	}
	ck_assert(den > 0);
	ck_assert_msg(fabs(num / den - 1.0) < 1e-9, "DP gradient is %g of "
	    "the single GPU's", num / den);
	ck_assert(dp->max_grad_error < 1e-12);
	sim_result_free(dp);
	sim_result_free(one);
	free(dp);
	free(one);
}
END_TEST

/*
 * Drop 7: letters A to H are micro-batches 0 to 7, as on screen: the
 * first forward on G0 is micro-batch 0 and the player labels it 0 (A);
 * the last micro-batch is m - 1.
 */
START_TEST(microbatches_from_zero)
{
	const struct content_block *g = block_of("drop-07",
	    "GPipe: all forwards, then all backwards");
	const struct content_block *a = NULL;
	const struct content_drop *d = content_find_drop(course, "drop-07");
	const char *t4 = block_of("drop-04", "The bubble")->text;
	const char *t7 = block_of("drop-07",
	    "One batch, four stages, three idle GPUs")->text;
	struct sim_config cfg;
	struct sim_result *r = calloc(1, sizeof *r);
	struct player pl;
	struct pl_err err;
	const struct sim_event *first = NULL, *send = NULL;
	int lo = 1 << 30, hi = -1;
	size_t i;

	ck_assert_ptr_nonnull(r);
	for (i = 0; i < d->n_blocks && a == NULL; i++)
		if (d->blocks[i].kind == CONTENT_ANIMATION &&
		    d->blocks[i].animation.req.schedule != NULL &&
		    strcmp(d->blocks[i].animation.req.schedule, "gpipe") == 0)
			a = &d->blocks[i];
	ck_assert_ptr_nonnull(a);
	run_block(a, &cfg, r);
	for (i = 0; i < r->tl.n_ev; i++) {
		const struct sim_event *e = &r->tl.ev[i];

		if (e->kind == SIM_FORWARD) {
			lo = e->microbatch < lo ? e->microbatch : lo;
			hi = e->microbatch > hi ? e->microbatch : hi;
			if (first == NULL && e->device == 0)
				first = e;
		}
		if (send == NULL && e->kind == SIM_SEND && e->device == 0)
			send = e;
	}
	ck_assert_int_eq(int_in(g->text, "forward passes of micro-batches ",
	    " to"), lo);
	ck_assert_int_eq(int_in(g->text, "forward passes of micro-batches 0 "
	    "to ", " "), hi);
	ck_assert_int_eq(int_in(g->text, "(mb ", " to mb"), lo);
	ck_assert_int_eq(hi, cfg.microbatches - 1);
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(send);
	ck_assert_int_eq(first->microbatch, 0);
	ck_assert_int_eq(send->microbatch, 0);
	ck_assert_ptr_nonnull(strstr(g->text, "\n  G0 A B C"));
	pl_err_clear(&err);
	ck_assert_msg(player_init(&pl, &cfg, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(player_label(&pl, first), 0);
	player_free(&pl);
	/* Drops 4 and 7: G0 hands micro-batch 0 on and starts 1. */
	ck_assert_int_eq(int_in(t4, "G0 hands micro-batch ", " to G1"),
	    send->microbatch);
	ck_assert_int_eq(int_in(t4, "starts on micro-batch ", "."),
	    send->microbatch + 1);
	ck_assert_int_eq(int_in(t7, "G0 finishes micro-batch ", " it"),
	    send->microbatch);
	ck_assert_int_eq(int_in(t7, "starts micro-batch ", "."),
	    send->microbatch + 1);
	sim_result_free(r);
	free(r);
}
END_TEST

static Suite *
toy_suite(void)
{
	Suite *s = suite_create("course and toy");
	TCase *tc = tcase_create("issue 14");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, drop05_counts);
	tcase_add_test(tc, drop05_loss_scaled_by_whole_batch);
	tcase_add_test(tc, drop05_sync_is_a_sum);
	tcase_add_test(tc, microbatches_from_zero);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(toy_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
