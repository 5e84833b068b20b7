/*
 * check_cards_store.c - card states and the review log in SQLite
 * (store/cards.h): schema version 2 or later, every rating logged, the card table
 * equal to a replay of its log, undo, the daily counters, cram leaving the
 * tables alone, cards from wrong answers, imported decks, statistics.
 *
 * Each test gets a fresh database under /tmp and the real course from
 * TOP_SRCDIR, and checks rows with plain SQL besides the API.
 */
#include <check.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/course/content.h"
#include "store/cards.h"
#include "store/cards_anki.h"
#include "store/progress.h"
#include "storefix.h"

static struct storefix		 fx;
static char			*dir;
static struct store		*st;
static struct content_course	*course;
static int64_t			 prof;
static struct fsrs_params	 P;	/* as the session uses: fuzz on */

static void
setup(void)
{
	storefix_open(&fx, "check_cards");
	dir = fx.dir;
	st = fx.st;
	course = fx.course;
	prof = fx.prof;
	fsrs_params_default(&P);
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

static void
start_drop(const char *id)
{
	struct pl_err err;

	ck_assert_int_eq(store_drop_visit(st, prof, id, 0, 0, 1000, &err), 0);
}

static void
card_eq(const struct fsrs_card *a, const struct fsrs_card *b)
{
	ck_assert_int_eq(a->id, b->id);
	ck_assert_int_eq(a->state, b->state);
	ck_assert_int_eq(a->step, b->step);
	ck_assert_double_eq_tol(a->stability, b->stability, 1e-9);
	ck_assert_double_eq_tol(a->difficulty, b->difficulty, 1e-9);
	ck_assert_int_eq(a->due, b->due);
	ck_assert_int_eq(a->last_review, b->last_review);
	ck_assert_int_eq(a->reps, b->reps);
	ck_assert_int_eq(a->lapses, b->lapses);
}

START_TEST(test_schema)
{
	ck_assert_int_ge(STORE_SCHEMA_VERSION, 2);
	ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM sqlite_master WHERE "
	    "name IN ('cards', 'review_log', 'user_cards', 'review_slots', "
	    "'review_retention', 'review_log_by_time', 'cards_by_due');"), 7);
}
END_TEST

START_TEST(test_unlock)
{
	struct pl_err err;
	int added, n1 = 0;
	size_t i;

	ck_assert_int_eq(store_cards_unlock(st, prof, course, 2000, &added,
	    &err), 0);
	ck_assert_int_eq(added, 0);		/* nothing started yet */
	start_drop("drop-01");
	for (i = 0; i < course->n_cards; i++)
		n1 += strcmp(course->cards[i].drop, "drop-01") == 0;
	ck_assert_int_gt(n1, 0);
	ck_assert_int_eq(store_cards_unlock(st, prof, course, 2000, &added,
	    &err), 0);
	ck_assert_int_eq(added, n1);
	ck_assert_int_eq(store_cards_unlock(st, prof, course, 3000, &added,
	    &err), 0);
	ck_assert_int_eq(added, 0);		/* idempotent */
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards WHERE state = 0 "
	    "AND added = 2000;"), n1);
}
END_TEST

/*
 * Today at hour:min, local time. The tests that review "now" use noon, so
 * that a 10-minute learning step never crosses the 4 am day rollover
 * (at 03:55 it would be tomorrow's card, and the counts below would not
 * hold); test_step_across_rollover holds the crossing itself.
 */
