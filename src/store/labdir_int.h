/*
 * labdir_int.h - what labdir.c, labdir_submit.c and labdir_scan.c share;
 * not for use outside store/labdir*.c.
 */
#ifndef PARLEARN_STORE_LABDIR_INT_H
#define PARLEARN_STORE_LABDIR_INT_H

#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"

/* Fill err with strerror(errno) for path. Returns -1. */
int	labdir_sys_fail(struct pl_err *err, const char *path);

/*
 * Write text to name in the directory dfd (dirpath names it in errors):
 * a new temp file (O_EXCL, O_NOFOLLOW), its final mode set with fchmod,
 * fsync, then rename over name. A mode with group bits but none for
 * others is narrowed to 0600 when the file did not take the directory's
 * group. 0 or -1 with err set.
 */
int	labdir_atomic_write(int dfd, const char *dirpath, const char *name,
	    const char *text, mode_t mode, struct pl_err *err);

/*
 * Read name in dfd: no symlink, a regular file, owned by uid (unless uid
 * is -1), at most cap bytes, no NUL. The text (caller frees) or NULL.
 */
char	*labdir_read_checked(int dfd, const char *path, const char *name,
	    long uid, size_t cap, struct pl_err *err);

/*
 * Open DIR/results, which must be a sticky drop box: search-only for a
 * student, who may not read it (list 0), readable for the host (list 1).
 * Its path goes into path. A descriptor, or -1 with err set.
 */
int	labdir_open_dropbox(const char *dir, char *path, size_t size, int list,
	    struct pl_err *err);

#endif
