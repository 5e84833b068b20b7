/*
 * framework.c - the layouts Megatron-LM, DeepSpeed and PyTorch can run.
 *
 * A layout here is DP x TP x PP, the pipeline schedule, the ZeRO stage and
 * sequence parallelism; recompute, precision and the attention kernel are
 * offered by all three. Each rule below names the source it was read from
 * (the repositories as stored, commit in brackets):
 *
 * Megatron-LM (NVIDIA/Megatron-LM d98e8a6)
 *   - Schedules: megatron/core/pipeline_parallel/schedules.py has
 *     forward_backward_pipelining_without_interleaving (1F1B) and
 *     _with_interleaving; no all-forwards-then-all-backwards (GPipe).
 *   - ZeRO 1 is --use-distributed-optimizer ("shards state across
 *     data-parallel ranks", core/optimizer/distrib_optimizer.py); it
 *     composes with TP, PP, interleaving and SP.
 *   - ZeRO 2 and 3 are Megatron-FSDP (--use-megatron-fsdp with
 *     --data-parallel-sharding-strategy optim_grads / optim_grads_params),
 *     run without pipeline parallelism: training/arguments.py refuses
 *     --use-torch-fsdp2 with PP, the MFSDP v2 adapter
 *     (core/distributed/fsdp/mcore_fsdp_adapter.py) refuses PP, TP and CP,
 *     and examples/megatron_fsdp/README.md runs PP = 1.
 * DeepSpeed (microsoft/DeepSpeed 38327e0)
 *   - With PP: PipelineEngine asserts the ZeRO stage is below 2 ("ZeRO-2
 *     and ZeRO-3 are incompatible with pipeline parallelism",
 *     deepspeed/runtime/pipe/engine.py) and its one TrainSchedule is
 *     1F1B (runtime/pipe/schedule.py): no interleaving, no GPipe.
 *   - Without PP: ZeRO 0-3; TP comes from Megatron-DeepSpeed's mpu.
 *   - Megatron-style sequence parallelism is not in the Megatron-DeepSpeed
 *     we read (microsoft/Megatron-DeepSpeed 060fb40, megatron/arguments.py);
 *     DeepSpeed-Ulysses splits attention heads, a different scheme.
 * PyTorch (pytorch/pytorch 0138610, pytorch/torchtitan b5bcd76)
 *   - Schedules: torch.distributed.pipelining has GPipe, 1F1B and
 *     interleaved 1F1B (torchtitan's pipeline_parallel_schedule).
 *   - Without PP: ZeRO 0 (DDP), 1 (ZeroRedundancyOptimizer), 2 (FSDP2
 *     reshard_after_forward=False) and 3 (FSDP2), HSDP on a 2-D mesh.
 *   - With PP: backward_maybe_with_nosync in pipelining/stage.py turns off
 *     set_reshard_after_backward and set_requires_gradient_sync on FSDP
 *     modules until the last backward, and torchtitan defaults to
 *     reshard_after_forward=False under PP "to avoid per-microbatch
 *     all-gathers" (torchtitan/distributed/fsdp.py). Parameters and
 *     gradients stay whole through the step: FSDP2 under PP has ZeRO-1's
 *     memory and traffic (one all-gather, one reduce-scatter a step), so
 *     it is counted as ZeRO 1, and ZeRO 2-3 memory with PP is not offered.
 *   - Sequence parallelism: DTensor's SequenceParallel in torchtitan's
 *     TP plan.
 *
 * Consequence: every layout but PP > 1 with ZeRO 2 or 3 has a framework.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/framework.h"

static const char *const names[FW_N] = { "megatron", "deepspeed",
	"pytorch" };
static const char *const labels[FW_N] = { N_("Megatron-LM"),
	N_("DeepSpeed"), N_("PyTorch FSDP2") };

/* TRANSLATORS: one-letter tags for Megatron-LM, DeepSpeed, PyTorch. */
static const char *const shorts[FW_N] = { N_("M"), N_("D"), N_("P") };

static int
megatron_runs(const struct cm_config *c)
{
	if (c->pp > 1)
		return c->zero <= 1 && c->schedule != PIPE_GPIPE;
	return 1;
}

static int
deepspeed_runs(const struct cm_config *c)
{
	if (c->seq_parallel)
		return 0;
	if (c->pp > 1)
		return c->zero <= 1 && c->schedule == PIPE_1F1B;
	return 1;
}

static int
pytorch_runs(const struct cm_config *c)
{
	return c->pp <= 1 || c->zero <= 1;
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
	return m;
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
	if (c->pp > 1 && c->zero >= 2)
		snprintf(buf, size, _("ZeRO %d with %d pipeline stages: "
		    "Megatron-LM and DeepSpeed's pipeline engine take ZeRO 0 "
		    "or 1 only, and PyTorch's pipelining keeps FSDP parameters "
		    "and gradients whole through the step (ZeRO 1 memory)"),
		    c->zero, c->pp);
	else
		snprintf(buf, size, "%s", _("no framework we know runs this "
		    "combination of ZeRO stage, schedule and sequence "
		    "parallelism"));
	return buf;
}
