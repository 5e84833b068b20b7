/*
 * db.c - opening the progress database and running statements on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "store/db.h"
#include "store/migrate.h"

#ifdef SQLITE_OPEN_NOFOLLOW
#define OPEN_NOFOLLOW	SQLITE_OPEN_NOFOLLOW	/* SQLite 3.31 */
#else
#define OPEN_NOFOLLOW	0
#endif

int
store_fail(struct store *st, struct pl_err *err)
{
	pl_err_set(err, st != NULL ? st->path : NULL, 0, 0, "%s",
	    st != NULL && st->db != NULL ? sqlite3_errmsg(st->db) :
	    _("database error"));
	return -1;
}

int
store_exec(struct store *st, const char *sql, struct pl_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pl_err_set(err, st->path, 0, 0, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int
store_prepare(struct store *st, const char *sql, sqlite3_stmt **s,
    struct pl_err *err)
{
	*s = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK)
		return store_fail(st, err);
	return 0;
}

int
store_step_done(struct store *st, sqlite3_stmt *s, struct pl_err *err)
{
	int rc = sqlite3_step(s);

	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, err);
}

int
store_step_text(struct store *st, sqlite3_stmt *s, char *buf, size_t size,
    struct pl_err *err)
{
	const unsigned char *t;
	int rc = sqlite3_step(s);

	if (size > 0)
		buf[0] = '\0';
	if (rc == SQLITE_ROW && (t = sqlite3_column_text(s, 0)) != NULL)
		snprintf(buf, size, "%s", (const char *)t);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, err);
	return rc == SQLITE_ROW;
}

int
store_end(struct store *st, int rc, struct pl_err *err)
{
	if (rc != 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}

int
store_begin(struct store *st, struct pl_err *err)
{
	return store_exec(st, "BEGIN IMMEDIATE;", err);
}

int
store_commit(struct store *st, struct pl_err *err)
{
	if (store_exec(st, "COMMIT;", err) != 0) {
		store_rollback(st);
		return -1;
	}
	return 0;
}

void
store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK;", NULL, NULL, NULL);
}

int
store_schema_version(struct store *st)
{
	sqlite3_stmt *s;
	int v = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version;", -1, &s,
	    NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

int
store_default_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	struct passwd *pw;
	int n;

	/* Without HOME, the password database's home, as sh and ssh do. */
	if ((home == NULL || home[0] == '\0') &&
	    (pw = getpwuid(getuid())) != NULL)
		home = pw->pw_dir;

	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, size, "%s/parlearn/progress.db", xdg);
	else if (home != NULL && home[0] != '\0')
		n = snprintf(buf, size, "%s/.local/share/parlearn/progress.db",
		    home);
	else
		return -1;
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* mkdir -p of the directory part of path, new directories mode 0700. */
static int
make_parents(const char *path, struct pl_err *err)
{
	char dir[4096], *p;

	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) {
		pl_err_set(err, path, 0, 0, "%s", _("path is too long"));
		return -1;
	}
	p = strrchr(dir, '/');
	if (p == NULL || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		goto fail;
	return 0;
fail:
	pl_err_set(err, dir, 0, 0, _("cannot create directory: %s"),
	    strerror(errno));
	return -1;
}

/* The directory part of path into dir. */
static void
dir_of(const char *path, char *dir, size_t size)
{
	char *p;

	snprintf(dir, size, "%s", path);
	p = strrchr(dir, '/');
	if (p == NULL)
		snprintf(dir, size, ".");
	else if (p == dir)
		dir[1] = '\0';
	else
		*p = '\0';
}

/*
 * The directory that holds the database must be ours, or root's and then
 * not writable by others unless sticky (/tmp): in a directory another user
 * owns, that user could swap the database under us.
 */
static int
check_dir(const char *path, struct pl_err *err)
{
	char dir[4096];
	struct stat st;

	dir_of(path, dir, sizeof dir);
	if (stat(dir, &st) != 0) {
		pl_err_set(err, dir, 0, 0, "%s", strerror(errno));
		return -1;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		pl_err_set(err, dir, 0, 0, _("the data directory is owned by uid "
		    "%ld, not by you; refusing to keep your progress there"),
		    (long)st.st_uid);
		return -1;
	}
	if (st.st_uid != geteuid() && (st.st_mode & 0022) != 0 &&
	    !(st.st_mode & S_ISVTX)) {
		pl_err_set(err, dir, 0, 0, "%s", _("the data directory is "
		    "writable by other users; refusing to keep your progress "
		    "there"));
		return -1;
	}
	return 0;
}

