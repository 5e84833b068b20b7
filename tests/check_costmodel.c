/*
 * check_costmodel.c - the cost model held to published numbers
 * (reference/costmodel.md): ZeRO's worked example, preset parameter counts,
 * the Megatron and PaLM FLOP formulas, [KOR22]'s activation memory, bubble
 * shares, collective times, ZeRO / FSDP / HSDP traffic with micro-batches,
 * memory as frameworks hold it, and the time of non-matmul work. The
 * end-to-end calibration is in check_calibration.c.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/hardware.h"
#include "catfix.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

#define MIB	1048576.0
#define GIB	1073741824.0

static void
cfg_for(struct cm_config *c, const char *model, const char *gpu)
{
	const struct hw_model *m = hw_model_find(&cat, model);
	const struct hw_gpu *g = hw_gpu_find(&cat, gpu);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(g);
	cm_config_default(c, m, g);
}

static void
layout(struct cm_config *c, int d, int t, int p)
{
	c->dp = d;
	c->tp = t;
	c->pp = p;
	c->gpus = d * t * p;
}

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

START_TEST(zero_worked_example)
{
	/* [ZERO] Figure 1: Psi = 7.5B, N_d = 64, K = 12. */
	static const double want[] = { 120.0, 31.41, 16.64, 1.875 };
	struct cm_config c;
	struct cm_result r;
	double gb;
	int z;

	cfg_for(&c, "megatron-7.5b", "a100-80gb");
	c.model.params = 7.5e9;
	layout(&c, 64, 1, 1);
	for (z = 0; z <= 3; z++) {
		c.zero = z;
		eval(&c, &r);
		ck_assert_int_eq(cm_quantity(&r, "model_state_gb", &gb), 0);
		ck_assert_double_eq_tol(gb, want[z], 0.01);
	}
}
END_TEST

START_TEST(sixteen_bytes_rule)
{
	struct cm_config c;
	struct cm_result r;
	double gb;

	cfg_for(&c, "llama2-7b", "a100-80gb");
	c.model.params = 7e9;
	eval(&c, &r);
	ck_assert_int_eq(cm_quantity(&r, "model_state_gb", &gb), 0);
	ck_assert_double_eq_tol(gb, 112.0, 1e-6);
	ck_assert_int_eq(r.fits, 0);
}
END_TEST

