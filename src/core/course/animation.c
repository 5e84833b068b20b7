/*
 * animation.c - an animation block made into a simulator config, through
 * the simulator's one config builder.
 */
#include <string.h>

#include "core/course/animation.h"
#include "core/sim/sim_keys.h"

int
animation_key_known(const char *key)
{
	const struct sim_key *k = sim_key_find(key);

	return k != NULL && (k->uses & SIM_FOR_BLOCK) != 0;
}

void
animation_request(const struct content_animation *an, struct sim_request *req)
{
	*req = an->req;
}

int
animation_config(const struct content_animation *an, struct sim_config *cfg,
    struct pl_err *err)
{
	return sim_config_build(&an->req, cfg, err);
}
