/*
 * check_duration.c - a drop's time estimated from its content
 * (core/course/duration): words at the stated rates, questions by type,
 * animations from the player's own events, incidents by budget; and the
 * shipped course's core (phases 1-4), which a learner's walk put at about
 * four hours, and the going-further phase apart.
 */
#include <check.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "catfix.h"
#include "core/course/animation.h"
#include "core/course/duration.h"
#include "core/sim/player.h"

/* n copies of "w " (n words), in a buffer the caller frees. */
static char *
words(int n, const char *prefix)
{
	size_t len = strlen(prefix) + 2 * (size_t)n + 1;
	char *s = malloc(len);
	int i;

	ck_assert_ptr_nonnull(s);
	strcpy(s, prefix);
	for (i = 0; i < n; i++)
		strcat(s, "w ");
	return s;
}

START_TEST(words_on_as_is_lines_are_counted_apart)
{
	size_t prose = 0, verb = 0;

	/* 2 + 4 prose words (the bullet's dash is one), 5 as is. */
	duration_count_words("Two words.\n  s = 2 * n\n- a bullet  here\n\n",
	    &prose, &verb);
	ck_assert_uint_eq(prose, 6);
	ck_assert_uint_eq(verb, 5);
	/* Added to, not set; NULL is no words. */
	duration_count_words(NULL, &prose, &verb);
	duration_count_words("  one", &prose, &verb);
	ck_assert_uint_eq(prose, 6);
	ck_assert_uint_eq(verb, 6);
}
END_TEST

START_TEST(minutes_and_their_text)
{
	char buf[32];

	ck_assert_int_eq(duration_minutes(0), 1);
	ck_assert_int_eq(duration_minutes(89), 1);
	ck_assert_int_eq(duration_minutes(90), 2);
	ck_assert_int_eq(duration_minutes(16800), 280);
	ck_assert_str_eq(duration_text(45, buf, sizeof buf), "45 min");
	ck_assert_str_eq(duration_text(280, buf, sizeof buf), "4 h 40 min");
	ck_assert_str_eq(duration_text(180, buf, sizeof buf), "3 h");
}
END_TEST

/*
 * A drop built by hand: 200 words of prose and 138 on a formula line (a
 * minute each), a single, a multiple with 4 options, a numeric and a
 * reveal question, a 4-GPU 1F1B pipeline of 8 micro-batches, and an
 * incident with two claims. Each term is checked against its rate.
 */
START_TEST(a_synthetic_drop)
{
	struct content_option opts[4] = {
		{ "yes", 1, "right because" },		/* 1 + 2 words */
		{ "no", 0, "not read unless chosen" },	/* 1 word */
		{ "maybe", 1, "also" },			/* 1 + 1 */
		{ "never", 0, "wrong" },		/* 1 */
	};
	struct content_block b[7];
	struct content_drop d;
	struct duration du;
	struct sim_config cfg;
	struct player p;
	struct pl_err err;
	char *prose = words(200, ""), *verb = words(138, "  ");
	char *text;
	size_t stops;
	double play, read;

	memset(b, 0, sizeof b);
	memset(&d, 0, sizeof d);
	text = malloc(strlen(prose) + strlen(verb) + 2);
	ck_assert_ptr_nonnull(text);
	strcpy(text, prose);
	strcat(text, "\n");
	strcat(text, verb);
	b[0].kind = CONTENT_TEXT;
	b[0].text = text;
	b[1].kind = CONTENT_QUESTION;
	b[1].question.type = CONTENT_Q_SINGLE;
	b[1].question.prompt = "Pick one";		/* 2 words */
	b[1].question.options = opts;
	b[1].question.n_options = 2;			/* 3 + 1 words */
	b[2].kind = CONTENT_QUESTION;
	b[2].question.type = CONTENT_Q_MULTIPLE;
	b[2].question.prompt = "Pick";			/* 1 */
	b[2].question.explain = "because";		/* 1 */
	b[2].question.options = opts;
	b[2].question.n_options = 4;			/* 4 + 3 */
	b[3].kind = CONTENT_QUESTION;
	b[3].question.type = CONTENT_Q_NUMERIC;
	b[3].question.prompt = "How many GB?";		/* 3 */
	b[4].kind = CONTENT_QUESTION;
	b[4].question.type = CONTENT_Q_REVEAL;
	b[4].question.prompt = "Why?";			/* 1 */
	b[4].question.answer = "Because it is.";	/* 3 */
	b[5].kind = CONTENT_ANIMATION;
	b[5].animation.req.mode = "pp";
	b[5].animation.req.microbatches = 8;
	b[5].animation.req.schedule = "1f1b";
	b[5].animation.caption = "Watch the bubble";	/* 3 */
	b[6].kind = CONTENT_SCENARIO;
	b[6].scenario.title = "OOM";			/* 1 */
	b[6].scenario.brief = "It crashed at step 4000.";	/* 5 */
	b[6].scenario.solution = "Shard it.";		/* 2 */
	b[6].scenario.raw = cJSON_Parse("{\"claims\": [{\"id\": \"a\"}, "
	    "{\"id\": \"b\"}]}");
	d.title = "Drop";				/* 1 */
	d.blocks = b;
	d.n_blocks = 7;

	duration_drop(&d, &du);
	ck_assert_uint_eq(du.verbatim_words, 138);
	ck_assert_uint_eq(du.prose_words, 200 + 1 + 6 + 9 + 3 + 4 + 3 + 8);
	read = 60.0 + 60.0 + 60.0 * 34 / DURATION_PROSE_WPM;
	ck_assert_double_eq_tol(du.read_s, read, 1e-9);
	ck_assert_int_eq(du.questions, 4);
	ck_assert_double_eq_tol(du.questions_s, 30 + 4 * 15 + 120 + 60, 1e-9);

	/* The animation: one play at the player's opening speed, and a
	 * quarter of the player's own stops at 2 s each. */
	ck_assert_int_eq(animation_config(&b[5].animation, &cfg, &err), 0);
	ck_assert_int_eq(player_init(&p, &cfg, &err), 0);
	ck_assert_double_eq(player_speed_factor(&p), 1.0);
	ck_assert_int_eq(duration_animation(&b[5].animation, &play, &stops),
	    0);
	ck_assert_uint_eq(stops, p.n_stops);
	ck_assert_uint_gt(stops, 100);	/* 64 passes, sends between them */
	ck_assert_double_eq(play, PLAYER_BASE_SECONDS);
	ck_assert_double_eq_tol(du.animations_s, PLAYER_BASE_SECONDS +
	    0.25 * 2.0 * (double)p.n_stops, 1e-9);
	player_free(&p);

	ck_assert_int_eq(du.incidents, 1);
	ck_assert_double_eq_tol(du.incidents_s, 600 + 180 + 2 * 30, 1e-9);
	ck_assert_double_eq_tol(duration_seconds(&du), du.read_s +
	    du.questions_s + du.animations_s + du.incidents_s, 1e-9);

	/* Without the claims, no trade-off to write. */
	cJSON_Delete(b[6].scenario.raw);
	b[6].scenario.raw = NULL;
	duration_drop(&d, &du);
	ck_assert_double_eq_tol(du.incidents_s, 600, 1e-9);
	free(prose);
	free(verb);
	free(text);
}
END_TEST

