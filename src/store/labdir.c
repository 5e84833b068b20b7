/*
 * labdir.c - the lab directory's files: modes, owners, atomic writes and
 * the checks made before a student's file is believed.
 *
 * Every file is opened relative to a directory descriptor opened with
 * O_NOFOLLOW, so a symlink planted in place of the drop box or a file is
 * refused rather than followed. See labdir.h for the layout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "core/json.h"
#include "store/labdir.h"

#define DROPBOX_MODE	(S_ISGID | S_ISVTX | 0733)

/* Opening a directory we may search but not read (the drop box). */
#if defined(O_PATH)
#define SEARCH_ONLY	O_PATH
#elif defined(O_SEARCH)
#define SEARCH_ONLY	O_SEARCH
#else
#define SEARCH_ONLY	O_RDONLY
#endif

static int
sys_fail(struct pl_err *err, const char *path)
{
	pl_err_set(err, path, 0, 0, "%s", strerror(errno));
	return -1;
}

static void
join(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static int
open_dir_mode(const char *path, int how, struct pl_err *err)
{
	int fd = open(path, how | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		sys_fail(err, path);
	return fd;
}

static int
open_dir(const char *path, struct pl_err *err)
{
	return open_dir_mode(path, O_RDONLY, err);
}

static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Write text to name in dfd: a new temp file (O_EXCL, O_NOFOLLOW, 0600),
 * its final mode set with fchmod, fsync, then rename over name.
 */
static int
atomic_write(int dfd, const char *dirpath, const char *name,
    const char *text, mode_t mode, struct pl_err *err)
{
	char tmp[400], path[1200];
	struct stat st, dst;
	int fd = -1, i;

	join(path, sizeof path, dirpath, name);
	for (i = 0; i < 8 && fd < 0; i++) {
		snprintf(tmp, sizeof tmp, ".%s.%ld.%d.%ld.tmp", name,
		    (long)getpid(), i, (long)(clock() ^ time(NULL)));
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return sys_fail(err, path);
	}
	if (fd < 0)
		return sys_fail(err, path);
	/* Group read only when the file took the directory's group. */
	if ((mode & 0070) != 0 && (fstat(fd, &st) != 0 ||
	    fstat(dfd, &dst) != 0 || st.st_gid != dst.st_gid))
		mode = 0600;
	if ((mode != 0600 && fchmod(fd, mode) != 0) ||
	    write_all(fd, text, strlen(text)) != 0 || fsync(fd) != 0) {
		sys_fail(err, path);
		close(fd);
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	close(fd);
	if (renameat(dfd, tmp, dfd, name) != 0) {
		if (errno == EPERM || errno == EACCES)
			pl_err_set(err, path, 0, 0, "%s",
			    _("another user's file holds this name; ask the instructor to remove it"));
		else
			sys_fail(err, path);
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	return 0;
}

/*
 * Read name in dfd: no symlink, a regular file, owned by uid (unless uid
 * is -1), at most cap bytes. Returns the text (caller frees) or NULL.
 */
static char *
read_checked(int dfd, const char *path, const char *name, long uid,
    size_t cap, struct pl_err *err)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t len = 0;
	int fd;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			pl_err_set(err, path, 0, 0, "%s",
			    _("is a symbolic link; refused"));
		else
			sys_fail(err, path);
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (uid >= 0 && (long)st.st_uid != uid) || st.st_size > (off_t)cap) {
		if (!S_ISREG(st.st_mode))
			pl_err_set(err, path, 0, 0, "%s",
			    _("not a regular file; refused"));
		else if (uid >= 0 && (long)st.st_uid != uid)
			pl_err_set(err, path, 0, 0,
			    _("owned by uid %ld, not by the user it names; refused"),
			    (long)st.st_uid);
		else
			pl_err_set(err, path, 0, 0,
			    _("larger than %zu bytes; refused"), cap);
		close(fd);
		return NULL;
	}
	if ((buf = malloc(cap + 1)) == NULL) {
		close(fd);
		return NULL;
	}
	while (len <= cap && (n = read(fd, buf + len, cap + 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (len > cap || memchr(buf, '\0', len) != NULL) {
		pl_err_set(err, path, 0, 0, "%s",
		    _("oversized or binary; refused"));
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* mkdir if missing; then it must be our own directory, given mode. */
static int
own_dir(const char *path, mode_t mode, struct pl_err *err)
{
	struct stat st;

	if (mkdir(path, 0700) != 0 && errno != EEXIST)
		return sys_fail(err, path);
	if (lstat(path, &st) != 0)
		return sys_fail(err, path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		pl_err_set(err, path, 0, 0, "%s",
		    _("exists and is not a directory of yours"));
		return -1;
	}
	if (chmod(path, mode) != 0)
		return sys_fail(err, path);
	return 0;
}

void
labdir_new_session(char *buf, size_t size)
{
	unsigned char b[8];
	FILE *fp = fopen("/dev/urandom", "rb");
	size_t i;

	if (fp == NULL || fread(b, 1, sizeof b, fp) != sizeof b) {
		unsigned long x = (unsigned long)time(NULL) ^
		    ((unsigned long)getpid() << 16) ^ (unsigned long)clock();

		for (i = 0; i < sizeof b; i++, x >>= 4)
			b[i] = (unsigned char)(x * 2654435761u >> (i * 3));
	}
	if (fp != NULL)
		fclose(fp);
	buf[0] = '\0';
	for (i = 0; i < sizeof b && 2 * i + 2 < size; i++)
		snprintf(buf + 2 * i, size - 2 * i, "%02x", b[i]);
}

int
labdir_create(const char *dir, const char *script_text, struct pl_err *err)
{
	char path[1200];
	int dfd, rc;

	if (own_dir(dir, 0755, err) != 0)
		return -1;
	join(path, sizeof path, dir, "results");
	if (own_dir(path, DROPBOX_MODE, err) != 0)
		return -1;
	if ((dfd = open_dir(dir, err)) < 0)
		return -1;
	rc = atomic_write(dfd, dir, "script.json", script_text, 0644, err);
	close(dfd);
	return rc;
}

int
labdir_write_state(const char *dir, const struct lab_state *st,
    struct pl_err *err)
{
	char *text = lab_state_to_json(st);
	int dfd, rc = -1;

	if (text == NULL)
		return -1;
	if ((dfd = open_dir(dir, err)) >= 0) {
		rc = atomic_write(dfd, dir, "state.json", text, 0644, err);
		close(dfd);
	}
	free(text);
	return rc;
}

/* A host file (state.json, script.json): owned by DIR's owner. */
static char *
read_host_file(const char *dir, const char *name, struct pl_err *err)
{
	struct stat st;
	char path[1200], *text = NULL;
	int dfd;

	join(path, sizeof path, dir, name);
	if ((dfd = open_dir(dir, err)) < 0)
		return NULL;
	if (fstat(dfd, &st) == 0)
		text = read_checked(dfd, path, name, (long)st.st_uid,
		    PL_JSON_MAX_BYTES, err);
	close(dfd);
	return text;
}

int
labdir_read_state(const char *dir, struct lab_state *st, struct pl_err *err)
{
	char path[1200], *text = read_host_file(dir, "state.json", err);
	int rc;

	if (text == NULL)
		return -1;
	join(path, sizeof path, dir, "state.json");
	rc = lab_state_parse(text, path, st, err);
	free(text);
	return rc;
}

struct lab_script *
labdir_load_script(const char *dir, struct pl_err *err)
{
	char path[1200], *text = read_host_file(dir, "script.json", err);
	struct lab_script *ls;

	if (text == NULL)
		return NULL;
	join(path, sizeof path, dir, "script.json");
	ls = lab_script_parse(text, path, err);
	free(text);
	return ls;
}

int
labdir_whoami(char *buf, size_t size)
{
	struct passwd *pw = getpwuid(geteuid());
	int n;

	if (pw == NULL)
		return -1;
	n = snprintf(buf, size, "%s", pw->pw_name);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int
labdir_result_name(const char *user, const char *profile, char *buf,
    size_t size)
{
	size_t n = 0;
	int w;

	if (user[0] == '\0' || strchr(user, '@') != NULL ||
	    strchr(user, '/') != NULL || user[0] == '.')
		return -1;
	w = snprintf(buf, size, "%s@", user);
	if (w < 0 || (size_t)w >= size)
		return -1;
	n = (size_t)w;
	for (; *profile != '\0'; profile++) {
		unsigned char c = (unsigned char)*profile;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-')
			w = snprintf(buf + n, size - n, "%c", c);
		else
			w = snprintf(buf + n, size - n, "%%%02X", c);
		if (w < 0 || (size_t)w >= size - n)
			return -1;
		n += (size_t)w;
	}
	w = snprintf(buf + n, size - n, ".json");
	return w < 0 || (size_t)w >= size - n ? -1 : 0;
}

/*
 * Open DIR/results, which must be a sticky drop box: search-only for a
 * student, who may not read it (list set), readable for the host.
 */
static int
open_dropbox(const char *dir, char *path, size_t size, int list,
    struct pl_err *err)
{
	struct stat st;
	int dfd;

	join(path, size, dir, "results");
	if ((dfd = open_dir_mode(path, list ? O_RDONLY : SEARCH_ONLY,
	    err)) < 0)
		return -1;
	if (fstat(dfd, &st) != 0 || !(st.st_mode & S_ISVTX)) {
		pl_err_set(err, path, 0, 0, "%s",
		    _("not a lab drop box (it should be mode 3733)"));
		close(dfd);
		return -1;
	}
	return dfd;
}

/*
 * Take the caller's lock for result file name: ".NAME.lock" in the drop
 * box, created 0600 by the caller and refused if anyone else owns it (a
 * squatter would otherwise hold the name). Returns the descriptor holding
 * an exclusive flock, or -1 with err set.
 */
static int
lock_own(int dfd, const char *box, const char *name, struct pl_err *err)
{
	char lock[320], path[1600];
	struct stat st;
	int fd;

	snprintf(lock, sizeof lock, ".%s.lock", name);
	snprintf(path, sizeof path, "%s/%s", box, lock);
	fd = openat(dfd, lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == ELOOP)) {
		pl_err_set(err, path, 0, 0, "%s", _("another user's file holds "
		    "your lock name; ask the instructor to remove it"));
		return -1;
	}
	if (fd < 0)
		return sys_fail(err, path);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(fd);
		pl_err_set(err, path, 0, 0, "%s", _("another user's file holds "
		    "your lock name; ask the instructor to remove it"));
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR) {
			sys_fail(err, path);
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
		return errno == ENOENT ? 0 : sys_fail(err, path);
	if ((text = read_checked(dfd, path, name, (long)geteuid(),
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
	if ((dfd = open_dropbox(dir, box, sizeof box, 0, err)) < 0)
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
		rc = atomic_write(dfd, box, name, text, st.st_uid == geteuid() ?
		    0600 : 0640, err);
	free(text);
	return rc;
}

/* Open the drop box and lock the caller's name in it. */
static int
open_locked(const char *dir, const struct lab_result *r, char *box,
    size_t bsize, char *name, size_t nsize, int *lfd, struct pl_err *err)
{
	int dfd;

	if (labdir_result_name(r->user, r->profile, name, nsize) != 0) {
		pl_err_set(err, dir, 0, 0, "%s", _("user or profile name too long"));
		return -1;
	}
	if ((dfd = open_dropbox(dir, box, bsize, 0, err)) < 0)
		return -1;
	if ((*lfd = lock_own(dfd, box, name, err)) < 0) {
		close(dfd);
		return -1;
	}
	return dfd;
}

int
labdir_submit(const char *dir, const struct lab_result *r,
    struct pl_err *err)
{
	char box[1200], name[300];
	struct lab_result cur, merged;
	size_t i;
	int dfd, lfd, rc;

	if ((dfd = open_locked(dir, r, box, sizeof box, name, sizeof name,
	    &lfd, err)) < 0)
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
			rc = lab_result_set(&merged, r->answers[i].step,
			    r->answers[i].kind, r->answers[i].id,
			    r->answers[i].attempts, r->answers[i].first_correct,
			    r->answers[i].correct);
		for (i = 0; rc >= 0 && strcmp(cur.session, r->session) == 0 &&
		    i < cur.n_answers; i++) {
			const struct lab_answer *a = &cur.answers[i], *m;

			m = lab_result_find(&merged, a->step, a->kind, a->id);
			if (m == NULL || a->attempts > m->attempts)
				rc = lab_result_set(&merged, a->step, a->kind,
				    a->id, a->attempts, a->first_correct,
				    a->correct);
		}
		if (rc < 0)
			pl_err_set(err, dir, 0, 0, "%s", _("too many answers"));
		else
			rc = write_result(dfd, box, name, &merged, err);
	}
	lab_result_free(&cur);
	lab_result_free(&merged);
	close(lfd);
	close(dfd);
	return rc < 0 ? -1 : 0;
}

int
labdir_submit_answer(const char *dir, struct lab_result *r, int step,
    enum lab_item_kind kind, const char *id, int correct, int64_t now,
    struct pl_err *err)
{
	char box[1200], name[300], session[sizeof r->session];
	struct lab_result cur;
	int dfd, lfd, rc;

	if ((dfd = open_locked(dir, r, box, sizeof box, name, sizeof name,
	    &lfd, err)) < 0)
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
		if (lab_result_add(r, step, kind, id, correct) != 0) {
			pl_err_set(err, dir, 0, 0, "%s",
			    _("a bad id, or too many answers"));
			rc = -1;
		} else
			rc = write_result(dfd, box, name, r, err);
	}
	lab_result_free(&cur);
	close(lfd);
	close(dfd);
	return rc < 0 ? -1 : 0;
}

/* The user a result file's name names, and whether the name is valid. */
static int
name_user(const char *name, char *user, size_t size)
{
	const char *at = strchr(name, '@');
	size_t n = strlen(name);

	if (at == NULL || at == name || (size_t)(at - name) >= size ||
	    n < 6 || strcmp(name + n - 5, ".json") != 0)
		return -1;
	memcpy(user, name, (size_t)(at - name));
	user[at - name] = '\0';
	return 0;
}

/* Read and check one entry; 0 with *r filled, or -1 with err set. */
static int
scan_one(int dfd, const char *box, const char *name, struct lab_result *r,
    struct pl_err *err)
{
	char path[1600], user[64], expect[300], *text;
	struct passwd *pw;
	int rc;

	snprintf(path, sizeof path, "%s/%s", box, name);
	if (name_user(name, user, sizeof user) != 0) {
		pl_err_set(err, path, 0, 0, "%s",
		    _("not a result file name (USER@PROFILE.json); skipped"));
		return -1;
	}
	if ((pw = getpwnam(user)) == NULL) {
		pl_err_set(err, path, 0, 0, _("no user called \"%s\"; skipped"),
		    user);
		return -1;
	}
	text = read_checked(dfd, path, name, (long)pw->pw_uid,
	    LABDIR_RESULT_MAX, err);
	if (text == NULL)
		return -1;
	rc = lab_result_parse(text, path, r, err);
	free(text);
	if (rc != 0)
		return -1;
	if (labdir_result_name(r->user, r->profile, expect,
	    sizeof expect) != 0 || strcmp(expect, name) != 0) {
		pl_err_set(err, path, 0, 0, "%s",
		    _("its user and profile do not match its name; skipped"));
		lab_result_free(r);
		return -1;
	}
	return 0;
}

static int
scan_push(struct labdir_scan *sc, const struct lab_result *r,
    const struct pl_err *e)
{
	void *p;

	if (r != NULL) {
		p = realloc(sc->results, (sc->n + 1) * sizeof *sc->results);
		if (p == NULL)
			return -1;
		sc->results = p;
		sc->results[sc->n++] = *r;
		return 0;
	}
	p = realloc(sc->problems, (sc->n_problems + 1) * sizeof *sc->problems);
	if (p == NULL)
		return -1;
	sc->problems = p;
	sc->problems[sc->n_problems++] = *e;
	return 0;
}

int
labdir_scan(const char *dir, struct labdir_scan *sc, struct pl_err *err)
{
	struct dirent *de;
	struct lab_result r;
	struct pl_err e;
	char box[1200];
	DIR *d;
	int dfd, lfd;

	memset(sc, 0, sizeof *sc);
	if ((dfd = open_dropbox(dir, box, sizeof box, 1, err)) < 0)
		return -1;
	if ((lfd = dup(dfd)) < 0 || (d = fdopendir(lfd)) == NULL) {
		if (lfd >= 0)
			close(lfd);
		close(dfd);
		return sys_fail(err, box);
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;	/* ., .. and temp files being written */
		pl_err_clear(&e);
		if (scan_one(dfd, box, de->d_name, &r, &e) == 0) {
			if (scan_push(sc, &r, NULL) != 0)
				lab_result_free(&r);
		} else
			scan_push(sc, NULL, &e);
	}
	closedir(d);
	close(dfd);
	lab_results_sort(sc->results, sc->n);
	return 0;
}

void
labdir_scan_free(struct labdir_scan *sc)
{
	size_t i;

	if (sc == NULL)
		return;
	for (i = 0; i < sc->n; i++)
		lab_result_free(&sc->results[i]);
	free(sc->results);
	free(sc->problems);
	memset(sc, 0, sizeof *sc);
}

int
labdir_reset(const char *dir, int64_t now, char *archived, size_t size,
    struct pl_err *err)
{
	struct lab_state st;
	char arch[1200], from[1200], to[1300], stamp[32];
	time_t t = (time_t)now;
	struct tm tm;

	if (labdir_read_state(dir, &st, err) != 0)
		return -1;
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "archive-%Y%m%d-%H%M%S", &tm);
	join(arch, sizeof arch, dir, stamp);
	if (mkdir(arch, 0700) != 0)
		return sys_fail(err, arch);
	join(from, sizeof from, dir, "results");
	join(to, sizeof to, arch, "results");
	if (rename(from, to) != 0)
		return sys_fail(err, from);
	join(from, sizeof from, dir, "state.json");
	join(to, sizeof to, arch, "state.json");
	if (rename(from, to) != 0)
		return sys_fail(err, from);
	join(from, sizeof from, dir, "results");
	if (own_dir(from, DROPBOX_MODE, err) != 0)
		return -1;
	labdir_new_session(st.session, sizeof st.session);
	st.step = 0;
	st.started = st.step_started = now;
	snprintf(archived, size, "%s", arch);
	return labdir_write_state(dir, &st, err);
}
