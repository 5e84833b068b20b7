/*
 * costmodel_keys.c - the cost model's inputs: the option words, the table
 * of configuration keys, and the one builder that turns an engine
 * configuration (a lesson's "engine", a scenario's "start", or `parlearn
 * plan`'s options gathered into an object) into a struct cm_config.
 *
 * To add a setting: one line in rows[] below (an axis: its row in
 * core/mesh/mesh_axes.c). The builder, plan's options
 * and plan --help all come from that line; tests/check_cmd_plan.c holds
 * that every key is an option and every option a key.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/json.h"

static const char *const rc_w[] = { "none", "selective", "full", NULL };
static const char *const opt_w[] = { "adam", "sgd", NULL };
static const char *const prec_w[] = { "bf16", "fp32", "fp8", NULL };
static const char *const dtype_w[] = { "bf16", "fp32", NULL };
static const char *const fp8_w[] = { "tensorwise", "rowwise", "delayed",
	"mxfp8", NULL };
static const char *const impl_w[] = { "auto", "foreach", "fused", "for-loop",
	NULL };
static const char *const attn_w[] = { "flash", "plain", "flash2", NULL };
static const char *const cpimpl_w[] = { "ring", "all-gather", "ulysses",
	NULL };
static const char *const kern_w[] = { "eager", "compiled", "fused", NULL };
static const char *const gather_w[] = { "layer", "param", NULL };
static const char *const mlp_w[] = { "gelu", "swiglu", NULL };
static const char *const nccl_w[] = { "ring", "tuned", NULL };
static const char *const gemmm_w[] = { "combined", "rule", "tiled", NULL };
/* in enum cm_framework order */
static const char *const fw_w[] = { "auto", "megatron", "deepspeed",
	"pytorch", NULL };

static int
word(const char *const *w, const char *s)
{
	int i;

	for (i = 0; s != NULL && w[i] != NULL; i++)
		if (strcmp(w[i], s) == 0)
			return i;
	return -1;
}

const char *
cm_recompute_name(enum cm_recompute v)
{
	return rc_w[v];
}

const char *
cm_optimizer_name(enum cm_optimizer v)
{
	return opt_w[v];
}

const char *
cm_opt_impl_name(enum cm_opt_impl v)
{
	return impl_w[v];
}

const char *
cm_precision_name(enum cm_precision v)
{
	return prec_w[v];
}

const char *
cm_fp8_recipe_name(enum cm_fp8_recipe v)
{
	return fp8_w[v];
}

const char *
cm_attention_name(enum cm_attention v)
{
	return attn_w[v];
}

const char *
cm_cp_impl_name(enum cm_cp_impl v)
{
	return cpimpl_w[v];
}

const char *
cm_kernels_name(enum cm_kernels v)
{
	return kern_w[v];
}

const char *
cm_gather_name(enum cm_gather v)
{
	return gather_w[v];
}

const char *
cm_framework_name(enum cm_framework v)
{
	return fw_w[v];
}

const char *
cm_gemm_model_name(enum cm_gemm_model v)
{
	return gemmm_w[v];
}

const char *
cm_nccl_model_name(enum cm_nccl_model v)
{
	return nccl_w[v];
}

#define PARSER(fn, type, words)					\
int								\
fn(const char *s, type *out)					\
{								\
	int i = word(words, s);					\
								\
	if (i < 0)						\
		return -1;					\
	*out = (type)i;						\
	return 0;						\
}
PARSER(cm_recompute_parse, enum cm_recompute, rc_w)
PARSER(cm_optimizer_parse, enum cm_optimizer, opt_w)
PARSER(cm_opt_impl_parse, enum cm_opt_impl, impl_w)
PARSER(cm_precision_parse, enum cm_precision, prec_w)
PARSER(cm_fp8_recipe_parse, enum cm_fp8_recipe, fp8_w)
PARSER(cm_attention_parse, enum cm_attention, attn_w)
PARSER(cm_cp_impl_parse, enum cm_cp_impl, cpimpl_w)
PARSER(cm_mlp_parse, enum hw_mlp, mlp_w)
PARSER(cm_kernels_parse, enum cm_kernels, kern_w)
PARSER(cm_gather_parse, enum cm_gather, gather_w)
PARSER(cm_framework_parse, enum cm_framework, fw_w)

