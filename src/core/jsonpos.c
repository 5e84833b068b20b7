/*
 * jsonpos.c - the line and column of a JSON path in its text (jsonpos.h).
 *
 * A scanner, not a parser: it trusts that the text parsed already, skips
 * values by their brackets and strings, and compares object keys byte for
 * byte (keys with escapes never match, which only makes the answer a
 * prefix).
 */
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/jsonpos.h"

struct scan {
	const char	*s;
	size_t		 i;
};

static void
ws(struct scan *sc)
{
	while (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' ||
	    sc->s[sc->i] == '\n' || sc->s[sc->i] == '\r')
		sc->i++;
}

/* Past a string starting at its quote; -1 if it does not end. */
static int
skip_string(struct scan *sc)
{
	sc->i++;
	for (; sc->s[sc->i] != '\0'; sc->i++) {
		if (sc->s[sc->i] == '\\' && sc->s[sc->i + 1] != '\0')
			sc->i++;
		else if (sc->s[sc->i] == '"') {
			sc->i++;
			return 0;
		}
	}
	return -1;
}

/* Past one value of any kind. */
static int
skip_value(struct scan *sc)
{
	int depth = 0;

	ws(sc);
	do {
		switch (sc->s[sc->i]) {
		case '\0':
			return -1;
		case '"':
			if (skip_string(sc) != 0)
				return -1;
			continue;
		case '{': case '[':
			depth++;
			break;
		case '}': case ']':
			if (--depth < 0)
				return -1;
			break;
		default:
			if (depth == 0) {
				/* A number, true, false or null. */
				while (sc->s[sc->i] != '\0' &&
				    strchr(",}] \t\r\n", sc->s[sc->i]) == NULL)
					sc->i++;
				return 0;
			}
		}
		sc->i++;
	} while (depth > 0);
	return 0;
}

/* At an object: to the value of key. 0, 1 if absent, -1. */
static int
enter_key(struct scan *sc, const char *key, size_t klen)
{
	size_t start, len;

	ws(sc);
	if (sc->s[sc->i] != '{')
		return -1;
	sc->i++;
	for (;;) {
		ws(sc);
		if (sc->s[sc->i] == '}')
			return 1;
		if (sc->s[sc->i] != '"')
			return -1;
		start = sc->i + 1;
		if (skip_string(sc) != 0)
			return -1;
		len = sc->i - 1 - start;
		ws(sc);
		if (sc->s[sc->i] != ':')
			return -1;
		sc->i++;
		ws(sc);
		if (len == klen && memcmp(sc->s + start, key, klen) == 0)
			return 0;
		if (skip_value(sc) != 0)
			return -1;
		ws(sc);
		if (sc->s[sc->i] == ',')
			sc->i++;
	}
}

/* At an array: to element n. 0, 1 if it has fewer, -1. */
static int
enter_index(struct scan *sc, long n)
{
	long k;

	ws(sc);
	if (sc->s[sc->i] != '[')
		return -1;
	sc->i++;
	for (k = 0;; k++) {
		ws(sc);
		if (sc->s[sc->i] == ']')
			return 1;
		if (k == n)
			return 0;
		if (skip_value(sc) != 0)
			return -1;
		ws(sc);
		if (sc->s[sc->i] == ',')
			sc->i++;
	}
}

int
json_locate(const char *text, const char *path, int *line, int *col)
{
	struct scan sc = { text, 0 };
	size_t found, klen;
	const char *p = path;
	char *end;
	long n;
	int rc = 0;

	ws(&sc);
	found = sc.i;
	while (*p != '\0' && rc == 0) {
		if (*p == '[') {
			n = strtol(p + 1, &end, 10);
			if (end == p + 1 || *end != ']')
				break;
			rc = enter_index(&sc, n);
			p = end + 1;
		} else {
			if (*p == '.')
				p++;
			klen = strcspn(p, ".[");
			rc = enter_key(&sc, p, klen);
			p += klen;
		}
		if (rc == 0) {
			ws(&sc);
			found = sc.i;
		}
	}
	if (text[found] == '\0')
		return -1;
	pl_json_position(text, found, line, col);
	return rc == 0 && *p == '\0' ? 0 : 1;
}

int
json_locate_err(const char *text, struct pl_err *err)
{
	int line, col;

	if (text == NULL || err->line > 0 || err->path[0] == '\0' ||
	    json_locate(text, err->path, &line, &col) < 0)
		return 0;
	err->line = line;
	err->col = col;
	return 1;
}
