/*
 * emit.h - a priced layout written as a framework reads it: torchtitan's
 * TOML job config, Megatron-LM's command-line flags, a DeepSpeed JSON
 * config, or a Slurm batch script that launches one of them.
 *
 * Every option and key name is the framework's own at a pinned release,
 * kept with its source in tests/data/frameworks/ (PROVENANCE.md), and
 * tests/emit-names.sh checks every emitted name against those sources:
 *   - torchtitan v0.2.2 (73a0e69), torchtitan/config/job_config.py: the
 *     last release read from TOML (#2386 moved to Python configs after);
 *   - Megatron-LM core_v0.15.3 (309ffca), megatron/training/arguments.py:
 *     the last release whose flags are literal there (later ones generate
 *     the same names from dataclasses);
 *   - DeepSpeed v0.18.9 (8c93851), deepspeed/runtime/constants.py,
 *     zero/config.py, tensor_parallel/config.py and config.py.
 * A layout the framework does not run, or one its config cannot say
 * (DeepSpeed's expert parallelism is set in the model code), is refused
 * with the reason. Pure logic over a FILE; no allocation.
 */
#ifndef PARLEARN_CORE_EMIT_H
#define PARLEARN_CORE_EMIT_H

#include <stddef.h>
#include <stdio.h>

#include "core/engine/costmodel.h"
#include "core/engine/framework.h"

enum emit_kind { EMIT_TORCHTITAN, EMIT_MEGATRON, EMIT_DEEPSPEED,
	EMIT_SBATCH, EMIT_N };

#define EMIT_WHY_LEN	256

/* "torchtitan", "megatron", "deepspeed", "sbatch"; NULL-terminated. */
extern const char *const emit_kind_names[EMIT_N + 1];

/* 0, or -1 for an unknown name. */
int	emit_kind_parse(const char *, enum emit_kind *);

/*
 * The framework an sbatch script launches for c: the one c is priced as
 * when given, else the first of Megatron-LM, torchtitan, DeepSpeed whose
 * config can say c. -1 when none can (why filled, as emit_refuse).
 */
int	emit_sbatch_framework(const struct cm_config *c, char *why,
	    size_t size);

/*
 * 0 when kind can write c's layout; else 1 with one translated sentence
 * in why saying what stops it.
 */
int	emit_refuse(const struct cm_config *c, enum emit_kind kind, char *why,
	    size_t size);

/*
 * Write c (a layout emit_refuse accepts) as kind reads it to fp. Returns
 * 0, or -1 when a write failed (errno as the stdio call left it).
 */
int	emit_write(FILE *fp, const struct cm_config *c, enum emit_kind kind);

/* The parts, emit_*.c; each assumes emit_refuse accepted c. */
int	emit_torchtitan(FILE *fp, const struct cm_config *c);
int	emit_megatron(FILE *fp, const struct cm_config *c);
int	emit_deepspeed(FILE *fp, const struct cm_config *c);
int	emit_sbatch(FILE *fp, const struct cm_config *c, enum fw_id fw);

/* Shared by the parts (emit.c). */
int	emit_nodes(const struct cm_config *c);		/* nodes the job takes */
int	emit_procs_per_node(const struct cm_config *c);	/* GPUs used per node */
long	emit_accumulation(const struct cm_config *c);	/* micro-batches per
							 * DP rank and step */
int	emit_hsdp_shard(const struct cm_config *c);	/* HSDP shard group */
/* Megatron's decoder layers on the first and last stage: 0 even, 1 set,
 * -1 not sayable (emit.c). */
int	emit_megatron_split(const struct cm_config *c, int *first, int *last);
/* s when it is a plain name ([A-Za-z0-9._+-]), else "custom". */
const char	*emit_safe_name(const char *s);
/* "# <what>, written by parlearn plan: ..." and the layout, two lines. */
int	emit_header(FILE *fp, const struct cm_config *c, const char *what);
/* torchtitan's model name and flavor for c's preset; 0 if none. */
int	emit_torchtitan_model(const struct cm_config *c, const char **name,
	    const char **flavor);

#endif
