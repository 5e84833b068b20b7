/*
 * bench_stats.c - how long the statistics take to compute with 10,000
 * cards and 1,000,000 review-log rows (goal: under 50 ms).
 *
 * Builds a throwaway database under $TMPDIR (rows spread over the past
 * year, inserted with the real schema so the triggers fill the
 * aggregates), then times store_review_stats() plus the text rendering:
 * once on a freshly opened database and as the median of 20 runs.
 * `make bench-review` runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/cards.h"
#include "store/progress.h"

#define N_CARDS		10000
#define N_LOG		1000000
#define N_RUNS		20

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
sink(const char *s, size_t n, void *arg)
{
	*(size_t *)arg += n + (s != NULL);
}

static int
fill(struct store *st, int64_t prof, int64_t now)
{
	sqlite3_stmt *c, *l;
	struct pl_err err;
	char id[32];
	long i;

	if (store_begin(st, &err) != 0)
		return -1;
	sqlite3_prepare_v2(st->db, "INSERT INTO cards (profile_id, card_id, "
	    "seed, state, stability, difficulty, due, last_review, reps, added) "
	    "VALUES (?1, ?2, ?3, ?4, 10, 5, ?5, ?6, 100, 0);", -1, &c, NULL);
	sqlite3_prepare_v2(st->db, "INSERT INTO review_log (profile_id, card_id, "
	    "reviewed, rating, elapsed_days, scheduled_days, scheduled_s, "
	    "state_before, state_after, s_before, d_before, s_after, d_after) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, 10, 864000, ?6, 2, 5, 5, 10, 5);", -1,
	    &l, NULL);
	for (i = 0; i < N_CARDS; i++) {
		snprintf(id, sizeof id, "card-%05ld", i);
		sqlite3_bind_int64(c, 1, prof);
		sqlite3_bind_text(c, 2, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(c, 3, review_card_seed(id));
		sqlite3_bind_int(c, 4, (int)(i % 4));
		sqlite3_bind_int64(c, 5, now + (i % 40) * 86400 - 86400);
		sqlite3_bind_int64(c, 6, now - 86400 * (i % 30));
		sqlite3_step(c);
		sqlite3_reset(c);
	}
	for (i = 0; i < N_LOG; i++) {
		snprintf(id, sizeof id, "card-%05ld", i % N_CARDS);
		sqlite3_bind_int64(l, 1, prof);
		sqlite3_bind_text(l, 2, id, -1, SQLITE_TRANSIENT);
		/* Oldest first, spread evenly over 365 days. */
		sqlite3_bind_int64(l, 3, now - 365L * 86400 +
		    (int64_t)i * (365L * 86400 / N_LOG));
		sqlite3_bind_int(l, 4, 1 + (int)(i % 7 == 0 ? 0 : 1 + i % 3));
		sqlite3_bind_int(l, 5, (int)(i % 120));
		sqlite3_bind_int(l, 6, i % 5 == 0 ? 1 : 2);
		sqlite3_step(l);
		sqlite3_reset(l);
	}
	sqlite3_finalize(c);
	sqlite3_finalize(l);
	return store_commit(st, &err);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One "open the statistics": compute and render. Returns ms. */
static double
one(struct store *st, int64_t prof, int64_t now)
{
	struct review_stats s;
	struct pl_err err;
	size_t bytes = 0;
	double t = now_ms();

	if (store_review_stats(st, prof, now, 0, 4, &s, &err) != 0) {
		fprintf(stderr, "bench_stats: %s\n", err.msg);
		exit(1);
	}
	review_stats_lines(&s, 100, 1, sink, &bytes);
	return now_ms() - t;
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4200];
	struct store *st;
	struct pl_err err;
	int64_t prof, now = (int64_t)time(NULL);
	double t, runs[N_RUNS], cold;
	int i;

	snprintf(dir, sizeof dir, "%s/bench_stats.XXXXXX",
	    tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof path, "%s/progress.db", dir);
	if ((st = store_open(path, &err)) == NULL ||
	    store_profile(st, "bench", now, &prof, &err) != 0) {
		fprintf(stderr, "bench_stats: %s\n", err.msg);
		return 1;
	}
	t = now_ms();
	if (fill(st, prof, now) != 0)
		return 1;
	printf("filled %d cards, %d log rows in %.0f ms\n", N_CARDS, N_LOG,
	    now_ms() - t);
	store_close(st);
	st = store_open(path, &err);
	cold = one(st, prof, now);
	for (i = 0; i < N_RUNS; i++)
		runs[i] = one(st, prof, now);
	qsort(runs, N_RUNS, sizeof runs[0], cmp_double);
	printf("statistics with %d cards and %d log rows: first %.2f ms, "
	    "median %.2f ms, max %.2f ms (goal < 50 ms)\n", N_CARDS, N_LOG,
	    cold, runs[N_RUNS / 2], runs[N_RUNS - 1]);
	store_close(st);
	unlink(path);
	snprintf(path, sizeof path, "%s/progress.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/progress.db-shm", dir);
	unlink(path);
	rmdir(dir);
	return runs[N_RUNS / 2] < 50.0 ? 0 : 1;
}
