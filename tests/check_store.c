/*
 * check_store.c - the progress database: creating it private, migrating
 * and refusing what it must not touch, reading back what was written,
 * sharing it between processes, and never leaving a write half done.
 *
 * Every test gets a fresh directory under /tmp (removed in teardown) and
 * checks the database with plain SQLite queries on st->db besides the
 * store API, so a test cannot pass by reading back its own mistake.
 */
#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/db.h"
#include "store/migrate.h"
#include "store/progress.h"
#include "tmpdir.h"

#define N_CHILDREN	8
#define N_ANSWERS	50	/* per child */
#define N_VISITS	10	/* per child */

static char	*dir;		/* this test's temporary directory */
static char	 dbpath[512];	/* dir/data/parlearn/progress.db */

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(path);
}

static void
setup(void)
{
	char t[4096];

	ck_assert_ptr_nonnull(mkdtemp(test_tmp_path(t, sizeof t,
	    "check_store.XXXXXX")));
	dir = strdup(t);
	ck_assert_ptr_nonnull(dir);
	snprintf(dbpath, sizeof dbpath, "%s/data/parlearn/progress.db", dir);
}

static void
teardown(void)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
	dir = NULL;
}

/* Open path or fail the test with the store's message. */
static struct store *
open_ok(const char *path)
{
	struct pl_err err;
	struct store *st;

	memset(&err, 0, sizeof err);
	st = store_open(path, &err);
	ck_assert_msg(st != NULL, "store_open %s: %s", path, err.msg);
	ck_assert(sqlite3_get_autocommit(st->db));
	return st;
}

/* First column of the first row of sql, as an integer (-1 if no row). */
static long long
q_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	long long v = -1;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK,
	    "%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* First column of the first row of sql, as text, into buf ("" if none). */
static const char *
q_text(sqlite3 *db, const char *sql, char *buf, size_t size)
{
	sqlite3_stmt *s;

	buf[0] = '\0';
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) != NULL)
		snprintf(buf, size, "%s", sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return buf;
}

/* Run sql with a plain SQLite connection on path (no store involved). */
static void
raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK,
	    "%s: %s", sql, sqlite3_errmsg(db));
	sqlite3_close(db);
}

/* Whole file into a malloc'd buffer; *len gets its size. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat sb;
	FILE *f;

	ck_assert_int_eq(stat(path, &sb), 0);
	buf = malloc((size_t)sb.st_size + 1);
	ck_assert_ptr_nonnull(buf);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, (size_t)sb.st_size, f);
	fclose(f);
	ck_assert_uint_eq(*len, (size_t)sb.st_size);
	return buf;
}

static void
spit(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static int64_t
profile(struct store *st, const char *name)
{
	struct pl_err err;
	int64_t id = -1;

	ck_assert_msg(store_profile(st, name, 1000, &id, &err) == 0, "%s",
	    err.msg);
	ck_assert(sqlite3_get_autocommit(st->db));
	return id;
}

static int
answer(struct store *st, int64_t p, const char *drop, const char *q,
    int correct)
{
	struct pl_err err;
	int attempt = -1;

	ck_assert_msg(store_answer_add(st, p, drop, q, correct, "resp", 1.5,
	    2000, &attempt, &err) == 0, "%s", err.msg);
	ck_assert(sqlite3_get_autocommit(st->db));
	return attempt;
}

/* --- create ------------------------------------------------------------- */

static void
assert_mode(const char *path, mode_t want)
{
	struct stat sb;

	ck_assert_msg(stat(path, &sb) == 0, "%s missing", path);
	ck_assert_msg((sb.st_mode & 07777) == want, "%s: mode %o, want %o",
	    path, (unsigned)(sb.st_mode & 07777), (unsigned)want);
}

START_TEST(test_create_private)
{
	struct store *st;
	char p[600];
	mode_t old;

	old = umask(022);
	st = open_ok(dbpath);
	umask(old);
	snprintf(p, sizeof p, "%s/data", dir);
	assert_mode(p, 0700);
	snprintf(p, sizeof p, "%s/data/parlearn", dir);
	assert_mode(p, 0700);
	assert_mode(dbpath, 0600);
	ck_assert_str_eq(st->path, dbpath);
	store_close(st);
}
END_TEST

START_TEST(test_create_pragmas)
{
	struct store *st;
	char buf[64];

	st = open_ok(dbpath);
	ck_assert_int_eq(q_int(st->db, "PRAGMA user_version;"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	ck_assert_str_eq(q_text(st->db, "PRAGMA journal_mode;", buf,
	    sizeof buf), "wal");
	ck_assert_int_eq(q_int(st->db, "PRAGMA foreign_keys;"), 1);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM sqlite_master "
	    "WHERE type = 'table' AND name IN ('profiles', 'drop_progress', "
	    "'answers', 'settings');"), 4);
	store_close(st);
}
END_TEST

