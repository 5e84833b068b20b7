/*
 * check_anki.c - Anki's plain-text note file both ways (core/srs/anki.h),
 * held to the rules Anki's importer documents and implements: header lines
 * only at the top, '#' lines after them comments, RFC 4180 quoting, the
 * GUID, note type, deck and tags columns kept out of the fields, Front and
 * Back mapped by #columns' names or else in order, HTML when #html:true.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/srs/anki.h"

static struct anki_notes notes;
static struct pl_err err;

static int
parse(const char *text)
{
	anki_notes_free(&notes);
	pl_err_clear(&err);
	return anki_parse(text, strlen(text), "n.txt", &notes, &err);
}

/* Exactly n notes, and note i has these fields. */
static void
note_is(size_t i, const char *guid, const char *deck, const char *front,
    const char *back, const char *tags)
{
	ck_assert_uint_gt(notes.n, i);
	ck_assert_str_eq(notes.v[i].guid, guid);
	ck_assert_str_eq(notes.v[i].deck, deck);
	ck_assert_str_eq(notes.v[i].front, front);
	ck_assert_str_eq(notes.v[i].back, back);
	ck_assert_str_eq(notes.v[i].tags, tags);
}

static void
refused(const char *text, int line, int col, const char *want)
{
	ck_assert_int_eq(parse(text), -1);
	ck_assert_msg(strstr(err.msg, want) != NULL, "'%s' lacks '%s'",
	    err.msg, want);
	ck_assert_int_eq(err.line, line);
	ck_assert_int_eq(err.col, col);
	ck_assert_str_eq(err.file, "n.txt");
}

START_TEST(the_header_is_anki_s)
{
	char *h = anki_header("phase-1");

	/* The documented keys; no #columns (a German profile would leave
	 * Back empty), the deck column after #deck so that it wins. */
	ck_assert_str_eq(h, "#separator:tab\n#html:true\n#notetype:Basic\n"
	    "#deck:parlearn::phase-1\n#guid column:1\n#deck column:2\n"
	    "#tags column:5\n");
	free(h);
	h = anki_header("two\nlines\there");
	ck_assert_str_eq(strstr(h, "#deck:"), "#deck:parlearn::two_lines_here\n"
	    "#guid column:1\n#deck column:2\n#tags column:5\n");
	free(h);
}
END_TEST

START_TEST(a_line_is_fields_of_html)
{
	struct anki_out_note n = { "parlearn:p1-x", "phase-1",
	    "# of GPUs & <TP>?", "two\nlines, \"quoted\"", "parlearn phase-1" };
	char *l = anki_line(&n);

	/* A leading '#' quoted (else a comment), & and < as entities, the
	 * line break as <br>, the quotes doubled inside a quoted field. */
	ck_assert_str_eq(l, "parlearn:p1-x\tparlearn::phase-1\t"
	    "\"# of GPUs &amp; &lt;TP&gt;?\"\t"
	    "\"two<br>lines, \"\"quoted\"\"\"\tparlearn phase-1\n");
	free(l);
}
END_TEST

START_TEST(our_file_reads_back)
{
	static const char *const fronts[] = { "plain", "#hash first",
	    "a < b && c > d", "two\nlines and \"quotes\"", "tab\there" };
	static const char *const backs[] = { "b1", "b \"2\"", "&amp; stays",
	    "b\n\n3", "x" };
	struct anki_out_note n;
	char text[4096] = "", guid[32], *l;
	size_t i;

	l = anki_header("my deck");
	strcat(text, l);
	free(l);
	strcat(text, "# a comment after the header\n\n");
	for (i = 0; i < 5; i++) {
		snprintf(guid, sizeof guid, "g%zu", i);
		n = (struct anki_out_note){ guid, "my deck", fronts[i],
		    backs[i], i == 0 ? "" : "t1 t2" };
		l = anki_line(&n);
		strcat(text, l);
		free(l);
	}
	ck_assert_int_eq(parse(text), 0);
	ck_assert_uint_eq(notes.n, 5);
	ck_assert(notes.has_guid);
	for (i = 0; i < 5; i++) {
		snprintf(guid, sizeof guid, "g%zu", i);
		/* Text comes back as text; a tab is shown as a space. */
		note_is(i, guid, "my deck", i == 4 ? "tab here" : fronts[i],
		    backs[i], i == 0 ? "" : "t1 t2");
		ck_assert_str_eq(notes.v[i].notetype, "Basic");
	}
	ck_assert_int_eq(notes.v[0].line, 10);
}
END_TEST

/* A file as Anki 2.1.55+ exports it: GUID, note type and deck columns. */
START_TEST(anki_s_export_reads)
{
	ck_assert_int_eq(parse("#separator:tab\n#html:true\n#guid column:1\n"
	    "#notetype column:2\n#deck column:3\n#tags column:6\n"
	    "ykDb?Q`1q2\tBasic\tPhysics::Waves\tWhat is <b>c</b>?\t"
	    "<div>3e8 m/s</div><div>in vacuum</div>\t"
	    "physics speed\n"
	    "\"j6,D}1#9\"\tBasic (and reversed card)\tDefault\t&lt;x&gt;\t"
	    "a&nbsp;b&#38;c&#x263A;<br/>d\t\n"), 0);
	ck_assert_uint_eq(notes.n, 2);
	/* The fronts are the Front field, never the GUIDs. */
	note_is(0, "ykDb?Q`1q2", "Physics::Waves", "What is c?",
	    "3e8 m/s\nin vacuum", "physics speed");
	ck_assert_str_eq(notes.v[0].notetype, "Basic");
	note_is(1, "j6,D}1#9", "Default", "<x>", "a b&c\xe2\x98\xba\nd", "");
	ck_assert_str_eq(notes.v[1].notetype, "Basic (and reversed card)");
}
END_TEST

