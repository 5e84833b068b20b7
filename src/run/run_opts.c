/*
 * run_opts.c - `parlearn run`'s options and the config they make.
 *
 * The config comes from sim_config_build, the simulator's one builder,
 * so a run on processes is always a layout the simulator can run too and
 * the two can be compared number for number.
 */
#include <getopt.h>
#include <limits.h>
#include <string.h>

#include "i18n.h"
#include "run/run_opts.h"
#include "core/number.h"
#include "core/safeprint.h"

#define RUN_MAX_TRY	64	/* process counts tried for a usage error */

void
run_opts_usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn run [--mode MODE] [--np N] "
	    "[--microbatches M]\n"
	    "         [--schedule gpipe|1f1b|interleaved] [--virtual-stages V]\n"
	    "         [--sequence-parallel] [--no-overlap] [--reduce ordered|mpi]\n"
	    "         [--timeout SECONDS] [--json] [-o FILE]\n"
	    "Run one training step of the toy model (4 transformer layers) on N "
	    "real\nprocesses with MPI, each holding only its shard, and check "
	    "that loss,\ngradients and updated parameters equal one device's.\n"
	    "Started by mpirun or srun, it joins their processes; otherwise it "
	    "starts\nmpirun -np N itself.\n"
	    "\n"
	    "  --mode MODE           single, dp, tp, pp, fsdp or 3d (default pp)\n"
	    "  --np N                processes (default 4; 3d needs 8; under "
	    "mpirun or\n"
	    "                        srun, the processes they started)\n"
	    "  --microbatches M      micro-batches per pipeline (default 8 for "
	    "pp and 3d,\n"
	    "                        else 1)\n"
	    "  --schedule S          gpipe, 1f1b or interleaved (default 1f1b)\n"
	    "  --virtual-stages V    model chunks per process, interleaved only\n"
	    "  --sequence-parallel   split norms and residuals by position "
	    "(tp, 3d)\n"
	    "  --no-overlap          reduce DP gradients after the backward "
	    "pass; gather\n"
	    "                        ZeRO-3 layers without prefetching\n"
	    "  --reduce ordered      add partial sums in the simulator's ring "
	    "order\n"
	    "                        (default: the same bits as the simulator)\n"
	    "  --reduce mpi          let MPI_Allreduce choose the order (equal "
	    "to\n"
	    "                        rounding)\n"
	    "  --timeout SECONDS     longest any process waits for another "
	    "(default 30)\n"
	    "  --json                print the measured timeline and results as "
	    "JSON\n"
	    "  -o, --output FILE     write them to FILE (replay: parlearn trace "
	    "--from\n"
	    "                        FILE)\n"
	    "  -h, --help            show this help\n"));
}

static int quiet;	/* 1: parse without printing errors */

/*
 * A bad option in the one line every command uses (src/cli/usage.h, which
 * this file, shared with the MPI helper, cannot link): "parlearn: run:
 * what (try 'parlearn run --help')".
 */
static void
bad_option(int ch, char **argv, int argc, int before)
{
	const char *w = optind > before && optind - 1 < argc ?
	    argv[optind - 1] : "";
	int n = (int)strcspn(w, "=");

	if (quiet)
		return;
	if (strncmp(w, "--", 2) == 0)
		safeprint_printf(stderr,
		    ch == ':' ? _("parlearn: run: option '%.*s' "
		    "requires an argument (try 'parlearn run --help')\n") :
		    optopt != 0 ? _("parlearn: run: option '%.*s' does not take "
		    "an argument (try 'parlearn run --help')\n") :
		    _("parlearn: run: unrecognized option '%.*s' (try 'parlearn "
		    "run --help')\n"), n, w);
	else
		fprintf(stderr, ch == ':' ? _("parlearn: run: option '-%c' "
		    "requires an argument (try 'parlearn run --help')\n") :
		    _("parlearn: run: unrecognized option '-%c' (try 'parlearn "
		    "run --help')\n"), optopt > ' ' && optopt < 127 ? optopt : '?');
}

/*
 * A whole number in [1, INT_MAX], or -1 after printing an error; the
 * message is cli_whole_number's (cli/usage.c), which this program does
 * not link.
 */
static int
parse_count(const char *opt, const char *s)
{
	long v;

	if (pl_parse_long(s, 1, INT_MAX, &v) == 0)
		return (int)v;
	if (!quiet) {
		safeprint_printf(stderr, "parlearn: run: ");
		safeprint_printf(stderr, _("%s: '%s' is not a whole number "
		    "from %ld to %ld"), opt, s, 1L, (long)INT_MAX);
		safeprint_printf(stderr, "\n");
	}
	return -1;
}

