/*
 * err.c - filling and formatting struct pl_err.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"

void
pl_err_clear(struct pl_err *err)
{
	if (err != NULL)
		memset(err, 0, sizeof *err);
}

static void
copy_file(struct pl_err *err, const char *file)
{
	snprintf(err->file, sizeof err->file, "%s", file != NULL ? file : "");
}

void
pl_err_set(struct pl_err *err, const char *file, int line, int col,
    const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	pl_err_clear(err);
	copy_file(err, file);
	err->line = line;
	err->col = col;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
}

void
pl_err_set_path(struct pl_err *err, const char *file, const char *path,
    const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	pl_err_clear(err);
	copy_file(err, file);
	snprintf(err->path, sizeof err->path, "%s", path != NULL ? path : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
}

const char *
pl_err_format(const struct pl_err *err, char *buf, size_t size)
{
	if (size == 0)
		return buf;
	if (err->file[0] != '\0' && err->line > 0)
		snprintf(buf, size, "%s:%d:%d: %s", err->file, err->line,
		    err->col > 0 ? err->col : 1, err->msg);
	else if (err->file[0] != '\0' && err->path[0] != '\0')
		snprintf(buf, size, "%s: %s: %s", err->file, err->path,
		    err->msg);
	else if (err->file[0] != '\0')
		snprintf(buf, size, "%s: %s", err->file, err->msg);
	else if (err->path[0] != '\0')
		snprintf(buf, size, "%s: %s", err->path, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
	return buf;
}
