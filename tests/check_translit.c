/*
 * check_translit.c - lesson text in ASCII for terminals that are not
 * UTF-8 (core/translit.c), the widths wrap.c gives it there, and the rule
 * that keeps a number and its unit on one line.
 *
 * The course case lays out every drop and the reference sheet under
 * LC_ALL=C, the way the reader does, with every question answered and
 * revealed so the explanations are laid out too, at four widths, and
 * checks what ui_put would write: printable ASCII only, no line wider
 * than the layout, and no '~' that is not in the text or an "≈". Another
 * lays the course out at every width from 20 to 100 and finds no unit
 * ("%", "GB", "ms" ...) torn from the number before it.
 */
#include <check.h>
#include <glob.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "core/course/layout.h"
#include "core/translit.h"
#include "core/wrap.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static void
assert_ascii(const char *in, const char *want)
{
	char out[256];
	size_t n;

	n = translit_ascii(in, strlen(in), out, sizeof out);
	ck_assert_str_eq(out, want);
	ck_assert_uint_eq(n, strlen(want));
}

START_TEST(forms)
{
	assert_ascii("2 \u00d7 4", "2 x 4");
	assert_ascii("\u2248", "~=");
	assert_ascii("16\u00b7\u03a8", "16*Psi");
	assert_ascii("h\u00b2 + h\u00b3", "h^2 + h^3");
	assert_ascii("\u2212" "1", "-1");
	assert_ascii("a \u2192 b \u2190 c", "a -> b <- c");
	assert_ascii("\u2264 \u2265", "<= >=");
	assert_ascii("wait\u2026", "wait...");
	assert_ascii("a\u2013b\u2014c", "a-b-c");
	assert_ascii("\u2018x\u2019 \u201cy\u201d", "'x' \"y\"");
	assert_ascii("3 \u00b5s", "3 us");
	assert_ascii("\u03b1 \u03b2 \u03b8 \u03c3 \u03a3", "alpha beta theta "
	    "sigma Sigma");
	assert_ascii("\u2211 \u221a", "sum sqrt");
	assert_ascii("W\u1d40", "W^T");
	assert_ascii("Gr\u00f6\u00dfe", "Groesse");
	assert_ascii("plain ASCII stays", "plain ASCII stays");
}
END_TEST

START_TEST(unknown_and_invalid)
{
	assert_ascii("\u65e5", "?");			/* no form known */
	assert_ascii("a\xff" "b", "a?b");		/* not UTF-8 */
	assert_ascii("\xc0\xaf", "??");			/* overlong '/' */
	assert_ascii("\xe2\x89", "??");			/* cut sequence */
	assert_ascii("\xed\xa0\x80", "???");		/* a surrogate */
}
END_TEST

