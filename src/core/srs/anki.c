/*
 * anki.c - writing Anki's plain-text note file, HTML both ways, and the map
 * between card ids and GUIDs (anki.h). Reading is anki_parse.c.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/srs/anki.h"
#include "core/srs/anki_int.h"

void
abuf_add(struct abuf *b, const char *s, size_t n)
{
	char *ns;
	size_t cap;

	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		cap = b->cap ? b->cap : 64;
		while (cap < b->n + n + 1)
			cap *= 2;
		if ((ns = realloc(b->s, cap)) == NULL) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

void
abuf_str(struct abuf *b, const char *s)
{
	abuf_add(b, s, strlen(s));
}

void
abuf_char(struct abuf *b, char c)
{
	abuf_add(b, &c, 1);
}

char *
abuf_take(struct abuf *b)
{
	char *s = b->s;

	if (b->oom) {
		free(s);
		s = NULL;
	} else if (s == NULL)
		s = strdup("");
	memset(b, 0, sizeof *b);
	return s;
}

char *
anki_text_html(const char *text)
{
	struct abuf b = { NULL, 0, 0, 0 };
	const char *p;

	for (p = text; *p != '\0'; p++) {
		switch (*p) {
		case '&': abuf_str(&b, "&amp;"); break;
		case '<': abuf_str(&b, "&lt;"); break;
		case '>': abuf_str(&b, "&gt;"); break;
		case '\r': break;
		case '\n': abuf_str(&b, "<br>"); break;
		default: abuf_char(&b, *p);
		}
	}
	return abuf_take(&b);
}

/* UTF-8 of code point cp (none for 0 or beyond Unicode). */
static void
put_utf8(struct abuf *b, unsigned long cp)
{
	char u[4];

	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return;
	if (cp < 0x80) {
		abuf_char(b, (char)cp);
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		abuf_add(b, u, 2);
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		abuf_add(b, u, 3);
	} else {
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		abuf_add(b, u, 4);
	}
}

/* The entity at s ('&'): appended, and its length; 0 if not one. */
static size_t
entity(struct abuf *b, const char *s)
{
	static const struct { const char *name; const char *text; } named[] = {
		{ "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" },
		{ "apos", "'" }, { "nbsp", " " },
	};
	const char *semi = strchr(s, ';');
	size_t n, i;
	char *end;
	unsigned long cp;

	if (semi == NULL || (n = (size_t)(semi - s)) < 2 || n > 10)
		return 0;
	if (s[1] == '#') {
		cp = s[2] == 'x' || s[2] == 'X' ? strtoul(s + 3, &end, 16) :
		    strtoul(s + 2, &end, 10);
		if (end != semi)
			return 0;
		put_utf8(b, cp);
		return n + 1;
	}
	for (i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strlen(named[i].name) == n - 1 &&
		    strncmp(s + 1, named[i].name, n - 1) == 0) {
			abuf_str(b, named[i].text);
			return n + 1;
		}
	return 0;
}

/*
 * The tag at s ('<'): <br> is a line break; a block (div, p, li, tr) starts
 * and ends on a line of its own, as a browser shows it; any other tag
 * goes. Returns the tag's length, 0 if it is not closed.
 */
static size_t
tag(struct abuf *b, const char *s)
{
	static const char *const blocks[] = { "div", "p", "li", "tr", NULL };
	const char *gt = strchr(s, '>'), *p = s + 1;
	char name[8];
	size_t n = 0, i;

	if (gt == NULL)
		return 0;
	if (*p == '/')
		p++;
	while (n < sizeof name - 1 && isalpha((unsigned char)p[n])) {
		name[n] = (char)tolower((unsigned char)p[n]);
		n++;
	}
	name[n] = '\0';
	if (strcmp(name, "br") == 0)
		abuf_char(b, '\n');
	for (i = 0; blocks[i] != NULL; i++)
		if (strcmp(name, blocks[i]) == 0 && b->n > 0 &&
		    b->s[b->n - 1] != '\n')
			abuf_char(b, '\n');
	return (size_t)(gt - s) + 1;
}

/*
 * Blank-line runs cut to one; spaces at the ends of a line and line breaks
 * at the ends of the text dropped, as a browser would not show them.
 */
static char *
tidy(char *s)
{
	char *r, *w = s;
	int nl = 0;		/* line breaks just written */

	if (s == NULL)
		return NULL;
	for (r = s; *r != '\0'; r++) {
		if (*r == '\n') {
			while (w > s && w[-1] == ' ')
				w--;
			if (w == s || nl >= 2)
				continue;
			*w++ = '\n';
			nl++;
		} else if (*r == ' ' && (w == s || nl > 0))
			continue;
		else {
			*w++ = *r;
			nl = 0;
		}
	}
	while (w > s && (w[-1] == '\n' || w[-1] == ' '))
		w--;
	*w = '\0';
	return s;
}

