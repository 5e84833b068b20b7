/*
 * tmpdir.h - where a test puts its temporary files: under $TMPDIR, or
 * /tmp when it is unset, never a hard-coded directory.
 */
#ifndef PARLEARN_TESTS_TMPDIR_H
#define PARLEARN_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/*
 * "$TMPDIR/name" into buf (size bytes): a template for mkdtemp or mkstemp
 * when name ends in XXXXXX. Returns buf.
 */
static inline char *
test_tmp_path(char *buf, size_t size, const char *name)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, size, "%s/%s", t != NULL && t[0] != '\0' ? t : "/tmp",
	    name);
	return buf;
}

#endif
