/*
 * check_optimizer.c - the optimizer and gradient knobs (issue 25 item 2):
 * --optimizer-impl foreach|fused|for-loop held to the bytes and kernels
 * counted from PyTorch's torch/optim/adam.py and fused_adam_utils.cuh
 * (costmodel_kernels.c), --grad-dtype to Megatron's 2 more bytes per
 * parameter of fp32 main gradients, --reduce-dtype to the doubled
 * gradient bytes of fp32 DP/ZeRO collectives; each default reproduces the
 * engine's pricing before the knob existed.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static void
eval(const struct cm_config *c, struct cm_result *r)
{
	struct pl_err err;

	ck_assert_msg(cm_evaluate(c, r, &err) == 0, "%s", err.msg);
}

/*
 * A 1.3B GPT (24 layers, h 2048, 16 heads, f 8192, V 50257, s 2048: 1.316 B
 * by [NAR21] eq. 2) on one H100, 8 samples a step in one micro-batch,
 * full recomputation, eager PyTorch as a single-GPU script runs it.
 */
static void
gpt_1p3b(struct cm_config *c)
{
	struct hw_model m = *hw_model_find(&cat, "gpt3-175b");

	m.layers = 24;
	m.hidden = 2048;
	m.heads = m.kv_heads = 16;
	m.ffn = 8192;
	m.vocab = 50257;
	m.seq = 2048;
	m.params = 0;
	cm_config_default(c, &m, hw_gpu_find(&cat, "h100-80gb"));
	c->gpus = 1;
	c->global_batch = 8;
	c->micro_batch = 8;
	c->recompute = CM_RECOMPUTE_FULL;
}

START_TEST(bytes_per_parameter)
{
	/* adam.py: foreach and for-loop 80 (SGD 32), fused 28 (SGD 20);
	 * clip_grad_norm_ 12 on top; Megatron's fused Adam 30 + 4 */
	static const struct {
		enum cm_kernels k;
		enum cm_opt_impl i;
		enum cm_optimizer o;
		double bytes;
	} t[] = {
		{ CM_KERNELS_EAGER, CM_OPT_IMPL_AUTO, CM_OPT_ADAM, 92 },
		{ CM_KERNELS_COMPILED, CM_OPT_IMPL_AUTO, CM_OPT_ADAM, 92 },
		{ CM_KERNELS_EAGER, CM_OPT_IMPL_FOREACH, CM_OPT_ADAM, 92 },
		{ CM_KERNELS_EAGER, CM_OPT_IMPL_FORLOOP, CM_OPT_ADAM, 92 },
		{ CM_KERNELS_EAGER, CM_OPT_IMPL_FUSED, CM_OPT_ADAM, 40 },
		{ CM_KERNELS_COMPILED, CM_OPT_IMPL_FUSED, CM_OPT_ADAM, 40 },
		{ CM_KERNELS_EAGER, CM_OPT_IMPL_FOREACH, CM_OPT_SGD, 44 },
		{ CM_KERNELS_EAGER, CM_OPT_IMPL_FORLOOP, CM_OPT_SGD, 44 },
		{ CM_KERNELS_EAGER, CM_OPT_IMPL_FUSED, CM_OPT_SGD, 32 },
		{ CM_KERNELS_FUSED, CM_OPT_IMPL_AUTO, CM_OPT_ADAM, 34 },
		{ CM_KERNELS_FUSED, CM_OPT_IMPL_FUSED, CM_OPT_ADAM, 34 },
		{ CM_KERNELS_FUSED, CM_OPT_IMPL_AUTO, CM_OPT_SGD, 26 },
		{ CM_KERNELS_FUSED, CM_OPT_IMPL_FOREACH, CM_OPT_ADAM, 92 },
	};
	struct cm_config c;
	size_t i;

	gpt_1p3b(&c);
	ck_assert_int_eq(c.optimizer_impl, CM_OPT_IMPL_AUTO);
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		c.kernels = t[i].k;
		c.optimizer_impl = t[i].i;
		c.optimizer = t[i].o;
		ck_assert_msg(cm_optimizer_bytes(&c) == t[i].bytes,
		    "row %zu: %g bytes", i, cm_optimizer_bytes(&c));
	}
}
END_TEST

