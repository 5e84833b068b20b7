/*
 * cmd_run.c - `parlearn run`: the toy model on real processes with MPI.
 *
 * parlearn itself never links MPI. The MPI side is a separate program,
 * parlearn-run (src/run/), built only when ./configure finds MPI. This
 * command checks the request first (so `--np 3 --mode 3d` fails before any
 * process starts), then either
 *   - replaces itself with parlearn-run, when mpirun or srun already
 *     started this process as one rank of a job (`mpirun -np 4 parlearn
 *     run --mode tp`, `srun -n 8 parlearn run --mode 3d`), or
 *   - starts `mpirun -np N parlearn-run ...` and waits for it, keeping
 *     what the job prints on stdout (rank 0's results) to write it here,
 *     every write checked, and mpirun's messages in an unlinked log that
 *     turns a failed job into one line (or, when mpirun failed by itself,
 *     its own words) and exit 2.
 * Keeping MPI out of the main binary means the tutor starts without an
 * MPI runtime, and MPI_Init never runs inside a curses program.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "run/run_opts.h"
#include "run/run_progress.h"

#ifndef PL_PKGLIBEXECDIR
#define PL_PKGLIBEXECDIR	"/usr/local/libexec/parlearn"
#endif
#ifndef PL_MPIRUN
#define PL_MPIRUN		"mpirun"
#endif

#define HELPER		"parlearn-run"
/* The parent's backstop: every wait of a rank is bounded by --timeout
 * (starting and finishing MPI each once, the step's many waits briefly);
 * mpirun is given this long in all, and RUN_GRACE once a rank gave up. */
#define RUN_GRACE	5.0
#define RUN_BACKSTOP(t)	(2.0 * (t) + 15.0)
#define NO_MPI_HINT	N_("parlearn: run needs MPI, and this parlearn was " \
	"built without it: install it (Debian: apt-get install openmpi-bin " \
	"libopenmpi-dev) and rebuild parlearn\n")

/* This process as one rank of a job that mpirun or srun started. */
struct launched {
	int	 size;		/* 0: not started by a launcher */
	int	 rank;
};

static int
env_int(const char *name)
{
	const char *s = getenv(name);

	return s != NULL && *s >= '0' && *s <= '9' ? atoi(s) : -1;
}

/*
 * Open MPI's mpirun sets OMPI_COMM_WORLD_*, MPICH's Hydra PMI_*, srun
 * SLURM_STEP_ID with SLURM_PROCID (a batch script has neither a step nor
 * a task id of its own, so `parlearn run` there starts mpirun).
 */
static void
detect_launcher(struct launched *l)
{
	static const char *const pairs[][2] = {
		{ "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK" },
		{ "PMI_SIZE", "PMI_RANK" },
		{ "SLURM_STEP_NUM_TASKS", "SLURM_PROCID" },
	};
	size_t i;

	l->size = 0;
	l->rank = 0;
	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		if (i == 2 && env_int("SLURM_STEP_ID") < 0)
			continue;
		if (env_int(pairs[i][0]) > 0 && env_int(pairs[i][1]) >= 0) {
			l->size = env_int(pairs[i][0]);
			l->rank = env_int(pairs[i][1]);
			return;
		}
	}
}

static int
executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

#ifdef HAVE_MPI
/* parlearn-run next to this binary (the build tree), else installed. */
static const char *
search_helper(char *buf, size_t n)
{
	char exe[PATH_MAX], *slash;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (len > 0) {
		exe[len] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			if ((size_t)snprintf(buf, n, "%s/%s", exe, HELPER) < n &&
			    executable(buf))
				return buf;
		}
	}
	snprintf(buf, n, "%s/%s", PL_PKGLIBEXECDIR, HELPER);
	return executable(buf) ? buf : NULL;
}
#endif

/*
 * parlearn-run: $PARLEARN_RUN_HELPER, else next to this binary (the build
 * tree), else where `make install` puts it. NULL if none is there (or
 * parlearn was built without MPI).
 */
