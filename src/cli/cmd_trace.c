/*
 * cmd_trace.c - `parlearn trace`: run the toy model for one step under a
 * parallelism mode and print its timeline, as an ASCII Gantt chart or as
 * JSON (the contract: events, loss, max_grad_error, bubble_fraction,
 * bytes_moved, and more). The options are collected into a struct
 * sim_request and made into a config by sim_config_build, the builder an
 * animation block goes through too. --from replays a saved step, such as
 * one `parlearn run` measured on real processes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <unistd.h>

#include "i18n.h"
#include "core/wrap.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "cli/common.h"
#include "cli/jsonout.h"
#include "cli/usage.h"
#include "core/json.h"
#include "core/sim/sim_dump.h"
#include "core/sim/sim_json.h"
#include "core/sim/torch_trace.h"
#include "core/sim/sim_keys.h"
#include "tui/tui.h"

#define GANTT_COLS	64	/* characters of time per row */

struct trace_opts {
	struct sim_request	 req;
	int			 json;		/* --json */
	const char		*from;		/* --from FILE */
	const char		*dump;		/* --dump-weights FILE */
	const char		*against;	/* --against PLAN */
	int			 n_run_opts;	/* options that make a run */
};

static void
usage(FILE *fp)
{
	static const char *const extra[] = { "[--json]", "[--dump-weights FILE]",
	    NULL };

	/* The settings, their synopsis and help: core/sim/sim_keys.c. */
	sim_opts_synopsis(fp, SIM_FOR_TRACE, _("Usage: parlearn trace"),
	    extra);
	fprintf(fp, "%s", _("   or: parlearn trace --from FILE... [--json]\n"
	    "Run the toy model (4 transformer layers, L1 to L4) for one "
	    "training step on\nsimulated GPUs, G0, G1, ..., and show what each "
	    "GPU does over time, with the\nGPUs and layers of each pipeline "
	    "stage (stage 0 first). Times are those of\nthe model scaled "
	    "up 512 times on H100s; bytes are the toy's own. An "
	    "animation\nblock of a lesson takes the same settings, with _ "
	    "for -.\n\n"));
	sim_opts_help(fp, SIM_FOR_TRACE);
	sim_opts_line(fp, "--json", _("print the settings, each GPU's place, "
	    "the events, memory and results as JSON (schema "
	    "parlearn.trace/1)"));
	sim_opts_line(fp, "--from FILE...", _("replay a step saved by "
	    "parlearn run -o FILE (or by trace --json), or a real step's "
	    "torch.profiler traces, one file a rank, in the player; without a "
	    "terminal, print its Gantt chart"));
	sim_opts_line(fp, "--against PLAN", _("with --from: put the "
	    "measured step beside the engine's prediction saved by parlearn "
	    "plan --json for the same layout"));
	sim_opts_line(fp, "--dump-weights FILE", _("also write the batch, "
	    "the initial weights and this run's loss, gradients and updated "
	    "weights to FILE as JSON (schema parlearn.weights/1), for "
	    "examples/pytorch"));
	sim_opts_line(fp, "-h, --help", _("show this help"));
}

/* --dump-weights FILE: every double exact, through the safe writer. */
static int
dump_weights(const char *path, const struct sim_config *cfg,
    const struct sim_result *r)
{
	cJSON *doc = cli_json_wrap(CLI_SCHEMA("weights"), sim_dump_json(cfg,
	    r));
	char *text = doc != NULL ? cJSON_PrintUnformatted(doc) : NULL;
	int rc;

	cJSON_Delete(doc);
	if (text == NULL) {
		cli_error("%s", _("out of memory"));
		return 2;
	}
	rc = cli_write_text(path, text);
	cJSON_free(text);
	return rc;
}

static int
print_json(const struct sim_config *cfg, const struct sim_result *r,
    const struct sim_origin *origin)
{
	/* The document's envelope (cli/jsonout.h) around core's JSON. */
	return cli_json_emit(cli_json_wrap(CLI_SCHEMA("trace"),
	    sim_result_json(cfg, r, origin)));
}

/*
 * The character for what device dev does at time t: compute is lettered
 * by its slice of the batch (replica's shard x m + micro-batch), as the
 * player letters it.
 */
