/*
 * export_int.h - what the JSON (export.c) and CSV (export_csv.c) exports
 * share: the queries, the profile, one read snapshot, and how a stored
 * trade-off is exported.
 */
#ifndef PARLEARN_STORE_EXPORT_INT_H
#define PARLEARN_STORE_EXPORT_INT_H

#include <stdint.h>

#include "store/db.h"

extern const char export_sql_drops[];
extern const char export_sql_answers[];
extern const char export_sql_tradeoffs[];
extern const char export_sql_settings[];

/* The profile called name: its id and creation time. -1 with err set
 * (also when there is none). */
int	export_find_profile(struct store *, const char *name, int64_t *id,
	    int64_t *created, struct pl_err *err);

/* Prepare sql with ?1 the profile. -1 with err set. */
int	export_query(struct store *, const char *sql, int64_t profile,
	    sqlite3_stmt **s, struct pl_err *err);

/* 1 if this database has the table. */
int	export_has_table(struct store *, const char *name);

/*
 * Start reading one snapshot (a read transaction, unless the caller
 * already holds one); export_snapshot_end ends what it started.
 */
int	export_snapshot_begin(struct store *, struct pl_err *err);
void	export_snapshot_end(struct store *, int began);

/*
 * The text a trade-off row (column i of s) is exported with: as stored
 * when import takes it back; else its safe rendering cut to the limit at
 * a character (an older parlearn stored control characters, bidi
 * overrides and bytes that are not UTF-8); NULL when nothing acceptable
 * is left, and the row is not exported. *owned is what to free.
 */
const char	*export_tradeoff_text(sqlite3_stmt *s, int i, char **owned);

/*
 * A value fits a JSON number exactly within +-2^53; beyond (card seeds
 * are 64-bit) it is written as its decimal digits, which import reads
 * back exactly.
 */
int	export_exact(int64_t v);

#endif
