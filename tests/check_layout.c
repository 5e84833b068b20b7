/*
 * check_layout.c - word wrapping by display columns (wrap.c) and a drop
 * laid out as styled, indented lines for the reader (layout.c).
 *
 * The wrap tests pin exact line breaks, including multibyte UTF-8 and wide
 * CJK characters, so they need a UTF-8 locale: main() sets C.UTF-8. The
 * layout tests build a struct content_drop by hand and compare every line
 * (text, style, indent, block) at width 30.
 */
#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "core/course/layout.h"
#include "core/wrap.h"

/* Lines emitted by wrap_paragraph, copied as NUL-terminated strings. */
struct lines {
	char	 text[64][128];
	int	 n;
};

static void
collect(const char *s, size_t len, void *arg)
{
	struct lines *l = arg;

	ck_assert_int_lt(l->n, 64);
	ck_assert_uint_lt(len, sizeof l->text[0]);
	memcpy(l->text[l->n], s, len);
	l->text[l->n][len] = '\0';
	l->n++;
}

/* Wrap s at width; checks the returned count matches the emitted lines. */
static void
wrap(const char *s, int width, struct lines *out)
{
	int n;

	memset(out, 0, sizeof *out);
	n = wrap_paragraph(s, width, collect, out);
	ck_assert_int_eq(n, out->n);
}

/* Assert the wrapped lines are exactly the NULL-terminated list want. */
static void
assert_lines(const struct lines *got, const char *const *want)
{
	int i;

	for (i = 0; want[i] != NULL; i++) {
		ck_assert_msg(i < got->n, "line %d missing, want \"%s\"", i,
		    want[i]);
		ck_assert_str_eq(got->text[i], want[i]);
	}
	ck_assert_int_eq(got->n, i);
}

/* Width of a NUL-terminated string in columns. */
static int
cols(const char *s)
{
	return wrap_width(s, strlen(s));
}

START_TEST(test_width_multibyte)
{
	ck_assert_int_eq(wrap_width("", 0), 0);
	ck_assert_int_eq(wrap_width("abc", 3), 3);
	ck_assert_int_eq(wrap_width("abc", 2), 2);
	ck_assert_int_eq(wrap_width("\xc3\xa9", 2), 1);		/* é */
	ck_assert_int_eq(wrap_width("\xe2\x80\x94", 3), 1);	/* — */
	ck_assert_int_eq(wrap_width("\xe6\x97\xa5\xe6\x9c\xac", 6), 4); /* 日本 */
	ck_assert_int_eq(wrap_width("a\xc3\xa9\xe6\x97\xa5", 6), 4);	/* aé日 */
	ck_assert_int_eq(cols("caf\xc3\xa9 \xe2\x80\x94 na\xc3\xafve"), 12);
}
END_TEST

START_TEST(test_fit_boundaries)
{
	const char *s = "a\xc3\xa9\xe6\x97\xa5" "b";	/* a é 日 b */
	const char *cjk = "\xe6\x97\xa5\xe6\x9c\xac";	/* 日本 */
	size_t n;
	int w;

	ck_assert_uint_eq(wrap_fit(s, 0), 0);
	ck_assert_uint_eq(wrap_fit(s, 1), 1);
	ck_assert_uint_eq(wrap_fit(s, 2), 3);
	ck_assert_uint_eq(wrap_fit(s, 3), 3);	/* 日 needs 2 columns */
	ck_assert_uint_eq(wrap_fit(s, 4), 6);
	ck_assert_uint_eq(wrap_fit(s, 5), 7);
	ck_assert_uint_eq(wrap_fit(s, 50), 7);
	ck_assert_uint_eq(wrap_fit(cjk, 1), 0);
	ck_assert_uint_eq(wrap_fit(cjk, 3), 3);
	ck_assert_uint_eq(wrap_fit("", 10), 0);
	/* Never stops inside a UTF-8 sequence, and fills the width. */
	for (w = 0; w <= 12; w++) {
		const char *t = "\xe2\x80\x94\xc3\xa9\xe6\x97\xa5x\xe6\x9c\xac"
		    "\xc3\xa9\xe2\x80\x94";

		n = wrap_fit(t, w);
		ck_assert_msg(((unsigned char)t[n] & 0xc0) != 0x80,
		    "width %d: cut inside a sequence at byte %zu", w, n);
		ck_assert_int_le(wrap_width(t, n), w);
		if (t[n] != '\0')
			ck_assert_int_gt(wrap_width(t, n + wrap_fit(t + n,
			    2)), w);
	}
}
END_TEST

