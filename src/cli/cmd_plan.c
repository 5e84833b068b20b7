/*
 * cmd_plan.c - `parlearn plan`: one layout's memory and time breakdown, or,
 * when --dp, --tp or --pp is missing, the ranked search over layouts.
 * Every figure comes from core/costmodel; this file only parses options
 * and prints.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "cli/cli.h"
#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"

/* Options as given; -1 / NULL = not given. */
struct plan_opts {
	const char	*model, *gpu, *recompute, *schedule, *optimizer;
	const char	*precision, *attention, *mlp;
	double		 params, intra_bw, inter_bw;
	long		 layers, hidden, heads, kv_heads, ffn, vocab, seq;
	long		 gpus, gpn, global_batch, micro_batch, dp, tp, pp;
	long		 zero, vstages;
	int		 seq_parallel, json;
	int		 no_scatter_gather, realistic;
};

enum {
	O_MODEL = 256, O_PARAMS, O_LAYERS, O_HIDDEN, O_HEADS, O_KV, O_FFN,
	O_VOCAB, O_SEQ, O_GPU, O_GPUS, O_GPN, O_INTRA, O_INTER, O_GB, O_MB,
	O_DP, O_TP, O_PP, O_ZERO, O_RC, O_SP, O_SCHED, O_VS, O_OPT, O_PREC,
	O_ATTN, O_MLP, O_JSON, O_HELP, O_NOSG, O_REAL
};

static const struct option plan_longopts[] = {
	{ "model", required_argument, NULL, O_MODEL },
	{ "params", required_argument, NULL, O_PARAMS },
	{ "layers", required_argument, NULL, O_LAYERS },
	{ "hidden", required_argument, NULL, O_HIDDEN },
	{ "heads", required_argument, NULL, O_HEADS },
	{ "kv-heads", required_argument, NULL, O_KV },
	{ "ffn", required_argument, NULL, O_FFN },
	{ "vocab", required_argument, NULL, O_VOCAB },
	{ "seq", required_argument, NULL, O_SEQ },
	{ "gpu", required_argument, NULL, O_GPU },
	{ "gpus", required_argument, NULL, O_GPUS },
	{ "gpus-per-node", required_argument, NULL, O_GPN },
	{ "intra-bw", required_argument, NULL, O_INTRA },
	{ "inter-bw", required_argument, NULL, O_INTER },
	{ "global-batch", required_argument, NULL, O_GB },
	{ "micro-batch", required_argument, NULL, O_MB },
	{ "dp", required_argument, NULL, O_DP },
	{ "tp", required_argument, NULL, O_TP },
	{ "pp", required_argument, NULL, O_PP },
	{ "zero", required_argument, NULL, O_ZERO },
	{ "recompute", required_argument, NULL, O_RC },
	{ "seq-parallel", no_argument, NULL, O_SP },
	{ "no-scatter-gather", no_argument, NULL, O_NOSG },
	{ "realistic-links", no_argument, NULL, O_REAL },
	{ "schedule", required_argument, NULL, O_SCHED },
	{ "virtual-stages", required_argument, NULL, O_VS },
	{ "optimizer", required_argument, NULL, O_OPT },
	{ "precision", required_argument, NULL, O_PREC },
	{ "attention", required_argument, NULL, O_ATTN },
	{ "mlp", required_argument, NULL, O_MLP },
	{ "json", no_argument, NULL, O_JSON },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn plan [OPTION]...\n"
	    "Estimate memory and step time of a DP x TP x PP training layout;\n"
	    "without all of --dp, --tp and --pp, rank every valid layout.\n"
	    "\n"
	    "Model:   --model NAME | --params N --layers L --hidden H --heads A\n"
	    "         --ffn F --vocab V --seq S  [--kv-heads K] [--mlp gelu|swiglu]\n"
	    "Cluster: --gpu TYPE (h100-80gb) --gpus N --gpus-per-node G (8)\n"
	    "         --intra-bw GBps --inter-bw GBps (per GPU, one direction)\n"
	    "Batch:   --global-batch B --micro-batch b (1)\n"
	    "Layout:  --dp D --tp T --pp P --schedule gpipe|1f1b|interleaved\n"
	    "         --virtual-stages V\n"
	    "Setup:   --zero 0..3 --recompute none|selective|full --seq-parallel\n"
	    "         --optimizer adam|sgd --precision bf16|fp32\n"
	    "         --attention flash|plain\n"
	    "         --no-scatter-gather  every TP rank sends the whole PP\n"
	    "                              tensor (DeepSpeed's pipeline)\n"
	    "         --realistic-links    achieved link bandwidth: NVLink 65 %,\n"
	    "                              InfiniBand 90 % of nominal\n"
	    "Output:  --json  machine-readable result\n"
	    "         --help  show this help\n"));
}

