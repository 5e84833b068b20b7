/*
 * memfix.h - reading a simulated run's timeline in the tests: a
 * device's last memory sample and its peak of one kind; that no device
 * computes two things at once.
 */
#ifndef PARLEARN_TESTS_MEMFIX_H
#define PARLEARN_TESTS_MEMFIX_H

#include <check.h>
#include <stddef.h>

#include "core/sim/timeline.h"

/* Device dev's last memory sample (the test fails if it has none). */
static inline const struct sim_mem_sample *
test_last_mem(const struct sim_timeline *tl, int dev)
{
	const struct sim_mem_sample *m = NULL;
	size_t i;

	for (i = 0; i < tl->n_mem; i++)
		if (tl->mem[i].device == dev)
			m = &tl->mem[i];
	ck_assert_ptr_nonnull(m);
	return m;
}

/* The most bytes of kind k device dev held at once. */
static inline size_t
test_peak_mem(const struct sim_timeline *tl, int dev, enum sim_mem_kind k)
{
	size_t i, p = 0;

	for (i = 0; i < tl->n_mem; i++)
		if (tl->mem[i].device == dev && tl->mem[i].bytes[k] > p)
			p = tl->mem[i].bytes[k];
	return p;
}

/* Every device's compute events, in start order, do not overlap (the
 * events are sorted by start once the timeline is finished). */
static inline void
test_compute_disjoint(const struct sim_timeline *tl)
{
	double end[64] = { 0 };
	const struct sim_event *e;
	size_t i;

	ck_assert_int_le(tl->n_devices, 64);
	for (i = 0; i < tl->n_ev; i++) {
		e = &tl->ev[i];
		if (!sim_kind_is_compute(e->kind))
			continue;
		ck_assert_msg(e->start >= end[e->device] - 1e-15, "device %d "
		    "computes twice at %g s", e->device, e->start);
		end[e->device] = e->end;
	}
}

#endif
