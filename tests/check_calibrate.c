/*
 * check_calibrate.c - parlearn calibrate's core (core/engine/calibrate.h):
 *   - nccl-tests tables in their forms (with and without the root column
 *     and the leading '#'), the collective read from the text, ranks and
 *     nodes from the device list, bad rows at their line and column;
 *   - the fit recovers link figures a table was made from: rows written
 *     with the engine's own ring formula at NVLink efficiency 0.7 and a
 *     2 us step, read back as 0.7 and 2 us from the catalog's 0.82 and
 *     3.4; across nodes the network rate and latency likewise;
 *   - the GEMM fit recovers the efficiency its rows were timed at, and
 *     refuses a table no efficiency of this GPU explains.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/calibrate.h"
#include "core/engine/hardware.h"
#include "catfix.h"

static const char rank_lines[] =
    "#  Rank  0 Group  0 Pid 1 on nodeA device  0 [0x0f] NVIDIA H100\n"
    "#  Rank  1 Group  0 Pid 2 on nodeA device  1 [0x15] NVIDIA H100\n"
    "#  Rank  2 Group  0 Pid 3 on nodeB device  0 [0x0f] NVIDIA H100\n"
    "#  Rank  3 Group  0 Pid 4 on nodeB device  1 [0x15] NVIDIA H100\n";

START_TEST(parses_forms)
{
	struct calib_nccl t;
	struct pl_err err;
	char text[4096];

	/* old form: no root column, no '#', the command names the test */
	snprintf(text, sizeof text, "mpirun -np 4 ./all_gather_perf -b 8\n"
	    "   Rank  0 Pid 1 on a device 0 [0x00] A100\n"
	    "   Rank  1 Pid 2 on a device 1 [0x00] A100\n"
	    "   Rank  2 Pid 3 on b device 0 [0x00] A100\n"
	    "       size  count  type redop  time algbw busbw error  time "
	    "algbw busbw error\n"
	    "        (B) (elements)  (us) (GB/s) (GB/s)\n"
	    "   1048576  262144 float none  100.0 10.49 6.99 0 99.0 10.5 "
	    "7.0 0\n");
	ck_assert_int_eq(calib_nccl_parse(text, "f", -1, &t, &err), 0);
	ck_assert_int_eq(t.kind, CAL_ALLGATHER);
	ck_assert_int_eq(t.ranks, 3);
	ck_assert_int_eq(t.nodes, 2);
	ck_assert_int_eq(t.n_rows, 1);
	ck_assert_double_eq_tol(t.rows[0].time_s, 100e-6, 1e-12);
	ck_assert_double_eq_tol(t.rows[0].busbw, 6.99e9, 1);
	/* no name in the text: the hint, else a clear refusal */
	snprintf(text, sizeof text, "%s#  size count type redop root time "
	    "algbw busbw #wrong\n  1024 256 float sum -1 30.5 0.03 0.05 0\n",
	    rank_lines);
	ck_assert_int_eq(calib_nccl_parse(text, "f", CAL_REDUCESCATTER, &t,
	    &err), 0);
	ck_assert_int_eq(t.kind, CAL_REDUCESCATTER);
	ck_assert_int_eq(calib_nccl_parse(text, "f", -1, &t, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "which collective"));
	/* a bad number at its line and column */
	snprintf(text, sizeof text, "# Collective test starting: "
	    "all_reduce_perf\n%s#  size count type redop root time algbw "
	    "busbw #wrong\n  1024 256 float sum -1 3x.5 0.03 0.05 0\n",
	    rank_lines);
	ck_assert_int_eq(calib_nccl_parse(text, "f", -1, &t, &err), -1);
	ck_assert_int_eq(err.line, 7);
	ck_assert_int_eq(err.col, 25);
	/* no device list */
	ck_assert_int_eq(calib_nccl_parse("# all_reduce_perf\n#  size count "
	    "type redop root time algbw busbw\n 8 2 float sum -1 30 0 0 0\n",
	    "f", -1, &t, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "Rank"));
}
END_TEST

/* A table of n ranks on nodes nodes made by the engine with fit f. */
static void
synth(const struct calib_fit *f, enum calib_coll kind, int n, int nodes,
    struct calib_nccl *t)
{
	double b;

	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->ranks = n;
	t->nodes = nodes;
	for (b = 8; b <= 8.6e9; b *= 4) {
		struct calib_row *r = &t->rows[t->n_rows++];

		r->bytes = b;
		r->time_s = calib_nccl_predict_s(f, t, b);
		r->busbw = calib_busbw(t, b, r->time_s);
	}
}

