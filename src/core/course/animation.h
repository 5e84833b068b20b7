/*
 * animation.h - an animation block of a lesson as a simulator config.
 *
 * A block's settings are the simulator's table's (core/sim/sim_keys.h),
 * `parlearn trace`'s options with '_' for '-'. Both go through
 * sim_config_build, so a block plays exactly what trace prints for the
 * same settings.
 */
#ifndef PARLEARN_CORE_COURSE_ANIMATION_H
#define PARLEARN_CORE_COURSE_ANIMATION_H

#include "core/course/content.h"
#include "core/err.h"
#include "core/sim/sim.h"

/* 1 if key is a setting a block may have (besides "kind", "caption"). */
int	animation_key_known(const char *key);

/* The request a block makes: its keys, the rest left to the defaults. */
void	animation_request(const struct content_animation *,
	    struct sim_request *);

/*
 * The config of a block. Returns 0, or -1 with err naming what the
 * block asks for that the toy cannot run.
 */
int	animation_config(const struct content_animation *,
	    struct sim_config *, struct pl_err *);

#endif
