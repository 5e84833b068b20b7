/*
 * fuzz_lab.c - libFuzzer target for what a lab reads from files others
 * write: the lab script, the state and, above all, a student's result
 * (read by the instructor), in memory. Each parse refuses or succeeds;
 * a result that parses writes JSON that parses to the same JSON; the class
 * table and both reports build from what parsed.
 *   tests/fuzz/fuzz_lab -max_total_time=300 CORPUS tests/fuzz/seeds/lab
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/lab/lab.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char script[] = "{\"title\": \"T\", \"steps\": ["
    "{\"kind\": \"drop\", \"drop\": \"drop-01\", \"minutes\": 5},"
    "{\"kind\": \"questions\", \"drop\": \"drop-02\", \"minutes\": 5,"
    " \"questions\": [\"q1\", \"q2\"]}]}";

static void
result(const char *text)
{
	struct lab_result r, again;
	struct lab_script *ls;
	struct lab_class cl;
	struct pl_err err;
	char *a, *b;

	if (lab_result_parse(text, "r.json", &r, &err) != 0)
		return;
	a = lab_result_to_json(&r);
	if (a == NULL || lab_result_parse(a, "again", &again, &err) != 0)
		abort();
	b = lab_result_to_json(&again);
	if (b == NULL || strcmp(a, b) != 0)
		abort();
	ls = lab_script_parse(script, "s.json", &err);
	if (ls == NULL)
		abort();
	if (lab_class_build(ls, NULL, &r, 1, r.session, &cl) == 0)
		lab_class_free(&cl);
	free(lab_report_csv(ls, NULL, &r, 1, r.session));
	free(lab_report_json(ls, NULL, &r, 1, NULL));
	lab_script_free(ls);
	free(a);
	free(b);
	lab_result_free(&r);
	lab_result_free(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_script *ls;
	struct lab_state st;
	struct pl_err err;
	char *text;

	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if ((ls = lab_script_parse(text, "s.json", &err)) != NULL) {
		char title[300];
		size_t i;

		for (i = 0; i < ls->n_steps; i++)
			lab_step_title(&ls->steps[i], NULL, title, sizeof title);
		lab_script_free(ls);
	}
	if (lab_state_parse(text, "state.json", &st, &err) == 0)
		free(lab_state_to_json(&st));
	result(text);
	free(text);
	return 0;
}
