/*
 * wrap.c - word wrapping by display columns.
 */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/wrap.h"

/* Bytes and columns of the character at s (s non-empty). */
static size_t
char_at(const char *s, size_t max, int *cols)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;
	int w;

	memset(&st, 0, sizeof st);
	n = mbrtowc(&wc, s, max, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*cols = 1;
		return 1;
	}
	w = wcwidth(wc);
	*cols = w < 0 ? 1 : w;
	return n;
}

int
wrap_width(const char *s, size_t n)
{
	size_t i = 0;
	int w = 0, c;

	while (i < n) {
		i += char_at(s + i, n - i, &c);
		w += c;
	}
	return w;
}

size_t
wrap_fit(const char *s, int width)
{
	size_t i = 0, len = strlen(s), n;
	int w = 0, c;

	while (i < len) {
		n = char_at(s + i, len - i, &c);
		if (w + c > width)
			break;
		w += c;
		i += n;
	}
	return i;
}

int
wrap_paragraph(const char *s, int width,
    void (*emit)(const char *, size_t, void *), void *arg)
{
	size_t len = strlen(s), start = 0, i, brk, n;
	int lines = 0, w, c;

	if (width < 1)
		width = 1;
	while (start < len || lines == 0) {
		while (start < len && s[start] == ' ' && lines > 0)
			start++;
		if (start >= len && lines > 0)
			break;
		w = 0;
		brk = 0;
		for (i = start; i < len; i += n) {
			n = char_at(s + i, len - i, &c);
			if (w + c > width)
				break;
			if (s[i] == ' ')
				brk = i;
			w += c;
		}
		/* Break at the last space unless the line ends exactly
		 * at a space. */
		if (i < len && s[i] != ' ' && brk > start)
			i = brk;
		else if (i == start && i < len)
			i += char_at(s + i, len - i, &c);
		n = i;
		while (n > start && s[n - 1] == ' ')
			n--;
		emit(s + start, n - start, arg);
		lines++;
		start = i;
		if (start >= len)
			break;
	}
	return lines;
}