START_TEST(test_wrap_words)
{
	struct lines l;

	wrap("the quick brown fox", 10, &l);
	assert_lines(&l, (const char *const []){ "the quick", "brown fox",
	    NULL });
	wrap("a bb ccc dddd eeeee", 6, &l);
	assert_lines(&l, (const char *const []){ "a bb", "ccc", "dddd",
	    "eeeee", NULL });
	wrap("short", 80, &l);
	assert_lines(&l, (const char *const []){ "short", NULL });
}
END_TEST

START_TEST(test_wrap_exact_fill)
{
	struct lines l;

	/* A word that ends exactly at the width stays on its line. */
	wrap("the quick brown fox jumps over the lazy dog", 10, &l);
	assert_lines(&l, (const char *const []){ "the quick", "brown fox",
	    "jumps over", "the lazy", "dog", NULL });
	wrap("caf\xc3\xa9 \xe2\x80\x94 na\xc3\xafve", 6, &l);
	assert_lines(&l, (const char *const []){ "caf\xc3\xa9 \xe2\x80\x94",
	    "na\xc3\xafve", NULL });
	wrap("hello world again", 11, &l);
	assert_lines(&l, (const char *const []){ "hello world", "again",
	    NULL });
}
END_TEST

/* Joining the lines with single spaces gives back the text. */
START_TEST(test_wrap_no_split)
{
	const char *s = "data parallel training keeps a full replica of "
	    "the model on every rank and averages gradients with all-reduce";
	char joined[256];
	struct lines l;
	int width, i;

	for (width = 11; width <= 70; width++) {	/* longest word: 10 */
		wrap(s, width, &l);
		joined[0] = '\0';
		for (i = 0; i < l.n; i++) {
			ck_assert_int_le(cols(l.text[i]), width);
			ck_assert_uint_gt(strlen(l.text[i]), 0);
			if (i > 0)
				strcat(joined, " ");
			strcat(joined, l.text[i]);
		}
		ck_assert_str_eq(joined, s);
	}
}
END_TEST

START_TEST(test_wrap_long_word)
{
	struct lines l;

	wrap("abcdefghijkl", 5, &l);
	assert_lines(&l, (const char *const []){ "abcde", "fghij", "kl",
	    NULL });
	wrap("ab abcdefghijkl cd", 5, &l);
	assert_lines(&l, (const char *const []){ "ab", "abcde", "fghij",
	    "kl cd", NULL });
	wrap("abc", 1, &l);
	assert_lines(&l, (const char *const []){ "a", "b", "c", NULL });
}
END_TEST

START_TEST(test_wrap_utf8)
{
	struct lines l;
	int width, i;

	/* "café —" is 6 columns but 9 bytes: counted in bytes, it would not fit. */
	wrap("caf\xc3\xa9 \xe2\x80\x94 na\xc3\xafve r\xc3\xa9sum\xc3\xa9", 7,
	    &l);
	assert_lines(&l, (const char *const []){ "caf\xc3\xa9 \xe2\x80\x94",
	    "na\xc3\xafve", "r\xc3\xa9sum\xc3\xa9", NULL });
	/* 8 wide characters, 16 columns, no spaces: cut every 2 chars. */
	wrap("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae"
	    "\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88", 5, &l);
	assert_lines(&l, (const char *const []){ "\xe6\x97\xa5\xe6\x9c\xac",
	    "\xe8\xaa\x9e\xe3\x81\xae", "\xe3\x83\x86\xe3\x82\xad",
	    "\xe3\x82\xb9\xe3\x83\x88", NULL });
	/* Mixed text never exceeds the width and never cuts a sequence. */
	for (width = 2; width <= 30; width++) {
		wrap("\xe6\x97\xa5\xe6\x9c\xac GPU \xe2\x80\x94 r\xc3\xa9"
		    "seau \xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86 x", width, &l);
		for (i = 0; i < l.n; i++) {
			ck_assert_int_le(cols(l.text[i]), width);
			ck_assert_int_eq(
			    mbstowcs(NULL, l.text[i], 0) == (size_t)-1, 0);
		}
	}
}
END_TEST

START_TEST(test_wrap_empty)
{
	struct lines l;

	wrap("", 10, &l);
	ck_assert_int_eq(l.n, 1);
	ck_assert_str_eq(l.text[0], "");
	wrap("   ", 10, &l);
	ck_assert_int_eq(l.n, 1);
	ck_assert_str_eq(l.text[0], "");
}
END_TEST

