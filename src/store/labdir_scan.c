/*
 * labdir_scan.c - the host's pass over the drop box.
 *
 * Anyone in the room can put files in the drop box, so a pass trusts no
 * entry and bounds its work whatever is there: a name that is not
 * USER@PROFILE.json, a student's lock or profile list (whose owners are
 * checked as a result's is) costs no system call; users are looked up
 * once per pass (at most LABDIR_MAX_USERS of them); a student's files
 * beyond LABDIR_MAX_PER_USER are counted, not read (the host's own are not
 * capped: an instructor may try the lab under many profiles); at most LABDIR_MAX_PROBLEMS
 * problems are kept (a name another user squatted first), the rest only
 * counted. The dashboard calls labdir_scan_refresh once a second: it does
 * nothing while the drop box is unchanged, and rescans at most once per
 * LABDIR_SCAN_DUTY times the last pass's cost, so a box stuffed with junk
 * costs the host at most about one percent of a CPU.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "store/labdir.h"
#include "store/labdir_int.h"

#define USER_SLOTS	(2 * LABDIR_MAX_USERS)	/* hash table, power of 2 */

/* One user named by file names in this pass. */
struct user_slot {
	char	name[64];
	long	uid;		/* -1: no such user */
	int	files;		/* result files of this user read so far */
};

struct pass {
	int			 dfd;
	const char		*box;
	struct labdir_scan	*sc;
	struct user_slot	*users;		/* USER_SLOTS entries */
	size_t			 n_users;
	size_t			 n_squatted;	/* leading problems */
};

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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

/* The slot for user (looked up on first use), or NULL when full. */
static struct user_slot *
user_slot(struct pass *p, const char *user)
{
	struct passwd *pw;
	unsigned long h = 2166136261u;
	const char *c;
	size_t i;

	for (c = user; *c != '\0'; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	for (i = h & (USER_SLOTS - 1); p->users[i].name[0] != '\0';
	    i = (i + 1) & (USER_SLOTS - 1))
		if (strcmp(p->users[i].name, user) == 0)
			return &p->users[i];
	if (p->n_users >= LABDIR_MAX_USERS)
		return NULL;
	p->n_users++;
	snprintf(p->users[i].name, sizeof p->users[i].name, "%s", user);
	pw = getpwnam(user);
	p->users[i].uid = pw != NULL ? (long)pw->pw_uid : -1;
	return &p->users[i];
}

/*
 * Count a skipped entry and keep its problem while there is room;
 * squatted names go first, so the dashboard's one line shows them.
 */
static void
skip(struct pass *p, const struct pl_err *e, int squatted)
{
	struct labdir_scan *sc = p->sc;
	size_t at = squatted ? p->n_squatted : sc->n_problems;

	sc->n_skipped++;
	if (sc->n_problems >= LABDIR_MAX_PROBLEMS) {
		if (!squatted || p->n_squatted >= LABDIR_MAX_PROBLEMS)
			return;
		sc->n_problems--;	/* an ordinary problem makes room */
	}
	memmove(&sc->problems[at + 1], &sc->problems[at],
	    (sc->n_problems - at) * sizeof *sc->problems);
	sc->problems[at] = *e;
	sc->n_problems++;
	if (squatted)
		p->n_squatted++;
}

static void
skip_msg(struct pass *p, const char *name, const char *msg)
{
	struct pl_err e;
	char path[1600];

	snprintf(path, sizeof path, "%s/%s", p->box, name);
	pl_err_set(&e, path, 0, 0, "%s", msg);
	skip(p, &e, 0);
}

static int
push_result(struct labdir_scan *sc, const struct lab_result *r)
{
	void *np;

	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 32;
		if ((np = realloc(sc->results, sc->cap * sizeof *sc->results)) ==
		    NULL)
			return -1;
		sc->results = np;
	}
	sc->results[sc->n++] = *r;
	return 0;
}

/*
 * A file under u's name that another user made: say who and what to do.
 * what is the kind of name: a result (0), its lock (1), the student's
 * profile list (2), both kept by labdir_submit.c.
 */
