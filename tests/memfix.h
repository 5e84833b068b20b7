/*
 * memfix.h - reading a simulated run's memory samples in the tests: a
 * device's last sample and its peak of one kind.
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

#endif