static char
gantt_char(const struct sim_timeline *tl, int m, int dev, double t)
{
	static const char sym[SIM_NKINDS] = {
		'F', 'B', '=', '<', '>', ' ', ' ', '*', '.', ' '
	};
	char c = '.';
	size_t i;

	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->device != dev || e->start > t || e->end <= t ||
		    e->kind == SIM_SEND || e->kind == SIM_RECV ||
		    e->kind == SIM_IDLE || e->kind == SIM_RING_STEP)
			continue;
		if (e->kind == SIM_BACKWARD && e->part == SIM_PART_WEIGHTS)
			return '/';
		if (sim_kind_is_compute(e->kind))
			return (char)((e->kind == SIM_FORWARD ? 'A' : 'a') +
			    (e->microbatch < 0 ? 0 : ((e->shard > 0 ? e->shard :
			    0) * m + e->microbatch) % 26));
		c = sym[e->kind];
	}
	return c;
}

/* Which GPUs run each pipeline stage, and its layers. */
static void
print_stages(const struct sim_result *r)
{
	struct sim_place pl;
	char name[16], layers[32];
	int s, d;

	for (s = 0; s < r->pp; s++) {
		printf(_("stage %d:"), s);
		layers[0] = '\0';
		for (d = 0; d < r->tl.n_devices; d++) {
			sim_device_place(r, d, &pl);
			if (pl.stage != s)
				continue;
			printf(" %s", sim_device_name(d, name, sizeof name));
			sim_layers_text(pl.layers, layers, sizeof layers);
		}
		printf(" (%s)\n", layers);
	}
}

/* Each GPU's idle share of the compute window and its peak memory. */
static void
print_devices(const struct sim_result *r)
{
	char name[16];
	int d;

	for (d = 0; d < r->tl.n_devices; d++)
		printf(_("%s: idle %.1f%%, peak memory %zu bytes\n"),
		    sim_device_name(d, name, sizeof name),
		    100.0 * sim_timeline_device_bubble(&r->tl, d),
		    sim_timeline_peak(&r->tl, d));
}

/* EP: the all-to-alls' time a GPU, and the share of it under compute. */
static void
print_a2a(const struct sim_result *r)
{
	double hid, all = sim_timeline_a2a(&r->tl, -1, &hid);

	if (all > 0.0)
		printf(_("all-to-alls %.2f ms a GPU, %.0f%% of it under "
		    "compute\n"), all / r->tl.n_devices * 1e3, 100.0 * hid /
		    all);
}

static void
print_gantt(const struct sim_config *cfg, const struct sim_result *r,
    const struct sim_origin *origin)
{
	const struct sim_timeline *tl = &r->tl;
	double col = tl->t_end / GANTT_COLS;
	char name[16], lay[96];
	int d, c;

	if (origin != NULL && origin->profiler)	/* library: from the file */
		cli_printf(stdout, P_("measured by PyTorch on %d process (%s); clocks "
		    "aligned on the collectives\n", "measured by PyTorch on %d "
		    "processes (%s); clocks aligned on the collectives\n",
		    origin->processes), origin->processes, origin->library);
	else if (origin != NULL && origin->measured)
		cli_printf(stdout, P_("measured on %d process with %s%s\n",
		    "measured on %d processes with %s%s\n", origin->processes),
		    origin->processes, origin->library, origin->hosts == 1 ?
		    _("; CPU times on one machine") : "");
	printf(_("parlearn trace: %s on %d GPUs (%s)"),
	    sim_mode_name(cfg->mode), cfg->gpus,
	    mesh_keys_text(r->degree, lay, sizeof lay));
	if (r->pp > 1)
		printf(", %s", pipe_schedule_name(cfg->schedule));
	if (r->v > 1)
		printf(_(", %d chunks per GPU"), r->v);
	if (r->moe.experts > 0)
		printf(_(", %d experts top-%d%s, ep %d"), r->moe.experts,
		    r->moe.top_k, r->moe.shared ? _(" + shared") : "",
		    r->ep > 0 ? r->ep : 1);
	if (r->moe.router_bias > 0)
		printf(_(", router bias %d"), r->moe.router_bias);
	if (cfg->seq_parallel)
		printf("%s", _(", sequence parallel"));
	if (!cfg->overlap)
		printf("%s", _(", no overlap"));
	if (cfg->compute_only)
		printf("%s", _(", compute only"));
	printf(P_(", %d microbatch\n\n", ", %d microbatches\n\n",
	    cfg->microbatches), cfg->microbatches);
	for (d = 0; d < tl->n_devices; d++) {
		printf("%-4s|", sim_device_name(d, name, sizeof name));
		for (c = 0; c < GANTT_COLS; c++)
			putchar(gantt_char(tl, cfg->microbatches, d,
			    (c + 0.5) * col));
		printf("|\n");
	}
	printf(_("\ntime 0 to %.1f ms, one column = %.2f ms\n"),
	    tl->t_end * 1e3, col * 1e3);
	if (r->pp > 1) {
		print_stages(r);
		print_devices(r);
	}
	printf("%s", _("legend: A-Z forward of slice 0-25 of the batch "
	    "(replica x m + micro-batch),\n        a-z backward, = all-reduce, "
	    "< all-gather, > reduce-scatter,\n        * optimizer step, "
	    ". idle\n"));
	if (r->schedule == PIPE_ZB_H1 || r->schedule == PIPE_DUALPIPE)
		printf("%s", _("        / weight gradients (W) of a backward "
		    "split in two\n"));
	putchar('\n');
	if (origin == NULL || !origin->profiler)
		printf(_("loss %.15g, largest gradient difference from single "
		    "%.3g\n"), r->loss, r->max_grad_error);
	printf(_("bubble measured %.4f, formula %s %.4f\n"), r->bubble,
	    sim_bubble_formula_text(r), r->bubble_formula);
	printf(_("bytes moved %zu, step time %.1f ms\n"), r->bytes_moved,
	    r->step_time * 1e3);
	print_a2a(r);
}

