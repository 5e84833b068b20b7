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
#include "run/run_progress.h"
#include "run/run_wait.h"
#include "core/safeprint.h"

#define CLOCK_PROBES	8	/* ping-pongs per rank; the fastest counts */

/* run_fail's backstop, should MPI_Abort not return. */
static void
on_alarm(int sig)
{
	(void)sig;
	_exit(2);
}

/* The first of names set to a number, or -1. */
static int
env_number(const char *const *names, size_t n)
{
	const char *v;
	size_t i;

	for (i = 0; i < n; i++)
		if ((v = getenv(names[i])) != NULL && *v >= '0' && *v <= '9')
			return atoi(v);
	return -1;
}

int
run_env_rank(void)
{
	static const char *const names[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"
	};

	return env_number(names, sizeof names / sizeof names[0]);
}

int
run_env_size(void)
{
	static const char *const names[] = {
		"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"
	};

	return env_number(names, sizeof names / sizeof names[0]);
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
	/* PARLEARN_RUN_FAULT=die:R, hang:R or stop:R (parlearn.1). */
	if (f != NULL && sscanf(f, "%15[a-z]:%d", what, &r) == 2 &&
	    r == p->rank)
		p->fault = strcmp(what, "die") == 0 ? RUN_FAULT_DIE :
		    strcmp(what, "hang") == 0 ? RUN_FAULT_HANG :
		    strcmp(what, "stop") == 0 ? RUN_FAULT_STOP : RUN_FAULT_NONE;
}

double
run_now(const struct run_proc *p)
{
	return MPI_Wtime() + p->offset - p->t0;
}

/* The line a rank gives up with, kept for the launcher too. */
static void __attribute__((format(printf, 2, 3)))
last_words(const struct run_proc *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	n = strlen(line);
	if (n > 0 && line[n - 1] == '\n')
		line[n - 1] = '\0';
	run_progress_last_words(p->size, line);
}

/* End the whole job, exit code 2, after a line on stderr. */
static void __attribute__((noreturn))
abort_job(void)
{
	fflush(stderr);
	/* If the runtime itself is stuck, MPI_Abort may not return either. */
	signal(SIGALRM, on_alarm);
	alarm(5);
	MPI_Abort(MPI_COMM_WORLD, 2);
	_exit(2);
}

void
run_fail(const struct run_proc *p, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	run_progress_state(RUN_ST_GAVE_UP);
	last_words(p, _("parlearn: run: rank %d: %s\n"), p->rank, msg);
	safeprint_printf(stderr, _("parlearn: run: rank %d: %s\n"), p->rank,
	    msg);
	abort_job();
}

void
run_give_up(const struct run_proc *p, const char *what, int in_call)
{
	char who[400], msg[700];

	run_progress_state(RUN_ST_GAVE_UP);
	if (p->rank >= 0 && run_progress_blame(-1, p->rank, p->size,
	    run_progress_stale(p->timeout), who, sizeof who) > 0) {
		snprintf(msg, sizeof msg, _("%s; rank %d waited %g s for %s"),
		    who, p->rank, p->timeout, what);
		last_words(p, _("parlearn: run: %s\n"), msg);
		safeprint_printf(stderr, _("parlearn: run: %s\n"), msg);
	} else {
		snprintf(msg, sizeof msg, _("waited %g s for %s; another "
		    "process has died or hung"), p->timeout, what);
		if (p->rank >= 0)
			safeprint_printf(stderr, _("parlearn: run: rank %d: "
			    "%s\n"), p->rank, msg);
		else
			safeprint_printf(stderr, _("parlearn: run: %s\n"), msg);
	}
	if (in_call) {
		fflush(stderr);
		_exit(2);
	}
	abort_job();
}

void
run_fault_point(const struct run_proc *p)
{
	switch (p->fault) {
	case RUN_FAULT_DIE:
		raise(SIGKILL);
		break;
	case RUN_FAULT_STOP:
		raise(SIGSTOP);
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
