/*
 * framework.c - the layouts Megatron-LM, DeepSpeed and PyTorch can run.
 *
 * A layout here is DP x TP x PP, the pipeline schedule, the ZeRO stage
 * with its FSDP options (reshard after forward, HSDP), sequence
 * parallelism and TP overlap; recompute, precision and the attention
 * kernel are offered by all three. Each rule below names the source it was
 * read from (the repositories as stored, commit in brackets):
 *
 * Megatron-LM (NVIDIA/Megatron-LM d98e8a6)
 *   - Schedules: megatron/core/pipeline_parallel/schedules.py has
 *     forward_backward_pipelining_without_interleaving (1F1B) and
 *     _with_interleaving; no all-forwards-then-all-backwards (GPipe).
 *   - ZeRO 1 is --use-distributed-optimizer ("shards state across
 *     data-parallel ranks", core/optimizer/distrib_optimizer.py); it
 *     composes with TP, PP, interleaving and SP.
 *   - ZeRO 2 and 3 are Megatron-FSDP (--use-megatron-fsdp with
 *     --data-parallel-sharding-strategy optim_grads / optim_grads_params,
 *     HSDP through outer_dp_sharding_strategy no_shard), run without
 *     pipeline parallelism: training/arguments.py refuses
 *     --use-torch-fsdp2 with PP, the MFSDP v2 adapter
 *     (core/distributed/fsdp/mcore_fsdp_adapter.py) refuses PP, TP and CP,
 *     and examples/megatron_fsdp/README.md runs PP = 1. No option keeps
 *     ZeRO-3 weights gathered from forward to backward: that is its ZeRO 2.
 *   - TP overlap (--tp-comm-overlap) asserts sequence parallelism
 *     (training/arguments.py: "can happen only when sequence parallelism
 *     is enabled").
 * DeepSpeed (microsoft/DeepSpeed 38327e0)
 *   - With PP: PipelineEngine asserts the ZeRO stage is below 2 ("ZeRO-2
 *     and ZeRO-3 are incompatible with pipeline parallelism",
 *     deepspeed/runtime/pipe/engine.py) and its one TrainSchedule is
 *     1F1B (runtime/pipe/schedule.py): no interleaving, no GPipe.
 *   - Without PP: ZeRO 0-3; HSDP is MiCS (runtime/zero/mics.py shards
 *     over mics_shard_size ranks and replicates across); TP comes from
 *     Megatron-DeepSpeed's mpu.
 *   - Megatron-style sequence parallelism is not in the Megatron-DeepSpeed
 *     we read (microsoft/Megatron-DeepSpeed 060fb40, megatron/arguments.py);
 *     DeepSpeed-Ulysses splits attention heads, a different scheme; and
 *     it has no TP overlap.
 * PyTorch (pytorch/pytorch 0138610, pytorch/torchtitan b5bcd76)
 *   - Schedules: torch.distributed.pipelining has GPipe, 1F1B and
 *     interleaved 1F1B (torchtitan's pipeline_parallel_schedule).
 *   - Without PP: ZeRO 0 (DDP), 1 (ZeroRedundancyOptimizer), 2 (FSDP2
 *     reshard_after_forward=False, FSDP1 SHARD_GRAD_OP), 3 (FSDP2, with
 *     or without reshard_after_forward), HSDP on a 2-D mesh.
 *   - With PP: backward_maybe_with_nosync in pipelining/stage.py turns off
 *     set_reshard_after_backward and set_requires_gradient_sync on FSDP
 *     modules until the last backward, and torchtitan defaults to
 *     reshard_after_forward=False under PP "to avoid per-microbatch
 *     all-gathers" (torchtitan/distributed/fsdp.py): weights and
 *     gradients stay whole through the step. The engine prices ZeRO 3 with
 *     PP exactly so (costmodel_dp.c, costmodel_memory.c), so PyTorch runs
 *     it; ZeRO 2 with PP (gradients sharded and reduced every
 *     micro-batch) is what no framework does.
 *   - Sequence parallelism: DTensor's SequenceParallel in torchtitan's TP
 *     plan; TP overlap is async TP, which needs torch.compile
 *     (torchtitan/config/configs.py enable_async_tensor_parallel) and
 *     SP-style sharded activations.
 *
 * Zero-bubble schedules (costmodel_sched.c): none of the three runs ZB-H1
 * or DualPipe as the engine prices them. Megatron-Core core_v0.15.3 has
 * --delay-wgrad-compute for its EP overlap but no zero-bubble schedule
 * (tests/data/frameworks, arguments.py); DeepSpeed's pipeline engine runs
 * 1F1B only; PyTorch's pipelining has the V-shaped ScheduleZBVZeroBubble
 * and ScheduleDualPipeV and the looped ScheduleInterleavedZeroBubble
 * (torchtitan v0.2.2 job_config.py points at that list), not ZB-H1 on one
 * chunk per device nor DualPipe's two-way schedule, which is DeepSeek's
 * own (deepseek-ai/DualPipe).
 *
 * Consequence: no framework runs ZeRO 2 with PP, TP overlap without SP,
 * ZB-H1 or DualPipe, or ZeRO 3 with PP except through PyTorch.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/framework.h"
#include "core/engine/costmodel_fp8.h"
#include "core/engine/costmodel_int.h"

static const char *const names[FW_N] = { "megatron", "deepspeed",
	"pytorch" };
static const char *const labels[FW_N] = { N_("Megatron-LM"),
	N_("DeepSpeed"), N_("PyTorch FSDP2") };

/* TRANSLATORS: one-letter tags for Megatron-LM, DeepSpeed, PyTorch. */
static const char *const shorts[FW_N] = { N_("M"), N_("D"), N_("P") };

