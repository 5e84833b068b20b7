/*
 * catfix.c - the engine tests' fixture (catfix.h).
 */
#include <check.h>

#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

struct hw_catalog	 cat;
struct content_course	*course;

void
catfix_setup(void)
{
	struct pl_err err;

	ck_assert_msg(hw_catalog_load(&cat, TOP_SRCDIR "/data", &err) == 0,
	    "%s", err.msg);
}

void
catfix_teardown(void)
{
	hw_catalog_free(&cat);
}

void
catfix_course_setup(void)
{
	catfix_setup();
	course = content_load(TOP_SRCDIR, NULL);
	ck_assert_ptr_nonnull(course);
}

void
catfix_course_teardown(void)
{
	content_free(course);
	course = NULL;
	catfix_teardown();
}
