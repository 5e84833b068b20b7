/*
 * run_lsan.c - LeakSanitizer settings for parlearn-run in a sanitizer build
 * (./configure --enable-sanitizers); nothing in any other build.
 *
 * Open MPI does not free all it allocates by MPI_Finalize: its FAQ says so
 * ("Is Open MPI 'Valgrind-clean'?", https://www.open-mpi.org/faq/?category=debugging#valgrind_clean)
 * and it ships a valgrind suppressions file for it (openmpi-valgrind.supp).
 * With Open MPI 4.1.4 (Debian 12) LeakSanitizer finds over 100 kB in some
 * 3,000 blocks per rank, allocated inside MPI_Init and in the runtime's
 * libevent thread, mostly by components it loads with dlopen and unloads
 * at MPI_Finalize.
 *
 * The suppressions below name only Open MPI's own libraries and the ones it
 * runs on (libevent, PMIx, hwloc): a block is suppressed only when one of
 * them is on the stack that allocated it, so a leak of ours still fails
 * the run. Those libraries are built without frame pointers and their
 * unloaded components cannot be symbolized, so the stack of each block is
 * taken with the slow unwinder (fast_unwind_on_malloc=0) to reach the
 * Open MPI frame. ASAN_OPTIONS and LSAN_OPTIONS still override these.
 * MPICH 4.0.2 (Debian 12, tests/mpi2/parlearn-run) leaks only in hwloc.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RUN_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RUN_ASAN 1
#endif

#ifdef RUN_ASAN
const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);

const char *
__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

const char *
__lsan_default_suppressions(void)
{
	return "leak:libmpi.so\n"
	    "leak:libopen-pal.so\n"
	    "leak:libopen-rte.so\n"
	    "leak:libevent\n"
	    "leak:libpmix.so\n"
	    "leak:libhwloc.so\n";
}
#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int run_lsan_unused;
#endif