/* TP overlap needs SP in both frameworks that have it. */
static int
overlap_ok(const struct cm_config *c)
{
	return !c->tp_overlap || c->tp < 2 || c->seq_parallel;
}

static int
megatron_runs(const struct cm_config *c)
{
	if (!overlap_ok(c))
		return 0;
	if (c->zero >= 3 && !c->reshard_after_forward)
		return 0;
	if (c->pp > 1)
		return c->zero <= 1 && (c->schedule == PIPE_1F1B ||
		    c->schedule == PIPE_INTERLEAVED);
	return 1;
}

static int
deepspeed_runs(const struct cm_config *c)
{
	if (c->seq_parallel || (c->tp_overlap && c->tp > 1))
		return 0;
	if (c->zero >= 3 && !c->reshard_after_forward)
		return 0;
	if (c->pp > 1)
		return c->zero <= 1 && c->schedule == PIPE_1F1B;
	return 1;
}

static int
pytorch_runs(const struct cm_config *c)
{
	if (!overlap_ok(c))
		return 0;
	if (cm_sched_split_backward(c))
		return 0;
	return c->pp <= 1 || c->zero != 2;
}

/* The frameworks that run cfg's layout before CP's rule. */
static unsigned
fw_runs_but_cp(const struct cm_config *c)
{
	struct cm_config no_cp = *c;

	no_cp.cp = 1;
	return fw_runs(&no_cp);
}

unsigned
fw_runs(const struct cm_config *c)
{
	unsigned m = 0;

	if (megatron_runs(c))
		m |= FW_BIT(FW_MEGATRON);
	if (deepspeed_runs(c))
		m |= FW_BIT(FW_DEEPSPEED);
	if (pytorch_runs(c))
		m |= FW_BIT(FW_PYTORCH);
	/* FP8 recipes, CP's forms (costmodel_cp.c), EP (costmodel_ep.c) */
	return m & cm_fp8_frameworks(c) & cm_cp_frameworks(c) &
	    cm_ep_frameworks(c);
}

const char *
fw_name(enum fw_id id)
{
	return (unsigned)id < FW_N ? names[id] : "?";
}

const char *
fw_label(enum fw_id id)
{
	return (unsigned)id < FW_N ? _(labels[id]) : "?";
}

const char *
fw_short(enum fw_id id)
{
	return (unsigned)id < FW_N ? _(shorts[id]) : "?";
}

char *
fw_short_text(unsigned mask, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < FW_N; i++) {
		if (!(mask & FW_BIT(i)))
			continue;
		snprintf(buf + len, size - len, "%s", fw_short((enum fw_id)i));
		len = strlen(buf);
	}
	if (len == 0)
		snprintf(buf, size, "-");
	return buf;
}

char *
fw_list_text(unsigned mask, char *buf, size_t size)
{
	size_t len = 0;
	int i, n;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < FW_N; i++) {
		if (!(mask & FW_BIT(i)))
			continue;
		n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
		    fw_label((enum fw_id)i));
		if (n < 0 || (size_t)n >= size - len)
			break;
		len += (size_t)n;
	}
	if (len == 0)
		snprintf(buf, size, "-");
	return buf;
}

char *
fw_why_none(const struct cm_config *c, char *buf, size_t size)
{
	if (size == 0)
		return buf;
	buf[0] = '\0';
	if (fw_runs(c) != 0)
		return buf;
	if (!overlap_ok(c))
		snprintf(buf, size, "%s", _("TP overlap without sequence "
		    "parallelism: Megatron-LM asserts SP for --tp-comm-overlap, "
		    "PyTorch's async TP works on SP-sharded activations, and "
		    "DeepSpeed has no TP overlap"));
	else if (cm_sched_split_backward(c))
		snprintf(buf, size, _("the %s schedule: Megatron-LM and "
		    "DeepSpeed have no zero-bubble schedule, PyTorch's "
		    "pipelining has only the V-shaped ZBV and DualPipeV; "
		    "DualPipe is DeepSeek's own"),
		    pipe_schedule_name(c->schedule));
	else if (c->pp > 1 && c->zero == 2)
		snprintf(buf, size, _("ZeRO 2 with %d pipeline stages: "
		    "Megatron-LM and DeepSpeed's pipeline engine take ZeRO 0 "
		    "or 1 only, and under PyTorch's pipelining FSDP keeps "
		    "gradients whole through the step (ZeRO 3 with PP)"),
		    c->pp);
	else if (cm_cp_frameworks(c) != FW_ALL &&
	    (fw_runs_but_cp(c) & cm_cp_frameworks(c)) == 0)
		snprintf(buf, size, _("CP %d by %s with this layout: "
		    "Megatron-LM runs ring, all-gather and ulysses with ZeRO 0 "
		    "or 1, PyTorch ring and all-gather, DeepSpeed ulysses "
		    "without TP or PP"), c->cp, cm_cp_impl_name(c->cp_impl));
	else if (cm_fp8_frameworks(c) != FW_ALL)
		snprintf(buf, size, _("fp8 recipe %s with this layout: "
		    "Megatron-LM runs delayed, tensorwise and mxfp8 (Transformer "
		    "Engine), DeepSpeed delayed (Transformer Engine modules), "
		    "PyTorch tensorwise, rowwise and mxfp8 (torchao)"),
		    cm_fp8_recipe_name(c->fp8_recipe));
	else
		snprintf(buf, size, "%s", _("no framework we know runs this "
		    "combination of ZeRO stage, schedule and sequence "
		    "parallelism"));
	return buf;
}
