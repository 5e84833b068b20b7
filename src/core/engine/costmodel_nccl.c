/*
 * costmodel_nccl.c - how long one collective takes, as NCCL's own tuning
 * model predicts it and with the algorithm and protocol NCCL picks.
 *
 * Source: NVIDIA/nccl src/graph/tuning.cc at commit 5067397c2676d5aed500
 * 42fc39e5c8ee96eb0027 (June 2026): ncclTopoTuneModel fills, for each
 * collective, algorithm and protocol, a latency and a bus bandwidth;
 * ncclTopoGetAlgoTime predicts time = latency + bytes / algorithm
 * bandwidth; enqueue.cc takes the pair with the least time.
 *
 * Protocols: LL moves 8-byte lines of 4 data bytes and 4 flag bytes (half
 * the bandwidth, capped at llMaxBws), LL128 128-byte lines with 120 data
 * bytes (0.92 of it), Simple the link's full rate behind a memory fence
 * per chunk (the largest latency). Algorithms: the ring (every
 * collective), the tree (all-reduce: a chain in the node and a binary
 * tree of nodes, latency growing with log2 of the nodes), NVLS (all-reduce
 * inside an NVSwitch node, NVLink SHARP) and NVLS-tree (all-reduce across
 * nodes: NVLS in each node, a tree between them), PAT (all-gather and
 * reduce-scatter with one rank per node).
 *
 * The engine's side of it. "Nodes" are NVLink domains (NCCL treats a
 * multi-node NVLink domain as one node). The Simple ring's bus bandwidth
 * is the measured one of costmodel_net.c (cm_group_bw, cm_nvls_bw for
 * NVLS); NCCL's ratios derive the other protocols' from it. NCCL also caps
 * LL128 and tree bandwidth per channel (perChMax*Bws x nChannels); the
 * channel count comes from NCCL's topology search, which the engine does
 * not run, so those caps are left out. The catalog's per-step latencies
 * (gpus.json intra/inter_latency_us) are tuning.cc's Ring/Simple figures;
 * every NVLink figure is scaled by intra_latency_us / 3.4, every network
 * one by inter_latency_us / 14 and every base latency by coll_base_s /
 * 8.4 us, so that a user's hardware file moves them all; with the catalog
 * the constants are tuning.cc's. The CPU is taken as Intel x86 (NCCL's
 * netOverhead 1 us, llMaxBws row "Intel"), the network plugin's extra
 * latency (graph latencyInter) as 0.
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_nccl.h"
#include "core/engine/costmodel_fp8.h"

#define US	1e-6
#define GBPS	1e9

/* tuning.cc ncclTunerConstantsDefaults.baseLatencies, us. */
static const double base_lat[CM_NCCL_N_ALGOS][CM_NCCL_N_PROTOS] = {
	{ 6.8, 14.0, 8.4 },	/* Tree */
	{ 6.6, 14.0, 8.4 },	/* Ring */
	{ 0, 0, 0 },		/* NVLS */
	{ 0, 0, 0 },		/* NVLS Tree */
	{ 8.0, 8.0, 8.0 },	/* PAT */
};

/* hwLatencies [NVLINK, PCI, NET][algo][LL, LL128, Simple], us. */
static const double hw_lat[3][CM_NCCL_N_ALGOS][CM_NCCL_N_PROTOS] = {
	{ { 0.6, 1.25, 4.0 }, { 0.6, 1.9, 3.4 }, { 0, 0, 25 }, { 0, 0, 25 },
	  { 0, 0, 4.0 } },
	{ { 1.0, 1.9, 4.0 }, { 1.0, 2.5, 5.7 }, { 0, 0, 0 }, { 0, 0, 0 },
	  { 0, 0, 4.0 } },
	{ { 5.0, 8.5, 14 }, { 2.7, 4.0, 14.0 }, { 0, 0, 18 }, { 0, 0, 20.9 },
	  { 0, 0, 14 } },
};

/*
 * llMaxBws, GB/s: rows Volta/Intel, Ampere/AMD, Hopper, Blackwell (a
 * single node takes its GPU's row, several nodes their CPU's), columns
 * 1 node, 2 nodes, more.
 */
static const double ll_max_bw[4][3] = {
	{ 39.0, 39.0, 20.4 }, { 87.7, 22.5, 19.0 }, { 141.0, 45.0, 35.0 },
	{ 2 * 141.0, 2 * 45.0, 2 * 35.0 },
};

/*
 * treeCorrectionFactor[proto][log2(bytes / 64)], 64 B to 256 MB: "Trees
 * are not perfectly sticking to the model for medium sizes".
 */
static const double tree_corr[CM_NCCL_N_PROTOS][24] = {
	{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6,
	  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0 },
	{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6,
	  .8, .9, .9, .9, .9, 1.0, 1.0, 1.0 },
	{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6,
	  .7, .8, .7, .7, .8, .9, .9, .9 },
};

