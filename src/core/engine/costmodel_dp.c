/*
 * costmodel_dp.c - data-parallel traffic of one step: plain DP, ZeRO 1-3,
 * FSDP and HSDP, with m micro-batches per step, per-layer collectives and
 * the part that overlaps the forward and backward passes.
 *
 * Volumes per GPU per step with Psi the parameters of this GPU's model
 * slice, e bytes per weight and g per gradient as reduced (reference/
 * costmodel.md f, the ZeRO paragraph; [ZERO] 7 for m = 1). g is the
 * training precision's, or 4 with reduce_dtype fp32: PyTorch FSDP2's
 * MixedPrecisionPolicy(reduce_dtype=torch.float32) casts the gradients
 * up before the reduce-scatter, Megatron-LM's
 * --accumulate-allreduce-grads-in-fp32 (DDP config grad_reduce_in_fp32)
 * reduces its fp32 main-grad buffer:
 *
 *   ZeRO 0  all-reduce of the accumulated gradients once:    2 g Psi
 *   ZeRO 1  reduce-scatter once, all-gather of the updated
 *           weights once (Megatron's distributed optimizer):   g Psi + e Psi
 *   ZeRO 2  gradients stay sharded, so each micro-batch's are
 *           reduced at once: DeepSpeed's stage_1_and_2.py calls
 *           reduce_independent_p_g_buckets_and_remove_grads on
 *           every backward when partition_gradients is set
 *           (ZeRO-1 only at the accumulation boundary):       m g Psi + e Psi
 *   ZeRO 3  FSDP FULL_SHARD: all-gather before each micro-
 *           batch's forward and again before its backward,
 *           reduce-scatter after it (PyTorch FSDP2 reduce-
 *           scatters every micro-batch unless told not to):  m (2 e + g) Psi
 *           reshard_after_forward = false keeps the gathered
 *           weights to the backward ([LLAMA3] 3.3.2):        m (e + g) Psi
 *   HSDP    ZeRO 3 inside a node, then an all-reduce of each
 *           gradient shard across nodes once per step.
 *   ZeRO 3 with PP: PyTorch's pipelining keeps the gathered weights and
 *           the unsharded gradients from the first micro-batch to the last
 *           (torch/distributed/pipelining/stage.py,
 *           backward_maybe_with_nosync: set_reshard_after_backward(False)
 *           and set_requires_gradient_sync(False) until the last backward;
 *           torchtitan turns reshard_after_forward off under PP), so one
 *           gather and one reduce-scatter per step, at the memory of
 *           unsharded weights and gradients:                   e Psi + g Psi
 *
 * (all-reduce sends 2 (n-1)/n of its array per GPU, all-gather and
 * reduce-scatter (n-1)/n.) ZeRO 0-2 reduce (and ZeRO 1-2 gather) in
 * buckets of cfg->bucket_bytes, as the framework sizes them
 * (framework_setup.c: PyTorch DDP 25 MiB, Megatron-LM max(4e7, 1e6 DP)
 * elements, DeepSpeed 5e8); ZeRO 3 issues its collectives per layer. Each
 * collective pays NCCL's ring latency (costmodel_net.c); at thousands of
 * ranks that is what slows ZeRO-3 down.
 *
 * Overlap (dp_overlap, reference j.4): DDP and ZeRO 1-2 reduce gradients
 * behind the backward pass; Megatron's distributed optimizer gathers the
 * updated weights behind the next forward; FSDP prefetches the next
 * layer's weights behind the current layer, so only the first gather of a
 * pass and the last reduce-scatter stay exposed, plus whatever the
 * collectives need beyond the compute they hide behind. Without dp_overlap
 * every collective is on the critical path.
 *
 * ZeRO-3 as DeepSpeed released it in 2021 (weight_gather = param): its
 * fetch_sub_module gathered each weight tensor of a module with its own
 * all_gather, and _allgather_param called torch.cuda.synchronize() before
 * each one (microsoft/DeepSpeed 599258f, March 2021,
 * deepspeed/runtime/zero/partition_parameters.py and stage3.py), so the
 * "prefetch" waited for the GPU to drain and no gather overlapped compute;
 * PR 1188 (c0eeb69, October 2021) says so ("the async version is not async
 * at all, because each all_gather calls torch.cuda.synchronize()") and
 * coalesced the gathers. Each tensor's all-gather then pays the ring's
 * full latency, n - 1 steps (costmodel_net.c), on the critical path: at
 * 1536 ranks about 7 ms each, for the 12 tensors of each GPT layer, twice
 * per micro-batch. On the host, each gather also touched every rank's
 * chunk: _allgather_param built its list of n partitions with one narrow()
 * per rank in Python, and torch.distributed.all_gather on a list copies
 * each of the n chunks out after the NCCL call (PR 1188: "the
 * torch.distributed.all_gather will do implicit memcpy at the end of each
 * ncclAllgather"), so a gather costs n chunk operations of the host
 * (kernel_issue_s each) on top of NCCL, with the GPU idle behind the
 * synchronize. Gradients were still reduced in buckets on a side stream,
 * as the per-layer reduce-scatter here.
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"

void
cm_shard_group(const struct cm_config *c, struct mesh_span *g)
{
	cm_group_of(c, MESH_DP, g);
	if (c->zero >= 3 && c->hsdp && g->nodes > 1) {
		g->n = g->per_node;
		g->nodes = g->domains = 1;
	}
}

/* Bytes one GPU sends in a collective of `bytes` over n ranks. */
static double
sent(enum cm_coll kind, int n, double bytes)
{
	if (n <= 1)
		return 0;
	return (kind == CM_ALLREDUCE ? 2.0 : 1.0) * (n - 1.0) / n * bytes;
}

