/*
 * card_search.c - matching a typed query against a card's text.
 */
#include <string.h>

#include "core/srs/card_search.h"

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 if the n bytes of word occur in s, ASCII case ignored. */
static int
contains(const char *s, const char *word, size_t n)
{
	size_t i;

	if (s == NULL)
		return 0;
	for (; *s != '\0'; s++) {
		for (i = 0; i < n && s[i] != '\0'; i++)
			if (lower((unsigned char)s[i]) !=
			    lower((unsigned char)word[i]))
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

int
card_search_match(const char *query, const char *front, const char *back,
    const char *deck)
{
	const char *p = query;
	size_t n;

	if (query == NULL)
		return 1;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n > 0 && !contains(front, p, n) && !contains(back, p, n) &&
		    !contains(deck, p, n))
			return 0;
		p += n;
	}
	return 1;
}
