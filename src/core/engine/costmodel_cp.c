/*
 * costmodel_cp.c - context parallelism (CP): the sequence of every sample
 * split over c ranks, and the keys and values attention needs from the
 * other chunks.
 *
 * What CP divides. Every module but attention works token by token, so
 * each rank runs the linear layers, norms, activations and the logits on
 * its s/c tokens: activations, their compute and the TP and PP messages
 * shrink by c (Megatron-Core docs, docs/user-guide/features/
 * context_parallel.md at NVIDIA/Megatron-LM d98e8a6: "CP partitions the
 * network inputs and all activations along the sequence dimension").
 * Weights, gradients and optimizer state are whole on every CP rank: the
 * gradients of the c chunks are summed over the data-parallel group
 * widened by CP (Megatron-Core's data-parallel group "with context
 * parallel"), which ZeRO also shards over (costmodel_net.c).
 *
 * Causal attention. The queries of a chunk attend to the keys before
 * them, so cutting the sequence into c pieces in order would give the
 * last rank c times the first one's work. Megatron-Core and the ring
 * attention of PyTorch cut it into 2c chunks and give rank i chunks i and
 * 2c-1-i, which balances the work: each rank does 1/c of the attention
 * FLOPs. The engine needs seq divisible by 2c for the ring and the
 * all-gather.
 *
 * The three ways to run it (cp_impl):
 *   ring        pass-KV (Ring Attention, arXiv 2310.01889; Megatron-Core's
 *               default cp_comm_type "p2p"): c-1 steps per layer forward,
 *               each sending this rank's K and V chunk on round the ring
 *               while attention runs on the one in hand; the backward
 *               passes K and V again and their gradients with them (twice
 *               the bytes). A step's transfer hides behind that step's
 *               attention (1/c of it); only what is longer shows.
 *   all-gather  Llama 3 ([LLAMA3] 3.3.2): K and V all-gathered before the
 *               attention of the local queries, not overlapped, cheap
 *               because GQA's K and V are a few heads wide; the backward
 *               gathers them again (Megatron-Core keeps only its own
 *               chunk) and reduce-scatters their gradients
 *               (cp_comm_type "all_gather").
 *   ulysses     DeepSpeed-Ulysses (arXiv 2309.14509, 3.1): an all-to-all
 *               turns the sequence-split Q, K and V into head-split ones
 *               over the whole sequence, another brings the output back;
 *               the backward does the same for the gradients: four
 *               all-to-alls per layer, none overlapped. The heads (and K/V
 *               heads) on a TP rank must divide by c (cp_comm_type "a2a").
 * PyTorch's context_parallel (torch.distributed.tensor.experimental,
 * the context-parallel tutorial) runs pass-KV with an all-gather or an
 * all-to-all rotation: ring and all-gather here.
 *
 * Memory besides the divided activations: the K and V in flight (ring:
 * the chunk in hand and the one arriving, and their gradients backward;
 * all-gather: the whole sequence's K and V and, backward, their
 * gradients; Ulysses: send and receive buffers of Q, K, V), one layer at
 * a time.
 */
#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"

double
cm_rank_tokens(const struct cm_config *c)
{
	return (double)c->model.seq * c->micro_batch / (c->cp > 0 ? c->cp : 1);
}

/* K and V of this rank's chunk, bytes. */
static double
kv_chunk_bytes(const struct cm_config *c)
{
	return 2 * cm_rank_tokens(c) * cm_kv_width(c) * cm_elem_bytes(c);
}

/* Q, K and V of this rank's tokens on one TP rank, bytes. */
static double
qkv_bytes(const struct cm_config *c)
{
	return cm_rank_tokens(c) * ((double)c->model.hidden / c->tp +
	    2 * cm_kv_width(c)) * cm_elem_bytes(c);
}

double
cm_cp_buffers(const struct cm_config *c)
{
	if (c->cp <= 1)
		return 0;
	switch (c->cp_impl) {
	case CM_CP_RING:	/* in hand, arriving; and their gradients */
		return 4 * kv_chunk_bytes(c);
	case CM_CP_ALLGATHER:	/* the whole K/V, then its gradient */
		return 2 * c->cp * kv_chunk_bytes(c);
	case CM_CP_ULYSSES:	/* send and receive */
		return 2 * qkv_bytes(c);
	}
	return 0;
}

