/*
 * labdir_submit.c - a student's own result file: reading it back, and
 * writing it under the student's lock so that two terminals of one
 * student never lose each other's answers (labdir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "store/labdir.h"
#include "store/labdir_int.h"

#define PROFILES_MAX	(16 * 1024)	/* bytes of a profile list read */

/*
 * Open (creating 0600) and flock the caller's own file fname in the drop
 * box, refused if anyone else owns it (a squatter would otherwise hold
 * the name). Returns the descriptor holding an exclusive flock, or -1
 * with err set.
 */
static int
lock_file(int dfd, const char *box, const char *fname, struct pl_err *err)
{
	char path[1600];
	struct stat st;
	int fd;

	snprintf(path, sizeof path, "%s/%s", box, fname);
	fd = openat(dfd, fname, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == ELOOP)) {
		pl_err_set(err, path, 0, 0, "%s", _("another user's file holds "
		    "your lock name; ask the instructor to remove it"));
		return -1;
	}
	if (fd < 0)
		return labdir_sys_fail(err, path);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(fd);
		pl_err_set(err, path, 0, 0, "%s", _("another user's file holds "
		    "your lock name; ask the instructor to remove it"));
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR) {
			labdir_sys_fail(err, path);
			close(fd);
			return -1;
		}
	return fd;
}

/* The caller's lock for result file name: ".NAME.lock". */
static int
lock_own(int dfd, const char *box, const char *name, struct pl_err *err)
{
	char lock[320];

	snprintf(lock, sizeof lock, ".%s.lock", name);
	return lock_file(dfd, box, lock, err);
}

/* line is a result file name of user's: "USER@...json", no '/'. */
static int
own_name(const char *line, const char *user)
{
	size_t n = strlen(line), u = strlen(user);

	return n > u + 6 && strncmp(line, user, u) == 0 && line[u] == '@' &&
	    strchr(line, '/') == NULL && strcmp(line + n - 5, ".json") == 0;
}

/*
 * The host reads at most LABDIR_MAX_PER_USER result files of a student
 * (labdir_scan.c), so a new profile beyond them is refused here rather
 * than written and never counted. The student's profiles are listed in
 * ".USER.profiles", their own file, flock'ed for the whole submit so
 * that a new profile is listed before its file exists. Result file name
 * may be written when it exists, is listed, or fits; then it is listed.
 * Returns the descriptor holding the list's lock, -2 for the host (who
 * is not capped: nothing held), or -1 with err set.
 */
static int
lock_room(int dfd, const char *box, const char *user, const char *name,
    struct pl_err *err)
{
	char list[320], path[1600], *text, *line, *next;
	struct stat st;
	ssize_t got;
	int fd, n = 0, listed = 0;

