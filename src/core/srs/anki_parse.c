/*
 * anki_parse.c - reading Anki's plain-text note file (anki.h): the header
 * lines, then one note per record, fields quoted as in RFC 4180.
 *
 * The rules are Anki's importer's (rslib import_export/text/csv): headers
 * only at the top ("tags:" also on the very first line, for old files),
 * keys case-insensitive; a record starting with '#' is a comment; the GUID,
 * note type, deck and tags columns are not fields; the fields are mapped by
 * #columns' names when it names Front and Back, else in order.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "core/course/content.h"
#include "core/json.h"
#include "core/srs/anki.h"
#include "core/srs/anki_int.h"

/* What the headers say. Columns are 1-based, 0 for none. */
struct meta {
	char		 sep;		/* 0 until known */
	int		 html;		/* -1 unknown */
	int		 guid_col, deck_col, type_col, tags_col;
	char		*deck, *notetype, *tags, *columns;
};

/* One record: its fields and the line it starts on. */
struct record {
	char	**f;
	size_t	  n;
	int	  line;
};

struct in {
	const char	*s;
	size_t		 len, i;
	int		 line;
	const char	*file;
	struct pl_err	*err;
};

static char *
dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d != NULL) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static void
trim(char **s)
{
	char *p = *s, *e;

	while (*p == ' ')
		p++;
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
		e--;
	memmove(*s, p, (size_t)(e - p));
	(*s)[e - p] = '\0';
}

static int
column(const char *v)
{
	long n = strtol(v, NULL, 10);

	return n > 0 && n < 10000 ? (int)n : 0;
}

static char
separator(const char *v)
{
	static const struct { const char *name; char c; } seps[] = {
		{ "tab", '\t' }, { "comma", ',' }, { "semicolon", ';' },
		{ "space", ' ' }, { "pipe", '|' }, { "colon", ':' },
	};
	size_t i;

	for (i = 0; i < sizeof seps / sizeof seps[0]; i++)
		if (strcasecmp(v, seps[i].name) == 0 ||
		    (v[0] == seps[i].c && v[1] == '\0'))
			return seps[i].c;
	return 0;
}

/* Replace *slot by a copy of v (trimmed). -1 without memory. */
static int
set(char **slot, const char *v)
{
	free(*slot);
	if ((*slot = strdup(v)) == NULL)
		return -1;
	trim(slot);
	return 0;
}

/* A header's word value ("tab", "true"): trimmed, compared caseless. */
static int
word_is(const char *v, const char *w)
{
	size_t n = strlen(w);

	while (*v == ' ')
		v++;
	return strncasecmp(v, w, n) == 0 && (v[n] == '\0' || v[n] == ' ' ||
	    v[n] == '\r');
}

/* One header line "#key:value" (the '#' gone), without its '\n'. */
static int
header(struct meta *m, const char *line, size_t n)
{
	char *l = dup_n(line, n), *colon, *key, *val;
	int rc = 0;

	if (l == NULL)
		return -1;
	if ((colon = strchr(l, ':')) == NULL) {
		free(l);		/* a comment */
		return 0;
	}
	*colon = '\0';
	key = l;
	val = colon + 1;
	trim(&key);
	if (val[0] != '\0' && val[strlen(val) - 1] == '\r')
		val[strlen(val) - 1] = '\0';
	if (strcasecmp(key, "separator") == 0) {
		/* The character itself (" " too), or its name. */
		if (separator(val) != 0)
			m->sep = separator(val);
		else {
			trim(&val);
			if (separator(val) != 0)
				m->sep = separator(val);
		}
	} else if (strcasecmp(key, "html") == 0) {
		if (word_is(val, "true"))
			m->html = 1;
		else if (word_is(val, "false"))
			m->html = 0;
	} else if (strcasecmp(key, "tags") == 0)
		rc = set(&m->tags, val);
	else if (strcasecmp(key, "columns") == 0)
		rc = set(&m->columns, val);
	else if (strcasecmp(key, "deck") == 0)
		rc = set(&m->deck, val);
	else if (strcasecmp(key, "notetype") == 0)
		rc = set(&m->notetype, val);
	else if (strcasecmp(key, "guid column") == 0)
		m->guid_col = column(val);
	else if (strcasecmp(key, "deck column") == 0)
		m->deck_col = column(val);
	else if (strcasecmp(key, "notetype column") == 0)
		m->type_col = column(val);
	else if (strcasecmp(key, "tags column") == 0)
		m->tags_col = column(val);
	free(l);
	return rc;
}