START_TEST(preset_params)
{
	static const struct { const char *m; double b; double tol; } t[] = {
		{ "gpt3-175b", 174.60, 0.02 }, { "llama2-7b", 6.738, 0.001 },
		{ "llama2-13b", 13.016, 0.001 }, { "llama2-70b", 68.977, 0.001 },
		{ "llama3-8b", 8.030, 0.001 }, { "llama3-70b", 70.554, 0.001 },
		{ "llama3-405b", 405.853, 0.001 },
		{ "bloom-176b", 176.247, 0.001 },
		{ "gpt-neox-20b", 20.555, 0.001 },
		{ "mt-nlg-530b", 529.60, 0.01 }, { "megatron-1t", 1008.04, 0.01 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		const struct hw_model *m = hw_model_find(&cat, t[i].m);

		ck_assert_ptr_nonnull(m);
		ck_assert_msg(fabs(cm_params(m) / 1e9 - t[i].b) <= t[i].tol,
		    "%s: %.4f B", t[i].m, cm_params(m) / 1e9);
	}
}
END_TEST

START_TEST(megatron_flops)
{
	const struct hw_model *m = hw_model_find(&cat, "gpt3-175b");
	double B = 1536, s = 2048, L = 96, h = 12288, V = 51200;
	double f72 = 72 * B * s * L * h * h * (1 + s / (6 * h) +
	    V / (12 * L * h));
	double f96 = 96 * B * s * L * h * h * (1 + s / (6 * h) +
	    V / (16 * L * h));
	/* Reference c, general form: selective adds one attention-core
	 * forward, 4 B s^2 L h. (Its [KOR22] eq. 8 row, s/(3h), adds 12 B s^2
	 * L h instead; the engine follows the general form.) */
	double fsel = f72 + 4 * B * s * s * L * h;

	/* [KOR22] eq. 7, [NAR21] eq. 3 vs the general form. */
	ck_assert_double_eq_tol(cm_flops_model(m, B) / f72, 1.0, 1e-12);
	ck_assert_double_eq_tol(cm_flops_hw(m, B, CM_RECOMPUTE_FULL) / f96,
	    1.0, 1e-12);
	ck_assert_double_eq_tol(cm_flops_hw(m, B, CM_RECOMPUTE_SELECTIVE) /
	    fsel, 1.0, 1e-12);
	ck_assert_double_eq(cm_flops_hw(m, B, CM_RECOMPUTE_NONE),
	    cm_flops_model(m, B));
	/* [PALM] App. B: 6N + 12 L H Q T per token. */
	ck_assert_double_eq_tol(cm_flops_model(m, 1) / s / 1e12, 1.0764,
	    5e-5);
}
END_TEST

/* GPT-3, s = 2048, b = 1, t = 8, plain attention ([KOR22] Table 2). */
static double
act_mib(int tp, int sp, enum cm_recompute rc)
{
	struct cm_config c;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	c.kernels = CM_KERNELS_FUSED;	/* [KOR22] counts Megatron's */
	c.attention = CM_ATTN_PLAIN;
	c.tp = tp;
	c.seq_parallel = sp;
	c.recompute = rc;
	return cm_act_layer_bytes(&c) / MIB;
}

START_TEST(activation_per_layer)
{
	ck_assert_double_eq_tol(act_mib(1, 0, CM_RECOMPUTE_NONE), 2736, 1e-9);
	ck_assert_double_eq_tol(act_mib(8, 0, CM_RECOMPUTE_NONE), 552, 1e-9);
	ck_assert_double_eq_tol(act_mib(8, 1, CM_RECOMPUTE_NONE), 342, 1e-9);
	ck_assert_double_eq_tol(act_mib(8, 0, CM_RECOMPUTE_SELECTIVE), 312,
	    1e-9);
	ck_assert_double_eq_tol(act_mib(8, 1, CM_RECOMPUTE_SELECTIVE), 102,
	    1e-9);
	ck_assert_double_eq_tol(act_mib(1, 0, CM_RECOMPUTE_FULL), 48, 1e-9);
}
END_TEST

START_TEST(activation_stage0)
{
	struct cm_config c;
	double one, il;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	c.kernels = CM_KERNELS_FUSED;
	c.tp = 8;
	c.pp = 8;
	c.seq_parallel = 1;
	c.recompute = CM_RECOMPUTE_SELECTIVE;
	/* [KOR22] 4.2.3: stage 0 holds L layers' worth under 1F1B. */
	one = cm_act_layer_bytes(&c) * cm_inflight_layers(&c, 0, 12, 64);
	ck_assert_double_eq_tol(one / GIB, 9.5625, 1e-9);
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 3;
	il = cm_act_layer_bytes(&c) * cm_inflight_layers(&c, 0, 12, 64);
	ck_assert_double_eq_tol(il / one, 1 + 7.0 / 24, 1e-12);
	c.schedule = PIPE_GPIPE;
	c.virtual_stages = 1;
	ck_assert_double_eq(cm_inflight_layers(&c, 0, 12, 64), 64.0 * 12);
}
END_TEST

START_TEST(gpipe_one_stage)
{
	/* With one stage there is no pipeline: gradient accumulation runs
	 * each micro-batch's forward and backward in turn, so one
	 * micro-batch's activations are live whatever the schedule says. */
	struct cm_config c;
	struct cm_result f, g;

	cfg_for(&c, "llama2-7b", "h100-80gb");
	layout(&c, 8, 1, 1);
	c.micro_batch = 1;
	c.global_batch = 256;
	c.schedule = PIPE_1F1B;
	eval(&c, &f);
	ck_assert_int_eq(f.microbatches, 32);
	c.schedule = PIPE_GPIPE;
	eval(&c, &g);
	ck_assert_double_eq_tol(g.mem_act, f.mem_act, 1);
	ck_assert_double_eq(cm_inflight_layers(&c, 0, 32, 32), 32);
	/* with stages, GPipe still holds all m */
	layout(&c, 4, 1, 2);
	c.global_batch = 128;
	eval(&c, &g);
	ck_assert_double_eq(cm_inflight_layers(&c, 0, 16, 32), 32.0 * 16);
}
END_TEST

START_TEST(bubble_examples)
{
	ck_assert_double_eq_tol(pipe_bubble_fraction(8, 64, 1), 0.098592, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(8, 64, 3), 0.035176, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(4, 8, 1), 0.272727, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(4, 8, 2), 0.157895, 1e-6);
	ck_assert_double_eq_tol(pipe_bubble_fraction(16, 32, 1), 0.319149,
	    1e-6);
	ck_assert_double_eq(pipe_bubble_fraction(1, 64, 1), 0.0);
}
END_TEST

START_TEST(collective_times)
{
	double S = 2.0 * 2048 * 12288;

	ck_assert_double_eq(S, 50331648.0);
	ck_assert_double_eq_tol(cm_allreduce_s(S, 8, 300e9, 0) * 1e6, 293.6,
	    0.05);
	ck_assert_double_eq_tol(cm_sendrecv_s(S, 25e9, 0) * 1e3, 2.0133,
	    1e-4);
	ck_assert_double_eq_tol(cm_sendrecv_s(S / 8, 25e9, 0) * 1e3, 0.2517,
	    1e-4);
	ck_assert_double_eq_tol(cm_allreduce_s(2 * 174.6e9 / 64, 16, 25e9, 0),
	    0.4092, 1e-4);
}
END_TEST

START_TEST(step_consistency)
{
	struct cm_config c;
	struct cm_result r;
	double v;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	layout(&c, 16, 8, 8);
	eval(&c, &r);
	ck_assert_double_eq_tol(r.t_step, r.t_compute + r.t_exposed_comm +
	    r.t_comm_slowed + r.t_bubble + r.t_optimizer, 1e-12);
	/* the DP gradient all-reduce hides behind the last backward and
	 * slows it by CM_COMM_SM_SHARE of the time it runs there */
	ck_assert(r.t_comm_slowed > 0);
	ck_assert_double_eq_tol(r.t_comm_slowed, 0.15 * (r.t_dp -
	    r.t_dp_exposed), 1e-12);
	ck_assert_double_eq_tol(r.t_bubble / (r.t_step - r.t_dp_exposed -
	    r.t_comm_slowed - r.t_optimizer), r.bubble_fraction, 1e-12);
	ck_assert_double_eq_tol(r.tokens_per_s, 1536.0 * 2048 / r.t_step, 1e-6);
	ck_assert_int_eq(cm_quantity(&r, "mfu", &v), 0);
	ck_assert_double_eq(v, r.mfu);
	ck_assert_int_eq(cm_quantity(&r, "no_such", &v), -1);
	ck_assert_int_eq(r.tp_inter, 0);
	ck_assert_int_eq(r.pp_inter, 1);
}
END_TEST

/* ---- sharding, memory and compute ---- */

/* DP bytes one GPU sends per step, in units of (n-1)/n x 2 Psi bytes. */
static double
dp_volume(const char *model, int d, int p, int zero, long B, int reshard,
    struct cm_result *r)
{
	struct cm_config c;

	cfg_for(&c, model, "a100-80gb");
	layout(&c, d, 1, p);
	c.zero = zero;
	c.global_batch = B;
	c.reshard_after_forward = reshard;
	eval(&c, r);
	return r->dp_bytes / (2.0 * r->params_gpu * (d - 1.0) / d);
}

START_TEST(zero_volumes_one_microbatch)
{
	/* [ZERO] 7: stages 1 and 2 move what DP moves (2 Psi), stage 3
	 * adds a parameter all-gather: 3 Psi, 1.5x DP. */
	static const double want[] = { 2, 2, 2, 3 };
	struct cm_result r;
	int z;

	for (z = 0; z <= 3; z++) {
		ck_assert_double_eq_tol(dp_volume("llama2-7b", 64, 1, z, 64, 1,
		    &r), want[z], 1e-9);
		ck_assert_int_eq(r.microbatches, 1);
	}
}
END_TEST

START_TEST(zero_volumes_accumulation)
{
	/* m = 8 micro-batches: DP and ZeRO-1 reduce once; ZeRO-2 reduces
	 * every micro-batch (DeepSpeed stage_1_and_2.py) and gathers once:
	 * (m + 1) Psi; ZeRO-3 gathers twice and reduces every micro-batch:
	 * 3 m Psi, 2 m Psi without resharding after the forward. */
	struct cm_result r, r1;
	double m = 8;

	ck_assert_double_eq_tol(dp_volume("llama2-7b", 64, 1, 0, 512, 1, &r),
	    2, 1e-9);
	ck_assert_int_eq(r.microbatches, 8);
	ck_assert_double_eq_tol(dp_volume("llama2-7b", 64, 1, 1, 512, 1, &r),
	    2, 1e-9);
	ck_assert_double_eq_tol(dp_volume("llama2-7b", 64, 1, 2, 512, 1, &r),
	    m + 1, 1e-9);
	ck_assert_double_eq_tol(dp_volume("llama2-7b", 64, 1, 3, 512, 1, &r),
	    3 * m, 1e-9);
	ck_assert_double_eq_tol(dp_volume("llama2-7b", 64, 1, 3, 512, 0, &r1),
	    2 * m, 1e-9);
	ck_assert(r1.t_dp < r.t_dp);
	ck_assert_int_eq(r.dp_collectives, 3 * 8 * r.stage_layers);
	/* Under PP, PyTorch's pipelining gathers once and reduces once. */
	ck_assert_double_eq_tol(dp_volume("llama2-7b", 16, 4, 3, 512, 1, &r),
	    2, 1e-9);
}
END_TEST

START_TEST(zero3_latency_at_scale)
{
	/* Same model, one micro-batch each, per-GPU volume ~3 Psi at any
	 * scale; the per-layer collectives pay a ring latency that grows
	 * with the ranks (NCCL tuning.cc), so 1536 GPUs spend longer in
	 * ZeRO-3 traffic than 384 do. */
	struct cm_config c;
	struct cm_result a, b;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	layout(&c, 384, 1, 1);
	c.zero = 3;
	c.micro_batch = 4;
	eval(&c, &a);
	layout(&c, 1536, 1, 1);
	c.micro_batch = 1;
	eval(&c, &b);
	ck_assert_int_eq(a.dp_collectives, b.dp_collectives);
	ck_assert_double_eq_tol(b.dp_bytes / a.dp_bytes, 1, 0.01);
	ck_assert(b.t_dp > 1.2 * a.t_dp);
	ck_assert(b.t_dp / b.t_step > 2 * a.t_dp / a.t_step);
}
END_TEST

START_TEST(zero3_per_tensor_gathers)
{
	/* DeepSpeed's 2021 ZeRO-3 (weight_gather = param): one all-gather
	 * per weight tensor, 12 per GPT layer (fused QKV, projection, two MLP
	 * products, their biases, two LayerNorms' weights and biases), twice
	 * per micro-batch, none hidden behind compute even with DP overlap
	 * on; each pays the ring latency and a host copy of every rank's
	 * chunk (kernel_issue_s each). Same bytes as per-layer gathers. */
	struct cm_config c;
	struct cm_result l, p;
	double floor;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	layout(&c, 1536, 1, 1);
	c.zero = 3;
	c.kernels = CM_KERNELS_FUSED;
	c.recompute = CM_RECOMPUTE_FULL;
	eval(&c, &l);
	c.weight_gather = CM_GATHER_PARAM;
	eval(&c, &p);
	ck_assert_int_eq(l.dp_collectives, 96 * 3);
	ck_assert_int_eq(p.dp_collectives, 96 * (2 * 12 + 1));
	ck_assert_double_eq_tol(p.dp_bytes / l.dp_bytes, 1, 1e-9);
	ck_assert(l.t_dp_exposed < l.t_dp);
	ck_assert(c.dp_overlap);
	/* the gathers are all exposed; the bucketed reduce-scatter is not */
	ck_assert(p.t_dp_exposed > p.t_dp - (l.t_dp - 0));
	floor = 2.0 * 96 * 12 * (1536 * c.kernel_issue_s + c.coll_base_s);
	ck_assert(p.t_dp - l.t_dp > floor);
	ck_assert(p.t_step > 1.5 * l.t_step);
	/* without ZeRO-3 the setting changes nothing */
	c.zero = 1;
	eval(&c, &p);
	c.weight_gather = CM_GATHER_LAYER;
	eval(&c, &l);
	ck_assert_double_eq(p.t_step, l.t_step);
}
END_TEST

START_TEST(llama3_chunks)
{
	/* [LLAMA3] 3.3.2: 126 layers on 16 ranks, one layer fewer on the
	 * first and the last stage, the first chunk of stage 0 holding only
	 * the embedding. Megatron's interleaved schedule runs (p-r-1) 2 +
	 * (v-1) p + 1 chunk forwards before the first backward, the k-th on
	 * chunk (k mod p v) / p. v = 8 (one layer a chunk): stage 0 holds
	 * 7 x 16 layer-forwards (its 31 embedding-only chunks hold none),
	 * stage 1 141; v = 2: stage 0 16 x 3 + 16 x 4 + 15 x 3 = 157, stage 1
	 * 45 x 4 = 180. */
	struct cm_config c;
	struct pl_err err;

	cfg_for(&c, "llama3-405b", "h100-80gb");
	layout(&c, 64, 8, 16);
	c.global_batch = 2048;
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 8;
	ck_assert_int_eq(cm_validate(&c, &err), 0);
	ck_assert_double_eq(cm_inflight_layers(&c, 0, 7, 32), 112);
	ck_assert_double_eq(cm_inflight_layers(&c, 1, 8, 32), 141);
	ck_assert_double_eq(cm_inflight_layers(&c, 15, 7, 32), 16 * 7);
	c.virtual_stages = 2;
	ck_assert_double_eq(cm_inflight_layers(&c, 0, 7, 32), 157);
	ck_assert_double_eq(cm_inflight_layers(&c, 1, 8, 32), 180);
	/* fewer micro-batches than the warm-up: all of them in flight */
	ck_assert_double_eq(cm_inflight_layers(&c, 1, 8, 4), 4 * 8);
	/* 1F1B has no embedding-only chunks: a stage needs a layer */
	c.schedule = PIPE_1F1B;
	c.virtual_stages = 1;
	layout(&c, 1, 1, 127);
	c.global_batch = 127;
	ck_assert_int_eq(cm_validate(&c, &err), -1);
}
END_TEST

START_TEST(hsdp_traffic)
{
	/* 32 H100s = 4 nodes with 100 Gb/s per GPU (fms-fsdp's 800 Gb/s per
	 * node). FSDP shards over all 32; HSDP shards over the 8 of a node
	 * (NVLink) and all-reduces each 1/8 gradient shard across the 4
	 * nodes once per step. */
	struct cm_config c;
	struct cm_result f, h;
	double psi;

	cfg_for(&c, "llama2-7b", "h100-80gb");
	layout(&c, 32, 1, 1);
	c.inter_bw = 12.5e9;
	c.zero = 3;
	c.global_batch = 64;	/* m = 2 */
	eval(&c, &f);
	c.hsdp = 1;
	eval(&c, &h);
	psi = h.params_gpu;
	ck_assert_double_eq_tol(f.mem_optim, 12 * psi / 32, 1);
	ck_assert_double_eq_tol(h.mem_optim, 12 * psi / 8, 1);
	ck_assert_double_eq_tol(h.dp_bytes, 2 * (3 * 2 * psi * 7 / 8) +
	    2 * (2 * psi / 8) * 3 / 4, 1e3);
	ck_assert(h.t_dp < f.t_dp);
	ck_assert(h.mem_total > f.mem_total);
}
END_TEST

START_TEST(reshard_memory)
{
	/* reshard_after_forward = false keeps every gathered layer from
	 * the forward to the backward: less traffic, ZeRO-2-like memory. */
	struct cm_config c;
	struct cm_result a, b;
	double layer;

	cfg_for(&c, "llama2-13b", "h100-80gb");
	layout(&c, 16, 1, 1);
	c.zero = 3;
	eval(&c, &a);
	c.reshard_after_forward = 0;
	eval(&c, &b);
	layer = 2 * (b.params_gpu - 2.0 * 32000 * 5120) / 40;
	ck_assert(b.mem_other - a.mem_other > 37 * layer);
	ck_assert(b.dp_bytes < a.dp_bytes);
}
END_TEST

START_TEST(dropout_memory)
{
	/* [KOR22] 4.1 counts 1-byte dropout masks (2 of the 10 sbh outside
	 * TP) and, for plain attention, the mask and output of attention
	 * dropout (3 of the 5 a s^2 b); without dropout neither is kept. */
	struct cm_config c;
	double with, without, sbh = 2048.0 * 12288;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	c.kernels = CM_KERNELS_FUSED;
	ck_assert_int_eq(c.model.dropout, 1);
	c.tp = 8;
	c.seq_parallel = 1;
	with = cm_act_layer_bytes(&c);
	c.model.dropout = 0;
	without = cm_act_layer_bytes(&c);
	ck_assert_double_eq_tol(with - without, 2 * sbh / 8, 1e-6);
	c.tp = 1;
	c.seq_parallel = 0;
	c.recompute = CM_RECOMPUTE_NONE;
	c.attention = CM_ATTN_PLAIN;
	without = cm_act_layer_bytes(&c);
	c.model.dropout = 1;
	with = cm_act_layer_bytes(&c);
	ck_assert_double_eq_tol(with - without, 2 * sbh + 3.0 * 96 * 2048 *
	    2048, 1e-6);
	ck_assert_int_eq(hw_model_find(&cat, "llama3-405b")->dropout, 0);
	ck_assert_int_eq(hw_model_find(&cat, "megatron-1t")->dropout, 1);
}
END_TEST

START_TEST(framework_memory)
{
	/* CUDA context and workspaces (1 GB), NCCL's buffers per
	 * communicator (0.6 GB), and the 5 % reserve for fragmentation:
	 * a few GB on an 80 GB GPU before any model state. */
	struct cm_config c;
	struct cm_result one, three;
	double held;

	cfg_for(&c, "llama2-7b", "h100-80gb");
	eval(&c, &one);
	ck_assert_double_eq_tol(one.mem_other, 1e9, 1);
	layout(&c, 2, 2, 2);
	c.global_batch = 16;
	eval(&c, &three);
	ck_assert_double_eq_tol(three.mem_other, 1e9 + 3 * 0.6e9, 1);
	held = three.mem_other + three.mem_gpu - three.mem_usable;
	ck_assert(held > 5e9 && held < 10e9);
}
END_TEST

START_TEST(tp_overlap_switch)
{
	struct cm_config c;
	struct cm_result off, on;

	cfg_for(&c, "llama3-70b", "h100-80gb");
	layout(&c, 4, 4, 4);
	c.global_batch = 128;
	c.seq_parallel = 1;
	eval(&c, &off);
	ck_assert_double_eq(off.t_tp_exposed, off.t_tp);
	ck_assert_int_eq(c.tp_overlap, 0);
	c.tp_overlap = 1;
	eval(&c, &on);
	ck_assert_double_eq(on.t_tp, off.t_tp);
	ck_assert(on.t_tp_exposed < 0.1 * on.t_tp);
	ck_assert(on.t_step < off.t_step);
}
END_TEST

START_TEST(non_matmul_time)
{
	/* Memory-bound work scales with HBM bandwidth, not FLOP/s, and the
	 * optimizer step reads and writes ~34 bytes per parameter it owns
	 * (reference j.1) plus the gradient buffer it clears. */
	struct cm_config c;
	struct cm_result a, h;

	cfg_for(&c, "llama2-7b", "a100-80gb");
	c.global_batch = 8;
	c.kernels = CM_KERNELS_FUSED;
	eval(&c, &a);
	ck_assert(a.t_elementwise > 0.03 * a.t_compute);
	ck_assert_double_eq_tol(a.t_optimizer, (34 * a.params_gpu +
	    a.mem_grads) / (0.9 * 2039e9), 1e-9);
	/* PyTorch's foreach AdamW: 8 passes over fp32 weights, gradients
	 * and moments (80 bytes) and clip_grad_norm_ (12); gradients are
	 * set to None, not cleared */
	c.kernels = CM_KERNELS_EAGER;
	eval(&c, &h);
	ck_assert_double_eq_tol(h.t_optimizer, 92 * h.params_gpu /
	    (0.9 * 2039e9), 1e-9);
	c.kernels = CM_KERNELS_FUSED;
	cfg_for(&c, "llama2-7b", "h100-80gb");
	c.global_batch = 8;
	c.kernels = CM_KERNELS_FUSED;
	eval(&c, &h);
	ck_assert_double_eq_tol(a.t_elementwise / h.t_elementwise,
	    3350.0 / 2039, 1e-9);
	layout(&c, 8, 1, 1);
	c.zero = 1;
	eval(&c, &h);	/* ZeRO-1: each GPU steps 1/8 of the weights */
	ck_assert(h.t_optimizer < 0.3 * a.t_optimizer * 2039 / 3350);
}
END_TEST

START_TEST(single_gpu_step)
{
	/* A 1.2B Llama-shaped model (16 layers, h 2048, GQA 32/8, SwiGLU
	 * 8192, vocab 128256, tied) on one H100, 4 x 2048 tokens, AdamW, as
	 * three frameworks run it. PyTorch eager moves several times the
	 * element-wise bytes of fused kernels (composite RMSNorm, rotary and
	 * SwiGLU, fp32 cross-entropy over 128k logits, foreach AdamW), which
	 * at h = 2048 is a large part of the step; torch.compile fuses the
	 * chains but keeps the loss small and the optimizer as eager. */
	struct cm_config c;
	struct cm_result r[3];
	struct hw_model m = *hw_model_find(&cat, "llama3-8b");
	static const char *const name[] = { "eager", "compiled", "fused" };
	int k;

	m.layers = 16;
	m.hidden = 2048;
	m.ffn = 8192;
	m.seq = 2048;
	m.tied = 1;
	cm_config_default(&c, &m, hw_gpu_find(&cat, "h100-80gb"));
	ck_assert_int_eq(c.kernels, CM_KERNELS_EAGER);
	c.global_batch = 4;
	c.micro_batch = 4;
	for (k = 0; k < 3; k++) {
		c.kernels = (enum cm_kernels)k;
		eval(&c, &r[k]);
		printf("single H100, 1.2B model, 8k tokens, %-8s: step %.3f s, "
		    "MFU %.1f%% (matmuls %.3f s, attention %.3f s, element-"
		    "wise %.3f s, optimizer %.3f s), %.1f GB\n", name[k],
		    r[k].t_step, 100 * r[k].mfu, r[k].t_gemm, r[k].t_attn,
		    r[k].t_elementwise, r[k].t_optimizer, r[k].mem_total / 1e9);
		ck_assert(r[k].fits);
	}
	ck_assert(r[0].t_step > r[1].t_step && r[1].t_step > r[2].t_step);
	ck_assert(r[0].t_elementwise > 2.5 * r[2].t_elementwise);
	ck_assert(r[0].t_optimizer > 2.5 * r[2].t_optimizer);
	ck_assert(r[0].t_elementwise + r[0].t_optimizer > 0.3 * r[0].t_step);
	ck_assert(r[0].mem_act > r[1].mem_act);
	/* separate Q, K, V and gate/up products run smaller shapes */
	ck_assert(r[1].t_gemm > r[2].t_gemm);
}
END_TEST

START_TEST(kernel_issue_bound)
{
	/* A toy model's kernels finish faster than the host issues them:
	 * the step is then the issue time, not the GPU time. */
	struct cm_config c;
	struct cm_result r;
	struct hw_model m = *hw_model_find(&cat, "llama2-7b");

	m.layers = 4;
	m.hidden = 256;
	m.heads = m.kv_heads = 4;
	m.ffn = 1024;
	m.seq = 128;
	m.vocab = 1000;
	cm_config_default(&c, &m, hw_gpu_find(&cat, "h100-80gb"));
	c.global_batch = 1;
	eval(&c, &r);
	ck_assert(r.t_overhead > 0);
	ck_assert(r.t_overhead > r.t_gemm);
	ck_assert(r.t_compute >= r.t_gemm + r.t_attn + r.t_elementwise);
}
END_TEST

/* ---- search ---- */

START_TEST(search_properties)
{
	struct cm_search *s = malloc(sizeof *s);
	struct cm_config c;
	struct pl_err err;
	int i;

	ck_assert_ptr_nonnull(s);
	cfg_for(&c, "llama2-70b", "h100-80gb");
	c.gpus = 64;
	ck_assert_int_eq(cm_search(&c, 10, s, &err), 0);
	ck_assert_int_gt(s->evaluated, 1000);
	ck_assert_int_eq(s->n_top, 10);
	for (i = 0; i < s->n_top; i++) {
		ck_assert(s->top[i].fits);
		ck_assert_int_eq(s->top[i].cfg.dp * s->top[i].cfg.tp *
		    s->top[i].cfg.pp, 64);
		if (i > 0)
			ck_assert(s->top[i].t_step >= s->top[i - 1].t_step);
		ck_assert_int_gt(s->top[i].n_reasons, 0);
	}
	/* A TP group inside a node fits here and is faster: never across. */
	ck_assert_int_eq(s->top[0].tp_inter, 0);
	ck_assert_int_le(s->top[0].cfg.tp, 8);
	/* 70B in bf16 Adam cannot fit one 80 GB GPU without sharding. */
	c.gpus = 1;
	ck_assert_int_eq(cm_search(&c, 10, s, &err), 0);
	ck_assert_int_eq(s->n_top, 0);
	ck_assert(s->have_closest);
	ck_assert(!s->closest.fits);
	free(s);
}
END_TEST

START_TEST(bad_input)
{
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;

	cfg_for(&c, "gpt3-175b", "a100-80gb");
	layout(&c, 2, 8, 8);
	c.gpus = 64;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "64 GPUs"));
	layout(&c, 1, 5, 1);	/* 5 does not divide 96 heads */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "heads"));
	layout(&c, 1, 1, 97);	/* more stages than layers */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	layout(&c, 7, 1, 1);	/* 1536 not a multiple of 7 */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	layout(&c, 1, 1, 8);
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 5;	/* 96 / 40 leaves 24 short */
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	layout(&c, 1, 1, 24);	/* PP 24 < 96 layers, but 120 chunks */
	c.schedule = PIPE_INTERLEAVED;
	c.virtual_stages = 5;
	ck_assert_int_eq(cm_evaluate(&c, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "24 x 5 = 120"));
	ck_assert_ptr_nonnull(strstr(err.msg, "96 layers"));
	c.gpus = 0;
	ck_assert_int_eq(cm_search(&c, 10, &(struct cm_search){ 0 }, &err), -1);
}
END_TEST

