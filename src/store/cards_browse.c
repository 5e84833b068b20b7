/*
 * cards_browse.c - suspending and unsuspending cards, and reading which
 * are suspended (store/cards_browse.h).
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "store/cards_browse.h"

int
store_cards_suspend(struct store *st, int64_t profile, const char *card_id,
    int on, struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_begin(st, err) != 0)
		return -1;
	rc = store_prepare(st, "UPDATE cards SET suspended = ?3 WHERE "
	    "profile_id = ?1 AND card_id = ?2;", &s, err);
	if (rc == 0) {
		sqlite3_bind_int64(s, 1, profile);
		sqlite3_bind_text(s, 2, card_id, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 3, on != 0);
		rc = store_step_done(st, s, err);
	}
	if (rc == 0 && sqlite3_changes(st->db) != 1) {
		pl_err_set(err, st->path, 0, 0, _("no card \"%s\" to suspend"),
		    card_id);
		rc = -1;
	}
	return store_end(st, rc, err);
}

int
store_cards_suspended_flags(struct store *st, int64_t profile,
    const struct store_card_set *set, int *flags, struct pl_err *err)
{
	sqlite3_stmt *s;
	size_t i;
	int rc = SQLITE_DONE;

	if (store_prepare(st, "SELECT suspended FROM cards WHERE "
	    "profile_id = ?1 AND card_id = ?2;", &s, err) != 0)
		return -1;
	for (i = 0; i < set->n; i++) {
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, profile);
		sqlite3_bind_text(s, 2, set->cards[i].id, -1, SQLITE_STATIC);
		rc = sqlite3_step(s);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			break;
		flags[i] = rc == SQLITE_ROW && sqlite3_column_int(s, 0) != 0;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_fail(st, err);
}

int
store_cards_drop_suspended(struct store *st, int64_t profile,
    struct store_card_set *set, struct pl_err *err)
{
	int *flags;
	size_t i, k = 0;

	if (set->n == 0)
		return 0;
	if ((flags = calloc(set->n, sizeof *flags)) == NULL) {
		pl_err_set(err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	if (store_cards_suspended_flags(st, profile, set, flags, err) != 0) {
		free(flags);
		return -1;
	}
	for (i = 0; i < set->n; i++) {
		if (flags[i]) {
			free(set->cards[i].id);
			free(set->cards[i].deck);
			free(set->cards[i].front);
			free(set->cards[i].back);
			continue;
		}
		set->cards[k] = set->cards[i];
		set->items[k] = set->items[i];
		set->items[k].id = set->cards[k].id;
		k++;
	}
	set->n = k;
	free(flags);
	return 0;
}

int
store_cards_count_suspended(struct store *st, int64_t profile, int *n,
    struct pl_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*n = 0;
	if (store_prepare(st, "SELECT COUNT(*) FROM cards WHERE profile_id = ?1 "
	    "AND suspended;", &s, err) != 0)
		return -1;
	sqlite3_bind_int64(s, 1, profile);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, err);
}