static int64_t
today_at(int hour, int min)
{
	time_t t = time(NULL);
	struct tm tm = *localtime(&t);

	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/* Rate a card through the session-free API, as the session does. */
static int64_t
rate(const char *id, enum fsrs_rating g, int64_t now, struct fsrs_card *out)
{
	struct fsrs_card c, after;
	struct fsrs_log log;
	struct pl_err err;
	int64_t log_id;

	ck_assert_int_eq(store_cards_get(st, prof, id, &c, &err), 1);
	ck_assert_int_eq(fsrs_review(&P, &c, g, now, &after, &log), 0);
	ck_assert_int_eq(store_cards_review(st, prof, id, &c, &after, &log, 4000,
	    &log_id, &err), 0);
	if (out != NULL)
		*out = after;
	return log_id;
}

START_TEST(test_log_rebuild)
{
	static const enum fsrs_rating seq[] = { 3, 3, 1, 2, 3, 4, 1, 1, 3, 3,
	    2, 4, 3, 1, 3 };
	struct fsrs_card stored, rebuilt, after;
	struct pl_err err;
	int64_t now = 1710072000;
	size_t i, k;
	char id[32];

	start_drop("drop-01");
	start_drop("drop-02");
	ck_assert_int_eq(store_cards_unlock(st, prof, course, now, NULL, &err), 0);
	for (k = 0; k < 5; k++) {
		snprintf(id, sizeof id, "%s", course->cards[k].id);
		for (i = 0; i < sizeof seq / sizeof seq[0]; i++) {
			rate(id, seq[(i + k) % 15], now, &after);
			/* Review on time, sometimes late, sometimes early. */
			now = after.due + (int64_t)((i * 7 + k) % 5) * 3600 * 9;
		}
		ck_assert_int_eq(store_cards_get(st, prof, id, &stored, &err), 1);
		ck_assert_int_eq(store_cards_rebuild(st, prof, id, &P, &rebuilt,
		    &err), 1);
		card_eq(&stored, &rebuilt);
		ck_assert_int_eq(stored.reps, 15);
	}
	/* Every rating is a log row with its before and after. */
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 75);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log WHERE "
	    "state_before = 0 AND s_before = 0 AND s_after > 0;"), 5);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log WHERE "
	    "duration_ms = 4000 AND d_after BETWEEN 1 AND 10;"), 75);
	/* A card with no log rebuilds as NEW, due when added. */
	ck_assert_int_eq(store_cards_rebuild(st, prof, course->cards[6].id, &P,
	    &rebuilt, &err), 1);
	ck_assert_int_eq(rebuilt.state, FSRS_NEW);
	ck_assert_int_eq(store_cards_rebuild(st, prof, "no-such", &P, &rebuilt,
	    &err), 0);
}
END_TEST

START_TEST(test_undo)
{
	struct fsrs_card before, mid, now_c, restored;
	struct pl_err err;
	const char *id = course->cards[0].id;
	int64_t t = 1710072000, l1, l2, l3;

	start_drop(course->cards[0].drop);
	ck_assert_int_eq(store_cards_unlock(st, prof, course, t, NULL, &err), 0);
	ck_assert_int_eq(store_cards_get(st, prof, id, &before, &err), 1);
	l1 = rate(id, FSRS_GOOD, t, NULL);
	l2 = rate(id, FSRS_GOOD, t + 600, &mid);
	l3 = rate(id, FSRS_AGAIN, mid.due, &now_c);
	/* Only the card's newest row can be undone. */
	ck_assert_int_eq(store_cards_undo(st, prof, l2, &P, NULL, &err), 1);
	ck_assert_int_eq(store_cards_undo(st, prof, l3, &P, &restored, &err), 0);
	card_eq(&restored, &mid);
	ck_assert_int_eq(store_cards_get(st, prof, id, &restored, &err), 1);
	card_eq(&restored, &mid);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 2);
	ck_assert_int_eq(store_cards_undo(st, prof, l2, &P, NULL, &err), 0);
	ck_assert_int_eq(store_cards_undo(st, prof, l1, &P, &restored, &err), 0);
	card_eq(&restored, &before);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 0);
	/* The aggregates follow the deletes. */
	ck_assert_int_eq(q_int("SELECT COALESCE(SUM(n), 0) FROM review_slots;"), 0);
}
END_TEST