/* The end of the line starting at i (its '\n' or the text's end). */
static size_t
line_end(const struct in *in, size_t i)
{
	while (i < in->len && in->s[i] != '\n')
		i++;
	return i;
}

/* The header lines at the top. */
static int
headers(struct in *in, struct meta *m)
{
	size_t e;

	if (in->len >= 5 && strncmp(in->s, "tags:", 5) == 0) {
		e = line_end(in, 0);
		if ((m->tags = dup_n(in->s + 5, e - 5)) == NULL)
			return -1;
		trim(&m->tags);
		in->i = e + (e < in->len);
		in->line++;
	}
	while (in->i < in->len && in->s[in->i] == '#') {
		e = line_end(in, in->i);
		if (header(m, in->s + in->i + 1, e - in->i - 1) != 0)
			return -1;
		in->i = e + (e < in->len);
		in->line++;
	}
	return 0;
}

/* Without #separator: the first record's line decides, as Anki guesses. */
static char
guess_separator(const struct in *in)
{
	static const char order[] = "\t;,|";
	size_t i = in->i, e;
	const char *c;

	while (i < in->len && (in->s[i] == '#' || in->s[i] == '\n' ||
	    in->s[i] == '\r'))
		i = line_end(in, i) + 1;
	e = i < in->len ? line_end(in, i) : i;
	for (c = order; *c != '\0'; c++)
		if (memchr(in->s + i, *c, e - i) != NULL)
			return *c;
	return '\t';
}

static int
add_field(struct record *r, struct abuf *b)
{
	char **nf, *f = abuf_take(b);

	if (f == NULL || (nf = realloc(r->f, (r->n + 1) * sizeof *nf)) == NULL) {
		free(f);
		return -1;
	}
	r->f = nf;
	r->f[r->n++] = f;
	return 0;
}

static void
record_free(struct record *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->f[i]);
	free(r->f);
	memset(r, 0, sizeof *r);
}

/*
 * The next record at in->i: 1 read, 0 at the end, -1 with err set.
 * Blank lines and comment lines are skipped.
 */
static int
next_record(struct in *in, char sep, struct record *r)
{
	struct abuf b = { NULL, 0, 0, 0 };
	int quoted = 0, at_start = 1, qline = 0;
	char c;

	memset(r, 0, sizeof *r);
	while (in->i < in->len && (in->s[in->i] == '\n' || in->s[in->i] == '#' ||
	    (in->s[in->i] == '\r' && in->i + 1 < in->len &&
	    in->s[in->i + 1] == '\n'))) {
		in->i = line_end(in, in->i) + 1;
		in->line++;
	}
	if (in->i >= in->len)
		return 0;
	r->line = in->line;
	for (; in->i < in->len; in->i++) {
		c = in->s[in->i];
		if (quoted) {
			if (c == '"' && in->i + 1 < in->len &&
			    in->s[in->i + 1] == '"') {
				abuf_char(&b, '"');
				in->i++;
			} else if (c == '"')
				quoted = 0;
			else {
				if (c == '\n')
					in->line++;
				abuf_char(&b, c);
			}
			continue;
		}
		if (c == '"' && at_start) {
			quoted = 1;
			qline = in->line;
			at_start = 0;
			continue;
		}
		if (c == sep || c == '\n') {
			if (add_field(r, &b) != 0)
				goto oom;
			at_start = 1;
			if (c == '\n') {
				in->i++;
				in->line++;
				return 1;
			}
			continue;
		}
		at_start = 0;
		abuf_char(&b, c);
	}
	if (quoted) {
		free(abuf_take(&b));
		record_free(r);
		pl_err_set(in->err, in->file, qline, 1, "%s",
		    _("a quoted field is not closed"));
		return -1;
	}
	if (add_field(r, &b) != 0)
		goto oom;
	return 1;
oom:
	free(abuf_take(&b));
	record_free(r);
	pl_err_set(in->err, in->file, 0, 0, "%s", _("out of memory"));
	return -1;
}

