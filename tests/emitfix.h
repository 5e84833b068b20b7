/*
 * emitfix.h - what `plan --emit` writes for a config, as a string the
 * test frees (check_emit.c, check_emit_read.c).
 */
#ifndef PARLEARN_TESTS_EMITFIX_H
#define PARLEARN_TESTS_EMITFIX_H

#include <check.h>
#include <stdio.h>

#include "core/engine/emit.h"

static inline char *
test_emitted(const struct cm_config *c, enum emit_kind kind)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(emit_write(fp, c, kind), 0);
	ck_assert_int_eq(fclose(fp), 0);
	return buf;
}

#endif
