/*
 * costmodel_net.c - where the ranks of a communication group sit, which
 * bandwidth the group gets and how long one collective takes on it.
 *
 * Placement is the mesh's (core/mesh/mesh.c): ranks are numbered over the
 * axes in cfg->rank_order, innermost first (default TP, then PP, then DP,
 * as Megatron-LM and [LLAMA3] Figure 5 do); a group of axis X has n ranks
 * `stride` apart, and with g GPUs per node k = min(n, g / stride) of them
 * in each node it touches.
 *
 * Bandwidth (reference/costmodel.md f, "Which bandwidth a group gets").
 * Inside one node NCCL rings run over NVLink at the per-GPU unidirectional
 * rate. Across nodes NCCL opens several channels and stripes them over
 * every NIC of the node (one rail per NIC), so the k ranks of the group in
 * a node move k NICs' worth in parallel and the ring's bus bandwidth is
 *
 *	B = min(B_NVLink x eff_intra, k x B_NIC x eff_inter)
 *
 * NVIDIA measures 192 GB/s all-reduce bus bandwidth across DGX A100 nodes
 * with 8 x 200 Gb/s NICs (NVIDIA/nccl issue 812), per NDR NIC 46-48 GB/s
 * (NVIDIA/nccl-tests issue 290); tests/check_network.c holds the engine to
 * both. A point-to-point send uses the sender's own NIC (k = 1).
 *
 * Latency. NCCL's own tuning model (src/graph/tuning.cc, default tuner
 * constants, Simple protocol, ring): a base cost per collective (8.4 us)
 * plus one hardware latency per ring step, 3.4 us over NVLink and 14 us
 * over the network; of the n - 1 steps of a ring pass only the nodes - 1
 * that cross a node boundary pay the network figure (twice as many of each
 * for an all-reduce). The per-step figures live in data/gpus.json, the
 * base in cfg->coll_base_s.
 */
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_nccl.h"

static void
axis_span(const struct cm_config *c, enum mesh_axis axis,
    struct mesh_span *g)
{
	mesh_span_place(c->degree[axis], mesh_order_stride(c->rank_order,
	    c->degree, axis), c->gpus_per_node, c->nvlink_domain, g);
}

/*
 * DP's group is the data-parallel group widened by CP: the CP ranks of a
 * replica hold different tokens of the same samples, so their gradients
 * are summed together, and ZeRO shards over all of them (Megatron-Core's
 * data-parallel group "with context parallel", costmodel_cp.c). Its
 * ranks on a node are those of both axes there.
 */
void
cm_group_of(const struct cm_config *c, enum mesh_axis axis,
    struct mesh_span *g)
{
	struct mesh_span q;
	int npd;

	axis_span(c, axis, g);
	if (axis != MESH_DP || c->cp <= 1)
		return;
	axis_span(c, MESH_CP, &q);
	g->n *= q.n;
	g->per_node *= q.per_node;
	if (g->per_node > c->gpus_per_node)
		g->per_node = c->gpus_per_node;
	g->nodes = (g->n + g->per_node - 1) / g->per_node;
	npd = c->nvlink_domain > c->gpus_per_node ? c->nvlink_domain /
	    c->gpus_per_node : 1;
	g->domains = (g->nodes + npd - 1) / npd;
}

double
cm_group_bw(const struct cm_config *c, const struct mesh_span *g)
{
	double intra = c->intra_bw * c->intra_eff, inter;

	if (g->domains <= 1)	/* NVLink reaches every rank */
		return intra;
	inter = g->per_node * c->inter_bw * c->inter_eff;
	return inter < intra ? inter : intra;
}

