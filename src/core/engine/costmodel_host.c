/*
 * costmodel_host.c - the host's time by phase: what the CPU spends
 * issuing one micro-batch's forward (Python), its backward (the C++
 * autograd engine, plus the Python forward again under full
 * recomputation), the optimizer step and the collectives, and how much
 * of it the GPU waits for.
 *
 * Per-operator figures, each from a published measurement:
 *   - CM_HOST_PY_OP_S: one PyTorch operator called from Python with
 *     autograd recording (Python frame, __torch_function__ check, the
 *     dispatcher, the autograd node): 1e6 calls of `y = 2*x` on a
 *     requires_grad tensor took 6.8 s (pytorch/pytorch issue 41383,
 *     2020). A CPU tensor there, so the launch below comes on top.
 *   - CM_HOST_CPP_OP_S: the same operator called from C++, as the
 *     autograd engine calls backward formulas: about 1 us (ngimel,
 *     PyTorch maintainer, in issue 41383).
 *   - CM_HOST_NODE_S: the engine's own work per node (ready queue,
 *     input buffers, hooks): self CPU time of
 *     autograd::engine::evaluate_function, 28.344 ms over 8025
 *     ViewBackward0 nodes, 3.5 us (torch.profiler table in
 *     huggingface/blog issue 1649).
 *   - CM_HOST_LAUNCH_S: cuLaunchKernel itself, 3.0 us
 *     (meta-pytorch/tritonbench pull request 1017,
 *     nop_triton_direct_culaunch, 0 arguments).
 *   - CM_HOST_INDUCTOR_KERNEL_S: a kernel launched from Inductor's
 *     generated wrapper (CachingAutotuner.run, launch included), 6.8 us;
 *     CM_HOST_INDUCTOR_GRAPH_S: what one call of a compiled graph adds
 *     (guards, wrapper call, device guard): 44.3 us end to end for one
 *     kernel less the 6.8 us per kernel (same pull request).
 *   - CM_HOST_MODULE_S: what calling a layer through nn.Module adds to
 *     its function (the hook checks and dispatch of _call_impl): nn.Linear
 *     took 9.74 us per call against 4.74 us for F.linear, about 5 us
 *     (Chillee's measurement in pytorch/pytorch pull request 50431, 2021;
 *     an empty module cost 2 us over its one op).
 *   - CM_HOST_CHECKPOINT_S: what one call of torch.utils.checkpoint adds
 *     to the layer it wraps, non-reentrant as torchtitan and Hugging
 *     Face call it (its frame, the device-type inference, the no-op
 *     autograd function that saves the inputs, the saved-tensor hooks):
 *     350 us, which pytorch/pytorch pull request 174322 (2026) measured
 *     before cutting it to 80 us; the released versions pay the 350.
 *   - CM_HOST_GRAPH_LAUNCH_S: one cudaGraphLaunch of a captured region:
 *     an 80-kernel graph took 3.5 us of CPU time (CUDA.jl documentation,
 *     usage/graphs; the CUDA programming guide, section 4.2: the set-up
 *     is paid once at instantiation).
 *
 * Operators are counted where they differ from kernels: a view
 * (view, transpose, split, reshape of a contiguous tensor) goes through
 * Python, the dispatcher and autograd but launches nothing. Views per
 * layer, counted in the forward of nanoGPT's model.py (GeLU models:
 * split, 3 view, 3 transpose, transpose and view of the output: 9) and
 * torchtitan's llama3 model.py (SwiGLU models: 3 view, reshape and
 * view_as_complex for Q and K, the frequencies' view, view_as_real and
 * flatten for Q and K, 3 transpose, transpose and view of the output: 17;
 * repeat_kv's expand of K and V under GQA: 2 more).
 *
 * Modules per layer, each called through nn.Module: nanoGPT's Block (ln_1,
 * attn with c_attn, c_proj and two dropouts, ln_2, mlp with c_fc, gelu,
 * c_proj and a dropout: 13 with the block) and torchtitan's
 * TransformerBlock (attention_norm, attention with wq, wk, wv, wo,
 * ffn_norm, feed_forward with w1, w2, w3: 12 with the block); eager runs
 * only (Dynamo traces the modules away; Transformer Engine's modules are
 * not measured).
 *
 * Each recorded operator leaves one node for the backward; backward
 * kernels are issued from C++. torch.utils.checkpoint (and Megatron's
 * CheckpointFunction) re-runs the layer's Python forward inside the
 * backward. Under torch.autocast each product's weight is cast by the
 * dispatcher (C++, a launch) every forward, and its gradient cast back
 * and added into .grad in the backward (costmodel_kernels.c). Inductor runs each compiled graph's kernels from its
 * generated wrapper, the backward as one node per graph; torchtitan
 * compiles each transformer block on its own (torchtitan
 * models/llama3/infra/parallelize.py, apply_compile), so a graph per
 * layer and pass. CUDA graphs replace a captured region's launches by
 * one graph launch: Megatron-Core's --enable-cuda-graph captures each
 * layer (TE make_graphed_callables, called from Python as one autograd
 * function); torch.compile(mode="reduce-overhead") each compiled graph.
 *
 * The optimizer: foreach issues one Python call per op over the tensor
 * lists (multi_tensor_apply's launches each), the for-loop one call and
 * one launch per tensor per op, fused one call per group; clipping is 2
 * foreach ops (costmodel_kernels.c). DP/ZeRO collectives: one launch
 * each, from C++ under DDP's reducer, from Python under FSDP2's hooks.
 */
#include <math.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"

#define VIEWS_GELU		9
#define VIEWS_SWIGLU		17
#define VIEWS_GQA		2
#define CLIP_CALLS		2
#define MODULES_GELU		13
#define MODULES_SWIGLU		12