START_TEST(test_wrap_spaces)
{
	struct lines l;

	/* Leading spaces kept on the first line only; trailing removed. */
	wrap(" indented text", 40, &l);
	assert_lines(&l, (const char *const []){ " indented text", NULL });
	wrap("hello   ", 20, &l);
	assert_lines(&l, (const char *const []){ "hello", NULL });
	wrap("aaa    bbb", 4, &l);
	assert_lines(&l, (const char *const []){ "aaa", "bbb", NULL });
	wrap("a  b", 10, &l);
	assert_lines(&l, (const char *const []){ "a  b", NULL });
}
END_TEST

START_TEST(test_wrap_trailing_at_width)
{
	struct lines l;

	/* Trailing spaces at the wrap point give no extra empty line. */
	wrap("hello   ", 5, &l);
	assert_lines(&l, (const char *const []){ "hello", NULL });
	wrap("ab cd ", 5, &l);
	assert_lines(&l, (const char *const []){ "ab cd", NULL });
}
END_TEST

/* --- layout ------------------------------------------------------------- */

static struct content_option options[] = {
	{ "all-reduce", 1, NULL },
	{ "all-gather then a broadcast of every shard", 0, NULL },
};

static struct content_block blocks[3];
static struct content_drop drop;

static void
make_drop(void)
{
	memset(blocks, 0, sizeof blocks);
	blocks[0].kind = CONTENT_TEXT;
	blocks[0].title = "Data parallelism";
	blocks[0].text = "Each GPU keeps a full copy of the model.\n"
	    "\n"
	    "Gradients are averaged.\n"
	    "- every rank runs the same step on its own shard\n"
	    "  [GPU0]--[GPU1]--[GPU2]--[GPU3]--[GPU4]\n"
	    "\n";
	blocks[1].kind = CONTENT_QUESTION;
	blocks[1].question.id = "q1";
	blocks[1].question.type = CONTENT_Q_SINGLE;
	blocks[1].question.prompt = "Which collective averages the gradients?";
	blocks[1].question.options = options;
	blocks[1].question.n_options = 2;
	blocks[2].kind = CONTENT_ANIMATION;
	blocks[2].animation.req.mode = "dp";
	blocks[2].animation.caption = "Watch the ring all-reduce.";
	memset(&drop, 0, sizeof drop);
	drop.id = "drop-01";
	drop.phase = 1;
	drop.number = 1;
	drop.title = "Data parallelism";
	drop.blocks = blocks;
	drop.n_blocks = 3;
}

struct want_line {
	const char		*text;
	enum layout_style	 style;
	int			 indent;
	int			 block;
};

static const struct want_line want30[] = {
	{ "Data parallelism", LAYOUT_HEADING, 0, 0 },
	{ "", LAYOUT_BLANK, 0, 0 },
	{ "Each GPU keeps a full copy of", LAYOUT_BODY, 0, 0 },
	{ "the model.", LAYOUT_BODY, 0, 0 },
	{ "", LAYOUT_BLANK, 0, 0 },
	{ "Gradients are averaged.", LAYOUT_BODY, 0, 0 },
	{ "every rank runs the same", LAYOUT_BULLET, 2, 0 },
	{ "step on its own shard", LAYOUT_BODY, 2, 0 },
	{ "  [GPU0]--[GPU1]--[GPU2]--[GPU", LAYOUT_VERBATIM, 0, 0 },
	{ "", LAYOUT_BLANK, 0, 0 },
	{ "Which collective averages the", LAYOUT_PROMPT, 0, 1 },
	{ "gradients?", LAYOUT_PROMPT, 0, 1 },
	{ "( ) 1) all-reduce", LAYOUT_OPTION, 2, 1 },
	{ "( ) 2) all-gather then a", LAYOUT_OPTION, 2, 1 },
	{ "broadcast of every", LAYOUT_OPTION, 9, 1 },	/* under the text */
	{ "shard", LAYOUT_OPTION, 9, 1 },
	{ "Press a number to choose,", LAYOUT_NOTE, 2, 1 },
	{ "then Enter to check.", LAYOUT_NOTE, 2, 1 },
	{ "", LAYOUT_BLANK, 0, 2 },
	{ "Animation: press Enter to play", LAYOUT_PROMPT, 0, 2 },
	{ "it.", LAYOUT_PROMPT, 0, 2 },
	{ "Watch the ring all-reduce.", LAYOUT_NOTE, 2, 2 },
};

#define N_WANT30	(sizeof want30 / sizeof want30[0])

