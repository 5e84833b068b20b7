/*
 * db.h - the progress database: opening, migrating, transactions.
 *
 * One SQLite file per user (default $XDG_DATA_HOME/parlearn/progress.db),
 * created with mode 0600 in a 0700 directory, WAL journal, foreign keys on,
 * a busy timeout so several parlearn processes can share it. The schema
 * version is PRAGMA user_version; store_open() migrates forward and refuses
 * a database written by a newer parlearn rather than touching it.
 */
#ifndef PARLEARN_STORE_DB_H
#define PARLEARN_STORE_DB_H

#include <sqlite3.h>

#include "core/err.h"

struct store {
	sqlite3	*db;
	char	*path;
	int	 readonly;	/* opened by store_open_read, read-only */
};

/* Schema version this build writes. */
#define STORE_SCHEMA_VERSION	6

/*
 * Open (creating file and parent directories if needed) and migrate.
 * Refuses a database that is a symbolic link, not a regular file or not
 * owned by the caller, and a directory owned by another user (root's is
 * fine unless others may write to it without the sticky bit); a database
 * wider than 0600 is narrowed to it. Returns NULL with err set on failure.
 * Free with store_close().
 */
struct store	*store_open(const char *path, struct pl_err *err);
/*
 * store_open(), creating missing parent directories only when mkdirs is
 * set; else a missing directory is an error (an explicit --db).
 */
struct store	*store_open_dirs(const char *path, int mkdirs,
		    struct pl_err *err);
/*
 * For a command that only reads: store_open_dirs() when the database is
 * missing or both it and its directory can be written; else the file is
 * opened read-only (immutable when its directory cannot hold SQLite's
 * shared-memory file and the write-ahead log holds nothing), with no
 * journal mode set and no migration. One that needs a migration is then
 * refused with that reason. The store's readonly is set: store_profile()
 * only looks a profile up, store_cards_unlock() unlocks nothing.
 */
struct store	*store_open_read(const char *path, int mkdirs,
		    struct pl_err *err);
void		 store_close(struct store *);

/* A migrated database in memory, for fuzzing and tests: no file at all. */
struct store	*store_open_memory(struct pl_err *err);

/* Current PRAGMA user_version, or -1. */
int	store_schema_version(struct store *);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. 0 or -1 with err set. */
int	store_begin(struct store *, struct pl_err *err);
int	store_commit(struct store *, struct pl_err *err);
void	store_rollback(struct store *);

/* Prepare sql into *s (NULL on failure). 0 or -1 with err set. */
int	store_prepare(struct store *, const char *sql, sqlite3_stmt **s,
	    struct pl_err *err);

/* Step s, which returns no rows, and finalize it. 0 or -1 with err set. */
int	store_step_done(struct store *, sqlite3_stmt *s, struct pl_err *err);

/*
 * Step s, which returns at most one row, copy that row's first column as
 * text into buf (truncated to size; "" for SQL NULL or no row) and
 * finalize s. Returns 1 for a row, 0 for none, -1 with err set.
 */
int	store_step_text(struct store *, sqlite3_stmt *s, char *buf,
	    size_t size, struct pl_err *err);

/*
 * End the transaction store_begin() opened: commit when rc is 0, else roll
 * back. Returns 0 after a commit, -1 otherwise.
 */
int	store_end(struct store *, int rc, struct pl_err *err);

/* Run SQL with no result rows. 0 or -1 with err set. */
int	store_exec(struct store *, const char *sql, struct pl_err *err);

/* Fill err with sqlite's last message for this database. Returns -1. */
int	store_fail(struct store *, struct pl_err *err);

/*
 * Default database path: $XDG_DATA_HOME/parlearn/progress.db, else
 * $HOME/.local/share/parlearn/progress.db, the home directory coming from
 * the password database when HOME is unset or empty. Writes into buf;
 * returns 0, or -1 if no home is known.
 */
int	store_default_path(char *buf, size_t size);

#endif