static void
squatted(struct pass *p, const char *name, const struct user_slot *u,
    long owner, int what)
{
	struct passwd *pw = p->sc->n_problems < LABDIR_MAX_PROBLEMS ||
	    p->n_squatted < LABDIR_MAX_PROBLEMS ? getpwuid((uid_t)owner) : NULL;
	struct pl_err e;
	char path[1600];

	snprintf(path, sizeof path, "%s/%s", p->box, name);
	if (what == 0)
		pl_err_set(&e, path, 0, 0, _("squatted: made by %s (uid %ld), "
		    "not by %s whose name it bears; %s cannot submit under this "
		    "profile until you remove it"), pw != NULL ? pw->pw_name :
		    "?", owner, u->name, u->name);
	else if (what == 1)
		pl_err_set(&e, path, 0, 0, _("squatted: made by %s (uid %ld), "
		    "not by %s whose lock it is; %s cannot submit under this "
		    "profile until you remove it"), pw != NULL ? pw->pw_name :
		    "?", owner, u->name, u->name);
	else
		pl_err_set(&e, path, 0, 0, _("squatted: made by %s (uid %ld), "
		    "not by %s whose profile list it is; %s cannot submit "
		    "until you remove it"), pw != NULL ? pw->pw_name : "?",
		    owner, u->name, u->name);
	skip(p, &e, 1);
}

/*
 * A dot entry: a student's lock (".USER@PROFILE.json.lock") or profile
 * list (".USER.profiles") made by another user is squatted: the student
 * it names cannot submit. Other dot entries (temporary files) are not
 * looked at.
 */