	if (fstat(dfd, &st) != 0)
		return labdir_sys_fail(err, box);
	if (st.st_uid == geteuid())
		return -2;
	snprintf(list, sizeof list, ".%s.profiles", user);
	if ((fd = lock_file(dfd, box, list, err)) < 0)
		return -1;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return fd;
	snprintf(path, sizeof path, "%s/%s", box, list);
	if ((text = calloc(1, PROFILES_MAX + 1)) == NULL ||
	    (got = pread(fd, text, PROFILES_MAX, 0)) < 0) {
		labdir_sys_fail(err, path);
		free(text);
		close(fd);
		return -1;
	}
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strcmp(line, name) == 0)
			listed = 1;
		else if (own_name(line, user) && fstatat(dfd, line, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid())
			n++;
	}
	free(text);
	if (!listed && n >= LABDIR_MAX_PER_USER) {
		pl_err_set(err, path, 0, 0, _("you have results under %d "
		    "profiles in this lab, the most the instructor's table "
		    "counts for one student (%d); submit under one of them, or "
		    "ask the instructor to remove one"), n,
		    LABDIR_MAX_PER_USER);
		close(fd);
		return -1;
	}
	if (!listed && (lseek(fd, 0, SEEK_END) < 0 || write(fd, name,
	    strlen(name)) != (ssize_t)strlen(name) || write(fd, "\n", 1) != 1)) {
		labdir_sys_fail(err, path);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * When the name is held by a file that is not ours (another student made
 * it first), say so and what to do.
 */
static void
squatted_hint(struct pl_err *err, const struct stat *st)
{
	char file[sizeof err->file];

	if (st->st_uid == geteuid())
		return;
	snprintf(file, sizeof file, "%s", err->file);
	pl_err_set(err, file, 0, 0, _("this name was taken by another user "
	    "(uid %ld) before you; ask the instructor to remove the file, or "
	    "use another --profile"), (long)st->st_uid);
}

/* The caller's result file as it is now (under the lock): 1, 0 none, -1. */
static int
read_current(int dfd, const char *box, const char *name,
    struct lab_result *cur, struct pl_err *err)
{
	char path[1600], *text;
	struct stat st;
	int rc;

	memset(cur, 0, sizeof *cur);
	snprintf(path, sizeof path, "%s/%s", box, name);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : labdir_sys_fail(err, path);
	if ((text = labdir_read_checked(dfd, path, name, (long)geteuid(),
	    LABDIR_RESULT_MAX, err)) == NULL) {
		squatted_hint(err, &st);
		return -1;
	}
	rc = lab_result_parse(text, path, cur, err);
	free(text);
	return rc == 0 ? 1 : -1;
}

int
labdir_read_own(const char *dir, struct lab_result *r, struct pl_err *err)
{
	char box[1200], name[300];
	struct lab_result got;
	int dfd, rc;

	if (labdir_result_name(r->user, r->profile, name, sizeof name) != 0) {
		pl_err_set(err, dir, 0, 0, "%s", _("user or profile name too long"));
		return -1;
	}
	if ((dfd = labdir_open_dropbox(dir, box, sizeof box, 0, err)) < 0)
		return -1;
	rc = read_current(dfd, box, name, &got, err);
	close(dfd);
	if (rc != 1)
		return rc;
	lab_result_free(r);
	*r = got;
	return 1;
}

/* Write r as name, under the lock, with the drop box's modes. */
static int
write_result(int dfd, const char *box, const char *name,
    const struct lab_result *r, struct pl_err *err)
{
	struct stat st;
	char *text = lab_result_to_json(r);
	int rc = -1;

	/* A student who is not the instructor shares the file with the
	 * drop box's group (the instructor's), inherited through setgid. */
	if (text != NULL && fstat(dfd, &st) == 0)
		rc = labdir_atomic_write(dfd, box, name, text, st.st_uid == geteuid() ?
		    0600 : 0640, err);
	free(text);
	return rc;
}

/*
 * Open the drop box, make room for the caller's result file in it
 * (lock_room: *rfd, or -2) and lock its name (*lfd).
 */
static int
open_locked(const char *dir, const struct lab_result *r, char *box,
    size_t bsize, char *name, size_t nsize, int *rfd, int *lfd,
    struct pl_err *err)
{
	int dfd;

	if (labdir_result_name(r->user, r->profile, name, nsize) != 0) {
		pl_err_set(err, dir, 0, 0, "%s", _("user or profile name too long"));
		return -1;
	}
	if ((dfd = labdir_open_dropbox(dir, box, bsize, 0, err)) < 0)
		return -1;
	if ((*rfd = lock_room(dfd, box, r->user, name, err)) == -1) {
		close(dfd);
		return -1;
	}
	if ((*lfd = lock_own(dfd, box, name, err)) < 0) {
		if (*rfd >= 0)
			close(*rfd);
		close(dfd);
		return -1;
	}
	return dfd;
}

static void
close_locked(int dfd, int rfd, int lfd)
{
	close(lfd);
	if (rfd >= 0)
		close(rfd);
	close(dfd);
}

int
labdir_submit(const char *dir, const struct lab_result *r,
    struct pl_err *err)
{
	char box[1200], name[300];
	struct lab_result cur, merged;
	size_t i;
	int dfd, rfd, lfd, rc;

	if ((dfd = open_locked(dir, r, box, sizeof box, name, sizeof name,
	    &rfd, &lfd, err)) < 0)
		return -1;
	memset(&merged, 0, sizeof merged);
	rc = read_current(dfd, box, name, &cur, err);
	if (rc >= 0) {
		/* Ours, plus what another terminal of ours added meanwhile
		 * (the record with more attempts is the newer). */
		merged = *r;
		merged.answers = NULL;
		merged.n_answers = 0;
		for (i = 0; rc >= 0 && i < r->n_answers; i++)
			rc = lab_result_put(&merged, &r->answers[i]);
		for (i = 0; rc >= 0 && strcmp(cur.session, r->session) == 0 &&
		    i < cur.n_answers; i++) {
			const struct lab_answer *a = &cur.answers[i], *m;

			m = lab_result_find(&merged, a->step, a->kind, a->id);
			if (m == NULL || a->attempts > m->attempts)
				rc = lab_result_put(&merged, a);
		}
		if (rc < 0)
			pl_err_set(err, dir, 0, 0, "%s", _("too many answers"));
		else
			rc = write_result(dfd, box, name, &merged, err);
	}
	lab_result_free(&cur);
	lab_result_free(&merged);
	close_locked(dfd, rfd, lfd);
	return rc < 0 ? -1 : 0;
}

int
labdir_submit_answer(const char *dir, struct lab_result *r, int step,
    enum lab_item_kind kind, const char *id, int correct, int tries,
    const char *refused, int64_t now, struct pl_err *err)
{
	char box[1200], name[300], session[sizeof r->session];
	struct lab_result cur;
	int dfd, rfd, lfd, rc;

	if ((dfd = open_locked(dir, r, box, sizeof box, name, sizeof name,
	    &rfd, &lfd, err)) < 0)
		return -1;
	rc = read_current(dfd, box, name, &cur, err);
	if (rc >= 0) {
		snprintf(session, sizeof session, "%s", r->session);
		if (rc == 1 && strcmp(cur.session, session) == 0) {
			lab_result_free(r);
			*r = cur;
			memset(&cur, 0, sizeof cur);
		} else {
			lab_result_free(r);
			r->step = -1;
		}
		if (r->step != step) {
			r->step = step;
			r->step_since = now;
		}
		r->updated = now;
		if (lab_result_answer(r, step, kind, id, correct,
		    tries) != 0 || (refused != NULL &&
		    lab_result_set_refused(r, step, refused) != 0)) {
			pl_err_set(err, dir, 0, 0, "%s",
			    _("a bad id, or too many answers"));
			rc = -1;
		} else
			rc = write_result(dfd, box, name, r, err);
	}
	lab_result_free(&cur);
	close_locked(dfd, rfd, lfd);
	return rc < 0 ? -1 : 0;
}
