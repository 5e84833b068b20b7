/*
 * storefix.h - the store tests' fixture: a fresh progress database in its
 * own directory under $TMPDIR, a profile "ada", and the shipped course.
 */
#ifndef PARLEARN_TESTS_STOREFIX_H
#define PARLEARN_TESTS_STOREFIX_H

#include <stdint.h>

#include "core/course/content.h"
#include "store/db.h"

struct storefix {
	char			*dir;		/* removed by storefix_close */
	char			 path[4200];	/* dir/progress.db */
	struct store		*st;
	struct content_course	*course;
	int64_t			 prof;		/* profile "ada" */
};

/* Open it all (name: the mkdtemp template's start); fails the test on any
 * error. */
void	storefix_open(struct storefix *, const char *name);
/* Close the store, free the course, remove the directory. */
void	storefix_close(struct storefix *);
/* The first column of the first row of sql as an int, -1 for no row. */
int	storefix_int(struct store *, const char *sql);

#endif
