/*
 * calibrate.h - a hardware file fitted to a user's own measurements:
 * nccl-tests tables (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
 * alltoall_perf; in a node and across nodes) and the table of
 * examples/pytorch/gemm_bench.py (torch.matmul at the engine's shapes).
 *
 * What is fitted, each to the engine's own model of it (costmodel_net.c,
 * cm_gemm_eta):
 *   - inside a node: the ring's bus bandwidth over the NVLink rate
 *     (nvlink_efficiency) from all-gather, reduce-scatter or a ring
 *     all-reduce, or NVLink SHARP's all-reduce bus bandwidth (nvls_gbps)
 *     from an all-reduce of 5 or more GPUs on a GPU that has it; and the
 *     latency of one ring step (intra_latency_us) from the smallest sizes;
 *   - across nodes: the network rate per GPU that NCCL's 0.96 turns into
 *     the measured bus bandwidth (inter_gbps), and the step latency across
 *     nodes (inter_latency_us);
 *   - the sustained large-product efficiency (gemm_efficiency): the value
 *     at which the engine's product times match the measured ones (the
 *     median ratio over products of 0.1 ms or more, so that launch floors
 *     do not count).
 * Bandwidth comes from the largest sizes (the last three rows of 64 MB or
 * more, or the largest row), latency from the rows of 4 KB or less. All-to-
 * all tables are read and compared, not fitted: the engine's all-to-all
 * runs on the same links. Pure logic: text in, numbers out.
 */
#ifndef PARLEARN_CORE_CALIBRATE_H
#define PARLEARN_CORE_CALIBRATE_H

#include "core/err.h"
#include "core/engine/hardware.h"

enum calib_coll { CAL_ALLREDUCE, CAL_ALLGATHER, CAL_REDUCESCATTER,
	CAL_ALLTOALL, CAL_N_COLLS };

#define CAL_MAX_ROWS	64

struct calib_row {
	double	bytes;		/* nccl-tests "size" */
	double	time_s;		/* out-of-place time */
	double	busbw;		/* bytes/s, as nccl-tests printed it */
	int	line;		/* 1-based line in the file */
};

struct calib_nccl {
	enum calib_coll	 kind;
	int		 ranks;		/* Rank lines */
	int		 nodes;		/* distinct hosts among them */
	int		 n_rows;
	struct calib_row rows[CAL_MAX_ROWS];
};

struct calib_gemm_row {
	double	m, k, n, time_s;
	int	line;
};

struct calib_gemm {
	int			 n_rows;
	struct calib_gemm_row	 rows[CAL_MAX_ROWS];
};

/* What a fit changed: bits of hw_gpu.measured (hardware.h HW_MEAS_*). */
struct calib_fit {
	struct hw_gpu	gpu;		/* the base GPU, fitted fields set */
	char		how[HW_MEAS_N][96];	/* per field, where it came
						 * from ("all_gather_perf, 8
						 * GPUs in 1 node") */
};

/* "all_reduce_perf" ... */
const char	*calib_coll_name(enum calib_coll);

/*
 * Parse one nccl-tests output. The collective is read from the text
 * ("Collective test starting: X_perf", or the X_perf command it shows),
 * else kind_hint (-1: none). Returns 0, or -1 with err at file:line:col.
 */
int	calib_nccl_parse(const char *text, const char *file, int kind_hint,
	    struct calib_nccl *, struct pl_err *err);

/* Parse gemm_bench.py's table; 0, or -1 with err at file:line:col. */
int	calib_gemm_parse(const char *text, const char *file,
	    struct calib_gemm *, struct pl_err *err);

void	calib_fit_init(struct calib_fit *, const struct hw_gpu *base);

/*
 * Fit the links from t (fit the single-node tables before the multi-node
 * ones: the latter use the NVLink figures). Returns 0, or -1 with err
 * naming file when t cannot be fitted (one rank, no rows, a fitted value
 * outside what a hardware file accepts).
 */
int	calib_fit_nccl(struct calib_fit *, const struct calib_nccl *t,
	    const char *file, struct pl_err *err);

/* Fit gemm_efficiency; 0, or -1 with err. */
int	calib_fit_gemm(struct calib_fit *, const struct calib_gemm *t,
	    const char *file, struct pl_err *err);

/* The engine's time for a row of t with the fitted GPU, s. */
double	calib_nccl_predict_s(const struct calib_fit *,
	    const struct calib_nccl *t, double bytes);

/* nccl-tests' bus bandwidth for bytes in time_s on t's ranks, bytes/s. */
double	calib_busbw(const struct calib_nccl *t, double bytes, double time_s);

/* The engine's time for one product with the fitted GPU, s. */
double	calib_gemm_predict_s(const struct calib_fit *, double m, double k,
	    double n);

#endif