START_TEST(test_today_and_settings)
{
	struct review_settings s;
	struct review_today t;
	struct pl_err err;
	int64_t t0 = 1710072000;

	start_drop("drop-01");
	ck_assert_int_eq(store_cards_unlock(st, prof, course, t0, NULL, &err), 0);
	rate(course->cards[0].id, FSRS_EASY, t0, NULL);
	rate(course->cards[1].id, FSRS_GOOD, t0 + 10, NULL);
	ck_assert_int_eq(store_cards_today(st, prof, t0 - 3600, &t, &err), 0);
	ck_assert_int_eq(t.new_done, 2);
	ck_assert_int_eq(t.reviews_done, 0);
	ck_assert_int_eq(store_cards_today(st, prof, t0 + 5, &t, &err), 0);
	ck_assert_int_eq(t.new_done, 1);
	/* A review of the Easy card 8 days on counts as a review. */
	rate(course->cards[0].id, FSRS_GOOD, t0 + 8 * 86400, NULL);
	ck_assert_int_eq(store_cards_today(st, prof, t0 + 7 * 86400, &t, &err), 0);
	ck_assert_int_eq(t.new_done, 0);
	ck_assert_int_eq(t.reviews_done, 1);
	ck_assert_int_eq(store_review_settings(st, prof, &s, &err), 0);
	ck_assert_int_eq(s.new_per_day, 20);
	s.new_per_day = 7;
	s.rollover_hour = 2;
	ck_assert_int_eq(store_review_settings_save(st, prof, &s, &err), 0);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_review_settings(st, prof, &s, &err), 0);
	ck_assert_int_eq(s.new_per_day, 7);
	ck_assert_int_eq(s.reviews_per_day, 200);
	ck_assert_int_eq(s.rollover_hour, 2);
	s.rollover_hour = 30;
	ck_assert_int_eq(store_review_settings_save(st, prof, &s, &err), -1);
	/* A damaged value ("7x", not 7) falls back to the default. */
	ck_assert_int_eq(store_setting_set(st, prof, "review.new_per_day", "7x",
	    &err), 0);
	ck_assert_int_eq(store_review_settings(st, prof, &s, &err), 0);
	ck_assert_int_eq(s.new_per_day, 20);
	ck_assert_int_eq(s.rollover_hour, 2);
}
END_TEST

START_TEST(test_session_rate_undo)
{
	struct store_review r;
	struct store_card *k;
	struct pl_err err;
	int64_t now = today_at(12, 0);
	char first[128];
	int n_new;

	start_drop("drop-01");
	ck_assert_int_eq(store_review_open(st, prof, course, NULL, NULL, 0, now,
	    &r, &err), 0);
	n_new = r.queue.n_new;
	ck_assert_int_gt(n_new, 2);
	k = store_review_current(&r, NULL);
	snprintf(first, sizeof first, "%s", k->id);
	ck_assert_int_eq(store_review_rate(st, &r, FSRS_GOOD, now, 5, &err), 0);
	ck_assert_int_eq(r.queue.n_new, n_new - 1);
	ck_assert_int_eq(r.queue.n_learning, 1);	/* 10 min step */
	ck_assert_int_eq(store_review_rate(st, &r, FSRS_EASY, now, 5, &err), 0);
	ck_assert_int_eq(r.figures.rated, 2);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 2);
	ck_assert_int_eq(store_review_undo(st, &r, now, &err), 1);
	ck_assert_int_eq(store_review_undo(st, &r, now, &err), 1);
	ck_assert_int_eq(store_review_undo(st, &r, now, &err), 0);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 0);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards WHERE state > 0;"), 0);
	ck_assert_int_eq(r.figures.rated, 0);
	/* The undone card is current again. */
	ck_assert_str_eq(store_review_current(&r, NULL)->id, first);
	ck_assert_int_eq(r.queue.n_new, n_new);
	store_review_close(&r);
}
END_TEST

/*
 * At 03:55 a new card rated Good is due again at 04:05, after the day's
 * 4 am rollover: it is tomorrow's learning card, not today's.
 */
START_TEST(test_step_across_rollover)
{
	struct store_review r;
	struct pl_err err;
	int64_t now = today_at(3, 55);
	int n_new;

	start_drop("drop-01");
	ck_assert_int_eq(store_review_open(st, prof, course, NULL, NULL, 0, now,
	    &r, &err), 0);
	n_new = r.queue.n_new;
	ck_assert_int_eq(store_review_rate(st, &r, FSRS_GOOD, now, 5, &err), 0);
	ck_assert_int_eq(r.queue.n_new, n_new - 1);
	ck_assert_int_eq(r.queue.n_learning, 0);
	store_review_close(&r);
	/* Ten minutes after the rollover it is due today. */
	ck_assert_int_eq(store_review_open(st, prof, course, NULL, NULL, 0,
	    today_at(4, 10), &r, &err), 0);
	ck_assert_int_eq(r.queue.n_learning, 1);
	store_review_close(&r);
}
END_TEST

/*
 * Two parlearn processes review the same profile: both load the same card
 * and rate it. The second rating must be computed from the card as the
 * first left it (the log says two reviews, the card says two), never from
 * its stale copy.
 */
