/*
 * run_proc.c - deadlines, faults and the shared clock of one process.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "run/run_proc.h"
#include "run/run_wait.h"
#include "core/safeprint.h"

#define CLOCK_PROBES	8	/* ping-pongs per rank; the fastest counts */

#define GUARD_LATE	2.0	/* seconds past due: this process was stopped */

/* Written by run_guard, read by the alarm. */
static char guard_msg[512];	/* another process died or hung */
static char guard_self[512];	/* this one was stopped */
static struct timespec guard_due;

static void
on_alarm(int sig)
{
	struct timespec now;
	const char *m = guard_msg;
	ssize_t n;

	(void)sig;
	if (guard_self[0] != '\0' &&
	    clock_gettime(CLOCK_MONOTONIC, &now) == 0 &&
	    (double)(now.tv_sec - guard_due.tv_sec) +
	    (now.tv_nsec - guard_due.tv_nsec) / 1e9 > GUARD_LATE)
		m = guard_self;
	n = write(STDERR_FILENO, m, strlen(m));
	(void)n;
	_exit(2);
}

int
run_env_rank(void)
{
	static const char *const names[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"
	};
	const char *v;
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((v = getenv(names[i])) != NULL && *v >= '0' && *v <= '9')
			return atoi(v);
	return -1;
}

void
run_fault_edge(int rank, enum run_fault_at at)
{
	const char *f = getenv("PARLEARN_RUN_FAULT");
	char what[16], where[16];
	int r = -1;

	if (rank < 0 || f == NULL ||
	    sscanf(f, "%15[a-z]-%15[a-z]:%d", what, where, &r) != 3 ||
	    r != rank || strcmp(where, at == RUN_AT_INIT ? "init" :
	    at == RUN_AT_FINALIZE ? "finalize" : "") != 0)
		return;
	if (strcmp(what, "die") == 0)
		raise(SIGKILL);
	else if (strcmp(what, "stop") == 0)
		raise(SIGSTOP);
}

void
run_proc_init(struct run_proc *p, double timeout)
{
	const char *f = getenv("PARLEARN_RUN_FAULT");
	char what[16];
	int r = -1;

	memset(p, 0, sizeof *p);
	MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p->size);
	p->timeout = timeout;
	/* PARLEARN_RUN_FAULT=die:R or hang:R, for the tests (parlearn.1). */
	if (f != NULL && sscanf(f, "%15[a-z]:%d", what, &r) == 2 &&
	    r == p->rank)
		p->fault = strcmp(what, "die") == 0 ? RUN_FAULT_DIE :
		    strcmp(what, "hang") == 0 ? RUN_FAULT_HANG : RUN_FAULT_NONE;
}

double
run_now(const struct run_proc *p)
{
	return MPI_Wtime() + p->offset - p->t0;
}

void
run_fail(const struct run_proc *p, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	safeprint_printf(stderr, _("parlearn: run: rank %d: %s\n"), p->rank,
	    msg);
	fflush(stderr);
	/* If the runtime itself is stuck, MPI_Abort may not return either. */
	snprintf(guard_msg, sizeof guard_msg, "%s", "");
	signal(SIGALRM, on_alarm);
	alarm(5);
	MPI_Abort(MPI_COMM_WORLD, 2);
	_exit(2);
}

void
run_guard(const struct run_proc *p, const char *what)
{
	unsigned s = (unsigned)p->timeout + 1;

	guard_self[0] = '\0';
	if (p->rank < 0)	/* no rank known */
		snprintf(guard_msg, sizeof guard_msg, _("parlearn: run: %s "
		    "did not finish within %g s\n"), what, p->timeout);
	else {
		snprintf(guard_msg, sizeof guard_msg, _("parlearn: run: rank "
		    "%d: %s did not finish within %g s; another process has "
		    "died or hung\n"), p->rank, what, p->timeout);
		snprintf(guard_self, sizeof guard_self, _("parlearn: run: "
		    "rank %d was stopped while %s, for longer than the %g s "
		    "timeout; the others gave up on it\n"), p->rank, what,
		    p->timeout);
	}
	clock_gettime(CLOCK_MONOTONIC, &guard_due);
	guard_due.tv_sec += s;
	signal(SIGALRM, on_alarm);
	alarm(s);
}

void
run_unguard(void)
{
	alarm(0);
}

void
run_fault_point(const struct run_proc *p)
{
	switch (p->fault) {
	case RUN_FAULT_DIE:
		raise(SIGKILL);
		break;
	case RUN_FAULT_HANG:
		for (;;)
			pause();
	case RUN_FAULT_NONE:
		break;
	}
}

/* Rank 0's side: answer every probe of rank r with its own clock. */
static void
serve_probes(struct run_proc *p, int r)
{
	MPI_Request q;
	double ping, now;
	int i;

	for (i = 0; i < CLOCK_PROBES; i++) {
		MPI_Irecv(&ping, 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD, &q);
		run_waitall(p, 1, &q, _("the clock probe"));
		now = MPI_Wtime();
		MPI_Isend(&now, 1, MPI_DOUBLE, r, 2, MPI_COMM_WORLD, &q);
		run_waitall(p, 1, &q, _("the clock probe"));
	}
}

/* Rank r's side: offset = rank 0's clock minus the probe's midpoint. */
static void
probe(struct run_proc *p)
{
	MPI_Request q[2];
	double t1, t2, root;
	int i;

	p->rtt = -1;
	for (i = 0; i < CLOCK_PROBES; i++) {
		t1 = MPI_Wtime();
		MPI_Irecv(&root, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &q[1]);
		MPI_Isend(&t1, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &q[0]);
		run_waitall(p, 2, q, _("the clock probe"));
		t2 = MPI_Wtime();
		if (p->rtt < 0 || t2 - t1 < p->rtt) {
			p->rtt = t2 - t1;
			p->offset = root - (t1 + t2) / 2;
		}
	}
}

void
run_clock_sync(struct run_proc *p)
{
	MPI_Request q;
	int r;

	p->offset = 0;
	if (p->rank == 0)
		for (r = 1; r < p->size; r++)
			serve_probes(p, r);
	else
		probe(p);
	MPI_Ibarrier(MPI_COMM_WORLD, &q);
	run_waitall(p, 1, &q, _("the start barrier"));
	p->t0 = MPI_Wtime() + p->offset;
	MPI_Ibcast(&p->t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q);
	run_waitall(p, 1, &q, _("the start time"));
}
