/*
 * run_main.c - parlearn-run: one MPI process of `parlearn run`.
 *
 * Started N times by mpirun or srun (directly, or by `parlearn run`),
 * each process joins MPI, agrees on the request with the others, sets
 * its clock against rank 0's, runs its part of the step (run_exec.c) and
 * sends its results to rank 0, which reports (run_report.c). Exit codes
 * as parlearn's: 0, 1 usage, 2 bad request or a failed run.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <locale.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "run/run_exec.h"
#include "run/run_progress.h"
#include "run/run_report.h"
#include "run/run_world.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "core/safeprint.h"

#ifndef LOCALEDIR
#define LOCALEDIR	"/usr/local/share/locale"
#endif

/* The request, checked the same way on every rank; only rank 0 speaks. */
static int
check_request(const struct run_proc *p, int argc, char **argv,
    struct run_opts *o, struct sim_config *cfg)
{
	struct pl_err err;
	int rc;

	rc = run_opts_parse(argc, argv, o, p->rank != 0);
	if (rc != 0) {
		if (rc < 0 && p->rank == 0)
			run_opts_usage(stdout);
		return rc < 0 ? 0 : rc;
	}
	if (o->np > 0 && o->np != p->size) {
		if (p->rank == 0)
			fprintf(stderr, _("parlearn: run: --np %d, but %d processes were "
		    "started\n"), o->np, p->size);
		return 2;
	}
	if ((rc = run_opts_config(o, p->size, cfg, &err)) != 0) {
		if (p->rank == 0 && rc == 1)
			cli_usage_error("%s", err.msg);
		else if (p->rank == 0)
			safeprint_printf(stderr,
			    _("parlearn: run: %s\n"), err.msg);
		return rc;
	}
	return -1;
}

int
main(int argc, char **argv)
{
	static struct run_exec x;
	struct run_proc p;
	struct run_opts o;
	struct sim_config cfg;
	double timeout;
	int rc, asked;

	setlocale(LC_ALL, "");
#if defined(ENABLE_NLS) && ENABLE_NLS
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
#endif
	cli_set_command("run");
	/*
	 * --timeout bounds MPI_Init too: parsed quietly first (a bad
	 * request is told once MPI can say which rank speaks), with the
	 * rank the launcher gave this process.
	 */
	if (run_opts_parse(argc, argv, &o, 1) != 0) {
		o.timeout = RUN_TIMEOUT_DEFAULT;
		o.np = 0;
	}
	timeout = o.timeout;
	/* Asked for N but started alone (another MPI's launcher, srun
	 * without a PMI): one line, before running N separate jobs. */
	asked = run_world_asked(o.np);
	if ((rc = run_world_before(asked)) >= 0)
		return rc;
	p.rank = run_env_rank();
	p.size = run_env_size();
	p.timeout = timeout;
	run_progress_open(p.rank);
	run_progress_on_term();
	run_guard(&p, _("while starting MPI"), _("MPI to start"));
	run_fault_edge(p.rank, RUN_AT_INIT);
	MPI_Init(&argc, &argv);
	run_unguard();
	run_proc_init(&p, timeout);
	run_progress_set_rank(p.rank);
	run_progress_busy("%s", _("while setting up the step"));
	if ((rc = run_world_check(p.size, asked)) < 0)
		rc = check_request(&p, argc, argv, &o, &cfg);
	if (rc < 0) {
		run_exec_init(&x, &p, &cfg, o.reduce);
		run_clock_sync(&p);
		run_exec_step(&x);
		run_progress_busy("%s", _("while reporting the results"));
		rc = run_report(&x, &o, &cfg);
		run_exec_free(&x);
	}
	/* A lost result is a failed run (stdout full, closed, gone). */
	if (p.rank == 0)
		rc = cli_finish(rc);
	run_guard(&p, _("while finishing MPI"), _("MPI to finish"));
	run_fault_edge(p.rank, RUN_AT_FINALIZE);
	MPI_Finalize();
	run_unguard();
	run_progress_state(RUN_ST_DONE);
	return rc;
}