/* The measured step and the engine's, row by row (trace_vs_plan.h). */
static void
print_against(const struct trace_vs_plan *t)
{
	char m[32], e[32], x[16];
	int r;

	printf("\n");
	/* TRANSLATORS: %1$s a model, %2$d GPUs, %3$s a GPU (from the
	 * plan file). */
	cli_printf(stdout, _("Measured vs the engine's plan (%1$s on %2$d "
	    "%3$s):\n"), t->model, t->gpus, t->gpu);
	printf("  %22s %12s %12s %12s\n", "", _("measured"), _("engine"),
	    _("engine/m"));
	for (r = 0; r < TVP_NROWS; r++) {
		const char *l = _(tvp_row_label(r));
		int pad = 22 - wrap_width(l, strlen(l));

		/* padded by columns: translated labels are not ASCII */
		printf("  %s%*s %12s %12s %12s\n", l, pad > 0 ? pad : 0, "",
		    tvp_value_text(r, t->measured[r], m, sizeof m),
		    tvp_value_text(r, t->engine[r], e, sizeof e),
		    tvp_ratio_text(t, r, x, sizeof x));
	}
}

/* --against FILE: the plan document beside the loaded timeline. 0, or 2
 * after printing why. */
static int
load_against(const char *file, struct tui_replay *rp,
    struct trace_vs_plan *out)
{
	struct pl_err err;
	cJSON *plan;
	int rc;

	pl_err_clear(&err);
	if ((plan = pl_json_load(file, &err)) == NULL) {
		cli_print_err(&err);
		return 2;
	}
	rc = tvp_build(&rp->res->tl, rp->origin.profiler, plan, file, out,
	    &err);
	cJSON_Delete(plan);
	if (rc != 0) {
		cli_print_err(&err);
		return 2;
	}
	rp->against = out;
	return 0;
}

/* The timeline of --from's files: a parlearn step, or ranks' torch.profiler
 * traces (core/sim/torch_trace.h). 0, or 2 after printing why. */
static int
load_from(char *const *files, int n, struct tui_replay *rp)
{
	const cJSON *roots[SIM_MAX_GPUS];
	cJSON *own[SIM_MAX_GPUS] = { NULL };
	struct pl_err err;
	int i, rc = 0;

	pl_err_clear(&err);
	if (n > SIM_MAX_GPUS)
		return cli_usage_error(_("--from takes at most %d files"),
		    SIM_MAX_GPUS);
	for (i = 0; i < n && rc == 0; i++)
		if ((own[i] = pl_json_load(files[i], &err)) == NULL)
			rc = -1;
		else
			roots[i] = own[i];
	if (rc == 0 && torch_trace_is(roots[0]))
		rc = torch_trace_read(roots, (const char *const *)files, n,
		    &rp->cfg, rp->res, &rp->origin, &err);
	else if (rc == 0 && n > 1) {
		pl_err_set(&err, files[1], 1, 1, "%s", _("several files are "
		    "torch.profiler traces, one a rank; a parlearn step is one "
		    "file"));
		rc = -1;
	} else if (rc == 0)
		rc = sim_result_from_json(roots[0], files[0], &rp->cfg, rp->res,
		    &rp->origin, &err);
	for (i = 0; i < n; i++)
		cJSON_Delete(own[i]);
	if (rc != 0)
		cli_print_err(&err);
	return rc != 0 ? 2 : 0;
}

