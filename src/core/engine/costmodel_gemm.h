/*
 * costmodel_gemm.h - GEMM efficiency from wave and tile quantization and
 * the memory bound (costmodel_gemm.c).
 *
 * Not yet wired into the step time: the engine still prices products with
 * cm_gemm_eta (costmodel_time.c). Pricing with this model moves the
 * calibration set 3-7 % faster (issue 25 part 6 report), past the 15 %
 * bound on some published runs, until the host and framework terms of
 * issue 25 land.
 */
#ifndef PARLEARN_CORE_COSTMODEL_GEMM_H
#define PARLEARN_CORE_COSTMODEL_GEMM_H

#include "core/engine/hardware.h"

/* Fraction of g's dense peak an M x K by K x N bf16 product reaches. */
double	cm_gemm_eta_tiled(const struct hw_gpu *g, double m, double k,
	    double n);

#endif
