/*
 * costmodel.c - the cost model's front door: defaults, validation,
 * parameter and FLOP counts, the bubble, named quantities and the plain-word
 * reasons. Memory lives in costmodel_memory.c, time in costmodel_time.c,
 * the layout search in costmodel_search.c and JSON in costmodel_json.c.
 *
 * Sources are cited as in reference/costmodel.md: [NAR21] Megatron-LM
 * SC21, [KOR22] activation recomputation, [ZERO], [PALM] App. B, [NCCL],
 * [MEGA-MEM], [MEGA-FLOP], [LLAMA3].
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/framework.h"

_Thread_local int cm_reason_quiet;

/*
 * Link efficiency by default: what NCCL measures as bus bandwidth against
 * the nominal rate. Across nodes 192 of 200 GB/s on DGX A100 with 8 HDR
 * NICs (NVIDIA/nccl issue 812, maintainer's figure); inside a node the
 * GPU's own figure (gpus.json nvlink_efficiency, HW_NVLINK_EFF).
 */
#define NCCL_INTER_EFF	0.96
/* NCCL's base latency of a ring collective, Simple protocol (tuning.cc). */
#define NCCL_BASE_S	8.4e-6
/*
 * Host time to issue one kernel from a framework: CUDA's own launch costs
 * a few microseconds; reference/h100-gemm.md measured 22-29 us per product
 * issued from an eager PyTorch loop in Python; the backward is issued from
 * C++ (autograd) at a fraction of that. Engine choice between the two.
 */
#define KERNEL_ISSUE_S	10e-6

void
cm_config_default(struct cm_config *c, const struct hw_model *m,
    const struct hw_gpu *g)
{
	int a;

	memset(c, 0, sizeof *c);
	if (m != NULL)
		c->model = *m;
	if (g != NULL)
		c->gpu = *g;
	c->gpus = 1;
	c->gpus_per_node = c->gpu.node_gpus > 0 ? c->gpu.node_gpus : 8;
	c->nvlink_domain = c->gpu.domain_gpus;
	c->intra_bw = c->gpu.nvlink_bw;
	c->inter_bw = c->gpu.inter_bw;
	c->intra_lat_s = c->gpu.intra_lat_s;
	c->inter_lat_s = c->gpu.inter_lat_s;
	c->intra_eff = c->gpu.nvlink_eff > 0 ? c->gpu.nvlink_eff :
	    HW_NVLINK_EFF;
	c->inter_eff = NCCL_INTER_EFF;
	c->nvls = c->gpu.nvls_bw > 0;
	c->global_batch = c->model.global_batch > 0 ? c->model.global_batch :
	    512;
	c->micro_batch = 1;
	for (a = 0; a < MESH_N_AXES; a++)
		c->degree[a] = 1;
	c->recompute = CM_RECOMPUTE_SELECTIVE;
	c->schedule = PIPE_1F1B;
	c->virtual_stages = 1;
	c->dp_overlap = 1;
	c->pp_scatter_gather = 1;
	/* CUDA context ~0.75 GB (reference j.3: 0.5-1 GB) and cuBLAS /
	 * cuDNN workspaces; NCCL buffers are added per communicator and
	 * fragmentation is the reserve (costmodel_memory.c). */
	c->buffers_bytes = 1e9;
	c->bucket_bytes = CM_DDP_BUCKET_BYTES;
	c->reserve_frac = 0.05;		/* engine choice, reference d */
	c->rank_order = 0;		/* tp-pp-dp */
	c->ep = 1;
	c->coll_base_s = NCCL_BASE_S;
	c->reshard_after_forward = 1;	/* PyTorch FSDP's default */
	c->hsdp = 0;
	c->tp_overlap = 0;
	c->ep_overlap = 0;
	c->kernel_issue_s = KERNEL_ISSUE_S;
	/* What a learner runs on one GPU or a few is PyTorch, unfused;
	 * Megatron-style runs say kernels = fused (costmodel_kernels.c). A
	 * plain default, not one derived from the layout, so that changing
	 * TP or PP never changes the kernels behind the learner's back. */
	c->kernels = CM_KERNELS_EAGER;
	c->weight_gather = CM_GATHER_LAYER;
	c->headroom = 0.10;		/* issue 12 section 4: rank only
					 * layouts with 10 % memory free */
}

