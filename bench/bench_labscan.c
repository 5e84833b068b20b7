/*
 * bench_labscan.c - what the lab dashboard costs the host with 50,000
 * junk files in the drop box (issue 15; goal: under 1 % of a CPU).
 *
 * Builds a lab under /tmp whose drop box holds 25,000 files with no
 * result name and 25,000 named for a user who does not exist, plus one
 * real result. Then, for 20 seconds, it does what the dashboard does once
 * a second (labdir_scan_refresh) while a student submits once a second,
 * and reports the CPU time this process used (user + system) as a share
 * of the wall time, and the cost of one full pass.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/labdir.h"

#define N_JUNK		50000
#define SECONDS		20

static const char script[] = "{\"title\": \"B\", \"steps\": [{\"kind\":"
    " \"drop\", \"drop\": \"drop-01\", \"minutes\": 5}]}";

static double
cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
main(void)
{
	char tmp[] = "/tmp/bench_labscan.XXXXXX", lab[600], path[900];
	struct lab_state st = { 0, 1, 1, 1, "S1" };
	struct labdir_scan sc;
	struct lab_result r;
	struct pl_err err;
	struct timespec sec = { 1, 0 };
	double c0, w0, t, full, cpu, wall;
	int i, fd, scans = 0;

	if (mkdtemp(tmp) == NULL)
		return 2;
	snprintf(lab, sizeof lab, "%s/lab", tmp);
	if (labdir_create(lab, script, &err) != 0 ||
	    labdir_write_state(lab, &st, &err) != 0) {
		fprintf(stderr, "bench_labscan: %s\n", err.msg);
		return 2;
	}
	for (i = 0; i < N_JUNK; i++) {
		snprintf(path, sizeof path, i % 2 ? "%s/results/junk%d" :
		    "%s/results/nosuchuser@p%d.json", lab, i);
		if ((fd = open(path, O_WRONLY | O_CREAT, 0600)) < 0)
			return 2;
		close(fd);
	}
	memset(&r, 0, sizeof r);
	labdir_whoami(r.user, sizeof r.user);
	snprintf(r.profile, sizeof r.profile, "p");
	snprintf(r.session, sizeof r.session, "S1");
	t = wall_ms();
	memset(&sc, 0, sizeof sc);
	if (labdir_scan(lab, &sc, &err) != 0)
		return 2;
	full = wall_ms() - t;
	printf("one full pass over %d junk files: %.1f ms, %zu skipped\n",
	    N_JUNK, full, sc.n_skipped);
	labdir_scan_free(&sc);
	memset(&sc, 0, sizeof sc);
	c0 = cpu_ms();
	w0 = wall_ms();
	for (i = 0; i < SECONDS; i++) {
		if (labdir_submit_answer(lab, &r, 0, LAB_ITEM_QUESTION, "q1",
		    i & 1, 1, NULL, (int64_t)time(NULL), &err) != 0)
			return 2;
		scans += labdir_scan_refresh(lab, &sc, &err) == 1;
		nanosleep(&sec, NULL);
	}
	cpu = cpu_ms() - c0;
	wall = wall_ms() - w0;
	printf("dashboard for %d s with a submit a second: %d passes, "
	    "%.0f ms CPU, %.2f %% of a CPU (goal < 1 %%)\n", SECONDS, scans,
	    cpu, 100 * cpu / wall);
	labdir_scan_free(&sc);
	lab_result_free(&r);
	snprintf(path, sizeof path, "rm -rf '%s'", tmp);
	if (system(path) != 0)
		return 2;
	return 100 * cpu / wall < 1 ? 0 : 1;
}
