/*
 * check_originality.c - no run of ten words from the seed material appears
 * in lessons/ or flashcards/.
 *
 * The seeds themselves are not in the repository: tests/data/seed-10grams.txt
 * holds the 64-bit FNV-1a hash of every 10-word run of each seed file, with
 * the course's titles cut out first (titles may be reused). Regenerate it
 * with: tests/check_originality --hash-seeds SEED-FILE...
 * Words are maximal runs of ASCII letters and digits, lowercased, so
 * punctuation and spacing changes do not hide a copied sentence.
 */
#include <check.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "core/json.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

#define RUN	10

static uint64_t *seed_hashes;
static size_t n_seed_hashes;

struct words {
	char	**w;
	size_t	  n;
	size_t	  cap;
};

static void
words_add(struct words *ws, const char *s, size_t len)
{
	size_t i;
	char *w;

	if (ws->n == ws->cap) {
		ws->cap = ws->cap == 0 ? 256 : ws->cap * 2;
		ws->w = realloc(ws->w, ws->cap * sizeof *ws->w);
	}
	w = malloc(len + 1);
	for (i = 0; i < len; i++)
		w[i] = (char)tolower((unsigned char)s[i]);
	w[len] = '\0';
	ws->w[ws->n++] = w;
}

static void
words_free(struct words *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		free(ws->w[i]);
	free(ws->w);
	memset(ws, 0, sizeof *ws);
}

static void
tokenize(const char *s, struct words *ws)
{
	const char *p = s, *start;

	while (*p != '\0') {
		while (*p != '\0' && !isalnum((unsigned char)*p))
			p++;
		start = p;
		while (*p != '\0' && isalnum((unsigned char)*p))
			p++;
		if (p > start)
			words_add(ws, start, (size_t)(p - start));
	}
}

static uint64_t
run_hash(char **w)
{
	uint64_t h = 1469598103934665603ULL;
	const char *c;
	int i;

	for (i = 0; i < RUN; i++) {
		for (c = w[i]; *c != '\0'; c++) {
			h ^= (unsigned char)*c;
			h *= 1099511628211ULL;
		}
		h ^= ' ';
		h *= 1099511628211ULL;
	}
	return h;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Cut every occurrence of the titles out of text (in place). */
static void
cut_titles(char *text, const struct content_course *c)
{
	size_t i, n;
	char *p;

	for (i = 0; i < c->n_drops + c->n_phases; i++) {
		const char *t = i < c->n_drops ? c->drops[i].title :
		    c->phases[i - c->n_drops].title;

		n = strlen(t);
		while ((p = strstr(text, t)) != NULL)
			memset(p, '\n', n);
	}
}

static int
hash_seeds(int argc, char **argv)
{
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	struct words ws = { NULL, 0, 0 };
	uint64_t *h = NULL;
	size_t nh = 0, i, j;
	char *text;
	int a;

	if (c == NULL)
		return 2;
	for (a = 0; a < argc; a++) {
		char *line, *save = NULL;

		text = pl_read_file(argv[a], NULL, NULL);
		if (text == NULL)
			return 2;
		cut_titles(text, c);
		/* Runs do not cross lines: a seed line is one sentence or more. */
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			tokenize(line, &ws);
			for (j = 0; j + RUN <= ws.n; j++) {
				h = realloc(h, (nh + 1) * sizeof *h);
				h[nh++] = run_hash(ws.w + j);
			}
			words_free(&ws);
		}
		free(text);
	}
	qsort(h, nh, sizeof *h, cmp_u64);
	for (i = 0; i < nh; i++)
		if (i == 0 || h[i] != h[i - 1])
			printf("%016" PRIx64 "\n", h[i]);
	free(h);
	content_free(c);
	return 0;
}

static void
load_hashes(void)
{
	FILE *fp = fopen(TOP_SRCDIR "/tests/data/seed-10grams.txt", "r");
	char line[64];
	size_t cap = 0;

	ck_assert_msg(fp != NULL, "tests/data/seed-10grams.txt is missing");
	while (fgets(line, sizeof line, fp) != NULL) {
		if (n_seed_hashes == cap) {
			cap = cap == 0 ? 4096 : cap * 2;
			seed_hashes = realloc(seed_hashes, cap * sizeof *seed_hashes);
		}
		seed_hashes[n_seed_hashes++] = strtoull(line, NULL, 16);
	}
	fclose(fp);
}

