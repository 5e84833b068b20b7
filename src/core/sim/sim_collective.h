/*
 * sim_collective.h - moving values between simulated devices: ring
 * all-reduce, reduce-scatter and all-gather over a group, and
 * point-to-point sends. Each copies the values between the devices'
 * buffers step by step as the ring does, advances the devices' clocks and
 * records one event per device with the bytes that device sent.
 *
 * Cost (reference/costmodel.md §f, ring, S the full array in bytes, n the
 * group size, alpha and B the group's link from struct sim_cost):
 *   all-reduce      2(n-1)/n * S/B + 2(n-1) alpha
 *   reduce-scatter  (n-1)/n * S/B + (n-1) alpha
 *   all-gather      (n-1)/n * S/B + (n-1) alpha
 *   send            S/B + alpha
 * A collective starts when the last member is free and ends for all at
 * once. A group of one does nothing and records nothing.
 *
 * Buffers: bufs[i] is group[i]'s own buffer of len doubles. The array is
 * cut into n chunks, chunk c = [c*len/n, (c+1)*len/n); member i owns
 * chunk i.
 */
#ifndef PARLEARN_CORE_SIM_COLLECTIVE_H
#define PARLEARN_CORE_SIM_COLLECTIVE_H

#include <stddef.h>

#include "core/sim/sim_modes.h"

/* Every member ends with the elementwise sum of all buffers. */
int	sim_all_reduce(struct sim_run *, const int *group, int n,
	    double **bufs, size_t len, int layer, int mb);

/* Member i ends with the sum of chunk i; other chunks are left partial. */
int	sim_reduce_scatter(struct sim_run *, const int *group, int n,
	    double **bufs, size_t len, int layer, int mb);

/* Chunk i of bufs[i] is copied to every member. */
int	sim_all_gather(struct sim_run *, const int *group, int n,
	    double **bufs, size_t len, int layer, int mb);

/*
 * Copy len values from device from's src to device to's dst, starting at
 * time t0 (seconds); records a send on from and a receive on to over the
 * same span and returns the arrival time. Neither clock moves: transfers
 * run beside compute.
 */
double	sim_send(struct sim_run *, int from, int to, const double *src,
	    double *dst, size_t len, int layer, int mb, double t0);

/* Seconds the collective kind over group (n members) takes for S bytes. */
double	sim_coll_time(const struct sim_run *, enum sim_kind, const int *group,
	    int n, size_t bytes);

/* Seconds a send of S bytes from one device to another takes. */
double	sim_send_time(const struct sim_cost *, int from, int to, size_t bytes);

#endif