START_TEST(test_layout_exact)
{
	struct layout lo;
	size_t i;

	make_drop();
	ck_assert_int_eq(layout_drop(&drop, NULL, 30, &lo), 0);
	ck_assert_int_eq(lo.width, 30);
	for (i = 0; i < N_WANT30 && i < lo.n; i++) {
		ck_assert_msg(strcmp(lo.lines[i].text, want30[i].text) == 0,
		    "line %zu: \"%s\", want \"%s\"", i, lo.lines[i].text,
		    want30[i].text);
		ck_assert_msg(lo.lines[i].style == want30[i].style,
		    "line %zu: style %d, want %d", i, (int)lo.lines[i].style,
		    (int)want30[i].style);
		ck_assert_msg(lo.lines[i].indent == want30[i].indent,
		    "line %zu: indent %d, want %d", i, lo.lines[i].indent,
		    want30[i].indent);
		ck_assert_msg(lo.lines[i].block == want30[i].block,
		    "line %zu: block %d, want %d", i, lo.lines[i].block,
		    want30[i].block);
	}
	ck_assert_uint_eq(lo.n, N_WANT30);
	layout_free(&lo);
	ck_assert_ptr_null(lo.lines);
	ck_assert_uint_eq(lo.n, 0);
}
END_TEST

/* Blocks of lo appear in order 0, 1, ... n_blocks - 1, none missing. */
static void
assert_block_order(const struct layout *lo, int n_blocks)
{
	size_t i;
	int next = 0;

	for (i = 0; i < lo->n; i++) {
		ck_assert_int_le(lo->lines[i].block, next);
		if (lo->lines[i].block == next)
			next++;
		ck_assert_int_ge(lo->lines[i].block, next - 1);
	}
	ck_assert_int_eq(next, n_blocks);
}

START_TEST(test_layout_fits_width)
{
	struct layout lo;
	size_t i;
	int width;

	make_drop();
	for (width = 10; width <= 80; width++) {
		ck_assert_int_eq(layout_drop(&drop, NULL, width, &lo), 0);
		ck_assert_int_eq(lo.width, width);
		ck_assert_uint_gt(lo.n, 0);
		for (i = 0; i < lo.n; i++)
			ck_assert_msg(lo.lines[i].indent +
			    cols(lo.lines[i].text) <= width,
			    "width %d line %zu \"%s\" too wide", width, i,
			    lo.lines[i].text);
		ck_assert_int_ne(lo.lines[lo.n - 1].style, LAYOUT_BLANK);
		ck_assert_int_ne(lo.lines[0].style, LAYOUT_BLANK);
		assert_block_order(&lo, 3);
		layout_free(&lo);
	}
}
END_TEST

START_TEST(test_layout_line_of_block)
{
	struct layout lo;
	size_t at;
	int width, b;

	make_drop();
	ck_assert_int_eq(layout_drop(&drop, NULL, 30, &lo), 0);
	/*
	 * The blank separating two blocks carries the index of the block
	 * after it (line 18), unless the text before already ended with a
	 * blank line of its own (line 9, block 0): block 1 starts at its
	 * prompt.
	 */
	ck_assert_uint_eq(layout_line_of_block(&lo, 0), 0);
	ck_assert_uint_eq(layout_line_of_block(&lo, 1), 10);
	ck_assert_uint_eq(layout_line_of_block(&lo, 2), 18);
	/* Past the last block: the last line. */
	ck_assert_uint_eq(layout_line_of_block(&lo, 7), lo.n - 1);
	layout_free(&lo);
	for (width = 12; width <= 72; width += 20) {
		ck_assert_int_eq(layout_drop(&drop, NULL, width, &lo), 0);
		for (b = 0; b < 3; b++) {
			at = layout_line_of_block(&lo, b);
			ck_assert_int_eq(lo.lines[at].block, b);
			ck_assert(at == 0 || lo.lines[at - 1].block < b);
		}
		layout_free(&lo);
	}
}
END_TEST

START_TEST(test_layout_relayout)
{
	struct layout a, b;
	size_t i;

	make_drop();
	ck_assert_int_eq(layout_drop(&drop, NULL, 30, &a), 0);
	ck_assert_int_eq(layout_drop(&drop, NULL, 60, &b), 0);
	assert_block_order(&a, 3);
	assert_block_order(&b, 3);
	/* Wider: fewer lines, same verbatim clipping rule, same content. */
	ck_assert_uint_lt(b.n, a.n);
	for (i = 0; i < b.n; i++)
		if (b.lines[i].style == LAYOUT_VERBATIM)
			ck_assert_str_eq(b.lines[i].text,
			    "  [GPU0]--[GPU1]--[GPU2]--[GPU3]--[GPU4]");
	ck_assert_str_eq(b.lines[2].text,
	    "Each GPU keeps a full copy of the model.");
	layout_free(&a);
	layout_free(&b);
}
END_TEST