static int
num(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, _("parlearn: plan: invalid number '%s'\n"), s);
		return -1;
	}
	*out = v;
	return 0;
}

static int
fnum(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (*s == '\0' || *end != '\0' || !(v > 0) || v > 1e18) {
		fprintf(stderr, _("parlearn: plan: invalid number '%s'\n"), s);
		return -1;
	}
	*out = v;
	return 0;
}

/* The long-valued option ch, as a pointer into o, or NULL. */
static long *
long_slot(struct plan_opts *o, int ch)
{
	switch (ch) {
	case O_LAYERS: return &o->layers;
	case O_HIDDEN: return &o->hidden;
	case O_HEADS: return &o->heads;
	case O_KV: return &o->kv_heads;
	case O_FFN: return &o->ffn;
	case O_VOCAB: return &o->vocab;
	case O_SEQ: return &o->seq;
	case O_GPUS: return &o->gpus;
	case O_GPN: return &o->gpn;
	case O_GB: return &o->global_batch;
	case O_MB: return &o->micro_batch;
	case O_DP: return &o->dp;
	case O_TP: return &o->tp;
	case O_PP: return &o->pp;
	case O_ZERO: return &o->zero;
	case O_VS: return &o->vstages;
	default: return NULL;
	}
}

/* The word-valued option ch, or NULL. */
static const char **
word_slot(struct plan_opts *o, int ch)
{
	switch (ch) {
	case O_MODEL: return &o->model;
	case O_GPU: return &o->gpu;
	case O_RC: return &o->recompute;
	case O_SCHED: return &o->schedule;
	case O_OPT: return &o->optimizer;
	case O_PREC: return &o->precision;
	case O_ATTN: return &o->attention;
	case O_MLP: return &o->mlp;
	default: return NULL;
	}
}

/* Parse argv into o. Returns -1 to go on, else an exit code. */
static int
parse_opts(int argc, char **argv, struct plan_opts *o)
{
	long *lp;
	const char **wp;
	int ch;

	memset(o, 0, sizeof *o);
	optind = 0;
	while ((ch = getopt_long(argc, argv, "+", plan_longopts, NULL)) != -1) {
		if ((lp = long_slot(o, ch)) != NULL) {
			if (num(optarg, ch == O_ZERO ? 0 : 1, 100000000L, lp))
				return 1;
		} else if ((wp = word_slot(o, ch)) != NULL) {
			*wp = optarg;
		} else if (ch == O_PARAMS || ch == O_INTRA || ch == O_INTER) {
			if (fnum(optarg, ch == O_PARAMS ? &o->params :
			    ch == O_INTRA ? &o->intra_bw : &o->inter_bw))
				return 1;
		} else if (ch == O_SP) {
			o->seq_parallel = 1;
		} else if (ch == O_NOSG) {
			o->no_scatter_gather = 1;
		} else if (ch == O_REAL) {
			o->realistic = 1;
		} else if (ch == O_JSON) {
			o->json = 1;
		} else if (ch == O_HELP) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, _("parlearn: plan: unexpected argument '%s'\n"),
		    argv[optind]);
		return 1;
	}
	if (o->zero > 3) {
		fprintf(stderr, "%s", _("parlearn: plan: --zero must be 0 to "
		    "3\n"));
		return 1;
	}
	return -1;
}