const char *
cm_cp_invalid(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;
	int chunks = c->cp_impl == CM_CP_ULYSSES ? c->cp : 2 * c->cp;

	if (c->cp <= 1)
		return NULL;
	if (m->seq % chunks != 0)
		return c->cp_impl == CM_CP_ULYSSES ?
		    CM_WHY("CP must divide the sequence") :
		    CM_WHY("CP must divide the sequence into 2 x CP chunks "
		    "(load-balanced causal attention)");
	if (c->attention != CM_ATTN_FLASH && c->attention != CM_ATTN_FLASH2)
		return CM_WHY("CP runs on flash attention kernels only");
	if (c->cp_impl == CM_CP_ULYSSES &&
	    ((m->heads / c->tp) % c->cp != 0 ||
	    (m->kv_heads >= c->tp && (m->kv_heads / c->tp) % c->cp != 0)))
		return CM_WHY("Ulysses splits the heads: CP must divide the "
		    "attention heads and the K/V heads on each TP rank");
	return NULL;
}

void
cm_cp_layer(const struct cm_config *c, struct cm_result *r,
    double fwd_attn, double bwd_attn, struct cm_cp_layer *out)
{
	const struct hw_model *m = &c->model;
	const struct mesh_span *g;
	double kv = kv_chunk_bytes(c), n = c->cp, e = cm_elem_bytes(c);
	double qkv = 0, o = 0, one, f, b;

	out->fwd = out->bwd = out->fwd_exposed = out->bwd_exposed = 0;
	out->bytes = out->buffers = 0;
	cm_group_of(c, MESH_CP, &r->group[MESH_CP]);
	r->group_bw[MESH_CP] = cm_group_bw(c, &r->group[MESH_CP]);
	if (c->cp <= 1)
		return;
	g = &r->group[MESH_CP];
	switch (c->cp_impl) {
	case CM_CP_RING:
		f = cm_coll_s(c, CM_SENDRECV, g, kv);
		b = cm_coll_s(c, CM_SENDRECV, g, 2 * kv);
		out->fwd = (n - 1) * f;
		out->bwd = (n - 1) * b;
		out->fwd_exposed = (n - 1) * (f > fwd_attn / n ?
		    f - fwd_attn / n : 0);
		out->bwd_exposed = (n - 1) * (b > bwd_attn / n ?
		    b - bwd_attn / n : 0);
		out->bytes = (n - 1) * 3 * kv;
		break;
	case CM_CP_ALLGATHER:
		/* cm_coll_s counts the whole gathered array */
		one = cm_coll_s(c, CM_ALLGATHER, g, n * kv);
		out->fwd = out->fwd_exposed = one;
		out->bwd = out->bwd_exposed = one +
		    cm_coll_s(c, CM_REDUCESCATTER, g, n * kv);
		out->bytes = 3 * (n - 1) * kv;
		break;
	case CM_CP_ULYSSES:
		/* an all-to-all sends (c-1)/c of a rank's buffer, as an
		 * all-gather of that buffer does */
		qkv = qkv_bytes(c);
		o = cm_rank_tokens(c) * (double)m->hidden / c->tp * e;
		out->fwd = out->fwd_exposed = cm_coll_s(c, CM_ALLGATHER, g,
		    qkv) + cm_coll_s(c, CM_ALLGATHER, g, o);
		out->bwd = out->bwd_exposed = out->fwd;
		out->bytes = 2 * (n - 1) / n * (qkv + o);
		break;
	}
	out->buffers = cm_cp_buffers(c);
	if (c->recompute == CM_RECOMPUTE_FULL) {	/* the forward again */
		out->bwd += out->fwd;
		out->bwd_exposed += out->fwd_exposed;
		out->bytes += c->cp_impl == CM_CP_RING ? (n - 1) * kv :
		    c->cp_impl == CM_CP_ALLGATHER ? (n - 1) * kv :
		    (n - 1) / n * (qkv + o);
	}
}

/*
 * Who runs CP how: Megatron-Core all three with TP, PP and its
 * distributed optimizer (ZeRO 1; Megatron-FSDP refuses CP,
 * mcore_fsdp_adapter.py); torchtitan pass-KV and all-gather with FSDP2,
 * TP and PP (torchtitan/distributed/utils.py create_context_parallel_ctx,
 * context_parallel_rotate_method "allgather" or "alltoall"); DeepSpeed
 * Ulysses with ZeRO 0-3, without TP or PP (deepspeed/sequence/layer.py
 * DistributedAttention).
 */
unsigned
cm_cp_frameworks(const struct cm_config *c)
{
	unsigned m = 0;

	if (c->cp <= 1)
		return FW_ALL;
	if (c->zero <= 1)
		m |= FW_BIT(FW_MEGATRON);
	if (c->cp_impl != CM_CP_ULYSSES)
		m |= FW_BIT(FW_PYTORCH);
	if (c->cp_impl == CM_CP_ULYSSES && c->tp == 1 && c->pp == 1)
		m |= FW_BIT(FW_DEEPSPEED);
	return m;
}
