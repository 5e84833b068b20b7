/*
 * answer.h - the expected answer of a numeric question or card.
 *
 * Lesson files never type a number: they give an engine configuration and
 * the name of a quantity, and the cost model computes the figure. The
 * content check, the reader and the tests all go through this one call.
 */
#ifndef PARLEARN_CORE_ANSWER_H
#define PARLEARN_CORE_ANSWER_H

#include <cjson/cJSON.h>

#include "core/course/content.h"
#include "core/err.h"
#include "core/engine/hardware.h"

/*
 * Evaluate config (an engine configuration object) with the cost model and
 * return the named quantity in *out. file and path name the configuration
 * in errors ("FILE: blocks[3].engine.tp: message"). Returns 0, or -1 with
 * err set when the configuration is invalid or the quantity unknown.
 */
int	answer_engine(const struct hw_catalog *, const cJSON *config,
	    const char *quantity, const char *file, const char *path,
	    double *out, struct pl_err *err);

/*
 * Check every numeric question and card of the course against the engine.
 * Each one that cannot be computed adds a problem. Returns the number of
 * numeric answers computed.
 */
int	answer_check_course(const struct hw_catalog *,
	    const struct content_course *, struct content_problems *probs);

/*
 * No answer stands above its question (issues 14 and 22): a numeric
 * question's figure, in any form the grader accepts (a unit prefix, a
 * percentage or ratio for a fraction, thousands commas, an exponent),
 * may not be written in its prompt, anywhere in its drop before it, or
 * in any other question of the course; and no two numeric questions may
 * ask for the same quantity with the same figure. Each finding adds a
 * problem naming the question's block and id and where the figure is
 * written (the matching rules: answer_giveaway.c). Questions whose answer
 * cannot be computed are left to answer_check_course. Returns the number
 * of problems added.
 */
int	answer_check_giveaways(const struct hw_catalog *,
	    const struct content_course *, struct content_problems *probs);

#endif