/* Seconds as digits[.digits] in any locale, 0 < s <= 86400; -1 if not. */
static double
parse_seconds(const char *s)
{
	double v = 0, scale = 1;
	const char *p = s;
	int digits = 0;

	for (; *p >= '0' && *p <= '9'; p++, digits++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			v += (*p - '0') * (scale /= 10);
	if (digits == 0 || *p != '\0' || v <= 0 || v > 86400) {
		if (!quiet)
			safeprint_printf(stderr,
			    _("parlearn: run: --timeout needs seconds "
			    "between 0 and 86400, such as 2.5, not '%s'\n"), s);
		return -1;
	}
	return v;
}

static int
parse_reduce(const char *s, enum run_reduce *r)
{
	if (strcmp(s, "ordered") == 0)
		*r = RUN_REDUCE_ORDERED;
	else if (strcmp(s, "mpi") == 0)
		*r = RUN_REDUCE_MPI;
	else {
		if (!quiet)
			safeprint_printf(stderr,
			    _("parlearn: run: --reduce is ordered or mpi, "
			    "not '%s'\n"), s);
		return -1;
	}
	return 0;
}

static int
parse_opt(struct run_opts *o, int ch, char *arg)
{
	int n;

	switch (ch) {
	case 'm':
		o->req.mode = arg;
		return 0;
	case 's':
		o->req.schedule = arg;
		return 0;
	case 'j':
		o->json = 1;
		return 0;
	case 'O':
		o->out = arg;
		return 0;
	case 'p':
		o->req.seq_parallel = 1;
		return 0;
	case 'x':
		o->req.no_overlap = 1;
		return 0;
	case 'r':
		return parse_reduce(arg, &o->reduce);
	case 't':
		return (o->timeout = parse_seconds(arg)) < 0 ? -1 : 0;
	}
	n = parse_count(ch == 'n' ? "--np" : ch == 'b' ? "--microbatches" :
	    "--virtual-stages", arg);
	if (n < 0)
		return -1;
	if (ch == 'n')
		o->np = n;
	else if (ch == 'b')
		o->req.microbatches = n;
	else
		o->req.vstages = n;
	return 0;
}

int
run_opts_parse(int argc, char **argv, struct run_opts *o, int silent)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "np", required_argument, NULL, 'n' },
		{ "microbatches", required_argument, NULL, 'b' },
		{ "schedule", required_argument, NULL, 's' },
		{ "virtual-stages", required_argument, NULL, 'v' },
		{ "sequence-parallel", no_argument, NULL, 'p' },
		{ "no-overlap", no_argument, NULL, 'x' },
		{ "reduce", required_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, before;

	memset(o, 0, sizeof *o);
	o->timeout = RUN_TIMEOUT_DEFAULT;
	quiet = silent;
	opterr = 0;
	optind = 0;
	for (;;) {
		before = optind > 0 ? optind : 1;
		if ((ch = getopt_long(argc, argv, "+:ho:", opts, NULL)) == -1)
			break;
		if (ch == 'h')
			return -1;
		if (ch == 'o')
			ch = 'O';
		if (ch == '?' || ch == ':') {
			bad_option(ch, argv, argc, before);
			return 1;
		}
		if (parse_opt(o, ch, optarg) != 0)
			return 1;
	}
	if (optind < argc) {
		if (!quiet)
			safeprint_printf(stderr,
			    _("parlearn: run: unexpected argument "
			    "'%s' (try 'parlearn run --help')\n"), argv[optind]);
		return 1;
	}
	return 0;
}

/* Does any count of processes make a run of these options? */
static int
fits_some_size(const struct sim_request *r)
{
	struct sim_request req = *r;
	struct sim_config cfg;
	struct pl_err why;

	for (req.gpus = 1; req.gpus <= RUN_MAX_TRY; req.gpus++)
		if (sim_config_build(&req, &cfg, &why) == 0)
			return 1;
	return 0;
}

int
run_opts_config(const struct run_opts *o, int np, struct sim_config *cfg,
    struct pl_err *err)
{
	struct sim_request req = o->req;
	struct pl_err why;

	req.gpus = np;
	if (sim_config_build(&req, cfg, &why) != 0) {
		if (np > 0)
			pl_err_set(err, NULL, 0, 0, _("%d processes do not fit "
			    "this run: %s"), np, why.msg);
		else
			pl_err_set(err, NULL, 0, 0, "%s", why.msg);
		/* Options that make no run at any size: a usage error. */
		return fits_some_size(&o->req) ? 2 : 1;
	}
	if (np > 0 && cfg->gpus != np) {
		pl_err_set(err, NULL, 0, 0, _("%d processes do not fit mode %s: "
		    "it runs on %d"), np, sim_mode_name(cfg->mode), cfg->gpus);
		return 2;
	}
	return 0;
}
