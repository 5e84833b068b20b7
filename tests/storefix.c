/*
 * storefix.c - the store tests' fixture (storefix.h).
 */
#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store/progress.h"
#include "storefix.h"
#include "tmpdir.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(path);
}

void
storefix_open(struct storefix *fx, const char *name)
{
	char t[4096], tmpl[128];
	struct pl_err err;

	snprintf(tmpl, sizeof tmpl, "%s.XXXXXX", name);
	ck_assert_ptr_nonnull(mkdtemp(test_tmp_path(t, sizeof t, tmpl)));
	fx->dir = strdup(t);
	snprintf(fx->path, sizeof fx->path, "%s/progress.db", fx->dir);
	fx->st = store_open(fx->path, &err);
	ck_assert_msg(fx->st != NULL, "%s", err.msg);
	ck_assert_int_eq(store_profile(fx->st, "ada", 1000, &fx->prof, &err),
	    0);
	fx->course = content_load(TOP_SRCDIR, NULL);
	ck_assert_ptr_nonnull(fx->course);
}

void
storefix_close(struct storefix *fx)
{
	content_free(fx->course);
	store_close(fx->st);
	nftw(fx->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(fx->dir);
	memset(fx, 0, sizeof *fx);
}

int
storefix_int(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	int v = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(st->db, sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}
