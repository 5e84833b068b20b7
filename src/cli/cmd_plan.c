/*
 * cmd_plan.c - `parlearn plan`: one layout's memory and time breakdown, or,
 * when --dp, --tp or --pp is missing, the ranked search over layouts.
 * Every figure comes from core/costmodel; this file only parses options
 * and prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/jsonout.h"
#include "cli/output.h"
#include "cli/plan_emit.h"
#include "cli/usage.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_nccl.h"
#include "core/engine/framework.h"
#include "core/engine/hardware.h"
#include "core/engine/search_empty.h"

static int
has(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key) != NULL;
}

/* The names of the catalog's models or GPUs, comma-separated. */
static void
catalog_names(const struct hw_catalog *cat, int gpus, char *buf, size_t size)
{
	size_t i, n = gpus ? cat->n_gpus : cat->n_models, len;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%s", i ? ", " : "", gpus ?
		    cat->gpus[i].name : cat->models[i].name);
	}
}

/*
 * A builder error, naming the option when it names a key; an unknown
 * model or GPU lists the catalog's.
 */
static void
report(const struct pl_err *err, const struct hw_catalog *cat,
    const cJSON *o)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, err->path);
	char name[sizeof err->path + 3], names[1024];
	int gpus = strcmp(err->path, "gpu") == 0;

	if (cJSON_IsString(v) && ((gpus && hw_gpu_find(cat, v->valuestring) ==
	    NULL) || (strcmp(err->path, "model") == 0 &&
	    hw_model_find(cat, v->valuestring) == NULL))) {
		catalog_names(cat, gpus, names, sizeof names);
		cli_error("--%s: %s; %s: %s", err->path, err->msg, gpus ?
		    _("GPUs") : _("model presets"), names);
	} else if (cm_key_find(err->path) != NULL) {
		cli_plan_opt_name(err->path, 0, name, sizeof name);
		cli_error("--%s: %s", name, err->msg);
	} else
		cli_error("%s", err->msg);
}

/* Where the global batch came from: the contract's words. */
static const char *
batch_source(const struct cm_config *c, const cJSON *o)
{
	if (has(o, "global_batch"))
		return "option";
	return c->model.global_batch > 0 ? "model" : "default";
}

/*
 * What plan assumed when it was not told: the global batch (and where it
 * came from) and the sequence length, which set the tokens of a step.
 */
static void
print_assumed(const struct cm_config *c, const cJSON *o)
{
	const char *src = batch_source(c, o);

	printf(_("Global batch %ld samples (%s) x sequence %d tokens (%s) = "
	    "%.3g M tokens a step.\n"), c->global_batch,
	    strcmp(src, "option") == 0 ? "--global-batch" :
	    strcmp(src, "model") == 0 ? _("the model's") : _("the default"),
	    c->model.seq, has(o, "seq") ? "--seq" : _("the model's"),
	    (double)c->global_batch * c->model.seq / 1e6);
	cli_print_measured(stdout, &c->gpu);
}

static cJSON *
assumed_json(const struct cm_config *c, const cJSON *o)
{
	cJSON *a = cJSON_CreateObject();

	cJSON_AddNumberToObject(a, "global_batch", (double)c->global_batch);
	cJSON_AddStringToObject(a, "global_batch_from", batch_source(c, o));
	cJSON_AddNumberToObject(a, "seq_tokens", c->model.seq);
	cJSON_AddStringToObject(a, "seq_from", has(o, "seq") ? "option" :
	    "model");
	cJSON_AddNumberToObject(a, "tokens_per_step",
	    (double)c->global_batch * c->model.seq);
	cli_measured_json(a, &c->gpu);
	return a;
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
	printf(_("    buffers %.2f GB, NCCL %.2f GB"), GB(r->mem_buffers),
	    GB(r->mem_nccl));
	if (r->mem_gathered > 0 || r->mem_grads_whole > 0)
		printf(_(", ZeRO-3 weights held whole %.2f GB, gradients "
		    "before their reduce-scatter %.2f GB"), GB(r->mem_gathered),
		    GB(r->mem_grads_whole));
	printf("\n");
	bar(_("total"), r->mem_total, scale, '@');
	printf(_("  GPU %.2f GB, usable %.2f GB: %s by %.2f GB (GB = 1e9 bytes)\n"),
	    GB(r->mem_gpu), GB(r->mem_usable), r->fits ? _("fits") :
	    _("does NOT fit"), GB(r->fits ? r->mem_usable - r->mem_total :
	    r->mem_total - r->mem_usable));
}

