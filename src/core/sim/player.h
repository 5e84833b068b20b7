/*
 * player.h - the animation player's model: one simulated training step
 * (core/sim) and a clock that walks its timeline.
 *
 * The player takes a struct sim_config (it knows nothing of lessons: an
 * animation block becomes a config in core/course/animation.c), owns the
 * struct sim_result of running it, and answers, for any time t in
 * [0, step time], everything an animation draws: what each device is
 * doing and on which slice of the batch, which transfers are in flight,
 * what they carry and how far their ring has got, the bytes each link has
 * carried so far, each device's resident memory, and the Gantt rows scaled
 * to a width with idle time marked as bubble. Every answer is read off the
 * events; the screen (tui/scr_player*.c) only draws them.
 *
 * Times are simulated seconds from the start of the step; wall time is
 * what the learner waits. At speed 1 the whole step plays in
 * PLAYER_BASE_SECONDS of wall time, whatever its simulated length.
 */
#ifndef PARLEARN_CORE_PLAYER_H
#define PARLEARN_CORE_PLAYER_H

#include <stddef.h>

#include "core/err.h"
#include "core/sim/sim.h"
#include "core/sim/sim_json.h"

#define PLAYER_BASE_SECONDS	12.0	/* wall seconds per step at 1x */
#define PLAYER_NSPEEDS		7	/* 1/8x .. 8x */
#define PLAYER_MAX_DEVICES	16	/* devices the player lays out */
#define PLAYER_MAX_FLOWS	64	/* transfers player_flows reports */

/* One Gantt cell: what the device does at the middle of that column. */
enum player_cell_kind {
	PLAYER_CELL_BUBBLE,	/* idle */
	PLAYER_CELL_FORWARD,
	PLAYER_CELL_BACKWARD,
	PLAYER_CELL_ALL_REDUCE,
	PLAYER_CELL_ALL_GATHER,
	PLAYER_CELL_REDUCE_SCATTER,
	PLAYER_CELL_OPTIMIZER,
	PLAYER_CELL_SEND,	/* transfer lane only: a pipeline send */
	PLAYER_CELL_WAIT,	/* idle outside the compute window: waiting
				   for a transfer, not bubble */
	PLAYER_CELL_WEIGHTS	/* a split backward's W pass */
};
#define PLAYER_NCELLS	(PLAYER_CELL_WEIGHTS + 1)

struct player_cell {
	unsigned char	 kind;		/* enum player_cell_kind */
	signed char	 chunk;		/* compute: model chunk, else -1 */
	short		 label;		/* compute: slice of the batch
					   (shard * m + micro-batch), else -1 */
};

/* A transfer in flight at some time t. */
struct player_flow {
	enum sim_kind	 kind;		/* send, all-reduce, all-gather, r-s */
	enum sim_payload what;		/* what the bytes are */
	int		 layer;		/* 1-based, 0 whole model */
	int		 mb;		/* micro-batch, -1 none */
	int		 shard;		/* data shard, -1 none */
	int		 from, to;	/* send: devices; collective: -1 */
	unsigned	 members;	/* collective: bit per device, ring order
					   is ascending */
	int		 overlap;	/* 1: beside compute */
	size_t		 bytes;		/* bytes the whole transfer moves */
	double		 progress;	/* 0..1 of its time span at t */
	enum sim_kind	 phase;		/* collective: ring phase at t (SIM_REDUCE_
					   SCATTER or SIM_ALL_GATHER) */
	int		 step;		/* collective: ring step at t, 0-based */
	int		 steps;		/* collective: ring steps in all */
	signed char	 sends[PLAYER_MAX_DEVICES];	/* collective: chunk
					   each member sends at t, -1 */
	int		 expert;	/* EP send: the tokens' expert, -1 */
	int		 tokens;	/* EP send: how many tokens */
};

/* A link between two devices (a < b), bytes both ways. */
struct player_link {
	int	 a, b;			/* devices, a < b */
	double	 bytes;			/* carried by time t (linear in time) */
	size_t	 total;			/* carried over the whole step */
};

struct player {
	struct sim_config	 cfg;
	struct sim_result	 res;
	int			 d, p, t, v;	/* replicas, stages, TP, chunks */
	int			 lps;		/* layers per virtual stage */
	int			 m, b;		/* micro-batches, sequences each */
	double			 now;		/* seconds, 0..res.step_time */
	int			 playing;	/* 1 while the clock runs */
	int			 speed;		/* index into the speed table */
	double			*stops;		/* distinct event starts, end */
	size_t			 n_stops;
	size_t			 peak;		/* most bytes any device held */
	/* cp: the most activation bytes a GPU held, and one device's in
	 * the single run: what CP saves */
	size_t			 acts_peak, acts_single;
	struct player_link	*links;		/* every link that carries bytes */
	size_t			 n_links;
	unsigned		*coll_members;	/* per collective id: its devices */
	size_t			*coll_bytes;	/* per collective id: bytes, all */
	int			 n_coll;
	struct sim_origin	 origin;	/* measured: on what it ran */
};