static const char *
find_helper(char *buf, size_t n)
{
	const char *env = getenv("PARLEARN_RUN_HELPER");

	if (env != NULL && env[0] != '\0')
		return executable(env) ? env : NULL;
#ifdef HAVE_MPI
	return search_helper(buf, n);
#else
	(void)buf;
	(void)n;
	return NULL;
#endif
}

/* The launcher to start: $PARLEARN_MPIRUN, else the one configure found. */
static const char *
find_mpirun(char *buf, size_t n)
{
	const char *m = getenv("PARLEARN_MPIRUN");
	const char *path = getenv("PATH"), *p, *colon;

	if (m == NULL || m[0] == '\0')
		m = PL_MPIRUN;
	if (strchr(m, '/') != NULL)
		return executable(m) ? m : NULL;
	for (p = path != NULL ? path : "/usr/bin:/bin"; *p; p = colon + 1) {
		colon = strchr(p, ':');
		if (colon == NULL)
			colon = p + strlen(p);
		snprintf(buf, n, "%.*s/%s", (int)(colon - p), p, m);
		if (executable(buf))
			return buf;
		if (*colon == '\0')
			break;
	}
	return NULL;
}

static int
is_open_mpi(void)
{
#ifdef PL_MPIRUN_OPENMPI
	const char *m = getenv("PARLEARN_MPIRUN");

	return m == NULL || m[0] == '\0';
#else
	return 0;
#endif
}

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

/* The child: mpirun -np N [--oversubscribe] HELPER ARGS..., stderr to log. */
static void
exec_mpirun(const char *mpirun, const char *helper, int np, int log_fd,
    const char *progress, int argc, char **argv)
{
	char **av = calloc((size_t)argc + 8, sizeof *av), nps[16];
	int i = 0, j, null_fd = open("/dev/null", O_RDONLY);

	if (av == NULL)
		_exit(127);
	snprintf(nps, sizeof nps, "%d", np);
	av[i++] = (char *)mpirun;
	av[i++] = "-np";
	av[i++] = nps;
	if (is_open_mpi())	/* the toy fits on any laptop's cores */
		av[i++] = "--oversubscribe";
	av[i++] = (char *)helper;
	for (j = 1; j < argc; j++)
		av[i++] = argv[j];
	av[i] = NULL;
	if (null_fd >= 0)
		dup2(null_fd, STDIN_FILENO);
	dup2(log_fd, STDERR_FILENO);
	if (progress != NULL)
		setenv(RUN_PROGRESS_ENV, progress, 1);
	else
		unsetenv(RUN_PROGRESS_ENV);
	setpgid(0, 0);
	execv(mpirun, av);
	_exit(127);
}

/* The first line of the log starting with prefix, copied into buf. */
static int
log_line(FILE *log, const char *prefix, char *buf, size_t n)
{
	char line[1024];

	rewind(log);
	while (fgets(line, sizeof line, log) != NULL) {
		char *s = strstr(line, prefix);

		if (s == NULL)
			continue;
		s[strcspn(s, "\n")] = '\0';
		snprintf(buf, n, "%s", s);
		return 1;
	}
	return 0;
}

/*
 * What mpirun itself said, when it failed before any rank could speak
 * (no ssh or rsh agent, no such program): its messages, indented, up to
 * a screenful, without the rules of dashes or '=' around them.
 */
static void
print_log(FILE *log)
{
	char line[1024];
	int n = 0;

	rewind(log);
	while (n < 24 && fgets(line, sizeof line, log) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, "-= \t")] == '\0')
			continue;
		cli_printf(stderr, "  %s\n", line);
		n++;
	}
}

/* How the job ended, for the one line said about it. */
struct ending {
	int	 status;	/* mpirun's, from waitpid, or -1 */
	int	 progress;	/* the progress file (run_progress.h), or -1 */
	int	 np;
	double	 timeout;
	double	 stopped;	/* seconds after which we stopped it, or 0 */
	char	 behind[600];	/* then, the ranks that were behind */
};

