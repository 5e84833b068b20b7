/*
 * emit_sbatch.c - a Slurm batch script that launches a layout: one task
 * per node (#SBATCH --nodes, --ntasks-per-node=1, --gpus-per-node, as
 * sbatch(1) names them), each running torchrun with a process per GPU and
 * the c10d rendezvous on the first node (torch.distributed.run's
 * --nnodes, --nproc_per_node, --rdzv_id, --rdzv_backend, --rdzv_endpoint,
 * spelled with underscores, which every torchrun accepts). The
 * framework's config is written next to the script from a quoted here
 * document, so the script is the whole job.
 */
#include <stdio.h>

#include "i18n.h"
#include "core/engine/emit.h"

#define EOF_MARK	"PARLEARN_CONFIG"

static int
payload(FILE *fp, const struct cm_config *c, enum fw_id fw)
{
	static const char *const file[FW_N] = { "megatron-flags.txt",
		"ds_config.json", "job.toml" };
	int e = 0;

	e |= fprintf(fp, "cat > %s <<'%s'\n", file[fw], EOF_MARK) < 0;
	switch (fw) {
	case FW_MEGATRON:
		e |= emit_megatron(fp, c) != 0;
		break;
	case FW_DEEPSPEED:
		e |= emit_deepspeed(fp, c) != 0;
		break;
	default:
		e |= emit_torchtitan(fp, c) != 0;
		break;
	}
	e |= fprintf(fp, "%s\n\n", EOF_MARK) < 0;
	switch (fw) {
	case FW_MEGATRON:
		/* set -f: --moe-layer-freq's list is not a glob */
		e |= fprintf(fp, "# %s\nset -f\nsrun \"${launch[@]}\" "
		    "\"${MEGATRON:-.}/pretrain_gpt.py\" "
		    "$(grep -v '^#' megatron-flags.txt) \"$@\"\n",
		    _("add your --data-path and tokenizer flags after the "
		    "script's name")) < 0;
		break;
	case FW_DEEPSPEED:
		e |= fprintf(fp, "# %s\nsrun \"${launch[@]}\" "
		    "\"${TRAIN_SCRIPT:-train.py}\" --deepspeed "
		    "--deepspeed_config ds_config.json \"$@\"\n",
		    _("TRAIN_SCRIPT is your training script, which calls "
		    "deepspeed.initialize")) < 0;
		break;
	default:
		e |= fprintf(fp, "srun \"${launch[@]}\" -m torchtitan.train "
		    "--job.config_file job.toml \"$@\"\n") < 0;
		break;
	}
	return e;
}

int
emit_sbatch(FILE *fp, const struct cm_config *c, enum fw_id fw)
{
	int e = 0;

	e |= fprintf(fp, "#!/bin/bash\n") < 0;
	e |= emit_header(fp, c, _("Slurm batch script")) != 0;
	/* TRANSLATORS: %s is a framework's name. */
	e |= fprintf(fp, _("# It launches %s.\n"), fw_label(fw)) < 0;
	e |= fprintf(fp, "#SBATCH --job-name=parlearn-%s\n"
	    "#SBATCH --nodes=%d\n#SBATCH --ntasks-per-node=1\n"
	    "#SBATCH --gpus-per-node=%d\n#SBATCH --exclusive\n\n"
	    "set -eu\n"
	    "head_node=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | "
	    "head -n 1)\n"
	    "launch=(torchrun --nnodes=%d --nproc_per_node=%d "
	    "--rdzv_id=\"$SLURM_JOB_ID\" --rdzv_backend=c10d "
	    "--rdzv_endpoint=\"$head_node:29500\")\n\n",
	    emit_safe_name(c->model.name), emit_nodes(c),
	    emit_procs_per_node(c), emit_nodes(c),
	    emit_procs_per_node(c)) < 0;
	e |= payload(fp, c, fw);
	return e ? -1 : 0;
}
