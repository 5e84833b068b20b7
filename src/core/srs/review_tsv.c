/*
 * review_tsv.c - decks as tab-separated text, the format Anki imports.
 *
 * Output: header lines Anki 2.1.55+ reads ("#separator:tab", "#html:false",
 * "#deck:NAME", "#columns:Front<TAB>Back<TAB>Tags"), then one note per
 * line. A field with a tab, newline or double quote is quoted and its
 * quotes doubled (RFC 4180 rules, which Anki's importer follows).
 * Input: the same, or any Anki "Notes in Plain Text" export.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/json.h"
#include "core/safetext.h"
#include "core/srs/review.h"

/* Bytes field f takes when written, quoted if needed, to o (if not NULL). */
static size_t
field(const char *f, char *o)
{
	size_t n = 0;
	const char *p;

	/* A front starting with '#' would read back as a comment line. */
	if (strpbrk(f, "\t\n\r\"") == NULL && f[0] != '#') {
		if (o != NULL)
			memcpy(o, f, strlen(f));
		return strlen(f);
	}
	if (o != NULL)
		o[n] = '"';
	n++;
	for (p = f; *p != '\0'; p++) {
		if (*p == '"') {
			if (o != NULL)
				o[n] = '"';
			n++;
		}
		if (o != NULL)
			o[n] = *p;
		n++;
	}
	if (o != NULL)
		o[n] = '"';
	return n + 1;
}

char *
review_tsv_line(const char *front, const char *back, const char *tags)
{
	const char *f[3] = { front, back, tags != NULL ? tags : "" };
	size_t n = 0, i;
	char *out;

	for (i = 0; i < 3; i++)
		n += field(f[i], NULL) + 1;
	if ((out = malloc(n + 1)) == NULL)
		return NULL;
	for (i = 0, n = 0; i < 3; i++) {
		n += field(f[i], out + n);
		out[n++] = i < 2 ? '\t' : '\n';
	}
	out[n] = '\0';
	return out;
}

char *
review_tsv_header(const char *deck)
{
	/* A deck name cannot break the header line or carry escapes. */
	char *d = safetext_dup(deck, SAFETEXT_UTF8), *out;
	size_t n;

	if (d == NULL)
		return NULL;
	n = strlen(d) + 160;
	if ((out = malloc(n)) != NULL)
		snprintf(out, n, "#separator:tab\n#html:false\n"
		    "#notetype:Basic\n#deck:%s\n#tags column:3\n"
		    "#columns:Front\tBack\tTags\n", d);
	free(d);
	return out;
}

/* Parser state: position in the text, line and column for errors. */
struct tsv_in {
	const char	*s;
	size_t		 len, i;
	int		 line, col;
	const char	*file;
	struct pl_err	*err;
};

static int
next(struct tsv_in *in)
{
	int c;

	if (in->i >= in->len)
		return -1;
	c = (unsigned char)in->s[in->i++];
	if (c == '\n') {
		in->line++;
		in->col = 1;
	} else
		in->col++;
	return c;
}

static int
peek(const struct tsv_in *in)
{
	return in->i < in->len ? (unsigned char)in->s[in->i] : -1;
}

/*
 * Read one field into buf (allocated). *end gets the character that ended
 * it: '\t', '\n' or -1. 0, or -1 with err set.
 */
static int
read_field(struct tsv_in *in, char **buf, int *end)
{
	size_t n = 0, cap = 64;
	int c, quoted = peek(in) == '"', l0 = in->line, c0 = in->col;
	char *b = malloc(cap), *nb;

	if (quoted)
		next(in);
	for (;;) {
		c = next(in);
		if (quoted && c == '"') {
			if (peek(in) != '"') {
				quoted = 0;
				continue;
			}
			c = next(in);
		} else if (quoted && c == -1) {
			pl_err_set(in->err, in->file, l0, c0, "%s",
			    _("quoted field is not closed"));
			free(b);
			return -1;
		} else if (!quoted && (c == '\t' || c == '\n' || c == -1))
			break;
		if (!quoted && c == '\r' && peek(in) == '\n')
			continue;
		if (b != NULL && n + 2 > cap) {
			nb = realloc(b, cap *= 2);
			if (nb == NULL)
				free(b);
			b = nb;
		}
		if (b == NULL)
			return -1;
		b[n++] = (char)c;
	}
	if (b == NULL)
		return -1;
	b[n] = '\0';
	*buf = b;
	*end = c;
	return 0;
}

