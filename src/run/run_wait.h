/*
 * run_wait.h - waiting on MPI requests with a deadline.
 *
 * A wait tests its requests in a loop, yielding the processor between
 * tests (ranks may outnumber cores), and gives up with run_fail() when
 * the process's timeout passes. hook, if set, runs on every turn of the
 * loop: the collective engine uses it to move its other operations on,
 * since MPI's non-blocking collectives progress only inside MPI calls.
 */
#ifndef PARLEARN_RUN_WAIT_H
#define PARLEARN_RUN_WAIT_H

#include <mpi.h>

#include "run/run_proc.h"

/* Wait for all n requests; what names them in the timeout message. */
void	run_waitall(const struct run_proc *, int n, MPI_Request *,
	    const char *what);

/*
 * Loop until done(arg) returns 1, calling it once per turn; it should
 * test requests itself. Fails after the timeout with what.
 */
void	run_wait_until(const struct run_proc *, int (*done)(void *),
	    void *arg, const char *what);

#endif
