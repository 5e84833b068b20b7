/*
 * bench_costmodel.c - how fast the cost model is: the layout search for
 * llama2-70b and llama3-70b on 64 H100s, llama3-405b on 16,384 and the
 * mixtures of experts qwen3-235b-a22b and deepseek-v3 (goal: under 200 ms)
 * on 2,048 (EP joins the grid; layouts
 * evaluated per second, framework and headroom rules, ranks and reasons
 * included), and one layout's evaluation. Prints figures; not part of
 * make check. Run from the source tree (reads data/), or pass the data directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time of this process: on a machine others load, wall time swells */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Rows sharing the best's rank, the best excluded. */
static int
tied_with_best(const struct cm_search *s)
{
	int i, n = 0;

	for (i = 1; i < s->n_top; i++)
		n += s->top[i].rank == 1;
	return n;
}

static void
bench_search(const struct hw_catalog *cat, const char *model, int gpus,
    int seq, int mtp, struct cm_search *s)
{
	struct cm_config c;
	struct pl_err err;
	double t0, c0, dt = 0, dc = 0;
	int i, reps = gpus > 1024 ? 5 : 20;

	cm_config_default(&c, hw_model_find(cat, model),
	    hw_gpu_find(cat, "h100-80gb"));
	c.gpus = gpus;
	c.model.mtp = mtp;
	if (seq > 0) {		/* long context: CP joins the grid */
		c.model.seq = seq;
		c.global_batch = gpus;
	}
	for (i = 0; i < reps; i++) {
		t0 = now();
		c0 = cpu_now();
		if (cm_search(&c, 10, s, &err) != 0) {
			fprintf(stderr, "%s\n", err.msg);
			exit(1);
		}
		dt += now() - t0;
		dc += cpu_now() - c0;
	}
	dt /= reps;
	dc /= reps;
	printf("search %-15s%s on %5d GPUs at %6d tokens: %8.2f ms (CPU %.2f), %6ld "
	    "layouts, %.2f M layouts/s, %ld ranked; best DP%d TP%d PP%d CP%d "
	    "EP%d %.1f TFLOP/s, %d tied with it\n", model,
	    mtp > 0 ? " mtp" : "    ", gpus, c.model.seq,
	    1e3 * dt, 1e3 * dc, s->evaluated, s->evaluated / dt / 1e6, s->eligible,
	    s->top[0].cfg.dp, s->top[0].cfg.tp, s->top[0].cfg.pp,
	    s->top[0].cfg.cp, cm_ep(&s->top[0].cfg), s->top[0].tflops_per_gpu,
	    tied_with_best(s));
}

int
main(int argc, char **argv)
{
	struct hw_catalog cat;
	struct pl_err err;
	struct cm_config c;
	struct cm_result r;
	struct cm_search *s = malloc(sizeof *s);
	double t0, dt;
	int i, n = 200000;

	if (s == NULL || hw_catalog_load(&cat, argc > 1 ? argv[1] : "data",
	    &err) != 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return 1;
	}
	bench_search(&cat, "llama2-70b", 64, 0, 0, s);
	bench_search(&cat, "llama3-70b", 64, 0, 0, s);
	bench_search(&cat, "llama3-405b", 16384, 0, 0, s);
	bench_search(&cat, "llama3-405b", 16384, 131072, 0, s);
	bench_search(&cat, "qwen3-235b-a22b", 2048, 0, 0, s);
	/* DeepSeek-V3 as published (61 layers) and as trained, with one
	 * MTP module on the last stage (report 2.2), which lets PP 16 in */
	bench_search(&cat, "deepseek-v3", 2048, 0, 0, s);
	bench_search(&cat, "deepseek-v3", 2048, 0, 1, s);
	cm_config_default(&c, hw_model_find(&cat, "llama3-405b"),
	    hw_gpu_find(&cat, "h100-80gb"));
	c.gpus = 8192;
	c.dp = 64;
	c.tp = 8;
	c.pp = 16;
	c.zero = 3;
	t0 = now();
	for (i = 0; i < n; i++)
		cm_evaluate(&c, &r, &err);
	dt = (now() - t0) / n;
	printf("single layout evaluation (with reasons): %.2f us\n", 1e6 * dt);
	free(s);
	hw_catalog_free(&cat);
	return 0;
}