/* Skip to the start of the next line. */
static void
skip_line(struct tsv_in *in)
{
	int c;

	while ((c = next(in)) != -1 && c != '\n')
		;
}

/* Sanitise f in place of *f; -1 with err if it is not UTF-8. */
static int
clean(struct tsv_in *in, char **f, int line)
{
	size_t bad;
	char *s = content_sanitize(*f, &bad);

	if (s == NULL) {
		pl_err_set(in->err, in->file, line, (int)bad + 1, "%s",
		    _("text is not valid UTF-8"));
		return -1;
	}
	free(*f);
	*f = s;
	return 0;
}

/* Read a note's fields (the first two kept in k). 0, 1 at end, -1. */
static int
read_note(struct tsv_in *in, struct review_tsv_card *k)
{
	char *f[2] = { NULL, NULL }, *extra;
	int end = '\t', nf = 0, line = in->line;

	while (end == '\t') {
		if (read_field(in, nf < 2 ? &f[nf] : &extra, &end) != 0)
			goto fail;
		if (nf >= 2)
			free(extra);
		nf++;
	}
	if (nf == 1 && f[0][0] == '\0') {
		free(f[0]);
		return end == -1 ? 1 : 2;	/* a blank line */
	}
	if (nf >= 2 && (clean(in, &f[0], line) != 0 ||
	    clean(in, &f[1], line) != 0))
		goto fail;
	/* Empty once control characters are gone counts as empty. */
	if (nf < 2 || f[0][0] == '\0' || f[1][0] == '\0') {
		pl_err_set(in->err, in->file, line, 1, "%s",
		    _("a note needs a front and a back separated by a tab"));
		goto fail;
	}
	k->front = f[0];
	k->back = f[1];
	return 0;
fail:
	free(f[0]);
	free(f[1]);
	return -1;
}

int
review_tsv_parse(const char *text, size_t len, const char *file,
    struct review_tsv *out, struct pl_err *err)
{
	struct tsv_in in = { text, len, 0, 1, 1, file, err };
	struct review_tsv_card k, *nv;
	size_t cap = 0;
	int rc;

	const char *nul = memchr(text, '\0', len);
	int line, col;

	memset(out, 0, sizeof *out);
	/* A NUL would end a field early, silently: refuse the file. */
	if (nul != NULL) {
		pl_json_position(text, (size_t)(nul - text), &line, &col);
		pl_err_set(err, file, line, col, "%s",
		    _("the file holds a NUL byte; not a text file"));
		return -1;
	}
	while (in.i < in.len) {
		if (peek(&in) == '#') {
			skip_line(&in);
			continue;
		}
		rc = read_note(&in, &k);
		if (rc < 0) {
			review_tsv_free(out);
			return -1;
		}
		if (rc > 0)
			continue;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 32;
			nv = realloc(out->cards, cap * sizeof *nv);
			if (nv == NULL) {
				free(k.front);
				free(k.back);
				review_tsv_free(out);
				pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
				return -1;
			}
			out->cards = nv;
		}
		out->cards[out->n++] = k;
	}
	if (out->n == 0) {
		pl_err_set(err, file, 0, 0, "%s", _("no notes found"));
		return -1;
	}
	return 0;
}

void
review_tsv_free(struct review_tsv *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->cards[i].front);
		free(t->cards[i].back);
	}
	free(t->cards);
	memset(t, 0, sizeof *t);
}
