/*
 * safetext.c - rendering untrusted text so that it is shown, never obeyed
 * (see safetext.h for the notation).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/safetext.h"

size_t
safetext_utf8(const char *str, unsigned int *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int c = s[0], v;
	size_t n, i;

	if (c == 0)
		return 0;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		v = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		v = c & 0x07;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 ||
	    v > 0x10FFFF)) || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return n;
}

int
safetext_is_control(unsigned int cp)
{
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
	    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Append what one character shows as; o counts every byte needed. */
static void
put(char *buf, size_t size, size_t *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, (*o)++)
		if (*o + 1 < size)
			buf[*o] = s[i];
}

size_t
safetext_render(const char *str, char *buf, size_t size, int flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, o = 0, n;
	unsigned int cp;
	char tmp[16];

	while (s[i] != '\0') {
		n = safetext_utf8((const char *)s + i, &cp);
		if (n == 0 || (n > 1 && !(flags & SAFETEXT_UTF8))) {
			snprintf(tmp, sizeof tmp, "\\x%02x", s[i]);
			put(buf, size, &o, tmp, 4);
			i++;
			continue;
		}
		if ((cp == '\n' || cp == '\t') && (flags & SAFETEXT_NEWLINE))
			put(buf, size, &o, (const char *)s + i, 1);
		else if (cp < 0x20 || cp == 0x7F) {
			tmp[0] = '^';
			tmp[1] = cp == 0x7F ? '?' : (char)(cp + 0x40);
			put(buf, size, &o, tmp, 2);
		} else if (safetext_is_control(cp)) {
			snprintf(tmp, sizeof tmp, "\\u%04x", cp);
			put(buf, size, &o, tmp, strlen(tmp));
		} else
			put(buf, size, &o, (const char *)s + i, n);
		i += n;
	}
	if (size > 0)
		buf[o < size ? o : size - 1] = '\0';
	return o;
}

char *
safetext_dup(const char *s, int flags)
{
	size_t n = safetext_render(s, NULL, 0, flags);
	char *out = malloc(n + 1);

	if (out != NULL)
		safetext_render(s, out, n + 1, flags);
	return out;
}

char *
safetext_csv(const char *s, int flags)
{
	char *r = safetext_dup(s, flags & SAFETEXT_UTF8), *out, *p;
	const char *q;
	size_t n = 3;

	if (r == NULL)
		return NULL;
	for (q = r; *q != '\0'; q++)
		n += *q == '"' ? 2 : 1;
	/* The raw first character decides: a rendered tab starts with '^'. */
	if (s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL)
		n++;
	if ((out = malloc(n + 1)) == NULL) {
		free(r);
		return NULL;
	}
	p = out;
	*p++ = '"';
	if (s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL)
		*p++ = '\'';
	for (q = r; *q != '\0'; q++) {
		if (*q == '"')
			*p++ = '"';
		*p++ = *q;
	}
	*p++ = '"';
	*p = '\0';
	free(r);
	return out;
}

int
safetext_has_control(const char *s)
{
	unsigned int cp;
	size_t n;

	for (; *s != '\0'; s += n)
		if ((n = safetext_utf8(s, &cp)) == 0 ||
		    safetext_is_control(cp))
			return 1;
	return 0;
}

int
safetext_name_ok(const char *s, size_t max_chars)
{
	unsigned int cp;
	size_t n, chars = 0;
	int visible = 0;

	for (; *s != '\0'; s += n, chars++) {
		if ((n = safetext_utf8(s, &cp)) == 0 ||
		    safetext_is_control(cp))
			return 0;
		visible |= cp != ' ';
	}
	return chars >= 1 && chars <= max_chars && visible;
}

int
safetext_text_ok(const char *s, size_t max, int newlines)
{
	unsigned int cp;
	size_t n, len = 0;

	for (; *s != '\0'; s += n, len += n) {
		if ((n = safetext_utf8(s, &cp)) == 0)
			return 0;
		if (safetext_is_control(cp) && !(newlines && cp == '\n'))
			return 0;
	}
	return len <= max;
}

/* Bytes a UTF-8 sequence with lead byte c has, or 0 for no lead byte. */
static size_t
seq_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return 2;
	if (c >= 0xE0 && c <= 0xEF)
		return 3;
	if (c >= 0xF0 && c <= 0xF4)
		return 4;
	return 0;
}

/* Start of the last character in buf (of length n). */
static size_t
last_start(const char *buf, size_t n)
{
	size_t i = n;

	while (i > 0 && ((unsigned char)buf[i - 1] & 0xC0) == 0x80 &&
	    n - i < 3)
		i--;
	return i > 0 ? i - 1 : 0;
}

int
safetext_type(char *buf, size_t size, int ch)
{
	size_t n = strlen(buf), start, want, have;
	unsigned int cp;

	if (ch <= 0 || ch > 0xFF)
		return 0;
	/* A new character ends the one before, complete or not. */
	if (((unsigned char)ch & 0xC0) != 0x80) {
		safetext_text_end(buf);
		n = strlen(buf);
	}
	if (n + 1 >= size)
		return 0;
	buf[n] = (char)ch;
	buf[n + 1] = '\0';
	start = last_start(buf, n + 1);
	want = seq_len((unsigned char)buf[start]);
	have = n + 1 - start;
	if (want == 0 || have > want ||
	    (((unsigned char)ch & 0xC0) == 0x80) != (have > 1))
		goto refuse;
	if (have < want)
		return 1;	/* the rest of the character is to come */
	if (safetext_utf8(buf + start, &cp) != want ||
	    safetext_is_control(cp))
		goto refuse;
	return 1;
refuse:
	/* Drop the byte, and a character it made invalid. */
	buf[n] = '\0';
	if (have > 1 && want != 0 && have <= want)
		buf[start] = '\0';
	return 0;
}

void
safetext_text_end(char *buf)
{
	size_t n = strlen(buf), start;
	unsigned int cp;

	if (n == 0)
		return;
	start = last_start(buf, n);
	if (safetext_utf8(buf + start, &cp) != n - start)
		buf[start] = '\0';
}