/* 1 if o gives every axis's degree, or 1 for an optional axis's (else
 * plan searches). */
static int
every_degree(const cJSON *o)
{
	int a;

	for (a = 0; a < MESH_N_AXES; a++)
		if (!has(o, mesh_axis((enum mesh_axis)a)->key) &&
		    !mesh_axis((enum mesh_axis)a)->optional)
			return 0;
	return 1;
}

static void print_assumed(const struct cm_config *, const cJSON *);

/* "33.6 MB", "512 kB": a message's size. */
static void
size_text(double bytes, char *buf, size_t size)
{
	if (bytes >= 1e6)
		snprintf(buf, size, _("%.1f MB"), bytes / 1e6);
	else
		snprintf(buf, size, _("%.0f kB"), bytes / 1e3);
}

/* "131 us", "1.19 ms": a collective's time. */
static void
time_text(double s, char *buf, size_t size)
{
	if (s >= 1e-3)
		snprintf(buf, size, _("%.2f ms"), 1e3 * s);
	else
		snprintf(buf, size, _("%.0f us"), 1e6 * s);
}

/* The group's usual collective, NCCL's choice for it and its time. */
static void
print_collective(const struct cm_result *r, enum mesh_axis a)
{
	static const char *const kind[] = { N_("all-reduce"),
	    N_("all-gather"), N_("reduce-scatter") };
	struct cm_coll_note n;
	char sz[32], tn[32], tr[32];

	if (!cm_group_collective(r, a, &n) || n.kind > CM_REDUCESCATTER)
		return;
	size_text(n.bytes, sz, sizeof sz);
	time_text(n.pick.t, tn, sizeof tn);
	time_text(n.ring_s, tr, sizeof tr);
	/* TRANSLATORS: "one all-gather of 405.9 MB" */
	printf(_("    one %s of %s:\n"), _(kind[n.kind]), sz);
	if (r->cfg.nccl_model == CM_COLL_TUNED)
		/* TRANSLATORS: "ring/LL128, 1.37 ms, as priced; the Simple
		 * ring 1.42 ms" */
		printf(_("      NCCL picks %s/%s, %s, as priced; the Simple "
		    "ring %s\n"), cm_nccl_algo_name(n.pick.algo),
		    cm_nccl_proto_name(n.pick.proto), tn, tr);
	else
		printf(_("      NCCL picks %s/%s, %s; priced as the Simple "
		    "ring, %s\n"), cm_nccl_algo_name(n.pick.algo),
		    cm_nccl_proto_name(n.pick.proto), tn, tr);
}

/* Bus bandwidth each group gets and where its ranks sit. */
static void
print_links(const struct cm_result *r)
{
	const struct mesh_span *g;
	struct mesh inner;
	enum mesh_axis a;
	double bw;
	int i;

	/* Innermost axis first, as the default rank order numbers them. */
	mesh_init(&inner, 1);
	for (i = 0; i < MESH_N_AXES; i++) {
		a = inner.order[i];
		g = &r->group[a];
		bw = r->group_bw[a];
		if (g->n <= 1)
			continue;
		/* TRANSLATORS: "TP group: 8 ranks, 8 per node on 1 node(s),
		 * 346 GB/s" */
		printf(_("  %s group: %d ranks, %d per node on %d node(s), "
		    "%.0f GB/s\n"), mesh_axis(a)->label, g->n, g->per_node,
		    g->nodes, bw / 1e9);
		if (cm_axis_nvls_bw(r, a) > bw)
			printf(_("    its all-reduces: %.0f GB/s with NVLink "
			    "SHARP\n"), cm_axis_nvls_bw(r, a) / 1e9);
		if (a == MESH_TP || a == MESH_DP)
			print_collective(r, a);
	}
	if (r->dp_bytes > 0)
		printf(_("  DP traffic: %.2f GB sent per GPU per step in %ld "
		    "collectives\n"), r->dp_bytes / 1e9, r->dp_collectives);
	if (r->t_nic_shared > 0)
		printf(_("  shared NICs: +%.4f s a step (TP/PP traffic across "
		    "nodes meets DP traffic on the same NICs)\n"),
		    r->t_nic_shared);
}

