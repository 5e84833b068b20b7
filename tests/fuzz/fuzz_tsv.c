/*
 * fuzz_tsv.c - libFuzzer target for the Anki text reader (deck import), in
 * memory. A parse either fails with a message or gives notes whose text
 * has no control character but the newline and tab; each note written back
 * with anki_line under anki_header reads back the same.
 *   tests/fuzz/fuzz_tsv -max_total_time=300 CORPUS tests/fuzz/seeds/tsv
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/safetext.h"
#include "core/srs/anki.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
clean_or_die(const char *s)
{
	unsigned int cp;
	size_t n;

	for (; *s != '\0'; s += n)
		if ((n = safetext_utf8(s, &cp)) == 0 ||
		    (safetext_is_control(cp) && cp != '\n' && cp != '\t' &&
		    cp < 0x80))
			abort();
}

/* Write note k back as a one-note file and read it again. */
static void
round_trip(const struct anki_note *k)
{
	struct anki_out_note o = { k->guid, k->deck, k->front, k->back,
	    k->tags };
	struct anki_notes back;
	struct pl_err err;
	char *head = anki_header(k->deck), *line = anki_line(&o), *text;
	size_t n;

	if (head == NULL || line == NULL ||
	    (text = malloc((n = strlen(head)) + strlen(line) + 1)) == NULL) {
		free(head);
		free(line);
		return;
	}
	memcpy(text, head, n);
	strcpy(text + n, line);
	if (anki_parse(text, strlen(text), "line", &back, &err) != 0 ||
	    back.n != 1 || strcmp(back.v[0].front, k->front) != 0 ||
	    strcmp(back.v[0].back, k->back) != 0)
		abort();
	anki_notes_free(&back);
	free(text);
	free(head);
	free(line);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct anki_notes t;
	struct pl_err err;
	size_t i;

	pl_err_clear(&err);
	if (anki_parse((const char *)data, size, "fuzz.txt", &t, &err) != 0) {
		if (err.msg[0] == '\0')
			abort();
		return 0;
	}
	for (i = 0; i < t.n; i++) {
		clean_or_die(t.v[i].front);
		clean_or_die(t.v[i].back);
		round_trip(&t.v[i]);
	}
	anki_notes_free(&t);
	return 0;
}