START_TEST(test_two_instances_rate_one_card)
{
	struct store_review r1, r2;
	struct fsrs_card stored, replay;
	struct store *st2;
	struct pl_err err;
	int64_t now = today_at(12, 0);
	char path[600], id[128];

	start_drop("drop-01");
	snprintf(path, sizeof path, "%s/progress.db", dir);
	st2 = store_open(path, &err);
	ck_assert_ptr_nonnull(st2);
	ck_assert_int_eq(store_review_open(st, prof, course, NULL, NULL, 0, now,
	    &r1, &err), 0);
	ck_assert_int_eq(store_review_open(st2, prof, course, NULL, NULL, 0,
	    now, &r2, &err), 0);
	snprintf(id, sizeof id, "%s", store_review_current(&r1, NULL)->id);
	ck_assert_str_eq(store_review_current(&r2, NULL)->id, id);
	ck_assert_int_eq(store_review_rate(st, &r1, FSRS_GOOD, now, 5, &err),
	    0);
	ck_assert_int_eq(store_review_rate(st2, &r2, FSRS_GOOD, now + 700, 5,
	    &err), 0);
	ck_assert_int_eq(store_cards_get(st, prof, id, &stored, &err), 1);
	ck_assert_int_eq(stored.reps, 2);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 2);
	/* The card is what its log replays to. */
	ck_assert_int_eq(store_cards_rebuild(st, prof, id, &P, &replay, &err),
	    1);
	card_eq(&stored, &replay);
	store_review_close(&r1);
	store_review_close(&r2);
	store_close(st2);
}
END_TEST

START_TEST(test_cram_leaves_schedule)
{
	struct store_review r;
	struct pl_err err;
	int64_t now = today_at(12, 0);
	int sum_before, n;

	start_drop("drop-01");
	ck_assert_int_eq(store_cards_unlock(st, prof, course, now, NULL, &err), 0);
	rate(course->cards[0].id, FSRS_EASY, now - 86400, NULL);
	sum_before = q_int("SELECT SUM(due + state + reps) FROM cards;");
	ck_assert_int_eq(store_review_open(st, prof, course, NULL, "phase-1", 1,
	    now, &r, &err), 0);
	ck_assert_int_gt((int)r.queue.n, 2);
	ck_assert_int_eq(store_review_rate(st, &r, FSRS_AGAIN, now, 1, &err), 0);
	for (n = 0; store_review_current(&r, NULL) != NULL && n < 100; n++)
		ck_assert_int_eq(store_review_rate(st, &r, FSRS_GOOD, now, 1,
		    &err), 0);
	ck_assert_int_eq(store_review_current(&r, NULL) == NULL, 1);
	ck_assert_int_eq(store_review_undo(st, &r, now, &err), 1);
	ck_assert_int_eq(r.queue.n, 1);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM review_log;"), 1);
	ck_assert_int_eq(q_int("SELECT SUM(due + state + reps) FROM cards;"),
	    sum_before);
	store_review_close(&r);
}
END_TEST

/* The first question of drop-01 (with its drop). */
static const struct content_question *
first_question(const char **drop)
{
	size_t i, j;

	for (i = 0; i < course->n_drops; i++)
		for (j = 0; j < course->drops[i].n_blocks; j++)
			if (course->drops[i].blocks[j].kind == CONTENT_QUESTION) {
				*drop = course->drops[i].id;
				return &course->drops[i].blocks[j].question;
			}
	return NULL;
}

/*
 * A wrong answer and its mistake card are one transaction: when the card
 * cannot be written (a trigger stands in for a full disk), the answer is
 * not saved either; a right answer makes no card.
 */
