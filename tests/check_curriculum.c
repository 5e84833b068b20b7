/*
 * check_curriculum.c - where "continue where I left off" goes and the
 * progress per phase (core/course/curriculum), the two things the home
 * screen and `parlearn list` report from the per-drop statuses.
 *
 * The course is built by hand: six drops in two phases, three each.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/curriculum.h"

#define N	6

static struct content_drop drops[N];
static struct content_course course;
static enum curriculum_status st[N];

static void
setup(void)
{
	int i;

	memset(drops, 0, sizeof drops);
	memset(&course, 0, sizeof course);
	for (i = 0; i < N; i++) {
		drops[i].phase = i < 3 ? 1 : 2;
		drops[i].number = i + 1;
		st[i] = CURRICULUM_NEW;
	}
	course.drops = drops;
	course.n_drops = N;
}

/* Set the statuses from a string: n new, s started, d done. */
static void
statuses(const char *s)
{
	int i;

	for (i = 0; i < N; i++)
		st[i] = s[i] == 'd' ? CURRICULUM_DONE : s[i] == 's' ?
		    CURRICULUM_STARTED : CURRICULUM_NEW;
}

START_TEST(first_visit_starts_at_the_first_drop)
{
	statuses("nnnnnn");
	ck_assert_int_eq(curriculum_continue(&course, st, -1), 0);
}
END_TEST

START_TEST(unfinished_last_drop_is_reopened)
{
	/* Left drop 4 half read: back to it, even with earlier ones new. */
	statuses("dnnsnn");
	ck_assert_int_eq(curriculum_continue(&course, st, 3), 3);
	/* A drop opened and left without reading is also where we were. */
	statuses("ddnnnn");
	ck_assert_int_eq(curriculum_continue(&course, st, 2), 2);
}
END_TEST

START_TEST(done_last_drop_moves_to_the_next_not_done)
{
	statuses("ddsddn");
	ck_assert_int_eq(curriculum_continue(&course, st, 1), 2);
	/* The next ones done too: the first not done after it. */
	ck_assert_int_eq(curriculum_continue(&course, st, 3), 5);
}
END_TEST

START_TEST(done_to_the_end_wraps_to_the_first_not_done)
{
	/* Everything after the last drop is done: the first gap before it. */
	statuses("dsdddd");
	ck_assert_int_eq(curriculum_continue(&course, st, 4), 1);
}
END_TEST

START_TEST(course_complete_and_bad_index)
{
	statuses("dddddd");
	ck_assert_int_eq(curriculum_continue(&course, st, 5), -1);
	ck_assert_int_eq(curriculum_continue(&course, st, -1), -1);
	/* A last drop index no longer in the course is ignored. */
	statuses("ddnnnn");
	ck_assert_int_eq(curriculum_continue(&course, st, N), 2);
	ck_assert_int_eq(curriculum_continue(&course, st, -7), 2);
}
END_TEST

START_TEST(phase_progress_counts)
{
	struct curriculum_phase_progress p;

	statuses("dsndnd");
	curriculum_phase(&course, st, 1, &p);
	ck_assert_int_eq(p.total, 3);
	ck_assert_int_eq(p.done, 1);
	ck_assert_int_eq(p.started, 1);
	ck_assert_double_eq_tol(p.fraction, 1.0 / 3, 1e-12);
	curriculum_phase(&course, st, 2, &p);
	ck_assert_int_eq(p.done, 2);
	ck_assert_int_eq(p.started, 0);
	curriculum_phase(&course, st, 3, &p);	/* no such phase */
	ck_assert_int_eq(p.total, 0);
	ck_assert_double_eq(p.fraction, 0.0);
}
END_TEST

/* The time left is the estimate of the drops not done or mastered. */
START_TEST(minutes_left_skip_finished_drops)
{
	static const int minutes[N] = { 10, 20, 30, 40, 50, 60 };

	statuses("nnnnnn");
	ck_assert_int_eq(curriculum_minutes_left(&course, st, minutes), 210);
	statuses("dsnnnd");
	st[2] = CURRICULUM_MASTERED;
	st[3] = CURRICULUM_READ;
	ck_assert_int_eq(curriculum_minutes_left(&course, st, minutes),
	    20 + 40 + 50);
	statuses("dddddd");
	ck_assert_int_eq(curriculum_minutes_left(&course, st, minutes), 0);
}
END_TEST

static Suite *
curriculum_suite(void)
{
	Suite *s = suite_create("curriculum");
	TCase *tc = tcase_create("continue where I left off");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, first_visit_starts_at_the_first_drop);
	tcase_add_test(tc, unfinished_last_drop_is_reopened);
	tcase_add_test(tc, done_last_drop_moves_to_the_next_not_done);
	tcase_add_test(tc, done_to_the_end_wraps_to_the_first_not_done);
	tcase_add_test(tc, course_complete_and_bad_index);
	suite_add_tcase(s, tc);
	tc = tcase_create("phases");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, phase_progress_counts);
	tcase_add_test(tc, minutes_left_skip_finished_drops);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(curriculum_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
