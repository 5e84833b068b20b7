/*
 * bench_import.c - loading cards and importing answers take linear time
 * (issue 15: 60,000 cards took 5.4 s and 240,000 never finished; 30,000
 * attempts at one question took 36 s to import).
 *
 * Each job runs at size N and 4N; linear work takes about 4 times as long
 * at 4N (goal: a ratio under 6), quadratic work 16 times. The jobs:
 *   deck   content_load of a course with one deck of N cards
 *   cards  store_cards_load of N unlocked course cards
 *   import export_import_json of N attempts at one question
 * usage: bench_import SRCDIR   (the source tree, for its lessons)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/course/content.h"
#include "store/cards.h"
#include "store/export.h"
#include "store/progress.h"

static char tmp[] = "/tmp/bench_import.XXXXXX";

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A course dir: the real lessons, one deck of n cards of drop-01. */
static int
make_course(const char *src, size_t n, char *dir, size_t size)
{
	char path[1200], lessons[1200];
	FILE *fp;
	size_t i;

	snprintf(dir, size, "%s/course-%zu", tmp, n);
	snprintf(path, sizeof path, "%s/flashcards", dir);
	snprintf(lessons, sizeof lessons, "%s/lessons", src);
	if (mkdir(dir, 0700) != 0 || mkdir(path, 0700) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/lessons", dir);
	if (symlink(lessons, path) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/flashcards/big.json", dir);
	if ((fp = fopen(path, "w")) == NULL)
		return -1;
	fprintf(fp, "{\"deck\":\"big\",\"title\":\"Big\",\"cards\":[");
	for (i = 0; i < n; i++)
		fprintf(fp, "%s{\"id\":\"c%zu\",\"drop\":\"drop-01\","
		    "\"front\":\"f\",\"back\":\"b\"}", i ? "," : "", i);
	fprintf(fp, "]}\n");
	return fclose(fp);
}

/* content_load, then store_cards_load of every card: ms of each. */
static int
deck_and_cards(const char *src, size_t n, double *t_deck, double *t_cards)
{
	struct content_course *c;
	struct store_card_set set;
	struct store *st;
	struct pl_err err;
	char dir[1100], db[1200];
	int64_t prof;
	double t0;

	if (make_course(src, n, dir, sizeof dir) != 0)
		return -1;
	t0 = now_ms();
	c = content_load(dir, NULL);
	*t_deck = now_ms() - t0;
	if (c == NULL || c->n_cards < n)
		return -1;
	snprintf(db, sizeof db, "%s/cards-%zu.db", tmp, n);
	if ((st = store_open(db, &err)) == NULL ||
	    store_profile(st, "b", 1, &prof, &err) != 0 ||
	    store_drop_visit(st, prof, "drop-01", 0, 0, 1, &err) != 0 ||
	    store_cards_unlock(st, prof, c, 1, NULL, &err) != 0)
		return -1;
	t0 = now_ms();
	if (store_cards_load(st, prof, c, NULL, NULL, &set, &err) != 0)
		return -1;
	*t_cards = now_ms() - t0;
	store_card_set_free(&set);
	store_close(st);
	content_free(c);
	return 0;
}

/* export_import_json of n attempts at one question: ms. */
static int
import_answers(size_t n, double *t)
{
	struct store *st;
	struct pl_err err;
	char db[1200], *text, *p;
	size_t i, cap = 200 + n * 160;
	double t0;

	if ((text = malloc(cap)) == NULL)
		return -1;
	p = text + sprintf(text, "{\"format\":\"parlearn-profile\",\"version\":1,"
	    "\"profile\":{\"name\":\"b\",\"created\":1},\"drops\":[],"
	    "\"settings\":[],\"answers\":[");
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s{\"drop\":\"drop-01\",\"question\":\"q1\","
		    "\"attempt\":%zu,\"correct\":0,\"response\":\"a\","
		    "\"seconds\":1,\"answered\":%zu}", i ? "," : "", i + 1, i + 2);
	sprintf(p, "]}");
	snprintf(db, sizeof db, "%s/import-%zu.db", tmp, n);
	if ((st = store_open(db, &err)) == NULL) {
		free(text);
		return -1;
	}
	t0 = now_ms();
	if (export_import_json(st, text, "bench.json", NULL, NULL, NULL, NULL,
	    &err) != 0) {
		fprintf(stderr, "import: %s\n", err.msg);
		free(text);
		return -1;
	}
	*t = now_ms() - t0;
	store_close(st);
	free(text);
	return 0;
}

static int
report(const char *what, size_t n, double a, double b)
{
	double r = a > 0 ? b / a : 0;

	printf("%-7s %7zu: %8.1f ms   %7zu: %8.1f ms   ratio %.1f (%s)\n",
	    what, n, a, 4 * n, b, r, r < 6 ? "linear" : "NOT linear");
	return r < 6 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	double d1, d4, c1, c4, i1, i4;
	char cmd[200];
	int bad = 0;

	if (argc != 2 || mkdtemp(tmp) == NULL) {
		fprintf(stderr, "usage: bench_import SRCDIR\n");
		return 2;
	}
	if (deck_and_cards(argv[1], 15000, &d1, &c1) != 0 ||
	    deck_and_cards(argv[1], 60000, &d4, &c4) != 0 ||
	    import_answers(7500, &i1) != 0 || import_answers(30000, &i4) != 0) {
		fprintf(stderr, "bench_import: setup failed\n");
		bad = 2;
	} else {
		bad |= report("deck", 15000, d1, d4);
		bad |= report("cards", 15000, c1, c4);
		bad |= report("import", 7500, i1, i4);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		bad = 2;
	return bad;
}