START_TEST(truncation)
{
	char out[6];

	/* "x ~= " fits, "alpha" does not: it is left out whole. */
	ck_assert_uint_eq(translit_ascii("x \u2248 \u03b1", 8, out, sizeof out),
	    10);
	ck_assert_str_eq(out, "x ~= ");
	ck_assert_uint_eq(translit_ascii("\u03b1", 2, out, 1), 5);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(locale_decides)
{
	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C.UTF-8"));
	ck_assert_int_eq(translit_wanted(), 0);
	ck_assert_int_eq(wrap_width("\u03b1\u2248", 5), 2);
	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C"));
	ck_assert_int_eq(translit_wanted(), 1);
	/* Columns of the ASCII form: "alpha~=" */
	ck_assert_int_eq(wrap_width("\u03b1\u2248", 5), 7);
	ck_assert_uint_eq(wrap_fit("\u03b1\u2248x", 6), 2);
	ck_assert_uint_eq(wrap_fit("\u03b1\u2248x", 7), 5);
}
END_TEST

/* Wrapped lines, NUL-terminated. */
struct lines {
	char	text[16][128];
	int	n;
};

static void
collect(const char *s, size_t len, void *arg)
{
	struct lines *l = arg;

	ck_assert_int_lt(l->n, 16);
	ck_assert_uint_lt(len, sizeof l->text[0]);
	memcpy(l->text[l->n], s, len);
	l->text[l->n++][len] = '\0';
}

START_TEST(wrap_in_ascii)
{
	struct lines l;
	char out[128];
	int i;

	/* "so 16*Psi ~= 120 GB" is 19 ASCII columns: it cannot share a
	 * line of 20 with "total". */
	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C"));
	memset(&l, 0, sizeof l);
	wrap_paragraph("so 16\u00b7\u03a8 \u2248 120 GB total", 20, collect, &l);
	ck_assert_int_eq(l.n, 2);
	ck_assert_str_eq(l.text[0], "so 16\u00b7\u03a8 \u2248 120 GB");
	ck_assert_str_eq(l.text[1], "total");
	for (i = 0; i < l.n; i++) {
		translit_ascii(l.text[i], strlen(l.text[i]), out, sizeof out);
		ck_assert_int_le((int)strlen(out), 20);
	}
}
END_TEST

START_TEST(unit_stays_with_number)
{
	struct lines l;

	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C.UTF-8"));
	/* "a bubble of 35" is exactly 14 columns: without the rule "%"
	 * would open the next line. */
	memset(&l, 0, sizeof l);
	wrap_paragraph("a bubble of 35 % in the pipeline", 14, collect, &l);
	ck_assert_int_eq(l.n, 3);
	ck_assert_str_eq(l.text[0], "a bubble of");
	ck_assert_str_eq(l.text[1], "35 % in the");
	ck_assert_str_eq(l.text[2], "pipeline");
	/* Punctuation after the unit, and units that are words. */
	memset(&l, 0, sizeof l);
	wrap_paragraph("it needs 120 GB, far too much", 12, collect, &l);
	ck_assert_str_eq(l.text[0], "it needs");
	ck_assert_str_eq(l.text[1], "120 GB, far");
	/* Not a unit: an ordinary break. */
	memset(&l, 0, sizeof l);
	wrap_paragraph("with 8 GPUs", 6, collect, &l);
	ck_assert_str_eq(l.text[0], "with 8");
	ck_assert_str_eq(l.text[1], "GPUs");
	/* Nowhere else to break: the unit goes, the word is not cut. */
	memset(&l, 0, sizeof l);
	wrap_paragraph("35 %", 3, collect, &l);
	ck_assert_int_eq(l.n, 2);
	ck_assert_str_eq(l.text[0], "35");
	ck_assert_str_eq(l.text[1], "%");
}
END_TEST

/* Every non-ASCII character in the shipped content has an ASCII form. */
START_TEST(content_chars_known)
{
	static const char *const pats[] = { "/lessons/*.json",
	    "/lessons/*/*.json", "/flashcards/*.json", "/labs/*.json", NULL };
	char pat[1024], buf[1 << 16];
	glob_t g;
	size_t i, n, k, len;
	unsigned long cp;
	int p, files = 0;
	FILE *fp;

	for (p = 0; pats[p] != NULL; p++) {
		snprintf(pat, sizeof pat, "%s%s", TOP_SRCDIR, pats[p]);
		if (glob(pat, 0, NULL, &g) != 0)
			continue;
		for (i = 0; i < g.gl_pathc; i++, files++) {
			fp = fopen(g.gl_pathv[i], "rb");
			ck_assert_ptr_nonnull(fp);
			n = fread(buf, 1, sizeof buf - 1, fp);
			fclose(fp);
			for (k = 0; k < n; k += len) {
				len = translit_decode(buf + k, n - k, &cp);
				ck_assert_msg(cp < 0x80 || translit_cp(cp) !=
				    NULL, "%s: U+%04lX has no ASCII form",
				    g.gl_pathv[i], cp);
			}
		}
		globfree(&g);
	}
	ck_assert_int_ge(files, 18);
}
END_TEST

static int
count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* Lay out d at width under LC_ALL=C and check every line as drawn. */
static int
check_drop(const struct content_drop *d, int width)
{
	struct quiz_state *q = calloc(d->n_blocks + 1, sizeof *q);
	struct layout lo;
	char out[2048];
	size_t i, k, len;
	int lines = 0;

	ck_assert_ptr_nonnull(q);
	for (i = 0; i < d->n_blocks; i++) {
		q[i].answered = q[i].revealed = 1;
		q[i].selected = 1;
		q[i].expected = NAN;
	}
	ck_assert_int_eq(layout_drop(d, q, width, &lo), 0);
	for (i = 0; i < lo.n; i++, lines++) {
		const char *t = lo.lines[i].text;

		len = translit_ascii(t, strlen(t), out, sizeof out);
		ck_assert_uint_lt(len, sizeof out);
		for (k = 0; k < len; k++)
			ck_assert_msg(out[k] >= 0x20 && out[k] < 0x7f,
			    "%s width %d: byte 0x%02x in \"%s\"", d->id, width,
			    (unsigned char)out[k], out);
		ck_assert_msg(count(out, "~") == count(t, "~") +
		    count(t, "\u2248"), "%s: stray '~' in \"%s\"", d->id, out);
		if (lo.lines[i].style != LAYOUT_VERBATIM)
			ck_assert_msg(lo.lines[i].indent + (int)len <= width,
			    "%s width %d: \"%s\" is %zu wide", d->id, width,
			    out, len);
		ck_assert_int_eq(wrap_width(t, strlen(t)), (int)len);
	}
	layout_free(&lo);
	free(q);
	return lines;
}

START_TEST(course_in_ascii)
{
	static const int widths[] = { 30, 46, 76, 96 };
	struct content_course *c;
	char out[4096];
	size_t i, k;
	int w, lines = 0;

	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C"));
	c = content_load(TOP_SRCDIR, NULL);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->n_drops, 17);
	ck_assert_ptr_nonnull(c->reference);
	for (w = 0; w < 4; w++) {
		for (i = 0; i < c->n_drops; i++)
			lines += check_drop(&c->drops[i], widths[w]);
		lines += check_drop(c->reference, widths[w]);
	}
	ck_assert_int_gt(lines, 4000);
	for (i = 0; i < c->n_cards; i++) {
		translit_ascii(c->cards[i].front, strlen(c->cards[i].front),
		    out, sizeof out);
		for (k = 0; out[k] != '\0'; k++)
			ck_assert(out[k] >= 0x20 && out[k] < 0x7f);
		translit_ascii(c->cards[i].back, strlen(c->cards[i].back),
		    out, sizeof out);
		for (k = 0; out[k] != '\0'; k++)
			ck_assert(out[k] == '\n' ||
			    (out[k] >= 0x20 && out[k] < 0x7f));
	}
	content_free(c);
}
END_TEST