static void
print_one(const struct cm_result *r, const cJSON *o)
{
	const struct cm_config *c = &r->cfg;
	char fw[200], lay[96];
	struct mesh m;
	int i;

	if (c->model.experts > 0)
		cli_printf(stdout, _("%s (%.2f B parameters, %.2f B active) on "
		    "%d x %s\n"), c->model.name, r->params / 1e9,
		    r->params_active / 1e9, c->gpus, c->gpu.name);
	else
		cli_printf(stdout, _("%s (%.2f B parameters) on %d x %s\n"),
		    c->model.name, r->params / 1e9, c->gpus, c->gpu.name);
	cm_mesh(c, &m);
	mesh_layout_text(&m, lay, sizeof lay);
	if (cm_ep(c) > 1) {
		size_t n = strlen(lay);

		snprintf(lay + n, sizeof lay - n, ", EP %d", cm_ep(c));
	}
	if (c->model.experts > 0 && cm_etp(c) != c->tp) {
		size_t n = strlen(lay);

		snprintf(lay + n, sizeof lay - n, ", expert TP %d", cm_etp(c));
	}
	printf(_("Layout %s, %s (v=%d), micro-batch %d, %ld micro-batches, "
	    "ZeRO %d, recompute %s%s\n"), lay, pipe_schedule_name(c->schedule),
	    c->virtual_stages,
	    c->micro_batch, r->microbatches, c->zero,
	    cm_recompute_name(c->recompute), c->seq_parallel ? ", SP" : "");
	/* TRANSLATORS: "Kernels eager, attention flash"; the words are the
	 * values of --kernels and --attention and stay untranslated */
	printf(_("Kernels %s, attention %s"), cm_kernels_name(c->kernels),
	    cm_attention_name(c->attention));
	if (c->zero >= 3)
		printf(_(", ZeRO-3 gathers per %s"),
		    cm_gather_name(c->weight_gather));
	printf("\n");
	if (c->precision == CM_PREC_FP8)
		/* TRANSLATORS: "fp8, recipe tensorwise": option values */
		printf(_("Precision fp8, recipe %s: the linear layers' products "
		    "in FP8; MFU is over the bf16 peak; FP8 weight copies "
		    "%.2f GB (in other)\n"), cm_fp8_recipe_name(c->fp8_recipe),
		    r->mem_fp8 / 1e9);
	if (c->fp8_attention)
		printf("%s\n", _("Attention in FP8 too (Transformer Engine's "
		    "FP8 attention): its forward at FlashAttention-3's FP8 "
		    "speed, its backward priced at bf16's (no FP8 backward "
		    "speed is published)"));
	print_assumed(c, o);
	printf("\n");
	print_memory(r);
	printf("\n%s", _("Time per step:\n"));
	printf(_("  compute          %10.4f s\n"), r->t_compute);
	printf(_("    matmuls %.4f s, attention %.4f s, element-wise %.4f s\n"),
	    r->t_gemm, r->t_attn, r->t_elementwise);
	if (r->t_dp_copies > 0)
		/* TRANSLATORS: FSDP2 copies the gathered weights into each
		 * parameter and the gradients into the reduce-scatter's input;
		 * DDP the gradients into its buckets and back */
		printf(_("    of the element-wise, %s's copies around its "
		    "collectives: %.4f s\n"), c->zero >= 3 ? "FSDP2" : "DDP",
		    r->t_dp_copies);
	if (r->t_overhead > 0)
		printf(_("    host issuing kernels, not hidden: %.4f s\n"),
		    r->t_overhead);
	printf(_("    host issuing: forward %.4f s, backward %.4f s, "
	    "optimizer %.4f s\n"), r->t_host_fwd, r->t_host_bwd,
	    r->t_host_opt);
	printf(_("  TP comm          %10.4f s (exposed %.4f s)\n"), r->t_tp,
	    r->t_tp_exposed);
	printf(_("  PP comm          %10.4f s\n"), r->t_pp);
	printf(_("  DP comm          %10.4f s (exposed %.4f s)\n"), r->t_dp,
	    r->t_dp_exposed);
	if (c->cp > 1)
		/* TRANSLATORS: %s is ring, all-gather or ulysses */
		printf(_("  CP comm          %10.4f s (exposed %.4f s; %s, "
		    "K/V in flight %.2f GB)\n"), r->t_cp, r->t_cp_exposed,
		    cm_cp_impl_name(c->cp_impl), r->mem_cp / 1e9);
	if (cm_ep(c) > 1 && r->t_ep_exposed >= r->t_ep)
		printf(_("  EP comm          %10.4f s (exposed; all-to-alls of "
		    "%.2f GB a GPU)\n"), r->t_ep, r->ep_bytes / 1e9);
	else if (cm_ep(c) > 1)
		printf(_("  EP comm          %10.4f s (exposed %.4f s beside "
		    "another micro-batch; all-to-alls of %.2f GB a GPU)\n"),
		    r->t_ep, r->t_ep_exposed, r->ep_bytes / 1e9);
	if (c->model.dense_layers > 0 && c->model.experts > 0)
		printf(_("  slowest stage    %s, %d dense and %d MoE layers: "
		    "it paces the step\n"), r->slow_stage == 0 ?
		    _("the first") :
		    r->slow_stage == c->pp - 1 ? _("the last") :
		    _("a middle one"), r->slow_dense,
		    r->slow_layers - r->slow_dense);
	if (r->t_comm_slowed > 0)
		printf(_("  slowed compute   %10.4f s (beside hidden "
		    "collectives)\n"), r->t_comm_slowed);
	print_links(r);
	printf(_("  bubble           %10.4f s (%.1f%% of the step)\n"),
	    r->t_bubble, 100 * r->bubble_fraction);
	printf(_("  optimizer        %10.4f s\n"), r->t_optimizer);
	printf(_("  step             %10.4f s\n\n"), r->t_step);
	printf(_("Tokens/s %.0f, model TFLOP/s per GPU %.1f, hardware %.1f, "
	    "MFU %.1f%%\n"), r->tokens_per_s, r->tflops_per_gpu,
	    r->hw_tflops_per_gpu, 100 * r->mfu);
	printf(_("Runs on: %s\n"), fw_list_text(r->frameworks, fw,
	    sizeof fw));
	if (r->priced_as != 0)
		printf(_("Priced as %s runs it: gradients in %s, reduced in "
		    "%s, optimizer %s.\n"), fw_list_text(r->priced_as, fw,
		    sizeof fw), c->grad_accum_fp32 ? "fp32" : "bf16",
		    c->reduce_fp32 ? "fp32" : "bf16",
		    cm_opt_impl_name(cm_opt_impl_of(c)));
	else
		printf(_("Priced as set: gradients in %s, reduced in %s, "
		    "optimizer %s (--framework NAME prices it as that "
		    "framework runs it).\n"), c->grad_accum_fp32 ? "fp32" :
		    "bf16", c->reduce_fp32 ? "fp32" : "bf16",
		    cm_opt_impl_name(cm_opt_impl_of(c)));
	for (i = 0; i < r->n_reasons; i++)
		cli_printf(stdout, "  - %s\n", r->reasons[i].text);
}