/* Part of t not hidden behind a window of compute. */
static double
beyond(double t, double window)
{
	return t > window ? t - window : 0;
}

/*
 * Part of communication of t left exposed by a window of compute; what it
 * hides still slows that compute (CM_COMM_SM_SHARE), kept apart in
 * t_comm_slowed.
 */
static double
behind(struct cm_result *r, double t, double window)
{
	r->t_comm_slowed += cm_comm_slowed(t, window);
	return beyond(t, window);
}

/* The pieces of one step's DP traffic, per layer and in total. */
struct dp_plan {
	const struct cm_config	*c;
	struct mesh_span	 grp;	/* group the collectives run on */
	double			 layers;	/* collectives per pass */
	double			 w, g;	/* weight, gradient bytes per layer */
};

/* `layers` collectives of one kind, each on one layer's share. */
static double
pass_s(const struct dp_plan *p, enum cm_coll kind, double bytes_layer,
    struct cm_result *r)
{
	r->dp_bytes += p->layers * sent(kind, p->grp.n, bytes_layer);
	r->dp_collectives += (long)p->layers;
	return p->layers * cm_coll_s(p->c, kind, &p->grp, bytes_layer);
}

/*
 * n collectives of one kind splitting `total` bytes evenly: the buckets
 * ZeRO 0-2 reduce gradients (and Megatron's distributed optimizer gathers
 * weights) in, cfg->bucket_bytes each at most.
 */
static double
buckets_s(const struct dp_plan *p, enum cm_coll kind, double total,
    struct cm_result *r)
{
	double n = ceil(total / p->c->bucket_bytes);

	if (n < 1)
		n = 1;
	r->dp_bytes += n * sent(kind, p->grp.n, total / n);
	r->dp_collectives += (long)n;
	return n * cm_coll_s(p->c, kind, &p->grp, total / n);
}

/* ZeRO 0-2: reductions behind the backward, gathers behind the forward. */
static void
zero012(const struct dp_plan *p, struct cm_result *r, double wf, double wb)
{
	const struct cm_config *c = p->c;
	double m = (double)r->microbatches, red, ag, bytes0, coll0;
	double g = p->g * p->layers, w = p->w * p->layers;

	if (c->zero == 0) {
		red = buckets_s(p, CM_ALLREDUCE, g, r);
		r->t_dp = red;
		r->t_dp_exposed = behind(r, red, wb);
		return;
	}
	bytes0 = r->dp_bytes;
	coll0 = (double)r->dp_collectives;
	red = buckets_s(p, CM_REDUCESCATTER, g, r);
	if (c->zero == 2) {	/* every micro-batch, see above */
		r->dp_bytes += (m - 1) * (r->dp_bytes - bytes0);
		r->dp_collectives += (long)((m - 1) *
		    ((double)r->dp_collectives - coll0));
	}
	ag = buckets_s(p, CM_ALLGATHER, w, r);
	if (c->zero == 2) {
		r->t_dp = m * red + ag;
		r->t_dp_exposed = m * behind(r, red, wb) + behind(r, ag, wf);
		return;
	}
	r->t_dp = red + ag;
	r->t_dp_exposed = behind(r, red, wb) + behind(r, ag, wf);
}

