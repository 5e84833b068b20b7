/*
 * costmodel_ep.c - expert parallelism: a mixture of experts' routed
 * experts sharded over ep ranks taken from the DP x CP ranks, as
 * Megatron-Core does (its expert groups are numbered tp-ep-dp-pp over the
 * same GPUs as attention's tp-cp-dp-pp, expert tensor parallelism being
 * TP by default: megatron/core/parallel_state.py, RankGenerator; the
 * Megatron-Core MoE docs, "expert model parallelism"). Each rank holds
 * E / ep experts; the expert weights' gradients are reduced over the
 * dp x cp / ep ranks holding the same experts (expert data parallelism),
 * so ZeRO shards the experts' states over those and a rank's sharded
 * share is the same as without EP (costmodel_memory.c).
 *
 * Traffic, per MoE layer and micro-batch (GShard, arXiv 2006.16668, 2.2;
 * the DeepSeek-V3 report, arXiv 2412.19437, 3.2.2): an all-to-all
 * dispatches each token's k copies of h elements to the ranks holding
 * their experts and a second brings the outputs back (combine), each
 * sending k M h e (ep - 1) / ep bytes a rank when the router spreads
 * tokens evenly; the backward runs both again on the gradients, and full
 * recomputation re-runs the forward's two. Copies to ranks in the same
 * NVLink domain (the node by default) go over NVLink, the rest over the
 * rank's own NIC, at the same per-GPU bandwidths and efficiencies as the
 * other groups (costmodel_net.c); NCCL's all-to-all posts every send at
 * once (ncclGroupStart, a send/recv per peer), so one step's latency.
 * Megatron-Core's all-to-all dispatcher waits for them: they are exposed
 * unless a schedule overlaps them (DualPipe, costmodel_sched.c).
 *
 * The experts' products then run on k M ep / E tokens each for the
 * E / ep experts a rank holds (costmodel_linears.c): the same FLOPs in
 * fewer, larger products.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"
#include "core/mesh/mesh.h"

#define CM_EP_MAX	4096	/* the ep key's bound */

int
cm_ep(const struct cm_config *c)
{
	return c->ep > 1 ? c->ep : 1;
}

int
cm_etp(const struct cm_config *c)
{
	return c->etp > 0 ? c->etp : c->tp;
}

double
cm_moe_tokens(const struct cm_config *c)
{
	return cm_rank_tokens(c) * cm_etp(c) / c->tp;
}

double
cm_layer_routed_all(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;

	return (m->mlp == HW_MLP_SWIGLU ? 3.0 : 2.0) * m->hidden *
	    m->expert_ffn * m->experts;
}

/*
 * The busiest EP rank's routed tokens over the even share: the router's
 * imbalance (--moe-imbalance, the max over mean load that Megatron-Core
 * logs and that GShard's and the Switch Transformer's auxiliary losses,
 * or DeepSeek-V3's bias updates, hold down), cut at the capacity factor
 * when tokens past it are dropped (Switch Transformer, arXiv 2101.03961,
 * 2.2; Megatron-Core's --moe-expert-capacity-factor). Every rank waits
 * for the busiest at the next all-to-all. Without EP every rank holds
 * every expert and sees the same total.
 */
double
cm_moe_load(const struct cm_config *c)
{
	double f = c->moe_imbalance > 1 ? c->moe_imbalance : 1;

	if (cm_ep(c) == 1 || c->model.experts == 0)
		return 1;
	if (c->capacity_factor >= 1 && c->capacity_factor < f)
		f = c->capacity_factor;
	return f;
}

