/*
 * emit.c - which framework config can say a layout, and what the emitters
 * share (emit.h). The rules beyond framework.c's are the configs' own:
 * each names the file it was read from at the pinned release.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/emit.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/costmodel_int.h"

const char *const emit_kind_names[EMIT_N + 1] = { "torchtitan", "megatron",
	"deepspeed", "sbatch", NULL };

int
emit_kind_parse(const char *s, enum emit_kind *out)
{
	int i;

	for (i = 0; i < EMIT_N; i++)
		if (strcmp(s, emit_kind_names[i]) == 0) {
			*out = (enum emit_kind)i;
			return 0;
		}
	return -1;
}

int
emit_nodes(const struct cm_config *c)
{
	int g = c->gpus_per_node > 0 ? c->gpus_per_node : 8;

	return (c->gpus + g - 1) / g;
}

int
emit_procs_per_node(const struct cm_config *c)
{
	int g = c->gpus_per_node > 0 ? c->gpus_per_node : 8;

	return c->gpus < g ? c->gpus : g;
}

long
emit_accumulation(const struct cm_config *c)
{
	long per = (long)c->micro_batch * c->dp;

	return per > 0 ? c->global_batch / per : 0;
}

int
emit_hsdp_shard(const struct cm_config *c)
{
	struct mesh_span g;

	cm_shard_group(c, &g);
	return g.n;
}

/* torchtitan v0.2.2: torchtitan/models/{llama3,qwen3,deepseek_v3,gpt_oss}
 * /__init__.py, the flavors each registers. */
static const struct { const char *preset, *name, *flavor; } tt_models[] = {
	{ "llama3-8b", "llama3", "8B" },
	{ "llama3-70b", "llama3", "70B" },
	{ "llama3-405b", "llama3", "405B" },
	{ "qwen3-30b-a3b", "qwen3", "30B-A3B" },
	{ "qwen3-235b-a22b", "qwen3", "235B-A22B" },
	{ "deepseek-v3", "deepseek_v3", "671B" },
	{ "gpt-oss-120b", "gpt_oss", "120b" },
};

int
emit_torchtitan_model(const struct cm_config *c, const char **name,
    const char **flavor)
{
	size_t i;

	for (i = 0; i < sizeof tt_models / sizeof tt_models[0]; i++)
		if (strcmp(c->model.name, tt_models[i].preset) == 0) {
			*name = tt_models[i].name;
			*flavor = tt_models[i].flavor;
			return 1;
		}
	return 0;
}

static int
say(char *why, size_t size, const char *text)
{
	snprintf(why, size, "%s", text);
	return 1;
}

/* The framework runs the layout at all (framework.c's rules). */
static int
runs(const struct cm_config *c, enum fw_id fw, char *why, size_t size)
{
	char list[128];
	unsigned m = fw_runs(c);

	if (m & FW_BIT(fw))
		return 1;
	if (m == 0)
		fw_why_none(c, why, size);
	else
		snprintf(why, size, _("%s does not run this layout (it runs "
		    "on: %s)"), fw_label(fw), fw_list_text(m, list,
		    sizeof list));
	return 0;
}

static int
torchtitan_refuse(const struct cm_config *c, char *why, size_t size)
{
	const char *name, *flavor;

	if (!runs(c, FW_PYTORCH, why, size))
		return 1;
	if (!emit_torchtitan_model(c, &name, &flavor))
		return say(why, size, _("torchtitan v0.2.2 has no model "
		    "definition for this model (it ships Llama 3, Qwen3, "
		    "DeepSeek-V3 and gpt-oss)."));
	if (c->model.mtp > 0)
		return say(why, size, _("torchtitan v0.2.2's DeepSeek-V3 has no "
		    "multi-token prediction."));
	if (c->zero == 1)
		return say(why, size, _("torchtitan has no ZeRO-1: its data "
		    "parallelism is DDP, FSDP2 or HSDP."));
	if (c->tp > 1 && !c->seq_parallel)
		return say(why, size, _("torchtitan's tensor parallel plan "
		    "always shards activations along the sequence: turn "
		    "sequence parallelism on."));
	if (c->cp > 1 && c->cp_impl == CM_CP_ULYSSES)
		return say(why, size, _("torchtitan's context parallelism has "
		    "no Ulysses form (its KV exchange is an all-gather or "
		    "all-to-alls around the ring)."));
	if (c->pp > 1 && c->schedule != PIPE_GPIPE &&
	    c->schedule != PIPE_1F1B && c->schedule != PIPE_INTERLEAVED &&
	    c->schedule != PIPE_DUALPIPEV)
		return say(why, size, _("This pipeline schedule has no "
		    "torchtitan name in v0.2.2."));
	return 0;
}

