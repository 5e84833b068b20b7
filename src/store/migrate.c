/*
 * migrate.c - the schema, as a list of forward migrations.
 *
 * migrations[i] takes a database from version i to i + 1. Never edit a
 * migration that has shipped; add a new one.
 */
#include <stdio.h>

#include "i18n.h"
#include "store/migrate.h"

static const char *const migrations[] = {
	/* 0 -> 1: profiles, drop progress, answers, settings. */
	"CREATE TABLE profiles ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  created INTEGER NOT NULL);"
	"CREATE TABLE drop_progress ("
	"  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"
	"  drop_id TEXT NOT NULL,"
	"  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),"
	"  started INTEGER,"
	"  finished INTEGER,"
	"  seconds INTEGER NOT NULL DEFAULT 0,"
	"  position INTEGER NOT NULL DEFAULT 0,"
	"  last_seen INTEGER,"
	"  PRIMARY KEY (profile_id, drop_id));"
	"CREATE TABLE answers ("
	"  id INTEGER PRIMARY KEY,"
	"  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"
	"  drop_id TEXT NOT NULL,"
	"  question_id TEXT NOT NULL,"
	"  attempt INTEGER NOT NULL,"
	"  correct INTEGER NOT NULL,"
	"  response TEXT NOT NULL,"
	"  seconds REAL NOT NULL,"
	"  answered INTEGER NOT NULL);"
	"CREATE INDEX answers_by_question"
	"  ON answers (profile_id, drop_id, question_id);"
	"CREATE TABLE settings ("
	"  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (profile_id, key));",
};

#define N_MIGRATIONS	((int)(sizeof migrations / sizeof migrations[0]))

int
store_migrate(struct store *st, struct pl_err *err)
{
	char sql[64];
	int v;

	v = store_schema_version(st);
	if (v < 0)
		return store_fail(st, err);
	if (v > N_MIGRATIONS) {
		pl_err_set(err, st->path, 0, 0,
		    _("database has schema version %d, newer than this parlearn (%d); not touching it"),
		    v, N_MIGRATIONS);
		return -1;
	}
	for (; v < N_MIGRATIONS; v++) {
		if (store_begin(st, err) != 0)
			return -1;
		/* Re-read inside the write lock: another process may have
		 * migrated while we waited. */
		if (store_schema_version(st) != v) {
			store_rollback(st);
			v = store_schema_version(st) - 1;
			continue;
		}
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d;", v + 1);
		if (store_exec(st, migrations[v], err) != 0 ||
		    store_exec(st, sql, err) != 0) {
			store_rollback(st);
			return -1;
		}
		if (store_commit(st, err) != 0)
			return -1;
	}
	return 0;
}
