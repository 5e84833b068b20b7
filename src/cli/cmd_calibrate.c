/*
 * cmd_calibrate.c - `parlearn calibrate`: a hardware file fitted to the
 * user's nccl-tests tables and gemm_bench.py table (core/engine/
 * calibrate.h). It prints, for every row read, what was measured beside
 * what the engine now predicts, and with -o writes the catalog GPU's entry
 * with the fitted figures and a "measured" object saying where each came
 * from; `plan --hardware FILE` prices with it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "core/engine/calibrate.h"
#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "core/json.h"
#include "core/safetext.h"

#define MAX_FILES	32

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn calibrate [OPTION]... FILE...\n"
	    "Fit a hardware file to measurements of your cluster: nccl-tests\n"
	    "outputs (all_reduce_perf, all_gather_perf, reduce_scatter_perf,\n"
	    "alltoall_perf; in one node and across nodes) and the table that\n"
	    "examples/pytorch/gemm_bench.py prints. Each FILE is read as what its\n"
	    "text says it is; prefix it (all_reduce:F, all_gather:F,\n"
	    "reduce_scatter:F, alltoall:F, gemm:F) when it does not. Every row is\n"
	    "shown beside the engine's prediction with the fitted figures.\n"
	    "\n"
	    "  --gpu NAME         the catalog GPU you measured (h100-80gb)\n"
	    "  --name NAME        the fitted GPU's name (NAME-measured)\n"
	    "  -o, --output FILE  write the hardware file (for plan --hardware)\n"
	    "  -h, --help         show this help\n"));
}

struct input {
	const char	*path;
	int		 kind;		/* enum calib_coll, CAL_N_COLLS: gemm,
					 * -1: from the text */
};

static int
input_of(const char *arg, struct input *in)
{
	static const char *const pre[] = { "all_reduce:", "all_gather:",
		"reduce_scatter:", "alltoall:", "gemm:" };
	size_t i, n;

	in->path = arg;
	in->kind = -1;
	for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		n = strlen(pre[i]);
		if (strncmp(arg, pre[i], n) == 0) {
			in->path = arg + n;
			in->kind = (int)i;
		}
	}
	return in->path[0] != '\0';
}

static void
print_table(const struct calib_fit *f, const struct calib_nccl *t,
    const char *path)
{
	int i;

	printf(_("%s, %d GPUs in %d node(s)"), calib_coll_name(t->kind),
	    t->ranks, t->nodes);
	cli_printf(stdout, ":\n  %s\n", path);
	printf("  %12s  %12s  %12s  %10s  %10s\n", _("bytes"),
	    _("measured us"), _("engine us"), _("busbw GB/s"),
	    _("engine"));
	for (i = 0; i < t->n_rows; i++) {
		const struct calib_row *r = &t->rows[i];
		double p = calib_nccl_predict_s(f, t, r->bytes);

		printf("  %12.0f  %12.1f  %12.1f  %10.2f  %10.2f\n", r->bytes,
		    r->time_s * 1e6, p * 1e6, r->busbw / 1e9,
		    calib_busbw(t, r->bytes, p) / 1e9);
	}
}

static void
print_gemm(const struct calib_fit *f, const struct calib_gemm *t,
    const char *path)
{
	int i;

	cli_printf(stdout, "%s:\n  %s\n", _("matrix products"), path);
	printf("  %7s %7s %7s  %12s  %12s\n", "M", "K", "N", _("measured ms"),
	    _("engine ms"));
	for (i = 0; i < t->n_rows; i++) {
		const struct calib_gemm_row *r = &t->rows[i];

		printf("  %7.0f %7.0f %7.0f  %12.4f  %12.4f\n", r->m, r->k,
		    r->n, r->time_s * 1e3, calib_gemm_predict_s(f, r->m, r->k,
		    r->n) * 1e3);
	}
}

