/*
 * check_export_stream.c - `export` streams (issue 23: 400,000 cards took
 * 5.3 s and 1.2 GB): it writes the same bytes as the tree-built export it
 * replaced (tests/exportref.c), JSON and CSV, in any locale; it writes
 * while it reads; `parlearn export` of a big profile takes no more memory
 * than of a small one; a failed write is told with its errno.
 */
#include <check.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/db.h"
#include "store/export.h"
#include "store/progress.h"
#include "capture.h"
#include "exportref.h"

static char *tmp;

static struct store *
open_db(const char *name)
{
	struct pl_err err;
	char path[1024];
	struct store *st;

	snprintf(path, sizeof path, "%s/%s", tmp, name);
	st = store_open(path, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	return st;
}

static void
exec_sql(struct store *st, const char *sql)
{
	char *msg = NULL;

	ck_assert_msg(sqlite3_exec(st->db, sql, NULL, NULL, &msg) == SQLITE_OK,
	    "%s: %s", sql, msg != NULL ? msg : "?");
}

/*
 * Profile "ada" with every kind of value the export meets: integers at
 * the int and 2^53 limits, reals that need 15 and 17 digits, infinity,
 * text with every escape, control characters, bidi overrides and bytes
 * that are not UTF-8, trade-offs import would refuse, scenarios and
 * their diagnoses, and the review tables.
 */
static void
fill_edges(struct store *st)
{
	struct pl_err err;
	int64_t id;

	ck_assert_int_eq(store_profile(st, "ada", 1000, &id, &err), 0);
	ck_assert_int_eq(id, 1);
	exec_sql(st, "UPDATE profiles SET created = 9007199254740993"
	    " WHERE id = 1;"
	    "INSERT INTO drop_progress (profile_id, drop_id, status, started,"
	    " finished, seconds, position, last_seen) VALUES"
	    " (1, 'drop-01', 2, 2147483647, 2147483648, 0.1, -2147483648,"
	    "  NULL),"
	    " (1, 'drop-02', 1, -2147483649, 1e15, 0.30000000000000004, 7,"
	    "  123456789012345678),"
	    " (1, 'drop-03', 0, 999999999999999, 1e300, 9e999, -0.0,"
	    "  -9007199254740992),"
	    " (1, 'drop-04', 0, 1e16, 5e-324, 'text in a number', 1.5,"
	    "  -9223372036854775808);"
	    "INSERT INTO answers (profile_id, drop_id, question_id, attempt,"
	    " correct, response, seconds, answered, rule) VALUES"
	    " (1, 'drop-01', 'q1', 1, 0, 'a \"quote\" and \\ back', 4.5,"
	    "  1051, 1),"
	    " (1, 'drop-01', 'q1', 2, 1, char(8, 12, 10, 13, 9, 1, 31, 127),"
	    "  1.0 / 3, 1052, 2),"
	    " (1, 'drop-01', 'q2', 1, 1, '=cmd|x' || char(8238) || '√ü',"
	    "  2, 1053, 2),"
	    " (1, 'drop-01', 'q3', 1, 0, CAST(x'ff41fe' AS TEXT), 0, 1054, 2),"
	    " (1, 'drop-01', 'q4', 1, 0, x'41004243', 0, 1055, 2),"
	    " (1, 'drop-10', 'scenario:oom', 1, 0, 'zero 1', 60, 1200, 2),"
	    " (1, 'drop-10', 'scenario:oom', 2, 1, 'zero 3', 61, 1201, 2),"
	    " (1, 'drop-10', 'scenario:oom#diagnosis', 1, 1, 'mem', 5, 1202,"
	    "  2),"
	    " (1, 'drop-10', 'scenario:oom', 3, 0, 'zero 2', 62, 1203, 2),"
	    " (1, 'drop-11', 'scenario:bubble', 1, 0, 'pp 4', 10, 1300, 2),"
	    " (1, 'drop-11', 'SCENARIO:upper', 1, 1, 'no', 10, 1301, 2),"
	    " (1, 'drop-14', 'scenario:defend', 1, 1, 'dp 8', 100, 1400, 2),"
	    " (1, 'drop-14', 'scenario:defend', 2, 1, 'dp 4', 100, 1401, 2),"
	    " (1, 'drop-14', 'scenario:defend', 3, 1, 'dp 2', 100, 1402, 2),"
	    " (1, 'drop-14', 'scenario:defend', 4, 1, 'dp 1', 100, 1403, 2);"
	    "INSERT INTO scenario_tradeoffs (answer_id, text) SELECT id,"
	    " CASE attempt WHEN 1 THEN 'Memory for time: ZeRO-3 \"wins\"'"
	    " WHEN 2 THEN 'bell' || char(7) || ' and ' || char(8238) || 'rtl'"
	    " WHEN 3 THEN char(1, 2, 3) ELSE printf('%.700c', 'x') || char(1)"
	    " END FROM answers WHERE question_id = 'scenario:defend';"
	    "INSERT INTO settings (profile_id, key, value) VALUES"
	    " (1, 'resume', 'home'), (1, 'a.first', '1'),"
	    " (1, 'tab', 'a' || char(9) || 'b');"
	    "INSERT INTO cards (profile_id, card_id, seed, state, step,"
	    " stability, difficulty, due, last_review, reps, lapses, added)"
	    " VALUES (1, 'dp-limit', -6917529027641081856, 2, 0, 2.5,"
	    "  5.123456789012345, 5000, 1500, 1, 0, 1000),"
	    " (1, 'mine-1', 7, 0, 1, 0, 0, 9007199254740992, 0, 0, 0, 1001);"
	    "INSERT INTO user_cards (profile_id, card_id, deck, front, back,"
	    " created, tags) VALUES (1, 'mine-1', 'my deck', 'Front \"1\"',"
	    " 'Back' || char(10) || 'two', 1001, NULL);"
	    "INSERT INTO review_log (profile_id, card_id, reviewed, rating,"
	    " duration_ms, elapsed_days, scheduled_days, scheduled_s,"
	    " state_before, state_after, s_before, d_before, s_after, d_after)"
	    " VALUES (1, 'dp-limit', 1500, 3, 1234, 0, 1, 86400, 0, 1, 0, 0,"
	    "  2.5, 5.1),"
	    " (1, 'dp-limit', 1400, 1, 9007199254740993, 0, 1, 60, 0, 1, 0, 0,"
	    "  0.1, 7),"
	    " (1, 'mine-1', 1600, 4, 0.5, 3, 4, 345600, 2, 2, 1.25, 6, 9.75,"
	    "  5.5);");
	/* Another profile's rows stay out of ada's export. */
	ck_assert_int_eq(store_profile(st, "bob", 1, &id, &err), 0);
	ck_assert_int_eq(store_setting_set(st, id, "resume", "bob's", &err),
	    0);
}

/* The streamed export (to a file) and the tree-built one, compared. */
static void
assert_same(struct store *st, const char *name, const char *where)
{
	struct pl_err err;
	char *ref, *got;
	size_t n = 0;
	FILE *fp;

	ref = exportref_json(st, name, NULL, &err);
	ck_assert_msg(ref != NULL, "%s", err.msg);
	fp = open_memstream(&got, &n);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(export_profile_write_json(st, name, NULL, fp, &err),
	    0);
	fclose(fp);
	/* The file is the tree's text and a newline. */
	ck_assert_msg(n == strlen(ref) + 1 && memcmp(got, ref, n - 1) == 0 &&
	    got[n - 1] == '\n',
	    "%s: the streamed JSON differs:\n%s\n--- tree-built:\n%s", where,
	    got, ref);
	free(got);
	free(ref);

	ref = exportref_csv(st, name, &err);
	ck_assert_msg(ref != NULL, "%s", err.msg);
	fp = open_memstream(&got, &n);
	ck_assert_int_eq(export_profile_write_csv(st, name, fp, &err), 0);
	fclose(fp);
	ck_assert_msg(n == strlen(ref) && memcmp(got, ref, n) == 0,
	    "%s: the streamed CSV differs:\n%s\n--- tree-built:\n%s", where,
	    got, ref);
	free(got);
	free(ref);
}

START_TEST(stream_writes_what_the_tree_wrote)
{
	struct store *st = open_db("edges.db");

	fill_edges(st);
	assert_same(st, "ada", "C.UTF-8");
	assert_same(st, "bob", "C.UTF-8");
	/* A decimal comma in the locale changes nothing. */
	if (setlocale(LC_ALL, "de_DE.UTF-8") != NULL) {
		assert_same(st, "ada", "de_DE.UTF-8");
		setlocale(LC_ALL, "C.UTF-8");
	} else
		ck_assert_msg(getenv("CI") == NULL ||
		    strcmp(getenv("CI"), "true") != 0,
		    "de_DE.UTF-8 is missing under CI");
	store_close(st);
}
END_TEST

/* A profile with n cards, n/4 of them the learner's own, n reviews. */
static void
fill_cards(struct store *st, const char *name, long n)
{
	char sql[2048];
	struct pl_err err;
	int64_t id;

	ck_assert_int_eq(store_profile(st, name, 1000, &id, &err), 0);
	snprintf(sql, sizeof sql, "BEGIN;"
	    "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k"
	    " WHERE i < %ld) INSERT INTO cards (profile_id, card_id, seed,"
	    " stability, difficulty, due, added) SELECT %lld,"
	    " printf('c%%07d', i), random(), i * 0.37,"
	    " 5 + i / 17.0, 1700000000 + i, 1690000000 + i FROM k;"
	    "INSERT INTO user_cards (profile_id, card_id, deck, front, back,"
	    " created) SELECT profile_id, card_id, 'mine', 'front ' || seed,"
	    " 'back', added FROM cards WHERE profile_id = %lld AND"
	    " added %% 4 = 0;"
	    "INSERT INTO review_log (profile_id, card_id, reviewed, rating,"
	    " elapsed_days, scheduled_days, scheduled_s, state_before,"
	    " state_after, s_before, d_before, s_after, d_after) SELECT"
	    " profile_id, card_id, added, 1 + added %% 4, 0, 1, 86400, 0, 1,"
	    " 0, 0, stability, difficulty FROM cards WHERE profile_id = %lld;"
	    "COMMIT;", n - 1, (long long)id, (long long)id, (long long)id);
	exec_sql(st, sql);
}

/* A write sink that counts the writes made while a query is running. */
struct sink {
	sqlite3	*db;
	long	 writes, mid_query;
	int	 fail;		/* errno to fail with, or 0 */
};

static ssize_t
sink_write(void *cookie, const char *buf, size_t n)
{
	struct sink *k = cookie;
	sqlite3_stmt *s;

	(void)buf;
	if (k->fail != 0) {
		errno = k->fail;
		return -1;
	}
	k->writes++;
	for (s = sqlite3_next_stmt(k->db, NULL); s != NULL;
	    s = sqlite3_next_stmt(k->db, s))
		if (sqlite3_stmt_busy(s) && sqlite3_stmt_readonly(s)) {
			k->mid_query++;
			break;
		}
	return (ssize_t)n;
}

static FILE *
sink_open(struct sink *k)
{
	cookie_io_functions_t io = { NULL, sink_write, NULL, NULL };
	FILE *fp = fopencookie(k, "w", io);

	ck_assert_ptr_nonnull(fp);
	setvbuf(fp, NULL, _IOFBF, 4096);
	return fp;
}

/*
 * Rows reach the file while the queries still run: the export is not
 * gathered first (a tree, or the whole text, would be written after the
 * last query ended).
 */
START_TEST(stream_writes_while_it_reads)
{
	struct store *st = open_db("cards.db");
	struct sink k = { st->db, 0, 0, 0 };
	struct pl_err err;
	FILE *fp;

	fill_cards(st, "b", 2000);
	fp = sink_open(&k);
	ck_assert_int_eq(export_profile_write_json(st, "b", NULL, fp, &err),
	    0);
	fclose(fp);
	ck_assert_msg(k.writes > 20 && k.mid_query > k.writes / 2,
	    "JSON: %ld of %ld writes made while reading", k.mid_query,
	    k.writes);
	memset(&k, 0, sizeof k);
	k.db = st->db;
	fp = sink_open(&k);
	ck_assert_int_eq(export_profile_write_csv(st, "b", fp, &err), 0);
	fclose(fp);
	ck_assert_msg(k.writes > 5 && k.mid_query > k.writes / 2,
	    "CSV: %ld of %ld writes made while reading", k.mid_query,
	    k.writes);
	store_close(st);
}
END_TEST

/* A write that fails stops the export: -2, with the write's errno. */
START_TEST(stream_stops_at_a_failed_write)
{
	struct store *st = open_db("full.db");
	struct sink k = { st->db, 0, 0, ENOSPC };
	struct pl_err err;
	FILE *fp;

	fill_cards(st, "b", 500);
	fp = sink_open(&k);
	errno = 0;
	ck_assert_int_eq(export_profile_write_json(st, "b", NULL, fp, &err),
	    -2);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(fp);
	fp = sink_open(&k);
	errno = 0;
	ck_assert_int_eq(export_profile_write_csv(st, "b", fp, &err), -2);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(fp);
	/* No such profile: -1, nothing written. */
	k.fail = 0;
	k.writes = 0;
	fp = sink_open(&k);
	ck_assert_int_eq(export_profile_write_json(st, "nobody", NULL, fp,
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "nobody"));
	fclose(fp);
	ck_assert_int_eq(k.writes, 0);
	store_close(st);
}
END_TEST

/* Maximum resident set of `parlearn --db DB --profile P export ...`, KB. */
static long
export_rss(const char *db, const char *profile, const char *fmt)
{
	const char *parlearn = getenv("PARLEARN");
	char out[1100], asan[1024];
	struct rusage ru;
	int status;
	pid_t pid;

	ck_assert_msg(parlearn != NULL, "PARLEARN is not set (make check "
	    "sets it)");
	snprintf(out, sizeof out, "%s/out.%s", tmp, fmt);
	/* A sanitizer build keeps freed memory in quarantine; measure what
	 * is in use. */
	snprintf(asan, sizeof asan, "%s:quarantine_size_mb=0",
	    getenv("ASAN_OPTIONS") != NULL ? getenv("ASAN_OPTIONS") : "");
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setenv("ASAN_OPTIONS", asan, 1);
		execl(parlearn, parlearn, "--db", db, "--profile", profile,
		    "export", "--format", fmt, "-o", out, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(wait4(pid, &status, 0, &ru), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "parlearn export --format %s failed", fmt);
	return ru.ru_maxrss;
}

/*
 * `parlearn export` of 40,000 cards takes no more memory than of 40: the
 * command streams too. (The tree-built export took about 150 MB more.)
 */
START_TEST(export_command_memory_does_not_grow)
{
	struct store *st = open_db("big.db");
	char db[1100];
	long small, big;
	const char *fmt;
	int f;

	fill_cards(st, "small", 40);
	fill_cards(st, "big", 40000);
	store_close(st);
	snprintf(db, sizeof db, "%s/big.db", tmp);
	for (f = 0; f < 2; f++) {
		fmt = f == 0 ? "json" : "csv";
		small = export_rss(db, "small", fmt);
		big = export_rss(db, "big", fmt);
		ck_assert_msg(big - small < 16 * 1024, "export --format %s: "
		    "%ld KB for 40 cards, %ld KB for 40,000", fmt, small, big);
	}
}
END_TEST

static void
setup(void)
{
	tmp = test_tmpdir();
}

static void
teardown(void)
{
	test_rmrf(tmp);
	free(tmp);
}

static Suite *
export_stream_suite(void)
{
	Suite *s = suite_create("export_stream");
	TCase *tc = tcase_create("streamed export");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, stream_writes_what_the_tree_wrote);
	tcase_add_test(tc, stream_writes_while_it_reads);
	tcase_add_test(tc, stream_stops_at_a_failed_write);
	tcase_add_test(tc, export_command_memory_does_not_grow);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	sr = srunner_create(export_stream_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
