/*
 * run_comm.h - the collectives and sends of `parlearn run`, on MPI, with
 * the arithmetic of the simulator's ring (sim_collective.c) and events in
 * its timeline format.
 *
 * Every operation is non-blocking underneath. A blocking one (TP's f and
 * g, the ZeRO-3 gather a layer waits for) is started and waited for at
 * once; an overlapped one (DP buckets, ZeRO-3 prefetches and gradient
 * scatters) is started and left to finish while compute goes on, moved
 * along by every later wait and by run_comm_poll(). A callback may run
 * when an operation's values are final; callbacks of one group run in
 * the order their operations started.
 *
 * Reduction order. MPI does not say in which order MPI_Allreduce adds
 * the ranks' values, so with RUN_REDUCE_ORDERED a reduce-scatter is an
 * MPI_Ialltoallv that brings chunk i of every member to member i, which
 * adds them in the order the simulator's ring does (members i+1, i+2,
 * ..., i); an all-reduce follows it with an MPI_Iallgatherv. Each member
 * sends the bytes a ring would, and the result is bit for bit the
 * simulator's. RUN_REDUCE_MPI uses MPI_Iallreduce and
 * MPI_Ireduce_scatter_block instead: the same values to rounding.
 *
 * Event bytes are those the ring algorithm sends (the simulator's
 * accounting), whatever algorithm the MPI library picks.
 */
#ifndef PARLEARN_RUN_COMM_H
#define PARLEARN_RUN_COMM_H

#include <mpi.h>
#include <stddef.h>

#include "core/sim/sim_collective.h"
#include "run/run_opts.h"
#include "run/run_proc.h"

/* A group of ranks that reduce together (a TP or a DP group). */
struct run_group {
	MPI_Comm	 comm;		/* every operation's first phase */
	MPI_Comm	 comm2;		/* the all-gather of an ordered all-reduce */
	int		 n;		/* members */
	int		 me;		/* this rank's place, 0..n-1 */
	int		 ranks[SIM_MAX_GPUS];	/* world ranks in ring order */
	int		 key;		/* names the group in event ids */
	int		 seq;		/* operations started */
	int		 seq2;		/* second phases started */
	int		 next2;		/* the next op allowed its second phase */
};

typedef void	(*run_done_fn)(void *arg);

struct run_op;

struct run_comm {
	struct run_proc		*proc;
	enum run_reduce		 reduce;
	struct sim_timeline	*tl;		/* this rank's events */
	struct run_op		*ops;		/* in flight, oldest first */
	int			 n_ops;
	int			 cap_ops;
	size_t			 bytes_sent;	/* ring-equivalent, all ops */
};

/* Start with no operation in flight; events go to tl. */
void	run_comm_init(struct run_comm *, struct run_proc *, enum run_reduce,
	    struct sim_timeline *);
void	run_comm_free(struct run_comm *);

/*
 * Split MPI_COMM_WORLD into groups: color names this rank's group (the
 * same for its members), order its place; key names the group in
 * events. Collective over all ranks, under run_guard.
 */
void	run_group_split(struct run_comm *, struct run_group *, int color,
	    int order, int key);
void	run_group_free(struct run_group *);

/*
 * Start kind (SIM_ALL_REDUCE, SIM_REDUCE_SCATTER, SIM_ALL_GATHER) on buf
 * of len doubles over g, chunked as the simulator chunks it (member i
 * owns [i*len/n, (i+1)*len/n)). done(arg), may be NULL, runs when buf is
 * final. Returns a handle for run_comm_wait, or -1 for a group of one
 * (nothing to do; done has run).
 */
int	run_coll_start(struct run_comm *, struct run_group *, enum sim_kind,
	    const struct sim_tag *, double *buf, size_t len, int overlap,
	    run_done_fn done, void *arg);

/* run_coll_start then wait for it. */
void	run_coll(struct run_comm *, struct run_group *, enum sim_kind,
	    const struct sim_tag *, double *buf, size_t len);

/* Wait for the operation with this handle (and everything before it). */
void	run_comm_wait(struct run_comm *, int handle);

/* Move every operation in flight along; never blocks. */
void	run_comm_poll(struct run_comm *);

/* Wait for every operation in flight. */
void	run_comm_drain(struct run_comm *);

/*
 * Send len doubles of src to world rank to (copied: src may be reused at
 * once); mpi_tag tells the receiver which tensor it is.
 */
void	run_send(struct run_comm *, int to, const double *src, size_t len,
	    int mpi_tag, const struct sim_tag *);

/* Receive len doubles into dst from world rank from; waits. */
void	run_recv(struct run_comm *, int from, double *dst, size_t len,
	    int mpi_tag, const struct sim_tag *);

#endif