/* One pass of weight gathers: per layer, or per weight tensor. */
static double
gather_pass_s(const struct dp_plan *p, struct cm_result *r)
{
	double el[16], sum = 0, t = 0;
	int n, i;

	if (p->c->weight_gather != CM_GATHER_PARAM)
		return pass_s(p, CM_ALLGATHER, p->w, r);
	n = cm_layer_tensors(p->c, el, 16);
	for (i = 0; i < n; i++)
		sum += el[i];
	for (i = 0; i < n && sum > 0; i++) {
		/* this layer's share of the weights, as the tensors split it */
		double bytes = p->w * el[i] / sum;

		r->dp_bytes += p->layers * sent(CM_ALLGATHER, p->grp.n, bytes);
		t += p->layers * (cm_coll_s(p->c, CM_ALLGATHER, &p->grp, bytes) +
		    p->grp.n * p->c->kernel_issue_s);
	}
	r->dp_collectives += (long)(p->layers * n);
	return t;
}

/* ZeRO 3 / FSDP, per micro-batch, and the HSDP all-reduce. */
static void
zero3(const struct dp_plan *p, struct cm_result *r, double tf, double tb)
{
	const struct cm_config *c = p->c;
	struct dp_plan rep = *p;
	struct mesh_span dp;
	double m = (double)r->microbatches, agf, agb = 0, rs, x, ar;
	double ag1, rs1;

	agf = gather_pass_s(p, r);
	if (c->reshard_after_forward && c->pp == 1)
		agb = gather_pass_s(p, r);
	rs = pass_s(p, CM_REDUCESCATTER, p->g, r);
	if (c->pp > 1)	/* once per step, see above */
		m = 1;
	r->dp_bytes *= m;
	r->dp_collectives *= (long)m;
	ag1 = cm_coll_s(c, CM_ALLGATHER, &p->grp, p->w);
	rs1 = cm_coll_s(c, CM_REDUCESCATTER, &p->grp, p->g);
	if (c->weight_gather == CM_GATHER_PARAM)	/* synchronous gathers */
		x = agf + agb + (c->dp_overlap ? rs1 + behind(r, rs - rs1, tb) :
		    rs);
	else if (c->dp_overlap)	/* prefetch: one gather, one reduce exposed */
		x = ag1 + behind(r, agf - ag1, tf) + rs1 +
		    behind(r, agb + rs - rs1, tb);
	else
		x = agf + agb + rs;
	r->t_dp = m * (agf + agb + rs);
	r->t_dp_exposed = m * x;
	cm_group_of(c, MESH_DP, &dp);
	if (p->grp.n == dp.n)
		return;
	/* HSDP: each gradient shard all-reduced across the nodes. */
	mesh_span_place(dp.n / p->grp.n, 1L << 30, c->gpus_per_node,
	    c->nvlink_domain, &rep.grp);
	ar = pass_s(&rep, CM_ALLREDUCE, p->g / p->grp.n, r);
	r->t_dp += ar;
	r->t_dp_exposed += c->dp_overlap ? behind(r, ar, beyond(tb, agb + rs)) :
	    ar;
}