/*
 * NVLink SHARP (NVLS, cfg->nvls; NCCL_NVLS_ENABLE): on NVSwitch systems of Hopper GPUs NCCL's default
 * all-reduce inside a node reduces in the switch. The NCCL maintainers
 * give ~480 GB/s bus bandwidth on 8 H100s, against ~370 for the ring
 * (NVIDIA/nccl-tests issue 212, NVIDIA/nccl issue 1442: "a 30%
 * improvement using NVLink SHARP"); measured by group size, 2-4 GPUs stay
 * at the ring's 365-370 and 5, 6, 7, 8 GPUs reach 420, 440, 460, 480
 * (NVIDIA/nccl issue 1455). The GPU's nvls_bw is the 8-GPU figure; a
 * group across nodes uses the ring (NCCL's NVLS-tree is not modelled).
 * Bus bandwidth of an all-reduce on g, or 0 where NVLS does not apply.
 */
double
cm_nvls_bw(const struct cm_config *c, const struct mesh_span *g)
{
	static const double of8[] = { 420.0 / 480, 440.0 / 480, 460.0 / 480,
	    1 };

	if (!c->nvls || c->gpu.nvls_bw <= 0 || g->domains > 1 || g->n < 5)
		return 0;
	return c->gpu.nvls_bw * of8[g->n >= 8 ? 3 : g->n - 5];
}

double
cm_axis_nvls_bw(const struct cm_result *r, enum mesh_axis a)
{
	const struct cm_config *c = &r->cfg;

	if (a == MESH_TP && !c->seq_parallel)
		return cm_nvls_bw(c, &r->group[MESH_TP]);
	if (a == MESH_DP && c->zero == 0)
		return cm_nvls_bw(c, &r->group[MESH_DP]);
	return 0;
}

/* NCCL ring latency, tuning.cc: base + intra steps + network steps. */
static double
ring_latency(const struct cm_config *c, const struct mesh_span *g, int twice)
{
	double steps = (g->n - 1.0) * twice, inter = (g->domains - 1.0) * twice;

	return c->coll_base_s + (steps - inter) * c->intra_lat_s +
	    inter * c->inter_lat_s;
}

double
cm_coll_s(const struct cm_config *c, enum cm_coll kind,
    const struct mesh_span *g, double bytes)
{
	double bw, n = g->n;

	if (kind == CM_SENDRECV) {
		bw = g->domains > 1 ? c->inter_bw * c->inter_eff :
		    c->intra_bw * c->intra_eff;
		return bytes / bw + c->coll_base_s + (g->domains > 1 ?
		    c->inter_lat_s : c->intra_lat_s);
	}
	if (g->n <= 1 || bytes <= 0)
		return 0;
	if (c->nccl_model == CM_COLL_TUNED)
		return cm_nccl_coll_s(c, kind, g, bytes, NULL);
	bw = cm_group_bw(c, g);
	if (kind == CM_ALLREDUCE && cm_nvls_bw(c, g) > bw)
		bw = cm_nvls_bw(c, g);
	if (kind == CM_ALLREDUCE)
		return 2 * (n - 1) / n * bytes / bw + ring_latency(c, g, 2);
	return (n - 1) / n * bytes / bw + ring_latency(c, g, 1);
}

/* Ring collectives with one latency per step, [NCCL] PERFORMANCE.md. */
double
cm_allreduce_s(double bytes, int n, double bw, double lat_s)
{
	if (n <= 1)
		return 0;
	return 2.0 * (n - 1) / n * bytes / bw + 2.0 * (n - 1) * lat_s;
}

double
cm_allgather_s(double bytes, int n, double bw, double lat_s)
{
	if (n <= 1)
		return 0;
	return (n - 1.0) / n * bytes / bw + (n - 1.0) * lat_s;
}

double
cm_sendrecv_s(double bytes, double bw, double lat_s)
{
	return bytes / bw + lat_s;
}

/* Part of t not hidden behind a window. */
static double
beyond(double t, double window)
{
	return t > window ? t - window : 0;
}

/*
 * Compute DP/ZeRO traffic may hide behind in one step, as costmodel_dp.c
 * schedules it: gradient reductions behind backward passes (one, or every
 * micro-batch's under ZeRO 2 and 3), weight gathers behind forward passes.
 */
static double
dp_windows(const struct cm_config *c, const struct cm_result *r)
{
	double m = (double)r->microbatches, f = r->t_fwd_mb, b = r->t_bwd_mb;

	if (!c->dp_overlap)
		return 0;
	switch (c->zero) {
	case 0: return b;
	case 1: return f + b;
	case 2: return m * b + f;
	default: return (c->pp > 1 ? 1 : m) * (f + b) + (c->hsdp ? b : 0);
	}
}

