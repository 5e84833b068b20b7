/*
 * check_browse.c - what the card browser relies on: suspending cards in
 * SQLite (store/cards_browse.c, schema version 3) and searching cards
 * (core/srs/card_search.c).
 *
 * Each store test gets a fresh database under $TMPDIR and the real course
 * from TOP_SRCDIR, starts drop 1 (7 cards) and checks rows with plain SQL
 * besides the API: a suspended card keeps its row and log, leaves the
 * review session, cram and the home screen's counts, and drops out of the
 * statistics' counts by state.
 */
#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/course/content.h"
#include "core/srs/card_search.h"
#include "store/cards.h"
#include "store/cards_browse.h"
#include "store/progress.h"
#include "storefix.h"

static struct storefix		 fx;
static char			*dir;
static char			 path[4200];
static struct store		*st;
static struct content_course	*course;
static int64_t			 prof;

static void
setup(void)
{
	struct pl_err err;

	storefix_open(&fx, "check_browse");
	dir = fx.dir;
	st = fx.st;
	course = fx.course;
	prof = fx.prof;
	snprintf(path, sizeof path, "%s", fx.path);
	ck_assert_int_eq(store_drop_visit(st, prof, "drop-01", 0, 0, 1000,
	    &err), 0);
	ck_assert_int_eq(store_cards_unlock(st, prof, course, 1000, NULL, &err),
	    0);
}

static void
teardown(void)
{
	fx.st = st;	/* a test may have reopened the store */
	storefix_close(&fx);
}

static int
q_int(const char *sql)
{
	return storefix_int(st, sql);
}

/* Id of the profile's n-th card (in unlock order). */
static const char *
card_id(int n)
{
	static char id[256];
	struct store_card_set set;
	struct pl_err err;

	ck_assert_int_eq(store_cards_load(st, prof, course, NULL, NULL, &set,
	    &err), 0);
	ck_assert_int_gt((int)set.n, n);
	snprintf(id, sizeof id, "%s", set.cards[n].id);
	store_card_set_free(&set);
	return id;
}

START_TEST(test_schema_3)
{
	ck_assert_int_ge(STORE_SCHEMA_VERSION, 3);
	ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards;"), 7);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards WHERE suspended;"),
	    0);
}
END_TEST

/* A version-2 database gains the column, every card unsuspended. */
START_TEST(test_migrate_from_2)
{
	struct pl_err err;

	/* Back to version 2: without what migrations 3 to 5 add. */
	ck_assert_int_eq(sqlite3_exec(st->db, "DROP TABLE scenario_tradeoffs; "
	    "ALTER TABLE answers DROP COLUMN rule; "
	    "ALTER TABLE cards DROP COLUMN suspended; ALTER TABLE user_cards "
	    "DROP COLUMN tags; PRAGMA user_version = 2;", NULL, NULL, NULL),
	    SQLITE_OK);
	store_close(st);
	st = store_open(path, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards WHERE suspended = 0;"),
	    7);
	/* The CHECK holds the column to 0 or 1. */
	ck_assert_int_ne(sqlite3_exec(st->db, "UPDATE cards SET suspended = 2;",
	    NULL, NULL, NULL), SQLITE_OK);
}
END_TEST

START_TEST(test_suspend_row)
{
	struct pl_err err;
	char id[256];
	int n;

	snprintf(id, sizeof id, "%s", card_id(2));
	ck_assert_int_eq(store_cards_suspend(st, prof, id, 1, &err), 0);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards WHERE suspended;"),
	    1);
	ck_assert_int_eq(store_cards_count_suspended(st, prof, &n, &err), 0);
	ck_assert_int_eq(n, 1);
	/* Twice is harmless; unsuspending clears it. */
	ck_assert_int_eq(store_cards_suspend(st, prof, id, 1, &err), 0);
	ck_assert_int_eq(store_cards_suspend(st, prof, id, 0, &err), 0);
	ck_assert_int_eq(store_cards_count_suspended(st, prof, &n, &err), 0);
	ck_assert_int_eq(n, 0);
	/* No such card: an error naming it, nothing changed. */
	ck_assert_int_eq(store_cards_suspend(st, prof, "no-such-card", 1, &err),
	    -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no-such-card"));
	/* Another profile's card is not this profile's. */
	ck_assert_int_eq(store_cards_suspend(st, prof + 1, id, 1, &err), -1);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards WHERE suspended;"),
	    0);
}
END_TEST

START_TEST(test_flags_and_drop)
{
	struct store_card_set set;
	struct pl_err err;
	char a[256], b[256];
	int flags[16];
	size_t i;

	snprintf(a, sizeof a, "%s", card_id(0));
	snprintf(b, sizeof b, "%s", card_id(4));
	ck_assert_int_eq(store_cards_suspend(st, prof, a, 1, &err), 0);
	ck_assert_int_eq(store_cards_suspend(st, prof, b, 1, &err), 0);
	ck_assert_int_eq(store_cards_load(st, prof, course, NULL, NULL, &set,
	    &err), 0);
	ck_assert_uint_eq(set.n, 7);
	ck_assert_int_eq(store_cards_suspended_flags(st, prof, &set, flags,
	    &err), 0);
	for (i = 0; i < set.n; i++)
		ck_assert_int_eq(flags[i], i == 0 || i == 4);
	ck_assert_int_eq(store_cards_drop_suspended(st, prof, &set, &err), 0);
	ck_assert_uint_eq(set.n, 5);
	for (i = 0; i < set.n; i++) {
		ck_assert_str_ne(set.cards[i].id, a);
		ck_assert_str_ne(set.cards[i].id, b);
		ck_assert_ptr_eq(set.items[i].id, set.cards[i].id);
	}
	/* The order of the rest is kept. */
	ck_assert_str_eq(set.cards[0].id, card_id(1));
	ck_assert_str_eq(set.cards[3].id, card_id(5));
	store_card_set_free(&set);
}
END_TEST