START_TEST(test_wrong_answer_and_card_together)
{
	const struct content_question *q;
	struct pl_err err;
	const char *drop;
	int attempt = 0;

	q = first_question(&drop);
	ck_assert_ptr_nonnull(q);
	/* A miss the learner may still correct makes no card (issue 22). */
	ck_assert_int_eq(store_cards_answer(st, prof, drop, q, 0, 0, "d", 3.0,
	    NAN, 4900, &attempt, &err), 0);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM user_cards;"), 0);
	ck_assert_int_eq(store_cards_answer(st, prof, drop, q, 0, 1, "b", 3.0,
	    NAN, 5000, &attempt, &err), 0);
	ck_assert_int_eq(attempt, 2);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM answers;"), 2);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM user_cards WHERE "
	    "deck = 'mistakes';"), 1);
	ck_assert_int_eq(store_cards_answer(st, prof, drop, q, 1, 0, "a", 3.0,
	    NAN, 5100, &attempt, &err), 0);
	ck_assert_int_eq(attempt, 3);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM user_cards;"), 1);
	ck_assert_int_eq(sqlite3_exec(st->db, "DELETE FROM user_cards;"
	    "DELETE FROM cards; CREATE TEMP TRIGGER full BEFORE INSERT ON "
	    "user_cards BEGIN SELECT RAISE(ABORT, 'database or disk is full');"
	    " END;", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(store_cards_answer(st, prof, drop, q, 0, 1, "c", 3.0,
	    NAN, 5200, &attempt, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "full"));
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM answers;"), 3);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM user_cards;"), 0);
}
END_TEST

START_TEST(test_question_card)
{
	const struct content_question *q;
	struct store_card_set set;
	struct pl_err err;
	const char *drop;

	q = first_question(&drop);
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(store_cards_add_question(st, prof, drop, q, NAN, 5000,
	    &err), 0);
	ck_assert_int_eq(store_cards_add_question(st, prof, drop, q, NAN, 6000,
	    &err), 0);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM user_cards;"), 1);
	ck_assert_int_eq(store_cards_load(st, prof, course, NULL, "mistakes",
	    &set, &err), 0);
	ck_assert_uint_eq(set.n, 1);
	ck_assert(strncmp(set.cards[0].front, q->prompt,
	    strlen(q->prompt)) == 0);
	/* A choice question's card carries its options (issue 14). */
	if (q->n_options > 0) {
		char want[512];

		snprintf(want, sizeof want, "\n1) %s", q->options[0].text);
		ck_assert_ptr_nonnull(strstr(set.cards[0].front, want));
		snprintf(want, sizeof want, "%zu) %s", q->n_options,
		    q->options[q->n_options - 1].text);
		ck_assert_ptr_nonnull(strstr(set.cards[0].front, want));
	}
	ck_assert(set.cards[0].user);
	ck_assert_int_eq(set.items[0].card.state, FSRS_NEW);
	ck_assert_int_eq(set.items[0].added, 5000);
	store_card_set_free(&set);
}
END_TEST

/* Tags and decks of the notes read back, one string per note. */
static void
collect(const struct store_note *k, void *arg)
{
	char *buf = arg;

	snprintf(buf + strlen(buf), 2048 - strlen(buf), "%s|%s|%s|%s|%s\n",
	    k->card_id, k->deck, k->front, k->back, k->tags);
}

START_TEST(test_import)
{
	static const char file[] = "#separator:tab\n#guid column:1\n"
	    "#deck column:2\n#tags column:5\n"
	    "g1\tparlearn::mine\tQ one\tA one\tx y\n"
	    "g2\tparlearn::mine\tQ two\tA two\t\n";
	struct store_import_counts n;
	struct anki_notes notes;
	struct store_card_set set;
	struct pl_err err;
	char got[2048] = "";

	ck_assert_int_eq(anki_parse(file, sizeof file - 1, "x", &notes, &err), 0);
	ck_assert_int_eq(store_cards_import(st, prof, course, NULL, &notes, "x",
	    7000, &n, &err), 0);
	ck_assert_int_eq(n.added, 2);
	/* A second import adds nothing. */
	ck_assert_int_eq(store_cards_import(st, prof, course, NULL, &notes, "x",
	    8000, &n, &err), 0);
	ck_assert_int_eq(n.added, 0);
	ck_assert_int_eq(n.unchanged, 2);
	/* An edited note updates its card, which keeps its schedule. */
	free(notes.v[1].back);
	notes.v[1].back = strdup("A two, edited");
	ck_assert_int_eq(store_cards_import(st, prof, course, NULL, &notes, "x",
	    9000, &n, &err), 0);
	ck_assert_int_eq(n.updated, 1);
	ck_assert_int_eq(n.unchanged, 1);
	/* The course's decks and "mistakes" are not for imports. */
	ck_assert_int_eq(store_cards_import(st, prof, course, "phase-1", &notes,
	    "x", 7000, &n, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "phase-1"));
	ck_assert_int_eq(store_cards_import(st, prof, course, "mistakes", &notes,
	    "x", 7000, &n, &err), -1);
	ck_assert_int_eq(store_cards_import(st, prof, course, "", &notes, "x",
	    7000, &n, &err), -1);
	anki_notes_free(&notes);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM cards;"), 2);
	ck_assert_int_eq(store_user_deck_notes(st, "ada", "mine", collect, got,
	    &err), 2);
	ck_assert_str_eq(got, "anki:g1|mine|Q one|A one|x y\n"
	    "anki:g2|mine|Q two|A two, edited|\n");
	ck_assert_int_eq(store_cards_load(st, prof, course, NULL, "mine", &set,
	    &err), 0);
	ck_assert_uint_eq(set.n, 2);
	ck_assert_int_eq(set.items[0].added, 7000);
	store_card_set_free(&set);
}
END_TEST

