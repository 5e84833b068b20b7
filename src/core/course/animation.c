/*
 * animation.c - an animation block made into a simulator config, through
 * the simulator's one config builder.
 */
#include <string.h>

#include "core/course/animation.h"

void
animation_request(const struct content_animation *an, struct sim_request *req)
{
	memset(req, 0, sizeof *req);
	req->mode = an->mode;
	req->gpus = an->gpus;
	req->microbatches = an->microbatches;
	req->schedule = an->schedule;
	req->vstages = an->virtual_stages;
}

int
animation_config(const struct content_animation *an, struct sim_config *cfg,
    struct pl_err *err)
{
	struct sim_request req;

	animation_request(an, &req);
	return sim_config_build(&req, cfg, err);
}