/* The model: a preset, or built from --layers ... (all required). */
static int
build_model(const struct plan_opts *o, const struct hw_catalog *cat,
    struct hw_model *m)
{
	const struct hw_model *pre;

	memset(m, 0, sizeof *m);
	if (o->model != NULL) {
		if ((pre = hw_model_find(cat, o->model)) == NULL) {
			fprintf(stderr, _("parlearn: plan: unknown model "
			    "'%s'\n"), o->model);
			return -1;
		}
		*m = *pre;
	} else if (o->layers && o->hidden && o->heads && o->ffn && o->vocab &&
	    o->seq) {
		strcpy(m->name, "custom");
		m->norm = HW_NORM_LAYER;
		m->biases = m->tied = m->learned_pos = 1;
	} else {
		fprintf(stderr, "%s", _("parlearn: plan: give --model NAME or "
		    "all of --layers --hidden --heads --ffn --vocab --seq\n"));
		return -1;
	}
#define SET(f, v)	do { if (o->v) m->f = (int)o->v; } while (0)
	SET(layers, layers); SET(hidden, hidden); SET(heads, heads);
	SET(ffn, ffn); SET(vocab, vocab); SET(seq, seq);
	m->kv_heads = o->kv_heads ? (int)o->kv_heads :
	    (o->heads || o->model == NULL ? m->heads : m->kv_heads);
#undef SET
	if (o->params > 0)
		m->params = o->params;
	if (o->mlp != NULL && cm_mlp_parse(o->mlp, &m->mlp) != 0) {
		fprintf(stderr, _("parlearn: plan: unknown MLP '%s'\n"), o->mlp);
		return -1;
	}
	return 0;
}

static int
bad_word(const char *what, const char *w)
{
	fprintf(stderr, _("parlearn: plan: unknown %s '%s'\n"), what, w);
	return -1;
}

/* Words for the training setup. */
static int
apply_words(const struct plan_opts *o, struct cm_config *c)
{
	if (o->recompute && cm_recompute_parse(o->recompute, &c->recompute))
		return bad_word("recompute mode", o->recompute);
	if (o->schedule && pipe_schedule_parse(o->schedule, &c->schedule))
		return bad_word("schedule", o->schedule);
	if (o->optimizer && cm_optimizer_parse(o->optimizer, &c->optimizer))
		return bad_word("optimizer", o->optimizer);
	if (o->precision && cm_precision_parse(o->precision, &c->precision))
		return bad_word("precision", o->precision);
	if (o->attention && cm_attention_parse(o->attention, &c->attention))
		return bad_word("attention", o->attention);
	return 0;
}

static int
build_config(const struct plan_opts *o, const struct hw_catalog *cat,
    struct cm_config *c)
{
	const struct hw_gpu *g;
	struct hw_model m;
	struct pl_err err;

	if (build_model(o, cat, &m) != 0)
		return -1;
	if (hw_model_check(&m, &err) != 0) {
		fprintf(stderr, _("parlearn: plan: %s\n"), err.msg);
		return -1;
	}
	g = hw_gpu_find(cat, o->gpu != NULL ? o->gpu : "h100-80gb");
	if (g == NULL) {
		fprintf(stderr, _("parlearn: plan: unknown GPU '%s'\n"),
		    o->gpu);
		return -1;
	}
	cm_config_default(c, &m, g);
	c->gpus = o->gpus ? (int)o->gpus : (int)((o->dp ? o->dp : 1) *
	    (o->tp ? o->tp : 1) * (o->pp ? o->pp : 1));
	if (o->gpn)
		c->gpus_per_node = (int)o->gpn;
	if (o->intra_bw > 0)
		c->intra_bw = o->intra_bw * 1e9;
	if (o->inter_bw > 0)
		c->inter_bw = o->inter_bw * 1e9;
	if (o->global_batch)
		c->global_batch = o->global_batch;
	if (o->micro_batch)
		c->micro_batch = (int)o->micro_batch;
	c->dp = (int)o->dp;
	c->tp = (int)o->tp;
	c->pp = (int)o->pp;
	c->zero = (int)o->zero;
	c->seq_parallel = o->seq_parallel;
	c->pp_scatter_gather = !o->no_scatter_gather;
	if (o->realistic)
		cm_config_realistic(c);
	if (apply_words(o, c) != 0)
		return -1;
	c->virtual_stages = o->vstages ? (int)o->vstages :
	    c->schedule == PIPE_INTERLEAVED ? 2 : 1;
	return 0;
}