START_TEST(test_create_default_path)
{
	char *home = getenv("HOME"), *xdg = getenv("XDG_DATA_HOME");
	char *sh = home != NULL ? strdup(home) : NULL;
	char *sx = xdg != NULL ? strdup(xdg) : NULL;
	struct passwd *pw;
	char buf[4200], want[4200];

	setenv("XDG_DATA_HOME", "/x/data", 1);
	setenv("HOME", "/h", 1);
	ck_assert_int_eq(store_default_path(buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "/x/data/parlearn/progress.db");
	ck_assert_int_eq(store_default_path(buf, 10), -1);
	setenv("XDG_DATA_HOME", "relative", 1);	/* ignored, per XDG spec */
	ck_assert_int_eq(store_default_path(buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "/h/.local/share/parlearn/progress.db");
	/* Issue 23: without HOME, the password database's home, as other
	 * programs do (it used to be an error, and `parlearn list` failed). */
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	pw = getpwuid(getuid());
	if (pw != NULL && pw->pw_dir[0] != '\0') {
		snprintf(want, sizeof want, "%s/.local/share/parlearn/"
		    "progress.db", pw->pw_dir);
		ck_assert_int_eq(store_default_path(buf, sizeof buf), 0);
		ck_assert_str_eq(buf, want);
	}
	setenv("HOME", "", 1);
	if (pw != NULL && pw->pw_dir[0] != '\0') {
		ck_assert_int_eq(store_default_path(buf, sizeof buf), 0);
		ck_assert_str_eq(buf, want);
	}
	if (sh != NULL)
		setenv("HOME", sh, 1);
	else
		unsetenv("HOME");
	if (sx != NULL)
		setenv("XDG_DATA_HOME", sx, 1);
	free(sh);
	free(sx);
}
END_TEST

/* --- migrate ------------------------------------------------------------ */

START_TEST(test_migrate_version0)
{
	struct store *st;
	char path[600];

	/* A zero-byte file is an empty database at version 0. */
	snprintf(path, sizeof path, "%s/empty.db", dir);
	spit(path, "", 0);
	st = open_ok(path);
	ck_assert_int_eq(q_int(st->db, "PRAGMA user_version;"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM profiles;"), 0);
	store_close(st);
	/* A real SQLite file at version 0 keeps what it had. */
	snprintf(path, sizeof path, "%s/old.db", dir);
	raw_exec(path, "CREATE TABLE notes (x TEXT);"
	    "INSERT INTO notes VALUES ('kept');");
	st = open_ok(path);
	ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM notes "
	    "WHERE x = 'kept';"), 1);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM answers;"), 0);
	store_close(st);
}
END_TEST

/*
 * Issue 23: every upgrade path ends at the schema a fresh database has.
 * Folding the 4 -> 5 migration into the first left a version-5 database
 * without scenario_tradeoffs while every test passed. The schema is
 * compared whole: sqlite_master's type, name, table and SQL (whitespace
 * runs made one space), sorted.
 */
static char *
schema_of(sqlite3 *db)
{
	sqlite3_stmt *s;
	char *out = NULL, *row, *p, *q;
	size_t len = 0, n;

	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT type || ' ' || name"
	    " || ' ' || tbl_name || ' ' || ifnull(sql, '') FROM sqlite_master"
	    " ORDER BY type, name", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		row = strdup((const char *)sqlite3_column_text(s, 0));
		ck_assert_ptr_nonnull(row);
		for (p = q = row; *p != '\0'; p++)
			if (!(*p == ' ' || *p == '\t' || *p == '\n') ||
			    (q > row && q[-1] != ' '))
				*q++ = *p == '\t' || *p == '\n' ? ' ' : *p;
		*q = '\0';
		n = strlen(row);
		out = realloc(out, len + n + 2);
		ck_assert_ptr_nonnull(out);
		memcpy(out + len, row, n);
		out[len + n] = '\n';
		out[len + n + 1] = '\0';
		len += n + 1;
		free(row);
	}
	sqlite3_finalize(s);
	return out != NULL ? out : strdup("");
}

static char *
schema_of_file(const char *path)
{
	sqlite3 *db;
	char *out;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	out = schema_of(db);
	sqlite3_close(db);
	return out;
}

/* Fail unless schemas a and b are the same, naming the first difference. */
static void
same_schema(const char *a, const char *b, const char *what, int v)
{
	size_t i = 0, start = 0;
	char la[160], lb[160];

	if (strcmp(a, b) == 0)
		return;
	while (a[i] != '\0' && a[i] == b[i])
		if (a[i++] == '\n')
			start = i;
	snprintf(la, sizeof la, "%.*s", (int)strcspn(a + start, "\n"),
	    a + start);
	snprintf(lb, sizeof lb, "%.*s", (int)strcspn(b + start, "\n"),
	    b + start);
	ck_abort_msg("%s %d: has \"%s\" where the other has \"%s\"", what,
	    v, la, lb);
}

/* A database at version v as migrations[] builds it today. */
static void
build_by_migrations(const char *path, int v)
{
	struct store raw;
	struct pl_err err;

	memset(&raw, 0, sizeof raw);
	raw.path = (char *)path;
	ck_assert_int_eq(sqlite3_open(path, &raw.db), SQLITE_OK);
	ck_assert_msg(store_migrate_to(&raw, v, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(store_schema_version(&raw), v);
	sqlite3_close(raw.db);
}

/* The frozen schema of version v (tests/data/schema/vN.sql). */
static char *
frozen_sql(int v)
{
	char path[1024];
	unsigned char *buf;
	size_t len;

	snprintf(path, sizeof path, "%s/tests/data/schema/v%d.sql",
	    TOP_SRCDIR, v);
	buf = slurp(path, &len);
	buf[len] = '\0';
	return (char *)buf;
}

START_TEST(test_migrate_paths)
{
	struct store *st;
	char path[600], *fresh, *got, *sql, *frozen;
	int v;

	snprintf(path, sizeof path, "%s/fresh.db", dir);
	st = open_ok(path);
	fresh = schema_of(st->db);
	store_close(st);
	ck_assert_ptr_nonnull(strstr(fresh, "table scenario_tradeoffs "));
	for (v = 1; v < STORE_SCHEMA_VERSION; v++) {
		/* As an older parlearn left it: the frozen schema of v. */
		snprintf(path, sizeof path, "%s/frozen%d.db", dir, v);
		sql = frozen_sql(v);
		raw_exec(path, sql);
		free(sql);
		frozen = schema_of_file(path);
		st = open_ok(path);
		ck_assert_int_eq(store_schema_version(st),
		    STORE_SCHEMA_VERSION);
		got = schema_of(st->db);
		store_close(st);
		same_schema(got, fresh, "upgraded (vs. fresh) from version", v);
		free(got);
		/* migrations[] still builds exactly that version: a shipped
		 * migration was not edited or moved. */
		snprintf(path, sizeof path, "%s/built%d.db", dir, v);
		build_by_migrations(path, v);
		got = schema_of_file(path);
		same_schema(got, frozen, "migrations (vs. tests/data/schema) "
		    "up to", v);
		free(got);
		free(frozen);
		st = open_ok(path);
		got = schema_of(st->db);
		store_close(st);
		same_schema(got, fresh, "migrated (vs. fresh) from built "
		    "version", v);
		free(got);
	}
	free(fresh);
}
END_TEST

START_TEST(test_migrate_reopen_keeps_rows)
{
	struct store *st;
	struct pl_err err;
	int64_t p;
	int n, last;

	st = open_ok(dbpath);
	p = profile(st, "ada");
	ck_assert_int_eq(answer(st, p, "drop-01", "q1", 1), 1);
	store_close(st);
	st = open_ok(dbpath);
	ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	/* Running the migrations again is a no-op. */
	ck_assert_int_eq(store_migrate(st, &err), 0);
	ck_assert_int_eq(profile(st, "ada"), p);
	ck_assert_int_eq(store_answer_stats(st, p, "drop-01", "q1", &n, &last,
	    &err), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(last, 1);
	ck_assert_int_eq(answer(st, p, "drop-01", "q1", 0), 2);
	store_close(st);
}
END_TEST

/* store_open on path must fail and leave its bytes exactly as they were. */
static void
assert_refused(const char *path, const char *msg_part)
{
	unsigned char *before, *after;
	size_t n_before, n_after;
	struct pl_err err;
	struct store *st;
	int same;

	before = slurp(path, &n_before);
	memset(&err, 0, sizeof err);
	st = store_open(path, &err);
	ck_assert_ptr_null(st);
	ck_assert_msg(err.msg[0] != '\0', "no error message");
	if (msg_part != NULL)
		ck_assert_msg(strstr(err.msg, msg_part) != NULL,
		    "\"%s\" does not mention \"%s\"", err.msg, msg_part);
	after = slurp(path, &n_after);
	same = n_after == n_before && memcmp(before, after, n_before) == 0;
	free(before);
	free(after);
	ck_assert_msg(same, "%s changed by a refused store_open", path);
}

START_TEST(test_migrate_newer_refused)
{
	char sql[128], want[64], path[600];
	sqlite3 *db;

	/*
	 * Refused before anything is written: even the switch to WAL
	 * would change header bytes 18-19.
	 */
	snprintf(path, sizeof path, "%s/newer.db", dir);
	snprintf(sql, sizeof sql, "CREATE TABLE future (x);"
	    "PRAGMA user_version = %d;", STORE_SCHEMA_VERSION + 1);
	raw_exec(path, sql);
	snprintf(want, sizeof want, "%d", STORE_SCHEMA_VERSION + 1);
	assert_refused(path, want);
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version;"),
	    STORE_SCHEMA_VERSION + 1);
	ck_assert_int_eq(q_int(db, "SELECT COUNT(*) FROM sqlite_master "
	    "WHERE name = 'profiles';"), 0);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_migrate_newer_wal_refused)
{
	char sql[128], want[64], path[600];

	/* Already in WAL mode, so only the version check can protect it. */
	snprintf(path, sizeof path, "%s/newer-wal.db", dir);
	snprintf(sql, sizeof sql, "PRAGMA journal_mode = WAL;"
	    "CREATE TABLE future (x); PRAGMA user_version = %d;",
	    STORE_SCHEMA_VERSION + 5);
	raw_exec(path, sql);
	snprintf(want, sizeof want, "%d", STORE_SCHEMA_VERSION + 5);
	assert_refused(path, want);
}
END_TEST

START_TEST(test_migrate_garbage_refused)
{
	char junk[4096], path[600];
	size_t i;

	snprintf(path, sizeof path, "%s/junk.db", dir);
	for (i = 0; i < sizeof junk; i++)
		junk[i] = "this is not a database, just text. "[i % 35];
	spit(path, junk, sizeof junk);
	assert_refused(path, NULL);
}
END_TEST

/* --- round trip --------------------------------------------------------- */

START_TEST(test_rt_profiles)
{
	struct store *st;
	int64_t a, b;

	st = open_ok(dbpath);
	a = profile(st, "ada");
	b = profile(st, "grace");
	ck_assert_int_gt(a, 0);
	ck_assert_int_ne(a, b);
	ck_assert_int_eq(profile(st, "ada"), a);
	ck_assert_int_eq(profile(st, "grace"), b);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM profiles;"), 2);
	ck_assert_int_eq(q_int(st->db, "SELECT created FROM profiles "
	    "WHERE name = 'ada';"), 1000);
	store_close(st);
}
END_TEST

/* Profile names: up to 64 characters (not bytes), no control character. */
START_TEST(test_rt_profile_names)
{
	struct store *st;
	struct pl_err err;
	char name[300];
	int64_t id;
	int i;

	st = open_ok(dbpath);
	for (i = 0; i < 64; i++)
		memcpy(name + 2 * i, "\303\251", 2);	/* e-acute */
	name[128] = '\0';
	ck_assert_int_eq(store_profile(st, name, 1000, &id, &err), 0);
	memcpy(name + 128, "e", 2);
	ck_assert_int_eq(store_profile(st, name, 1000, &id, &err), -1);
	ck_assert_int_eq(store_profile(st, "ada\033]0;owned\007", 1000, &id,
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "control character"));
	ck_assert_int_eq(store_profile(st, "a\302\233" "6n", 1000, &id, &err),
	    -1);
	ck_assert_int_eq(store_profile(st, "", 1000, &id, &err), -1);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM profiles;"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_rt_visit)
{
	struct store_drop_progress p;
	struct pl_err err;
	struct store *st;
	int64_t a, b;

	st = open_ok(dbpath);
	a = profile(st, "ada");
	b = profile(st, "grace");
	ck_assert_int_eq(store_drop_get(st, a, "drop-01", &p, &err), 0);
	ck_assert_int_eq(p.status, CURRICULUM_NEW);
	ck_assert_int_eq(p.started + p.finished + p.seconds + p.last_seen, 0);
	ck_assert_int_eq(p.position, 0);
	ck_assert_int_eq(store_drop_visit(st, a, "drop-01", 2, 30, 1000, &err),
	    0);
	ck_assert_int_eq(store_drop_visit(st, a, "drop-01", 5, 45, 2000, &err),
	    0);
	ck_assert_int_eq(store_drop_visit(st, a, "drop-01", 4, -10, 2500,
	    &err), 0);			/* negative time adds nothing */
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(store_drop_get(st, a, "drop-01", &p, &err), 0);
	ck_assert_int_eq(p.status, CURRICULUM_STARTED);
	ck_assert_int_eq(p.started, 1000);
	ck_assert_int_eq(p.last_seen, 2500);
	ck_assert_int_eq(p.position, 4);
	ck_assert_int_eq(p.seconds, 75);
	ck_assert_int_eq(p.finished, 0);
	/* Another profile's progress is its own. */
	ck_assert_int_eq(store_drop_get(st, b, "drop-01", &p, &err), 0);
	ck_assert_int_eq(p.status, CURRICULUM_NEW);
	store_close(st);
}
END_TEST

START_TEST(test_rt_finish)
{
	struct store_drop_progress p;
	struct pl_err err;
	struct store *st;
	int64_t a;

	st = open_ok(dbpath);
	a = profile(st, "ada");
	ck_assert_int_eq(store_drop_visit(st, a, "drop-01", 1, 60, 1000, &err),
	    0);
	ck_assert_int_eq(store_drop_finish(st, a, "drop-01", 3000, &err), 0);
	ck_assert_int_eq(store_drop_finish(st, a, "drop-01", 4000, &err), 0);
	ck_assert_int_eq(store_drop_get(st, a, "drop-01", &p, &err), 0);
	ck_assert_int_eq(p.status, CURRICULUM_READ);
	ck_assert_int_eq(p.started, 1000);
	ck_assert_int_eq(p.finished, 3000);
	ck_assert_int_eq(p.seconds, 60);
	/* A later visit moves the position, never back to STARTED. */
	ck_assert_int_eq(store_drop_visit(st, a, "drop-01", 7, 5, 5000, &err),
	    0);
	ck_assert_int_eq(store_drop_get(st, a, "drop-01", &p, &err), 0);
	ck_assert_int_eq(p.status, CURRICULUM_READ);
	ck_assert_int_eq(p.finished, 3000);
	ck_assert_int_eq(p.position, 7);
	ck_assert_int_eq(p.seconds, 65);
	ck_assert_int_eq(p.last_seen, 5000);
	/* Finishing a drop never opened starts and finishes it at once. */
	ck_assert_int_eq(store_drop_finish(st, a, "drop-02", 6000, &err), 0);
	ck_assert_int_eq(store_drop_get(st, a, "drop-02", &p, &err), 0);
	ck_assert_int_eq(p.status, CURRICULUM_READ);
	ck_assert_int_eq(p.started, 6000);
	ck_assert_int_eq(p.finished, 6000);
	ck_assert(sqlite3_get_autocommit(st->db));
	store_close(st);
}
END_TEST

START_TEST(test_rt_last_drop)
{
	struct pl_err err;
	struct store *st;
	char buf[64];
	int64_t a, b;

	st = open_ok(dbpath);
	a = profile(st, "ada");
	b = profile(st, "grace");
	ck_assert_int_eq(store_last_drop(st, a, buf, sizeof buf, &err), 0);
	ck_assert_int_eq(store_drop_visit(st, a, "drop-01", 0, 0, 100, &err),
	    0);
	ck_assert_int_eq(store_drop_visit(st, a, "drop-02", 0, 0, 100, &err),
	    0);			/* same second: still the later call wins */
	ck_assert_int_eq(store_last_drop(st, a, buf, sizeof buf, &err), 1);
	ck_assert_str_eq(buf, "drop-02");
	ck_assert_int_eq(store_drop_visit(st, a, "drop-01", 3, 0, 100, &err),
	    0);
	ck_assert_int_eq(store_last_drop(st, a, buf, sizeof buf, &err), 1);
	ck_assert_str_eq(buf, "drop-01");
	ck_assert_int_eq(store_last_drop(st, b, buf, sizeof buf, &err), 0);
	store_close(st);
}
END_TEST

START_TEST(test_rt_answers)
{
	struct pl_err err;
	struct store *st;
	char buf[64];
	int64_t a, b;
	int n, last;

	st = open_ok(dbpath);
	a = profile(st, "ada");
	b = profile(st, "grace");
	ck_assert_int_eq(answer(st, a, "drop-01", "q1", 0), 1);
	ck_assert_int_eq(answer(st, a, "drop-01", "q1", 0), 2);
	ck_assert_int_eq(answer(st, b, "drop-01", "q1", 1), 1);
	ck_assert_int_eq(answer(st, a, "drop-01", "q1", 1), 3);
	ck_assert_int_eq(answer(st, a, "drop-01", "q2", 0), 1);
	ck_assert_int_eq(answer(st, a, "drop-02", "q1", 1), 1);
	ck_assert_int_eq(store_answer_stats(st, a, "drop-01", "q1", &n, &last,
	    &err), 0);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(last, 1);
	ck_assert_int_eq(store_answer_stats(st, a, "drop-01", "q2", &n, &last,
	    &err), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(last, 0);
	ck_assert_int_eq(store_answer_stats(st, b, "drop-01", "q2", &n, &last,
	    &err), 0);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(last, 0);
	/* What was stored, column by column; NULL response becomes "". */
	ck_assert_int_eq(store_answer_add(st, b, "drop-01", "q9", 1, NULL,
	    2.25, 4242, NULL, &err), 0);
	ck_assert_str_eq(q_text(st->db, "SELECT response || '|' || seconds || "
	    "'|' || answered || '|' || attempt || '|' || correct FROM answers "
	    "WHERE question_id = 'q9';", buf, sizeof buf), "|2.25|4242|1|1");
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM answers;"), 7);
	store_close(st);
}
END_TEST

START_TEST(test_rt_settings)
{
	struct pl_err err;
	struct store *st;
	char buf[64];
	int64_t a, b;

	st = open_ok(dbpath);
	a = profile(st, "ada");
	b = profile(st, "grace");
	strcpy(buf, "untouched");
	ck_assert_int_eq(store_setting_get(st, a, "theme", buf, sizeof buf,
	    &err), 0);
	ck_assert_int_eq(store_setting_set(st, a, "theme", "dark", &err), 0);
	ck_assert_int_eq(store_setting_get(st, a, "theme", buf, sizeof buf,
	    &err), 1);
	ck_assert_str_eq(buf, "dark");
	ck_assert_int_eq(store_setting_set(st, a, "theme", "light", &err), 0);
	ck_assert_int_eq(store_setting_get(st, a, "theme", buf, sizeof buf,
	    &err), 1);
	ck_assert_str_eq(buf, "light");
	ck_assert_int_eq(store_setting_get(st, b, "theme", buf, sizeof buf,
	    &err), 0);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM settings "
	    "WHERE key = 'theme';"), 1);
	ck_assert(sqlite3_get_autocommit(st->db));
	store_close(st);
}
END_TEST

/* store_step_text: one text column, NULL as "", no row, a bad step. */
START_TEST(test_step_text)
{
	struct pl_err err;
	struct store *st;
	sqlite3_stmt *s;
	char buf[8];

	st = open_ok(dbpath);
	ck_assert_int_eq(store_prepare(st, "SELECT 'pipeline';", &s, &err), 0);
	ck_assert_int_eq(store_step_text(st, s, buf, sizeof buf, &err), 1);
	ck_assert_str_eq(buf, "pipelin");	/* cut to the buffer */
	strcpy(buf, "old");
	ck_assert_int_eq(store_prepare(st, "SELECT NULL;", &s, &err), 0);
	ck_assert_int_eq(store_step_text(st, s, buf, sizeof buf, &err), 1);
	ck_assert_str_eq(buf, "");
	strcpy(buf, "old");
	ck_assert_int_eq(store_prepare(st, "SELECT 'x' WHERE 0;", &s, &err),
	    0);
	ck_assert_int_eq(store_step_text(st, s, buf, sizeof buf, &err), 0);
	ck_assert_str_eq(buf, "");
	/* A step that fails (an integer overflow in SQL) sets err. */
	pl_err_clear(&err);
	ck_assert_int_eq(store_prepare(st, "SELECT abs(-9223372036854775807 "
	    "- 1);", &s, &err), 0);
	ck_assert_int_eq(store_step_text(st, s, buf, sizeof buf, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "overflow"));
	ck_assert(sqlite3_get_autocommit(st->db));
	store_close(st);
}
END_TEST

START_TEST(test_rt_course_status)
{
	static const char *const ids[] = { "drop-01", "drop-02", "drop-03" };
	enum curriculum_status status[3];
	struct content_course *c;
	struct pl_err err;
	struct store *st;
	int64_t a, b;
	int last;
	size_t i;

	c = calloc(1, sizeof *c);
	ck_assert_ptr_nonnull(c);
	c->drops = calloc(3, sizeof *c->drops);
	ck_assert_ptr_nonnull(c->drops);
	c->n_drops = 3;
	for (i = 0; i < 3; i++) {
		c->drops[i].id = (char *)ids[i];
		c->drops[i].number = (int)i + 1;
		c->drops[i].phase = 1;
	}
	st = open_ok(dbpath);
	a = profile(st, "ada");
	b = profile(st, "grace");
	ck_assert_int_eq(store_drop_visit(st, a, "drop-02", 1, 5, 10, &err), 0);
	ck_assert_int_eq(store_drop_finish(st, a, "drop-01", 20, &err), 0);
	ck_assert_int_eq(store_course_status(st, a, c, status, &last, &err),
	    0);
	ck_assert_int_eq(status[0], CURRICULUM_READ);
	ck_assert_int_eq(status[1], CURRICULUM_STARTED);
	ck_assert_int_eq(status[2], CURRICULUM_NEW);
	ck_assert_int_eq(last, 1);	/* finishing is not a visit */
	ck_assert_int_eq(store_course_status(st, b, c, status, &last, &err),
	    0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(status[i], CURRICULUM_NEW);
	ck_assert_int_eq(last, -1);
	/* A last drop that is no longer in the course gives -1. */
	ck_assert_int_eq(store_drop_visit(st, b, "drop-gone", 0, 0, 30, &err),
	    0);
	ck_assert_int_eq(store_course_status(st, b, c, status, &last, &err),
	    0);
	ck_assert_int_eq(last, -1);
	store_close(st);
	free(c->drops);
	free(c);
}
END_TEST

/* --- concurrency -------------------------------------------------------- */

/* One child's work; returns its exit status (0 when every call worked). */
static int
child_work(int k, int go)
{
	struct pl_err err;
	struct store *st;
	char q[16], drop[16];
	int64_t p;
	int i;

	if (read(go, q, 1) < 0)	/* wait until every child is ready */
		return 3;
	st = store_open(dbpath, &err);
	if (st == NULL) {
		fprintf(stderr, "child %d: open: %s\n", k, err.msg);
		return 1;
	}
	if (store_profile(st, k % 2 == 0 ? "even" : "odd", k, &p, &err) != 0)
		goto fail;
	for (i = 0; i < N_ANSWERS; i++) {
		snprintf(q, sizeof q, "q%d", i % 5);
		if (store_answer_add(st, p, "drop-01", q, i % 3 == 0, "r", 1.0,
		    i, NULL, &err) != 0)
			goto fail;
		if (i % (N_ANSWERS / N_VISITS) != 0)
			continue;
		snprintf(drop, sizeof drop, "drop-%02d", i % 3);
		if (store_drop_visit(st, p, drop, i, 1, i, &err) != 0)
			goto fail;
	}
	store_close(st);
	return 0;
fail:
	fprintf(stderr, "child %d: %s\n", k, err.msg);
	store_close(st);
	return 2;
}

START_TEST(test_conc_processes)
{
	pid_t pids[N_CHILDREN];
	struct store *st;
	int go[2], k, status;

	/* Created first: racing creation is test_conc_first_open's job. */
	store_close(open_ok(dbpath));
	ck_assert_int_eq(pipe(go), 0);
	for (k = 0; k < N_CHILDREN; k++) {
		pids[k] = fork();
		ck_assert_int_ge(pids[k], 0);
		if (pids[k] == 0) {
			close(go[1]);
			_exit(child_work(k, go[0]));
		}
	}
	close(go[0]);
	close(go[1]);			/* release them all at once */
	for (k = 0; k < N_CHILDREN; k++) {
		ck_assert_int_eq(waitpid(pids[k], &status, 0), pids[k]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "child %d failed (status %#x)", k, status);
	}
	st = open_ok(dbpath);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM answers;"),
	    N_CHILDREN * N_ANSWERS);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM profiles;"), 2);
	/* 2 profiles x 5 questions, each answered 4 x 10 times. */
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM (SELECT 1 FROM "
	    "answers GROUP BY profile_id, drop_id, question_id);"), 10);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM (SELECT "
	    "COUNT(*) AS n, COUNT(DISTINCT attempt) AS d, MIN(attempt) AS lo, "
	    "MAX(attempt) AS hi FROM answers GROUP BY profile_id, drop_id, "
	    "question_id) WHERE n = 40 AND d = n AND lo = 1 AND hi = n;"), 10);
	ck_assert_int_eq(q_int(st->db, "SELECT SUM(seconds) FROM "
	    "drop_progress;"), N_CHILDREN * N_VISITS);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM drop_progress;"),
	    6);
	store_close(st);
}
END_TEST

