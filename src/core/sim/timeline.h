/*
 * timeline.h - the event list a simulated training step leaves behind.
 *
 * The simulator (core/sim) appends one event per thing a device does
 * (compute a layer for a microbatch, take part in a collective, send or
 * receive a tensor, run the optimizer, sit idle) and one memory sample per
 * change of what a device holds. After sim_timeline_finish() the events are
 * sorted by start time, so a player can walk the array once while its clock
 * advances, and the memory samples are sorted by time.
 *
 * Times are simulated seconds from the start of the step. Byte counts are
 * bytes of double-precision (8-byte) values.
 *
 * A collective appears twice over: one event per member for the whole
 * operation (kind all-reduce, all-gather or reduce-scatter, its bytes the
 * member's total), and one SIM_RING_STEP event per member per ring step
 * (the chunk that member sends to its ring neighbour in that step, in the
 * reduce-scatter or the all-gather phase). Both carry the collective's id.
 * Ring steps are the detail of their collective: they are not counted
 * again in the bytes moved and do not make a device busy.
 */
#ifndef PARLEARN_CORE_TIMELINE_H
#define PARLEARN_CORE_TIMELINE_H

#include <stddef.h>

enum sim_kind {
	SIM_FORWARD,
	SIM_BACKWARD,
	SIM_ALL_REDUCE,
	SIM_ALL_GATHER,
	SIM_REDUCE_SCATTER,
	SIM_SEND,
	SIM_RECV,
	SIM_OPTIMIZER,
	SIM_IDLE,
	SIM_RING_STEP,
	SIM_NKINDS
};

/* What the bytes of a transfer are. */
enum sim_payload {
	SIM_P_NONE,		/* not a transfer */
	SIM_P_ACTS,		/* activations (or TP partial sums of them) */
	SIM_P_ACT_GRADS,	/* gradients of activations, backward */
	SIM_P_WEIGHT_GRADS,	/* gradients of parameters */
	SIM_P_PARAMS,		/* parameters (ZeRO-3 all-gather) */
	SIM_P_KV,		/* a CP rank's keys and values, round the ring */
	SIM_P_KV_GRADS,		/* their gradients, on their way back */
	SIM_P_DISPATCH,		/* EP: tokens (backward: their gradients) to
				   their experts' device, all-to-all */
	SIM_P_COMBINE,		/* EP: the experts' outputs (backward: input
				   gradients) back to the tokens' device */
	SIM_NPAYLOADS
};

/* Which part of a layer a compute event is. */
enum sim_part {
	SIM_PART_NONE,		/* not a layer's compute */
	SIM_PART_ATTN,		/* norm, attention and its projection */
	SIM_PART_MLP,		/* norm and the two-matrix MLP */
	SIM_PART_WEIGHTS	/* a split backward's W: weight gradients */
};

/* What a device's resident bytes are made of. */
enum sim_mem_kind {
	SIM_MEM_PARAMS,
	SIM_MEM_GRADS,
	SIM_MEM_OPTIM,
	SIM_MEM_ACTS,
	SIM_MEM_GATHER,		/* ZeRO-3: gathered layers and their grads */
	SIM_NMEM
};

struct sim_event {
	int		 device;	/* 0-based device rank */
	enum sim_kind	 kind;
	enum sim_payload what;		/* transfers: what the bytes are */
	enum sim_part	 part;		/* compute: attention or MLP */
	int		 layer;		/* 1-based layer, 0 for the whole model */
	int		 microbatch;	/* 0-based, -1 when not about one */
	int		 shard;		/* data shard (DP replica) whose samples
					   these are, -1 when not one shard's */
	int		 chunk;		/* pipeline model chunk (interleaved
					   virtual stage / p), -1 none */
	int		 peer;		/* send: to; receive: from; collective
					   and ring step: the ring neighbour
					   this device sends to; else -1 */
	int		 collective;	/* id shared by one collective's events
					   on all members, -1 none */
	int		 ring_step;	/* ring step: 0-based, else -1 */
	int		 ring_steps;	/* collective, ring step: steps in all;
					   else 0 */
	int		 ring_chunk;	/* ring step: index of the chunk sent */
	enum sim_kind	 phase;		/* ring step: SIM_REDUCE_SCATTER or
					   SIM_ALL_GATHER; else SIM_IDLE */
	int		 expert;	/* EP: the expert whose tokens these are
					   (dispatch, combine, its compute), -1 */
	int		 tokens;	/* EP: how many tokens (rows), else 0 */
	int		 overlap;	/* 1: on a communication stream beside
					   compute (DP buckets, ZeRO-3) */
	double		 start;		/* seconds */
	double		 end;		/* seconds, >= start */
	size_t		 bytes;		/* bytes this device sent (receive: got) */
	size_t		 seq;		/* order of appending; breaks ties */
};