/* GB = 1e9 bytes, as in the lessons and the playground. */
#define GB(x)	((x) / 1e9)

static void
bar(const char *label, double bytes, double total, char ch)
{
	int i, n = total > 0 ? (int)(40 * bytes / total + 0.5) : 0;

	printf("  %-12s %8.2f GB |", label, GB(bytes));
	for (i = 0; i < 40; i++)
		putchar(i < n ? ch : ' ');
	printf("|\n");
}

static void
print_memory(const struct cm_result *r)
{
	double scale = r->mem_total > r->mem_gpu ? r->mem_total : r->mem_gpu;

	printf("%s", _("Memory per GPU (most loaded stage), bar = share of "
	    "GPU memory:\n"));
	bar(_("parameters"), r->mem_params, scale, '#');
	bar(_("gradients"), r->mem_grads, scale, '=');
	bar(_("optimizer"), r->mem_optim, scale, '%');
	bar(_("activations"), r->mem_act, scale, '*');
	bar(_("other"), r->mem_other, scale, '.');
	bar(_("total"), r->mem_total, scale, '@');
	printf(_("  GPU %.2f GB, usable %.2f GB: %s by %.2f GB (GB = 1e9 bytes)\n"),
	    GB(r->mem_gpu), GB(r->mem_usable), r->fits ? _("fits") :
	    _("does NOT fit"), GB(r->fits ? r->mem_usable - r->mem_total :
	    r->mem_total - r->mem_usable));
}

static void
print_one(const struct cm_result *r)
{
	const struct cm_config *c = &r->cfg;
	int i;

	printf(_("%s (%.2f B parameters) on %d x %s\n"), c->model.name,
	    r->params / 1e9, c->gpus, c->gpu.name);
	printf(_("Layout DP %d x TP %d x PP %d, %s (v=%d), micro-batch %d, "
	    "%ld micro-batches, ZeRO %d, recompute %s%s\n\n"), c->dp, c->tp,
	    c->pp, pipe_schedule_name(c->schedule), c->virtual_stages,
	    c->micro_batch, r->microbatches, c->zero,
	    cm_recompute_name(c->recompute), c->seq_parallel ? ", SP" : "");
	print_memory(r);
	printf("\n%s", _("Time per step:\n"));
	printf(_("  compute          %10.4f s\n"), r->t_compute);
	printf(_("  TP comm          %10.4f s\n"), r->t_tp);
	printf(_("  PP comm          %10.4f s\n"), r->t_pp);
	printf(_("  DP comm          %10.4f s (exposed %.4f s)\n"), r->t_dp,
	    r->t_dp_exposed);
	printf(_("  bubble           %10.4f s (%.1f%% of the step)\n"),
	    r->t_bubble, 100 * r->bubble_fraction);
	printf(_("  optimizer        %10.4f s\n"), r->t_optimizer);
	printf(_("  step             %10.4f s\n\n"), r->t_step);
	printf(_("Tokens/s %.0f, model TFLOP/s per GPU %.1f, hardware %.1f, "
	    "MFU %.1f%%\n"), r->tokens_per_s, r->tflops_per_gpu,
	    r->hw_tflops_per_gpu, 100 * r->mfu);
	for (i = 0; i < r->n_reasons; i++)
		printf("  - %s\n", r->reasons[i].text);
}