static int
views_layer(const struct cm_config *c)
{
	const struct hw_model *m = &c->model;

	if (m->mlp != HW_MLP_SWIGLU)
		return VIEWS_GELU;
	return VIEWS_SWIGLU + (m->kv_heads < m->heads ? VIEWS_GQA : 0);
}

/* Eager launch path: Python op per operator, launch per kernel. */
static double
eager_fwd(double ops, double kernels)
{
	return ops * CM_HOST_PY_OP_S + kernels * CM_HOST_LAUNCH_S;
}

static double
eager_bwd(double nodes, double kernels)
{
	return nodes * CM_HOST_NODE_S + kernels * (CM_HOST_CPP_OP_S +
	    CM_HOST_LAUNCH_S);
}

void
cm_host_mb(const struct cm_config *c, const struct cm_host_in *in,
    struct cm_host_mb *h)
{
	double L = in->layers, views = views_layer(c);
	double ops = in->lkf + views;	/* one layer's forward operators */
	int graphs = c->cuda_graphs;
	/* autocast casts inside the dispatcher, from C++ */
	double cast = in->lcast * (CM_HOST_CPP_OP_S + CM_HOST_LAUNCH_S);
	double mods = 0;

	/* embedding, final norm, logits and loss run eager everywhere */
	h->fwd = eager_fwd(in->xkf, in->xkf);
	h->bwd = eager_bwd(in->xkf, in->xkb);
	if (c->kernels == CM_KERNELS_COMPILED) {
		double g = CM_HOST_INDUCTOR_GRAPH_S;
		double k = graphs ? 0 : CM_HOST_INDUCTOR_KERNEL_S;
		double launch = graphs ? CM_HOST_GRAPH_LAUNCH_S : 0;

		h->fwd += L * (g + launch + in->lkf * k);
		h->bwd += L * (CM_HOST_NODE_S + g + launch +
		    (in->lkb + in->lkr) * k);
		return;
	}
	if (graphs) {	/* one graphed callable per layer */
		h->fwd += L * (CM_HOST_PY_OP_S + CM_HOST_GRAPH_LAUNCH_S);
		h->bwd += L * (CM_HOST_NODE_S + CM_HOST_GRAPH_LAUNCH_S);
		if (in->lkr > 0)
			h->bwd += L * (CM_HOST_PY_OP_S +
			    CM_HOST_GRAPH_LAUNCH_S);
		return;
	}
	if (c->kernels == CM_KERNELS_EAGER)
		mods = (c->model.mlp == HW_MLP_SWIGLU ? MODULES_SWIGLU :
		    MODULES_GELU) * CM_HOST_MODULE_S;
	h->fwd += L * (eager_fwd(ops, in->lkf) + cast + mods);
	h->bwd += L * (eager_bwd(ops, in->lkb) + 2 * cast);
	if (in->lkr > 0) {	/* the Python forward again, in the backward */
		h->bwd += L * (eager_fwd(ops, in->lkr) + cast + mods);
		/* PyTorch's checkpoint() around each layer, paid when called;
		 * Megatron's CheckpointFunction is one autograd.Function */
		h->fwd += L * (c->kernels == CM_KERNELS_EAGER ?
		    CM_HOST_CHECKPOINT_S : CM_HOST_PY_OP_S);
	}
}

double
cm_host_optimizer(const struct cm_config *c, double kernels)
{
	int ops = c->optimizer == CM_OPT_ADAM ? 8 : 3;

	switch (cm_opt_impl_of(c)) {
	case CM_OPT_IMPL_FORLOOP:
		return kernels * (CM_HOST_PY_OP_S + CM_HOST_LAUNCH_S);
	case CM_OPT_IMPL_FUSED:
		return (1 + CLIP_CALLS) * CM_HOST_PY_OP_S +
		    kernels * CM_HOST_LAUNCH_S;
	default:
		return (ops + CLIP_CALLS) * CM_HOST_PY_OP_S +
		    kernels * CM_HOST_LAUNCH_S;
	}
}

double
cm_host_collectives(const struct cm_config *c, double n)
{
	/* FSDP2 (ZeRO-3) issues from Python hooks, DDP's reducer from C++ */
	return n * ((c->zero >= 3 ? CM_HOST_PY_OP_S : CM_HOST_CPP_OP_S) +
	    CM_HOST_LAUNCH_S);
}

/*
 * The CPU enqueues ahead of the GPU; the GPU can finish a phase no
 * earlier than the host has issued it. Phases: m times (forward,
 * backward), the collectives, the optimizer; the step ends at a sync
 * (the loss's .item(): nanoGPT's train.py logs every step,
 * log_interval = 1), so CPU and GPU start each step together. The GPU
 * ends at the latest of its own sum and, for each phase k, the host's
 * time up to k plus the GPU work after k; over the micro-batches that is
 * linear in their index, so the first and the last decide.
 */
double
cm_host_exposed(double m, const struct cm_host_mb *h, double gf, double gb,
    double hc, double ho, double go)
{
	double gpu = m * (gf + gb) + go, hm = h->fwd + h->bwd, end = gpu;
	double cand[5];
	int i;

	if (m < 1)
		m = 1;
	cand[0] = h->fwd + gb + (m - 1) * (gf + gb) + go;
	cand[1] = hm + (m - 1) * (gf + gb) + go;
	cand[2] = (m - 1) * hm + h->fwd + gb + go;
	cand[3] = m * hm + hc + go;
	cand[4] = m * hm + hc + ho;
	for (i = 0; i < 5; i++)
		if (cand[i] > end)
			end = cand[i];
	return end - gpu;
}