START_TEST(kernels_per_step)
{
	/* multi_tensor_apply: 320 blocks of 65536 elements per launch */
	struct cm_config c;
	double own = 1e9, launches = ceil(1e9 / (320.0 * 65536));

	gpt_1p3b(&c);
	ck_assert_double_eq(launches, 48);
	c.optimizer_impl = CM_OPT_IMPL_FOREACH;
	ck_assert_double_eq(cm_optimizer_kernels(&c, own, 400), 10 * launches);
	c.optimizer_impl = CM_OPT_IMPL_FUSED;	/* one op, norm and scale */
	ck_assert_double_eq(cm_optimizer_kernels(&c, own, 400), 3 * launches);
	c.optimizer_impl = CM_OPT_IMPL_FORLOOP;	/* 8 per tensor, clipping */
	ck_assert_double_eq(cm_optimizer_kernels(&c, own, 400),
	    8 * 400 + 2 * launches);
	c.optimizer = CM_OPT_SGD;
	ck_assert_double_eq(cm_optimizer_kernels(&c, own, 400),
	    3 * 400 + 2 * launches);
	c.kernels = CM_KERNELS_FUSED;
	c.optimizer = CM_OPT_ADAM;
	c.optimizer_impl = CM_OPT_IMPL_AUTO;
	ck_assert_double_eq(cm_optimizer_kernels(&c, own, 400), 2 * launches);
}
END_TEST

START_TEST(fused_on_one_h100)
{
	/* The optimizer of a 1.3B model on one H100 runs at HBM speed, so
	 * fused=True takes 40/92 of foreach's time; the rest of the step
	 * does not move. The default is foreach. */
	struct cm_config c;
	struct cm_result a, fe, fu, fl;

	gpt_1p3b(&c);
	eval(&c, &a);
	ck_assert_double_eq_tol(a.params / 1e9, 1.316, 0.001);
	c.optimizer_impl = CM_OPT_IMPL_FOREACH;
	eval(&c, &fe);
	ck_assert(fe.t_optimizer == a.t_optimizer && fe.t_step == a.t_step);
	c.optimizer_impl = CM_OPT_IMPL_FUSED;
	eval(&c, &fu);
	ck_assert_double_eq_tol(fu.t_optimizer / fe.t_optimizer, 40.0 / 92,
	    1e-9);
	ck_assert_double_eq_tol(fe.t_step - fu.t_step,
	    fe.t_optimizer - fu.t_optimizer, 1e-12);
	ck_assert(fu.mem_total == fe.mem_total);
	/* the for-loop moves the same bytes in ~3,100 small kernels */
	c.optimizer_impl = CM_OPT_IMPL_FORLOOP;
	eval(&c, &fl);
	ck_assert(fl.t_optimizer > fe.t_optimizer);
}
END_TEST