static void
print_search(const struct cm_search *s)
{
	const struct cm_result *r;
	int i;

	printf(_("%ld layouts evaluated, %ld fit.\n"), s->evaluated,
	    s->fitting);
	if (s->n_top == 0) {
		printf("%s", _("No layout fits."));
		if (s->have_closest)
			printf(_(" Closest: DP %d x TP %d x PP %d, %s"),
			    s->closest.cfg.dp, s->closest.cfg.tp,
			    s->closest.cfg.pp, s->closest.reasons[0].text);
		printf("\n");
		return;
	}
	printf("%s", _("rank  DP  TP  PP sched      v  b ZeRO recomp    SP "
	    "  step s  TFLOP/s   MFU   mem GB\n"));
	for (i = 0; i < s->n_top; i++) {
		r = &s->top[i];
		printf("%4d %3d %3d %3d %-10s %2d %2d %4d %-9s %-3s %8.3f %8.1f "
		    "%5.1f%% %7.1f\n", i + 1, r->cfg.dp, r->cfg.tp, r->cfg.pp,
		    pipe_schedule_name(r->cfg.schedule), r->cfg.virtual_stages,
		    r->cfg.micro_batch, r->cfg.zero,
		    cm_recompute_name(r->cfg.recompute),
		    r->cfg.seq_parallel ? _("on") : _("off"), r->t_step,
		    r->tflops_per_gpu, 100 * r->mfu, GB(r->mem_total));
		if (r->n_reasons > 1)
			printf("      %s\n", r->reasons[1].text);
	}
}

static int
emit_json(cJSON *o)
{
	char *out = o != NULL ? cJSON_Print(o) : NULL;

	cJSON_Delete(o);
	if (out == NULL)
		return 2;
	printf("%s\n", out);
	free(out);
	return 0;
}

static int
run_search(const struct cm_config *c, int json)
{
	struct cm_search *s = malloc(sizeof *s);
	struct pl_err err;
	cJSON *o, *arr;
	int i, rc = 0;

	if (s == NULL)
		return 2;
	if (cm_search(c, 10, s, &err) != 0) {
		fprintf(stderr, _("parlearn: plan: %s\n"), err.msg);
		free(s);
		return 1;
	}
	if (json) {
		o = cJSON_CreateObject();
		arr = cJSON_AddArrayToObject(o, "candidates");
		for (i = 0; i < s->n_top; i++)
			cJSON_AddItemToArray(arr, cm_result_json(&s->top[i]));
		cJSON_AddNumberToObject(o, "evaluated", (double)s->evaluated);
		cJSON_AddNumberToObject(o, "fitting", (double)s->fitting);
		rc = emit_json(o);
	} else
		print_search(s);
	free(s);
	return rc;
}

int
cli_plan_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct plan_opts o;
	struct hw_catalog cat;
	struct cm_config c;
	struct cm_result *r;
	struct pl_err err;
	char buf[2048];
	int rc;

	if ((rc = parse_opts(argc, argv, &o)) >= 0)
		return rc;
	if (hw_catalog_load(&cat, ctx->data_dir, &err) != 0) {
		fprintf(stderr, "parlearn: %s\n", pl_err_format(&err, buf,
		    sizeof buf));
		return 2;
	}
	rc = 1;
	if (build_config(&o, &cat, &c) != 0)
		goto out;
	if (!o.dp || !o.tp || !o.pp) {
		rc = run_search(&c, o.json);
		goto out;
	}
	if ((r = malloc(sizeof *r)) == NULL) {
		rc = 2;
		goto out;
	}
	if (cm_evaluate(&c, r, &err) != 0)
		fprintf(stderr, _("parlearn: plan: %s\n"), err.msg);
	else if (o.json)
		rc = emit_json(cm_result_json(r));
	else {
		print_one(r);
		rc = 0;
	}
	free(r);
out:
	hw_catalog_free(&cat);
	return rc;
}
