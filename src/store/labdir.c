/*
 * labdir.c - the lab directory's files: modes, owners, atomic writes and
 * the checks made before a student's file is believed.
 *
 * Every file is opened relative to a directory descriptor opened with
 * O_NOFOLLOW, so a symlink planted in place of the drop box or a file is
 * refused rather than followed. See labdir.h for the layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "core/json.h"
#include "store/labdir.h"
#include "store/labdir_int.h"

#define DROPBOX_MODE	(S_ISGID | S_ISVTX | 0733)

/* Opening a directory we may search but not read (the drop box). */
#if defined(O_PATH)
#define SEARCH_ONLY	O_PATH
#elif defined(O_SEARCH)
#define SEARCH_ONLY	O_SEARCH
#else
#define SEARCH_ONLY	O_RDONLY
#endif

int
labdir_sys_fail(struct pl_err *err, const char *path)
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
		labdir_sys_fail(err, path);
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
int
labdir_atomic_write(int dfd, const char *dirpath, const char *name,
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
			return labdir_sys_fail(err, path);
	}
	if (fd < 0)
		return labdir_sys_fail(err, path);
	/* Group-only read (a result, 0640) only when the file took the
	 * directory's group; a world-readable file (0644) is read by all
	 * whatever its group, as in a setgid shared directory. */
	if ((mode & 0070) != 0 && (mode & 0007) == 0 && (fstat(fd, &st) != 0 ||
	    fstat(dfd, &dst) != 0 || st.st_gid != dst.st_gid))
		mode = 0600;
	if ((mode != 0600 && fchmod(fd, mode) != 0) ||
	    write_all(fd, text, strlen(text)) != 0 || fsync(fd) != 0) {
		labdir_sys_fail(err, path);
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
			labdir_sys_fail(err, path);
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	return 0;
}

/*
 * Read name in dfd: no symlink, a regular file, owned by uid (unless uid
 * is -1), at most cap bytes. Returns the text (caller frees) or NULL.
 */
char *
labdir_read_checked(int dfd, const char *path, const char *name, long uid,
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
			labdir_sys_fail(err, path);
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
		return labdir_sys_fail(err, path);
	if (lstat(path, &st) != 0)
		return labdir_sys_fail(err, path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		pl_err_set(err, path, 0, 0, "%s",
		    _("exists and is not a directory of yours"));
		return -1;
	}
	/* A setgid bit inherited from a shared parent stays: the lab's
	 * files then take the shared group, as the instructor meant. */
	if (chmod(path, mode | (st.st_mode & S_ISGID)) != 0)
		return labdir_sys_fail(err, path);
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

/*
 * Members of group gid other than the caller, named into who (for the
 * message): listed in the group, or having it as their primary group.
 * Returns how many.
 */
static int
others_in_group(gid_t gid, char *who, size_t size)
{
	struct group *gr = getgrgid(gid);
	struct passwd *pw, *me = getpwuid(geteuid());
	char me_name[64];
	size_t len = 0;
	int n = 0;
	char **m;

	snprintf(me_name, sizeof me_name, "%s", me != NULL ? me->pw_name : "");
	who[0] = '\0';
	for (m = gr != NULL ? gr->gr_mem : NULL; m != NULL && *m != NULL; m++)
		if (strcmp(*m, me_name) != 0 && n++ < 3 && len < size)
			len += (size_t)snprintf(who + len, size - len, "%s%s",
			    len > 0 ? ", " : "", *m);
	setpwent();
	while ((pw = getpwent()) != NULL)
		if (pw->pw_gid == gid && pw->pw_uid != geteuid() &&
		    n++ < 3 && len < size)
			len += (size_t)snprintf(who + len, size - len, "%s%s",
			    len > 0 ? ", " : "", pw->pw_name);
	endpwent();
	return n;
}

/*
 * The drop box's group can read every student's result: it must be
 * private to the instructor. Keep the box's group if it is, else take
 * the caller's own group if that is, else refuse with the fix.
 */
static int
private_group(const char *path, struct pl_err *err)
{
	struct group *gr;
	struct stat st;
	char who[200], name[64];
	int n;

	if (stat(path, &st) != 0)
		return labdir_sys_fail(err, path);
	if ((n = others_in_group(st.st_gid, who, sizeof who)) == 0)
		return 0;
	if (st.st_gid != getegid() && others_in_group(getegid(), name,
	    sizeof name) == 0) {
		if (chown(path, (uid_t)-1, getegid()) != 0)
			return labdir_sys_fail(err, path);
		return 0;
	}
	gr = getgrgid(st.st_gid);
	snprintf(name, sizeof name, "%s", gr != NULL ? gr->gr_name : "?");
	pl_err_set(err, path, 0, 0, _("its group \"%s\" has other members "
	    "(%s%s), who could read every student's results; give it a group "
	    "only you are in (chgrp GROUP %s) or host the lab from such a "
	    "group (newgrp GROUP)"), name, who, n > 3 ? ", ..." : "", path);
	return -1;
}

int
labdir_create(const char *dir, const char *script_text, struct pl_err *err)
{
	char path[1200];
	int dfd, rc;

	if (own_dir(dir, 0755, err) != 0)
		return -1;
	join(path, sizeof path, dir, "results");
	if (own_dir(path, DROPBOX_MODE, err) != 0 ||
	    private_group(path, err) != 0)
		return -1;
	if ((dfd = open_dir(dir, err)) < 0)
		return -1;
	rc = labdir_atomic_write(dfd, dir, "script.json", script_text, 0644, err);
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
		rc = labdir_atomic_write(dfd, dir, "state.json", text, 0644, err);
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
		text = labdir_read_checked(dfd, path, name, (long)st.st_uid,
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
int
labdir_open_dropbox(const char *dir, char *path, size_t size, int list,
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
		return labdir_sys_fail(err, arch);
	join(from, sizeof from, dir, "results");
	join(to, sizeof to, arch, "results");
	if (rename(from, to) != 0)
		return labdir_sys_fail(err, from);
	join(from, sizeof from, dir, "state.json");
	join(to, sizeof to, arch, "state.json");
	if (rename(from, to) != 0)
		return labdir_sys_fail(err, from);
	join(from, sizeof from, dir, "results");
	if (own_dir(from, DROPBOX_MODE, err) != 0 ||
	    private_group(from, err) != 0)
		return -1;
	labdir_new_session(st.session, sizeof st.session);
	st.step = 0;
	st.started = st.step_started = now;
	snprintf(archived, size, "%s", arch);
	return labdir_write_state(dir, &st, err);
}