/* Start n children that each open and close path; 1 if all succeeded. */
static int
race_open(const char *path, int n)
{
	pid_t pids[N_CHILDREN];
	struct pl_err err;
	struct store *st;
	int go[2], k, status, ok = 1;

	ck_assert_int_eq(pipe(go), 0);
	for (k = 0; k < n; k++) {
		pids[k] = fork();
		ck_assert_int_ge(pids[k], 0);
		if (pids[k] != 0)
			continue;
		close(go[1]);
		if (read(go[0], &status, 1) < 0)
			_exit(3);
		st = store_open(path, &err);
		if (st == NULL)
			fprintf(stderr, "racer %d: open: %s\n", k, err.msg);
		store_close(st);
		_exit(st == NULL ? 1 : 0);
	}
	close(go[0]);
	close(go[1]);
	for (k = 0; k < n; k++) {
		ck_assert_int_eq(waitpid(pids[k], &status, 0), pids[k]);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			ok = 0;
	}
	return ok;
}

START_TEST(test_conc_first_open)
{
	struct store *st;
	char path[600];
	int round, failed = 0;

	/*
	 * Several processes creating the database at once: the switch to
	 * WAL does not wait on the busy handler, so store_open retries it.
	 */
	for (round = 0; round < 20; round++) {
		snprintf(path, sizeof path, "%s/r%d/progress.db", dir, round);
		if (!race_open(path, N_CHILDREN))
			failed++;
		st = open_ok(path);
		ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
		store_close(st);
	}
	ck_assert_msg(failed == 0, "%d of 20 rounds had a failed open",
	    failed);
}
END_TEST

