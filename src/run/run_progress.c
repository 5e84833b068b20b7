/*
 * run_progress.c - the progress file: a header, then one slot per rank.
 * No MPI here: parlearn (the parent) reads it as well.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "run/run_progress.h"

#define SLOT		512
#define MAGIC		0x504c5250u	/* "PLRP" */
#define TOKEN_LEN	24
#define TICK		0.05		/* seconds between signs of life */
#define NAMED_MAX	3		/* ranks named in full in a message */

struct rec {
	uint32_t	 magic;
	int32_t		 rank;
	int32_t		 pid;
	int32_t		 state;		/* enum run_state */
	struct {
		double	 mono;		/* last sign of life, CLOCK_MONOTONIC */
		double	 real;		/* the same on CLOCK_REALTIME */
	} life;
	char		 host[64];
	char		 where[SLOT - 96];
};

_Static_assert(sizeof(struct rec) == SLOT, "a record fills its slot");

/* The header: the magic, then the token the variable carries. */
struct head {
	uint32_t	 magic;
	char		 token[TOKEN_LEN + 1];
};

/* This rank's side. */
static int	 pfd = -1;
static struct rec me;
static char	 busy_where[sizeof me.where];
static double	 last_tick;

double
run_progress_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double
real_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

double
run_progress_stale(double timeout)
{
	double s = timeout / 3;

	return s < 0.3 ? 0.3 : s > 5 ? 5 : s;
}

int
run_progress_create(char *env, size_t n)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096], probe[64];
	struct head h;
	int fd, t;

	snprintf(path, sizeof path, "%s/parlearn-run.XXXXXX",
	    tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return -1;
	unlink(path);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	memset(&h, 0, sizeof h);
	h.magic = MAGIC;
	/* mkstemp's random letters, the pid and the time: unguessable
	   enough to tell this file from another one at the same path. */
	snprintf(h.token, sizeof h.token, "%s%08lx%08lx",
	    strrchr(path, '.') + 1, (long)getpid() & 0xffffffffL,
	    (long)time(NULL) & 0xffffffffL);
	snprintf(probe, sizeof probe, "/proc/%ld/fd/%d", (long)getpid(), fd);
	if (pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
	    (t = open(probe, O_RDONLY | O_CLOEXEC)) < 0) {
		close(fd);
		return -1;
	}
	close(t);
	if ((size_t)snprintf(env, n, "%s %s", probe, h.token) >= n) {
		close(fd);
		return -1;
	}
	return fd;
}

static void
put(void)
{
	if (pfd < 0 || me.rank < 0)
		return;
	me.life.mono = last_tick = run_progress_now();
	me.life.real = real_now();
	if (pwrite(pfd, &me, sizeof me, (off_t)(me.rank + 1) * SLOT) < 0)
		return;		/* no record: the messages fall back */
}

void
run_progress_open(int rank)
{
	const char *v = getenv(RUN_PROGRESS_ENV);
	char path[256], token[TOKEN_LEN + 1];
	struct head h;
	struct stat st;
	int fd;

	if (v == NULL || sscanf(v, "%255s %24s", path, token) != 2)
		return;
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() ||
	    pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
	    h.magic != MAGIC || strncmp(h.token, token, TOKEN_LEN) != 0) {
		close(fd);
		return;
	}
	pfd = fd;
	memset(&me, 0, sizeof me);
	me.magic = MAGIC;
	me.rank = rank;
	me.pid = (int32_t)getpid();
	if (gethostname(me.host, sizeof me.host - 1) != 0)
		me.host[0] = '\0';
	put();
}

void
run_progress_set_rank(int rank)
{
	if (me.rank < 0 && rank >= 0) {
		me.rank = rank;
		put();
	}
}

