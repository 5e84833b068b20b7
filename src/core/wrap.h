/*
 * wrap.h - word wrapping UTF-8 text to a width in terminal columns.
 *
 * Widths come from wcwidth(3), so the caller must have called setlocale();
 * in a non-UTF-8 locale, where the screens show text in ASCII, a character
 * takes the columns of its transliteration (core/translit.h).
 */
#ifndef PARLEARN_CORE_WRAP_H
#define PARLEARN_CORE_WRAP_H

#include <stddef.h>
#include <stdio.h>

/* Display width of the first n bytes of s, in columns. */
int	wrap_width(const char *s, size_t n);

/*
 * Split one paragraph (no newlines) into lines of at most width columns,
 * breaking at spaces, but not at the space between a number and its unit
 * ("35 %", "120 GB") unless the line has no other; a word longer than
 * width is cut. Calls emit(line, len, arg) for each line (not
 * NUL-terminated, trailing spaces removed). Returns the number of lines
 * (at least 1, an empty paragraph gives one empty line).
 */
int	wrap_paragraph(const char *s, int width,
	    void (*emit)(const char *, size_t, void *), void *arg);

/*
 * One option of a --help listing on fp: "  " and the synopsis padded to
 * syn_width, gap spaces, then help wrapped to 80 columns, its later lines
 * indented under its first; a synopsis longer than syn_width gets a line
 * of its own.
 */
void	wrap_option(FILE *fp, const char *syn, int syn_width, int gap,
	    const char *help);

/* Byte length of the longest prefix of s that fits in width columns. */
size_t	wrap_fit(const char *s, int width);

#endif
