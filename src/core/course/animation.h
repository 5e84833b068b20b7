/*
 * animation.h - an animation block of a lesson as a simulator config.
 *
 * A block's settings are `parlearn trace`'s options with '_' for '-'
 * (mode, gpus, microbatches, schedule, virtual_stages, sequence_parallel,
 * no_overlap, compute_only; only --json and --help have no key). Both go
 * through sim_config_build, so a block plays exactly what trace prints
 * for the same settings.
 */
#ifndef PARLEARN_CORE_COURSE_ANIMATION_H
#define PARLEARN_CORE_COURSE_ANIMATION_H

#include "core/course/content.h"
#include "core/err.h"
#include "core/sim/sim.h"

/*
 * The settings keys a block may have besides "kind" and "caption", in
 * trace's order; NULL-terminated.
 */
extern const char *const animation_keys[];

/* 1 if key is one of animation_keys. */
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