START_TEST(test_layout_explain_hangs)
{
	/* An explanation's continuation lines start under its text, not
	 * under its number. */
	static struct content_option opts[] = {
		{ "all-reduce", 1, "it sums the gradients of every rank and "
		    "leaves the sum on all of them" },
		{ "broadcast", 0, "one rank's copy only" },
	};
	struct quiz_state st[3];
	struct layout lo;
	size_t i, first = 0;

	make_drop();
	blocks[1].question.options = opts;
	memset(st, 0, sizeof st);
	st[1].selected = 1;
	st[1].answered = 1;
	st[1].correct = 1;
	st[1].attempts = 1;
	ck_assert_int_eq(layout_drop(&drop, st, 30, &lo), 0);
	for (i = 0; i < lo.n; i++)
		if (strcmp(lo.lines[i].text, "1) it sums the gradients of") ==
		    0)
			first = i;
	ck_assert_uint_gt(first, 0);
	ck_assert_int_eq(lo.lines[first].style, LAYOUT_EXPLAIN);
	ck_assert_int_eq(lo.lines[first].indent, 2);
	ck_assert_str_eq(lo.lines[first + 1].text, "every rank and leaves the");
	ck_assert_int_eq(lo.lines[first + 1].indent, 5);
	ck_assert_str_eq(lo.lines[first + 2].text, "sum on all of them");
	ck_assert_int_eq(lo.lines[first + 2].indent, 5);
	layout_free(&lo);
}
END_TEST

START_TEST(test_layout_edges)
{
	struct content_block blk[2];
	struct content_drop d;
	struct layout lo;

	memset(blk, 0, sizeof blk);
	memset(&d, 0, sizeof d);
	blk[0].kind = CONTENT_TEXT;
	blk[0].text = "  \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5"
	    "\xe6\x9c\xac\xe8\xaa\x9e\n\n\n";
	blk[1].kind = CONTENT_TEXT;
	blk[1].text = "end\n\n\n";
	d.blocks = blk;
	d.n_blocks = 2;
	/* Width under 10 is raised to 10; wide verbatim clipped whole. */
	ck_assert_int_eq(layout_drop(&d, NULL, 5, &lo), 0);
	ck_assert_int_eq(lo.width, 10);
	ck_assert_uint_eq(lo.n, 3);
	ck_assert_str_eq(lo.lines[0].text,
	    "  \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5");
	ck_assert_int_eq(lo.lines[0].style, LAYOUT_VERBATIM);
	ck_assert_int_eq(lo.lines[1].style, LAYOUT_BLANK);	/* one, not 3 */
	ck_assert_str_eq(lo.lines[2].text, "end");
	ck_assert_int_eq(lo.lines[2].block, 1);
	layout_free(&lo);
	/* An empty drop lays out to no lines. */
	d.n_blocks = 0;
	ck_assert_int_eq(layout_drop(&d, NULL, 40, &lo), 0);
	ck_assert_uint_eq(lo.n, 0);
	ck_assert_uint_eq(layout_line_of_block(&lo, 0), 0);
	layout_free(&lo);
}
END_TEST

static Suite *
layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc;

	tc = tcase_create("wrap");
	tcase_add_test(tc, test_width_multibyte);
	tcase_add_test(tc, test_fit_boundaries);
	tcase_add_test(tc, test_wrap_words);
	tcase_add_test(tc, test_wrap_exact_fill);
	tcase_add_test(tc, test_wrap_no_split);
	tcase_add_test(tc, test_wrap_long_word);
	tcase_add_test(tc, test_wrap_utf8);
	tcase_add_test(tc, test_wrap_empty);
	tcase_add_test(tc, test_wrap_spaces);
	tcase_add_test(tc, test_wrap_trailing_at_width);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout");
	tcase_add_test(tc, test_layout_exact);
	tcase_add_test(tc, test_layout_fits_width);
	tcase_add_test(tc, test_layout_line_of_block);
	tcase_add_test(tc, test_layout_relayout);
	tcase_add_test(tc, test_layout_explain_hangs);
	tcase_add_test(tc, test_layout_edges);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	setlocale(LC_ALL, "C.UTF-8");
	sr = srunner_create(layout_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