/*
 * The engine's split of the pipeline's layers (costmodel.c: ceil(L / p)
 * a stage, up to two taken from the last stage, then the first, and the
 * MTP modules on the last) as Megatron-LM's decoder layers: 0 when even,
 * 1 with first and last for --decoder-first/last-pipeline-num-layers, -1
 * when its flags cannot say it (interleaved, or the middle uneven).
 */
int
emit_megatron_split(const struct cm_config *c, int *first, int *last)
{
	int L = c->model.layers, p = c->pp, all = CM_PIPE_LAYERS(&c->model);
	int size = (all + p - 1) / p, missing = p * size - all;

	*first = *last = 0;
	if (p <= 1 || (missing == 0 && c->model.mtp == 0 && L % p == 0))
		return c->schedule == PIPE_INTERLEAVED && p > 1 &&
		    L % (p * c->virtual_stages) != 0 ? -1 : 0;
	if (c->schedule == PIPE_INTERLEAVED && c->virtual_stages > 1)
		return -1;
	*first = missing >= 2 ? size - 1 : size;
	*last = (missing >= 1 ? size - 1 : size) - c->model.mtp;
	if (*last < 1 || (p > 2 && (L - *first - *last) != size * (p - 2)))
		return -1;
	return 1;
}

static int
megatron_refuse(const struct cm_config *c, char *why, size_t size)
{
	int chunks = c->pp * (c->schedule == PIPE_INTERLEAVED ?
	    c->virtual_stages : 1), first, last;

	if (!runs(c, FW_MEGATRON, why, size))
		return 1;
	if (c->fp8_attention && cm_fp8(c))
		return say(why, size, _("Megatron-LM core_v0.15.3 has no "
		    "command-line flag for FP8 attention."));
	if (c->zero >= 3 && c->hsdp)
		return say(why, size, _("Megatron-LM core_v0.15.3 has no "
		    "command-line flag for HSDP."));
	if (c->model.sliding_window > 0 || c->model.attn_sinks)
		return say(why, size, _("Megatron-LM core_v0.15.3's flags here "
		    "do not say alternating sliding-window attention with "
		    "sinks."));
	if (chunks > 1 && emit_megatron_split(c, &first, &last) < 0)
		return say(why, size, _("The layers do not split evenly over "
		    "the pipeline's stages and chunks, which Megatron-LM's "
		    "flags here need."));
	if (c->pp > 1 && c->schedule != PIPE_1F1B &&
	    c->schedule != PIPE_INTERLEAVED)
		return say(why, size, _("Megatron-LM runs no such pipeline "
		    "schedule."));
	return 0;
}

static int
deepspeed_refuse(const struct cm_config *c, char *why, size_t size)
{
	if (!runs(c, FW_DEEPSPEED, why, size))
		return 1;
	if (c->pp > 1)
		return say(why, size, _("DeepSpeed's pipeline stages are set "
		    "in the model code (PipelineModule's num_stages), not in "
		    "its JSON config."));
	if (cm_ep(c) > 1)
		return say(why, size, _("DeepSpeed's expert parallelism is set "
		    "in the model code (the MoE layer's ep_size), not in its "
		    "JSON config."));
	if (c->cp > 1)
		return say(why, size, _("DeepSpeed's sequence parallelism is "
		    "set in the model code, not in its JSON config."));
	if (cm_fp8(c))
		return say(why, size, _("DeepSpeed's FP8 comes from Transformer "
		    "Engine in the model code; its JSON config has no FP8 "
		    "setting."));
	return 0;
}

