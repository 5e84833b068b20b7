/*
 * sim_collective.h - moving values between simulated devices: ring
 * all-reduce, reduce-scatter and all-gather over a group, and
 * point-to-point sends. Each copies the values between the devices'
 * buffers chunk by chunk as the ring does, advances the devices' clocks
 * and records events: per member one event for the whole collective and
 * one ring-step event per step (timeline.h).
 *
 * Cost (reference/costmodel.md §f, ring, S the full array in bytes, n the
 * group size, alpha and B the group's link from struct sim_cost): every
 * ring step moves one chunk of S/n and takes alpha + S/(n B), so
 *   all-reduce      2(n-1) steps: 2(n-1)/n * S/B + 2(n-1) alpha
 *   reduce-scatter  (n-1) steps:   (n-1)/n * S/B +  (n-1) alpha
 *   all-gather      (n-1) steps:   (n-1)/n * S/B +  (n-1) alpha
 *   send            S/B + alpha
 *
 * Streams. A blocking collective (TP's) starts when the last member's
 * compute stream is free and holds every member's compute stream until it
 * ends. An overlapped one (DP buckets, ZeRO-3) runs on the members'
 * communication streams, one collective after another, beside compute.
 * Sends run on their own stream and block nothing.
 *
 * Buffers: bufs[i] is group[i]'s own buffer of len doubles. The array is
 * cut into n chunks, chunk c = [c*len/n, (c+1)*len/n); member i owns
 * chunk i. A group of one does nothing and records nothing.
 */
#ifndef PARLEARN_CORE_SIM_COLLECTIVE_H
#define PARLEARN_CORE_SIM_COLLECTIVE_H

#include <stddef.h>

#include "core/sim/sim_modes.h"

/* What a transfer is about, copied into its events. */
struct sim_tag {
	enum sim_payload what;
	int		 layer;		/* 1-based, 0 the whole model */
	int		 mb;		/* micro-batch, -1 none */
	int		 shard;		/* data shard, -1 none */
	int		 chunk;		/* pipeline model chunk, -1 none */
};

/*
 * Run the collective kind (all-reduce: every member ends with the sum;
 * reduce-scatter: member i with the sum of chunk i, other chunks partial;
 * all-gather: chunk i of bufs[i] copied to every member) over group.
 * overlap 0 blocks the compute streams, 1 uses the communication
 * streams; it starts no earlier than ready (seconds). Returns the end
 * time; on ENOMEM sets run->oom.
 */
double	sim_collective(struct sim_run *, enum sim_kind,
	    const struct sim_tag *, const int *group, int n, double **bufs,
	    size_t len, int overlap, double ready);

/*
 * Copy len values from device from's src to device to's dst, starting at
 * time t0 (seconds); records a send on from and a receive on to over the
 * same span and returns the arrival time. Neither clock moves.
 */
double	sim_send(struct sim_run *, int from, int to, const double *src,
	    double *dst, size_t len, const struct sim_tag *, double t0);

/* Seconds one ring step of a chunk of bytes takes over group. */
double	sim_ring_step_time(const struct sim_cost *, const int *group, int n,
	    double bytes);

/* Seconds the collective kind over group (n members) takes for S bytes. */
double	sim_coll_time(const struct sim_cost *, enum sim_kind,
	    const int *group, int n, size_t bytes);

/* Seconds a send of S bytes from one device to another takes. */
double	sim_send_time(const struct sim_cost *, int from, int to, size_t bytes);

#endif