START_TEST(for_loop_host_bound)
{
	/* A small model's for-loop step is the host issuing 8 kernels per
	 * weight tensor: 2 layers of 9 tensors (RMSNorm, no biases, separate
	 * Q, K, V, gate, up) and 3 more, plus clipping's 2 launches */
	struct cm_config c;
	struct cm_result r;
	struct hw_model m = *hw_model_find(&cat, "llama3-8b");

	m.layers = 2;
	m.hidden = 256;
	m.heads = m.kv_heads = 4;
	m.ffn = 512;
	m.vocab = 256;
	m.seq = 128;
	cm_config_default(&c, &m, hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = 1;
	c.global_batch = 1;
	c.optimizer_impl = CM_OPT_IMPL_FORLOOP;
	eval(&c, &r);
	/* each launch a Python call (costmodel_host.c); the GPU waits */
	ck_assert_double_eq_tol(r.t_optimizer, ((2 * 9 + 3) * 8 + 2) *
	    (CM_HOST_PY_OP_S + CM_HOST_LAUNCH_S), 1e-15);
}
END_TEST

START_TEST(grad_dtype_bytes)
{
	/* Megatron's fp32 main gradients: 2 more bytes per parameter, held
	 * by each rank in full up to ZeRO-1 and sharded from ZeRO-2; fused
	 * frameworks clear that buffer after the step */
	struct cm_config c;
	struct cm_result b, f;

	gpt_1p3b(&c);
	ck_assert_int_eq(c.grad_accum_fp32, 0);
	eval(&c, &b);
	c.grad_accum_fp32 = 1;
	eval(&c, &f);
	ck_assert_double_eq_tol(f.mem_grads - b.mem_grads, 2 * b.params_gpu,
	    1);
	ck_assert_double_eq_tol(f.mem_total - b.mem_total, 2 * b.params_gpu,
	    1);
	ck_assert(f.t_optimizer == b.t_optimizer);	/* .grad is fp32 */
	c.kernels = CM_KERNELS_FUSED;
	c.grad_accum_fp32 = 0;
	eval(&c, &b);
	c.grad_accum_fp32 = 1;
	eval(&c, &f);
	ck_assert_double_eq_tol(f.t_optimizer - b.t_optimizer,
	    2 * b.params_gpu / (0.9 * 3350e9), 1e-6);
	c.dp = c.gpus = 8;
	c.global_batch = 64;
	c.zero = 2;
	c.grad_accum_fp32 = 0;
	eval(&c, &b);
	c.grad_accum_fp32 = 1;
	eval(&c, &f);
	ck_assert_double_eq_tol(f.mem_grads - b.mem_grads,
	    2 * b.params_gpu / 8, 1);
	ck_assert(f.dp_bytes == b.dp_bytes);	/* reduced in bf16 */
}
END_TEST

START_TEST(reduce_dtype_bytes)
{
	/* fp32 reduction doubles the gradients' bytes: all of plain DP's
	 * all-reduce; ZeRO-3's reduce-scatter beside its bf16 gathers
	 * (m (2 e + g): 8 of 6 per parameter) */
	struct cm_config c;
	struct cm_result b, f;

	gpt_1p3b(&c);
	c.dp = c.gpus = 8;
	c.global_batch = 64;
	ck_assert_int_eq(c.reduce_fp32, 0);
	eval(&c, &b);
	c.reduce_fp32 = 1;
	eval(&c, &f);
	ck_assert(b.dp_bytes > 0);
	ck_assert_double_eq_tol(f.dp_bytes / b.dp_bytes, 2, 1e-12);
	ck_assert(f.t_dp > b.t_dp && f.mem_total == b.mem_total);
	c.zero = 3;
	c.reduce_fp32 = 0;
	eval(&c, &b);
	c.reduce_fp32 = 1;
	eval(&c, &f);
	ck_assert_double_eq_tol(f.dp_bytes / b.dp_bytes, 8.0 / 6, 1e-12);
}
END_TEST

START_TEST(search_keeps_the_knobs)
{
	/* the search varies the layout, not how the optimizer runs when
	 * it is given (setup_set: every framework's row keeps it) */
	struct cm_search *s = malloc(sizeof *s);
	struct cm_config c;
	struct pl_err err;
	int i;

	ck_assert_ptr_nonnull(s);
	cm_config_default(&c, hw_model_find(&cat, "llama3-8b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = 8;
	c.optimizer_impl = CM_OPT_IMPL_FUSED;
	c.grad_accum_fp32 = c.reduce_fp32 = 1;
	c.setup_set = CM_SET_OPT_IMPL | CM_SET_GRAD_DTYPE |
	    CM_SET_REDUCE_DTYPE;
	ck_assert_int_eq(cm_search(&c, 10, s, &err), 0);
	ck_assert_int_gt(s->n_top, 0);
	for (i = 0; i < s->n_top; i++) {
		ck_assert_int_eq(s->top[i].cfg.optimizer_impl,
		    CM_OPT_IMPL_FUSED);
		ck_assert_int_eq(s->top[i].cfg.grad_accum_fp32, 1);
		ck_assert_int_eq(s->top[i].cfg.reduce_fp32, 1);
	}
	free(s);
}
END_TEST

START_TEST(keys_round_trip)
{
	const char *in = "{\"model\": \"llama2-7b\", \"optimizer_impl\": "
	    "\"for-loop\", \"grad_dtype\": \"fp32\", \"reduce_dtype\": "
	    "\"fp32\"}";
	const char *const bad[] = {
	    "{\"model\": \"llama2-7b\", \"optimizer_impl\": \"apex\"}",
	    "{\"model\": \"llama2-7b\", \"grad_dtype\": \"fp16\"}",
	    "{\"model\": \"llama2-7b\", \"reduce_dtype\": \"fp8\"}", NULL };
	struct cm_config c;
	struct pl_err err;
	cJSON *o = cJSON_Parse(in);
	enum cm_opt_impl i;
	int n;

	ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json", "engine",
	    &err), 0);
	cJSON_Delete(o);
	ck_assert_int_eq(c.optimizer_impl, CM_OPT_IMPL_FORLOOP);
	ck_assert_int_eq(c.grad_accum_fp32, 1);
	ck_assert_int_eq(c.reduce_fp32, 1);
	for (n = 0; bad[n] != NULL; n++) {
		o = cJSON_Parse(bad[n]);
		ck_assert_int_eq(cm_config_from_json(&c, o, &cat, "l.json",
		    "engine", &err), -1);
		ck_assert_ptr_nonnull(strstr(err.msg, "unknown value"));
		cJSON_Delete(o);
	}
	ck_assert_int_eq(cm_opt_impl_parse("fused", &i), 0);
	ck_assert_int_eq(i, CM_OPT_IMPL_FUSED);
	ck_assert_str_eq(cm_opt_impl_name(CM_OPT_IMPL_FORLOOP), "for-loop");
	ck_assert_int_eq(cm_opt_impl_parse("Fused", &i), -1);
}
END_TEST

static Suite *
optimizer_suite(void)
{
	Suite *s = suite_create("optimizer");
	TCase *tc = tcase_create("optimizer and gradient knobs");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, bytes_per_parameter);
	tcase_add_test(tc, kernels_per_step);
	tcase_add_test(tc, fused_on_one_h100);
	tcase_add_test(tc, for_loop_host_bound);
	tcase_add_test(tc, grad_dtype_bytes);
	tcase_add_test(tc, reduce_dtype_bytes);
	tcase_add_test(tc, search_keeps_the_knobs);
	tcase_add_test(tc, keys_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(optimizer_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