/*
 * Run cfg and prepare playback, paused at t = 0, speed 1x. Returns 0, or
 * -1 with err filled (bad config, more than PLAYER_MAX_DEVICES devices,
 * ENOMEM); the player is then empty and safe to free.
 */
int	player_init(struct player *, const struct sim_config *,
	    struct pl_err *);

/*
 * Prepare playback of a step recorded elsewhere (a measured run read by
 * sim_result_from_json): takes res's timeline (res is left empty) and
 * keeps cfg and origin. Returns 0, or -1 with err as player_init.
 */
int	player_init_result(struct player *, const struct sim_config *,
	    struct sim_result *res, const struct sim_origin *,
	    struct pl_err *);
void	player_free(struct player *);

/* Space: play or pause; playing from the end starts over. */
void	player_toggle(struct player *);
/* r: back to t = 0, playing. */
void	player_restart(struct player *);
/*
 * Move the clock by wall_s seconds of wall time at the current speed; at
 * the end it stops there and pauses. Returns 1 if the time changed.
 */
int	player_advance(struct player *, double wall_s);
/*
 * Right (dir > 0) / Left (dir < 0): pause and jump to the next or previous
 * distinct event start (or the end). Returns 1 if the time changed.
 */
int	player_step(struct player *, int dir);
/* +/-: one speed up or down, clamped. Returns the new factor. */
double	player_speed_change(struct player *, int dir);
/* The speed factor: 0.125 .. 8. */
double	player_speed_factor(const struct player *);

/* Devices in the run. */
int	player_devices(const struct player *);

/*
 * What dev does at time t: the compute event if any, else a blocking
 * collective or the optimizer; NULL when the device is idle (or only
 * sending or reducing beside compute). The event belongs to the player.
 */
const struct sim_event	*player_busy(const struct player *, int dev,
			    double t);

/* The slice of the batch an event works on: shard * m + mb, or -1. */
int	player_label(const struct player *, const struct sim_event *);

/*
 * The transfers in flight at t, at most max (and PLAYER_MAX_FLOWS), in
 * timeline order; a
 * collective appears once for its whole group, with its ring step at t.
 * Returns how many.
 */
size_t	player_flows(const struct player *, double t, struct player_flow *,
	    size_t max);

/* 1 if some transfer sends bytes from device a to device b at time t. */
int	player_link_active(const struct player *, double t, int a, int b);

/*
 * Fill p->links' bytes with what each link carried by time t: each send
 * and each ring step counts linearly over its span. At the end of the
 * step the bytes equal the totals, and their sum equals res.bytes_moved.
 * Returns p->links (p->n_links entries).
 */
const struct player_link	*player_links_at(struct player *, double t);

/*
 * Bytes dev holds at time t, all kinds together; by_kind (may be NULL,
 * SIM_NMEM entries) gets them by kind.
 */
size_t	player_mem(const struct player *, int dev, double t,
	    size_t *by_kind);

/*
 * The Gantt row of dev over width columns spanning span seconds (0 or
 * less: the step time). Column c covers [c, c+1) * span/width and shows
 * what the device does at its middle, compute over communication. Idle
 * inside the compute window (sim_timeline_compute_window), what the bubble
 * figure counts, is PLAYER_CELL_BUBBLE; idle outside it, waiting for a
 * transfer such as the last bucket's all-reduce, is PLAYER_CELL_WAIT;
 * after the step's end, PLAYER_CELL_BUBBLE.
 */
void	player_gantt_row(const struct player *, int dev, int width,
	    double span, struct player_cell *cells);

/*
 * The transfer lane over width columns spanning span seconds: the
 * transfers that run beside compute (overlapped collectives, pipeline
 * sends) on any device, each marking at least the column it starts in;
 * bubble where none runs. Returns how many columns are marked.
 */
int	player_transfer_row(const struct player *, int width, double span,
	    struct player_cell *cells);

/*
 * The cursor's column at the current time in a row of width columns
 * spanning span seconds (0 or less: the step time).
 */
int	player_cursor_col(const struct player *, int width, double span);

/*
 * What dev holds, as line 0 or 1 of a device box (compact: at most 8
 * columns, for narrow boxes). Empty string when the line has nothing.
 * Writes at most n bytes to buf; returns buf.
 */
char	*player_holds(const struct player *, int dev, int line, int compact,
	    char *buf, size_t n);

/* The sequences of the batch device dev's replica works on: [*lo, *hi]. */
void	player_shard_seqs(const struct player *, int dev, int *lo, int *hi);

#endif
