/*
 * output.h - everything the subcommands write: messages with untrusted
 * text made safe (core/safetext.h), and -o files written so that a planted
 * link is never followed and a failure leaves nothing half-written.
 *
 * cli_printf is the one way a subcommand prints text that holds anything
 * it did not write itself (a file name, a deck name, a value from a file):
 * the whole formatted text is rendered with control characters shown as
 * "^[" and friends, keeping only newlines and tabs, which come from our own
 * format strings. Errors (struct pl_err) are one line and keep nothing.
 */
#ifndef PARLEARN_CLI_OUTPUT_H
#define PARLEARN_CLI_OUTPUT_H

#include <stdio.h>

#include "core/err.h"

/* SAFETEXT_UTF8 when the locale's codeset is UTF-8, else 0. */
int	cli_safe_flags(void);

/*
 * Format and write to fp with every control character but '\n' and '\t'
 * shown as text. Returns 0, or -1 when the write failed.
 */
int	cli_printf(FILE *fp, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* "parlearn: <prefix>FILE:LINE:COL: message" on stderr, one safe line. */
void	cli_print_problem(const char *prefix, const struct pl_err *);

/*
 * An output file given with -o, written as a temporary file in the same
 * directory and renamed over path only when everything was written, so a
 * reader never sees half a file and a failure leaves path as it was. A
 * path that is a symbolic link, or anything but a regular file, is refused
 * (never followed, never replaced); a new file is created 0666 & ~umask,
 * an existing one keeps its mode. With path NULL, fp is stdout.
 */
struct cli_out {
	FILE	*fp;		/* write here */
	char	*path;		/* the target, or NULL for stdout */
	char	*tmp;		/* the temporary file, or NULL */
};

/* 0, or 2 after printing why. */
int	cli_out_open(struct cli_out *, const char *path);
/*
 * Flush, check every write, fsync and rename into place (or flush stdout).
 * When failed is set, or anything fails, the temporary file is removed and
 * path is left untouched. Returns 0, or 2 after printing why (not when
 * failed was already set).
 */
int	cli_out_close(struct cli_out *, int failed);

/* Report a failed write to o (errno value e) once, naming the file. */
void	cli_out_error(const struct cli_out *o, int e);

/*
 * Write text (and a final newline if it has none) to path, or stdout when
 * path is NULL, through cli_out. 0 or 2.
 */
int	cli_write_text(const char *path, const char *text);

/*
 * At exit: flush stdout and report a failed write ("standard output: No
 * space left on device"). Returns rc, or 2 if stdout could not be written.
 */
int	cli_finish(int rc);

#endif
