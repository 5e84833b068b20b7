/*
 * run_guard.c - a deadline for the MPI calls that cannot be polled
 * (MPI_Init, MPI_Comm_split, MPI_Finalize).
 *
 * A thread watches the call: every TICK it gives the progress file a
 * sign of life for this rank (it is waiting, not hung), and when the
 * timeout has passed it names the rank that did not come and exits.
 * A thread rather than an alarm: naming the rank means reading files and
 * formatting translated text, which a signal handler must not do. If
 * this process is itself stopped, the thread stops with it, and the time
 * it was stopped does not count.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "run/run_proc.h"
#include "run/run_progress.h"

#define TICK_NS		(50 * 1000 * 1000)

static pthread_mutex_t	 mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 cv;
static pthread_t	 thr;
static int		 cv_ready, armed, running;
static struct run_proc	 gp;		/* the process, as at run_guard */
static char		 gwhat[200];

static void *
watch(void *arg)
{
	double last = run_progress_now(), deadline = last + gp.timeout, t;
	struct timespec until;

	(void)arg;
	pthread_mutex_lock(&mu);
	while (armed) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += TICK_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&cv, &mu, &until);
		if (!armed)
			break;
		t = run_progress_now();
		if (t - last > RUN_PROGRESS_GAP)
			deadline += t - last;	/* this process was stopped */
		last = t;
		run_progress_tick();
		if (t > deadline)
			run_give_up(&gp, gwhat, 1);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

void
run_guard(const struct run_proc *p, const char *where, const char *what)
{
	pthread_condattr_t ca;
	sigset_t all, old;

	run_progress_busy("%s", where);
	if (!cv_ready) {
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&cv, &ca);
		pthread_condattr_destroy(&ca);
		cv_ready = 1;
	}
	gp = *p;
	snprintf(gwhat, sizeof gwhat, "%s", what);
	armed = 1;
	/* Signals stay the main thread's (and MPI's) business. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	running = pthread_create(&thr, NULL, watch, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void
run_unguard(void)
{
	if (!running)
		return;
	pthread_mutex_lock(&mu);
	armed = 0;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(thr, NULL);
	running = 0;
}
