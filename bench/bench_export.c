/*
 * bench_export.c - `parlearn export` of a large profile streams (issue
 * 23: 400,000 cards took 5.3 s and 1.2 GB when the whole export was built
 * as one JSON tree first).
 *
 * Builds a profile of N cards (N/4 of them the learner's own) with N
 * reviews in its log, then runs the real binary, `export` as JSON and as
 * CSV into a file, at N/4 and at N, and prints the wall time and the
 * child's maximum resident set size. A streamed export's memory does not
 * grow with the profile (goal: under 64 MB at N and under twice its N/4
 * figure); its time grows linearly.
 *
 * usage: bench_export PARLEARN [N [DIR]]   (N: 400000; DIR: keep the
 *        databases and exports there instead of a temporary directory)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store/db.h"
#include "store/progress.h"

static char tmp[] = "/tmp/bench_export.XXXXXX";

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Run sql with ?1 the profile and ?2 the row count. */
static int
fill_sql(struct store *st, const char *sql, int64_t prof, long n)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "bench_export: %s\n", sqlite3_errmsg(st->db));
		return -1;
	}
	sqlite3_bind_int64(s, 1, prof);
	sqlite3_bind_int64(s, 2, n);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		fprintf(stderr, "bench_export: %s\n", sqlite3_errmsg(st->db));
	return rc == SQLITE_DONE ? 0 : -1;
}

/* A database at path whose profile "b" has n cards and n reviews. */
static int
make_profile(const char *path, long n)
{
	static const char *const sql[] = {
		"WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k"
		" WHERE i < ?2 - 1) INSERT INTO cards (profile_id, card_id,"
		" seed, state, step, stability, difficulty, due, last_review,"
		" reps, lapses, added) SELECT ?1, printf('c%07d', i),"
		" random(),"
		" i % 4, i % 3, 0.1 + i * 0.37, 5 + (i % 100) / 17.0,"
		" 1700000000 + i * 60, 1699000000 + i, i % 20, i % 5,"
		" 1690000000 + i FROM k",
		"WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 4 FROM k"
		" WHERE i < ?2 - 4) INSERT INTO user_cards (profile_id, card_id,"
		" deck, front, back, created) SELECT ?1, printf('c%07d', i),"
		" 'mine', 'What does \"rank ' || i || '\" hold?',"
		" 'Line one' || char(10) || 'line two, \u00fc ' || i,"
		" 1690000000 + i FROM k",
		"WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k"
		" WHERE i < ?2 - 1) INSERT INTO review_log (profile_id, card_id,"
		" reviewed, rating, duration_ms, elapsed_days, scheduled_days,"
		" scheduled_s, state_before, state_after, s_before, d_before,"
		" s_after, d_after) SELECT ?1, printf('c%07d', i),"
		" 1699000000 + i * 7, 1 + i % 4, 1000 + i % 9000, i % 30,"
		" i % 40, (i % 40) * 86400, i % 4, (i + 1) % 4, i * 0.01,"
		" 5.5, i * 0.013, 5.25 FROM k",
		"WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k"
		" WHERE i < 999) INSERT INTO answers (profile_id, drop_id,"
		" question_id, attempt, correct, response, seconds, answered)"
		" SELECT ?1, printf('drop-%02d', 1 + i % 14), CASE WHEN i % 7 = 0"
		" THEN 'scenario:s' || (i % 3) ELSE 'q' || (i % 5) END,"
		" 1 + i / 70, i % 2, 'answer ' || i, i * 1.5, 1699000000 + i"
		" FROM k",
		"INSERT INTO settings (profile_id, key, value) VALUES"
		" (?1, 'resume', 'home'), (?1, 'theme', 'dark')",
	};
	struct store *st;
	struct pl_err err;
	int64_t prof;
	size_t i;
	int rc = 0;

	if ((st = store_open(path, &err)) == NULL ||
	    store_profile(st, "b", 1690000000, &prof, &err) != 0) {
		fprintf(stderr, "bench_export: %s\n", err.msg);
		return -1;
	}
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		rc = -1;
	for (i = 0; i < sizeof sql / sizeof sql[0] && rc == 0; i++)
		rc = fill_sql(st, sql[i], prof, n);
	if (sqlite3_exec(st->db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL,
	    NULL) != SQLITE_OK)
		rc = -1;
	store_close(st);
	return rc;
}

/* parlearn --db DB --profile b export --format FMT -o OUT: ms and MB. */
static int
run_export(const char *parlearn, const char *db, const char *fmt,
    const char *out, double *ms, double *mb)
{
	struct rusage ru;
	double t0 = now_ms();
	pid_t pid;
	int status;

	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		execl(parlearn, parlearn, "--db", db, "--profile", "b", "export",
		    "--format", fmt, "-o", out, (char *)NULL);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	*ms = now_ms() - t0;
	*mb = ru.ru_maxrss / 1024.0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_export: export --format %s failed\n", fmt);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const char *const fmts[] = { "json", "csv" };
	const char *dir = tmp;
	double ms[2][2], mb[2][2];
	char db[1100], out[1200], cmd[1200];
	long n = 400000, size;
	int bad = 0, k, f;

	if (argc < 2 || argc > 4 || (argc > 2 && (n = atol(argv[2])) < 16)) {
		fprintf(stderr, "usage: bench_export PARLEARN [N [DIR]]\n");
		return 2;
	}
	if (argc == 4)
		dir = argv[3];
	if ((argc == 4 ? mkdir(dir, 0700) != 0 && errno != EEXIST :
	    mkdtemp(tmp) == NULL)) {
		perror(dir);
		return 2;
	}
	for (k = 0; k < 2 && !bad; k++) {
		size = k == 0 ? n / 4 : n;
		snprintf(db, sizeof db, "%s/export-%ld.db", dir, size);
		unlink(db);
		if (make_profile(db, size) != 0) {
			bad = 2;
			break;
		}
		for (f = 0; f < 2 && !bad; f++) {
			snprintf(out, sizeof out, "%s/export-%ld.%s", dir, size,
			    fmts[f]);
			if (run_export(argv[1], db, fmts[f], out, &ms[k][f],
			    &mb[k][f]) != 0)
				bad = 2;
		}
	}
	if (!bad) {
		printf("bench_export: a profile of N cards and N reviews\n");
		for (f = 0; f < 2; f++) {
			printf("  export %-4s %7ld: %7.0f ms %6.1f MB   %7ld: "
			    "%7.0f ms %6.1f MB", fmts[f], n / 4, ms[0][f],
			    mb[0][f], n, ms[1][f], mb[1][f]);
			if (mb[1][f] < 64 && mb[1][f] < 2 * mb[0][f])
				printf("   (streamed)\n");
			else {
				printf("   (memory grows with the profile)\n");
				bad = 1;
			}
		}
	}
	if (argc < 4) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
		if (system(cmd) != 0)
			bad = 2;
	}
	return bad;
}