static void
scan_dot(struct pass *p, const char *name)
{
	char user[64], inner[320];
	struct user_slot *u;
	struct stat st;
	size_t n = strlen(name);
	int what;

	if (n > 6 && strcmp(name + n - 5, ".lock") == 0 &&
	    n - 6 < sizeof inner) {
		memcpy(inner, name + 1, n - 6);
		inner[n - 6] = '\0';
		if (name_user(inner, user, sizeof user) != 0)
			return;
		what = 1;
	} else if (n > 10 && strcmp(name + n - 9, ".profiles") == 0 &&
	    n - 10 < sizeof user && memchr(name, '@', n) == NULL) {
		memcpy(user, name + 1, n - 10);
		user[n - 10] = '\0';
		what = 2;
	} else
		return;
	if ((u = user_slot(p, user)) == NULL || u->uid < 0)
		return;
	if (fstatat(p->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (long)st.st_uid != u->uid)
		squatted(p, name, u, (long)st.st_uid, what);
}

/* Read and check one entry. */
static void
scan_one(struct pass *p, const char *name)
{
	char path[1600], user[64], expect[300], *text;
	struct user_slot *u;
	struct lab_result r;
	struct pl_err e;
	struct stat st;
	int rc;

	if (name_user(name, user, sizeof user) != 0) {
		skip_msg(p, name, _("not a result file name (USER@PROFILE.json); "
		    "skipped"));
		return;
	}
	if ((u = user_slot(p, user)) == NULL) {
		skip_msg(p, name, _("too many users named in the drop box; "
		    "skipped"));
		return;
	}
	if (u->uid < 0) {
		skip_msg(p, name, _("no such user; skipped"));
		return;
	}
	if (u->files >= LABDIR_MAX_PER_USER && u->uid != (long)geteuid()) {
		skip_msg(p, name, _("more result files for this user than a lab "
		    "allows; skipped"));
		return;
	}
	if (fstatat(p->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && (long)st.st_uid != u->uid) {
		squatted(p, name, u, (long)st.st_uid, 0);
		return;
	}
	snprintf(path, sizeof path, "%s/%s", p->box, name);
	pl_err_clear(&e);
	text = labdir_read_checked(p->dfd, path, name, u->uid,
	    LABDIR_RESULT_MAX, &e);
	if (text == NULL) {
		skip(p, &e, 0);
		return;
	}
	u->files++;
	rc = lab_result_parse(text, path, &r, &e);
	free(text);
	if (rc != 0) {
		skip(p, &e, 0);
		return;
	}
	if (labdir_result_name(r.user, r.profile, expect,
	    sizeof expect) != 0 || strcmp(expect, name) != 0) {
		lab_result_free(&r);
		skip_msg(p, name, _("its user and profile do not match its name; "
		    "skipped"));
		return;
	}
	if (push_result(p->sc, &r) != 0)
		lab_result_free(&r);
}

/* One full pass over the open drop box dfd into sc (emptied first). */
static int
scan_box(int dfd, const char *box, struct labdir_scan *sc,
    struct pl_err *err)
{
	struct pass p;
	struct dirent *de;
	DIR *d;
	int lfd;

	memset(&p, 0, sizeof p);
	p.dfd = dfd;
	p.box = box;
	p.sc = sc;
	p.users = calloc(USER_SLOTS, sizeof *p.users);
	sc->problems = calloc(LABDIR_MAX_PROBLEMS, sizeof *sc->problems);
	if (p.users == NULL || sc->problems == NULL) {
		free(p.users);
		pl_err_set(err, box, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	if ((lfd = dup(dfd)) < 0 || (d = fdopendir(lfd)) == NULL) {
		if (lfd >= 0)
			close(lfd);
		free(p.users);
		return labdir_sys_fail(err, box);
	}
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			scan_one(&p, de->d_name);
		else	/* ., .., locks, profile lists, temp files */
			scan_dot(&p, de->d_name);
	closedir(d);
	free(p.users);
	lab_results_sort(sc->results, sc->n);
	return 0;
}

/* Empty sc's lists, keeping what refresh compares. */
static void
clear_lists(struct labdir_scan *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++)
		lab_result_free(&sc->results[i]);
	free(sc->results);
	free(sc->problems);
	sc->results = NULL;
	sc->problems = NULL;
	sc->n = sc->cap = sc->n_problems = sc->n_skipped = 0;
}

int
labdir_scan(const char *dir, struct labdir_scan *sc, struct pl_err *err)
{
	char box[1200];
	int dfd, rc;

	memset(sc, 0, sizeof *sc);
	if ((dfd = labdir_open_dropbox(dir, box, sizeof box, 1, err)) < 0)
		return -1;
	rc = scan_box(dfd, box, sc, err);
	close(dfd);
	return rc;
}

static int
same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

int
labdir_scan_refresh(const char *dir, struct labdir_scan *sc,
    struct pl_err *err)
{
	struct labdir_scan fresh;
	struct stat st;
	char box[1200];
	int64_t t0 = now_ms();
	int dfd, rc;

	if ((dfd = labdir_open_dropbox(dir, box, sizeof box, 1, err)) < 0)
		return -1;
	if (fstat(dfd, &st) != 0) {
		close(dfd);
		return labdir_sys_fail(err, box);
	}
	/* Every submit renames a file into the box, which changes its
	 * times; a time within the last two seconds is not trusted to have
	 * caught every change (coarse clocks). */
	if (sc->valid && same_time(&st.st_mtim, &sc->box_mtime) &&
	    same_time(&st.st_ctim, &sc->box_ctime) &&
	    (int64_t)time(NULL) - (int64_t)st.st_mtim.tv_sec > 2) {
		close(dfd);
		return 0;
	}
	if (sc->valid && t0 - sc->scanned_ms < LABDIR_SCAN_DUTY *
	    sc->cost_ms) {
		close(dfd);
		return 0;
	}
	memset(&fresh, 0, sizeof fresh);
	rc = scan_box(dfd, box, &fresh, err);
	close(dfd);
	if (rc != 0) {
		clear_lists(&fresh);
		return -1;
	}
	clear_lists(sc);
	*sc = fresh;
	sc->box_mtime = st.st_mtim;
	sc->box_ctime = st.st_ctim;
	sc->scanned_ms = now_ms();
	sc->cost_ms = sc->scanned_ms - t0;
	sc->valid = 1;
	return 1;
}

void
labdir_scan_free(struct labdir_scan *sc)
{
	if (sc == NULL)
		return;
	clear_lists(sc);
	memset(sc, 0, sizeof *sc);
}