const char *
cm_ep_invalid(const struct cm_config *c)
{
	static char buf[160];
	int e = cm_ep(c), et = cm_etp(c), dc = c->tp / et * c->dp * c->cp;

	if (c->etp > 0 && c->model.experts == 0)
		return CM_WHY("expert TP splits a mixture of experts: the model "
		    "has none (--experts)");
	if (c->etp > 0 && (c->tp % c->etp != 0 ||
	    c->model.expert_ffn % c->etp != 0)) {
		if (cm_reason_quiet)
			return "";
		snprintf(buf, sizeof buf, _("expert TP %d must divide TP (%d) "
		    "and the experts' width (%d)"), c->etp, c->tp,
		    c->model.expert_ffn);
		return buf;
	}
	if (e == 1)
		return NULL;
	if (c->model.experts == 0)
		return CM_WHY("EP shards a mixture of experts: the model has "
		    "none (--experts)");
	if (c->model.experts % e != 0) {
		if (cm_reason_quiet)
			return "";
		snprintf(buf, sizeof buf, _("EP %d does not divide the %d "
		    "experts"), e, c->model.experts);
		return buf;
	}
	if (dc % e != 0) {
		if (cm_reason_quiet)
			return "";
		snprintf(buf, sizeof buf, _("EP %d must divide TP / ETP x DP x "
		    "CP (%d): its ranks are taken from those"), e, dc);
		return buf;
	}
	if (c->hsdp)
		return CM_WHY("EP with HSDP is not modelled");
	return NULL;
}

/*
 * Where rank 0's EP group sits: its members are the first ep of the
 * TP / ETP x CP x DP ranks, in that order innermost first (Megatron-Core's
 * expert order tp-ep-dp-pp folds EP into what TP leaves). Returns the
 * members in the busiest NVLink domain.
 */
