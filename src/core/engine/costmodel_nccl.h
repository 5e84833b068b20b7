/*
 * costmodel_nccl.h - NCCL's own choice of algorithm and protocol for a
 * collective, and its predicted time (costmodel_nccl.c).
 *
 * cm_coll_s prices with it under --nccl-model tuned; the default keeps
 * the Simple ring (this model's CM_NCCL_RING / CM_NCCL_SIMPLE entry, less
 * NCCL's ring plateau). The pick is the least predicted time over entries
 * that include that one, so NCCL's choice shortens nearly every
 * collective, most of all the small ones across many nodes (LL's 0.6 us a
 * hop against Simple's 3.4); only a multi-node all-reduce that stays on
 * the Simple ring comes out longer, by the plateau's 1.4 x latency. The
 * calibration set's multi-node rows are already priced fast
 * (tests/check_calibration.c): as the default, tuned takes DeepSpeed's
 * 2021 ZeRO-3 on 768 GPUs from +12.2 % to +23.3 % and fms-fsdp's 7B on
 * 464 H100s from +12.5 % to +15.1 %, past the 15 % bound, and the other
 * rows move by under 1 %. Whatever those runs lose beyond the engine's
 * terms, NCCL's own model does not find it.
 */
#ifndef PARLEARN_CORE_COSTMODEL_NCCL_H
#define PARLEARN_CORE_COSTMODEL_NCCL_H

#include "core/engine/costmodel.h"

/* In NCCL's order (src/include/device.h NCCL_ALGO_*, NCCL_PROTO_*). */
enum cm_nccl_algo { CM_NCCL_TREE, CM_NCCL_RING, CM_NCCL_NVLS,
    CM_NCCL_NVLS_TREE, CM_NCCL_PAT, CM_NCCL_N_ALGOS };
enum cm_nccl_proto { CM_NCCL_LL, CM_NCCL_LL128, CM_NCCL_SIMPLE,
    CM_NCCL_N_PROTOS };
/* Hardware rows of tuning.cc's hwLatencies. */
enum cm_nccl_hw { CM_NCCL_NVLINK, CM_NCCL_PCI, CM_NCCL_NET };

struct cm_nccl_pick {
	int	algo;		/* enum cm_nccl_algo */
	int	proto;		/* enum cm_nccl_proto */
	double	t;		/* s */
};

/* tuning.cc's default tuner constants, us. */
double	cm_nccl_base_lat_us(int algo, int proto);
double	cm_nccl_hw_lat_us(int hw, int algo, int proto);
double	cm_nccl_ll_max_gbps(int row, int nodes_col);

/*
 * Time of one collective (not CM_SENDRECV) of `bytes` on g with algorithm
 * algo and protocol proto as NCCL's model predicts it, s; -1 where NCCL
 * would not run that pair.
 */
double	cm_nccl_algo_s(const struct cm_config *, enum cm_coll kind,
	    const struct mesh_span *g, double bytes, int algo, int proto);

/* The pair NCCL picks (least predicted time) and its time, s. */
double	cm_nccl_coll_s(const struct cm_config *, enum cm_coll kind,
	    const struct mesh_span *g, double bytes,
	    struct cm_nccl_pick *pick);

/*
 * The collective a group runs most often in r's step (TP: a layer's
 * activations, all-reduced, or reduce-scattered and all-gathered under
 * SP; DP: ZeRO-3's per-layer gather, ZeRO 0-2's gradient buckets), with
 * NCCL's pick for it and its time both ways, s.
 */
struct cm_coll_note {
	enum cm_coll	kind;
	double		bytes;
	struct cm_nccl_pick pick;	/* NCCL's own choice and time */
	double		ring_s;		/* the Simple ring's time */
};

/* 1 with *n filled for TP or DP, 0 where the group has one rank. */
int	cm_group_collective(const struct cm_result *, enum mesh_axis,
	    struct cm_coll_note *n);

/* "ring", "LL128" ... for messages and tests. */
const char	*cm_nccl_algo_name(int algo);
const char	*cm_nccl_proto_name(int proto);

#endif
