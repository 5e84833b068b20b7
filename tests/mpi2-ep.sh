#!/bin/sh
# tests/mpi-ep.sh again with the second MPI configure found (MPICH where
# parlearn-run is built with Open MPI, and the other way round): its
# parlearn-run (tests/mpi2/parlearn-run), started by that MPI's launcher.
# Under CI=true the second MPI must be there (mpi-lib.sh).
PL_TEST_MPI=2
export PL_TEST_MPI
exec sh "${top_srcdir:-.}/tests/mpi-ep.sh"
