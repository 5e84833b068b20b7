/*
 * fuzz_content.c - libFuzzer target for the course loader.
 *
 * Each input becomes one drop file (and, from its second half, one deck
 * file) next to a valid course.json; content_load() must report problems,
 * never crash, leak or read out of bounds. Built only with
 * ./configure --enable-fuzzing CC=clang; run, for example:
 *   tests/fuzz/fuzz_content -max_total_time=300 CORPUS_DIR SEED_DIR...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/course/content.h"
#include "../tmpdir.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char dir[4096];

static void
put(const char *rel, const uint8_t *data, size_t size)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	fp = fopen(path, "wb");
	if (fp == NULL)
		abort();
	if (size > 0 && fwrite(data, 1, size, fp) != size)
		abort();
	fclose(fp);
}

static void
setup(void)
{
	static const char course[] = "{\"title\": \"T\", \"phases\": ["
	    "{\"number\": 1, \"title\": \"P\"}]}";
	char path[4400], name[64];

	snprintf(name, sizeof name, "parlearn-fuzz-%d", (int)getpid());
	test_tmp_path(dir, sizeof dir, name);
	mkdir(dir, 0700);
	snprintf(path, sizeof path, "%s/lessons", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/lessons/1-a", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/flashcards", dir);
	mkdir(path, 0700);
	put("lessons/course.json", (const uint8_t *)course, sizeof course - 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c;

	if (dir[0] == '\0')
		setup();
	put("lessons/1-a/01.json", data, size);
	put("flashcards/d.json", data + size / 2, size - size / 2);
	c = content_load(dir, &probs);
	content_free(c);
	content_problems_free(&probs);
	return 0;
}