/* "1=" for a tie, "3" alone. */
static void
rank_text(const struct cm_result *r, char *buf, size_t size)
{
	snprintf(buf, size, "%d%s", r->rank, r->tied ? "=" : "");
}

static void
print_search_head(const struct cm_search *s, const struct cm_config *c)
{
	char fw[200];
	int i;

	printf(_("%ld rows priced (each layout once per framework that runs "
	    "it, alike ones once), %ld fit; %ld ranked (%ld keep less than "
	    "%.0f%% of GPU memory free, %ld run on no framework).\n"),
	    s->evaluated, s->fitting, s->eligible, s->low_headroom,
	    100 * c->headroom, s->no_framework);
	if (c->any_framework)
		printf("%s\n", _("--any-framework: layouts no framework runs "
		    "are ranked too."));
	for (i = 0, fw[0] = '\0'; i < FW_N; i++)
		snprintf(fw + strlen(fw), sizeof fw - strlen(fw), "%s%s %s",
		    i ? ", " : "", fw_short((enum fw_id)i),
		    fw_label((enum fw_id)i));
	printf(_("Rank: steps within %.0f%% of a tier's first share its rank "
	    "(=). fw: the frameworks a row is priced as, %s.\n"),
	    100 * CM_TIE_TOL, fw);
}

