/*
 * paths.c - the course, catalogs and translations of an installed or an
 * uninstalled parlearn (paths.h).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/paths.h"

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
cli_build_tree(char *srcdir, size_t srcsize, char *builddir,
    size_t buildsize)
{
	char exe[PATH_MAX], mark[PATH_MAX + 32], line[PATH_MAX], *slash;
	ssize_t n;
	int fd;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return 0;
	*slash = '\0';
	snprintf(mark, sizeof mark, "%s/%s", exe, PL_UNINSTALLED_MARK);
	if ((fd = open(mark, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, line, sizeof line - 1);
	close(fd);
	if (n <= 0)
		return 0;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '\0')
		return 0;
	if (line[0] == '/')
		snprintf(srcdir, srcsize, "%s", line);
	else
		snprintf(srcdir, srcsize, "%s/%s", exe, line);
	snprintf(builddir, buildsize, "%s", exe);
	return 1;
}

const char *
cli_data_dir(const char *content_dir, const char *fallback, char *buf,
    size_t size)
{
	if (content_dir == NULL || (size_t)snprintf(buf, size, "%s/data",
	    content_dir) >= size || !is_dir(buf))
		return fallback;
	return buf;
}
