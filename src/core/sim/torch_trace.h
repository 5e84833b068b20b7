/*
 * torch_trace.h - real PyTorch steps in the player: the Chrome traces
 * torch.profiler exports, one file per rank, read as a measured timeline.
 *
 * A file is a JSON array of trace events, or an object whose
 * "traceEvents" holds them (Kineto's form, which every CUDA build
 * writes). Of each rank's complete events ("ph": "X", microseconds) the
 * step is found by name:
 *   - forward: a "forward" region (record_function), else the
 *     DistributedDataParallel / FullyShardedDataParallel forward, else the
 *     first "ProfilerStep#";
 *   - backward: a "backward" region, else the span of autograd's
 *     "autograd::engine::evaluate_function: ..." nodes;
 *   - optimizer: an "optimizer" region, else "Optimizer.step#...";
 *   - collectives inside the step: the backend's own events
 *     ("nccl:all_reduce", "gloo:all_gather", "nccl:_reduce_scatter_base"
 *     ...), which run beside compute on their stream or thread, else the
 *     "c10d::" calls; their bytes from Kineto's "In msg nelems" and
 *     "dtype" where the trace has them.
 * Ranks' clocks are aligned on their collectives: a collective ends on
 * every member together, so each rank is shifted by the median gap
 * between its collectives' ends and rank 0's. The layout is data
 * parallel over the files, one device a rank, in the order given.
 */
#ifndef PARLEARN_CORE_TORCH_TRACE_H
#define PARLEARN_CORE_TORCH_TRACE_H

#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/sim/sim.h"
#include "core/sim/sim_json.h"

/* 1 if root looks like a torch.profiler trace (not a parlearn step). */
int	torch_trace_is(const cJSON *root);

/*
 * Read n ranks' traces (roots[i] from files[i]) into cfg, res and origin.
 * Returns 0, or -1 with err naming the file (res then empty and safe to
 * free).
 */
int	torch_trace_read(const cJSON *const *roots, const char *const *files,
	    int n, struct sim_config *cfg, struct sim_result *res,
	    struct sim_origin *origin, struct pl_err *err);

#endif
