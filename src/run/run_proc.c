/*
 * run_proc.c - deadlines, faults and the shared clock of one process.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "run/run_proc.h"
#include "run/run_wait.h"
#include "core/safeprint.h"

#define CLOCK_PROBES	8	/* ping-pongs per rank; the fastest counts */

static char guard_msg[512];	/* written by run_guard, read by the alarm */

static void
on_alarm(int sig)
{
	ssize_t n;

	(void)sig;
	n = write(STDERR_FILENO, guard_msg, strlen(guard_msg));
	(void)n;
	_exit(2);
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

	if (p->rank < 0)	/* before MPI_Init: no rank yet */
		snprintf(guard_msg, sizeof guard_msg, _("parlearn: run: %s "
		    "did not finish within %g s\n"), what, p->timeout);
	else
		snprintf(guard_msg, sizeof guard_msg, _("parlearn: run: rank "
		    "%d: %s did not finish within %g s; another process has "
		    "died or hung\n"), p->rank, what, p->timeout);
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