char *
anki_html_text(const char *html)
{
	struct abuf b = { NULL, 0, 0, 0 };
	const char *p;
	size_t n;

	for (p = html; *p != '\0'; p++) {
		if (*p == '<' && (n = tag(&b, p)) > 0)
			p += n - 1;
		else if (*p == '&' && (n = entity(&b, p)) > 0)
			p += n - 1;
		else if (*p == '\n' || *p == '\t')
			abuf_char(&b, ' ');	/* white space in HTML */
		else if (*p != '\r')
			abuf_char(&b, *p);
	}
	return tidy(abuf_take(&b));
}

/*
 * One field: in double quotes with its quotes doubled when it holds a tab,
 * a quote or a line break, or starts with '#' (after the headers, Anki
 * reads a line starting with '#' as a comment).
 */
static void
put_field(struct abuf *b, const char *f)
{
	const char *p;

	if (strpbrk(f, "\t\"\r\n") == NULL && f[0] != '#') {
		abuf_str(b, f);
		return;
	}
	abuf_char(b, '"');
	for (p = f; *p != '\0'; p++) {
		if (*p == '"')
			abuf_char(b, '"');
		abuf_char(b, *p);
	}
	abuf_char(b, '"');
}

/* A deck name or tag fit for a header line or a tags field: no line break,
 * no tab (a tag also no space: Anki splits tags at spaces). */
static void
put_plain(struct abuf *b, const char *s, int tag)
{
	for (; *s != '\0'; s++)
		abuf_char(b, *s == '\n' || *s == '\r' || *s == '\t' ||
		    (tag && *s == ' ') ? '_' : *s);
}

char *
anki_header(const char *deck)
{
	struct abuf b = { NULL, 0, 0, 0 };

	abuf_str(&b, "#separator:tab\n#html:true\n#notetype:Basic\n#deck:"
	    ANKI_DECK_PREFIX);
	put_plain(&b, deck, 0);
	abuf_str(&b, "\n#guid column:1\n#deck column:2\n#tags column:5\n");
	return abuf_take(&b);
}

char *
anki_line(const struct anki_out_note *n)
{
	struct abuf b = { NULL, 0, 0, 0 }, deck = { NULL, 0, 0, 0 };
	char *f = anki_text_html(n->front), *k = anki_text_html(n->back), *d;

	abuf_str(&deck, ANKI_DECK_PREFIX);
	put_plain(&deck, n->deck, 0);
	d = abuf_take(&deck);
	if (f == NULL || k == NULL || d == NULL) {
		free(f);
		free(k);
		free(d);
		return NULL;
	}
	put_field(&b, n->guid);
	abuf_char(&b, '\t');
	put_field(&b, d);
	abuf_char(&b, '\t');
	put_field(&b, f);
	abuf_char(&b, '\t');
	put_field(&b, k);
	abuf_char(&b, '\t');
	put_field(&b, n->tags);
	abuf_char(&b, '\n');
	free(f);
	free(k);
	free(d);
	return abuf_take(&b);
}

/* Card ids of parlearn's own cards that travel as "parlearn:ID". */
static int
own_card_id(const char *id)
{
	return strncmp(id, "anki-h:", 7) == 0 || strncmp(id, "q:", 2) == 0 ||
	    strncmp(id, "u:", 2) == 0;
}

char *
anki_guid_of(const char *card_id, char *buf, size_t size)
{
	if (strncmp(card_id, "anki:", 5) == 0)
		snprintf(buf, size, "%s", card_id + 5);
	else
		snprintf(buf, size, "parlearn:%s", card_id);
	return buf;
}

/* FNV-1a, 64 bits, over the bytes of a and b with a 0x1f between. */
static uint64_t
hash2(const char *a, const char *b)
{
	uint64_t h = 14695981039346656037ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)a; *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211ULL;
	h = (h ^ 0x1f) * 1099511628211ULL;
	for (p = (const unsigned char *)b; *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

char *
anki_card_id(const char *guid, const char *deck, const char *front,
    char *buf, size_t size)
{
	if (guid[0] == '\0')
		snprintf(buf, size, "anki-h:%016llx",
		    (unsigned long long)hash2(deck, front));
	else if (strncmp(guid, "parlearn:", 9) == 0 && own_card_id(guid + 9))
		snprintf(buf, size, "%s", guid + 9);
	else
		snprintf(buf, size, "anki:%s", guid);
	return buf;
}