/* Read, parse and fit one file; 0, or 2 after printing why. */
static int
fit_file(struct calib_fit *f, const struct input *in, int nodes_pass)
{
	struct calib_nccl *t = NULL;
	struct calib_gemm *gt = NULL;
	struct pl_err err;
	char *text, buf[2048];
	int rc = 2;

	if ((text = pl_read_file(in->path, NULL, &err)) == NULL)
		goto out;
	if (in->kind == CAL_N_COLLS || (in->kind < 0 &&
	    strstr(text, "gemm_bench") != NULL)) {
		if (nodes_pass != 0) {
			rc = 0;
			goto out;
		}
		if ((gt = malloc(sizeof *gt)) == NULL ||
		    calib_gemm_parse(text, in->path, gt, &err) != 0 ||
		    calib_fit_gemm(f, gt, in->path, &err) != 0)
			goto out;
	} else {
		if ((t = malloc(sizeof *t)) == NULL ||
		    calib_nccl_parse(text, in->path, in->kind, t, &err) != 0)
			goto out;
		if ((t->nodes > 1) != (nodes_pass != 0)) {
			rc = 0;
			goto out;
		}
		if (calib_fit_nccl(f, t, in->path, &err) != 0)
			goto out;
	}
	rc = 0;
out:
	if (rc != 0) {
		if (err.msg[0] == '\0')
			cli_error("%s", _("out of memory"));
		else
			cli_error("%s", pl_err_format(&err, buf, sizeof buf));
	}
	free(text);
	free(t);
	free(gt);
	return rc;
}

/* Every table against the final fit. */
static void
report(const struct calib_fit *f, const struct input *in, int n)
{
	struct calib_nccl *t = malloc(sizeof *t);
	struct calib_gemm *gt = malloc(sizeof *gt);
	struct pl_err err;
	char *text;
	int i;

	for (i = 0; i < n && t != NULL && gt != NULL; i++) {
		if ((text = pl_read_file(in[i].path, NULL, &err)) == NULL)
			continue;
		if (in[i].kind == CAL_N_COLLS || (in[i].kind < 0 &&
		    strstr(text, "gemm_bench") != NULL)) {
			if (calib_gemm_parse(text, in[i].path, gt, &err) == 0)
				print_gemm(f, gt, in[i].path);
		} else if (calib_nccl_parse(text, in[i].path, in[i].kind, t,
		    &err) == 0)
			print_table(f, t, in[i].path);
		free(text);
	}
	free(t);
	free(gt);
}

static double
field_value(const struct hw_gpu *g, int m)
{
	switch (m) {
	case HW_MEAS_NVLINK_EFF: return g->nvlink_eff;
	case HW_MEAS_NVLS: return g->nvls_bw / 1e9;
	case HW_MEAS_INTRA_LAT: return g->intra_lat_s * 1e6;
	case HW_MEAS_INTER_BW: return g->inter_bw / 1e9;
	case HW_MEAS_INTER_LAT: return g->inter_lat_s * 1e6;
	default: return g->gemm_eff;
	}
}

void
cli_print_measured(FILE *fp, const struct hw_gpu *g)
{
	const char *sep = "";
	int m;

	if (g->measured == 0)
		return;
	fprintf(fp, "%s", _("Measured on your cluster (parlearn calibrate):"));
	for (m = 0; m < HW_MEAS_N; m++)
		if (g->measured & (1u << m)) {
			fprintf(fp, "%s %s %.4g", sep, hw_measured_keys[m],
			    field_value(g, m));
			sep = ",";
		}
	fprintf(fp, "%s\n", _("; the rest from the catalog."));
}

void
cli_measured_json(cJSON *a, const struct hw_gpu *g)
{
	cJSON *arr;
	int m;

	if (g->measured == 0)
		return;
	arr = cJSON_AddArrayToObject(a, "hardware_measured");
	for (m = 0; m < HW_MEAS_N; m++)
		if (g->measured & (1u << m))
			cJSON_AddItemToArray(arr,
			    cJSON_CreateString(hw_measured_keys[m]));
}

static void
print_fitted(const struct calib_fit *f, const struct hw_gpu *base)
{
	int m;

	printf("%s\n", _("Fitted (was):"));
	for (m = 0; m < HW_MEAS_N; m++)
		if (f->gpu.measured & (1u << m))
			printf("  %-18s %10.4g  (%.4g)  %s\n", hw_measured_keys[m],
			    field_value(&f->gpu, m), field_value(base, m),
			    f->how[m]);
	if (f->gpu.measured == 0)
		printf("  %s\n", _("nothing: no table had the rows to fit"));
}