START_TEST(new_settings_json)
{
	/* The issue-12 settings go through the one builder, and the result
	 * JSON carries them with each group's placement and exposed time. */
	const char *in = "{\"model\": \"llama2-70b\", \"gpus\": 64,"
	    " \"dp\": 4, \"tp\": 8, \"pp\": 2, \"rank_order\": \"dp-pp-tp\","
	    " \"zero\": 3, \"reshard_after_forward\": false, \"hsdp\": true,"
	    " \"tp_overlap\": true, \"dp_overlap\": false, \"dropout\": true,"
	    " \"intra_eff\": 1, \"inter_eff\": 0.5}";
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;
	cJSON *o = cJSON_Parse(in), *j, *n;

	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err), 0);
	cJSON_Delete(o);
	ck_assert_str_eq(mesh_order_name(c.rank_order), "dp-pp-tp-cp");
	ck_assert(!c.reshard_after_forward && c.hsdp && c.tp_overlap &&
	    !c.dp_overlap && c.model.dropout);
	ck_assert_double_eq(c.intra_eff, 1);
	ck_assert_double_eq(c.inter_eff, 0.5);
	eval(&c, &r);
	ck_assert_int_eq(r.group[MESH_TP].per_node, 1);	/* TP outermost */
	j = cm_result_json(&r);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "layout"),
	    "rank_order")->valuestring, "dp-pp-tp-cp");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(j,
	    "layout"), "reshard_after_forward")));
	n = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "network"), "tp");
	ck_assert_int_eq(cJSON_GetObjectItem(n, "per_node")->valueint, 1);
	ck_assert_int_eq(cJSON_GetObjectItem(n, "nodes")->valueint, 8);
	ck_assert_double_eq(cJSON_GetObjectItem(n, "bus_bw_bytes_per_s")->valuedouble,
	    r.group_bw[MESH_TP]);
	ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j,
	    "time_s"), "tp_exposed")->valuedouble, r.t_tp_exposed);
	ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j,
	    "time_s"), "elementwise")->valuedouble, r.t_elementwise);
	cJSON_Delete(j);
	o = cJSON_Parse("{\"model\": \"llama2-70b\", \"rank_order\": \"tp\"}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "unknown value"));
	cJSON_Delete(o);
}
END_TEST