static int
by_value(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int busiest_domain_of(const struct cm_config *c);

/* The search asks again for the same layout under each ZeRO, recompute
 * and micro-batch: the last answer is kept, per thread, with what it
 * depends on (the degrees, the order, the node and domain, EP and ETP). */
struct domain_key {
	int	degree[MESH_N_AXES];
	int	order, node, domain, ep, etp;
};

static int
busiest_domain(const struct cm_config *c)
{
	static _Thread_local struct domain_key last;
	static _Thread_local int last_most, have;
	struct domain_key k;
	int a;

	memset(&k, 0, sizeof k);
	for (a = 0; a < MESH_N_AXES; a++)
		k.degree[a] = c->degree[a];
	k.order = c->rank_order;
	k.node = c->gpus_per_node;
	k.domain = c->nvlink_domain;
	k.ep = cm_ep(c);
	k.etp = cm_etp(c);
	if (have && memcmp(&k, &last, sizeof k) == 0)
		return last_most;
	last = k;
	last_most = busiest_domain_of(c);
	have = 1;
	return last_most;
}

static int
busiest_domain_of(const struct cm_config *c)
{
	long doms[CM_EP_MAX];
	struct mesh m;
	long st, sc, sd, dom, r;
	int e = cm_ep(c), f = c->tp / cm_etp(c), i, run = 0, most = 0;

	if (e > CM_EP_MAX)
		return 1;
	cm_mesh(c, &m);
	st = mesh_stride(&m, MESH_TP) * cm_etp(c);
	sc = mesh_stride(&m, MESH_CP);
	sd = mesh_stride(&m, MESH_DP);
	dom = c->nvlink_domain > 0 ? c->nvlink_domain : c->gpus_per_node;
	for (i = 0; i < e; i++) {
		r = (long)(i % f) * st + (long)(i / f % c->cp) * sc +
		    (long)(i / f / c->cp) * sd;
		doms[i] = r / dom;
	}
	if (cm_layout_gpus(c) / dom < CM_EP_MAX) {	/* count, no sort */
		int count[CM_EP_MAX];

		memset(count, 0, (size_t)(cm_layout_gpus(c) / dom + 1) *
		    sizeof count[0]);
		for (i = 0; i < e; i++)
			if (++count[doms[i]] > most)
				most = count[doms[i]];
		return most;
	}
	qsort(doms, (size_t)e, sizeof doms[0], by_value);
	for (i = 0; i < e; i++) {
		run = i > 0 && doms[i] == doms[i - 1] ? run + 1 : 1;
		if (run > most)
			most = run;
	}
	return most;
}

void
cm_ep_layer(const struct cm_config *c, struct cm_ep_layer *x)
{
	const struct hw_model *m = &c->model;
	double e = cm_ep(c), tokens, near, far, t;
	int pd;

	x->bytes = x->fwd = x->bwd = 0;
	x->in_domain = 1;
	if (e <= 1 || m->experts == 0)
		return;
	/* the busiest rank receives, and sends back, load times its share */
	tokens = cm_moe_tokens(c) * m->top_k * m->hidden * cm_elem_bytes(c) *
	    cm_moe_load(c);
	pd = busiest_domain(c);
	x->in_domain = pd >= e;
	near = tokens * (pd - 1) / e;
	far = tokens * (e - pd) / e;
	t = near / (c->intra_bw * c->intra_eff);
	if (far > 0 && far / (c->inter_bw * c->inter_eff) > t)
		t = far / (c->inter_bw * c->inter_eff);
	t += c->coll_base_s + (far > 0 ? c->inter_lat_s : c->intra_lat_s);
	x->bytes = 2 * (near + far);		/* dispatch and combine */
	x->fwd = 2 * t;
	x->bwd = 2 * t + (c->recompute == CM_RECOMPUTE_FULL ? 2 * t : 0);
}

/*
 * EP's all-to-alls of one micro-batch on the critical path, a2a of them
 * in all beside comp of the stage's compute. Without ep_overlap all of
 * it: Megatron-Core's all-to-all dispatcher waits for them. With it,
 * Megatron-Core's batch-level overlap (--overlap-moe-expert-parallel-comm
 * with --delay-wgrad-compute; model_parallel_config.py: "Overlap EP A2A
 * communications with independent computations of different
 * micro-batches in 1f1b phase"; pipeline_parallel/combined_1f1b.py; the
 * MoE README's "EP A2A Overlap ... merging FWD-BWD passes of adjacent
 * microbatches"; NVIDIA/Megatron-LM at d98e8a64) runs one micro-batch's forward beside another's backward,
 * so each one's all-to-alls hide behind the other's compute, and only what
 * exceeds it stays. That pairing holds in the steady 1F1B phase: the first
 * micro-batch's forward (no pipeline) or the p - 1 warm-up forwards and
 * cool-down backwards (PP) have no partner, and keep theirs exposed.
 * DeepSeek's DualPipe hides them the same way inside its two-way schedule
 * (report arXiv 2412.19437, 3.2.1), with its own count of pairs
 * (costmodel_sched.c).
 */
double
cm_ep_exposed_mb(const struct cm_config *c, double a2a, double comp,
    double m)
{
	double paired, hidden_rest;
	int dual = (c->schedule == PIPE_DUALPIPE ||
	    c->schedule == PIPE_DUALPIPEV) && c->pp > 1;

	if (!(dual || (c->ep_overlap && cm_ep(c) > 1)) || a2a <= 0 || m < 2)
		return a2a;
	paired = cm_sched_paired(c, m);	/* DualPipe's, or m - p */
	if (paired <= 0)
		return a2a;
	hidden_rest = a2a > comp ? a2a - comp : 0;
	return (paired * hidden_rest + (m - paired) * a2a) / m;
}

/*
 * Who runs EP: Megatron-Core with its distributed optimizer or none
 * (ZeRO <= 1); DeepSpeed-MoE with ZeRO up to 2 (deepspeed/moe, the
 * DeepSpeed-MoE tutorial: ZeRO-3 is not supported with MoE); PyTorch's
 * torchtitan with FSDP2 (its expert_parallel_degree, experiments and
 * models/moe, sharding the experts over the FSDP ranks).
 */
unsigned
cm_ep_frameworks(const struct cm_config *c)
{
	unsigned fw = 0;

	/* expert TP apart from TP: Megatron-Core's parallel folding
	 * (--expert-tensor-parallel-size), torchtitan's ETP 1 */
	if (cm_etp(c) != c->tp)
		return c->zero <= 1 ? FW_BIT(FW_MEGATRON) | FW_BIT(FW_PYTORCH) :
		    FW_BIT(FW_PYTORCH);
	if (cm_ep(c) == 1)
		return FW_ALL;
	if (c->ep_overlap)	/* Megatron-Core's own (cm_ep_exposed_mb) */
		return c->zero <= 1 ? FW_BIT(FW_MEGATRON) : 0;
	if (c->zero <= 1)
		fw |= FW_BIT(FW_MEGATRON);
	if (c->zero <= 2)
		fw |= FW_BIT(FW_DEEPSPEED);
	fw |= FW_BIT(FW_PYTORCH);
	return fw;
}
