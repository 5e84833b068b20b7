/*
 * capture.h - run a function with stdout and stderr sent to files, for
 * testing subcommands; and small file helpers for tests.
 */
#ifndef PARLEARN_TESTS_CAPTURE_H
#define PARLEARN_TESTS_CAPTURE_H

#include "cli/cli.h"

struct capture {
	int	 rc;		/* the function's return value */
	char	*out;		/* what it printed on stdout (caller frees) */
	char	*err;		/* what it printed on stderr (caller frees) */
};

/* Call fn(ctx, argc, argv) with the output captured. */
void	capture_run(int (*fn)(const struct cli_ctx *, int, char **),
	    const struct cli_ctx *ctx, int argc, char **argv,
	    struct capture *out);
void	capture_free(struct capture *);

/* Write text to dir/rel, creating parent directories. Returns 0 or -1. */
int	test_write(const char *dir, const char *rel, const char *text);
/* A new empty directory under /tmp (caller frees the string). */
char	*test_tmpdir(void);
/* rm -rf dir. */
void	test_rmrf(const char *dir);

#endif
