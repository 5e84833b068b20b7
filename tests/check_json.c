/*
 * check_json.c - the JSON reader refuses what cJSON would take silently
 * or with a vague message: a string holding \u0000 (cut short) and deep
 * nesting, each at its line and column.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

START_TEST(nul_in_a_string_is_refused)
{
	struct pl_err err;
	cJSON *o;

	pl_err_clear(&err);
	o = pl_json_parse("{\n  \"name\": \"ada\\u0000root\"\n}", "n.json", &err);
	ck_assert_ptr_null(o);
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.col, 15);
	ck_assert_ptr_nonnull(strstr(err.msg, "NUL"));
	/* An escaped backslash before "u0000" is text, not a NUL. */
	o = pl_json_parse("{\"a\": \"\\\\u0000\", \"b\": \"\\u0001\"}", "n.json",
	    &err);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(cJSON_GetObjectItem(o, "a")->valuestring, "\\u0000");
	cJSON_Delete(o);
}
END_TEST

START_TEST(deep_nesting_is_named)
{
	struct pl_err err;
	char *text = malloc(2 * 100000 + 1);
	size_t i;

	for (i = 0; i < 100000; i++) {
		text[i] = '[';
		text[200000 - 1 - i] = ']';
	}
	text[200000] = '\0';
	ck_assert_ptr_null(pl_json_parse(text, "d.json", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "too deeply nested"));
	ck_assert_int_eq(err.line, 1);
	ck_assert_int_eq(err.col, PL_JSON_MAX_DEPTH + 1);
	/* Brackets inside strings do not count; 64 levels are fine. */
	text[PL_JSON_MAX_DEPTH] = '\0';
	memset(text + PL_JSON_MAX_DEPTH, ']', PL_JSON_MAX_DEPTH);
	text[2 * PL_JSON_MAX_DEPTH] = '\0';
	{
		cJSON *o = pl_json_parse(text, "d.json", &err);

		ck_assert_ptr_nonnull(o);
		cJSON_Delete(o);
	}
	free(text);
	{
		cJSON *o = pl_json_parse("[\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
		    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"]", "d.json",
		    &err);

		ck_assert_ptr_nonnull(o);
		cJSON_Delete(o);
	}
}
END_TEST

static Suite *
json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("bad input");

	tcase_add_test(tc, nul_in_a_string_is_refused);
	tcase_add_test(tc, deep_nesting_is_named);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(json_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
