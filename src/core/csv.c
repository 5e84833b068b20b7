/*
 * csv.c - the one CSV writer (csv.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/number.h"
#include "core/safetext.h"

static void
put(struct csv *c, const char *s, size_t n)
{
	char *ns;
	size_t cap;

	if (c->failed)
		return;
	if (c->n + n + 1 > c->cap) {
		cap = c->cap ? c->cap : 256;
		while (cap < c->n + n + 1)
			cap *= 2;
		if ((ns = realloc(c->s, cap)) == NULL) {
			c->failed = 1;
			return;
		}
		c->s = ns;
		c->cap = cap;
	}
	memcpy(c->s + c->n, s, n);
	c->n += n;
	c->s[c->n] = '\0';
}

/* Start a cell: the separator after the first. */
static void
cell(struct csv *c)
{
	if (c->cells++ > 0)
		put(c, ",", 1);
}

void
csv_text(struct csv *c, const char *s)
{
	char *q;

	cell(c);
	if (s == NULL)
		return;
	if ((q = safetext_csv(s, SAFETEXT_UTF8)) == NULL) {
		c->failed = 1;
		return;
	}
	put(c, q, strlen(q));
	free(q);
}

void
csv_word(struct csv *c, const char *s)
{
	size_t n = s != NULL ? strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") : 0;

	if (s == NULL || s[n] != '\0' || s[0] == '-' || s[0] == '\0') {
		csv_text(c, s);
		return;
	}
	cell(c);
	put(c, s, n);
}

void
csv_int(struct csv *c, long long v)
{
	char num[32];

	cell(c);
	snprintf(num, sizeof num, "%lld", v);
	put(c, num, strlen(num));
}

void
csv_number(struct csv *c, double v)
{
	char num[64];

	cell(c);
	pl_num_c(num, sizeof num, v, 'g', 17);
	put(c, num, strlen(num));
}

void
csv_empty(struct csv *c)
{
	cell(c);
}

void
csv_end(struct csv *c)
{
	put(c, "\n", 1);
	c->cells = 0;
}

void
csv_header(struct csv *c, const char *const *names)
{
	for (; *names != NULL; names++)
		csv_word(c, *names);
	csv_end(c);
}

char *
csv_take(struct csv *c)
{
	char *s = c->failed ? NULL : c->s;

	if (c->failed)
		free(c->s);
	else if (s == NULL)
		s = strdup("");
	memset(c, 0, sizeof *c);
	return s;
}

const char *
csv_drain(struct csv *c, size_t *n)
{
	const char *s = c->s != NULL ? c->s : "";

	*n = c->failed ? 0 : c->n;
	c->n = 0;
	return c->failed ? NULL : s;
}
