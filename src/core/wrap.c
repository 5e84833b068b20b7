/*
 * wrap.c - word wrapping by display columns.
 *
 * In a UTF-8 locale a character takes wcwidth(3) columns. In any other
 * locale the screens show text transliterated to ASCII (core/translit.h),
 * so a character takes as many columns as its ASCII form has bytes: "α"
 * is 5 ("alpha"), "≈" 2 ("~="). A space between a number and its unit
 * ("35 %", "120 GB") never breaks a line, so a unit is never left alone
 * at the start of the next one.
 */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/translit.h"
#include "core/wrap.h"

/*
 * Bytes and columns of the character at s (s non-empty); ascii: measure
 * its transliteration.
 */
static size_t
char_at(const char *s, size_t max, int ascii, int *cols)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;
	int w;

	if (ascii) {
		char one[2];

		*cols = (int)strlen(translit_char(s, max, &n, one));
		return n;
	}
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
	int w = 0, c, ascii = translit_wanted();

	while (i < n) {
		i += char_at(s + i, n - i, ascii, &c);
		w += c;
	}
	return w;
}

size_t
wrap_fit(const char *s, int width)
{
	size_t i = 0, len = strlen(s), n;
	int w = 0, c, ascii = translit_wanted();

	while (i < len) {
		n = char_at(s + i, len - i, ascii, &c);
		if (w + c > width)
			break;
		w += c;
		i += n;
	}
	return i;
}

/* Units that stay on the line of the number before them. */
static const char *const units[] = {
	"%", "B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB",
	"TiB", "B/s", "kB/s", "MB/s", "GB/s", "TB/s", "Gb/s", "Gbit/s",
	"bytes", "s", "ms", "us", "\u00b5s", "ns", "min", "h", "days", "FLOP",
	"FLOPs", "FLOP/s", "GFLOP/s", "TFLOP/s", "PFLOP/s", "W", "kW", "GHz",
	NULL
};

/*
 * 1 if the space at s[i] joins a number and its unit ("35 %", "1.9 GB,"):
 * a digit before it, and after it a word that, without trailing
 * punctuation, is a unit.
 */
static int
glued(const char *s, size_t i, size_t len)
{
	size_t a = i + 1, b = a, n;
	int k;

	if (i == 0 || s[i - 1] < '0' || s[i - 1] > '9')
		return 0;
	while (b < len && s[b] != ' ')
		b++;
	while (b > a && strchr(".,;:)!?'\"", s[b - 1]) != NULL)
		b--;
	n = b - a;
	for (k = 0; units[k] != NULL; k++)
		if (strlen(units[k]) == n && strncmp(s + a, units[k], n) == 0)
			return 1;
	return 0;
}

int
wrap_paragraph(const char *s, int width,
    void (*emit)(const char *, size_t, void *), void *arg)
{
	size_t len = strlen(s), start = 0, i, brk, soft, n;
	int lines = 0, w, c, ascii = translit_wanted();

	if (width < 1)
		width = 1;
	while (start < len || lines == 0) {
		while (start < len && s[start] == ' ' && lines > 0)
			start++;
		if (start >= len && lines > 0)
			break;
		w = 0;
		brk = soft = 0;
		for (i = start; i < len; i += n) {
			n = char_at(s + i, len - i, ascii, &c);
			if (w + c > width)
				break;
			if (s[i] == ' ' && !glued(s, i, len))
				brk = i;
			else if (s[i] == ' ')
				soft = i;
			w += c;
		}
		/* Break at the last space unless the line ends exactly at
		 * one; at a number's unit only if nothing else is left. */
		if (brk <= start && soft > start)
			brk = soft;
		if (i < len && s[i] != ' ' && brk > start)
			i = brk;
		else if (i < len && s[i] == ' ' && glued(s, i, len) &&
		    brk > start)
			i = brk;
		else if (i == start && i < len)
			i += char_at(s + i, len - i, ascii, &c);
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

struct option_wrap {
	FILE	*fp;
	int	 indent;
	int	 first;
};

static void
option_emit(const char *line, size_t n, void *arg)
{
	struct option_wrap *w = arg;

	fprintf(w->fp, "%*s%.*s\n", w->first ? 0 : w->indent, "", (int)n,
	    line);
	w->first = 0;
}

void
wrap_option(FILE *fp, const char *syn, int syn_width, int gap,
    const char *help)
{
	struct option_wrap w = { fp, 2 + syn_width + gap, 1 };

	if (strlen(syn) > (size_t)syn_width)
		fprintf(fp, "  %s\n  %-*s%*s", syn, syn_width, "", gap, "");
	else
		fprintf(fp, "  %-*s%*s", syn_width, syn, gap, "");
	wrap_paragraph(help, 80 - 1 - w.indent, option_emit, &w);
}
