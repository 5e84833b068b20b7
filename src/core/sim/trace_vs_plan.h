/*
 * trace_vs_plan.h - a measured step beside the engine's prediction of it:
 * the last leg of plan -> emit -> run -> profile -> trace --from.
 *
 * The measured side is a timeline read from torch.profiler traces (or a
 * `parlearn run` step), averaged over its devices: the step (the end of
 * the timeline), forward and backward compute, the optimizer, the time
 * inside collectives, the part of it no compute on the same device hides,
 * the bytes each device sends and the collectives it joins. The engine's
 * side is a `parlearn plan --json` document for one layout
 * (schema parlearn.plan/1): time_s.step, .compute, .optimizer,
 * .dp_comm, .dp_exposed and network.dp_bytes_per_gpu, .dp_collectives.
 * The trace is data parallel, so a plan with TP, PP, CP or EP, or for
 * another number of GPUs, is refused.
 */
#ifndef PARLEARN_CORE_TRACE_VS_PLAN_H
#define PARLEARN_CORE_TRACE_VS_PLAN_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/sim/sim.h"

enum tvp_row {
	TVP_STEP,
	TVP_COMPUTE,		/* forward and backward */
	TVP_OPTIMIZER,
	TVP_COMM,		/* inside collectives */
	TVP_EXPOSED,		/* of it, not hidden by compute */
	TVP_BYTES,		/* sent per device */
	TVP_COLLECTIVES,	/* per device */
	TVP_NROWS
};

struct trace_vs_plan {
	double	 measured[TVP_NROWS];	/* seconds, bytes or a count */
	double	 engine[TVP_NROWS];
	int	 gpus;			/* the trace's devices = plan's GPUs */
	char	 model[64];		/* the plan's model and GPU names, */
	char	 gpu[64];		/* untrusted text from the file */
};

/* The row's label, untranslated (N_), and 1 if it is a time in seconds. */
const char	*tvp_row_label(enum tvp_row);
int		 tvp_row_is_time(enum tvp_row);

/* The row's value with its unit (us, ms, s; kB, MB, GB), into buf. */
char	*tvp_value_text(enum tvp_row, double v, char *buf, size_t n);

/* engine / measured as "1.23x", or "-" when either is 0, into buf. */
char	*tvp_ratio_text(const struct trace_vs_plan *, enum tvp_row, char *buf,
	    size_t n);

/*
 * What the timeline says: fills out->measured and out->gpus from tl,
 * averaged over its devices. msg_bytes: the collectives' bytes are their
 * messages (a torch.profiler trace), not what each member sends. Always
 * succeeds.
 */
void	tvp_measure(const struct sim_timeline *tl, int msg_bytes,
	    struct trace_vs_plan *out);

/*
 * Fill out from the timeline and the plan document (file names it in
 * errors). Returns 0, or -1 with err naming the file and key: not a
 * parlearn.plan/1 document for one layout, a layout with model
 * parallelism, or GPUs other than the trace's devices.
 */
int	tvp_build(const struct sim_timeline *tl, int msg_bytes,
	    const cJSON *plan, const char *file, struct trace_vs_plan *out,
	    struct pl_err *err);

#endif
