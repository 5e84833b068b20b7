/*
 * mesh_axes.c - the parallel axes, one row each: how an axis is named,
 * set and searched, what it divides, which collectives it issues and
 * where they are priced and simulated. The engine's options, the search
 * grid, the playground and the rank orders are made from these rows.
 */
#include <string.h>

#include "i18n.h"
#include "core/mesh/mesh.h"

static const struct mesh_axis_info axes[MESH_N_AXES] = {
	{
		.axis = MESH_DP, .key = "dp", .label = "DP", .arg = "D",
		.help = N_("data-parallel degree"), .knob = N_("DP degree"),
		/* Outermost by default: replicas talk least often. */
		.nest = 3, .step = MESH_STEP_REST, .cap = MESH_CAP_NONE,
		.absorbs = 0, .follows_gpus = 1,
		.rules = MESH_RULE_BATCH,
		/* All-reduce (DDP), or reduce-scatter and all-gather
		 * (ZeRO/FSDP). */
		.collectives = MESH_COLL_ALLREDUCE | MESH_COLL_ALLGATHER |
		    MESH_COLL_REDUCESCATTER,
		.priced = "core/engine/costmodel_dp.c",
		.simulated = "core/sim/sim_grads.c",
		.framework = "PyTorch DDP and FSDP, DeepSpeed ZeRO, "
		    "Megatron-LM",
	},
	{
		.axis = MESH_TP, .key = "tp", .label = "TP", .arg = "T",
		.help = N_("tensor-parallel degree"), .knob = N_("TP degree"),
		/* Innermost: two collectives per layer each way want NVLink
		 * ([NAR21] 3.3). */
		.nest = 0, .step = MESH_STEP_POW2, .cap = MESH_CAP_NODES8,
		.absorbs = 2, .follows_gpus = 0,
		.rules = MESH_RULE_HEADS | MESH_RULE_IN_NODE,
		/* All-reduce, or with sequence parallelism all-gather and
		 * reduce-scatter. */
		.collectives = MESH_COLL_ALLREDUCE | MESH_COLL_ALLGATHER |
		    MESH_COLL_REDUCESCATTER,
		.priced = "core/engine/costmodel_time.c",
		.simulated = "core/sim/sim_layer.c",
		.framework = "Megatron-LM",
	},
	{
		.axis = MESH_PP, .key = "pp", .label = "PP", .arg = "P",
		.help = N_("pipeline stages"), .knob = N_("PP degree"),
		.nest = 2, .step = MESH_STEP_EVERY, .cap = MESH_CAP_LAYERS,
		.absorbs = 1, .follows_gpus = 1,
		.rules = MESH_RULE_LAYERS,
		.collectives = MESH_COLL_SENDRECV,
		.priced = "core/engine/costmodel_time.c",
		.simulated = "core/sim/sim_exec.c",
		.framework = "Megatron-LM, DeepSpeed, PyTorch PiPPy",
	},
	{
		.axis = MESH_CP, .key = "cp", .label = "CP", .arg = "C",
		.help = N_("context-parallel degree (the sequence split)"),
		.knob = N_("CP degree"),
		/* Just outside TP, as Megatron-Core numbers ranks
		 * (tp-cp-ep-dp-pp, parallel_state.py): its K/V exchange
		 * every layer wants NVLink after TP's. */
		.nest = 1, .step = MESH_STEP_POW2, .cap = MESH_CAP_SEQ,
		.absorbs = 3, .follows_gpus = 0, .optional = 1,
		.rules = MESH_RULE_SEQ,
		/* K/V passed round a ring, all-gathered, or all-to-all
		 * (Ulysses); the gradients' all-reduce joins DP's. */
		.collectives = MESH_COLL_SENDRECV | MESH_COLL_ALLGATHER |
		    MESH_COLL_ALLTOALL,
		.priced = "core/engine/costmodel_cp.c",
		.simulated = "core/sim/sim_layer.c",
		.framework = "Megatron-Core, torchtitan, DeepSpeed-Ulysses",
	},
};

const struct mesh_axis_info *
mesh_axis(enum mesh_axis a)
{
	return &axes[(unsigned)a < MESH_N_AXES ? a : 0];
}

int
mesh_axis_parse(const char *key, enum mesh_axis *a)
{
	int i;

	for (i = 0; key != NULL && i < MESH_N_AXES; i++)
		if (strcmp(key, axes[i].key) == 0) {
			*a = axes[i].axis;
			return 0;
		}
	return -1;
}