/* Count copied runs in s, printing each with where it was found. */
static int
copied_runs(const char *s, const char *where)
{
	struct words ws = { NULL, 0, 0 };
	size_t j;
	uint64_t h;
	int hits = 0, k;

	tokenize(s, &ws);
	for (j = 0; j + RUN <= ws.n; j++) {
		h = run_hash(ws.w + j);
		if (bsearch(&h, seed_hashes, n_seed_hashes, sizeof h,
		    cmp_u64) == NULL)
			continue;
		hits++;
		if (where == NULL)
			continue;
		fprintf(stderr, "%s: copied from a seed:", where);
		for (k = 0; k < RUN; k++)
			fprintf(stderr, " %s", ws.w[j + (size_t)k]);
		fprintf(stderr, "\n");
	}
	words_free(&ws);
	return hits;
}

static int
check_block(const struct content_drop *d, const struct content_block *b)
{
	const struct content_question *q = &b->question;
	const char *f[] = { b->title, b->text, q->prompt, q->explain, q->answer,
	    b->animation.caption, b->scenario.title, b->scenario.brief,
	    b->scenario.solution };
	size_t i;
	int hits = 0;

	for (i = 0; i < sizeof f / sizeof f[0]; i++)
		if (f[i] != NULL)
			hits += copied_runs(f[i], d->file);
	for (i = 0; i < q->n_options; i++) {
		hits += copied_runs(q->options[i].text, d->file);
		hits += copied_runs(q->options[i].explain, d->file);
	}
	for (i = 0; i < b->scenario.n_hints; i++)
		hits += copied_runs(b->scenario.hints[i], d->file);
	return hits;
}

START_TEST(hash_file_is_plausible)
{
	load_hashes();
	/* 20 kB of seed text give thousands of runs. */
	ck_assert_uint_gt(n_seed_hashes, 1000);
}
END_TEST

START_TEST(detector_finds_a_copied_sentence)
{
	/* A seed sentence, checked against the hashes: the test can fail. */
	load_hashes();
	ck_assert_int_gt(copied_runs("Put a full copy of the model on each "
	    "device; split the batch across devices", NULL), 0);
	ck_assert_int_eq(copied_runs("Every replica holds all the weights and "
	    "sees its own slice of the examples in each step", NULL), 0);
}
END_TEST

START_TEST(lessons_and_cards_are_original)
{
	struct content_course *c = content_load(TOP_SRCDIR, NULL);
	size_t i, j;
	int hits = 0;

	load_hashes();
	ck_assert_ptr_nonnull(c);
	for (i = 0; i < c->n_drops; i++) {
		const struct content_drop *d = &c->drops[i];

		if (d->summary != NULL)
			hits += copied_runs(d->summary, d->file);
		for (j = 0; j < d->n_blocks; j++)
			hits += check_block(d, &d->blocks[j]);
	}
	ck_assert_ptr_nonnull(c->reference);
	for (j = 0; j < c->reference->n_blocks; j++)
		hits += check_block(c->reference, &c->reference->blocks[j]);
	for (i = 0; i < c->n_cards; i++) {
		hits += copied_runs(c->cards[i].front, c->cards[i].id);
		hits += copied_runs(c->cards[i].back, c->cards[i].id);
	}
	content_free(c);
	ck_assert_int_eq(hits, 0);
}
END_TEST

int
main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;
	SRunner *sr;
	int failed;

	if (argc > 1 && strcmp(argv[1], "--hash-seeds") == 0)
		return hash_seeds(argc - 2, argv + 2);
	s = suite_create("originality");
	tc = tcase_create("seed runs");
	tcase_add_test(tc, hash_file_is_plausible);
	tcase_add_test(tc, detector_finds_a_copied_sentence);
	tcase_add_test(tc, lessons_and_cards_are_original);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(seed_hashes);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
