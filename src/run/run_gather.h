/*
 * run_gather.h - bringing every rank's part of the step to rank 0.
 *
 * Each rank packs its place in the grid, its parameters and gradients,
 * its loss terms, its events and memory samples into one array of
 * doubles; rank 0 gathers them (MPI_Igatherv, waited with the deadline)
 * and rebuilds what sim_exec would have produced: the loss summed in the
 * simulator's order, the full-layout gradients and updated parameters
 * (replica 0's copy, as sim_exec.c's collect reads them), and one
 * timeline with a device per rank.
 */
#ifndef PARLEARN_RUN_GATHER_H
#define PARLEARN_RUN_GATHER_H

#include <mpi.h>

#include "core/sim/sim_json.h"
#include "run/run_exec.h"

#define RUN_HOST_LEN	64	/* host names are cut to this */

struct run_outcome {
	struct sim_result	 res;		/* as sim_run fills it */
	struct sim_origin	 origin;
	char			 host[SIM_MAX_GPUS][RUN_HOST_LEN];
	double			 rtt_max;	/* slowest rank's clock probe, s */
};

/*
 * Collective over all ranks; on rank 0 fills out (its timeline then
 * belongs to out: sim_result_free). Other ranks leave out untouched.
 */
void	run_gather(struct run_exec *, struct run_outcome *out);

#endif