/* WORD keys store their index in an enum field read as an int. */
_Static_assert(sizeof(enum cm_recompute) == sizeof(int) &&
    sizeof(enum pipe_schedule) == sizeof(int) &&
    sizeof(enum hw_mlp) == sizeof(int) &&
    sizeof(enum cm_kernels) == sizeof(int) &&
    sizeof(enum cm_opt_impl) == sizeof(int) &&
    sizeof(enum cm_gather) == sizeof(int) &&
    sizeof(enum cm_framework) == sizeof(int) &&
    sizeof(enum cm_cp_impl) == sizeof(int) &&
    sizeof(enum cm_nccl_model) == sizeof(int) &&
    sizeof(enum cm_gemm_model) == sizeof(int) &&
    sizeof(enum cm_precision) == sizeof(int) &&
    sizeof(enum cm_fp8_recipe) == sizeof(int), "enum fields are int-sized");

static void
realistic_hook(struct cm_config *c, int on)
{
	if (on)
		cm_config_realistic(c);
}

/* Table rows by kind: name, --help group, field, range, words, help. */
#define AT(f)	offsetof(struct cm_config, f), \
	sizeof(((struct cm_config *)0)->f), NULL
#define NAME(n, g, a, h) \
	{ n, CM_KEY_NAME, CM_GROUP_##g, 0, 0, 1, NULL, -1, 0, NULL, a, h }
#define INT(n, g, f, lo, hi, a, h) \
	{ n, CM_KEY_INT, CM_GROUP_##g, lo, hi, 1, NULL, AT(f), a, h }
#define NUM(n, g, f, lo, hi, sc, a, h) \
	{ n, CM_KEY_NUMBER, CM_GROUP_##g, lo, hi, sc, NULL, AT(f), a, h }
#define WORD(n, g, f, w, h) \
	{ n, CM_KEY_WORD, CM_GROUP_##g, 0, 0, 1, w, AT(f), NULL, h }
#define BOOL(n, g, f, h) \
	{ n, CM_KEY_BOOL, CM_GROUP_##g, 0, 0, 1, NULL, AT(f), NULL, h }
#define HOOK(n, g, fn, h) \
	{ n, CM_KEY_BOOL, CM_GROUP_##g, 0, 0, 1, NULL, -1, 0, fn, NULL, h }
/* One INT row per parallel axis, from the mesh's axis table. */
#define AXES \
	{ "", CM_KEY_INT, CM_GROUP_LAYOUT, 0, 0, 0, NULL, -1, 0, NULL, NULL, \
	    NULL }
#define BIG		1e8
#define GPUS		1e7

/*
 * One line per key; the builder applies them in this order. The AXES
 * line stands for the axes' degrees, made from core/mesh/mesh_axes.c;
 * rank_order's words are the mesh's orders.
 */
static const struct cm_key rows[] = {
	NAME("model", MODEL, "NAME", N_("a preset from models.json, or the "
	    "sizes below")),
	NUM("params", MODEL, model.params, 1, 1e16, 1, "N",
	    N_("parameter count (default: counted from the sizes)")),
	INT("layers", MODEL, model.layers, 1, BIG, "L",
	    N_("transformer layers")),
	INT("hidden", MODEL, model.hidden, 1, BIG, "H", N_("model width")),
	INT("heads", MODEL, model.heads, 1, BIG, "A", N_("attention heads")),
	INT("kv_heads", MODEL, model.kv_heads, 1, BIG, "K",
	    N_("key/value heads (default: the heads)")),
	INT("ffn", MODEL, model.ffn, 1, BIG, "F", N_("MLP inner size")),
	INT("vocab", MODEL, model.vocab, 1, BIG, "V", N_("vocabulary")),
	INT("seq", MODEL, model.seq, 1, BIG, "S", N_("tokens per sample")),
	WORD("mlp", MODEL, model.mlp, mlp_w, N_("MLP kind")),
	INT("head_dim", MODEL, model.head_dim, 0, BIG, "D",
	    N_("size of one attention head (default: hidden / heads)")),
	INT("experts", MODEL, model.experts, 0, 4096, "E",
	    N_("routed experts per layer: a mixture of experts (0: dense)")),
	INT("top_k", MODEL, model.top_k, 0, 4096, "K",
	    N_("experts each token is routed to")),
	INT("shared_experts", MODEL, model.shared_experts, 0, 64, "S",
	    N_("experts every token passes through")),
	INT("expert_ffn", MODEL, model.expert_ffn, 0, BIG, "F",
	    N_("one expert's MLP inner size")),
	INT("dense_layers", MODEL, model.dense_layers, 0, BIG, "N",
	    N_("first layers with a dense MLP of width ffn before the "
	    "experts")),
	INT("mtp", MODEL, model.mtp, 0, 16, "D",
	    N_("multi-token prediction: D extra modules on the last stage, "
	    "one more token each")),
	BOOL("dropout", MODEL, model.dropout,
	    N_("trained with dropout (the preset's; custom: off)")),
	NAME("gpu", CLUSTER, "TYPE",
	    N_("a GPU from gpus.json (default below)")),
	NAME("hardware", CLUSTER, "FILE",
	    N_("your own GPU, node and network: one gpus.json entry")),
	NUM("gpu_memory", CLUSTER, gpu.mem_bytes, 1, 1e5, 1073741824.0, "GiB",
	    N_("GPU memory, GiB (default: the GPU's)")),
	NUM("power_limit", CLUSTER, power_limit, 1, 1e5, 1, "W",
	    N_("board power limit; below the TDP the clock drops as its "
	    "cube root")),
	INT("gpus", CLUSTER, gpus, 1, GPUS, "N",
	    N_("GPUs in the job (default: the degrees' product)")),
	INT("gpus_per_node", CLUSTER, gpus_per_node, 1, 1024, "G",
	    N_("GPUs per node (8)")),
	INT("nvlink_domain", CLUSTER, nvlink_domain, 1, GPUS, "N",
	    N_("GPUs in one NVLink domain (the node; GB200/GB300: 72)")),
	NUM("intra_bw", CLUSTER, intra_bw, 1e-3, 1e6, 1e9, "GBps",
	    N_("NVLink per GPU, one direction (default: GPU's)")),
	NUM("inter_bw", CLUSTER, inter_bw, 1e-3, 1e6, 1e9, "GBps",
	    N_("network per GPU, one direction (default: GPU's)")),
	NUM("intra_eff", CLUSTER, intra_eff, 0.01, 1, 1, "F",
	    N_("achieved/nominal NVLink (GPU's: A100 0.77, H100 "
	    "0.82, as NCCL measures)")),
	NUM("inter_eff", CLUSTER, inter_eff, 0.01, 1, 1, "F",
	    N_("achieved/nominal network (0.96, as NCCL measures)")),
	BOOL("nvls", CLUSTER, nvls,
	    N_("all-reduces in a node use NVLink SHARP (on where the GPU "
	    "has it)")),
	HOOK("realistic_links", CLUSTER, realistic_hook,
	    N_("calculon's derating: NVLink 65 %, network 90 %")),
	INT("global_batch", BATCH, global_batch, 1, GPUS, "B",
	    N_("samples per step (default: the model's, or 512)")),
	INT("micro_batch", BATCH, micro_batch, 1, GPUS, "b",
	    N_("samples per micro-batch (1)")),
	AXES,
	WORD("cp_impl", LAYOUT, cp_impl, cpimpl_w,
	    N_("how CP passes K and V: ring (pass-KV, overlapped with "
	    "attention), all-gather (Llama 3) or ulysses (all-to-all over "
	    "heads)")),
	WORD("schedule", LAYOUT, schedule, pipe_schedule_names,
	    N_("pipeline schedule (1f1b)")),
	INT("virtual_stages", LAYOUT, virtual_stages, 1, 1000, "V",
	    N_("chunks per stage, interleaved only (default 2)")),
	BOOL("pp_scatter_gather", LAYOUT, pp_scatter_gather,
	    N_("split PP sends over TP ranks (on; off: DeepSpeed)")),
	WORD("rank_order", LAYOUT, rank_order, NULL,
	    N_("rank numbering: tp, cp, pp and dp in any order, innermost "
	    "first (tp-cp-pp-dp; cp may be left out)")),
	INT("etp", LAYOUT, etp, 1, 4096, "T",
	    N_("expert TP: a mixture of experts' experts split over T of the "
	    "TP ranks (default: TP)")),
	INT("ep", LAYOUT, ep, 1, 4096, "E",
	    N_("expert parallelism: a mixture of experts' experts over E of "
	    "the DP x CP ranks (1)")),
	NUM("moe_imbalance", SETUP, moe_imbalance, 1, 64, 1, "F",
	    N_("busiest EP rank's routed tokens over the even share (1)")),
	NUM("capacity_factor", SETUP, capacity_factor, 1, 64, 1, "C",
	    N_("an expert takes at most C times its even share of tokens, "
	    "dropping the rest (default: dropless)")),
	INT("zero", SETUP, zero, 0, 3, "0..3", N_("ZeRO stage (0)")),
	WORD("recompute", SETUP, recompute, rc_w,
	    N_("activation recomputation (selective)")),
	BOOL("seq_parallel", SETUP, seq_parallel,
	    N_("sequence parallelism (off)")),
	WORD("optimizer", SETUP, optimizer, opt_w, N_("optimizer (adam)")),
	WORD("optimizer_impl", SETUP, optimizer_impl, impl_w,
	    N_("optimizer step: foreach, fused or for-loop (auto: fused "
	    "under fused kernels, else foreach)")),
	WORD("framework", SETUP, framework, fw_w,
	    N_("price as this framework runs the layout: its kernels, "
	    "gradient and reduce dtypes, optimizer (auto: as set; a search "
	    "prices each layout once per framework that runs it)")),
	WORD("nccl_model", SETUP, nccl_model, nccl_w,
	    N_("collectives: ring (NCCL's Simple ring, calibrated) or tuned "
	    "(NCCL's algorithm and protocol by message size)")),
	WORD("gemm_model", SETUP, gemm_model, gemmm_w,
	    N_("matrix products: combined (the slower of the two below), "
	    "rule (calibrated shape rule) or tiled (wave and tile "
	    "quantization on the SMs)")),
	WORD("grad_dtype", SETUP, grad_accum_fp32, dtype_w,
	    N_("gradients held in bf16 (the training precision) or fp32 "
	    "(Megatron's main grads)")),
	WORD("reduce_dtype", SETUP, reduce_fp32, dtype_w,
	    N_("DP/ZeRO gradient reduction in bf16 (the training precision) "
	    "or fp32")),
	WORD("precision", SETUP, precision, prec_w,
	    N_("precision (bf16; fp8: the linear layers' products in FP8)")),
	WORD("fp8_recipe", SETUP, fp8_recipe, fp8_w,
	    N_("FP8 scaling under --precision fp8 (tensorwise; rowwise, "
	    "delayed, mxfp8)")),
	BOOL("fp8_attention", SETUP, fp8_attention,
	    N_("attention's products in FP8 as well, under precision fp8 "
	    "(Transformer Engine's FP8 dot-product attention; off)")),
	WORD("attention", SETUP, attention, attn_w,
	    N_("attention kernel (flash; flash2: FlashAttention-2)")),
	WORD("kernels", SETUP, kernels, kern_w,
	    N_("kernels between the matmuls (eager; compiled, fused)")),
	BOOL("cuda_graphs", SETUP, cuda_graphs,
	    N_("launch each layer (compiled: each graph) as one CUDA graph: "
	    "Megatron's enable_cuda_graph, torch.compile "
	    "mode=\"reduce-overhead\" (off)")),
	BOOL("reshard_after_forward", SETUP, reshard_after_forward,
	    N_("ZeRO-3 gathers weights again for the backward (on)")),
	WORD("weight_gather", SETUP, weight_gather, gather_w,
	    N_("ZeRO-3 weight gathers: layer (prefetched) or param")),
	BOOL("hsdp", SETUP, hsdp,
	    N_("ZeRO-3 shards inside a node, replicates across (off)")),
	BOOL("dp_overlap", SETUP, dp_overlap,
	    N_("DP/ZeRO traffic overlaps compute (on)")),
	BOOL("tp_overlap", SETUP, tp_overlap,
	    N_("TP collectives overlap the matmuls (off)")),
	BOOL("ep_overlap", SETUP, ep_overlap,
	    N_("EP's all-to-alls overlap another micro-batch's compute, "
	    "Megatron-Core's overlap_moe_expert_parallel_comm (off)")),
	NUM("bucket_mb", SETUP, bucket_bytes, 0.01, 1e6, 1048576.0, "MiB",
	    N_("DP/ZeRO 0-2 gradient bucket in MiB (25, PyTorch DDP's "
	    "bucket_cap_mb)")),
	NUM("headroom", SEARCH, headroom, 0, 0.9, 1, "F",
	    N_("GPU memory a ranked layout leaves free (0.10)")),
	BOOL("any_framework", SEARCH, any_framework,
	    N_("also rank layouts no framework runs (off)")),
	BOOL("tp_in_node", SEARCH, tp_in_node,
	    N_("try only layouts whose TP group stays in one NVLink "
	    "domain (off)")),
	{ NULL, 0, 0, 0, 0, 0, NULL, -1, 0, NULL, NULL, NULL }
};

#define N_ROWS	(sizeof rows / sizeof rows[0])
static struct cm_key keys[N_ROWS - 1 + MESH_N_AXES];

const struct cm_key *
cm_keys(void)
{
	const struct mesh_axis_info *x;
	size_t i, n = 0;
	int a;

	if (keys[0].name != NULL)
		return keys;
	for (i = 0; i < N_ROWS; i++) {
		if (rows[i].name == NULL || rows[i].name[0] != '\0') {
			keys[n] = rows[i];
			if (keys[n].kind == CM_KEY_WORD &&
			    keys[n].words == NULL)
				keys[n].words = mesh_order_names();
			n++;
			continue;
		}
		for (a = 0; a < MESH_N_AXES; a++) {
			x = mesh_axis((enum mesh_axis)a);
			keys[n] = rows[i];
			keys[n].name = x->key;
			keys[n].lo = 1;
			keys[n].hi = GPUS;
			keys[n].scale = 1;
			keys[n].off = (long)cm_degree_offset(x->axis);
			keys[n].size = sizeof(int);
			keys[n].arg = x->arg;
			keys[n].help = x->help;
			n++;
		}
	}
	return keys;
}

const struct cm_key *
cm_key_find(const char *name)
{
	const struct cm_key *k;

	for (k = cm_keys(); name != NULL && k->name != NULL; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

const char *
cm_key_group_name(enum cm_key_group g)
{
	static const char *const names[CM_N_GROUPS] = { N_("Model"),
	    N_("Cluster"), N_("Batch"), N_("Layout"), N_("Setup"),
	    N_("Search") };

	return (unsigned)g < CM_N_GROUPS ? _(names[g]) : "?";
}

const struct hw_gpu *
cm_default_gpu(const struct hw_catalog *cat)
{
	const struct hw_gpu *g = hw_gpu_find(cat, CM_DEFAULT_GPU);

	return g != NULL || cat->n_gpus == 0 ? g : &cat->gpus[0];
}

/* Where errors point: "PATH.KEY". */
struct where {
	const char	*file, *path;
	struct pl_err	*err;
};

static int
fail(const struct where *w, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(const struct where *w, const char *key, const char *fmt, ...)
{
	char p[256], msg[sizeof w->err->msg];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pl_err_set_path(w->err, w->file, key != NULL ?
	    pl_json_path_key(p, sizeof p, w->path, key) : w->path, "%s", msg);
	return -1;
}

static int
has(const cJSON *o, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	return it != NULL && !cJSON_IsNull(it);
}

/* Store v into k's field of c, by the field's size. */
static void
store(struct cm_config *c, const struct cm_key *k, double v)
{
	char *f = (char *)c + k->off;

	if (k->kind == CM_KEY_NUMBER)
		*(double *)(void *)f = v * k->scale;
	else if (k->size == sizeof(long))
		*(long *)(void *)f = (long)v;
	else
		*(int *)(void *)f = (int)v;
}

/* Apply one present, non-NAME key. */
static int
apply(struct cm_config *c, const struct cm_key *k, const cJSON *o,
    const struct where *w)
{
	const char *s = NULL;
	double d;
	long l;
	int b, i;

	switch (k->kind) {
	case CM_KEY_INT:
		if (pl_json_int(o, k->name, 1, (long)k->lo, (long)k->hi, &l,
		    w->file, w->path, w->err) != 0)
			return -1;
		store(c, k, (double)l);
		return 0;
	case CM_KEY_NUMBER:
		if (pl_json_number(o, k->name, 1, k->lo, k->hi, &d, w->file,
		    w->path, w->err) != 0)
			return -1;
		store(c, k, d);
		return 0;
	case CM_KEY_WORD:
		if (pl_json_string(o, k->name, 1, &s, w->file, w->path,
		    w->err) != 0)
			return -1;
		/* a rank order may leave an axis out (mesh_order_parse) */
		if ((i = word(k->words, s)) < 0 &&
		    (k->words != mesh_order_names() ||
		    mesh_order_parse(s, &i) != 0))
			return fail(w, k->name, _("unknown value \"%s\""), s);
		store(c, k, i);
		return 0;
	case CM_KEY_BOOL:
		if (pl_json_bool(o, k->name, 1, &b, w->file, w->path,
		    w->err) != 0)
			return -1;
		if (k->hook != NULL)
			k->hook(c, b);
		else
			store(c, k, b);
		return 0;
	default:
		return 0;
	}
}

/* Model preset and GPU first, so the other keys override them. */
static int
base(struct cm_config *c, const cJSON *o, const struct hw_catalog *cat,
    const struct where *w)
{
	const char *mname = NULL, *gname = NULL, *hname = NULL;
	const struct hw_model *m = NULL;
	struct hw_gpu own;
	const struct hw_gpu *g = cm_default_gpu(cat);

	if (pl_json_string(o, "model", 0, &mname, w->file, w->path,
	    w->err) != 0 || pl_json_string(o, "gpu", 0, &gname, w->file,
	    w->path, w->err) != 0)
		return -1;
	if (mname != NULL && (m = hw_model_find(cat, mname)) == NULL)
		return fail(w, "model", _("unknown model \"%s\""), mname);
	if (pl_json_string(o, "hardware", 0, &hname, w->file, w->path,
	    w->err) != 0)
		return -1;
	if (hname != NULL) {
		/* The file's own position, not the configuration's. */
		if (hw_gpu_load_user(hname, gname, &own, w->err) != 0)
			return -1;
		g = &own;
	} else if (gname != NULL && (g = hw_gpu_find(cat, gname)) == NULL)
		return fail(w, "gpu", _("unknown GPU \"%s\""), gname);
	cm_config_default(c, m, g);
	return 0;
}

/*
 * A model given by its sizes alone takes the architecture of the family
 * its MLP names, the two families reference/costmodel.md section b counts:
 * GeLU is GPT style as [NAR21] eq. 2 counts it (LayerNorm, linear biases,
 * learned positions, input and output embedding tied); SwiGLU is Llama
 * style (RMSNorm, no biases, rotary positions, untied output). Lessons
 * used to count a GeLU model with none of biases, positions or tying,
 * which no published model is: 24 layers, h 2048, V 50257, s 2048 came
 * to 1.414 B parameters there and 1.316 B in plan; [NAR21] eq. 2,
 * L(12h^2 + 13h) + Vh + sh, plus the final LayerNorm's 2h, gives 1.316 B.
 */
static void
custom_family(struct hw_model *m)
{
	int gpt = m->mlp == HW_MLP_GELU;

	strcpy(m->name, "custom");
	m->norm = gpt ? HW_NORM_LAYER : HW_NORM_RMS;
	m->biases = m->tied = m->learned_pos = gpt;
}

/* The rules for absent keys (see cm_config_from_json in costmodel.h). */
static int
rules(struct cm_config *c, const cJSON *o, const struct where *w)
{
	static const char *const sizes[] = { "layers", "hidden", "heads",
	    "ffn", "vocab", "seq", NULL };
	char labels[64];
	long long n;
	int i;

	if (!has(o, "model")) {
		for (i = 0; sizes[i] != NULL; i++)
			if (!has(o, sizes[i]))
				return fail(w, sizes[i], "%s", _("needed when "
				    "no model preset is given"));
		custom_family(&c->model);
	}
	if (has(o, "heads") && !has(o, "kv_heads"))
		c->model.kv_heads = c->model.heads;
	if (!has(o, "gpus")) {
		n = cm_layout_gpus(c);
		if (n < 1 || n > (long long)GPUS)
			return fail(w, NULL, _("%s is more GPUs than the "
			    "engine takes"), mesh_labels_text(labels,
			    sizeof labels));
		c->gpus = (int)n;
	}
	if (c->nvlink_domain > 0 && (c->nvlink_domain < c->gpus_per_node ||
	    c->nvlink_domain % c->gpus_per_node != 0))
		return fail(w, "nvlink_domain", _("must be a multiple of the "
		    "%d GPUs per node"), c->gpus_per_node);
	if (c->power_limit > 0) {
		double f = hw_power_clock(c->gpu.tdp_w, c->power_limit);

		if (f < 0)
			return fail(w, "power_limit", "%s", _("the GPU's TDP is "
			    "unknown (tdp_w in its gpus.json entry)"));
		/* The sustained clock, so every product's rate; not HBM. */
		c->gpu.gemm_eff *= f;
	}
	if (has(o, "fp8_recipe") && c->precision != CM_PREC_FP8)
		return fail(w, "fp8_recipe", "%s", _("needs precision fp8"));
	if (c->fp8_attention && c->precision != CM_PREC_FP8)
		return fail(w, "fp8_attention", "%s", _("needs precision fp8"));
	if (c->fp8_attention && c->attention != CM_ATTN_FLASH)
		return fail(w, "fp8_attention", "%s", _("needs the fused "
		    "attention kernel (attention flash)"));
	if (c->schedule == PIPE_INTERLEAVED && !has(o, "virtual_stages"))
		c->virtual_stages = CM_INTERLEAVED_V;
	c->setup_set = (has(o, "kernels") ? CM_SET_KERNELS : 0) |
	    (has(o, "grad_dtype") ? CM_SET_GRAD_DTYPE : 0) |
	    (has(o, "reduce_dtype") ? CM_SET_REDUCE_DTYPE : 0) |
	    (has(o, "optimizer_impl") ? CM_SET_OPT_IMPL : 0) |
	    (has(o, "pp_scatter_gather") ? CM_SET_PP_SENDS : 0) |
	    (has(o, "bucket_mb") ? CM_SET_BUCKET : 0);
	return 0;
}

int
cm_config_from_json(struct cm_config *c, const cJSON *o,
    const struct hw_catalog *cat, const char *file, const char *path,
    struct pl_err *err)
{
	const struct where w = { file, path, err };
	const struct cm_key *k;
	const cJSON *it;

	if (!cJSON_IsObject(o))
		return fail(&w, NULL, "%s", _("must be an object"));
	cJSON_ArrayForEach(it, o)
		if (cm_key_find(it->string) == NULL)
			return fail(&w, it->string, "%s", _("unknown key"));
	if (base(c, o, cat, &w) != 0)
		return -1;
	for (k = cm_keys(); k->name != NULL; k++)
		if (k->kind != CM_KEY_NAME && has(o, k->name) &&
		    apply(c, k, o, &w) != 0)
			return -1;
	if (rules(c, o, &w) != 0)
		return -1;
	if (hw_model_check(&c->model, err) != 0) {
		char msg[sizeof err->msg];

		memcpy(msg, err->msg, sizeof msg);
		return fail(&w, NULL, "%s", msg);
	}
	return 0;
}
