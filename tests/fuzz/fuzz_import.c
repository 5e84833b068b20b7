/*
 * fuzz_import.c - libFuzzer target for `parlearn import`: the input is a
 * profile export, imported into a database in memory (no file per input)
 * with the real course to check drops and questions against. Import must
 * refuse or restore, never crash, leak or read out of bounds; a profile it
 * restored must export again.
 *   tests/fuzz/fuzz_import -max_total_time=300 CORPUS tests/fuzz/seeds/import
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "store/export.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct store		*st;
static struct content_course	*course;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct content_problems notes = { NULL, 0, 0 };
	struct pl_err err;
	char *text, *out;
	int added;

	if (st == NULL) {
		course = content_load(TOP_SRCDIR, NULL);
		if ((st = store_open_memory(&err)) == NULL)
			abort();
	}
	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	pl_err_clear(&err);
	if (export_import_json(st, text, "fuzz.json", NULL, course, &added,
	    &notes, &err) == 0) {
		/* What was restored exports again, whatever its name. */
		sqlite3_stmt *s;

		if (sqlite3_prepare_v2(st->db, "SELECT name FROM profiles", -1,
		    &s, NULL) != SQLITE_OK)
			abort();
		while (sqlite3_step(s) == SQLITE_ROW) {
			out = export_profile_json(st, (const char *)
			    sqlite3_column_text(s, 0), course, &err);
			if (out == NULL)
				abort();
			free(out);
		}
		sqlite3_finalize(s);
	} else if (err.msg[0] == '\0')
		abort();	/* a refusal always says why */
	if (sqlite3_exec(st->db, "DELETE FROM profiles; DELETE FROM "
	    "review_slots; DELETE FROM review_retention;", NULL, NULL,
	    NULL) != SQLITE_OK)
		abort();
	content_problems_free(&notes);
	free(text);
	return 0;
}
