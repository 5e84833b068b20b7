/*
 * costmodel_int.h - what the costmodel_*.c files share and nobody else
 * uses: the stage shapes and the pieces of one evaluation.
 */
#ifndef PARLEARN_CORE_COSTMODEL_INT_H
#define PARLEARN_CORE_COSTMODEL_INT_H

#include "core/engine/costmodel.h"

/* The three kinds of pipeline stage whose load can differ. */
struct cm_stages {
	int	first;		/* layers on stage 0 */
	int	middle;		/* layers on a middle stage */
	int	last;		/* layers on stage p-1 */
};

/* Layers per stage, trimming first/last as Llama 3 did (see .c). */
void	cm_stage_layers(const struct cm_config *, struct cm_stages *);

/* Element size of weights and activations, bytes (2 bf16, 4 fp32). */
double	cm_elem_bytes(const struct cm_config *);

/* Parameters of one transformer layer held by one TP rank. */
double	cm_layer_params_rank(const struct cm_config *);

/* Fill the memory fields of r (cfg, microbatches set). */
void	cm_memory(const struct cm_config *, struct cm_result *r);

/* Fill the time fields of r (memory and params already set). */
void	cm_time(const struct cm_config *, struct cm_result *r);

/* cm_validate without formatting a message; returns 0 or -1. */
int	cm_valid_quick(const struct cm_config *);

/* Evaluate a validated cfg without reasons (search inner loop). */
void	cm_evaluate_quick(const struct cm_config *, struct cm_result *r);

#endif