/* Rank r died on sig: where it was, if its progress record says. */
static void
report_death(const struct ending *e, int r, int sig)
{
	char host[64], where[400];
	long pid;

	if (run_progress_get(e->progress, r, &pid, host, sizeof host, where,
	    sizeof where))
		cli_printf(stderr, _("parlearn: run: rank %d (pid %ld on host "
		    "%s) died on signal %d (%s) %s; mpirun stopped the "
		    "others\n"), r, pid, host, sig, strsignal(sig), where);
	else
		cli_printf(stderr, _("parlearn: run: rank %d died on signal %d "
		    "(%s); mpirun stopped the others\n"), r, sig,
		    strsignal(sig));
}

/*
 * Open MPI tells a rank's death as "process rank R ... signal S" or, for
 * one that died before it joined the job, as the first process to exit
 * non-zero ("Process name: [[J,S],R]", "Exit code: 128+S").
 */
static int
log_death(FILE *log, int *rank, int *sig)
{
	char line[1024];
	const char *p;
	int code;

	if (log_line(log, "process rank ", line, sizeof line) &&
	    sscanf(line, "process rank %d", rank) == 1 &&
	    (p = strstr(line, "signal ")) != NULL &&
	    sscanf(p, "signal %d", sig) == 1)
		return 1;
	if (log_line(log, "Process name: [[", line, sizeof line) &&
	    (p = strstr(line, "],")) != NULL && sscanf(p + 2, "%d", rank) == 1 &&
	    log_line(log, "Exit code:", line, sizeof line) &&
	    sscanf(line, "Exit code: %d", &code) == 1 && code > 128 &&
	    code < 128 + 65) {
		*sig = code - 128;
		return 1;
	}
	return 0;
}

/* A failed job: one line from what the log says, or mpirun's own words. */
static void
report_failure(FILE *log, const char *mpirun, const struct ending *e)
{
	char line[1024];
	const char *p;
	int rank, sig, status = e->status;
	long pid;

	if (log_line(log, "parlearn: run: ", line, sizeof line) ||
	    run_progress_last_words_get(e->progress, e->np, line,
	    sizeof line)) {
		cli_printf(stderr, "%s\n", line);
		return;
	}
	if (log_death(log, &rank, &sig)) {
		report_death(e, rank, sig);
		return;
	}
	/* MPICH's Hydra: a banner with a PID, not the rank (which process
	 * it names is Hydra's choice: not always the first to die). */
	if (log_line(log, "BAD TERMINATION OF ONE", line, sizeof line) &&
	    log_line(log, "(signal ", line, sizeof line) &&
	    sscanf(line, "(signal %d)", &sig) == 1) {
		if (!log_line(log, "PID ", line, sizeof line) ||
		    sscanf(line, "PID %ld", &pid) != 1)
			pid = -1;
		p = strrchr(mpirun, '/');
		cli_printf(stderr, _("parlearn: run: a process (pid %ld) died "
		    "on signal %d (%s) in the middle of the step; %s stopped "
		    "the others\n"), pid, sig, strsignal(sig),
		    p != NULL ? p + 1 : mpirun);
		return;
	}
	/* mpirun did not say which rank: the one that ended by itself. */
	if (e->stopped == 0 && run_progress_died(e->progress, e->np, line,
	    sizeof line) > 0) {
		cli_printf(stderr, _("parlearn: run: %s; mpirun stopped the "
		    "others\n"), line);
		return;
	}
	/* No rank spoke and we stopped the job: who was behind. */
	if (e->stopped > 0 && e->behind[0] != '\0') {
		cli_printf(stderr, _("parlearn: run: %s; the job was stopped "
		    "after %.0f s\n"), e->behind, e->stopped);
		return;
	}
	if (WIFSIGNALED(status))
		cli_printf(stderr, _("parlearn: run: mpirun ended on signal "
		    "%d\n"), WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		cli_printf(stderr, _("parlearn: run: could not start %s\n"),
		    mpirun);
	else
		cli_printf(stderr, _("parlearn: run: the MPI job failed, "
		    "mpirun exited with status %d\n"), WEXITSTATUS(status));
	print_log(log);
}

/* What mpirun and the ranks said: other processes' text, shown safely. */
static void
copy_log(FILE *log)
{
	char *line = NULL;
	size_t cap = 0;

	rewind(log);
	while (getline(&line, &cap, log) > 0)
		cli_printf(stderr, "%s", line);
	free(line);
}

/* What the job printed on stdout (rank 0's results), kept for us. */
struct capture {
	int	 fd;		/* the read end of mpirun's stdout, or -1 */
	char	*buf;
	size_t	 len, cap;
	int	 nomem;
};

/* Read what is there now; with wait_ms, wait that long for more. */
static int
capture_read(struct capture *c, int wait_ms)
{
	struct pollfd pfd;
	char chunk[8192];
	ssize_t n;

	if (c->fd < 0)
		return 0;
	pfd.fd = c->fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, wait_ms) <= 0)
		return 0;
	if ((n = read(c->fd, chunk, sizeof chunk)) <= 0) {
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			close(c->fd);
			c->fd = -1;
		}
		return 0;
	}
	if (c->len + (size_t)n > c->cap && !c->nomem) {
		size_t cap = c->cap ? c->cap : 65536;
		char *b;

		while (cap < c->len + (size_t)n)
			cap *= 2;
		if ((b = realloc(c->buf, cap)) == NULL)
			c->nomem = 1;
		else {
			c->buf = b;
			c->cap = cap;
		}
	}
	if (!c->nomem) {
		memcpy(c->buf + c->len, chunk, (size_t)n);
		c->len += (size_t)n;
	}
	return 1;
}

