/*
 * sim_knob.h - the settings a learner turns in the animation player, one
 * notch at a time, and the run a config is best compared with.
 *
 * Turning a knob moves it to the nearest value in that direction that
 * gives a config the toy can run (sim_config_check), adjusting what must
 * follow (the interleaved schedule brings 2 virtual stages, leaving it
 * drops them). The screen only forwards keys; the rules live here.
 */
#ifndef PARLEARN_CORE_SIM_KNOB_H
#define PARLEARN_CORE_SIM_KNOB_H

#include "core/sim/sim.h"

enum sim_knob {
	SIM_KNOB_MODE,		/* single, dp, tp, pp, fsdp, 3d */
	SIM_KNOB_GPUS,
	SIM_KNOB_MICROBATCHES,
	SIM_KNOB_SCHEDULE,	/* gpipe, 1f1b, interleaved */
	SIM_KNOB_VSTAGES,	/* interleaved only */
	SIM_KNOB_SP,		/* sequence parallelism on/off */
	SIM_KNOB_OVERLAP,	/* DP buckets, ZeRO-3 prefetch on/off */
	SIM_KNOB_COMPUTE_ONLY,	/* free transfers on/off */
	SIM_KNOB_TP,		/* cp: TP ranks inside each CP rank */
	SIM_KNOB_EP,		/* ep: expert-parallel ranks */
	SIM_KNOB_ROUTER,	/* ep: router balanced / imbalanced */
	SIM_KNOB_PP		/* ep: pipeline stages */
};

/* The devices a mode runs on by default: 4 (single 1, 3d 8). */
int	sim_mode_default_gpus(enum sim_mode);

/*
 * Turn knob one notch (dir > 0 up, < 0 down; switches toggle, the mode
 * and the schedule go round). max_gpus caps the devices (the player
 * draws at most so many). Returns 1 if cfg changed, 0 if no valid value
 * lies that way (cfg is then unchanged).
 */
int	sim_config_turn(struct sim_config *, enum sim_knob, int dir,
	    int max_gpus);

/*
 * 1 if knob means something for cfg's mode: the schedule and the virtual
 * stages (interleaved) only where there is a pipeline, sequence
 * parallelism only with TP, the TP inside CP only with cp, overlap only with DP or ZeRO-3, the device
 * count and free transfers only with more than one device. The player's
 * settings line shows these alone.
 */
int	sim_knob_applies(const struct sim_config *, enum sim_knob);

/*
 * The knob's value as the player shows it, translated: "4 GPUs", "8 mb",
 * "1f1b", "2 chunks", "SP on", "overlap off", "transfers free". Returns
 * buf.
 */
const char	*sim_knob_value(const struct sim_config *, enum sim_knob,
		    char *buf, size_t size);

/* 1 if a and b ask for the same run (their costs are not compared). */
int	sim_config_same(const struct sim_config *, const struct sim_config *);

/*
 * The run cfg is best compared with, side by side: pp and 3d the other
 * of GPipe and 1F1B (interleaved against plain 1F1B), dp and fsdp the
 * same without overlap (or with it), tp without sequence parallelism (or
 * with it), cp the same GPUs with TP 2 inside each CP rank (or without
 * it), or without overlap where that leaves no CP ring. Returns 0, or -1 when there is nothing to compare (single).
 */
int	sim_config_compare(const struct sim_config *, struct sim_config *);

#endif
