/*
 * check_safetext.c - untrusted text is shown, never obeyed: the four
 * attacks of issue 15 (OSC 52, OSC 0, CSI 2J, CSI 6n) and the C1 and bidi
 * controls come out as visible text; UTF-8 stays UTF-8 where the locale
 * has it; CSV cells are quoted and formulas defused; names are limited in
 * characters, not bytes.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/safetext.h"

/* The rendering of s with flags (freed by the next call). */
static const char *
show(const char *s, int flags)
{
	static char *last;

	free(last);
	last = safetext_dup(s, flags);
	ck_assert_ptr_nonnull(last);
	return last;
}

START_TEST(attacks_are_shown)
{
	ck_assert_str_eq(show("\033]52;c;cHduZWQ=\007", SAFETEXT_UTF8),
	    "^[]52;c;cHduZWQ=^G");
	ck_assert_str_eq(show("\033]0;title\007", SAFETEXT_UTF8), "^[]0;title^G");
	ck_assert_str_eq(show("a\033[2Jb", 0), "a^[[2Jb");
	ck_assert_str_eq(show("\033[6n", SAFETEXT_UTF8), "^[[6n");
	/* 8-bit CSI, as a C1 code point in UTF-8 and as a raw byte. */
	ck_assert_str_eq(show("x\302\2336n", SAFETEXT_UTF8), "x\\u009b6n");
	ck_assert_str_eq(show("x\2336n", SAFETEXT_UTF8), "x\\x9b6n");
	ck_assert_str_eq(show("\177\001\r", 0), "^?^A^M");
	/* A right-to-left override would reorder what the eye reads. */
	ck_assert_str_eq(show("a\342\200\256b", SAFETEXT_UTF8), "a\\u202eb");
}
END_TEST

START_TEST(newlines_and_utf8)
{
	ck_assert_str_eq(show("a\nb\tc", 0), "a^Jb^Ic");
	ck_assert_str_eq(show("a\nb\tc", SAFETEXT_NEWLINE), "a\nb\tc");
	ck_assert_str_eq(show("caf\303\251 \342\206\222", SAFETEXT_UTF8),
	    "caf\303\251 \342\206\222");
	ck_assert_str_eq(show("caf\303\251", 0), "caf\\xc3\\xa9");
	/* Overlong and surrogate encodings are not UTF-8. */
	ck_assert_str_eq(show("\300\257", SAFETEXT_UTF8), "\\xc0\\xaf");
	ck_assert_str_eq(show("\355\240\200", SAFETEXT_UTF8),
	    "\\xed\\xa0\\x80");
}
END_TEST

START_TEST(render_truncates_like_snprintf)
{
	char buf[6];

	ck_assert_uint_eq(safetext_render("\033[2J", buf, sizeof buf, 0), 5);
	ck_assert_str_eq(buf, "^[[2J");
	ck_assert_uint_eq(safetext_render("\033[2J!", buf, sizeof buf, 0), 6);
	ck_assert_str_eq(buf, "^[[2J");
	ck_assert_uint_eq(safetext_render("abc", NULL, 0, 0), 3);
}
END_TEST

START_TEST(csv_cells)
{
	char *c;

	c = safetext_csv("=HYPERLINK(\"x\")", SAFETEXT_UTF8);
	ck_assert_str_eq(c, "\"'=HYPERLINK(\"\"x\"\")\"");
	free(c);
	c = safetext_csv("\t=1+1", SAFETEXT_UTF8);
	ck_assert_str_eq(c, "\"'^I=1+1\"");
	free(c);
	c = safetext_csv("-2", SAFETEXT_UTF8);
	ck_assert_str_eq(c, "\"'-2\"");
	free(c);
	c = safetext_csv("a\033[6nb", SAFETEXT_UTF8);
	ck_assert_str_eq(c, "\"a^[[6nb\"");
	free(c);
	c = safetext_csv("", SAFETEXT_UTF8);
	ck_assert_str_eq(c, "\"\"");
	free(c);
}
END_TEST

START_TEST(names)
{
	char name[300];
	int i;

	ck_assert(safetext_name_ok("ada", 64));
	ck_assert(safetext_name_ok("Zoë Ångström", 64));
	ck_assert(!safetext_name_ok("", 64));
	ck_assert(!safetext_name_ok("   ", 64));
	ck_assert(!safetext_name_ok("a\033[2J", 64));
	ck_assert(!safetext_name_ok("a\302\233", 64));
	ck_assert(!safetext_name_ok("a\nb", 64));
	ck_assert(!safetext_name_ok("\377", 64));
	/* 64 two-byte characters (128 bytes) are a valid name; 65 are not. */
	for (i = 0; i < 64; i++)
		memcpy(name + 2 * i, "\303\251", 2);
	name[128] = '\0';
	ck_assert(safetext_name_ok(name, 64));
	memcpy(name + 128, "\303\251", 3);
	ck_assert(!safetext_name_ok(name, 64));
	ck_assert(safetext_has_control("ok\033"));
	ck_assert(!safetext_has_control("ok \303\251"));
}
END_TEST

/*
 * Issue 23: typing a trade-off byte by byte applies import's rule, so no
 * bidi override, C1 control or invalid UTF-8 ever gets into the text.
 */
static void
type_all(char *buf, size_t size, const char *bytes)
{
	for (; *bytes != '\0'; bytes++)
		safetext_type(buf, size, (unsigned char)*bytes);
	safetext_text_end(buf);
}

START_TEST(typed_text)
{
	char buf[16];

	buf[0] = '\0';
	type_all(buf, sizeof buf, "a\xe2\x80\xae" "b");	/* U+202E */
	ck_assert_str_eq(buf, "ab");
	buf[0] = '\0';
	type_all(buf, sizeof buf, "\xc2\x85" "c\xff\x80" "d");
	ck_assert_str_eq(buf, "cd");
	buf[0] = '\0';
	type_all(buf, sizeof buf, "\xc3\xa9t\xc3" "e\xe2\x81\xa6");
	ck_assert_str_eq(buf, "\xc3\xa9te");
	ck_assert(safetext_text_ok(buf, sizeof buf - 1, 0));
	buf[0] = '\0';
	type_all(buf, sizeof buf, "x\xe2\x82");	/* cut at the end */
	ck_assert_str_eq(buf, "x");
	buf[0] = '\0';
	type_all(buf, 4, "ab\xc3\xa9");		/* no room for all of it */
	ck_assert_str_eq(buf, "ab");
	ck_assert(!safetext_text_ok("a\x1b[31m", 100, 0));
	ck_assert(!safetext_text_ok("a\xe2\x80\xae", 100, 0));
	ck_assert(!safetext_text_ok("\xc0\xaf", 100, 0));
	ck_assert(safetext_text_ok("a\nb", 100, 1));
	ck_assert(!safetext_text_ok("abc", 2, 0));
}
END_TEST

static Suite *
safetext_suite(void)
{
	Suite *s = suite_create("safetext");
	TCase *tc = tcase_create("attacks");

	tcase_add_test(tc, attacks_are_shown);
	tcase_add_test(tc, newlines_and_utf8);
	tcase_add_test(tc, render_truncates_like_snprintf);
	tcase_add_test(tc, csv_cells);
	tcase_add_test(tc, names);
	tcase_add_test(tc, typed_text);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(safetext_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