/*
 * MPICH's Hydra reports a process that died on stdout, after what rank 0
 * printed: a banner between rules of '=' ("BAD TERMINATION OF ONE OF
 * YOUR APPLICATION PROCESSES", the PID, the signal). Move it from the
 * results to the end of the log, where report_failure reads.
 */
static void
cut_banner(struct capture *c, FILE *log)
{
	static const char mark[] = "BAD TERMINATION OF ONE";
	char *p, *ls, *prev;

	if (c->buf == NULL ||
	    (p = memmem(c->buf, c->len, mark, sizeof mark - 1)) == NULL)
		return;
	/* Back over the rule and blank lines above the mark's line. */
	for (ls = p; ls > c->buf && ls[-1] != '\n'; ls--)
		;
	while (ls > c->buf) {
		for (prev = ls - 1; prev > c->buf && prev[-1] != '\n'; prev--)
			;
		if (*prev != '=' && *prev != '\n')
			break;
		ls = prev;
	}
	fseek(log, 0, SEEK_END);
	fwrite(ls, 1, (size_t)(c->buf + c->len - ls), log);
	fflush(log);
	c->len = (size_t)(ls - c->buf);
}

/*
 * Has a rank given up (its one line in the log)? Read with pread: the
 * job appends to the log through the same open file.
 */
static int
rank_gave_up(int fd, off_t *seen)
{
	static const char mark[] = "parlearn: run: ";
	char buf[4096];
	struct stat st;
	off_t at;
	ssize_t n;

	if (fstat(fd, &st) != 0 || st.st_size == *seen)
		return 0;
	/* From a little before the new text, for a line split across. */
	at = *seen > (off_t)sizeof mark ? *seen - (off_t)sizeof mark : 0;
	*seen = st.st_size;
	while ((n = pread(fd, buf, sizeof buf - 1, at)) > 0) {
		buf[n] = '\0';
		if (memmem(buf, (size_t)n, mark, sizeof mark - 1) != NULL)
			return 1;
		if (n < (ssize_t)sizeof buf - 1)
			break;		/* the end */
		at += n - (ssize_t)sizeof mark;
	}
	return 0;
}

/*
 * Wait for mpirun, keeping what it prints. Every process bounds its own
 * waits (--timeout); this is the backstop if mpirun itself stalls: once
 * a rank has given up, mpirun has RUN_GRACE seconds to end the job, and
 * the whole job no more than RUN_BACKSTOP(timeout). Passes Ctrl-C on.
 */