static void
print_row_reasons(const struct cm_result *r)
{
	static const char mark[] = { '*', '+', '-' };
	int i, tie;

	/* Notes shown in a row: ties, and what TP overlap changes. */
	for (i = 0; i < r->n_reasons; i++) {
		tie = strcmp(r->reasons[i].code, "tie") == 0;
		if (r->reasons[i].effect == CM_NOTE && !tie &&
		    strcmp(r->reasons[i].code, "tp_overlap") != 0)
			continue;
		cli_printf(stdout, "        %c %s\n", tie ? '=' :
		    mark[r->reasons[i].effect], r->reasons[i].text);
	}
}

static void
print_search(const struct cm_search *s, const struct cm_config *c)
{
	const struct cm_result *r;
	char rk[16], fw[16], z[8], why[CM_REASON_LEN], lay[96];
	struct mesh m;
	int i, a;

	print_search_head(s, c);
	if (s->evaluated == 0)
		return;
	if (s->n_top == 0) {
		printf("%s", _("No layout is ranked."));
		cm_mesh(&s->closest.cfg, &m);
		if (s->have_closest)
			printf(_(" Closest: %s, %s"), mesh_layout_text(&m, lay,
			    sizeof lay), s->closest.fits ?
			    cm_search_why_excluded(&s->closest, why,
			    sizeof why) : s->closest.reasons[0].text);
		printf("\n");
		return;
	}
	/* One column per axis, between the rank and the schedule. */
	printf("%s", _("  # rank"));
	for (a = 0; a < MESH_N_AXES; a++)
		printf(" %3s", mesh_axis((enum mesh_axis)a)->label);
	if (c->model.experts > 0)
		printf(" %3s %3s", "EP", "ETP");
	printf("%s", _(" sched       v  b ZeRO recomp    SP   step s  TFLOP/s   "
	    "MFU  mem GB free  fw\n"));
	for (i = 0; i < s->n_top; i++) {
		r = &s->top[i];
		rank_text(r, rk, sizeof rk);
		printf("%3d %4s", i + 1, rk);
		for (a = 0; a < MESH_N_AXES; a++)
			printf(" %3d", r->cfg.degree[a]);
		if (c->model.experts > 0)
			printf(" %3d %3d", cm_ep(&r->cfg), cm_etp(&r->cfg));
		printf(" %-11s %2d %2d %4s %-9s %-3s %8.3f "
		    "%8.1f %5.1f%% %7.1f %3.0f%%  %s\n",
		    pipe_schedule_name(r->cfg.schedule),
		    r->cfg.virtual_stages, r->cfg.micro_batch,
		    cm_zero_label(&r->cfg, z, sizeof z),
		    cm_recompute_name(r->cfg.recompute),
		    r->cfg.seq_parallel ? _("on") : _("off"), r->t_step,
		    r->tflops_per_gpu, 100 * r->mfu, GB(r->mem_total),
		    100 * r->headroom, fw_short_text(r->priced_as, fw,
		    sizeof fw));
		print_row_reasons(r);
	}
}

/*
 * Why the search had nothing to evaluate, each reason on a line, and the
 * nearest GPU counts that have layouts.
 */
static void
print_empty(const struct cm_empty *e, const struct cm_config *c)
{
	int i;

	printf(_("No layout for %d GPUs:\n"), c->gpus);
	for (i = 0; i < e->n; i++)
		cli_printf(stdout, "  - %s\n", e->reasons[i].text);
	if (e->gpus_below > 0 && e->gpus_above > 0)
		printf(_("Nearest GPU counts with layouts: --gpus %d or --gpus "
		    "%d.\n"), e->gpus_below, e->gpus_above);
	else if (e->gpus_below > 0 || e->gpus_above > 0)
		printf(_("Nearest GPU count with layouts: --gpus %d.\n"),
		    e->gpus_below > 0 ? e->gpus_below : e->gpus_above);
}

static cJSON *
empty_json(const struct cm_empty *e)
{
	cJSON *o = cJSON_CreateObject(), *a, *r;
	int i;

	a = cJSON_AddArrayToObject(o, "reasons");
	for (i = 0; i < e->n; i++) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "code", e->reasons[i].code);
		cJSON_AddStringToObject(r, "text", e->reasons[i].text);
		cJSON_AddItemToArray(a, r);
	}
	a = cJSON_AddArrayToObject(o, "nearest_gpus");
	if (e->gpus_below > 0)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(e->gpus_below));
	if (e->gpus_above > 0)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(e->gpus_above));
	return o;
}

/*
 * The engine's result as the document schema: the schema first, what was
 * assumed, then every member of result (which is freed).
 */
