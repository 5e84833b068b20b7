/*
 * export_csv.c - profile export as CSV, one row per record (export.h),
 * written as the rows are read, like the JSON form (export.c). The cells
 * hold what the JSON export holds: a 64-bit integer beyond 2^53 is text,
 * a trade-off is what export_tradeoff_text gives.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "core/csv.h"
#include "store/export.h"
#include "store/export_int.h"

struct xcsv {
	struct store	*st;
	struct csv	 c;
	FILE		*fp;
	struct pl_err	*err;
	int		 e;	/* errno of the first failed write, or 0 */
};

/* Write the rows ended so far. 0, -1 (err set) or -2 (a write failed). */
static int
flush_rows(struct xcsv *x)
{
	const char *t;
	size_t n;

	if ((t = csv_drain(&x->c, &n)) == NULL) {
		pl_err_set(x->err, NULL, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	if ((n > 0 && fwrite(t, 1, n, x->fp) != n) || ferror(x->fp)) {
		if (x->e == 0)
			x->e = errno != 0 ? errno : EIO;
		return -2;
	}
	return 0;
}

/* The column called name (as the JSON export's keys), or -1. */
static int
column(sqlite3_stmt *s, const char *name)
{
	int i, n = sqlite3_column_count(s);

	for (i = 0; i < n; i++)
		if (strcasecmp(sqlite3_column_name(s, i), name) == 0)
			return i;
	return -1;
}

/* Column i (-1: none) as a cell: text made safe, numbers with '.'. */
static void
cell(struct csv *c, sqlite3_stmt *s, int i)
{
	char digits[32];
	int64_t v;

	switch (i < 0 ? SQLITE_NULL : sqlite3_column_type(s, i)) {
	case SQLITE_NULL:
		csv_empty(c);
		break;
	case SQLITE_INTEGER:
		v = sqlite3_column_int64(s, i);
		if (export_exact(v))
			csv_number(c, (double)v);
		else {
			snprintf(digits, sizeof digits, "%lld", (long long)v);
			csv_text(c, digits);
		}
		break;
	case SQLITE_FLOAT:
		csv_number(c, sqlite3_column_double(s, i));
		break;
	default:
		csv_text(c, (const char *)sqlite3_column_text(s, i));
	}
}

#define CSV_KEYS	9	/* the columns after "kind" */

/*
 * One row of kind per row of sql: keys[] name the columns that fill the
 * cells after the kind ("" leaves a cell empty). With tradeoffs set, the
 * column "text" is a trade-off's text.
 */
static int
rows(struct xcsv *x, const char *kind, const char *sql, int64_t profile,
    const char *const *keys, int tradeoffs)
{
	sqlite3_stmt *s;
	const char *text = NULL;
	char *owned = NULL;
	int rc, i, col[CSV_KEYS], tcol = -1, out = 0;

	if (export_query(x->st, sql, profile, &s, x->err) != 0)
		return -1;
	for (i = 0; i < CSV_KEYS; i++)
		col[i] = keys[i][0] != '\0' ? column(s, keys[i]) : -1;
	if (tradeoffs)
		tcol = column(s, "text");
	while (out == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (tcol >= 0 && (text = export_tradeoff_text(s, tcol,
		    &owned)) == NULL)
			continue;
		csv_word(&x->c, kind);
		for (i = 0; i < CSV_KEYS; i++)
			if (col[i] >= 0 && col[i] == tcol)
				csv_text(&x->c, text);
			else
				cell(&x->c, s, col[i]);
		csv_end(&x->c);
		free(owned);
		owned = NULL;
		out = flush_rows(x);
	}
	sqlite3_finalize(s);
	if (out != 0)
		return out;
	return rc == SQLITE_DONE ? 0 : store_fail(x->st, x->err);
}

/*
 * The review log, one row per review: the card in "item", the review's
 * time, its length in seconds, the state it left the card in and the
 * rating (1 again .. 4 easy) as the value.
 */
static int
reviews(struct xcsv *x, int64_t profile)
{
	sqlite3_stmt *s;
	int rc, card, state, ms, when, rating, out = 0;
	int64_t v;

	if (!export_has_table(x->st, "review_log"))
		return 0;
	if (export_query(x->st, "SELECT * FROM review_log WHERE profile_id = ?"
	    " ORDER BY card_id, reviewed, id", profile, &s, x->err) != 0)
		return -1;
	card = column(s, "card_id");
	state = column(s, "state_after");
	ms = column(s, "duration_ms");
	when = column(s, "reviewed");
	rating = column(s, "rating");
	while (out == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		csv_word(&x->c, "review");
		csv_empty(&x->c);
		cell(&x->c, s, card);
		csv_empty(&x->c);
		csv_empty(&x->c);
		cell(&x->c, s, state);
		switch (ms < 0 ? SQLITE_NULL : sqlite3_column_type(s, ms)) {
		case SQLITE_INTEGER:
			v = sqlite3_column_int64(s, ms);
			if (export_exact(v))
				csv_number(&x->c, (double)v / 1000);
			else
				csv_empty(&x->c);
			break;
		case SQLITE_FLOAT:
			csv_number(&x->c, sqlite3_column_double(s, ms) / 1000);
			break;
		default:
			csv_empty(&x->c);
		}
		cell(&x->c, s, when);
		csv_empty(&x->c);
		cell(&x->c, s, rating);
		csv_end(&x->c);
		out = flush_rows(x);
	}
	sqlite3_finalize(s);
	if (out != 0)
		return out;
	return rc == SQLITE_DONE ? 0 : store_fail(x->st, x->err);
}

int
export_profile_write_csv(struct store *st, const char *name, FILE *fp,
    struct pl_err *err)
{
	static const char *const head[] = { "kind", "drop", "item", "attempt",
	    "correct", "status", "seconds", "time", "finished", "value", NULL };
	static const char *const drop_keys[] = { "drop", "", "", "", "status",
	    "seconds", "started", "finished", "" };
	static const char *const ans_keys[] = { "drop", "question", "attempt",
	    "correct", "", "seconds", "answered", "", "response" };
	static const char *const set_keys[] = { "", "key", "", "", "", "",
	    "", "", "value" };
	static const char *const trade_keys[] = { "drop", "question",
	    "attempt", "", "", "", "", "", "text" };
	struct xcsv x = { st, { NULL, 0, 0, 0, 0 }, fp, err, 0 };
	int64_t id = 0, created = 0;
	int rc, began;

	if (err != NULL)
		pl_err_clear(err);
	if ((began = export_snapshot_begin(st, err)) < 0)
		return -1;
	if (export_find_profile(st, name, &id, &created, err) != 0) {
		export_snapshot_end(st, began);
		return -1;
	}
	csv_header(&x.c, head);
	if ((rc = flush_rows(&x)) == 0 &&
	    (rc = rows(&x, "drop", export_sql_drops, id, drop_keys, 0)) == 0 &&
	    (rc = rows(&x, "answer", export_sql_answers, id, ans_keys,
	    0)) == 0 && (rc = rows(&x, "tradeoff", export_sql_tradeoffs, id,
	    trade_keys, 1)) == 0 && (rc = rows(&x, "setting",
	    export_sql_settings, id, set_keys, 0)) == 0)
		rc = reviews(&x, id);
	free(csv_take(&x.c));
	export_snapshot_end(st, began);
	if (rc == -2)
		errno = x.e;
	return rc;
}