/* NCCL's MAXCHANNELS (src/include/device.h), for the ring's plateau. */
#define NCCL_MAXCHANNELS	64

double
cm_nccl_base_lat_us(int a, int p)
{
	return base_lat[a][p];
}

double
cm_nccl_hw_lat_us(int hw, int a, int p)
{
	return hw_lat[hw][a][p];
}

double
cm_nccl_ll_max_gbps(int row, int col)
{
	return ll_max_bw[row][col];
}

const char *
cm_nccl_algo_name(int a)
{
	static const char *const s[] = { "tree", "ring", "nvls", "nvls-tree",
	    "pat" };

	return a >= 0 && a < CM_NCCL_N_ALGOS ? s[a] : "?";
}

const char *
cm_nccl_proto_name(int p)
{
	static const char *const s[] = { "LL", "LL128", "Simple" };

	return p >= 0 && p < CM_NCCL_N_PROTOS ? s[p] : "?";
}

/* NCCL's log2i: floor of log2, -1 for 0. */
static int
log2i(double x)
{
	int l = -1;

	while (x >= 1) {
		x /= 2;
		l++;
	}
	return l;
}

/* The latency scales of a config, see above. */
struct scales {
	double	base, nvl, net;
};

static void
scales_of(const struct cm_config *c, struct scales *s)
{
	s->base = c->coll_base_s / (8.4 * US);
	s->nvl = c->intra_lat_s / (3.4 * US);
	s->net = c->inter_lat_s / (14.0 * US);
}

static double
lat_nvl(const struct scales *s, int a, int p)
{
	return hw_lat[CM_NCCL_NVLINK][a][p] * s->nvl * US;
}

static double
lat_net(const struct scales *s, int a, int p)
{
	return hw_lat[CM_NCCL_NET][a][p] * s->net * US;
}

/* llMaxBw of c on g, bytes/s. */
static double
ll_max(const struct cm_config *c, int nodes)
{
	int row = c->gpu.arch == HW_ARCH_VOLTA ? 0 :
	    c->gpu.arch == HW_ARCH_HOPPER ? 2 :
	    c->gpu.arch == HW_ARCH_BLACKWELL ? 3 : 1;

	if (nodes > 1)
		row = 0;	/* Intel CPUs */
	return ll_max_bw[row][nodes <= 2 ? nodes - 1 : 2] * GBPS;
}

static double
min2(double a, double b)
{
	return a < b ? a : b;
}

/* Ring latency, tuning.cc ncclTopoTuneModel, NCCL_ALGO_RING. */
static double
ring_lat(const struct cm_config *c, enum cm_coll kind, double n, int nodes,
    double ppn, int p, double bytes)
{
	struct scales s;
	double steps = kind == CM_ALLREDUCE ? 2 * (n - 1) : n - 1;
	double inter_steps = nodes == 1 ? 0 : kind == CM_ALLREDUCE ?
	    2.0 * (nodes - 1) : nodes - 1.0;
	double intra, inter, over = 0, lat;

	scales_of(c, &s);
	intra = lat_nvl(&s, CM_NCCL_RING, p);
	/* "With ppn=1 latencies are fully exposed, use the Tree network
	 * latency" */
	inter = lat_net(&s, ppn == 1 ? CM_NCCL_TREE : CM_NCCL_RING, p);
	if (nodes > 1)	/* netOverhead, 3x for Simple */
		over = (p == CM_NCCL_SIMPLE ? 3 : 1) * US;
	lat = base_lat[CM_NCCL_RING][p] * s.base * US +
	    (steps - inter_steps) * (intra > over ? intra : over) +
	    inter_steps * inter;
	/* ncclTopoGetAlgoTime: "Plateau effect of ring" */
	if (p == CM_NCCL_SIMPLE && nodes > 1 && kind == CM_ALLREDUCE &&
	    bytes / (NCCL_MAXCHANNELS * n) >= 64)
		lat *= c->gpu.arch == HW_ARCH_VOLTA ? 1.9 : 1.4;
	return lat;
}