/*
 * Create or check the database file before SQLite opens it: never through
 * a symbolic link (O_NOFOLLOW), a regular file owned by us, mode 0600 (a
 * file only read is checked, not created or narrowed).
 */
static int
check_private(const char *path, int create, struct pl_err *err)
{
	struct stat st;
	int fd;

	fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ELOOP) {
		pl_err_set(err, path, 0, 0, "%s", _("the database is a symbolic "
		    "link; refusing to follow it (give the real path with --db)"));
		return -1;
	}
	if (fd < 0) {
		pl_err_set(err, path, 0, 0, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		pl_err_set(err, path, 0, 0, "%s",
		    _("the database is not a regular file"));
		close(fd);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		pl_err_set(err, path, 0, 0, _("the database is owned by uid %ld, "
		    "not by you; refusing to open it"), (long)st.st_uid);
		close(fd);
		return -1;
	}
	if (create && (st.st_mode & 07777) != 0600 && fchmod(fd, 0600) != 0) {
		pl_err_set(err, path, 0, 0, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Switching to WAL needs an exclusive lock and does not wait on the busy
 * handler, so when several processes create the database at once the
 * losers see SQLITE_BUSY: retry for up to five seconds.
 */
static int
set_wal(struct store *st, struct pl_err *err)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	char *msg = NULL;
	int rc, tries;

	for (tries = 0; tries < 500; tries++) {
		rc = sqlite3_exec(st->db, "PRAGMA journal_mode = WAL;", NULL,
		    NULL, &msg);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		sqlite3_free(msg);
		msg = NULL;
		nanosleep(&pause, NULL);
	}
	if (rc != SQLITE_OK) {
		pl_err_set(err, st->path, 0, 0, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Refuse, before writing anything, a schema newer than this build's. */
static int
check_not_newer(struct store *st, struct pl_err *err)
{
	int v = store_schema_version(st);

	if (v < 0)
		return store_fail(st, err);
	if (v > STORE_SCHEMA_VERSION) {
		pl_err_set(err, st->path, 0, 0,
		    _("database has schema version %d, newer than this parlearn (%d); not touching it"),
		    v, STORE_SCHEMA_VERSION);
		return -1;
	}
	return 0;
}

static int
configure(struct store *st, struct pl_err *err)
{
	sqlite3_busy_timeout(st->db, 5000);
	if (store_exec(st, "PRAGMA foreign_keys = ON;", err) != 0 ||
	    check_not_newer(st, err) != 0 || set_wal(st, err) != 0)
		return -1;
	return store_exec(st, "PRAGMA synchronous = NORMAL;", err);
}

/* The directory part of path exists, or err names it. */
static int
parent_exists(const char *path, struct pl_err *err)
{
	char dir[4096], *p;
	struct stat st;

	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) {
		pl_err_set(err, path, 0, 0, "%s", _("path is too long"));
		return -1;
	}
	p = strrchr(dir, '/');
	if (p == NULL || p == dir)
		return 0;
	*p = '\0';
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	pl_err_set(err, dir, 0, 0, "%s", _("no such directory; parlearn "
	    "creates no directories for --db (create it first)"));
	return -1;
}

struct store *
store_open(const char *path, struct pl_err *err)
{
	return store_open_dirs(path, 1, err);
}

struct store *
store_open_dirs(const char *path, int mkdirs, struct pl_err *err)
{
	struct store *st;

	if ((mkdirs ? make_parents(path, err) : parent_exists(path, err)) != 0 ||
	    check_dir(path, err) != 0 || check_private(path, 1, err) != 0)
		return NULL;
	st = calloc(1, sizeof *st);
	if (st == NULL)
		return NULL;
	st->path = strdup(path);
	if (st->path == NULL ||
	    sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | OPEN_NOFOLLOW,
	    NULL) != SQLITE_OK) {
		store_fail(st, err);
		store_close(st);
		return NULL;
	}
	if (configure(st, err) != 0 || store_migrate(st, err) != 0) {
		store_close(st);
		return NULL;
	}
	return st;
}

/*
 * SQLite's URI for path, read-only or immutable: "file:" and the path
 * with every byte but [A-Za-z0-9/._~-] percent-encoded.
 */
static int
ro_uri(const char *path, int immutable, char *buf, size_t size)
{
	size_t n;
	int w;

	w = snprintf(buf, size, "file:%s", path[0] == '/' ? "//" : "");
	for (n = (size_t)w; w >= 0 && n < size && *path != '\0'; path++) {
		unsigned char c = (unsigned char)*path;

		w = strchr("/._~-", c) != NULL || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ?
		    snprintf(buf + n, size - n, "%c", c) :
		    snprintf(buf + n, size - n, "%%%02X", c);
		n += (size_t)w;
	}
	if (w >= 0 && n < size)
		w = snprintf(buf + n, size - n, "%s", immutable ?
		    "?immutable=1" : "?mode=ro");
	return w < 0 || n + (size_t)w >= size ? -1 : 0;
}

/* The write-ahead log beside path holds changes not in the file. */
static int
wal_pending(const char *path)
{
	char wal[4200];
	struct stat st;

	snprintf(wal, sizeof wal, "%s-wal", path);
	return stat(wal, &st) == 0 && st.st_size > 0;
}

/*
 * Open path read-only. SQLite reads a WAL database read-only with its
 * -shm file, which a read-only directory cannot hold: then, when the log
 * holds nothing, the file is all there is and is opened immutable.
 * Returns the store and its schema version in *v, or NULL with err set.
 */
static struct store *
open_ro(const char *path, int *v, struct pl_err *err)
{
	struct store *st = NULL;
	char uri[8192];
	int immutable;

	for (immutable = 0; immutable < 2; immutable++) {
		store_close(st);
		if ((st = calloc(1, sizeof *st)) == NULL ||
		    (st->path = strdup(path)) == NULL ||
		    ro_uri(path, immutable, uri, sizeof uri) != 0) {
			store_close(st);
			pl_err_set(err, path, 0, 0, "%s", _("path is too long"));
			return NULL;
		}
		st->readonly = 1;
		if (sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY |
		    SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | OPEN_NOFOLLOW,
		    NULL) == SQLITE_OK && (*v = store_schema_version(st)) >= 0)
			return st;
		if (wal_pending(path))
			break;
	}
	store_fail(st, err);
	store_close(st);
	return NULL;
}

struct store *
store_open_read(const char *path, int mkdirs, struct pl_err *err)
{
	char dir[4096];
	struct stat sb;
	struct store *st;
	int v = -1;

	dir_of(path, dir, sizeof dir);
	/* Missing (created, as any command does) or writable: as ever. */
	if (lstat(path, &sb) != 0 || (faccessat(AT_FDCWD, path, W_OK,
	    AT_EACCESS) == 0 && faccessat(AT_FDCWD, dir, W_OK,
	    AT_EACCESS) == 0))
		return store_open_dirs(path, mkdirs, err);
	if (check_dir(path, err) != 0 || check_private(path, 0, err) != 0 ||
	    (st = open_ro(path, &v, err)) == NULL)
		return NULL;
	sqlite3_busy_timeout(st->db, 5000);
	if (v > STORE_SCHEMA_VERSION)
		check_not_newer(st, err);
	else if (v < STORE_SCHEMA_VERSION)
		pl_err_set(err, path, 0, 0, _("the database is at schema "
		    "version %d and needs upgrading to %d, which needs write "
		    "access, but it or its directory is read-only"), v,
		    STORE_SCHEMA_VERSION);
	else
		return st;
	store_close(st);
	return NULL;
}

struct store *
store_open_memory(struct pl_err *err)
{
	struct store *st = calloc(1, sizeof *st);

	if (st == NULL || (st->path = strdup(":memory:")) == NULL) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		store_close(st);
		return NULL;
	}
	if (sqlite3_open_v2(":memory:", &st->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    store_exec(st, "PRAGMA foreign_keys = ON;", err) != 0 ||
	    store_migrate(st, err) != 0) {
		if (st->db != NULL && err != NULL && err->msg[0] == '\0')
			store_fail(st, err);
		store_close(st);
		return NULL;
	}
	return st;
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}