/*
 * PyTorch's copies around its DP collectives, on the compute stream.
 *
 * FSDP2 (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py, as
 * stored at 010ae4a): the all-gather lands in one flat buffer, and
 * foreach_all_gather_copy_out copies it into each parameter's unsharded
 * tensor (split_with_sizes_copy) on the current stream after waiting for
 * the gather, so the layer's compute waits for the copy: it reads and
 * writes the gathered bytes. Before each reduce-scatter foreach_reduce
 * runs foreach_reduce_scatter_copy_in (chunk_cat) on the current stream
 * too, "only after the copy-in finishes can we free the gradients": it
 * reads the unsharded gradients in the training precision and writes them
 * in the reduce dtype. One kernel each per layer. The copy into the
 * all-gather's input (all_gather_copy_in) runs on its own stream and moves
 * only the shard, the accumulation after the reduce-scatter only the
 * shard: both left out. Under PP the gathered weights and unsharded
 * gradients are kept from the first micro-batch to the last (see above):
 * one copy of each a step.
 *
 * DDP (torch/nn/parallel/distributed.py): gradient_as_bucket_view
 * defaults to False, and setting it "avoids the overhead of copying
 * between gradients and allreduce communication buckets": by default the
 * reducer copies each gradient into its bucket as the backward produces it
 * (dividing by the world size on the way) and, once the buckets are
 * reduced, copies them back into the gradients: the gradient bytes read
 * and written twice a step (once: no_sync skips the reducer on the other
 * micro-batches), a kernel per tensor each way.
 *
 * Megatron's distributed optimizer and DeepSpeed gather into, and reduce
 * from, buffers the parameters and gradients are views of, so only
 * PyTorch's rows pay this.
 */
void
cm_dp_copies(const struct cm_config *c, const struct cm_result *r,
    double *fwd, double *bwd)
{
	struct mesh_span g;
	double e = cm_elem_bytes(c), gr = c->reduce_fp32 ? 4 : e, w, layers;
	double per = 1, el[16], tensors;

	*fwd = *bwd = 0;
	if (c->framework != CM_FW_PYTORCH || (c->zero != 0 && c->zero < 3))
		return;
	cm_shard_group(c, &g);
	if (g.n <= 1 || r->params_gpu <= 0)
		return;
	layers = r->stage_layers > 0 ? r->stage_layers : 1;
	if (c->zero == 0) {	/* DDP: into the buckets and back, a step */
		w = (c->grad_accum_fp32 ? 4 : e) * r->params_gpu;
		tensors = layers * cm_layer_tensors(c, el, 16);
		if (r->microbatches > 0)
			per = 1.0 / (double)r->microbatches;
		*bwd = per * 2 * cm_hbm_s(c, 2 * w, tensors);
		return;
	}
	w = e * cm_fp8_gather_scale(c) * r->params_gpu;
	if (c->pp > 1 && r->microbatches > 0)
		per = 1.0 / (double)r->microbatches;
	*fwd = per * cm_hbm_s(c, 2 * w, layers);
	*bwd = per * cm_hbm_s(c, (e + gr) * r->params_gpu, layers);
	if (c->reshard_after_forward && c->pp == 1)
		*bwd += *fwd;
}

void
cm_dp_time(const struct cm_config *c, struct cm_result *r)
{
	struct dp_plan p;
	double e = cm_elem_bytes(c), g = c->reduce_fp32 ? 4 : e;
	double wf = 0, wb = 0;

	cm_group_of(c, MESH_DP, &r->group[MESH_DP]);
	r->dp_inter = r->group[MESH_DP].domains > 1;
	r->group_bw[MESH_DP] = cm_group_bw(c, &r->group[MESH_DP]);
	r->t_dp = r->t_dp_exposed = r->dp_bytes = 0;
	r->t_comm_slowed = 0;
	r->dp_collectives = 0;
	if (r->group[MESH_DP].n <= 1)	/* DP x CP */
		return;
	p.c = c;
	cm_shard_group(c, &p.grp);
	p.layers = r->stage_layers > 0 ? r->stage_layers : 1;
	/* FSDP2's FP8 all-gather (costmodel_fp8.c) */
	p.w = e * r->params_gpu / p.layers * cm_fp8_gather_scale(c);
	p.g = g * r->params_gpu / p.layers;
	if (c->dp_overlap) {
		wf = r->t_fwd_mb;
		wb = r->t_bwd_mb;
	}
	if (c->zero >= 3)
		zero3(&p, r, r->t_fwd_mb, r->t_bwd_mb);
	else
		zero012(&p, r, wf, wb);
}
