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
	/* 1 -> 2: flashcard state, the review log, the learner's own cards
	 * and two aggregates the triggers keep in step with the log, so the
	 * statistics never scan the log (store/cards.h). */
	"CREATE TABLE cards ("
	"  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"
	"  card_id TEXT NOT NULL,"
	"  seed INTEGER NOT NULL,"
	"  state INTEGER NOT NULL DEFAULT 0 CHECK (state BETWEEN 0 AND 3),"
	"  step INTEGER NOT NULL DEFAULT 0,"
	"  stability REAL NOT NULL DEFAULT 0,"
	"  difficulty REAL NOT NULL DEFAULT 0,"
	"  due INTEGER NOT NULL,"
	"  last_review INTEGER NOT NULL DEFAULT 0,"
	"  reps INTEGER NOT NULL DEFAULT 0,"
	"  lapses INTEGER NOT NULL DEFAULT 0,"
	"  added INTEGER NOT NULL,"
	"  PRIMARY KEY (profile_id, card_id));"
	"CREATE INDEX cards_by_due ON cards (profile_id, due, state);"
	"CREATE TABLE review_log ("
	"  id INTEGER PRIMARY KEY,"
	"  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"
	"  card_id TEXT NOT NULL,"
	"  reviewed INTEGER NOT NULL,"
	"  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),"
	"  duration_ms INTEGER NOT NULL DEFAULT 0,"
	"  elapsed_days INTEGER NOT NULL,"
	"  scheduled_days INTEGER NOT NULL,"
	"  scheduled_s INTEGER NOT NULL,"
	"  state_before INTEGER NOT NULL,"
	"  state_after INTEGER NOT NULL,"
	"  s_before REAL NOT NULL,"
	"  d_before REAL NOT NULL,"
	"  s_after REAL NOT NULL,"
	"  d_after REAL NOT NULL);"
	"CREATE INDEX review_log_by_card ON review_log (profile_id, card_id, id);"
	"CREATE INDEX review_log_by_time"
	"  ON review_log (profile_id, reviewed, state_before);"
	"CREATE TABLE user_cards ("
	"  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"
	"  card_id TEXT NOT NULL,"
	"  deck TEXT NOT NULL,"
	"  front TEXT NOT NULL,"
	"  back TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  PRIMARY KEY (profile_id, card_id));"
	"CREATE INDEX user_cards_by_deck ON user_cards (profile_id, deck);"
	"CREATE TABLE review_slots ("
	"  profile_id INTEGER NOT NULL,"
	"  slot INTEGER NOT NULL,"
	"  n INTEGER NOT NULL,"
	"  PRIMARY KEY (profile_id, slot)) WITHOUT ROWID;"
	"CREATE TABLE review_retention ("
	"  profile_id INTEGER NOT NULL,"
	"  day INTEGER NOT NULL,"
	"  bucket INTEGER NOT NULL,"
	"  n INTEGER NOT NULL,"
	"  passed INTEGER NOT NULL,"
	"  PRIMARY KEY (profile_id, day, bucket)) WITHOUT ROWID;"
	"CREATE TRIGGER review_log_add AFTER INSERT ON review_log BEGIN"
	"  INSERT INTO review_slots VALUES (NEW.profile_id, NEW.reviewed / 1800, 1)"
	"    ON CONFLICT (profile_id, slot) DO UPDATE SET n = n + 1;"
	"  INSERT INTO review_retention SELECT NEW.profile_id, NEW.reviewed / 86400,"
	"    CASE WHEN NEW.elapsed_days < 7 THEN 0 WHEN NEW.elapsed_days < 21 THEN 1"
	"    WHEN NEW.elapsed_days < 90 THEN 2 ELSE 3 END,"
	"    1, NEW.rating > 1 WHERE NEW.state_before = 2"
	"    ON CONFLICT (profile_id, day, bucket) DO UPDATE SET"
	"    n = n + 1, passed = passed + excluded.passed;"
	"END;"
	"CREATE TRIGGER review_log_del AFTER DELETE ON review_log BEGIN"
	"  UPDATE review_slots SET n = n - 1"
	"    WHERE profile_id = OLD.profile_id AND slot = OLD.reviewed / 1800;"
	"  UPDATE review_retention SET n = n - 1, passed = passed - (OLD.rating > 1)"
	"    WHERE OLD.state_before = 2 AND profile_id = OLD.profile_id"
	"    AND day = OLD.reviewed / 86400 AND bucket ="
	"    CASE WHEN OLD.elapsed_days < 7 THEN 0 WHEN OLD.elapsed_days < 21 THEN 1"
	"    WHEN OLD.elapsed_days < 90 THEN 2 ELSE 3 END;"
	"END;",
	/* 2 -> 3: suspended cards (the card browser, store/cards_browse.h):
	 * kept with their state and log, left out of every queue. */
	("ALTER TABLE cards ADD COLUMN suspended INTEGER NOT NULL DEFAULT 0"
	"  CHECK (suspended IN (0, 1));"),
	/* 3 -> 4: the tags of an imported note (deck import keeps them and
	 * deck export writes them back), space-separated; NULL for none. */
	"ALTER TABLE user_cards ADD COLUMN tags TEXT;",
	/* 4 -> 5: the trade-off a learner writes with a defense (drop 14),
	 * one row per scenario attempt that had one
	 * (store/scenario_tradeoff.h). */
	("CREATE TABLE scenario_tradeoffs ("
	"  answer_id INTEGER PRIMARY KEY"
	"    REFERENCES answers(id) ON DELETE CASCADE,"
	"  text TEXT NOT NULL);"),
	/* 5 -> 6: the grading rule each answer was given under
	 * (core/course/score.h): rows saved before are rule 1, whose
	 * feedback showed the size of a miss; rows saved from now on take
	 * the default, SCORE_RULE. Nothing else is rewritten: scores and
	 * statuses are recomputed from the rows. */
	("ALTER TABLE answers ADD COLUMN rule INTEGER NOT NULL DEFAULT 2;"
	"UPDATE answers SET rule = 1;"),
};

#define N_MIGRATIONS	((int)(sizeof migrations / sizeof migrations[0]))

int
store_migrate(struct store *st, struct pl_err *err)
{
	return store_migrate_to(st, N_MIGRATIONS, err);
}

int
store_migrate_to(struct store *st, int target, struct pl_err *err)
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
	if (target > N_MIGRATIONS)
		target = N_MIGRATIONS;
	for (; v < target; v++) {
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
