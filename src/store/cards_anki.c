/*
 * cards_anki.c - the learner's own decks to and from Anki (cards_anki.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/safetext.h"
#include "store/cards.h"
#include "store/cards_anki.h"

/* The statements one import runs per note. */
struct import_sql {
	sqlite3_stmt	*get;		/* the card's deck, front, back, tags */
	sqlite3_stmt	*add;		/* a new user card */
	sqlite3_stmt	*set;		/* new text and tags for one */
	sqlite3_stmt	*row;		/* its NEW schedule row */
};

static const char *const import_sql_text[4] = {
	"SELECT deck, front, back, COALESCE(tags, '') FROM user_cards "
	"WHERE profile_id = ?1 AND card_id = ?2;",
	"INSERT INTO user_cards (profile_id, card_id, deck, front, back, "
	"created, tags) VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULLIF(?7, ''));",
	"UPDATE user_cards SET front = ?4, back = ?5, tags = NULLIF(?7, '') "
	"WHERE profile_id = ?1 AND card_id = ?2;",
	"INSERT OR IGNORE INTO cards (profile_id, card_id, seed, due, added) "
	"VALUES (?1, ?2, ?3, ?4, ?4);",
};

static void
finalize(struct import_sql *q)
{
	sqlite3_finalize(q->get);
	sqlite3_finalize(q->add);
	sqlite3_finalize(q->set);
	sqlite3_finalize(q->row);
}

/* Whether name may hold imported cards; if not, err says why. */
static int
deck_ok(const struct content_course *c, const char *name, const char *file,
    int line, struct pl_err *err)
{
	size_t i;

	if (name[0] == '\0') {
		pl_err_set(err, file, line, 1, "%s", _("the note names no deck "
		    "(no deck column or #deck header): give --name NAME"));
		return 0;
	}
	if (!safetext_name_ok(name, STORE_DECK_MAX_CHARS)) {
		pl_err_set(err, file, line, 1, _("deck name \"%s\" must be 1 to "
		    "%d characters, none of them a control character"), name,
		    STORE_DECK_MAX_CHARS);
		return 0;
	}
	for (i = 0; c != NULL && i < c->n_decks; i++)
		if (strcmp(c->decks[i].id, name) == 0)
			break;
	if (strcmp(name, STORE_MISTAKES_DECK) == 0 ||
	    (c != NULL && i < c->n_decks)) {
		pl_err_set(err, file, line, 1, _("deck \"%s\" is the course's; "
		    "import into a deck of your own with --name NAME"), name);
		return 0;
	}
	return 1;
}

/* Reset s and bind the key: ?1 profile, ?2 card id. */
static sqlite3_stmt *
keyed(sqlite3_stmt *s, int64_t profile, const char *id)
{
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	sqlite3_bind_int64(s, 1, profile);
	sqlite3_bind_text(s, 2, id, -1, SQLITE_STATIC);
	return s;
}

/* Bind a note: ?3 deck, ?4 front, ?5 back, ?6 now, ?7 tags. */
static sqlite3_stmt *
with_note(sqlite3_stmt *s, const char *deck, const struct anki_note *k,
    int64_t now)
{
	if (sqlite3_bind_parameter_index(s, "?3") > 0)
		sqlite3_bind_text(s, 3, deck, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, k->front, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, k->back, -1, SQLITE_STATIC);
	if (sqlite3_bind_parameter_index(s, "?6") > 0)
		sqlite3_bind_int64(s, 6, now);
	sqlite3_bind_text(s, 7, k->tags, -1, SQLITE_STATIC);
	return s;
}

/* Step a statement that returns no rows, keeping it for the next note. */
static int
step(struct store *st, sqlite3_stmt *s, struct pl_err *err)
{
	return sqlite3_step(s) == SQLITE_DONE ? 0 : store_fail(st, err);
}

static int
same(sqlite3_stmt *s, int col, const char *v)
{
	const char *t = (const char *)sqlite3_column_text(s, col);

	return t != NULL && strcmp(t, v) == 0;
}