START_TEST(test_conc_two_handles)
{
	struct store *a, *b;
	struct pl_err err;
	char buf[32];
	int64_t pa, pb;
	int n, last;

	a = open_ok(dbpath);
	b = open_ok(dbpath);
	pa = profile(a, "ada");
	pb = profile(b, "ada");
	ck_assert_int_eq(pa, pb);
	ck_assert_int_eq(store_setting_set(a, pa, "k", "from a", &err), 0);
	ck_assert_int_eq(store_setting_get(b, pb, "k", buf, sizeof buf, &err),
	    1);
	ck_assert_str_eq(buf, "from a");
	ck_assert_int_eq(answer(a, pa, "drop-01", "q1", 0), 1);
	ck_assert_int_eq(answer(b, pb, "drop-01", "q1", 1), 2);
	ck_assert_int_eq(answer(a, pa, "drop-01", "q1", 0), 3);
	ck_assert_int_eq(store_answer_stats(b, pb, "drop-01", "q1", &n, &last,
	    &err), 0);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(last, 0);
	store_close(a);
	store_close(b);
}
END_TEST

/* --- transactions ------------------------------------------------------- */

START_TEST(test_tx_foreign_key)
{
	struct pl_err err;
	struct store *st;
	int64_t p;
	int attempt = -7;

	st = open_ok(dbpath);
	p = profile(st, "ada");
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(store_answer_add(st, p + 99, "drop-01", "q1", 1, "x",
	    1.0, 10, &attempt, &err), -1);
	ck_assert_msg(strstr(err.msg, "FOREIGN KEY") != NULL, "%s", err.msg);
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM answers;"), 0);
	ck_assert_int_eq(store_drop_visit(st, p + 99, "drop-01", 0, 1, 10,
	    &err), -1);
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(store_drop_finish(st, p + 99, "drop-01", 10, &err),
	    -1);
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(store_setting_set(st, p + 99, "k", "v", &err), -1);
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(q_int(st->db, "SELECT (SELECT COUNT(*) FROM "
	    "drop_progress) + (SELECT COUNT(*) FROM settings);"), 0);
	/* Still usable, and the failed answer did not count as an attempt. */
	ck_assert_int_eq(answer(st, p, "drop-01", "q1", 1), 1);
	store_close(st);
}
END_TEST