/*
 * At every width from 20 to 100, in UTF-8 and in ASCII, no line of the
 * course starts with a '%' (or "GB", "ms" ...) torn from its number.
 */
START_TEST(course_units_kept)
{
	static const char *const locales[] = { "C.UTF-8", "C" };
	static const char *const units[] = { "%", "GB", "MB", "ms", "GB/s",
	    "TFLOP/s", NULL };
	struct content_course *c;
	struct layout lo;
	size_t i, k, n;
	int l, w, u, prev_digit, checked = 0;

	c = content_load(TOP_SRCDIR, NULL);
	ck_assert_ptr_nonnull(c);
	for (l = 0; l < 2; l++) {
		ck_assert_ptr_nonnull(setlocale(LC_ALL, locales[l]));
		for (w = 20; w <= 100; w++)
			for (i = 0; i < c->n_drops; i++) {
				ck_assert_int_eq(layout_drop(&c->drops[i], NULL,
				    w, &lo), 0);
				for (k = 1; k < lo.n; k++) {
					const char *t = lo.lines[k].text;
					const char *p = lo.lines[k - 1].text;

					n = strlen(p);
					prev_digit = n > 0 && p[n - 1] >= '0' &&
					    p[n - 1] <= '9';
					for (u = 0; prev_digit && units[u] !=
					    NULL; u++)
						ck_assert_msg(strncmp(t, units[u],
						    strlen(units[u])) != 0 ||
						    (t[strlen(units[u])] != ' ' &&
						    t[strlen(units[u])] != '\0' &&
						    t[strlen(units[u])] != ',' &&
						    t[strlen(units[u])] != '.'),
						    "%s width %d: \"%s\" torn from "
						    "\"%s\"", c->drops[i].id, w, t,
						    p);
					checked++;
				}
				layout_free(&lo);
			}
	}
	ck_assert_int_gt(checked, 100000);
	content_free(c);
}
END_TEST

static Suite *
translit_suite(void)
{
	Suite *s = suite_create("translit");
	TCase *tc = tcase_create("forms");

	tcase_add_test(tc, forms);
	tcase_add_test(tc, unknown_and_invalid);
	tcase_add_test(tc, truncation);
	tcase_add_test(tc, content_chars_known);
	suite_add_tcase(s, tc);
	tc = tcase_create("wrap");
	tcase_add_test(tc, locale_decides);
	tcase_add_test(tc, wrap_in_ascii);
	tcase_add_test(tc, unit_stays_with_number);
	suite_add_tcase(s, tc);
	tc = tcase_create("course");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, course_in_ascii);
	tcase_add_test(tc, course_units_kept);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(translit_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