/* One note: added, updated or left as it is. -1 on a database error. */
static int
import_note(struct store *st, struct import_sql *q, int64_t profile,
    const char *deck, const struct anki_note *k, int64_t now,
    struct store_import_counts *n, struct pl_err *err)
{
	char id[600];
	int rc;

	anki_card_id(k->guid, deck, k->front, id, sizeof id);
	rc = sqlite3_step(keyed(q->get, profile, id));
	if (rc == SQLITE_ROW) {
		if (same(q->get, 1, k->front) && same(q->get, 2, k->back) &&
		    same(q->get, 3, k->tags)) {
			n->unchanged++;
			return 0;
		}
		n->updated++;
		return step(st, with_note(keyed(q->set, profile, id), deck, k,
		    now), err);
	}
	if (rc != SQLITE_DONE)
		return store_fail(st, err);
	if (step(st, with_note(keyed(q->add, profile, id), deck, k, now),
	    err) != 0)
		return -1;
	keyed(q->row, profile, id);
	sqlite3_bind_int64(q->row, 3, review_card_seed(id));
	sqlite3_bind_int64(q->row, 4, now);
	n->added++;
	return step(st, q->row, err);
}

int
store_cards_import(struct store *st, int64_t profile,
    const struct content_course *c, const char *deck,
    const struct anki_notes *notes, const char *file, int64_t now,
    struct store_import_counts *counts, struct pl_err *err)
{
	struct store_import_counts n = { 0, 0, 0 };
	struct import_sql q = { NULL, NULL, NULL, NULL };
	sqlite3_stmt **s[4] = { &q.get, &q.add, &q.set, &q.row };
	const char *d;
	size_t i;
	int rc = 0;

	for (i = 0; i < notes->n; i++) {
		d = deck != NULL ? deck : notes->v[i].deck;
		if (!deck_ok(c, d, file, notes->v[i].line, err))
			return -1;
	}
	if (store_begin(st, err) != 0)
		return -1;
	for (i = 0; rc == 0 && i < 4; i++)
		rc = store_prepare(st, import_sql_text[i], s[i], err);
	for (i = 0; rc == 0 && i < notes->n; i++)
		rc = import_note(st, &q, profile, deck != NULL ? deck :
		    notes->v[i].deck, &notes->v[i], now, &n, err);
	finalize(&q);
	rc = store_end(st, rc, err);
	if (rc == 0 && counts != NULL)
		*counts = n;
	return rc;
}

int
store_user_deck_notes(struct store *st, const char *profile_name,
    const char *deck, void (*fn)(const struct store_note *, void *),
    void *arg, struct pl_err *err)
{
	struct store_note note;
	sqlite3_stmt *s;
	int rc, n = 0;

	if (store_prepare(st, "SELECT u.card_id, u.deck, u.front, u.back, "
	    "COALESCE(u.tags, '') FROM profiles p JOIN user_cards u ON "
	    "u.profile_id = p.id LEFT JOIN cards k ON "
	    "k.profile_id = u.profile_id AND k.card_id = u.card_id "
	    "WHERE p.name = ?1 AND u.deck = ?2 "
	    "ORDER BY u.created, k.added, u.rowid;", &s, err) != 0)
		return -1;
	sqlite3_bind_text(s, 1, profile_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, deck, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		note.card_id = (const char *)sqlite3_column_text(s, 0);
		note.deck = (const char *)sqlite3_column_text(s, 1);
		note.front = (const char *)sqlite3_column_text(s, 2);
		note.back = (const char *)sqlite3_column_text(s, 3);
		note.tags = (const char *)sqlite3_column_text(s, 4);
		fn(&note, arg);
		n++;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? n : store_fail(st, err);
}

int
store_user_deck_names(struct store *st, const char *profile_name,
    void (*fn)(const char *, void *), void *arg, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, "SELECT DISTINCT u.deck FROM user_cards u JOIN "
	    "profiles p ON p.id = u.profile_id WHERE p.name = ?1 "
	    "ORDER BY u.deck;", &s, err) != 0)
		return -1;
	sqlite3_bind_text(s, 1, profile_name, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(s, 0), arg);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, err);
}