/*
 * The shipped course. The walk through its core, phases 1-4, took
 * about four hours; their estimate must land between 3 h 20 min and 5 h.
 * Phase 5, "Going further", is extra and has its own bound, at most 90
 * minutes (three drops of about half an hour). No drop may claim the 6 to 8 minutes the files once typed, and
 * a drop with an incident takes longer than every drop without one.
 */
START_TEST(the_shipped_course_takes_about_four_hours)
{
	int minutes[64], core = 0, further = 0, incident_min = 1000;
	int plain_max = 0, n_further = 0;
	struct duration du;
	size_t i;

	ck_assert_uint_le(course->n_drops, 64);
	duration_course(course, minutes);
	for (i = 0; i < course->n_drops; i++) {
		ck_assert_msg(minutes[i] >= 10 && minutes[i] <= 60,
		    "%s: %d minutes", course->drops[i].id, minutes[i]);
		if (course->drops[i].phase <= 4)
			core += minutes[i];
		else {
			further += minutes[i];
			n_further++;
		}
		duration_drop(&course->drops[i], &du);
		/* Every term that has something to count counts it. */
		ck_assert(du.read_s > 0 && du.questions_s > 0);
		ck_assert((du.animations > 0) == (du.animations_s > 0));
		if (du.incidents > 0 && minutes[i] < incident_min)
			incident_min = minutes[i];
		if (du.incidents == 0 && minutes[i] > plain_max)
			plain_max = minutes[i];
	}
	ck_assert_msg(core >= 200 && core <= 300, "phases 1-4: %d minutes",
	    core);
	ck_assert_int_ge(n_further, 1);
	ck_assert_msg(further <= 90, "phase 5: %d minutes", further);
	/* An incident is the longest part of a drop. */
	ck_assert_int_gt(incident_min, plain_max);
}
END_TEST

static Suite *
duration_suite(void)
{
	Suite *s = suite_create("duration");
	TCase *tc;

	tc = tcase_create("model");
	tcase_add_test(tc, words_on_as_is_lines_are_counted_apart);
	tcase_add_test(tc, minutes_and_their_text);
	tcase_add_test(tc, a_synthetic_drop);
	suite_add_tcase(s, tc);
	tc = tcase_create("shipped course");
	tcase_add_checked_fixture(tc, catfix_course_setup,
	    catfix_course_teardown);
	tcase_add_test(tc, the_shipped_course_takes_about_four_hours);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(duration_suite());
	int failed;

	setlocale(LC_ALL, "C");
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