START_TEST(test_tx_partial_rolled_back)
{
	struct store_drop_progress dp;
	struct pl_err err;
	struct store *st;
	int64_t p;

	st = open_ok(dbpath);
	p = profile(st, "ada");
	/* Make the second statement of store_drop_visit fail. */
	ck_assert_int_eq(sqlite3_exec(st->db, "CREATE TEMP TRIGGER block "
	    "BEFORE INSERT ON settings BEGIN SELECT RAISE(ABORT, 'blocked'); "
	    "END;", NULL, NULL, NULL), SQLITE_OK);
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(store_drop_visit(st, p, "drop-01", 3, 30, 10, &err),
	    -1);
	ck_assert_msg(strstr(err.msg, "blocked") != NULL, "%s", err.msg);
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(store_drop_get(st, p, "drop-01", &dp, &err), 0);
	ck_assert_int_eq(dp.status, CURRICULUM_NEW);
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM drop_progress;"),
	    0);
	ck_assert_int_eq(sqlite3_exec(st->db, "DROP TRIGGER block;", NULL,
	    NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(store_drop_visit(st, p, "drop-01", 3, 30, 10, &err),
	    0);
	ck_assert_int_eq(store_drop_get(st, p, "drop-01", &dp, &err), 0);
	ck_assert_int_eq(dp.seconds, 30);
	store_close(st);
}
END_TEST

START_TEST(test_tx_locked)
{
	struct pl_err err;
	struct store *a, *b;
	int64_t p;
	char buf[8];
	int n, last;

	a = open_ok(dbpath);
	b = open_ok(dbpath);
	p = profile(a, "ada");
	/* b holds the write lock; a gives up after 50 ms, not 5 s. */
	ck_assert_int_eq(store_begin(b, &err), 0);
	sqlite3_busy_timeout(a->db, 50);
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(store_answer_add(a, p, "drop-01", "q1", 1, "x", 1.0,
	    10, NULL, &err), -1);
	ck_assert_msg(strstr(err.msg, "locked") != NULL, "%s", err.msg);
	ck_assert(sqlite3_get_autocommit(a->db));
	ck_assert_int_eq(store_setting_set(a, p, "k", "v", &err), -1);
	ck_assert(sqlite3_get_autocommit(a->db));
	/* Readers are not blocked by a writer in WAL mode. */
	ck_assert_int_eq(store_setting_get(a, p, "k", buf, sizeof buf, &err),
	    0);
	store_rollback(b);
	ck_assert(sqlite3_get_autocommit(b->db));
	ck_assert_int_eq(answer(a, p, "drop-01", "q1", 1), 1);
	ck_assert_int_eq(store_answer_stats(b, p, "drop-01", "q1", &n, &last,
	    &err), 0);
	ck_assert_int_eq(n, 1);
	store_close(a);
	store_close(b);
}
END_TEST

START_TEST(test_tx_explicit)
{
	struct pl_err err;
	struct store *st;
	int64_t p;

	st = open_ok(dbpath);
	p = profile(st, "ada");
	ck_assert_int_eq(p, 1);		/* the rows below use profile 1 */
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert(!sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(store_exec(st, "INSERT INTO settings VALUES "
	    "(1, 'a', 'b');", &err), 0);
	store_rollback(st);
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM settings;"), 0);
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert_int_eq(store_exec(st, "INSERT INTO settings VALUES "
	    "(1, 'a', 'b');", &err), 0);
	ck_assert_int_eq(store_commit(st, &err), 0);
	ck_assert(sqlite3_get_autocommit(st->db));
	ck_assert_int_eq(q_int(st->db, "SELECT COUNT(*) FROM settings;"), 1);
	ck_assert_int_eq(store_exec(st, "SELECT nonsense FROM nowhere;", &err),
	    -1);
	ck_assert_msg(strstr(err.msg, "nowhere") != NULL, "%s", err.msg);
	ck_assert(sqlite3_get_autocommit(st->db));
	store_close(st);
}
END_TEST

static Suite *
store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc;

	tc = tcase_create("create");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_private);
	tcase_add_test(tc, test_create_pragmas);
	tcase_add_test(tc, test_create_default_path);
	suite_add_tcase(s, tc);
	tc = tcase_create("migrate");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_migrate_version0);
	tcase_add_test(tc, test_migrate_paths);
	tcase_add_test(tc, test_migrate_reopen_keeps_rows);
	tcase_add_test(tc, test_migrate_newer_refused);
	tcase_add_test(tc, test_migrate_newer_wal_refused);
	tcase_add_test(tc, test_migrate_garbage_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("round trip");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rt_profiles);
	tcase_add_test(tc, test_rt_profile_names);
	tcase_add_test(tc, test_rt_visit);
	tcase_add_test(tc, test_rt_finish);
	tcase_add_test(tc, test_rt_last_drop);
	tcase_add_test(tc, test_rt_answers);
	tcase_add_test(tc, test_rt_settings);
	tcase_add_test(tc, test_step_text);
	tcase_add_test(tc, test_rt_course_status);
	suite_add_tcase(s, tc);
	tc = tcase_create("concurrency");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_conc_processes);
	tcase_add_test(tc, test_conc_first_open);
	tcase_add_test(tc, test_conc_two_handles);
	suite_add_tcase(s, tc);
	tc = tcase_create("transactions");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tx_foreign_key);
	tcase_add_test(tc, test_tx_partial_rolled_back);
	tcase_add_test(tc, test_tx_locked);
	tcase_add_test(tc, test_tx_explicit);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(store_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