/*
 * One critical-path stream of `t` s a step, whose single transfer takes
 * `alone` s with the NICs to itself and `shared` s on half of them, of
 * which it then holds the NIC share `s`: the extra time it takes when
 * `x` of it meets DP, and DP's lost NIC time into *deficit.
 */
static double
stretch(double t, double frac, double alone, double shared, double s,
    double *deficit)
{
	double x = t * frac, xs;

	if (alone <= 0 || x <= 0)
		return 0;
	xs = x * shared / alone;
	/* DP ran at the full NIC during x; now at 1 - s during xs. */
	*deficit += beyond(x, (1 - s) * xs);
	return xs - x;
}

void
cm_nic_share(const struct cm_config *c, struct cm_result *r)
{
	struct cm_config half = *c;
	double hidden = r->t_dp - r->t_dp_exposed, span, frac, S, s_tp;
	double slow = 0;
	double deficit = 0, x_tp = 0, x_pp = 0, add_tp, add_dp, add, bub, old;

	r->t_nic_shared = 0;
	span = r->t_compute + r->t_tp_exposed + r->t_pp;
	if (!r->dp_inter || hidden <= 0 || span <= 0 ||
	    (!(r->tp_inter && c->tp > 1) && !(r->pp_inter && c->pp > 1)))
		return;
	frac = hidden / span < 1 ? hidden / span : 1;
	half.inter_bw = c->inter_bw / 2;
	S = cm_elem_bytes(c) * cm_rank_tokens(c) * c->model.hidden;
	if (r->tp_inter && c->tp > 1) {
		s_tp = cm_group_bw(&half, &r->group[MESH_TP]) /
		    (r->group[MESH_TP].per_node * c->inter_bw * c->inter_eff);
		x_tp = stretch(r->t_tp, frac, cm_coll_s(c, CM_ALLREDUCE,
		    &r->group[MESH_TP], S), cm_coll_s(&half, CM_ALLREDUCE,
		    &r->group[MESH_TP], S), s_tp, &deficit);
	}
	if (r->pp_inter && c->pp > 1) {
		if (c->pp_scatter_gather)
			S /= c->tp;
		x_pp = stretch(r->t_pp, frac, cm_coll_s(c, CM_SENDRECV,
		    &r->group[MESH_PP], S), cm_coll_s(&half, CM_SENDRECV,
		    &r->group[MESH_PP], S), 0.5, &deficit);
	}
	add_tp = c->tp_overlap ? beyond(r->t_tp + x_tp, r->t_gemm) -
	    beyond(r->t_tp, r->t_gemm) : x_tp;
	if (c->tp_overlap)	/* longer TP collectives slow more products */
		slow = cm_comm_slowed(r->t_tp + x_tp, r->t_gemm) -
		    cm_comm_slowed(r->t_tp, r->t_gemm);
	add_dp = beyond(deficit, beyond(dp_windows(c, r), hidden));
	add = add_tp + x_pp + add_dp;
	if (add + slow <= 0)
		return;
	/* Every micro-batch slot of the bubble is as much slower. */
	bub = r->t_bubble * (add_tp + x_pp + slow) / span;
	r->t_bubble += bub;
	r->t_tp += x_tp;
	r->t_tp_exposed += add_tp;
	r->t_comm_slowed += slow;
	r->t_pp += x_pp;
	r->t_dp += deficit;
	r->t_dp_exposed += add_dp;
	r->t_exposed_comm += add;
	r->t_nic_shared = add + slow + bub;
	old = r->t_step;
	r->t_step += r->t_nic_shared;
	/* Throughput figures are per step time. */
	r->tokens_per_s *= old / r->t_step;
	r->tflops_per_gpu *= old / r->t_step;
	r->hw_tflops_per_gpu *= old / r->t_step;
	r->mfu *= old / r->t_step;
	r->hfu *= old / r->t_step;
}