/* The base GPU's catalog entry with the fitted figures, or NULL. */
static cJSON *
hardware_json(const struct cli_ctx *ctx, const struct calib_fit *f,
    const char *name)
{
	char path[4096], buf[2048];
	struct pl_err err;
	cJSON *root, *gpus, *it, *out = NULL, *meas;
	int m;

	snprintf(path, sizeof path, "%s/gpus.json", ctx->data_dir);
	if ((root = pl_json_load(path, &err)) == NULL) {
		cli_error("%s", pl_err_format(&err, buf, sizeof buf));
		return NULL;
	}
	gpus = cJSON_IsArray(root) ? root :
	    cJSON_GetObjectItemCaseSensitive(root, "gpus");
	cJSON_ArrayForEach(it, gpus) {
		cJSON *nm = cJSON_GetObjectItemCaseSensitive(it, "name");

		if (cJSON_IsString(nm) && strcmp(nm->valuestring,
		    f->gpu.name) == 0)
			out = cJSON_Duplicate(it, 1);
	}
	cJSON_Delete(root);
	if (out == NULL)
		return NULL;
	cJSON_ReplaceItemInObject(out, "name", cJSON_CreateString(name));
	cJSON_DeleteItemFromObject(out, "measured");
	meas = cJSON_AddObjectToObject(out, "measured");
	for (m = 0; m < HW_MEAS_N; m++) {
		if (!(f->gpu.measured & (1u << m)))
			continue;
		cJSON_DeleteItemFromObject(out, hw_measured_keys[m]);
		cJSON_AddNumberToObject(out, hw_measured_keys[m],
		    field_value(&f->gpu, m));
		cJSON_AddStringToObject(meas, hw_measured_keys[m], f->how[m]);
	}
	return out;
}

static int
write_hardware(const struct cli_ctx *ctx, const struct calib_fit *f,
    const char *name, const char *path)
{
	struct cli_out o;
	cJSON *doc = hardware_json(ctx, f, name);
	char *text = doc != NULL ? cJSON_Print(doc) : NULL;
	int failed, rc;

	cJSON_Delete(doc);
	if (text == NULL) {
		cli_error("%s", _("cannot build the hardware file"));
		return 2;
	}
	if (cli_out_open(&o, path) != 0) {
		free(text);
		return 2;
	}
	failed = fputs(text, o.fp) < 0 || fputc('\n', o.fp) == EOF;
	free(text);
	rc = cli_out_close(&o, failed);
	if (rc == 0)
		cli_printf(stdout, _("Wrote %s: GPU \"%s\"; price with it: "
		    "parlearn plan --hardware %s ...\n"), path, name, path);
	return rc;
}

int
cli_calibrate_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gpu", required_argument, NULL, 'g' },
		{ "name", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct input in[MAX_FILES];
	const char *gpu = CM_DEFAULT_GPU, *name = NULL, *out = NULL;
	char fitted[HW_NAME_MAX], buf[2048];
	struct hw_catalog cat;
	struct calib_fit fit;
	struct pl_err err;
	const struct hw_gpu *base;
	int ch, i, n = 0, pass, rc = 0;

	optind = 0;
	/* no '+': options may follow the files (GNU getopt permutes) */
	while ((ch = cli_getopt(argc, argv, "ho:", opts)) != -1) {
		switch (ch) {
		case 'g': gpu = optarg; break;
		case 'n': name = optarg; break;
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: return 1;
		}
	}
	for (; optind < argc; optind++)
		if (n == MAX_FILES)
			return cli_usage_error(_("at most %d files"), MAX_FILES);
		else if (!input_of(argv[optind], &in[n++]))
			return cli_usage_error(_("no file after '%s'"),
			    argv[optind]);
	if (n == 0)
		return cli_usage_error("%s", _("no measurements given"));
	if (name != NULL && (!safetext_name_ok(name, HW_NAME_MAX - 1) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-") != strlen(name)))
		return cli_usage_error("%s", _("--name: letters, digits, '.', "
		    "'_' and '-' only"));
	if (hw_catalog_load(&cat, ctx->data_dir, &err) != 0) {
		cli_error("%s", pl_err_format(&err, buf, sizeof buf));
		return 2;
	}
	if ((base = hw_gpu_find(&cat, gpu)) == NULL) {
		hw_catalog_free(&cat);
		return cli_usage_error(_("--gpu: no GPU named '%s'"), gpu);
	}
	calib_fit_init(&fit, base);
	/* one node first: the tables across nodes use its NVLink figures */
	for (pass = 0; pass < 2 && rc == 0; pass++)
		for (i = 0; i < n && rc == 0; i++)
			rc = fit_file(&fit, &in[i], pass);
	if (rc == 0) {
		report(&fit, in, n);
		print_fitted(&fit, base);
		snprintf(fitted, sizeof fitted, "%s", name != NULL ? name :
		    base->name);
		if (name == NULL && strlen(base->name) + 10 < sizeof fitted)
			snprintf(fitted, sizeof fitted, "%s-measured",
			    base->name);
		if (out != NULL)
			rc = write_hardware(ctx, &fit, fitted, out);
	}
	hw_catalog_free(&cat);
	return rc;
}
