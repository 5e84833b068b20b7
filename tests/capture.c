/*
 * capture.c - output capture and temporary files for the tests.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "capture.h"
#include "tmpdir.h"

/* In the programs that link the CLI (usage.h); core's checks do not. */
extern void	cli_set_command(const char *) __attribute__((weak));

static char *
slurp(FILE *fp)
{
	long n;
	char *buf;

	fflush(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)n + 1);
	if (buf != NULL && n > 0 && fread(buf, 1, (size_t)n, fp) != (size_t)n)
		buf[0] = '\0';
	return buf;
}

void
capture_run(int (*fn)(const struct cli_ctx *, int, char **),
    const struct cli_ctx *ctx, int argc, char **argv, struct capture *c)
{
	FILE *o = tmpfile(), *e = tmpfile();
	int so, se;

	fflush(stdout);
	fflush(stderr);
	so = dup(STDOUT_FILENO);
	se = dup(STDERR_FILENO);
	dup2(fileno(o), STDOUT_FILENO);
	dup2(fileno(e), STDERR_FILENO);
	/* As the dispatcher does: messages name the subcommand. */
	if (cli_set_command != NULL)
		cli_set_command(argc > 0 ? argv[0] : NULL);
	c->rc = fn(ctx, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, STDOUT_FILENO);
	dup2(se, STDERR_FILENO);
	close(so);
	close(se);
	c->out = slurp(o);
	c->err = slurp(e);
	fclose(o);
	fclose(e);
}

void
capture_free(struct capture *c)
{
	free(c->out);
	free(c->err);
	c->out = c->err = NULL;
}

int
test_write(const char *dir, const char *rel, const char *text)
{
	char path[4096], *p;
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	fp = fopen(path, "wb");
	if (fp == NULL)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

char *
test_tmpdir(void)
{
	char t[4096];

	if (mkdtemp(test_tmp_path(t, sizeof t, "parlearn-test-XXXXXX")) == NULL)
		return NULL;
	return strdup(t);
}

void
test_rmrf(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}
