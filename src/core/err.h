/*
 * err.h - how core reports a failure without printing or exiting.
 *
 * A fallible core function takes a caller-owned struct pl_err and fills it.
 * Nothing is allocated on the failure path. The text is already translated.
 * file is empty when no file is involved; line and col are 0 when unknown,
 * in which case path may hold a JSON path such as "blocks[3].text".
 */
#ifndef PARLEARN_CORE_ERR_H
#define PARLEARN_CORE_ERR_H

#include <stddef.h>

struct pl_err {
	char	file[1024];	/* file the problem is in, or "" */
	int	line;		/* 1-based, 0 if unknown */
	int	col;		/* 1-based, 0 if unknown */
	char	path[256];	/* JSON path such as "blocks[2].kind", or "" */
	char	msg[512];	/* the problem, one line, no trailing newline */
};

/* Clear every field. */
void	pl_err_clear(struct pl_err *);

/* Fill err (which may be NULL: then nothing happens). file may be NULL. */
void	pl_err_set(struct pl_err *err, const char *file, int line, int col,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Same, with a JSON path instead of a position. */
void	pl_err_set_path(struct pl_err *err, const char *file, const char *path,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Write "FILE:LINE:COL: msg", "FILE: PATH: msg" or "msg" into buf.
 * Returns buf.
 */
const char	*pl_err_format(const struct pl_err *, char *buf, size_t size);

#endif
