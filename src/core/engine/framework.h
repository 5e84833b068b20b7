/*
 * framework.h - which training frameworks can run a layout.
 *
 * A layout the engine can price is not always one a team can launch:
 * Megatron-LM, DeepSpeed and PyTorch (FSDP2, torchtitan) each combine
 * ZeRO stages, pipeline schedules and sequence parallelism in their own
 * way. framework.c states each rule with the source line it comes from.
 * The search ranks by default only layouts some framework runs
 * (cm_config.any_framework lifts the rule). Pure logic, no allocation.
 */
#ifndef PARLEARN_CORE_FRAMEWORK_H
#define PARLEARN_CORE_FRAMEWORK_H

#include <stddef.h>

#include "core/engine/costmodel.h"

enum fw_id {
	FW_MEGATRON,		/* NVIDIA Megatron-LM (Megatron-Core) */
	FW_DEEPSPEED,		/* Microsoft DeepSpeed (+ Megatron-DeepSpeed) */
	FW_PYTORCH,		/* PyTorch DDP/FSDP2 and torch.distributed.pipelining
				 * as torchtitan composes them */
	FW_N
};

#define FW_BIT(id)	(1u << (id))
#define FW_ALL		((1u << FW_N) - 1)

/* Bit set of the frameworks that run cfg's layout (0: none does). */
unsigned	 fw_runs(const struct cm_config *cfg);

/* Stable id for JSON ("megatron", "deepspeed", "pytorch"). */
const char	*fw_name(enum fw_id);

/* Display name, translated ("Megatron-LM", "DeepSpeed", "PyTorch FSDP2"). */
const char	*fw_label(enum fw_id);

/* One-letter tag for narrow tables ("M", "D", "P"), translated. */
const char	*fw_short(enum fw_id);

/* The tags in mask run together ("MDP", "-" for none) into buf. */
char		*fw_short_text(unsigned mask, char *buf, size_t size);

/*
 * The display names in mask joined with ", " into buf ("Megatron-LM,
 * PyTorch FSDP2"); "-" when mask is 0. Returns buf.
 */
char		*fw_list_text(unsigned mask, char *buf, size_t size);

/*
 * Why no framework runs cfg, one translated sentence into buf (empty when
 * some framework does). Returns buf.
 */
char		*fw_why_none(const struct cm_config *cfg, char *buf,
		    size_t size);

/*
 * Set c's kernels, gradient and reduce dtypes, optimizer implementation
 * and pipeline sends as framework id runs them (framework_setup.c), except
 * those c->setup_set holds as given; c->framework becomes id's.
 */
void		 fw_setup_apply(struct cm_config *c, enum fw_id id);

/* 1 when a and b, the same layout, are priced alike (the same setup). */
int		 fw_setup_same(const struct cm_config *a,
		    const struct cm_config *b);

#endif
