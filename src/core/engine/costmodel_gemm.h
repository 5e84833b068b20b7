/*
 * costmodel_gemm.h - GEMM efficiency from wave and tile quantization and
 * the memory bound (costmodel_gemm.c).
 *
 * The engine's default (--gemm-model combined) prices a product at the
 * lower of the two efficiencies: the shape rule cm_gemm_eta, fitted on
 * reference/h100-gemm.md, and the tile model here. The rule is the closer
 * on that table (rms 5.6 % against 7.4 %; the slower of the two 5.8 %),
 * whose shapes fill their waves; the tile model adds what the table does
 * not probe, the SMs a product with few output tiles leaves idle (a small
 * micro-batch, a narrow TP slice, an expert's few tokens). Alone, the
 * tile model runs 3-7 % faster than the rule at the large products of the
 * A100 Megatron rows, which the rule already prices 9-14 % fast, so it
 * stays an option (--gemm-model tiled), as does the rule alone.
 */
#ifndef PARLEARN_CORE_COSTMODEL_GEMM_H
#define PARLEARN_CORE_COSTMODEL_GEMM_H

#include "core/engine/hardware.h"

/* Fraction of g's dense peak an M x K by K x N bf16 product reaches. */
double	cm_gemm_eta_tiled(const struct hw_gpu *g, double m, double k,
	    double n);

/*
 * The same for `groups` such products in one launch (a grouped GEMM over
 * experts, a batched product over heads): their tiles share the waves.
 */
double	cm_gemm_eta_tiled_grouped(const struct hw_gpu *g, double m, double k,
	    double n, double groups);

/* The default: the lower of cm_gemm_eta and the grouped tile model. */
double	cm_gemm_eta_combined(const struct hw_gpu *g, double m, double k,
	    double n, double groups);

#endif