/* Out of review, cram and the counts; back in when unsuspended. */
START_TEST(test_queues_skip_suspended)
{
	struct store_review r;
	struct review_stats s;
	struct pl_err err;
	int64_t now = (int64_t)time(NULL);
	int counts[3];
	char id[256];
	size_t i;

	snprintf(id, sizeof id, "%s", card_id(0));
	ck_assert_int_eq(store_cards_suspend(st, prof, id, 1, &err), 0);
	ck_assert_int_eq(store_review_counts(st, prof, course, now, counts,
	    &err), 0);
	ck_assert_int_eq(counts[0], 6);
	ck_assert_int_eq(store_review_open(st, prof, course, NULL, NULL, 0, now,
	    &r, &err), 0);
	ck_assert_uint_eq(r.set.n, 6);
	ck_assert_str_ne(store_review_current(&r, NULL)->id, id);
	store_review_close(&r);
	ck_assert_int_eq(store_review_open(st, prof, course, NULL, NULL, 1, now,
	    &r, &err), 0);
	ck_assert_uint_eq(r.queue.n, 6);
	for (i = 0; i < r.set.n; i++)
		ck_assert_str_ne(r.set.cards[i].id, id);
	store_review_close(&r);
	ck_assert_int_eq(store_review_stats(st, prof, now, 0, 4, &s, &err), 0);
	ck_assert_int_eq(s.by_state[FSRS_NEW], 6);
	/* The row keeps its state; unsuspended, the card is back. */
	ck_assert_int_eq(store_cards_suspend(st, prof, id, 0, &err), 0);
	ck_assert_int_eq(store_review_counts(st, prof, course, now, counts,
	    &err), 0);
	ck_assert_int_eq(counts[0], 7);
	ck_assert_int_eq(store_review_stats(st, prof, now, 0, 4, &s, &err), 0);
	ck_assert_int_eq(s.by_state[FSRS_NEW], 7);
}
END_TEST

/* A suspended card with a schedule leaves the forecast too. */
START_TEST(test_forecast_skips_suspended)
{
	struct store_review r;
	struct review_stats s;
	struct pl_err err;
	int64_t now = (int64_t)time(NULL);
	char id[256];
	int before, after, k;

	ck_assert_int_eq(store_review_open(st, prof, course, NULL, NULL, 0, now,
	    &r, &err), 0);
	snprintf(id, sizeof id, "%s", store_review_current(&r, NULL)->id);
	ck_assert_int_eq(store_review_rate(st, &r, FSRS_AGAIN, now, 3, &err),
	    0);
	store_review_close(&r);
	ck_assert_int_eq(store_review_stats(st, prof, now, 0, 4, &s, &err), 0);
	for (before = 0, k = 0; k < REVIEW_FORECAST_DAYS; k++)
		before += s.forecast[k];
	ck_assert_int_eq(before, 1);
	ck_assert_int_eq(s.by_state[FSRS_LEARNING], 1);
	ck_assert_int_eq(store_cards_suspend(st, prof, id, 1, &err), 0);
	ck_assert_int_eq(store_review_stats(st, prof, now, 0, 4, &s, &err), 0);
	for (after = 0, k = 0; k < REVIEW_FORECAST_DAYS; k++)
		after += s.forecast[k];
	ck_assert_int_eq(after, 0);
	ck_assert_int_eq(s.by_state[FSRS_LEARNING], 0);
	/* Its log is kept. */
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 1);
}
END_TEST

START_TEST(test_search)
{
	const char *f = "What does ZeRO stage 3 shard?";
	const char *b = "Weights, gradients and optimizer states.";

	ck_assert_int_eq(card_search_match("", f, b, "phase-2"), 1);
	ck_assert_int_eq(card_search_match(NULL, f, b, "phase-2"), 1);
	ck_assert_int_eq(card_search_match("   ", f, b, "phase-2"), 1);
	ck_assert_int_eq(card_search_match("zero", f, b, "phase-2"), 1);
	ck_assert_int_eq(card_search_match("ZERO GRADIENTS", f, b, NULL), 1);
	ck_assert_int_eq(card_search_match("phase-2", f, b, "phase-2"), 1);
	ck_assert_int_eq(card_search_match("zero phase-1", f, b, "phase-2"), 0);
	ck_assert_int_eq(card_search_match("pipeline", f, b, "phase-2"), 0);
	ck_assert_int_eq(card_search_match("shard?", f, NULL, NULL), 1);
	ck_assert_int_eq(card_search_match("x", NULL, NULL, NULL), 0);
	/* Bytes of UTF-8 match as they are. */
	ck_assert_int_eq(card_search_match("\u03a8", "16\u00b7\u03a8 bytes",
	    NULL, NULL), 1);
}
END_TEST

static Suite *
browse_suite(void)
{
	Suite *s = suite_create("browse");
	TCase *t = tcase_create("suspend");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 20);
	tcase_add_test(t, test_schema_3);
	tcase_add_test(t, test_migrate_from_2);
	tcase_add_test(t, test_suspend_row);
	tcase_add_test(t, test_flags_and_drop);
	tcase_add_test(t, test_queues_skip_suspended);
	tcase_add_test(t, test_forecast_skips_suspended);
	suite_add_tcase(s, t);
	t = tcase_create("search");
	tcase_add_test(t, test_search);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(browse_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