/* A field that looks like HTML: a tag or an entity. */
static int
looks_html(const char *s)
{
	const char *p;

	for (p = strchr(s, '<'); p != NULL; p = strchr(p + 1, '<'))
		if ((isalpha((unsigned char)p[1]) || (p[1] == '/' &&
		    isalpha((unsigned char)p[2]))) && strchr(p, '>') != NULL)
			return 1;
	return strstr(s, "&amp;") != NULL || strstr(s, "&nbsp;") != NULL ||
	    strstr(s, "&lt;") != NULL;
}

/* Which columns (1-based) hold Front and Back. */
static void
field_columns(const struct meta *m, size_t n_fields, int *front, int *back)
{
	char *labels = m->columns != NULL ? strdup(m->columns) : NULL, *l;
	char sepstr[2] = { m->sep, '\0' };
	int col = 0, k = 0, named_f = 0, named_b = 0;

	*front = *back = 0;
	for (l = labels != NULL ? strtok(labels, sepstr) : NULL; l != NULL;
	    l = strtok(NULL, sepstr)) {
		col++;
		trim(&l);
		if (strcasecmp(l, "Front") == 0)
			named_f = col;
		else if (strcasecmp(l, "Back") == 0)
			named_b = col;
	}
	free(labels);
	if (named_f > 0 && named_b > 0) {
		*front = named_f;
		*back = named_b;
		return;
	}
	for (col = 1; col <= (int)n_fields; col++) {
		if (col == m->guid_col || col == m->deck_col ||
		    col == m->type_col || col == m->tags_col)
			continue;
		if (k == 0)
			*front = col;
		else if (k == 1)
			*back = col;
		k++;
	}
}

static const char *
col_value(const struct record *r, int col)
{
	return col > 0 && (size_t)col <= r->n ? r->f[col - 1] : "";
}

/* A field as the note's text: HTML turned into text, controls removed. */
static char *
note_text(struct in *in, const char *field, int html, int line)
{
	char *t = html ? anki_html_text(field) : strdup(field), *s;
	size_t bad = 0;

	if (t == NULL) {
		pl_err_set(in->err, in->file, 0, 0, "%s", _("out of memory"));
		return NULL;
	}
	s = content_sanitize(t, &bad);
	free(t);
	if (s == NULL)
		pl_err_set(in->err, in->file, line, 1, "%s",
		    _("text is not valid UTF-8"));
	else
		trim(&s);
	return s;
}

/* Tags of a note: its column's and the file's, single spaces. */
static char *
note_tags(const char *col, const char *global)
{
	struct abuf b = { NULL, 0, 0, 0 };
	const char *src[2] = { col, global }, *p, *w;
	int i;

	for (i = 0; i < 2; i++) {
		for (p = src[i] != NULL ? src[i] : ""; *p != '\0';) {
			while (*p != '\0' && isspace((unsigned char)*p))
				p++;
			for (w = p; *p != '\0' && !isspace((unsigned char)*p);
			    p++)
				;
			if (p == w)
				continue;
			if (b.n > 0)
				abuf_char(&b, ' ');
			abuf_add(&b, w, (size_t)(p - w));
		}
	}
	return abuf_take(&b);
}

static char *
without_prefix(const char *deck)
{
	size_t n = strlen(ANKI_DECK_PREFIX);

	return strdup(strncmp(deck, ANKI_DECK_PREFIX, n) == 0 && deck[n] != '\0'
	    ? deck + n : deck);
}

/* 1 if s holds nothing but white space: a field Anki shows as empty, and
 * one that HTML would turn into nothing on the way back. */