/* A version-3 database gains user_cards.tags, NULL for the cards it has. */
START_TEST(test_migrate_tags)
{
	char path[4200];
	struct pl_err err;

	ck_assert_int_eq(sqlite3_exec(st->db, "INSERT INTO user_cards VALUES "
	    "(1, 'u:old:1', 'old', 'f', 'b', 5, NULL);"
	    "ALTER TABLE user_cards DROP COLUMN tags;"
	    "DROP TABLE scenario_tradeoffs; ALTER TABLE answers DROP COLUMN rule;"
	    "PRAGMA user_version = 3;", NULL, NULL, NULL), SQLITE_OK);
	store_close(st);
	snprintf(path, sizeof path, "%s/progress.db", dir);
	st = store_open(path, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(q_int("SELECT COUNT(*) FROM user_cards WHERE "
	    "tags IS NULL AND card_id = 'u:old:1';"), 1);
}
END_TEST

START_TEST(test_stats)
{
	struct review_stats s;
	struct pl_err err;
	struct fsrs_card c;
	int64_t now = today_at(12, 0);

	start_drop("drop-01");
	ck_assert_int_eq(store_cards_unlock(st, prof, course, now, NULL, &err), 0);
	rate(course->cards[0].id, FSRS_EASY, now - 20 * 86400, &c);
	rate(course->cards[0].id, FSRS_GOOD, now - 1, NULL);
	rate(course->cards[1].id, FSRS_EASY, now - 10 * 86400, &c);
	rate(course->cards[1].id, FSRS_AGAIN, now - 2, NULL);
	rate(course->cards[2].id, FSRS_GOOD, now, NULL);
	ck_assert_int_eq(store_review_stats(st, prof, now, 0, 4, &s, &err), 0);
	ck_assert_int_eq(s.heatmap[REVIEW_HEATMAP_DAYS - 1] +
	    s.heatmap[REVIEW_HEATMAP_DAYS - 2], 3);	/* now-2 may be yesterday */
	ck_assert_int_eq(s.total_reviews, 5);
	ck_assert_int_eq(s.by_state[FSRS_REVIEW], 1);
	ck_assert_int_eq(s.by_state[FSRS_RELEARNING], 1);
	ck_assert_int_eq(s.by_state[FSRS_LEARNING], 1);
	/* Two reviews of review-state cards, at 20 and 10 days: one pass. */
	ck_assert_int_eq(s.ages[1].n, 2);
	ck_assert_int_eq(s.ages[1].passed, 1);
	ck_assert_int_eq(s.ages_month[1].n, 2);
	ck_assert_int_ge(s.forecast[0] + s.forecast[1], 2);	/* the learning ones */
}
END_TEST

static Suite *
cards_suite(void)
{
	Suite *s = suite_create("cards store");
	TCase *t = tcase_create("cards");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 20);
	tcase_add_test(t, test_schema);
	tcase_add_test(t, test_unlock);
	tcase_add_test(t, test_log_rebuild);
	tcase_add_test(t, test_undo);
	tcase_add_test(t, test_today_and_settings);
	tcase_add_test(t, test_session_rate_undo);
	tcase_add_test(t, test_step_across_rollover);
	tcase_add_test(t, test_two_instances_rate_one_card);
	tcase_add_test(t, test_cram_leaves_schedule);
	tcase_add_test(t, test_question_card);
	tcase_add_test(t, test_wrong_answer_and_card_together);
	tcase_add_test(t, test_import);
	tcase_add_test(t, test_migrate_tags);
	tcase_add_test(t, test_stats);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(cards_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
