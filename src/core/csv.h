/*
 * csv.h - the one CSV writer (RFC 4180) for every CSV parlearn writes: a
 * lab's class report (core/lab) and a learner's export (store/export.c).
 *
 * A spreadsheet must show each cell as the text or number it is. Text
 * cells go through safetext_csv: quoted with their quotes doubled, control
 * characters shown as text, and a cell a spreadsheet would take for a
 * formula (= + - @ first) prefixed with a quote. A word of the file's own
 * vocabulary ("question", "right", an id) may go unquoted when it is plain.
 * Numbers are written with '.' whatever the locale. Cells are separated by
 * ',' and rows end with '\n'. Nothing here does I/O; the text is returned.
 */
#ifndef PARLEARN_CORE_CSV_H
#define PARLEARN_CORE_CSV_H

#include <stddef.h>

struct csv {
	char	*s;		/* the text so far */
	size_t	 n, cap;
	int	 cells;		/* cells in the current row */
	int	 failed;	/* out of memory: csv_take gives NULL */
};

/* A text cell (NULL: an empty cell). */
void	csv_text(struct csv *, const char *s);
/* A word unquoted when it is letters, digits, '.', '_' or '-' and cannot
 * read as a formula; any other as csv_text. */
void	csv_word(struct csv *, const char *s);
void	csv_int(struct csv *, long long v);
/* A number, exact (17 significant digits), '.' for the decimal point. */
void	csv_number(struct csv *, double v);
void	csv_empty(struct csv *);
/* End the row. */
void	csv_end(struct csv *);
/* A header row: the names, NULL-terminated, as words. */
void	csv_header(struct csv *, const char *const *names);
/* The text (caller frees), or NULL when anything failed; c is emptied. */
char	*csv_take(struct csv *);
/*
 * The text so far (*n bytes), or NULL when anything failed, and c emptied
 * for the next rows, keeping its buffer: a writer that streams rows takes
 * each as it ends. Valid until the next call on c; free c with csv_take.
 */
const char	*csv_drain(struct csv *, size_t *n);

#endif