void
cm_config_realistic(struct cm_config *c)
{
	c->intra_eff = 0.65;	/* [CALC] A100 system file, NVLink */
	c->inter_eff = 0.9;	/* [CALC] A100 system file, InfiniBand */
}

/*
 * Layers per stage. With p*v chunks of ceil(L/(p v)) layers there may be
 * r = p v ceil(L/(p v)) - L missing layers; up to 2 are allowed and taken
 * from the last stage, then the first, as [LLAMA3] 3.3.2 did for 126
 * layers on 16 stages (those stages also carry the logits / embedding).
 * Inside those stages the missing layer is the first chunk's of the first
 * stage and the last chunk's of the last stage: "the first model chunk on
 * the first stage has only the embedding, and the last model chunk on the
 * last stage has only output projection and loss calculation" ([LLAMA3]
 * 3.3.2). Where it sits matters for memory: the first chunk of stage 0 has
 * the most micro-batches in flight (cm_inflight_layers).
 */
void
cm_stage_layers(const struct cm_config *c, struct cm_stages *st)
{
	int pv = c->pp * c->virtual_stages;
	int chunk = (CM_PIPE_LAYERS(&c->model) + pv - 1) / pv;
	int r = pv * chunk - CM_PIPE_LAYERS(&c->model);

	st->middle = chunk * c->virtual_stages;
	st->last = st->middle - (r >= 1);
	st->first = st->middle - (r >= 2);
	if (c->pp == 1)
		st->first = st->last = st->middle = CM_PIPE_LAYERS(&c->model);
}

int
cm_chunk_layers(const struct cm_config *c, int r, int chunk)
{
	int v = c->virtual_stages, pv = c->pp * v;
	int size = (CM_PIPE_LAYERS(&c->model) + pv - 1) / pv;
	int missing = pv * size - CM_PIPE_LAYERS(&c->model), n = size;

	if (c->pp == 1)
		return chunk == 0 ? CM_PIPE_LAYERS(&c->model) : 0;
	if (r == c->pp - 1 && chunk == v - 1 && missing >= 1)
		n--;
	if (r == 0 && chunk == 0 && missing >= 2)
		n--;
	return n;
}

double
cm_elem_bytes(const struct cm_config *c)
{
	return c->precision == CM_PREC_FP32 ? 4.0 : 2.0;
}

static int
degrees_positive(const struct cm_config *c)
{
	int a;

	for (a = 0; a < MESH_N_AXES; a++)
		if (c->degree[a] < 1)
			return 0;
	return 1;
}

