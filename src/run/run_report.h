/*
 * run_report.h - after the step: every rank's shard, loss terms, events
 * and memory samples gathered on rank 0, put back into the simulator's
 * full layout and timeline, compared with the simulator and with one
 * device, and printed (text or JSON) or written to a file.
 */
#ifndef PARLEARN_RUN_REPORT_H
#define PARLEARN_RUN_REPORT_H

#include "run/run_exec.h"
#include "run/run_opts.h"

#define RUN_TOLERANCE	1e-9	/* largest difference from one device */

/*
 * Gather on rank 0 and report there. Collective over all ranks. Returns
 * the exit code: 0, or 2 if the answers differ from one device's by more
 * than RUN_TOLERANCE or the output file cannot be written (one line on
 * stderr).
 */
int	run_report(struct run_exec *, const struct run_opts *,
	    const struct sim_config *);

#endif