static int
wait_mpirun(pid_t pid, struct ending *e, int log_fd, struct capture *c)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 }, t0, now;
	double waited = 0, term_at = -1, limit_s = RUN_BACKSTOP(e->timeout);
	off_t seen = 0;
	int status = 0, n = 0;
	pid_t r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((r = waitpid(pid, &status, WNOHANG)) == 0) {
		if (++n % 10 == 0 && limit_s > waited + RUN_GRACE &&
		    rank_gave_up(log_fd, &seen))
			limit_s = waited + RUN_GRACE;
		if (term_at < 0 && (got_signal || waited > limit_s)) {
			kill(-pid, SIGTERM);
			term_at = waited;
			if (!got_signal) {
				/* Before the stop makes every rank stale. */
				run_progress_blame(e->progress, -1, e->np,
				    run_progress_stale(e->timeout), e->behind,
				    sizeof e->behind);
				e->stopped = waited;
			}
		} else if (term_at >= 0 && waited > term_at + 5.0)
			kill(-pid, SIGKILL);
		if (c->fd >= 0)
			capture_read(c, 20);
		else
			nanosleep(&tick, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		waited = (double)(now.tv_sec - t0.tv_sec) +
		    (now.tv_nsec - t0.tv_nsec) / 1e9;
	}
	/* The rest, unless a stray process still holds the pipe. */
	while (c->fd >= 0 && capture_read(c, 200))
		;
	return r < 0 ? -1 : status;
}

/*
 * The job's results on our stdout, every write checked: 0, or 2 after
 * saying why (a reader that went away is said as such).
 */
