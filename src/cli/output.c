/*
 * output.c - safe messages and -o files (see output.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "core/safeprint.h"

int
cli_safe_flags(void)
{
	return safeprint_flags();
}

int
cli_printf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = safeprint_vprintf(fp, fmt, ap);
	va_end(ap);
	return rc;
}

void
cli_print_problem(const char *prefix, const struct pl_err *err)
{
	char buf[1800];

	fputs("parlearn: ", stderr);
	if (cli_command() != NULL)
		fprintf(stderr, "%s: ", cli_command());
	if (prefix != NULL)
		fputs(prefix, stderr);
	safeprint_puts(stderr, pl_err_format(err, buf, sizeof buf), 0);
	fputc('\n', stderr);
}

static int stdout_reported;	/* a failed write to stdout was told */

static int
stdout_failed(int e)
{
	/* The write that failed may lie several buffers back, its errno
	 * long overwritten; one more byte asks the device again (/dev/full:
	 * ENOSPC) on an output that is broken already. */
	if (e == 0 && write(STDOUT_FILENO, "\n", 1) < 0)
		e = errno;
	if (!stdout_reported)
		cli_error("%s: %s", _("standard output"),
		    strerror(e != 0 ? e : EIO));
	stdout_reported = 1;
	return 2;
}

static void
fail_path(const char *path, int e)
{
	cli_error("%s: %s", path, strerror(e));
}

/* What already sits at path must be a regular file we may replace. */
static int
check_target(const char *path, mode_t *mode)
{
	struct stat st;

	*mode = 0666;
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT) {
			mode_t um = umask(0);

			umask(um);
			*mode &= ~um;
			return 0;
		}
		fail_path(path, errno);
		return 2;
	}
	if (S_ISLNK(st.st_mode)) {
		cli_error(_("%s: is a symbolic link; not writing through it"),
		    path);
		return 2;
	}
	if (!S_ISREG(st.st_mode)) {
		cli_error(_("%s: not a regular file; not replacing it"), path);
		return 2;
	}
	*mode = st.st_mode & 0777;
	return 0;
}

int
cli_out_open(struct cli_out *o, const char *path)
{
	const char *slash;
	mode_t mode;
	size_t n;
	int fd = -1, i, rc;

	memset(o, 0, sizeof *o);
	if (path == NULL) {
		o->fp = stdout;
		return 0;
	}
	if ((rc = check_target(path, &mode)) != 0)
		return rc;
	slash = strrchr(path, '/');
	n = slash != NULL ? (size_t)(slash - path) + 1 : 0;
	o->path = strdup(path);
	o->tmp = malloc(n + 64);
	if (o->path == NULL || o->tmp == NULL)
		goto oom;
	for (i = 0; i < 16 && fd < 0; i++) {
		snprintf(o->tmp, n + 64, "%.*s.parlearn-%ld-%d-%lx.tmp", (int)n,
		    path, (long)getpid(), i, (unsigned long)time(NULL) ^
		    (unsigned long)clock());
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		fail_path(path, errno);
		goto fail;
	}
	if (fchmod(fd, mode) != 0 || (o->fp = fdopen(fd, "w")) == NULL) {
		fail_path(path, errno);
		close(fd);
		unlink(o->tmp);
		goto fail;
	}
	return 0;
oom:
	errno = ENOMEM;
	fail_path(path, errno);
fail:
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof *o);
	return 2;
}

int
cli_out_close(struct cli_out *o, int failed)
{
	int e = 0;

	if (o->fp == NULL)
		return failed ? 2 : 0;
	if (o->path == NULL) {
		o->fp = NULL;
		if (failed)
			return 2;
		errno = 0;
		if (fflush(stdout) != 0 || ferror(stdout))
			return stdout_failed(errno);
		return 0;
	}
	errno = 0;
	if (!failed && (fflush(o->fp) != 0 || ferror(o->fp) ||
	    fsync(fileno(o->fp)) != 0))
		e = errno != 0 ? errno : EIO;
	if (fclose(o->fp) != 0 && e == 0 && !failed)
		e = errno != 0 ? errno : EIO;
	/* A link planted since we looked is replaced, never followed:
	 * rename works on the name, not on what it points to. */
	if (!failed && e == 0 && rename(o->tmp, o->path) != 0)
		e = errno;
	if (failed || e != 0)
		unlink(o->tmp);
	if (e != 0)
		fail_path(o->path, e);
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof *o);
	return failed || e != 0 ? 2 : 0;
}

void
cli_out_error(const struct cli_out *o, int e)
{
	if (o->path == NULL)
		stdout_failed(e);
	else
		fail_path(o->path, e != 0 ? e : EIO);
}

int
cli_write_text(const char *path, const char *text)
{
	struct cli_out o;
	size_t n = strlen(text);
	int failed;

	if (cli_out_open(&o, path) != 0)
		return 2;
	failed = fputs(text, o.fp) < 0 ||
	    (n > 0 && text[n - 1] != '\n' && fputc('\n', o.fp) == EOF);
	if (failed)
		cli_out_error(&o, errno);
	return cli_out_close(&o, failed);
}

int
cli_finish(int rc)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		return stdout_failed(errno);
	return rc;
}