void
run_progress_busy(const char *fmt, ...)
{
	va_list ap;

	if (pfd < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(busy_where, sizeof busy_where, fmt, ap);
	va_end(ap);
	memcpy(me.where, busy_where, sizeof me.where);
	me.state = RUN_ST_BUSY;
	put();
}

void
run_progress_wait(const char *what)
{
	if (pfd < 0)
		return;
	snprintf(me.where, sizeof me.where, _("while waiting for %s"), what);
	me.state = RUN_ST_WAITING;
	put();
}

void
run_progress_busy_again(void)
{
	if (pfd < 0)
		return;
	memcpy(me.where, busy_where, sizeof me.where);
	me.state = RUN_ST_BUSY;
	put();
}

void
run_progress_tick(void)
{
	double now;

	if (pfd < 0 || me.rank < 0)
		return;
	if ((now = run_progress_now()) - last_tick < TICK)
		return;
	me.life.mono = last_tick = now;
	me.life.real = real_now();
	if (pwrite(pfd, &me.life, sizeof me.life,
	    (off_t)(me.rank + 1) * SLOT + (off_t)offsetof(struct rec, life)) < 0)
		return;
}

void
run_progress_state(enum run_state st)
{
	me.state = st;
	put();
}

/* Only what a signal handler may do: one pwrite. */
static void
on_term(int sig)
{
	int32_t st = RUN_ST_ENDED;
	ssize_t w;

	if (pfd >= 0 && me.rank >= 0)
		w = pwrite(pfd, &st, sizeof st, (off_t)(me.rank + 1) * SLOT +
		    (off_t)offsetof(struct rec, state));
	(void)w;
	signal(sig, SIG_DFL);
	raise(sig);
}

void
run_progress_on_term(void)
{
	struct sigaction sa;

	if (pfd < 0)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
}

/* Rank r's record, read until two reads agree (a writer may be busy). */
static int
get(int fd, int r, struct rec *out)
{
	struct rec again;
	int i;

	for (i = 0; i < 5; i++) {
		if (pread(fd, out, sizeof *out, (off_t)(r + 1) * SLOT) !=
		    (ssize_t)sizeof *out)
			return 0;
		if (pread(fd, &again, sizeof again, (off_t)(r + 1) * SLOT) ==
		    (ssize_t)sizeof again && memcmp(out, &again,
		    sizeof again) == 0)
			break;
	}
	if (out->magic != MAGIC || out->rank != r)
		return 0;
	out->host[sizeof out->host - 1] = '\0';
	out->where[sizeof out->where - 1] = '\0';
	return 1;
}

int
run_progress_get(int fd, int r, long *pid, char *host, size_t hn,
    char *where, size_t wn)
{
	struct rec x;

	if (fd < 0)
		fd = pfd;
	if (fd < 0 || r < 0 || !get(fd, r, &x))
		return 0;
	*pid = x.pid;
	snprintf(host, hn, "%s", x.host);
	snprintf(where, wn, "%s", x.where);
	return 1;
}

/* Append ", " (after the first) and the formatted text to buf. */
static void
add(char *buf, size_t n, int first, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
add(char *buf, size_t n, int first, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (!first && len + 2 < n) {
		memcpy(buf + len, ", ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* The process of record x has ended (only known on its own host). */
static int
gone(const struct rec *x, const char *host)
{
	return strcmp(x->host, host) == 0 && kill(x->pid, 0) != 0 &&
	    errno == ESRCH;
}

/*
 * The ranks to name: with stale >= 0, those without a sign of life for
 * stale seconds; with stale < 0, those whose process ended by itself
 * (not done, not given up, not ended by a signal from the launcher).
 */
static int
scan(int fd, int self, int size, double stale, char *buf, size_t n)
{
	char host[sizeof me.host] = "";
	int missing[64], n_missing = 0, named = 0, more = 0, r, same;
	double mono = run_progress_now(), real = real_now(), age;
	struct rec x;

	buf[0] = '\0';
	if (fd < 0)
		fd = pfd;
	if (fd < 0 || size <= 0 || n == 0)
		return 0;
	if (gethostname(host, sizeof host - 1) != 0)
		host[0] = '\0';
	for (r = 0; r < size; r++) {
		if (r == self)
			continue;
		if (!get(fd, r, &x)) {
			if (n_missing < (int)(sizeof missing / sizeof *missing))
				missing[n_missing++] = r;
			continue;
		}
		if (x.state == RUN_ST_DONE || x.state == RUN_ST_GAVE_UP ||
		    x.state == RUN_ST_ENDED)
			continue;
		same = strcmp(x.host, host) == 0;
		age = same ? mono - x.life.mono : real - x.life.real;
		if (stale >= 0 ? age <= stale : !gone(&x, host))
			continue;
		if (named == NAMED_MAX) {
			more++;
			continue;
		}
		if (gone(&x, host))
			add(buf, n, named == 0, _("rank %d (pid %ld on host %s) "
			    "died %s"), r, (long)x.pid, x.host, x.where);
		else
			add(buf, n, named == 0, _("rank %d (pid %ld on host %s) "
			    "stopped answering %s"), r, (long)x.pid, x.host,
			    x.where);
		named++;
	}
	/* Only when no rank that did start is behind: one that never
	   wrote may still be on its way, or on a host without the file. */
	if (stale >= 0 && named == 0) {
		for (r = 0; r < n_missing && r < NAMED_MAX; r++)
			add(buf, n, r == 0, _("rank %d gave no sign of life (not "
			    "started, or on another host)"), missing[r]);
		named = r;
		more = n_missing - r;
	}
	if (more > 0)
		add(buf, n, 1, P_(", and %d more rank", ", and %d more ranks",
		    more), more);
	return named + more;
}

int
run_progress_blame(int fd, int self, int size, double stale, char *buf,
    size_t n)
{
	return scan(fd, self, size, stale < 0 ? 0 : stale, buf, n);
}

int
run_progress_died(int fd, int size, char *buf, size_t n)
{
	return scan(fd, -1, size, -1, buf, n);
}

/* Where rank r's last words go: past the header and the size records. */
static off_t
words_at(int size, int r)
{
	return (off_t)(size + 1 + r) * SLOT;
}

void
run_progress_last_words(int size, const char *line)
{
	char slot[SLOT];

	if (pfd < 0 || me.rank < 0 || me.rank >= size)
		return;
	memset(slot, 0, sizeof slot);
	snprintf(slot, sizeof slot, "%s", line);
	if (pwrite(pfd, slot, sizeof slot, words_at(size, me.rank)) < 0)
		return;		/* the stderr line is all there is */
}

int
run_progress_last_words_get(int fd, int size, char *buf, size_t n)
{
	char slot[SLOT];
	int r;

	if (fd < 0 || n == 0)
		return 0;
	for (r = 0; r < size; r++) {
		if (pread(fd, slot, sizeof slot, words_at(size, r)) !=
		    (ssize_t)sizeof slot || slot[0] == '\0')
			continue;
		slot[sizeof slot - 1] = '\0';
		snprintf(buf, n, "%s", slot);
		return 1;
	}
	return 0;
}
