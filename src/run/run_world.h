/*
 * run_world.h - does MPI see the processes the launcher started?
 *
 * A launcher of another MPI than the one parlearn-run was built with
 * (Debian's mpirun points at Open MPI, the build used MPICH), or srun
 * without the PMI the library speaks (--mpi=none, Slurm's default), starts
 * N processes that each join a world of 1: N separate runs that all
 * "succeed". These checks turn that into one line naming the likely
 * cause, printed by the launcher's rank 0 only, and exit status 2.
 */
#ifndef PARLEARN_RUN_WORLD_H
#define PARLEARN_RUN_WORLD_H

/*
 * How many processes were asked for: the largest of np (--np, 0 if not
 * given) and the counts the launcher's environment gives (mpirun's,
 * Hydra's, srun's); 0 if none.
 */
int	run_world_asked(int np);

/*
 * Before MPI_Init: 2 after saying why if MPI_Init cannot work here (an
 * Open MPI build under srun with no PMI: Open MPI would abort with its
 * own page of text on every task), else 0.
 */
int	run_world_before(int asked);

/* After MPI_Init: 2 after saying why if MPI sees fewer than asked. */
int	run_world_check(int size, int asked);

#endif