START_TEST(config_json)
{
	const char *ok = "{\"model\": \"llama2-70b\", \"gpu\": \"a100-80gb\","
	    " \"gpus\": 64, \"dp\": 2, \"tp\": 8, \"pp\": 4, \"zero\": 1,"
	    " \"recompute\": \"full\", \"seq_parallel\": true,"
	    " \"inter_bw\": 25, \"schedule\": \"interleaved\","
	    " \"virtual_stages\": 2}";
	struct cm_config c;
	struct cm_result r;
	struct pl_err err;
	char buf[2048];
	cJSON *o = cJSON_Parse(ok);

	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), 0);
	ck_assert_int_eq(c.model.kv_heads, 8);
	ck_assert_int_eq(c.tp, 8);
	ck_assert_int_eq(c.recompute, CM_RECOMPUTE_FULL);
	ck_assert_double_eq(c.inter_bw, 25e9);
	ck_assert_double_eq(c.intra_bw, 300e9);
	eval(&c, &r);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"model\": \"llama2-70b\", \"zero\": 5}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), -1);
	ck_assert_str_eq(pl_err_format(&err, buf, sizeof buf),
	    "l.json: config.zero: must be between 0 and 3");
	cJSON_Delete(o);
	o = cJSON_Parse("{\"model\": \"gpt5\"}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(pl_err_format(&err, buf, sizeof buf),
	    "config.model"));
	cJSON_Delete(o);
	o = cJSON_Parse("{\"gpus\": 8, \"colour\": 1}");
	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "config",
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(err.path, "config.colour"));
	cJSON_Delete(o);
}
END_TEST

