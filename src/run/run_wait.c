/*
 * run_wait.c - test loops with a deadline.
 */
#include <sched.h>
#include <time.h>

#include "run/run_progress.h"
#include "run/run_wait.h"

#define SPINS_BEFORE_SLEEP	64	/* tests before napping between them */

/* Give the processor away: first a yield, after a while a short nap. */
static void
back_off(int *spins)
{
	struct timespec nap = { 0, 20 * 1000 };

	if (++*spins < SPINS_BEFORE_SLEEP)
		sched_yield();
	else
		nanosleep(&nap, NULL);
}

void
run_wait_until(const struct run_proc *p, int (*done)(void *), void *arg,
    const char *what)
{
	double last = run_progress_now(), deadline = last + p->timeout, t;
	int spins = 0, said = 0;

	while (!done(arg)) {
		t = run_progress_now();
		if (t - last > RUN_PROGRESS_GAP)
			deadline += t - last;	/* this process was stopped */
		last = t;
		if (t > deadline)
			run_give_up(p, what, 0);
		/* Most waits end at once: only a longer one is noted. */
		if (!said && spins == SPINS_BEFORE_SLEEP) {
			run_progress_wait(what);
			said = 1;
		}
		run_progress_tick();
		back_off(&spins);
	}
	if (said)
		run_progress_busy_again();
}

struct reqs {
	int		 n;
	MPI_Request	*q;
};

static int
all_done(void *arg)
{
	struct reqs *r = arg;
	int i, flag, all = 1;

	/* One by one: MPICH's MPI_STATUSES_IGNORE trips GCC's bounds check
	 * in MPI_Testall. A finished request is MPI_REQUEST_NULL, true. */
	for (i = 0; i < r->n; i++) {
		flag = 0;
		MPI_Test(&r->q[i], &flag, MPI_STATUS_IGNORE);
		all &= flag != 0;
	}
	return all;
}

void
run_waitall(const struct run_proc *p, int n, MPI_Request *q,
    const char *what)
{
	struct reqs r = { n, q };

	run_wait_until(p, all_done, &r, what);
}