struct sim_mem_sample {
	int	 device;		/* 0-based device rank */
	double	 t;			/* seconds */
	size_t	 bytes[SIM_NMEM];	/* bytes resident from t on, by kind */
	enum sim_mem_kind kind;		/* the kind that changed */
	long long delta;		/* by how many bytes */
	size_t	 seq;			/* order of recording; breaks ties */
};

struct sim_timeline {
	int			 n_devices;	/* devices in the run */
	struct sim_event	*ev;		/* sorted by start once finished */
	size_t			 n_ev;		/* events */
	size_t			 cap_ev;	/* allocated events */
	struct sim_mem_sample	*mem;		/* sorted by t once finished */
	size_t			 n_mem;		/* samples */
	size_t			 cap_mem;	/* allocated samples */
	size_t			*cur;		/* running bytes, n_devices x SIM_NMEM */
	double			 t_end;		/* seconds, end of the last event */
};

/* Start an empty timeline for n devices (n >= 1). Returns 0, -1 on ENOMEM. */
int	sim_timeline_init(struct sim_timeline *, int n_devices);

/* Free what the timeline holds; the struct itself is the caller's. */
void	sim_timeline_free(struct sim_timeline *);

/*
 * Append an event; device must be < n_devices. The other fields start
 * as "none" (-1, SIM_P_NONE, SIM_PART_NONE, overlap 0). Returns a pointer
 * to it (valid until the next append) so the caller may set them, or
 * NULL on ENOMEM.
 */
struct sim_event	*sim_timeline_add(struct sim_timeline *, int device,
			    enum sim_kind, int layer, int microbatch,
			    double start, double end, size_t bytes);

/*
 * Record that the device's resident bytes of one kind changed by delta
 * at time t, appending a sample with the new totals. Changes need not
 * come in time order (DualPipe's two chunks on one device run
 * interleaved): sim_timeline_finish sums them again in time order.
 * Returns 0 or -1.
 */
int	sim_timeline_mem(struct sim_timeline *, int device, double t,
	    enum sim_mem_kind, long long delta);

/*
 * Close the timeline: add idle events for every gap in each device's busy
 * time (compute, blocking collectives, optimizer; sends, receives, ring
 * steps and overlapped collectives run beside compute and do not count)
 * up to the end of the last event, then sort; the memory samples are
 * sorted by time and their totals summed again in that order. Returns 0
 * or -1 on ENOMEM.
 */
int	sim_timeline_finish(struct sim_timeline *);

/*
 * The compute window: first forward start to last backward end, over all
 * devices, in *lo and *hi. Returns 0 (and leaves them alone) when there is
 * no compute.
 */
int	sim_timeline_compute_window(const struct sim_timeline *, double *lo,
	    double *hi);

/*
 * The bubble: idle time inside the compute window (first forward start to
 * last backward end, over all devices), as a share of devices x window.
 * 0 when there is no compute. Call after sim_timeline_finish().
 */
double	sim_timeline_bubble(const struct sim_timeline *);

/* The same for one device: its idle share of the compute window. */
double	sim_timeline_device_bubble(const struct sim_timeline *, int device);

/*
 * Sum of the bytes of every event but receives and ring steps (each byte
 * counted once).
 */
size_t	sim_timeline_bytes(const struct sim_timeline *);

/*
 * EP's all-to-alls on device dev: the seconds it waits for tokens or
 * their gradients to arrive (dispatch and combine receives, overlaps
 * counted once), returned; how many of those seconds it computes
 * something else meanwhile (DualPipe's pairs), in *hidden. 0 and 0
 * without all-to-alls. dev -1: the sums over every device.
 */
double	sim_timeline_a2a(const struct sim_timeline *, int dev, double *hidden);

/* The most bytes the device held at once, all kinds together. */
size_t	sim_timeline_peak(const struct sim_timeline *, int device);

/* Stable names for the JSON contract ("forward", "all-reduce", ...). */
const char	*sim_kind_name(enum sim_kind);
const char	*sim_mem_kind_name(enum sim_mem_kind);
const char	*sim_payload_name(enum sim_payload);
const char	*sim_part_name(enum sim_part);

/* 1 for compute events (forward, backward). */
int	sim_kind_is_compute(enum sim_kind);

/* 1 for all-reduce, all-gather and reduce-scatter. */
int	sim_kind_is_collective(enum sim_kind);

/* 1 if the event keeps its device busy (see sim_timeline_finish). */
int	sim_event_is_busy(const struct sim_event *);

#endif
