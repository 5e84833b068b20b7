/*
 * check_jsonpos.c - a JSON path found again in its text at its line and
 * column, so that check-content can print FILE:LINE:COL for problems found
 * after parsing.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonpos.h"

static const char doc[] =
    "{\n"
    "  \"title\": \"A\",\n"
    "  \"blocks\": [\n"
    "    {\"kind\": \"text\", \"text\": \"x\"},\n"
    "    {\"kind\": \"quiz\",\n"
    "     \"note\": \"a \\\"text\\\": ] } [\",\n"
    "     \"text\": \"y\"}\n"
    "  ]\n"
    "}\n";

static void
at(const char *text, const char *path, int want_rc, int line, int col)
{
	int l = 0, c = 0, rc = json_locate(text, path, &l, &c);

	ck_assert_msg(rc == want_rc, "%s: rc %d, want %d", path, rc, want_rc);
	ck_assert_msg(l == line && c == col, "%s: %d:%d, want %d:%d", path, l,
	    c, line, col);
}

START_TEST(paths_are_found)
{
	at(doc, "", 0, 1, 1);
	at(doc, "title", 0, 2, 12);
	at(doc, "blocks", 0, 3, 13);
	at(doc, "blocks[0]", 0, 4, 5);
	at(doc, "blocks[0].text", 0, 4, 30);
	/* Brackets, braces and an escaped quote inside a string are text. */
	at(doc, "blocks[1].text", 0, 7, 14);
}
END_TEST

START_TEST(a_missing_member_points_at_its_parent)
{
	/* "required field is missing": the object that lacks it. */
	at(doc, "blocks[1].answer", 1, 5, 5);
	at(doc, "blocks[7]", 1, 3, 13);
	/* A path through a string stops at the string. */
	at(doc, "blocks[0].kind.deeper", 1, 4, 14);
	at(doc, "nothing.here", 1, 1, 1);
	at("", "title", -1, 0, 0);
}
END_TEST

START_TEST(columns_count_characters)
{
	at("{\"caf\xc3\xa9\": 1, \"x\": 2}", "x", 0, 1, 18);
	at("{\"caf\xc3\xa9\": 1, \"x\": 2}", "caf\xc3\xa9", 0, 1, 10);
}
END_TEST

START_TEST(an_error_gets_a_position)
{
	struct pl_err err;

	pl_err_set_path(&err, "d.json", "blocks[1].text", "%s", "too long");
	ck_assert_int_eq(json_locate_err(doc, &err), 1);
	ck_assert_int_eq(err.line, 7);
	ck_assert_int_eq(err.col, 14);
	/* The path stays for the message; a position already set is kept. */
	ck_assert_str_eq(err.path, "blocks[1].text");
	err.line = 2;
	ck_assert_int_eq(json_locate_err(doc, &err), 0);
	ck_assert_int_eq(err.line, 2);
}
END_TEST

static Suite *
jsonpos_suite(void)
{
	Suite *s = suite_create("jsonpos");
	TCase *tc = tcase_create("locate");

	tcase_add_test(tc, paths_are_found);
	tcase_add_test(tc, a_missing_member_points_at_its_parent);
	tcase_add_test(tc, columns_count_characters);
	tcase_add_test(tc, an_error_gets_a_position);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(jsonpos_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
