/*
 * jsonw.c - streamed JSON in cJSON_Print's layout (jsonw.h).
 */
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/jsonw.h"

void
jsonw_init(struct jsonw *w, FILE *fp)
{
	memset(w, 0, sizeof *w);
	w->fp = fp;
}

static void
tabs(struct jsonw *w, int n)
{
	while (n-- > 0)
		putc('\t', w->fp);
}

/* Before a value: inside an array, the separator after the first. */
static void
element(struct jsonw *w)
{
	if (w->depth == 0 || w->object[w->depth - 1])
		return;
	if (w->items[w->depth - 1])
		fputs(", ", w->fp);
	w->items[w->depth - 1] = 1;
}

static void
open_level(struct jsonw *w, int object)
{
	element(w);
	putc(object ? '{' : '[', w->fp);
	if (object)
		putc('\n', w->fp);
	if (w->depth < JSONW_MAX_DEPTH) {
		w->items[w->depth] = 0;
		w->object[w->depth] = (unsigned char)object;
	}
	w->depth++;
}

void
jsonw_object_begin(struct jsonw *w)
{
	open_level(w, 1);
}

void
jsonw_object_end(struct jsonw *w)
{
	if (w->items[w->depth - 1])
		putc('\n', w->fp);
	tabs(w, w->depth - 1);
	putc('}', w->fp);
	w->depth--;
}

void
jsonw_array_begin(struct jsonw *w)
{
	open_level(w, 0);
}

void
jsonw_array_end(struct jsonw *w)
{
	putc(']', w->fp);
	w->depth--;
}

/* cJSON's print_string_ptr: the short escapes, \u00XX below 32. */
static void
put_string(FILE *fp, const char *s)
{
	const unsigned char *p;
	size_t run;

	putc('"', fp);
	for (p = (const unsigned char *)(s != NULL ? s : ""); *p != '\0';) {
		for (run = 0; p[run] > 31 && p[run] != '"' && p[run] != '\\';
		    run++)
			;
		fwrite(p, 1, run, fp);
		p += run;
		if (*p == '\0')
			break;
		switch (*p) {
		case '"':  fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\b': fputs("\\b", fp); break;
		case '\f': fputs("\\f", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		default:   fprintf(fp, "\\u%04x", *p);
		}
		p++;
	}
	putc('"', fp);
}

void
jsonw_key(struct jsonw *w, const char *key)
{
	if (w->items[w->depth - 1])
		fputs(",\n", w->fp);
	w->items[w->depth - 1] = 1;
	tabs(w, w->depth);
	put_string(w->fp, key);
	fputs(":\t", w->fp);
}

void
jsonw_string(struct jsonw *w, const char *s)
{
	element(w);
	put_string(w->fp, s);
}

/* cJSON's compare_double. */
static int
same_double(double a, double b)
{
	double max = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= max * DBL_EPSILON;
}

void
jsonw_format_number(char *buf, size_t n, double v)
{
	char point = localeconv()->decimal_point[0], *p;
	double back = 0;
	int vi;

	if (isnan(v) || isinf(v)) {
		snprintf(buf, n, "null");
		return;
	}
	/* cJSON's valueint: the double saturated to an int. */
	vi = v >= INT_MAX ? INT_MAX : v <= (double)INT_MIN ? INT_MIN : (int)v;
	if (v == (double)vi) {
		snprintf(buf, n, "%d", vi);
		return;
	}
	snprintf(buf, n, "%1.15g", v);
	if (sscanf(buf, "%lg", &back) != 1 || !same_double(back, v))
		snprintf(buf, n, "%1.17g", v);
	if (point != '.')
		for (p = buf; *p != '\0'; p++)
			if (*p == point)
				*p = '.';
}

void
jsonw_number(struct jsonw *w, double v)
{
	char buf[64];

	element(w);
	/* The common case, an integer cJSON prints whole, without stdio's
	 * floating point. */
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(w->fp, "%lld", (long long)v);
	else {
		jsonw_format_number(buf, sizeof buf, v);
		fputs(buf, w->fp);
	}
}

void
jsonw_null(struct jsonw *w)
{
	element(w);
	fputs("null", w->fp);
}

void
jsonw_bool(struct jsonw *w, int v)
{
	element(w);
	fputs(v ? "true" : "false", w->fp);
}
