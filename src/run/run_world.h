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
 * Each returns -1 when the run can go on, else the status to exit with:
 * 2 for the process that said why (the launcher's rank 0), 0 for the
 * others, so that a launcher that ends the job at the first failed
 * process (Open MPI's mpirun) does not stop rank 0 before it has spoken.
 */

/*
 * Before MPI_Init: MPI_Init cannot work here (an Open MPI build under
 * srun with no PMI: Open MPI would abort every task with its own page of
 * text).
 */
int	run_world_before(int asked);

/* After MPI_Init: MPI sees a world of 1 where more were asked for. */
int	run_world_check(int size, int asked);

#endif