/* Why cfg is not a valid layout, or NULL. */
static const char *
invalid_reason(const struct cm_config *c, char *buf, size_t size)
{
	const struct hw_model *m = &c->model;
	struct mesh mesh;
	char labels[64], degrees[64];
	const char *why;
	long m_b;
	int pv, chunk, a;

	if (c->gpus < 1 || c->gpus_per_node < 1 || !degrees_positive(c) ||
	    c->micro_batch < 1 || c->global_batch < 1 ||
	    c->virtual_stages < 1 || c->zero < 0 || c->zero > 3)
		return CM_WHY("GPUs, degrees, batches and stages must be "
		    "positive and ZeRO 0 to 3");
	if (buf == NULL)
		size = 0;
	if (cm_layout_gpus(c) != c->gpus) {
		cm_mesh(c, &mesh);
		if (size > 0)
			snprintf(buf, size, _("%s = %s = %ld, not the %d GPUs"),
			    mesh_labels_text(labels, sizeof labels),
			    mesh_degrees_text(&mesh, degrees, sizeof degrees),
			    mesh_size(&mesh), c->gpus);
		return size > 0 ? buf : "";
	}
	for (a = 0; a < MESH_N_AXES; a++) {
		const struct mesh_axis_info *x = mesh_axis((enum mesh_axis)a);
		int d = c->degree[a];

		if (!(x->rules & MESH_RULE_HEADS))
			continue;
		if (m->heads % d != 0 || m->hidden % d != 0 ||
		    hw_split_ffn(m) % d != 0) {
			if (size > 0)
				snprintf(buf, size, _("%s %d does not divide "
				    "the %d heads (and hidden %d, ffn %d)"),
				    x->label, d, m->heads, m->hidden,
				    hw_split_ffn(m));
			return size > 0 ? buf : "";
		}
		/* K/V heads are split or replicated, never cut
		 * ([MEGA-MEM]). */
		if (m->kv_heads % d != 0 && d % m->kv_heads != 0) {
			if (size > 0)
				snprintf(buf, size, _("%s must divide the KV "
				    "heads or be a multiple of them"),
				    x->label);
			return size > 0 ? buf : "";
		}
	}
	if ((why = cm_cp_invalid(c)) != NULL ||
	    (why = cm_ep_invalid(c)) != NULL)
		return why;
	if (c->schedule == PIPE_INTERLEAVED &&
	    (c->pp < 2 || c->virtual_stages < 2))
		return CM_WHY("the interleaved schedule needs PP >= 2 and at "
		    "least 2 virtual stages");
	if (c->schedule != PIPE_INTERLEAVED && c->virtual_stages != 1)
		return CM_WHY("virtual stages need the interleaved schedule");
	pv = c->pp * c->virtual_stages;
	/* interleaved, up to two chunks may hold only the embedding or the
	 * output layer ([LLAMA3] 3.3.2: 126 layers on 16 x 8 chunks) */
	if (pv > CM_PIPE_LAYERS(m) + (c->virtual_stages > 1 ? 2 : 0)) {
		/* Name the product: PP alone may be well under the layers. */
		if (size > 0)
			snprintf(buf, size, _("PP x virtual stages = %d x %d = "
			    "%d model chunks, more than the %d layers"), c->pp,
			    c->virtual_stages, pv, CM_PIPE_LAYERS(m));
		return size > 0 ? buf : "";
	}
	chunk = (CM_PIPE_LAYERS(m) + pv - 1) / pv;
	if (c->pp > 1 && pv * chunk - CM_PIPE_LAYERS(m) > 2)
		return CM_WHY("PP (times virtual stages) must divide the "
		    "layers, or leave at most 2 layers short");
	if (c->global_batch % ((long)c->micro_batch * c->dp) != 0)
		return CM_WHY("the global batch is not a multiple of "
		    "micro-batch x DP");
	m_b = c->global_batch / ((long)c->micro_batch * c->dp);
	/* [NAR21] 2.2.2: interleaving needs m a multiple of p. */
	if (c->schedule == PIPE_INTERLEAVED && m_b % c->pp != 0)
		return CM_WHY("the interleaved schedule needs the "
		    "micro-batch count to be a multiple of PP");
	return cm_sched_invalid(c, m_b);	/* ZB-H1, DualPipe */
}

int
cm_valid_quick(const struct cm_config *c)
{
	int bad;

	cm_reason_quiet = 1;
	bad = invalid_reason(c, NULL, 0) != NULL;
	cm_reason_quiet = 0;
	return bad ? -1 : 0;
}

int
cm_check_ranges(const struct cm_config *c, struct pl_err *err)
{
	double lo = CM_BW_MIN_GBS * 1e9, hi = CM_BW_MAX_GBS * 1e9;

	/* Written so that NaN fails too. */
	if (!(c->intra_bw >= lo && c->intra_bw <= hi) ||
	    !(c->inter_bw >= lo && c->inter_bw <= hi)) {
		pl_err_set(err, NULL, 0, 0, _("link bandwidths must be from %g "
		    "to %g GB/s, not %g and %g"), CM_BW_MIN_GBS, CM_BW_MAX_GBS,
		    c->intra_bw / 1e9, c->inter_bw / 1e9);
		return -1;
	}
	if (c->gpus < 1 || c->gpus > CM_GPUS_MAX || c->gpus_per_node < 1 ||
	    c->gpus_per_node > 1024) {
		pl_err_set(err, NULL, 0, 0, _("GPUs must be from 1 to %d and "
		    "GPUs per node from 1 to 1024"), CM_GPUS_MAX);
		return -1;
	}
	if (c->global_batch < 1 || c->global_batch > CM_BATCH_MAX ||
	    c->micro_batch < 1 || c->micro_batch > CM_BATCH_MAX) {
		pl_err_set(err, NULL, 0, 0, _("the global batch and the "
		    "micro-batch must be from 1 to %d samples"), CM_BATCH_MAX);
		return -1;
	}
	return cm_fp8_check(c, err);	/* fp8 on a GPU that has it */
}

