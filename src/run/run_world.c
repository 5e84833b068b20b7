/*
 * run_world.c - a world of 1 where N processes were started: say why.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "core/safeprint.h"
#include "run/run_proc.h"
#include "run/run_world.h"

/* The MPI this program was built with, and what starts its jobs. */
#if defined(OMPI_MAJOR_VERSION)
#define PL_STR2(x)	#x
#define PL_STR(x)	PL_STR2(x)
#define MPI_NAME	"Open MPI " PL_STR(OMPI_MAJOR_VERSION) "." \
	PL_STR(OMPI_MINOR_VERSION) "." PL_STR(OMPI_RELEASE_VERSION)
#define MPI_LAUNCHER	N_("Open MPI's mpirun.openmpi")
#define SRUN_MPI	N_("--mpi=pmix")
#elif defined(I_MPI_VERSION)
#define MPI_NAME	"Intel MPI " I_MPI_VERSION
#elif defined(MVAPICH2_VERSION)
#define MPI_NAME	"MVAPICH2 " MVAPICH2_VERSION
#elif defined(MPICH_VERSION)
#define MPI_NAME	"MPICH " MPICH_VERSION
#define MPI_LAUNCHER	N_("MPICH's mpiexec.hydra or mpirun.mpich")
#define SRUN_MPI	N_("--mpi=pmi2")
#endif
#ifndef MPI_NAME
#define MPI_NAME	"MPI"
#endif
#ifndef MPI_LAUNCHER
#define MPI_LAUNCHER	N_("the mpirun of the MPI it was built with")
#endif
#ifndef SRUN_MPI
#define SRUN_MPI	N_("--mpi=pmi2 or --mpi=pmix")
#endif

static int
env_count(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	v = strtol(s, &end, 10);
	return *end == '\0' && v > 0 && v < 1 << 24 ? (int)v : 0;
}

static int
has(const char *name)
{
	return getenv(name) != NULL;
}

/* srun started this process (not mpirun inside an srun step). */
static int
by_srun(void)
{
	return has("SLURM_STEP_ID") && env_count("SLURM_STEP_NUM_TASKS") > 0 &&
	    !has("OMPI_COMM_WORLD_SIZE") && !has("MPI_LOCALNRANKS");
}

/* Only the launcher's rank 0 speaks (or this process, if alone). */
static int
speaks(void)
{
	return run_env_rank() <= 0;
}

int
run_world_asked(int np)
{
	int n = np, v;

	if ((v = env_count("OMPI_COMM_WORLD_SIZE")) > n)
		n = v;
	if ((v = env_count("PMI_SIZE")) > n)
		n = v;
	if (has("SLURM_STEP_ID") && (v = env_count("SLURM_STEP_NUM_TASKS")) > n)
		n = v;
	return n;
}

int
run_world_before(int asked)
{
#if defined(OMPI_MAJOR_VERSION)
	/* srun's PMIx, PMI-2 or PMI-1: none of their variables is set. */
	if (asked > 1 && by_srun() && !has("PMIX_RANK") && !has("PMI_FD") &&
	    !has("PMI_RANK") && !has("SLURM_MPI_TYPE")) {
		if (!speaks())
			return 0;
		safeprint_printf(stderr,
		    _("parlearn: run: srun started %d tasks with --mpi=none, "
		    "and %s cannot join them into one job: run srun %s (srun "
		    "--mpi=list shows what this Slurm has)\n"), asked,
		    MPI_NAME, _(SRUN_MPI));
		return 2;
	}
#else
	(void)asked;
#endif
	return -1;
}

int
run_world_check(int size, int asked)
{
	const char *type = getenv("SLURM_MPI_TYPE");

	if (size != 1 || asked <= 1)
		return -1;
	if (!speaks())
		return 0;
	if (by_srun())
		safeprint_printf(stderr,
		    _("parlearn: run: srun started %d tasks with --mpi=%s, but "
		    "%s sees each alone: run srun %s (srun --mpi=list shows "
		    "what this Slurm has)\n"), asked,
		    type != NULL ? type : "none", MPI_NAME, _(SRUN_MPI));
	else if (run_env_rank() >= 0)
		safeprint_printf(stderr,
		    _("parlearn: run: %d processes were started, but %s, the "
		    "MPI of parlearn-run, sees each alone: the launcher is "
		    "another MPI's; use %s (parlearn run: PARLEARN_MPIRUN)\n"),
		    asked, MPI_NAME, _(MPI_LAUNCHER));
	else
		safeprint_printf(stderr,
		    _("parlearn: run: --np %d, but this process was not "
		    "started by an MPI launcher (mpirun, srun)\n"), asked);
	return 2;
}
