/*
 * plan_emit.h - `parlearn plan --emit KIND [-o FILE] [--row N]`: the
 * layout given, or the search's row N (1 by default), written as a
 * framework's config (core/engine/emit.h).
 */
#ifndef PARLEARN_CLI_PLAN_EMIT_H
#define PARLEARN_CLI_PLAN_EMIT_H

#include <stdio.h>

#include "core/engine/costmodel.h"

struct plan_args {
	int		 json;		/* --json */
	const char	*emit;		/* --emit KIND, or NULL */
	const char	*out;		/* -o FILE, or NULL for stdout */
	long		 row;		/* --row N, 0 when not given */
};

/* Take one option: 'e' --emit, 'o' -o, 'r' --row; 0, or 1 after a usage
 * error. */
int	plan_emit_option(int which, const char *arg, struct plan_args *);

/* The three options' lines of plan --help. */
void	plan_emit_usage(FILE *fp);

/* The options that go together; 0, or 1 after a usage error. */
int	plan_emit_check(const struct plan_args *);

/*
 * Emit: c is every degree given (searched 0) or the search's base
 * (searched 1). Returns the exit code: 0, 1 (refused: why printed), 2
 * (a write failed).
 */
int	plan_emit_run(const struct cm_config *c, int searched,
	    const struct plan_args *);

#endif