int
cm_validate(const struct cm_config *c, struct pl_err *err)
{
	char buf[256];
	const char *why;

	if (cm_check_ranges(c, err) != 0 || hw_model_check(&c->model,
	    err) != 0)
		return -1;
	if (c->gpu.peak_flops <= 0 || c->gpu.mem_bytes <= 0 ||
	    c->intra_bw <= 0 || c->inter_bw <= 0) {
		pl_err_set(err, NULL, 0, 0, "%s",
		    _("the GPU and link bandwidths must be set"));
		return -1;
	}
	if ((why = invalid_reason(c, buf, sizeof buf)) != NULL) {
		pl_err_set(err, NULL, 0, 0, "%s", why);
		return -1;
	}
	if (c->framework != CM_FW_AUTO && fw_runs(c) == 0) {
		/* none does: say why, as the search does */
		pl_err_set(err, NULL, 0, 0, _("%s does not run this layout: "
		    "%s"), fw_label((enum fw_id)(c->framework - 1)),
		    fw_why_none(c, buf, sizeof buf));
		return -1;
	}
	if (c->framework != CM_FW_AUTO &&
	    !(fw_runs(c) & FW_BIT(c->framework - 1))) {
		pl_err_set(err, NULL, 0, 0, _("%s does not run this layout "
		    "(it runs on: %s)"), fw_label((enum fw_id)(c->framework -
		    1)), fw_list_text(fw_runs(c), buf, sizeof buf));
		return -1;
	}
	return 0;
}

/*
 * Parameter count, reference b: per layer Q and O 2 h a d_h, K and V
 * 2 h k d_h, MLP c h f (c = 2 GeLU, 3 SwiGLU; a mixture of experts all
 * its experts and the router, hw_moe.c), biases, norms (and Q/K norms of
 * d_h each); embeddings V h once if tied, twice if not; learned positions
 * s h; final norm. Under a mixture of experts, active counts a token's
 * experts only.
 */
static double
params_of(const struct hw_model *m, int active)
{
	double h = m->hidden, dh = hw_head_dim(m), q = hw_q_width(m);
	double kv = m->kv_heads * dh, norm = m->norm == HW_NORM_RMS ? h : 2 * h;
	double layer, mlp_c = m->mlp == HW_MLP_SWIGLU ? 3 : 2;

	if (hw_model_extended(m))	/* MLA, dense layers, MTP (hw_mla.c) */
		return (m->layers - m->dense_layers) *
		    hw_layer_params(m, 0, active) + m->dense_layers *
		    hw_layer_params(m, 1, active) + m->mtp *
		    (hw_layer_params(m, 0, active) + hw_mtp_extra_params(m)) +
		    (m->tied ? 1 : 2) * (double)m->vocab * h +
		    (m->learned_pos ? (double)m->seq * h : 0) + norm;
	layer = 2 * h * q + 2 * h * kv + hw_mlp_params(m, active) + 2 * norm;
	if (m->qk_norm)
		layer += 2 * dh;
	if (m->biases)	/* [NAR21] eq. 2: 13h per layer with f = 4h */
		layer += q + 2 * kv + h + (mlp_c - 1) * m->ffn + h;
	return m->layers * layer + (m->tied ? 1 : 2) * (double)m->vocab * h +
	    (m->learned_pos ? (double)m->seq * h : 0) + norm;
}

double
cm_params(const struct hw_model *m)
{
	if (m->params > 0)
		return m->params;
	return cm_params_memo(m, 0, params_of);
}

double
cm_params_active(const struct hw_model *m)
{
	if (m->experts == 0)
		return cm_params(m);
	return cm_params_memo(m, 1, params_of);
}

/*
 * N_mm = L (2 h a d_h + 2 h k d_h + c h f) + V h, reference c,
 * [MEGA-FLOP]; a token's experts only under a mixture of experts.
 */
