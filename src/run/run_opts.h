/*
 * run_opts.h - the options of `parlearn run`, parsed the same way by the
 * launcher (src/cli/cmd_run.c, no MPI) and by each MPI process
 * (parlearn-run), so both agree on what was asked and the launcher can
 * refuse a bad request before any process starts.
 */
#ifndef PARLEARN_RUN_OPTS_H
#define PARLEARN_RUN_OPTS_H

#include <stdio.h>

#include "core/err.h"
#include "core/sim/sim.h"

#define RUN_TIMEOUT_DEFAULT	30.0	/* seconds any one wait may take */

/* How gradient and partial-sum reductions add up their terms. */
enum run_reduce {
	RUN_REDUCE_ORDERED,	/* all-to-all, sum in the simulator's ring
				   order, all-gather: bit for bit the same */
	RUN_REDUCE_MPI		/* MPI_Iallreduce / MPI_Ireduce_scatter_block:
				   the library's own order */
};

struct run_opts {
	struct sim_request	 req;		/* mode, micro-batches, ... */
	int			 np;		/* --np, 0 if not given */
	int			 json;		/* --json: JSON on stdout */
	const char		*out;		/* -o FILE: JSON timeline */
	enum run_reduce		 reduce;	/* --reduce */
	double			 timeout;	/* --timeout, seconds */
};

/* Print the usage text to fp. */
void	run_opts_usage(FILE *fp);

/*
 * Parse argv (argv[0] the command's name). Returns 0, 1 after printing a
 * usage error to stderr (silent: without printing; every rank but one of
 * a job parses silently), or -1 for --help (nothing printed).
 */
int	run_opts_parse(int argc, char **argv, struct run_opts *, int silent);

/*
 * The simulator config of the run on np processes (np 0: the mode's
 * default). Returns 0; 1, a usage error, when the options make no run
 * on any number of processes; or 2 when np (or the mode's default) does
 * not fit them; err holds the one line saying why.
 */
int	run_opts_config(const struct run_opts *, int np, struct sim_config *,
	    struct pl_err *);

#endif
