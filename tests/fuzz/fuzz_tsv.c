/*
 * fuzz_tsv.c - libFuzzer target for the Anki TSV reader (deck import), in
 * memory. A parse either fails with a message or gives notes whose text
 * has no control character but the newline; each note written back with
 * review_tsv_line reads back the same.
 *   tests/fuzz/fuzz_tsv -max_total_time=300 CORPUS tests/fuzz/seeds/tsv
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/safetext.h"
#include "core/srs/review.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
clean_or_die(const char *s)
{
	unsigned int cp;
	size_t n;

	for (; *s != '\0'; s += n)
		if ((n = safetext_utf8(s, &cp)) == 0 ||
		    (safetext_is_control(cp) && cp != '\n' && cp < 0x80))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct review_tsv t, back;
	struct pl_err err;
	char *line;
	size_t i;

	pl_err_clear(&err);
	if (review_tsv_parse((const char *)data, size, "fuzz.tsv", &t,
	    &err) != 0) {
		if (err.msg[0] == '\0')
			abort();
		return 0;
	}
	for (i = 0; i < t.n; i++) {
		clean_or_die(t.cards[i].front);
		clean_or_die(t.cards[i].back);
		if ((line = review_tsv_line(t.cards[i].front, t.cards[i].back,
		    "tag")) == NULL)
			continue;
		if (review_tsv_parse(line, strlen(line), "line", &back,
		    &err) != 0 || back.n != 1 ||
		    strcmp(back.cards[0].front, t.cards[i].front) != 0 ||
		    strcmp(back.cards[0].back, t.cards[i].back) != 0)
			abort();
		review_tsv_free(&back);
		free(line);
	}
	review_tsv_free(&t);
	return 0;
}