/*
 * The search's quick check (cm_valid_quick) skips the reason's text but
 * must give the same verdict as cm_validate, which writes it: over a grid
 * of schedules, stages, batches, EP, CP and TP on a dense model and a
 * mixture of experts, a layout is refused by both or by neither, and a
 * refusal always names its reason.
 */
START_TEST(quick_check_agrees)
{
	static const char *const models[] = { "llama3-8b", "deepseek-v3" };
	static const int pps[] = { 1, 2, 3, 4 }, eps[] = { 1, 2, 3, 8 };
	static const long batches[] = { 6, 8, 64 };
	struct cm_config c;
	struct pl_err err;
	int mi, pi, s, v, bi, ei, cp, tp, n = 0, refused = 0, q, full;

	for (mi = 0; mi < 2; mi++)
	for (pi = 0; pi < 4; pi++)
	for (s = 0; s < PIPE_N_SCHEDULES; s++)
	for (v = 1; v <= 2; v++)
	for (bi = 0; bi < 3; bi++)
	for (ei = 0; ei < 4; ei++)
	for (cp = 1; cp <= 2; cp++)
	for (tp = 1; tp <= 2; tp++) {
		cm_config_default(&c, hw_model_find(&cat, models[mi]),
		    hw_gpu_find(&cat, "h100-80gb"));
		c.pp = pps[pi];
		c.tp = tp;
		c.cp = cp;
		c.dp = 2;
		c.ep = eps[ei];
		c.gpus = c.pp * c.tp * c.cp * c.dp;
		c.schedule = (enum pipe_schedule)s;
		c.virtual_stages = v;
		c.global_batch = batches[bi];
		q = cm_valid_quick(&c);
		memset(&err, 0, sizeof err);
		full = cm_validate(&c, &err);
		ck_assert_msg((q != 0) == (full != 0), "%s pp %d %s v %d B %ld "
		    "ep %d cp %d tp %d: quick %d, full %d (%s)", models[mi],
		    c.pp, pipe_schedule_name(c.schedule), v, c.global_batch,
		    c.ep, cp, tp, q, full, err.msg);
		if (full != 0)
			ck_assert(err.msg[0] != '\0');
		n++;
		refused += full != 0;
	}
	printf("quick check: %d layouts, %d refused by both\n", n, refused);
	ck_assert(refused > n / 4 && refused < n);
}
END_TEST