static int
sbatch_refuse(const struct cm_config *c, char *why, size_t size)
{
	int g = c->gpus_per_node > 0 ? c->gpus_per_node : 8;

	if (c->gpus > g && c->gpus % g != 0)
		return say(why, size, _("The GPUs do not fill whole nodes."));
	return emit_sbatch_framework(c, why, size) < 0;
}

int
emit_refuse(const struct cm_config *c, enum emit_kind kind, char *why,
    size_t size)
{
	why[0] = '\0';
	switch (kind) {
	case EMIT_TORCHTITAN:
		return torchtitan_refuse(c, why, size);
	case EMIT_MEGATRON:
		return megatron_refuse(c, why, size);
	case EMIT_DEEPSPEED:
		return deepspeed_refuse(c, why, size);
	case EMIT_SBATCH:
		return sbatch_refuse(c, why, size);
	default:
		return say(why, size, "?");
	}
}

int
emit_sbatch_framework(const struct cm_config *c, char *why, size_t size)
{
	static const enum fw_id order[] = { FW_MEGATRON, FW_PYTORCH,
		FW_DEEPSPEED };
	static const enum emit_kind kinds[] = { EMIT_MEGATRON,
		EMIT_TORCHTITAN, EMIT_DEEPSPEED };
	char first[EMIT_WHY_LEN] = "";
	size_t i;

	for (i = 0; i < 3; i++) {
		if (c->framework != CM_FW_AUTO &&
		    (int)c->framework != (int)order[i] + 1)
			continue;
		if (emit_refuse(c, kinds[i], why, size) == 0)
			return (int)order[i];
		if (first[0] == '\0')
			snprintf(first, sizeof first, "%s", why);
	}
	snprintf(why, size, "%s", first);
	return -1;
}

int
emit_write(FILE *fp, const struct cm_config *c, enum emit_kind kind)
{
	char why[EMIT_WHY_LEN];
	int fw;

	switch (kind) {
	case EMIT_TORCHTITAN:
		return emit_torchtitan(fp, c);
	case EMIT_MEGATRON:
		return emit_megatron(fp, c);
	case EMIT_DEEPSPEED:
		return emit_deepspeed(fp, c);
	case EMIT_SBATCH:
		if ((fw = emit_sbatch_framework(c, why, sizeof why)) < 0)
			return -1;
		return emit_sbatch(fp, c, (enum fw_id)fw);
	default:
		return -1;
	}
}

const char *
emit_safe_name(const char *s)
{
	const char *p;

	if (s == NULL || *s == '\0')
		return "custom";
	for (p = s; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("._+-", *p) != NULL))
			return "custom";
	return s;
}

int
emit_header(FILE *fp, const struct cm_config *c, const char *what)
{
	/* TRANSLATORS: a comment line atop an emitted config: %1$s what it
	 * is ("torchtitan v0.2.2 job config"), %2$s the model, %3$d the
	 * GPUs, %4$s the GPU type. */
	return fprintf(fp, _("# %1$s, written by parlearn plan: %2$s on "
	    "%3$d %4$s\n"), what, emit_safe_name(c->model.name), c->gpus,
	    emit_safe_name(c->gpu.name)) < 0 ||
	    fprintf(fp, "# DP %d, TP %d, PP %d, CP %d, EP %d, ZeRO %d, "
	    "micro-batch %d, global batch %ld\n", c->dp, c->tp, c->pp, c->cp,
	    cm_ep(c), c->zero, c->micro_batch, c->global_batch) < 0 ? -1 : 0;
}
