-- The schema a parlearn of schema version 1 left, frozen: never edit
-- (tests/check_store.c, test_migrate_paths). One statement per entry of
-- sqlite_master, in its order.
CREATE TABLE profiles (  id INTEGER PRIMARY KEY,  name TEXT NOT NULL UNIQUE,  created INTEGER NOT NULL);
CREATE TABLE drop_progress (  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,  drop_id TEXT NOT NULL,  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),  started INTEGER,  finished INTEGER,  seconds INTEGER NOT NULL DEFAULT 0,  position INTEGER NOT NULL DEFAULT 0,  last_seen INTEGER,  PRIMARY KEY (profile_id, drop_id));
CREATE TABLE answers (  id INTEGER PRIMARY KEY,  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,  drop_id TEXT NOT NULL,  question_id TEXT NOT NULL,  attempt INTEGER NOT NULL,  correct INTEGER NOT NULL,  response TEXT NOT NULL,  seconds REAL NOT NULL,  answered INTEGER NOT NULL);
CREATE INDEX answers_by_question  ON answers (profile_id, drop_id, question_id);
CREATE TABLE settings (  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,  key TEXT NOT NULL,  value TEXT NOT NULL,  PRIMARY KEY (profile_id, key));
PRAGMA user_version = 1;