double
cm_params_matmul(const struct hw_model *m)
{
	double h = m->hidden, dh = hw_head_dim(m);

	if (hw_model_extended(m))
		return hw_matmul_params(m);
	return m->layers * (2 * h * hw_q_width(m) + 2 * h * m->kv_heads * dh +
	    hw_mlp_params(m, 1)) + (double)m->vocab * h;
}

/* a d_h, or hw_mla.c's average over MLA's and windowed layers */
double
cm_attn_width(const struct hw_model *m)
{
	return hw_model_extended(m) ? hw_attn_width(m) : hw_q_width(m);
}

/* F_model = 6 B s N_mm + 12 B s^2 L (a d_h), reference c, [PALM] App. B. */
double
cm_flops_model(const struct hw_model *m, double samples)
{
	double s = m->seq;

	return 6 * samples * s * cm_params_matmul(m) +
	    12 * samples * s * s * (m->layers + m->mtp) * cm_attn_width(m);
}

/* Reference c: recompute adds one layer forward (full) or QK^T, AV (sel.). */
double
cm_flops_hw(const struct hw_model *m, double samples, enum cm_recompute rc)
{
	double s = m->seq, f = cm_flops_model(m, samples);
	double attn = 4 * samples * s * s * (m->layers + m->mtp) *
	    cm_attn_width(m);

	if (rc == CM_RECOMPUTE_FULL)
		return f + 2 * samples * s * (cm_params_matmul(m) -
		    (double)m->vocab * m->hidden) + attn;
	if (rc == CM_RECOMPUTE_SELECTIVE)
		return f + attn;
	return f;
}

/* [NAR21] 2.2.1-2.2.2 as a share of the step, reference e. */
int
cm_evaluate(const struct cm_config *c, struct cm_result *r,
    struct pl_err *err)
{
	if (cm_validate(c, err) != 0)
		return -1;
	cm_evaluate_quick(c, r);
	cm_explain(r);
	return 0;
}

void
cm_evaluate_memory(const struct cm_config *c, struct cm_result *r)
{
	memset(r, 0, sizeof *r);
	r->cfg = *c;
	if (c->framework != CM_FW_AUTO) {
		fw_setup_apply(&r->cfg, (enum fw_id)(c->framework - 1));
		r->priced_as = FW_BIT(c->framework - 1);
		c = &r->cfg;
	}
	r->valid = 1;
	r->microbatches = c->global_batch / ((long)c->micro_batch * c->dp);
	r->params = cm_params(&c->model);
	r->params_active = cm_params_active(&c->model);
	cm_memory(c, r);
	r->headroom = r->mem_gpu > 0 ? 1 - r->mem_total / r->mem_gpu : 0;
	r->frameworks = fw_runs(c);
}

void
cm_evaluate_time(struct cm_result *r)
{
	cm_time(&r->cfg, r);
	cm_nic_share(&r->cfg, r);
}

void
cm_evaluate_quick(const struct cm_config *c, struct cm_result *r)
{
	cm_evaluate_memory(c, r);
	cm_evaluate_time(r);
}

static const char *const quantity_names[] = {
	"params_b", "model_state_gb", "parameters_gb", "gradients_gb",
	"optimizer_gb", "activations_gb", "memory_total_gb",
	"bubble_fraction", "step_time_s", "tokens_per_s", "tflops_per_gpu",
	"mfu", "tp_comm_s", "pp_comm_s", "dp_comm_s", NULL
};

const char *const *
cm_quantity_names(void)
{
	return quantity_names;
}

int
cm_quantity(const struct cm_result *r, const char *name, double *out)
{
	const double v[] = {
		r->params / 1e9,
		(r->mem_params + r->mem_grads + r->mem_optim) / 1e9,
		r->mem_params / 1e9, r->mem_grads / 1e9, r->mem_optim / 1e9,
		r->mem_act / 1e9, r->mem_total / 1e9, r->bubble_fraction,
		r->t_step, r->tokens_per_s, r->tflops_per_gpu, r->mfu,
		r->t_tp, r->t_pp, r->t_dp
	};
	size_t i;

	for (i = 0; quantity_names[i] != NULL; i++) {
		if (strcmp(name, quantity_names[i]) == 0) {
			*out = v[i];
			return 0;
		}
	}
	return -1;
}
