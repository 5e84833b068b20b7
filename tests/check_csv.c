/*
 * check_csv.c - the one CSV writer (core/csv.h): cells as a spreadsheet
 * must read them, numbers with '.' in any locale, and no other code in the
 * tree quoting CSV cells by itself.
 */
#include <check.h>
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/json.h"

START_TEST(cells_as_a_spreadsheet_reads_them)
{
	static const char *const head[] = { "kind", "a", NULL };
	struct csv c = { NULL, 0, 0, 0, 0 };
	char *t;

	csv_header(&c, head);
	csv_word(&c, "answer");
	csv_text(&c, "say \"hi\", twice");
	csv_text(&c, "=1+1");
	csv_text(&c, "line\none");
	csv_text(&c, "\x1b[2J");
	csv_text(&c, NULL);
	csv_end(&c);
	/* A line break is shown, as every control character (safetext_csv);
	 * words stay bare only when plain and not a formula. */
	csv_word(&c, "q2");
	csv_word(&c, "-1");
	csv_word(&c, "a b");
	csv_int(&c, -42);
	csv_number(&c, 2.5);
	csv_number(&c, 1052);
	csv_empty(&c);
	csv_end(&c);
	t = csv_take(&c);
	ck_assert_str_eq(t, "kind,a\n"
	    "answer,\"say \"\"hi\"\", twice\",\"'=1+1\",\"line^Jone\","
	    "\"^[[2J\",\n"
	    "q2,\"'-1\",\"a b\",-42,2.5,1052,\n");
	free(t);
	/* Emptied: ready for another text. */
	ck_assert_ptr_null(c.s);
	t = csv_take(&c);
	ck_assert_str_eq(t, "");
	free(t);
}
END_TEST

START_TEST(numbers_keep_the_point)
{
	struct csv c = { NULL, 0, 0, 0, 0 };
	char *t;

	if (setlocale(LC_ALL, "de_DE.UTF-8") == NULL &&
	    setlocale(LC_ALL, "de_DE.utf8") == NULL)
		return;		/* no comma locale here: nothing to compare */
	csv_number(&c, 0.1);
	csv_number(&c, 12345.75);
	csv_end(&c);
	t = csv_take(&c);
	ck_assert_str_eq(t, "0.10000000000000001,12345.75\n");
	free(t);
	setlocale(LC_ALL, "C");
}
END_TEST

/* Count "safetext_csv(" in the C files under dir (recursively). */
static int
quoting_sites(const char *dir, char *where, size_t size)
{
	struct dirent *de;
	char path[1024], *text;
	const char *p;
	int n = 0;
	DIR *d = opendir(dir);

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (strstr(de->d_name, ".") == NULL) {
			n += quoting_sites(path, where, size);
			continue;
		}
		if (strcmp(de->d_name + strlen(de->d_name) - 2, ".c") != 0 ||
		    strcmp(de->d_name, "csv.c") == 0 ||
		    strcmp(de->d_name, "safetext.c") == 0)
			continue;
		text = pl_read_file(path, NULL, NULL);
		ck_assert_ptr_nonnull(text);
		for (p = strstr(text, "safetext_csv("); p != NULL;
		    p = strstr(p + 1, "safetext_csv(")) {
			n++;
			snprintf(where + strlen(where), size - strlen(where),
			    " %s", path);
		}
		free(text);
	}
	closedir(d);
	return n;
}

/* The class report and the export write through csv.c, and nothing else
 * quotes a CSV cell on its own. */
START_TEST(one_writer)
{
	char where[2048] = "";

	ck_assert_msg(quoting_sites(TOP_SRCDIR "/src", where, sizeof where) ==
	    0, "CSV cells quoted outside core/csv.c:%s", where);
}
END_TEST

static Suite *
csv_suite(void)
{
	Suite *s = suite_create("csv");
	TCase *tc = tcase_create("writer");

	tcase_add_test(tc, cells_as_a_spreadsheet_reads_them);
	tcase_add_test(tc, numbers_keep_the_point);
	tcase_add_test(tc, one_writer);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(csv_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
