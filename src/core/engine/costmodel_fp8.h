/*
 * costmodel_fp8.h - FP8 training (--precision fp8): the linear layers'
 * products in FP8, their amax and cast kernels, the FP8 weight copies,
 * FP8 all-gathers under FSDP2 and which framework runs which recipe.
 * costmodel_fp8.c states each rule with its source.
 */
#ifndef PARLEARN_CORE_COSTMODEL_FP8_H
#define PARLEARN_CORE_COSTMODEL_FP8_H

#include "core/engine/costmodel_int.h"

/*
 * Sustained fraction of the FP8 peak a large FP8 product reaches, over
 * the fraction a bf16 product reaches of the bf16 peak (see the .c).
 */
#define CM_FP8_GEMM_REL		0.85

/*
 * FP8 attention's forward over the bf16 flash kernel's fraction of its
 * peak: FlashAttention-3's 1.2 PFLOP/s of 1,979 against 740 of 989.
 */
#define CM_FP8_ATTN_REL		((1200.0 / 1979) / (740.0 / 989))

/* Speed of the attention forward over bf16's (1 without FP8 attention). */
double	cm_fp8_attn_speedup(const struct cm_config *);

/* 1 when cfg trains in FP8. */
int	cm_fp8(const struct cm_config *);

/*
 * Refuse FP8 where the GPU cannot run it: no FP8 tensor cores, or MXFP8
 * without block-scaled tensor cores. 0, or -1 with err naming the GPU.
 */
int	cm_fp8_check(const struct cm_config *, struct pl_err *err);

/* One FP8 product M x K by K x N on cfg's GPU, one of `groups` launched
 * together (cm_gemm_eta_of), s. */
double	cm_fp8_gemm_s(const struct cm_config *, double m, double k, double n,
	    double groups);

/* A linear layer's forward product and its two backward products, s. */
void	cm_fp8_linear_s(const struct cm_config *, double m, double k, double n,
	    double groups, double *fwd, double *bwd);

/*
 * Amax and cast traffic of one linear layer M x K by K x N for one
 * micro-batch of m per step: HBM bytes forward and backward and the
 * kernels that move them (cm_elem, added to).
 */
void	cm_fp8_cast_elem(const struct cm_config *, double m, double k,
	    double n, struct cm_elem *x);

/* The casts of every FP8 product of one layer (added to x). */
void	cm_fp8_layer_elem(const struct cm_config *, struct cm_elem *x);

/* Parameters of one layer's linear weights on one TP rank. */
double	cm_fp8_layer_linear_params(const struct cm_config *);

/*
 * FP8 copies of the weights a GPU holds for a stage of `layers` layers,
 * bytes (scale: a given parameter count over the derived one).
 */
double	cm_fp8_weight_bytes(const struct cm_config *, int layers,
	    double scale);

/* Activation bytes one layer saves in FP8 instead of bf16, per micro-batch. */
double	cm_fp8_act_saving(const struct cm_config *);

/* ZeRO-3 weight all-gather bytes over their bf16 bytes (1 without FP8). */
double	cm_fp8_gather_scale(const struct cm_config *);

/* FW_BIT set of the frameworks that run cfg's FP8 recipe (all without). */
unsigned	cm_fp8_frameworks(const struct cm_config *);

#endif