START_TEST(columns_separators_and_tags)
{
	/* #columns names Front and Back: mapped by name. */
	ck_assert_int_eq(parse("#separator:Pipe\n#columns:Back|Front\n"
	    "#deck:parlearn::mine\n#tags:all\nb1|f1\n"), 0);
	note_is(0, "", "mine", "f1", "b1", "all");
	/* Other names (a German profile's): in order. */
	ck_assert_int_eq(parse("#separator:tab\n#columns:Vorderseite\t"
	    "R\xc3\xbc" "ckseite\nv\tr\n"), 0);
	note_is(0, "", "", "v", "r", "");
	/* The character itself, any case of the key, a legacy tags line. */
	ck_assert_int_eq(parse("tags:old one\n#SEPARATOR:;\nf;b;x\n"), 0);
	note_is(0, "", "", "f", "b", "old one");
	/* No header: the first note's line decides; CRLF and blank lines. */
	ck_assert_int_eq(parse("f1,b1\r\n\r\nf2,\"b,2\"\r\n"), 0);
	note_is(1, "", "", "f2", "b,2", "");
	/* No #html: a field that looks like HTML makes the file HTML. */
	ck_assert_int_eq(parse("f<br>one\tb &amp; c\n"), 0);
	note_is(0, "", "", "f\none", "b & c", "");
	ck_assert_int_eq(parse("#html:false\nf<br>one\tb &amp; c\n"), 0);
	note_is(0, "", "", "f<br>one", "b &amp; c", "");
}
END_TEST

START_TEST(bad_files_are_refused_at_their_place)
{
	ck_assert_int_eq(anki_parse("a\tb\nc\x00\td\n", 9, "n.txt", &notes,
	    &err), -1);
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.col, 2);
	ck_assert_ptr_nonnull(strstr(err.msg, "NUL"));
	refused("#separator:tab\n#guid column:1\n#deck column:2\n"
	    "g1\tmine\tonly a front\n", 4, 1,
	    "a note needs a front and a back; this line has 1 field");
	refused("f1\tb1\n\tb2\n", 2, 1, "the front (column 1) is empty");
	refused("f1\tb1\nf2\t<br>\n", 2, 1, "the back (column 2) is empty");
	refused("f1\tb1\n\"open\tb2\n", 2, 1, "not closed");
	refused("f1\t\xff\n", 1, 1, "not valid UTF-8");
	refused("#separator:tab\n# nothing but comments\n", 0, 0,
	    "no notes found");
	/* A back of control characters alone is empty. */
	refused("f1\t\x1b[2J\x07\n", 1, 1, "is empty");
	/* White space alone is empty too: written back as HTML it would
	 * read as nothing (found by tests/fuzz/fuzz_tsv). */
	refused("#html:false\nf1\tb1\nf2\t\"\n\n \"\n", 3, 1,
	    "the back (column 2) is empty");
}
END_TEST

START_TEST(html_to_text)
{
	char *t = anki_html_text("<div>one</div><div><br></div><div><br></div>"
	    "<p>two &lt;3&gt;</p>  \n<b>bold</b> &quot;q&quot; &unknown; &#0;");

	ck_assert_str_eq(t, "one\n\ntwo <3>\nbold \"q\" &unknown;");
	free(t);
	t = anki_text_html("a&b <c>\nd");
	ck_assert_str_eq(t, "a&amp;b &lt;c&gt;<br>d");
	free(t);
}
END_TEST

/* Export, import, export gives the same GUIDs; import twice, same ids. */
START_TEST(ids_and_guids_are_inverse)
{
	static const char *const ids[] = { "anki:ykDb?Q`1q2", "anki-h:0123",
	    "q:drop-01:q1", "u:mine:3" };
	char g[128], back[128], again[128];
	size_t i;

	for (i = 0; i < 4; i++) {
		anki_guid_of(ids[i], g, sizeof g);
		anki_card_id(g, "deck", "front", back, sizeof back);
		ck_assert_str_eq(back, ids[i]);
	}
	/* A course card's export imports as a card of its own ... */
	anki_guid_of("p1-three-axes", g, sizeof g);
	ck_assert_str_eq(g, "parlearn:p1-three-axes");
	anki_card_id(g, "copy", "f", back, sizeof back);
	ck_assert_str_eq(back, "anki:parlearn:p1-three-axes");
	/* ... that exports with the same GUID again. */
	ck_assert_str_eq(anki_guid_of(back, again, sizeof again), g);
	/* Without a GUID: the same deck and front are the same card. */
	anki_card_id("", "deck", "front", g, sizeof g);
	anki_card_id("", "deck", "front", back, sizeof back);
	ck_assert_str_eq(g, back);
	ck_assert_int_eq(strncmp(g, "anki-h:", 7), 0);
	anki_card_id("", "other deck", "front", back, sizeof back);
	ck_assert_str_ne(g, back);
}
END_TEST

static Suite *
anki_suite(void)
{
	Suite *s = suite_create("anki");
	TCase *tc = tcase_create("note file");

	tcase_add_test(tc, the_header_is_anki_s);
	tcase_add_test(tc, a_line_is_fields_of_html);
	tcase_add_test(tc, our_file_reads_back);
	tcase_add_test(tc, anki_s_export_reads);
	tcase_add_test(tc, columns_separators_and_tags);
	tcase_add_test(tc, bad_files_are_refused_at_their_place);
	tcase_add_test(tc, html_to_text);
	tcase_add_test(tc, ids_and_guids_are_inverse);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(anki_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	anki_notes_free(&notes);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