static int
emit_json(const char *schema, cJSON *result, const struct cm_config *c,
    const cJSON *o, cJSON *extra_name_value, const char *extra_name)
{
	cJSON *doc = cli_json_doc(schema), *m;

	if (doc == NULL || result == NULL) {
		cJSON_Delete(doc);
		cJSON_Delete(result);
		cJSON_Delete(extra_name_value);
		return cli_json_emit(NULL);
	}
	cJSON_AddItemToObject(doc, "assumed", assumed_json(c, o));
	while ((m = result->child) != NULL) {
		cJSON_DetachItemViaPointer(result, m);
		cJSON_AddItemToObject(doc, m->string, m);
	}
	cJSON_Delete(result);
	if (extra_name_value != NULL)
		cJSON_AddItemToObject(doc, extra_name, extra_name_value);
	return cli_json_emit(doc);
}

/* The searched knobs the user gave: the search keeps them as given. */
static unsigned
kept_knobs(const cJSON *o)
{
	unsigned k = 0;

	k |= has(o, "micro_batch") ? CM_KEEP_MICRO_BATCH : 0;
	k |= has(o, "schedule") || has(o, "virtual_stages") ?
	    CM_KEEP_SCHEDULE : 0;
	k |= has(o, "zero") ? CM_KEEP_ZERO : 0;
	k |= has(o, "recompute") ? CM_KEEP_RECOMPUTE : 0;
	k |= has(o, "seq_parallel") ? CM_KEEP_SP : 0;
	k |= has(o, "reshard_after_forward") || has(o, "hsdp") ?
	    CM_KEEP_FSDP : 0;
	k |= has(o, "ep") || has(o, "etp") ? CM_KEEP_EP : 0;
	return k;
}

static int
run_search(const struct cm_config *c, const cJSON *o, int json)
{
	struct cm_search *s = malloc(sizeof *s);
	struct cm_empty e;
	struct pl_err err;
	int rc = 0;

	if (s == NULL)
		return 2;
	if (cm_search(c, 10, s, &err) != 0) {
		cli_error("%s", err.msg);
		free(s);
		return 1;
	}
	if (s->evaluated == 0)
		cm_search_why_empty(c, &e);
	if (json)
		rc = emit_json(CLI_SCHEMA("plan-search"), cm_search_json(s), c,
		    o, s->evaluated == 0 ? empty_json(&e) : NULL, "no_layout");
	else {
		print_assumed(c, o);
		print_search(s, c);
		if (s->evaluated == 0)
			print_empty(&e, c);
	}
	free(s);
	return rc;
}

static int
run_one(const struct cm_config *c, const cJSON *o, int json)
{
	struct cm_result *r = malloc(sizeof *r);
	struct pl_err err;
	int rc = 1;

	if (r == NULL)
		return 2;
	if (cm_evaluate(c, r, &err) != 0)
		cli_error("%s", err.msg);
	else if (json)
		rc = emit_json(CLI_SCHEMA("plan"), cm_result_json(r), c, o,
		    NULL, NULL);
	else {
		print_one(r, o);
		rc = 0;
	}
	free(r);
	return rc;
}

int
cli_plan_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct hw_catalog cat;
	struct cm_config c;
	struct pl_err err;
	char buf[2048];
	struct plan_args a;
	cJSON *o;
	int rc;

	if ((o = cli_plan_options(argc, argv, &a, &rc)) == NULL)
		return rc;
	if (hw_catalog_load(&cat, ctx->data_dir, &err) != 0) {
		cli_error("%s", pl_err_format(&err, buf, sizeof buf));
		cJSON_Delete(o);
		return 2;
	}
	if (cm_config_from_json(&c, o, &cat, NULL, "", &err) != 0) {
		/* Only --hardware's file names a file: bad input, exit 2. */
		if (err.file[0] != '\0') {
			cli_error("%s", pl_err_format(&err, buf, sizeof buf));
			rc = 2;
		} else {
			report(&err, &cat, o);
			rc = 1;
		}
	} else {
		c.search_keep = kept_knobs(o);
		rc = a.emit != NULL ? plan_emit_run(&c, !every_degree(o), &a) :
		    !every_degree(o) ? run_search(&c, o, a.json) :
		    run_one(&c, o, a.json);
	}
	cJSON_Delete(o);
	hw_catalog_free(&cat);
	return rc;
}