/*
 * --from FILE...: a step saved by `parlearn run -o` or `trace --json`, or
 * the torch.profiler traces of a real step, replayed in the player on a
 * terminal, else printed.
 */
static int
trace_from(const struct cli_ctx *ctx, char *const *files, int n, int json,
    const char *against)
{
	struct tui_replay rp;
	struct tui_start st;
	struct trace_vs_plan tvp;
	int rc;

	memset(&rp, 0, sizeof rp);
	if ((rp.res = calloc(1, sizeof *rp.res)) == NULL) {
		cli_error("%s", _("out of memory"));
		return 2;
	}
	if ((rc = load_from(files, n, &rp)) != 0)
		;
	else if (against != NULL && (rc = load_against(against, &rp,
	    &tvp)) != 0)
		;
	else if (json)
		rc = print_json(&rp.cfg, rp.res, &rp.origin);
	else if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		cli_tui_start(&st, ctx, NULL, TUI_REPLAY);
		st.replay = &rp;
		rc = tui_run(&st);
	} else {
		print_gantt(&rp.cfg, rp.res, &rp.origin);
		if (rp.against != NULL)
			print_against(rp.against);
	}
	sim_result_free(rp.res);
	free(rp.res);
	return rc;
}

int
cli_trace_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct option opts[SIM_NKEYS_MAX + 6];
	size_t n = sim_opts_longopts(SIM_FOR_TRACE, opts);
	struct trace_opts o;
	struct sim_config cfg;
	struct sim_result res;
	struct pl_err err;
	int ch, rc;

	opts[n++] = (struct option){ "json", no_argument, NULL, 'j' };
	opts[n++] = (struct option){ "from", required_argument, NULL, 'F' };
	opts[n++] = (struct option){ "against", required_argument, NULL,
	    'A' };
	opts[n++] = (struct option){ "dump-weights", required_argument, NULL,
	    'W' };
	opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
	memset(&o, 0, sizeof o);
	optind = 0;
	while ((ch = cli_getopt(argc, argv, "+h", opts)) != -1) {
		if (ch == 'h') {
			usage(stdout);
			return 0;
		}
		if (ch == '?')
			return 1;
		if (ch == 'j')
			o.json = 1;
		else if (ch == 'F')
			o.from = optarg;
		else if (ch == 'A')
			o.against = optarg;
		else if (ch == 'W')
			o.dump = optarg;
		else if (sim_opts_take(SIM_FOR_TRACE, ch, optarg, &o.req,
		    &err) < 0)
			return cli_usage_error("%s", err.msg);
		else
			o.n_run_opts++;
	}
	if (optind < argc && o.from == NULL)
		return cli_extra_argument(argv[optind]);
	if (o.from != NULL && (o.n_run_opts > 0 || o.dump != NULL))
		return cli_usage_error("%s", _("--from replays a saved step; it "
		    "takes no run options"));
	if (o.from != NULL) {	/* --from F1 F2 ... [--json] [--against P] */
		int i, nf = 0;

		argv[--optind] = (char *)o.from;
		for (i = optind; i < argc; i++)
			if (strcmp(argv[i], "--json") == 0)
				o.json = 1;
			else if (strcmp(argv[i], "--against") == 0 &&
			    i + 1 < argc)
				o.against = argv[++i];
			else if (strncmp(argv[i], "--against=", 10) == 0)
				o.against = argv[i] + 10;
			else
				argv[optind + nf++] = argv[i];
		if (o.against != NULL && o.json)
			return cli_usage_error("%s", _("--against compares on "
			    "the screen or as text, not with --json"));
		return trace_from(ctx, argv + optind, nf, o.json, o.against);
	}
	if (o.against != NULL)
		return cli_usage_error("%s", _("--against needs --from: the "
		    "measured step to compare"));
	if (sim_config_build(&o.req, &cfg, &err) != 0)
		return cli_usage_error("%s", err.msg);
	if (sim_run(&cfg, &res, &err) != 0) {
		cli_error("%s", err.msg);
		return 2;
	}
	rc = o.dump != NULL ? dump_weights(o.dump, &cfg, &res) : 0;
	if (rc == 0 && o.json)
		rc = print_json(&cfg, &res, NULL);
	else if (rc == 0)
		print_gantt(&cfg, &res, NULL);
	sim_result_free(&res);
	return rc;
}
