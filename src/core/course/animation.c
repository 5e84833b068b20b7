/*
 * animation.c - an animation block made into a simulator config, through
 * the simulator's one config builder.
 */
#include <string.h>

#include "core/course/animation.h"

const char *const animation_keys[] = {
	"mode", "gpus", "microbatches", "schedule", "virtual_stages",
	"sequence_parallel", "no_overlap", "compute_only", NULL
};

int
animation_key_known(const char *key)
{
	size_t i;

	for (i = 0; animation_keys[i] != NULL; i++)
		if (strcmp(animation_keys[i], key) == 0)
			return 1;
	return 0;
}

void
animation_request(const struct content_animation *an, struct sim_request *req)
{
	memset(req, 0, sizeof *req);
	req->mode = an->mode;
	req->gpus = an->gpus;
	req->microbatches = an->microbatches;
	req->schedule = an->schedule;
	req->vstages = an->virtual_stages;
	req->seq_parallel = an->sequence_parallel;
	req->no_overlap = an->no_overlap;
	req->compute_only = an->compute_only;
}

int
animation_config(const struct content_animation *an, struct sim_config *cfg,
    struct pl_err *err)
{
	struct sim_request req;

	animation_request(an, &req);
	return sim_config_build(&req, cfg, err);
}