static int
blank(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

/* Fill note k from record r. 0, or -1 with err set. */
static int
make_note(struct in *in, const struct meta *m, const struct record *r,
    int html, struct anki_note *k)
{
	int front, back;
	size_t fields = 0, i;

	memset(k, 0, sizeof *k);
	k->line = r->line;
	field_columns(m, r->n, &front, &back);
	if (front == 0 || back == 0) {
		for (i = 1; i <= r->n; i++)
			fields += (int)i != m->guid_col && (int)i != m->deck_col &&
			    (int)i != m->type_col && (int)i != m->tags_col;
		pl_err_set(in->err, in->file, r->line, 1, P_("a note needs a "
		    "front and a back; this line has %zu field besides its "
		    "GUID, note type, deck and tags columns", "a note needs a "
		    "front and a back; this line has %zu fields besides its "
		    "GUID, note type, deck and tags columns", fields), fields);
		return -1;
	}
	if ((k->front = note_text(in, col_value(r, front), html, r->line)) ==
	    NULL || (k->back = note_text(in, col_value(r, back), html,
	    r->line)) == NULL)
		return -1;
	if (blank(k->front)) {
		pl_err_set(in->err, in->file, r->line, 1, _("a note needs a "
		    "front and a back; the front (column %d) is empty"), front);
		return -1;
	}
	if (blank(k->back)) {
		pl_err_set(in->err, in->file, r->line, 1, _("a note needs a "
		    "front and a back; the back (column %d) is empty"), back);
		return -1;
	}
	k->guid = strdup(col_value(r, m->guid_col));
	k->deck = without_prefix(m->deck_col > 0 ? col_value(r, m->deck_col) :
	    m->deck != NULL ? m->deck : "");
	k->notetype = strdup(m->type_col > 0 ? col_value(r, m->type_col) :
	    m->notetype != NULL ? m->notetype : "");
	k->tags = note_tags(col_value(r, m->tags_col), m->tags);
	if (k->guid == NULL || k->deck == NULL || k->notetype == NULL ||
	    k->tags == NULL) {
		pl_err_set(in->err, in->file, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	trim(&k->guid);
	trim(&k->deck);
	return 0;
}

static void
note_free(struct anki_note *k)
{
	free(k->guid);
	free(k->notetype);
	free(k->deck);
	free(k->front);
	free(k->back);
	free(k->tags);
}

/* Whether the notes are HTML: the header says, or a field looks it. */
static int
decide_html(struct in *in, const struct meta *m)
{
	struct in probe = *in;
	struct record r;
	struct pl_err e;
	size_t i;
	int n, html = 0;

	if (m->html >= 0)
		return m->html;
	probe.err = &e;
	for (n = 0; n < 5 && !html && next_record(&probe, m->sep, &r) == 1;
	    n++) {
		for (i = 0; i < r.n && !html; i++)
			html = looks_html(r.f[i]);
		record_free(&r);
	}
	return html;
}

static int
push(struct anki_notes *out, size_t *cap, struct anki_note *k)
{
	struct anki_note *nv;

	if (out->n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		if ((nv = realloc(out->v, *cap * sizeof *nv)) == NULL)
			return -1;
		out->v = nv;
	}
	out->v[out->n++] = *k;
	return 0;
}

int
anki_parse(const char *text, size_t len, const char *file,
    struct anki_notes *out, struct pl_err *err)
{
	struct in in = { text, len, 0, 1, file, err };
	struct meta m = { 0, -1, 0, 0, 0, 0, NULL, NULL, NULL, NULL };
	const char *nul = memchr(text, '\0', len);
	struct anki_note k;
	struct record r;
	size_t cap = 0;
	int rc = 0, got, html, line, col;

	memset(out, 0, sizeof *out);
	if (nul != NULL) {
		pl_json_position(text, (size_t)(nul - text), &line, &col);
		pl_err_set(err, file, line, col, "%s",
		    _("the file holds a NUL byte; not a text file"));
		return -1;
	}
	if (headers(&in, &m) != 0) {
		pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
		rc = -1;
	}
	if (m.sep == 0)
		m.sep = guess_separator(&in);
	html = decide_html(&in, &m);
	out->has_guid = m.guid_col > 0;
	while (rc == 0 && (got = next_record(&in, m.sep, &r)) != 0) {
		if (got < 0) {
			rc = -1;
			break;
		}
		rc = make_note(&in, &m, &r, html, &k);
		record_free(&r);
		if (rc == 0 && push(out, &cap, &k) != 0) {
			pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
			rc = -1;
		}
		if (rc != 0)
			note_free(&k);
	}
	if (rc == 0 && out->n == 0) {
		pl_err_set(err, file, 0, 0, "%s", _("no notes found"));
		rc = -1;
	}
	free(m.deck);
	free(m.notetype);
	free(m.tags);
	free(m.columns);
	if (rc != 0)
		anki_notes_free(out);
	return rc;
}

void
anki_notes_free(struct anki_notes *notes)
{
	size_t i;

	for (i = 0; i < notes->n; i++)
		note_free(&notes->v[i]);
	free(notes->v);
	memset(notes, 0, sizeof *notes);
}
