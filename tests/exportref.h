/*
 * exportref.h - the export as it was before it was streamed, the
 * reference check_export compares the streamed one with (exportref.c).
 */
#ifndef PARLEARN_TESTS_EXPORTREF_H
#define PARLEARN_TESTS_EXPORTREF_H

#include "core/course/content.h"
#include "core/err.h"
#include "store/db.h"

/* As export_profile_json and export_profile_csv were: caller frees. */
char	*exportref_json(struct store *, const char *name,
	    const struct content_course *course, struct pl_err *err);
char	*exportref_csv(struct store *, const char *name, struct pl_err *err);

#endif
