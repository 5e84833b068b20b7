/*
 * catfix.h - the engine tests' fixture: the shipped GPU and model catalog
 * (data/), and for the tests that read lessons the shipped course too.
 */
#ifndef PARLEARN_TESTS_CATFIX_H
#define PARLEARN_TESTS_CATFIX_H

#include "core/course/content.h"
#include "core/engine/hardware.h"

extern struct hw_catalog	 cat;		/* catfix_setup */
extern struct content_course	*course;	/* catfix_course_setup */

/* Load the catalog (and the course); fail the test on any error. */
void	catfix_setup(void);
void	catfix_teardown(void);
void	catfix_course_setup(void);
void	catfix_course_teardown(void);

#endif
