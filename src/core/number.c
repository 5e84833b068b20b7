/*
 * number.c - locale-independent parsing and formatting of numbers.
 *
 * The parser checks the syntax itself (so "inf", "0x1p3" and "1e" are
 * refused whatever strtod would say), writes the number in a small
 * buffer with the current locale's decimal point, and lets strtod do the
 * rounding: strtod is exact to the last bit, a hand-made conversion is
 * not.
 */
#include <ctype.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/number.h"

#define NUM_MAX	64	/* bytes of one number, sign to exponent */

/* The locale's decimal point ("." in C, "," in de_DE). */
static const char *
locale_point(void)
{
	const struct lconv *lc = localeconv();

	return lc != NULL && lc->decimal_point != NULL &&
	    lc->decimal_point[0] != '\0' ? lc->decimal_point : ".";
}

static const char *
skip_digits(const char *p, char *buf, size_t *len, int *count)
{
	*count = 0;
	while (isdigit((unsigned char)*p)) {
		if (*len + 1 < NUM_MAX)
			buf[(*len)++] = *p;
		p++;
		(*count)++;
	}
	return p;
}

/*
 * Scan one number at s: [sign] digits [point digits] [e [sign] digits],
 * where point is '.' or alt (may be NULL). Writes it into buf with '.'
 * as the point and returns the byte after it, or NULL if there is none.
 */
static const char *
scan(const char *s, const char *alt, char *buf)
{
	const char *p = s, *q;
	size_t len = 0, altlen = alt != NULL ? strlen(alt) : 0;
	int whole, frac = 0, ex;

	if (*p == '+' || *p == '-')
		buf[len++] = *p++;
	p = skip_digits(p, buf, &len, &whole);
	if (*p == '.' || (altlen > 0 && strncmp(p, alt, altlen) == 0)) {
		p += *p == '.' ? 1 : altlen;
		buf[len++] = '.';
		p = skip_digits(p, buf, &len, &frac);
	}
	if (whole + frac == 0)
		return NULL;
	if (*p == 'e' || *p == 'E') {
		size_t mark = len;

		q = p + 1;
		buf[len++] = 'e';
		if (*q == '+' || *q == '-')
			buf[len++] = *q++;
		q = skip_digits(q, buf, &len, &ex);
		if (ex > 0)
			p = q;
		else
			len = mark;	/* "1e" or "2e+": not an exponent */
	}
	if (len + 1 >= NUM_MAX)
		return NULL;
	buf[len] = '\0';
	return p;
}

/* strtod of a scanned number (with '.'), in whatever locale is set. */
static int
convert(const char *num, double *out)
{
	const char *point = locale_point();
	char buf[NUM_MAX + 16], *end;
	size_t i, j = 0, pl = strlen(point);

	for (i = 0; num[i] != '\0' && j + pl + 1 < sizeof buf; i++) {
		if (num[i] == '.') {
			memcpy(buf + j, point, pl);
			j += pl;
		} else
			buf[j++] = num[i];
	}
	buf[j] = '\0';
	*out = strtod(buf, &end);
	return *end == '\0' && isfinite(*out) ? 0 : -1;
}

static const char *
skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int
pl_parse_double(const char *s, unsigned flags, double *out)
{
	const char *alt = NULL, *p;
	char a[NUM_MAX], b[NUM_MAX];
	double x, y;
	int pct = 0;

	if (s == NULL)
		return -1;
	if ((flags & PL_NUM_LOCALE) && strcmp(locale_point(), ".") != 0)
		alt = locale_point();
	if ((p = scan(skip_space(s), alt, a)) == NULL || convert(a, &x) != 0)
		return -1;
	p = skip_space(p);
	if (*p == '%') {
		pct = 1;
		p = skip_space(p + 1);
	} else if (*p == '/' && (flags & PL_NUM_RATIO)) {
		if ((p = scan(skip_space(p + 1), alt, b)) == NULL ||
		    convert(b, &y) != 0 || y == 0)
			return -1;
		x /= y;
		p = skip_space(p);
	}
	if (*p != '\0' || !isfinite(x))
		return -1;
	if (pct && (flags & PL_NUM_FRACTION))
		x /= 100;
	*out = x;
	return 0;
}

int
pl_parse_long(const char *s, long min, long max, long *out)
{
	const char *p;
	unsigned long v = 0, limit;
	int neg = 0, digits = 0;

	if (s == NULL)
		return -1;
	p = skip_space(s);
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	/* -LONG_MIN does not fit in long, but does in unsigned long. */
	limit = neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (limit - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	p = skip_space(p);
	if (digits == 0 || *p != '\0')
		return -1;
	if (neg) {
		/* -(v - 1) - 1 stays in range when v is LONG_MAX + 1. */
		long x = v == 0 ? 0 : -(long)(v - 1) - 1;

		if (x < min || x > max)
			return -1;
		*out = x;
	} else {
		if ((long)v < min || (long)v > max)
			return -1;
		*out = (long)v;
	}
	return 0;
}

static const char *
format(char *buf, size_t n, double v, char conv, int digits)
{
	if (n == 0)
		return buf;
	if (digits < 0)
		digits = 0;
	if (digits > 30)
		digits = 30;
	switch (conv) {
	case 'f':
		snprintf(buf, n, "%.*f", digits, v);
		break;
	case 'e':
		snprintf(buf, n, "%.*e", digits, v);
		break;
	default:
		snprintf(buf, n, "%.*g", digits, v);
		break;
	}
	return buf;
}

const char *
pl_num_local(char *buf, size_t n, double v, char conv, int digits)
{
	return format(buf, n, v, conv, digits);
}

const char *
pl_num_c(char *buf, size_t n, double v, char conv, int digits)
{
	const char *point = locale_point();
	size_t pl = strlen(point);
	char *p;

	format(buf, n, v, conv, digits);
	if (n == 0 || strcmp(point, ".") == 0 || (p = strstr(buf, point)) ==
	    NULL)
		return buf;
	*p = '.';
	memmove(p + 1, p + pl, strlen(p + pl) + 1);
	return buf;
}
