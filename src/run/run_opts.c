/*
 * run_opts.c - `parlearn run`'s options and the config they make.
 *
 * The settings it shares with `parlearn trace` (mode, micro-batches, ...,
 * its --np being trace's --gpus) are the simulator's table's
 * (core/sim/sim_keys.c): parsed by sim_opts_take and described by
 * sim_opts_help. The config comes from sim_config_build, the simulator's
 * one builder, so a run on processes is always a layout the simulator can
 * run too and the two can be compared number for number.
 */
#include <getopt.h>
#include <string.h>

#include "i18n.h"
#include "run/run_opts.h"
#include "core/safeprint.h"
#include "core/sim/sim_keys.h"

#define RUN_MAX_TRY	64	/* process counts tried for a usage error */

void
run_opts_usage(FILE *fp)
{
	static const char *const extra[] = { "[--reduce ordered|mpi]",
	    "[--timeout SECONDS]", "[--json]", "[-o FILE]", NULL };

	/* The settings, their synopsis and help: core/sim/sim_keys.c. */
	sim_opts_synopsis(fp, SIM_FOR_RUN, _("Usage: parlearn run"), extra);
	fprintf(fp, "%s", _("Run one training step of the toy model (4 "
	    "transformer layers) on N real\nprocesses with MPI, each playing "
	    "one GPU of parlearn trace and holding only\nits shard, and check "
	    "that loss, gradients and updated parameters equal one\ndevice's. "
	    "Started by mpirun or srun, it joins their processes; otherwise "
	    "it\nstarts mpirun -np N itself.\n\n"));
	sim_opts_help(fp, SIM_FOR_RUN);
	sim_opts_line(fp, "--reduce ordered", _("add partial sums in the "
	    "simulator's ring order (default: the same bits as the "
	    "simulator)"));
	sim_opts_line(fp, "--reduce mpi", _("let MPI_Allreduce choose the "
	    "order (equal to rounding)"));
	sim_opts_line(fp, "--timeout SECONDS", _("longest any process waits "
	    "for another (default 30)"));
	sim_opts_line(fp, "--json", _("print the measured timeline and "
	    "results as JSON"));
	sim_opts_line(fp, "-o, --output FILE", _("write them to FILE (replay: "
	    "parlearn trace --from FILE)"));
	sim_opts_line(fp, "-h, --help", _("show this help"));
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

/* run's own options; the settings are sim_opts_take's. */
static int
parse_opt(struct run_opts *o, int ch, char *arg)
{
	struct pl_err err;
	int rc;

	switch (ch) {
	case 'j':
		o->json = 1;
		return 0;
	case 'O':
		o->out = arg;
		return 0;
	case 'r':
		return parse_reduce(arg, &o->reduce);
	case 't':
		return (o->timeout = parse_seconds(arg)) < 0 ? -1 : 0;
	}
	if ((rc = sim_opts_take(SIM_FOR_RUN, ch, arg, &o->req, &err)) < 0 &&
	    !quiet)
		safeprint_printf(stderr, "parlearn: run: %s\n", err.msg);
	return rc < 0 ? -1 : 0;
}

int
run_opts_parse(int argc, char **argv, struct run_opts *o, int silent)
{
	struct option opts[SIM_NKEYS_MAX + 6];
	size_t n = sim_opts_longopts(SIM_FOR_RUN, opts);
	int ch, before;

	opts[n++] = (struct option){ "reduce", required_argument, NULL, 'r' };
	opts[n++] = (struct option){ "timeout", required_argument, NULL, 't' };
	opts[n++] = (struct option){ "json", no_argument, NULL, 'j' };
	opts[n++] = (struct option){ "output", required_argument, NULL, 'O' };
	opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
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
	/* The gpus setting is run's --np: the processes, given apart. */
	o->np = o->req.gpus;
	o->req.gpus = 0;
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
		/* Options that make no run at any size: a usage error, and
		 * not the processes' fault. */
		int some = fits_some_size(&o->req);

		if (np > 0 && some)
			pl_err_set(err, NULL, 0, 0, _("%d processes do not fit "
			    "this run: %s"), np, why.msg);
		else
			pl_err_set(err, NULL, 0, 0, "%s", why.msg);
		return some ? 2 : 1;
	}
	if (np > 0 && cfg->gpus != np) {
		pl_err_set(err, NULL, 0, 0, _("%d processes do not fit mode %s: "
		    "it runs on %d"), np, sim_mode_name(cfg->mode), cfg->gpus);
		return 2;
	}
	return 0;
}