START_TEST(fit_recovers_links)
{
	const struct hw_gpu *base = hw_gpu_find(&cat, "a100-80gb");
	struct calib_fit truth, fit;
	struct calib_nccl t;
	struct pl_err err;
	int i;

	ck_assert_ptr_nonnull(base);
	calib_fit_init(&truth, base);
	truth.gpu.nvlink_eff = 0.7;
	truth.gpu.intra_lat_s = 2e-6;
	truth.gpu.inter_bw = 20e9;
	truth.gpu.inter_lat_s = 9e-6;
	calib_fit_init(&fit, base);
	synth(&truth, CAL_ALLGATHER, 8, 1, &t);
	ck_assert_int_eq(calib_fit_nccl(&fit, &t, "f", &err), 0);
	ck_assert_double_eq_tol(fit.gpu.nvlink_eff, 0.7, 1e-3);
	ck_assert_double_eq_tol(fit.gpu.intra_lat_s, 2e-6, 2e-8);
	ck_assert_uint_eq(fit.gpu.measured, (1u << HW_MEAS_NVLINK_EFF) |
	    (1u << HW_MEAS_INTRA_LAT));
	synth(&truth, CAL_REDUCESCATTER, 32, 4, &t);
	ck_assert_int_eq(calib_fit_nccl(&fit, &t, "f", &err), 0);
	ck_assert_double_eq_tol(fit.gpu.inter_bw, 20e9, 2e7);
	ck_assert_double_eq_tol(fit.gpu.inter_lat_s, 9e-6, 1e-7);
	/* faster than the NVLink itself: not this GPU */
	t.nodes = 1;
	t.ranks = 8;
	t.kind = CAL_ALLGATHER;
	for (i = 0; i < t.n_rows; i++)
		t.rows[i].time_s /= 10;
	ck_assert_int_eq(calib_fit_nccl(&fit, &t, "g", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--gpu"));
}
END_TEST

START_TEST(fit_recovers_gemm)
{
	const struct hw_gpu *base = hw_gpu_find(&cat, "h100-80gb");
	struct calib_fit truth, fit;
	struct calib_gemm t;
	struct pl_err err;
	double m, k;
	char text[256];

	calib_fit_init(&truth, base);
	truth.gpu.gemm_eff = 0.55;
	memset(&t, 0, sizeof t);
	for (m = 2048; m <= 32768; m *= 4)
		for (k = 2048; k <= 8192; k *= 2)
			t.rows[t.n_rows++] = (struct calib_gemm_row){ m, k,
			    4 * k, calib_gemm_predict_s(&truth, m, k, 4 * k),
			    0 };
	calib_fit_init(&fit, base);
	ck_assert_int_eq(calib_fit_gemm(&fit, &t, "f", &err), 0);
	ck_assert_double_eq_tol(fit.gpu.gemm_eff, 0.55, 1e-6);
	ck_assert_uint_eq(fit.gpu.measured, 1u << HW_MEAS_GEMM);
	/* a thousand times faster than the GPU can be */
	for (m = 0; m < t.n_rows; m++)
		t.rows[(int)m].time_s /= 1000;
	calib_fit_init(&fit, base);
	ck_assert_int_eq(calib_fit_gemm(&fit, &t, "f", &err), -1);
	ck_assert_double_eq(fit.gpu.gemm_eff, base->gemm_eff);
	/* the table's own form */
	ck_assert_int_eq(calib_gemm_parse("# parlearn gemm_bench\n"
	    "  8192 4096 4096 0.368 746\n", "f", &t, &err), 0);
	ck_assert_double_eq_tol(t.rows[0].time_s, 0.368e-3, 1e-12);
	snprintf(text, sizeof text, "# x\n  8192 4096 four 0.368\n");
	ck_assert_int_eq(calib_gemm_parse(text, "f", &t, &err), -1);
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.col, 13);
}
END_TEST

static Suite *
calibrate_suite(void)
{
	Suite *s = suite_create("calibrate");
	TCase *tc = tcase_create("fit");

	tcase_add_checked_fixture(tc, catfix_setup, catfix_teardown);
	tcase_add_test(tc, parses_forms);
	tcase_add_test(tc, fit_recovers_links);
	tcase_add_test(tc, fit_recovers_gemm);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(calibrate_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