static Suite *
costmodel_suite(void)
{
	Suite *s = suite_create("costmodel");
	TCase *tc;

	tc = tcase_create("reference numbers");
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, zero_worked_example);
	tcase_add_test(tc, sixteen_bytes_rule);
	tcase_add_test(tc, preset_params);
	tcase_add_test(tc, megatron_flops);
	tcase_add_test(tc, activation_per_layer);
	tcase_add_test(tc, activation_stage0);
	tcase_add_test(tc, gpipe_one_stage);
	tcase_add_test(tc, bubble_examples);
	tcase_add_test(tc, collective_times);
	tcase_add_test(tc, step_consistency);
	suite_add_tcase(s, tc);
	tc = tcase_create("sharding and memory");
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, zero_volumes_one_microbatch);
	tcase_add_test(tc, zero_volumes_accumulation);
	tcase_add_test(tc, zero3_latency_at_scale);
	tcase_add_test(tc, zero3_per_tensor_gathers);
	tcase_add_test(tc, llama3_chunks);
	tcase_add_test(tc, hsdp_traffic);
	tcase_add_test(tc, reshard_memory);
	tcase_add_test(tc, dropout_memory);
	tcase_add_test(tc, framework_memory);
	tcase_add_test(tc, tp_overlap_switch);
	suite_add_tcase(s, tc);
	tc = tcase_create("compute");
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, non_matmul_time);
	tcase_add_test(tc, single_gpu_step);
	tcase_add_test(tc, kernel_issue_bound);
	suite_add_tcase(s, tc);
	tc = tcase_create("search");
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, search_properties);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad input");
	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, config_json);
	tcase_add_test(tc, new_settings_json);
	tcase_add_test(tc, quick_check_agrees);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(costmodel_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