double
cm_nccl_algo_s(const struct cm_config *c, enum cm_coll kind,
    const struct mesh_span *g, double bytes, int a, int p)
{
	struct scales s;
	struct mesh_span node;
	double n = g->n, B, bus, alg, lat, nv;
	int nodes = g->domains > 1 ? g->domains : 1, l;
	double ppn = n / nodes;
	int ar = kind == CM_ALLREDUCE;

	if (kind == CM_SENDRECV || g->n <= 1 || bytes <= 0)
		return -1;
	scales_of(c, &s);
	B = cm_group_bw(c, g);
	switch (a) {
	case CM_NCCL_RING:
		bus = p == CM_NCCL_LL ? min2(ll_max(c, nodes), 0.5 * B) :
		    p == CM_NCCL_LL128 ? 0.92 * B : B;
		alg = bus * n / (ar ? 2 * (n - 1) : n - 1);
		lat = ring_lat(c, kind, n, nodes, ppn, p, bytes);
		break;
	case CM_NCCL_TREE:
		if (!ar)
			return -1;
		bus = 0.92 * B;
		if (p == CM_NCCL_LL)
			bus = min2(bus / 3.8, ll_max(c, nodes));
		else if (p == CM_NCCL_LL128)
			bus *= nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0;
		alg = bus * 0.5;
		l = log2i(bytes / 64);
		if (l >= 0 && l < 23)
			alg *= tree_corr[p][l];
		lat = base_lat[a][p] * s.base * US + 2 * ((ppn - 1) *
		    lat_nvl(&s, a, p) + log2i(nodes) * lat_net(&s, a, p));
		break;
	case CM_NCCL_NVLS:
		/* one node, Simple only; bandwidth measured (costmodel_net.c) */
		nv = cm_nvls_bw(c, g);
		if (!ar || nodes > 1 || p != CM_NCCL_SIMPLE || nv <= 0)
			return -1;
		alg = nv * n / (2 * (n - 1));
		lat = lat_nvl(&s, a, p);
		break;
	case CM_NCCL_NVLS_TREE:
		if (!ar || nodes == 1 || p != CM_NCCL_SIMPLE)
			return -1;
		node.n = (int)ppn;
		node.per_node = (int)ppn;
		node.nodes = node.domains = 1;
		nv = cm_nvls_bw(c, &node);
		if (nv <= 0)
			return -1;
		/* min(intra NVLS, inter (x2 for 2 nodes)) */
		bus = min2(nv, g->per_node * c->inter_bw * c->inter_eff *
		    (nodes <= 2 ? 2 : 1));
		alg = bus * n / (2 * (n - 1));
		lat = lat_nvl(&s, a, p) + 2 * log2i(nodes) * lat_net(&s, a, p);
		break;
	case CM_NCCL_PAT:
		/* one rank per node only; no bus-to-algorithm conversion */
		if (ar || nodes == 1 || ppn != 1 || p != CM_NCCL_SIMPLE)
			return -1;
		alg = 0.75 * B;
		lat = base_lat[a][p] * s.base * US + log2i(nodes) *
		    lat_net(&s, CM_NCCL_TREE, p) / 3.5 + n * 2.8 * US;
		break;
	default:
		return -1;
	}
	if (alg <= 0)
		return -1;
	return lat + bytes / alg;
}

double
cm_nccl_coll_s(const struct cm_config *c, enum cm_coll kind,
    const struct mesh_span *g, double bytes, struct cm_nccl_pick *pick)
{
	struct cm_nccl_pick best = { CM_NCCL_RING, CM_NCCL_SIMPLE, 0 };
	double t;
	int a, p, found = 0;

	for (a = 0; a < CM_NCCL_N_ALGOS; a++)
		for (p = 0; p < CM_NCCL_N_PROTOS; p++) {
			t = cm_nccl_algo_s(c, kind, g, bytes, a, p);
			if (t < 0 || (found && t >= best.t))
				continue;
			best.algo = a;
			best.proto = p;
			best.t = t;
			found = 1;
		}
	if (pick != NULL)
		*pick = best;
	return best.t;
}

int
cm_group_collective(const struct cm_result *r, enum mesh_axis a,
    struct cm_coll_note *n)
{
	struct cm_config c = r->cfg;
	struct mesh_span g;
	double total, k;

	if (a == MESH_TP) {
		g = r->group[MESH_TP];
		n->kind = c.seq_parallel ? CM_ALLGATHER : CM_ALLREDUCE;
		n->bytes = cm_elem_bytes(&c) * cm_rank_tokens(&c) *
		    c.model.hidden;
	} else if (a == MESH_DP) {
		cm_shard_group(&c, &g);
		if (c.zero >= 3) {	/* one layer's weights (costmodel_dp.c) */
			n->kind = CM_ALLGATHER;
			n->bytes = cm_elem_bytes(&c) * cm_fp8_gather_scale(&c) *
			    r->params_gpu / (r->stage_layers > 0 ?
			    r->stage_layers : 1);
		} else {		/* the gradient buckets */
			n->kind = c.zero == 0 ? CM_ALLREDUCE :
			    CM_REDUCESCATTER;
			total = (c.reduce_fp32 ? 4 : cm_elem_bytes(&c)) *
			    r->params_gpu;
			k = c.bucket_bytes > 0 ? ceil(total / c.bucket_bytes) : 1;
			n->bytes = total / (k < 1 ? 1 : k);
		}
	} else {
		return 0;
	}
	if (g.n <= 1 || n->bytes <= 0)
		return 0;
	cm_nccl_coll_s(&c, n->kind, &g, n->bytes, &n->pick);
	c.nccl_model = CM_COLL_RING;
	n->ring_s = cm_coll_s(&c, n->kind, &g, n->bytes);
	return 1;
}
