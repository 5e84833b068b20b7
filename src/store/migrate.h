/*
 * migrate.h - bringing a database's schema up to STORE_SCHEMA_VERSION.
 */
#ifndef PARLEARN_STORE_MIGRATE_H
#define PARLEARN_STORE_MIGRATE_H

#include "store/db.h"

/*
 * Apply every migration after the database's user_version, each in its own
 * transaction. Returns 0, or -1 with err set (the database is left at the
 * last version that completed). A version newer than this build is an error.
 */
int	store_migrate(struct store *, struct pl_err *err);

/*
 * The same, stopping at version target (for tests that build a database
 * as an older parlearn left it). A database already past target is left
 * as it is.
 */
int	store_migrate_to(struct store *, int target, struct pl_err *err);

#endif
