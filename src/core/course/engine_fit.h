/*
 * engine_fit.h - what a lesson's engine configuration is meant to show
 * when it is opened: a layout that fits, or (marked "expect": "oom") one
 * whose premise is that it does not.
 */
#ifndef PARLEARN_CORE_ENGINE_FIT_H
#define PARLEARN_CORE_ENGINE_FIT_H

#include "core/course/content.h"
#include "core/engine/hardware.h"
#include "core/json.h"

/*
 * Read the optional "expect" of obj ("fits", the default, or "oom") into
 * *oom. has_config says whether obj carries an engine configuration;
 * "expect" anywhere else is an error. Returns 0, or -1 with err set.
 */
int	engine_fit_take_expect(const cJSON *obj, int has_config,
	    const char *file, const char *path, int *oom, struct pl_err *err);

/* One engine configuration the course carries, and where. */
struct engine_fit_item {
	const cJSON	*config;
	int		 expect_oom;	/* bool */
	const char	*file;
	char		 path[64];	/* "blocks[7].engine", "cards[5].engine" */
};

/*
 * Calls fn for every engine configuration of c: numeric questions'
 * "engine", scenarios' "start", numeric cards' "engine". Returns how
 * many.
 */
size_t	engine_fit_each(const struct content_course *c,
	    void (*fn)(const struct engine_fit_item *, void *), void *arg);

/*
 * Opens every configuration as the app does (cm_config_from_json, then
 * cm_evaluate) and adds a problem for each that does not build, does not
 * fit while not marked "expect": "oom", or fits while marked so.
 * Returns the number of problems added.
 */
int	engine_fit_check_course(const struct hw_catalog *cat,
	    const struct content_course *c, struct content_problems *probs);

#endif
