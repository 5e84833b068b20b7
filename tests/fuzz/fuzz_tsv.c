/*
 * fuzz_tsv.c - libFuzzer target for the Anki text reader (deck import), in
 * memory. A parse either fails with a message or gives notes whose text
 * has no control character but the newline and tab; each note written back
 * with anki_line under anki_header reads back, and a second round trip
 * changes nothing (the first may drop what HTML does not keep, such as a
 * space at the start of a line).
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

/* Note k written as a one-note file and read back into *back (0), or -1
 * when there is no memory; aborts when the file does not read. */
static int
write_read(const struct anki_note *k, struct anki_notes *back)
{
	struct anki_out_note o = { k->guid, k->deck, k->front, k->back,
	    k->tags };
	struct pl_err err;
	char *head = anki_header(k->deck), *line = anki_line(&o), *text;
	size_t n;
	int rc = -1;

	if (head != NULL && line != NULL &&
	    (text = malloc((n = strlen(head)) + strlen(line) + 1)) != NULL) {
		memcpy(text, head, n);
		strcpy(text + n, line);
		if (anki_parse(text, strlen(text), "line", back, &err) != 0 ||
		    back->n != 1)
			abort();
		free(text);
		rc = 0;
	}
	free(head);
	free(line);
	return rc;
}

static void
round_trip(const struct anki_note *k)
{
	struct anki_notes once, twice;

	if (write_read(k, &once) != 0)
		return;
	if (write_read(&once.v[0], &twice) == 0) {
		if (strcmp(once.v[0].front, twice.v[0].front) != 0 ||
		    strcmp(once.v[0].back, twice.v[0].back) != 0)
			abort();
		anki_notes_free(&twice);
	}
	anki_notes_free(&once);
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