static int
write_results(const struct capture *c)
{
	struct cli_out so = { stdout, NULL, NULL };
	struct sigaction sa, old;
	size_t done = 0;
	ssize_t n;
	int e = 0;

	if (c->nomem) {
		fprintf(stderr, "%s", _("parlearn: run: out of memory\n"));
		return 2;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old);
	while (done < c->len) {
		n = write(STDOUT_FILENO, c->buf + done, c->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	sigaction(SIGPIPE, &old, NULL);
	if (e == EPIPE) {
		fprintf(stderr, "%s", _("parlearn: run: standard output: the "
		    "reader went away before the results were written\n"));
		return 2;
	}
	if (e != 0) {
		cli_out_error(&so, e);
		return 2;
	}
	return 0;
}

static void
end_launch(FILE *log, struct ending *e)
{
	fclose(log);
	if (e->progress >= 0)
		close(e->progress);
}

static int
launch(const char *helper, const struct run_opts *o, int np, int argc,
    char **argv)
{
	char mbuf[PATH_MAX], log_path[PATH_MAX];
	const char *mpirun = find_mpirun(mbuf, sizeof mbuf), *tmp;
	struct sigaction sa, old_int, old_term;
	struct cli_out so = { stdout, NULL, NULL };
	struct capture c = { -1, NULL, 0, 0, 0 };
	FILE *log;
	pid_t pid;
	char progress[128];
	struct ending e;
	int fd, out[2], rc, ok;

	if (mpirun == NULL) {
		fprintf(stderr, "%s", _("parlearn: run: no mpirun to start the "
		    "processes with (Debian: apt-get install openmpi-bin; or set "
		    "PARLEARN_MPIRUN)\n"));
		return 2;
	}
	if (is_open_mpi() && geteuid() == 0 &&
	    getenv("OMPI_ALLOW_RUN_AS_ROOT") == NULL) {
		fprintf(stderr, "%s", _("parlearn: run: Open MPI will not run as "
		    "root unless OMPI_ALLOW_RUN_AS_ROOT=1 and "
		    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set\n"));
		return 2;
	}
	/* No stdout to hand the results to: say so before running. */
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		cli_out_error(&so, EBADF);
		return 2;
	}
	tmp = getenv("TMPDIR");
	snprintf(log_path, sizeof log_path, "%s/parlearn-run.XXXXXX",
	    tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if ((fd = mkstemp(log_path)) < 0 || (log = fdopen(fd, "w+")) == NULL) {
		cli_printf(stderr, _("parlearn: run: %s: %s\n"), log_path,
		    strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(log_path);
		}
		return 2;
	}
	/* The log lives only as long as we hold it, whatever happens; the
	 * job appends to it wherever we read. */
	unlink(log_path);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND);
	/* Where each rank is, to name the one that hangs; without it the
	   ranks only say that one did. */
	memset(&e, 0, sizeof e);
	e.progress = run_progress_create(progress, sizeof progress);
	e.np = np;
	e.timeout = o->timeout;
	if (pipe(out) != 0) {
		fprintf(stderr, _("parlearn: run: fork: %s\n"), strerror(errno));
		end_launch(log, &e);
		return 2;
	}
	fflush(stdout);
	if ((pid = fork()) < 0) {
		fprintf(stderr, _("parlearn: run: fork: %s\n"), strerror(errno));
		end_launch(log, &e);
		close(out[0]);
		close(out[1]);
		return 2;
	}
	if (pid == 0) {
		close(out[0]);
		dup2(out[1], STDOUT_FILENO);
		if (out[1] != STDOUT_FILENO)
			close(out[1]);
		exec_mpirun(mpirun, helper, np, fd,
		    e.progress >= 0 ? progress : NULL, argc, argv);
	}
	close(out[1]);
	c.fd = out[0];
	fcntl(c.fd, F_SETFD, FD_CLOEXEC);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	e.status = wait_mpirun(pid, &e, fd, &c);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (c.fd >= 0)
		close(c.fd);
	ok = e.status >= 0 && WIFEXITED(e.status) && WEXITSTATUS(e.status) == 0;
	if (!ok)
		cut_banner(&c, log);
	rc = write_results(&c);
	free(c.buf);
	if (ok) {
		copy_log(log);
		end_launch(log, &e);
		return rc;
	}
	report_failure(log, mpirun, &e);
	end_launch(log, &e);
	return 2;
}

/* Replace this process with parlearn-run, as one rank of a running job. */
static int
join(const char *helper, int argc, char **argv)
{
	char **av = calloc((size_t)argc + 1, sizeof *av);
	int i;

	if (av == NULL)
		return 2;
	av[0] = (char *)helper;
	for (i = 1; i < argc; i++)
		av[i] = argv[i];
	av[argc] = NULL;
	fflush(stdout);
	execv(helper, av);
	cli_printf(stderr,
	    _("parlearn: run: %s: %s\n"), helper, strerror(errno));
	free(av);
	return 2;
}

int
cli_run_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	char hbuf[PATH_MAX];
	struct run_opts o;
	struct sim_config cfg;
	struct launched l;
	struct pl_err err;
	const char *helper;
	int rc, np;

	(void)ctx;
	detect_launcher(&l);
	if ((rc = run_opts_parse(argc, argv, &o, l.rank != 0)) != 0) {
		if (rc < 0 && l.rank == 0)
			run_opts_usage(stdout);
		return rc < 0 ? 0 : rc;
	}
	np = l.size > 0 ? l.size : o.np;
	if (l.size > 0 && o.np > 0 && o.np != l.size) {
		if (l.rank == 0)
			fprintf(stderr, _("parlearn: run: --np %d, but the "
			    "launcher started %d processes\n"), o.np, l.size);
		return 2;
	}
	if ((rc = run_opts_config(&o, np, &cfg, &err)) != 0) {
		if (l.rank == 0 && rc == 1)
			cli_usage_error("%s", err.msg);
		else if (l.rank == 0)
			cli_printf(stderr, _("parlearn: run: %s\n"), err.msg);
		return rc;
	}
	if ((helper = find_helper(hbuf, sizeof hbuf)) == NULL) {
		if (l.rank == 0)
			fprintf(stderr, "%s", _(NO_MPI_HINT));
		return 2;
	}
	if (l.size > 0)
		return join(helper, argc, argv);
	return launch(helper, &o, cfg.gpus, argc, argv);
}
