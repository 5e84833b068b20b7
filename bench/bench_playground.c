/*
 * bench_playground.c - how fast the playground answers a key: one knob
 * change with its re-evaluation (TP up and down, which also moves DP), and
 * one scenario check of drop 12 including the ranked search it needs.
 * Prints figures; not part of make check. Run from the build tree with
 * the source tree as argument (reads data/ and lessons/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/course/content.h"
#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"
#include "core/course/playground.h"
#include "core/course/scenario.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
bench_keys(const struct hw_catalog *cat)
{
	struct pg_state *pg = malloc(sizeof *pg);
	struct cm_config c;
	double t0;
	int i, n = 200000;

	if (pg == NULL || pg_default_config(cat, &c) != 0)
		exit(1);
	pg_init(pg, cat, &c, 0);
	t0 = now();
	for (i = 0; i < n; i++)
		pg_change(pg, PG_TP, i % 2 ? -1 : +1);
	printf("knob change + evaluation: %.2f us per key\n",
	    (now() - t0) / n * 1e6);
	free(pg);
}

static void
bench_check(const struct hw_catalog *cat, const char *srcdir)
{
	struct content_course *course = content_load(srcdir, NULL);
	const struct content_drop *d;
	struct cm_search *best = malloc(sizeof *best);
	struct cm_result *start = malloc(sizeof *start);
	struct sc_grade *g = malloc(sizeof *g);
	struct scenario sc;
	struct sc_attempt attempt = { 0, NULL, -1, 0, 0, 0 };
	struct cm_config c;
	struct pl_err err;
	double t0;
	size_t i;
	int k, n = 50;

	if (course == NULL || best == NULL || start == NULL || g == NULL ||
	    (d = content_find_drop(course, "drop-12")) == NULL)
		exit(1);
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_SCENARIO)
			break;
	if (i == d->n_blocks || scenario_parse(&sc, d->blocks[i].scenario.raw,
	    d->file, "b", &err) != 0 || scenario_start(d->blocks[i].scenario.raw,
	    cat, &c, d->file, "b", &err) != 0 || cm_evaluate(&c, start, &err))
		exit(1);
	t0 = now();
	for (k = 0; k < n; k++) {
		cm_search(&c, CM_SEARCH_MAX, best, &err);
		scenario_grade(&sc, start, NULL, start, best, &attempt, g);
	}
	printf("scenario open (search of %ld layouts) + check: %.2f ms\n",
	    best->evaluated, (now() - t0) / n * 1e3);
	scenario_free(&sc);
	free(best);
	free(start);
	free(g);
	content_free(course);
}

int
main(int argc, char **argv)
{
	const char *src = argc > 1 ? argv[1] : ".";
	struct hw_catalog cat;
	struct pl_err err;
	char data[4096];

	snprintf(data, sizeof data, "%s/data", src);
	if (hw_catalog_load(&cat, data, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	bench_keys(&cat);
	bench_check(&cat, src);
	hw_catalog_free(&cat);
	return 0;
}
