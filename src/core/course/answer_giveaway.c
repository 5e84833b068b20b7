/*
 * answer_giveaway.c - no answer stands above its question (issues 14
 * and 22): a numeric question must not ask for a figure the learner can
 * read somewhere instead of working it out.
 *
 * Where a figure gives the answer away:
 *
 * - the question's own prompt;
 * - anything of the same drop shown before the question: the drop's
 *   title and summary, text blocks and their headings, earlier
 *   questions (prompt, options and their explanations, explanation,
 *   reveal answer), animation captions, scenarios (title, brief, hints,
 *   solution);
 * - any other question of the course, in any drop, before or after it
 *   (prompt, options and their explanations, explanation, reveal
 *   answer);
 * - another numeric question of the course that asks for the same
 *   quantity with the same figure (within the larger of the two
 *   tolerances): the same question asked twice. Only the later of the
 *   two, in course order, is reported.
 *
 * How a figure in text is read: every number as English lesson text
 * writes it ("2,048" with thousands commas, "0.35", "7e9", "1.66 x
 * 10^14", the ratio "3/31"), then what follows it:
 *
 * - "%": a percentage. It counts only for a question that asks for a
 *   fraction (bubble, MFU), as value / 100: "9.7%" is 0.097.
 * - a unit: an SI prefix on a base unit (B, s, B/s, b/s, FLOP, FLOP/s,
 *   W, Hz) or a binary one (KiB ... PiB). It counts only when its base
 *   is the question's, converted to the question's prefix: 54 ms is
 *   0.054 s, 94,000 MB is 94 GB; 94 GiB is not 94 GB, and a unit on a
 *   number makes it no answer to a question without one.
 * - a word naming something counted or another non-SI unit ("8 GPUs",
 *   "32-GPU", "40 layers", "3 hours", "16x"), or a name with digits
 *   ("32 A100s"): another quantity, never the answer.
 * - nothing of the above: a bare number, read in the question's own
 *   unit. For a question without a unit (a fraction, a count) it counts
 *   everywhere. For a question with a unit it counts in the prompt and
 *   in the text of the drop above the question, where tables and sums
 *   print their figures bare ("94.0" under a "GB" column heading), but
 *   not in other questions of the course: far from its context a bare
 *   "50" is as likely a bandwidth or a batch as the answer. A number
 *   with a word glued to it ("1F1B", "3D") and one inside a name
 *   ("H100", "GPT-3", "bf16") is a name, not a figure.
 * - a range or list shares the unit of its last number: "140 to 160
 *   TFLOP/s", "200 or 400 Gb/s", "2-4 GB".
 *
 * A figure within the question's tolerance of the computed answer is a
 * problem, one per field it appears in. The check cannot tell a given
 * datum from a printed answer, so a lesson rewrites the text until the
 * answer is nowhere to be read.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/course/answer.h"
#include "core/course/quiz.h"
#include "core/number.h"

static int
digit(char c)
{
	return isdigit((unsigned char)c);
}

/* A unit: a base unit and the factor of its prefix; base NULL: none. */
struct unit {
	const char	*base;
	double		 scale;
};

/* Base units that take an SI prefix. */
static const char *const prefixed[] = {
	"B", "s", "B/s", "b/s", "FLOP", "FLOPs", "FLOP/s", "W", "Hz", NULL
};

/* Units without a prefix, and what they are. */
static const struct {
	const char	*word;
	const char	*base;
} plain[] = {
	{ "byte", "B" }, { "bytes", "B" }, { "bit/s", "b/s" },
	{ "tokens/s", "tokens/s" }, { "token/s", "tokens/s" },
	{ NULL, NULL }
};

/* Words after a number that make it another quantity. */
static const char *const others[] = {
	"GPU", "GPUs", "node", "nodes", "layer", "layers", "rank", "ranks",
	"stage", "stages", "step", "steps", "head", "heads", "token",
	"tokens", "microbatch", "microbatches", "micro", "batch", "batches",
	"sequence", "sequences", "parameter", "parameters", "params",
	"billion", "million", "trillion", "bit", "bits", "x", "times",
	"min", "minute", "minutes", "h", "hour", "hours", "day", "days",
	"chunk", "chunks", "link", "links", "NIC", "NICs", "card", "cards",
	"drop", "drops", "question", "questions", "bucket", "buckets",
	"way", "KiB/s", "MiB/s", "GiB/s", NULL
};

static const struct {
	const char	*prefix;
	double		 scale;
} prefixes[] = {
	{ "k", 1e3 }, { "K", 1e3 }, { "M", 1e6 }, { "G", 1e9 },
	{ "T", 1e12 }, { "P", 1e15 }, { "m", 1e-3 }, { "u", 1e-6 },
	{ "\xc2\xb5", 1e-6 }, { "\xce\xbc", 1e-6 }, { "n", 1e-9 },
	{ "", 1 }, { NULL, 0 }
};

/* Read word as a unit into *u; 0, or -1 when it is none. */
static int
parse_unit(const char *word, struct unit *u)
{
	static const char *const binary[] = { "KiB", "MiB", "GiB", "TiB",
	    "PiB", NULL };
	size_t i, j, n;

	if (word == NULL || *word == '\0')
		return -1;
	for (i = 0; binary[i] != NULL; i++)
		if (strcmp(word, binary[i]) == 0) {
			u->base = "iB";
			u->scale = ldexp(1, 10 * (int)(i + 1));
			return 0;
		}
	for (i = 0; plain[i].word != NULL; i++)
		if (strcmp(word, plain[i].word) == 0) {
			u->base = plain[i].base;
			u->scale = 1;
			return 0;
		}
	for (i = 0; prefixes[i].prefix != NULL; i++) {
		n = strlen(prefixes[i].prefix);
		if (strncmp(word, prefixes[i].prefix, n) != 0)
			continue;
		for (j = 0; prefixed[j] != NULL; j++)
			if (strcmp(word + n, prefixed[j]) == 0) {
				u->base = strcmp(prefixed[j], "FLOPs") == 0 ?
				    "FLOP" : prefixed[j];
				u->scale = prefixes[i].scale;
				return 0;
			}
	}
	return -1;
}

/* The unit of a question; base NULL for a pure number or fraction. */
static struct unit
question_unit(const char *unit)
{
	struct unit u = { NULL, 1 };
	char word[32];
	const char *slash;

	if (unit == NULL || parse_unit(unit, &u) == 0)
		return u;
	/* "GB/GPU": gigabytes per GPU. */
	if ((slash = strchr(unit, '/')) != NULL &&
	    (size_t)(slash - unit) < sizeof word) {
		memcpy(word, unit, slash - unit);
		word[slash - unit] = '\0';
		if (parse_unit(word, &u) == 0)
			return u;
	}
	u.base = NULL;
	u.scale = 1;
	return u;
}

/* A figure read from text. */
struct figure {
	double		 v;		/* as written, before its unit */
	int		 pct;		/* followed by '%' */
	int		 other;		/* another quantity ("8 GPUs") */
	int		 name;		/* part of a name ("1F1B") */
	struct unit	 unit;		/* base NULL: bare */
	const char	*start;		/* the digits */
	const char	*end;		/* past the unit */
};

/* Spaces between a number and its unit: ' ', no-break, narrow no-break. */
static const char *
skip_space(const char *s)
{
	for (;;) {
		if (*s == ' ')
			s++;
		else if (strncmp(s, "\xc2\xa0", 2) == 0)
			s += 2;
		else if (strncmp(s, "\xe2\x80\xaf", 3) == 0)
			s += 3;
		else
			return s;
	}
}

/* A multiplication sign: 'x', '*', U+00D7 or U+22C5. */
static const char *
skip_times(const char *s)
{
	if (*s == 'x' || *s == '*')
		return s + 1;
	if (strncmp(s, "\xc3\x97", 2) == 0)
		return s + 2;
	if (strncmp(s, "\xe2\x8b\x85", 3) == 0)
		return s + 3;
	return NULL;
}

/* 1 if the number at p (a digit) starts a figure, not inside one. */
static int
starts_figure(const char *text, const char *p)
{
	unsigned char c;

	if (p == text)
		return 1;
	c = (unsigned char)p[-1];
	if (digit(c) || c == '.' || c == '^' || c == '_' || isalpha(c))
		return 0;
	/* "GPT-3", "Llama-2": a name. */
	if (c == '-' && p - 1 > text && isalpha((unsigned char)p[-2]))
		return 0;
	/* The denominator of a ratio was read with its numerator. */
	if (c == '/' && p - 1 > text && digit(p[-2]))
		return 0;
	return 1;
}

static const char	*read_figure(const char *, struct figure *, int);

/*
 * A number of a range or list ("200 or 400 Gb/s", "2-4 GB") takes the
 * unit of the next. p is where the joining word or dash starts.
 */
static void
share_unit(const char *p, struct figure *f, int depth)
{
	struct figure next;
	const char *q = NULL;

	if (*p == '-' && digit(p[1]))
		q = p + 1;
	else if (strncmp(p, "\xe2\x80\x93", 3) == 0)
		q = skip_space(p + 3);
	else if (strncmp(p, "to ", 3) == 0 || strncmp(p, "or ", 3) == 0)
		q = skip_space(p + 3);
	else if (strncmp(p, "and ", 4) == 0)
		q = skip_space(p + 4);
	if (q == NULL || !digit(*q) || depth > 3)
		return;
	read_figure(q, &next, depth + 1);
	f->pct = next.pct;
	f->other = next.other;
	f->unit = next.unit;
}

/*
 * Read the figure whose digits start at s into *f. Returns the byte
 * after it (and its unit).
 */
static const char *
read_figure(const char *s, struct figure *f, int depth)
{
	char buf[64], word[32];
	const char *t, *w;
	size_t n = 0;
	int point = 0, glued;
	long exp10 = 0;
	memset(f, 0, sizeof *f);
	f->start = s;
	f->unit.scale = 1;
	while (n + 2 < sizeof buf) {
		if (digit(*s))
			buf[n++] = *s++;
		else if (*s == ',' && !point && digit(s[1]) && digit(s[2]) &&
		    digit(s[3]) && !digit(s[4]))
			s++;
		else if (*s == '.' && !point && digit(s[1])) {
			buf[n++] = *s++;
			point = 1;
		} else
			break;
	}
	buf[n] = '\0';
	/* "7e9", "6.74e9", "1.5e-3", not "2em". */
	if ((*s == 'e' || *s == 'E') && (digit(s[1]) || ((s[1] == '-' ||
	    s[1] == '+') && digit(s[2])))) {
		t = s + 1 + (s[1] == '-' || s[1] == '+');
		while (digit(*t))
			t++;
		if (!isalpha((unsigned char)*t)) {
			exp10 = strtol(s + 1, NULL, 10);
			s = t;
		}
	}
	/* "1.66 x 10^14". */
	t = skip_space(s);
	if ((t = skip_times(t)) != NULL) {
		t = skip_space(t);
		if (strncmp(t, "10^", 3) == 0 && (digit(t[3]) ||
		    (t[3] == '-' && digit(t[4])))) {
			exp10 += strtol(t + 3, NULL, 10);
			s = t + 3 + (t[3] == '-');
			while (digit(*s))
				s++;
		}
	}
	/* "3/31": a ratio of two whole numbers is its value. */
	if (!point && exp10 == 0 && *s == '/' && digit(s[1]) &&
	    n + 2 < sizeof buf) {
		buf[n++] = *s++;
		while (digit(*s) && n + 1 < sizeof buf)
			buf[n++] = *s++;
		buf[n] = '\0';
	}
	if (pl_parse_double(buf, PL_NUM_RATIO, &f->v) != 0)
		f->v = NAN;
	else if (exp10 != 0)
		f->v *= pow(10, (double)exp10);
	f->end = s;
	t = skip_space(s);
	glued = t == s;
	if (*t == '%') {
		f->pct = 1;
		f->end = t + 1;
		return f->end;
	}
	/* "32-GPU", "16-bit": the word after the hyphen. */
	if (*t == '-' && isalpha((unsigned char)t[1])) {
		t++;
		glued = 0;
	}
	for (w = t, n = 0; n + 1 < sizeof word; ) {
		if (isalpha((unsigned char)*w) || (*w == '/' &&
		    isalpha((unsigned char)w[1])))
			word[n++] = *w++;
		else if ((strncmp(w, "\xc2\xb5", 2) == 0 ||
		    strncmp(w, "\xce\xbc", 2) == 0) && n + 2 < sizeof word) {
			word[n++] = *w++;
			word[n++] = *w++;
		} else
			break;
	}
	word[n] = '\0';
	if (n == 0) {
		share_unit(skip_space(s), f, depth);
		return s;
	}
	if (parse_unit(word, &f->unit) == 0) {
		f->end = w;
		return w;
	}
	/* "GB/GPU": the unit before the slash. */
	if ((t = strchr(word, '/')) != NULL) {
		word[t - word] = '\0';
		if (parse_unit(word, &f->unit) == 0) {
			f->end = w;
			return w;
		}
		word[t - word] = '/';
	}
	f->unit.base = NULL;
	f->unit.scale = 1;
	/* "32 A100s", "8 H200": a count of named things. */
	if (digit(*w)) {
		f->other = 1;
		f->end = w;
		return w;
	}
	for (n = 0; others[n] != NULL; n++)
		if (strcmp(word, others[n]) == 0) {
			f->other = 1;
			f->end = w;
			return w;
		}
	if (glued) {
		/* "1F1B", "3D", "4x": a name or a factor. */
		f->name = 1;
		return w;
	}
	share_unit(skip_space(s), f, depth);
	return s;
}

/* What a question asks for. */
struct want {
	double		 v;		/* the computed answer */
	double		 tol;		/* relative */
	int		 fraction;	/* bubble, MFU: "9.7%" is 0.097 */
	struct unit	 unit;
};

/* 1 if f, read as the grader would, is the answer w. */
static int
figure_matches(const struct figure *f, const struct want *w, int bare)
{
	double v = f->v;

	if (f->name || !isfinite(v))
		return 0;
	if (f->pct) {
		if (!w->fraction)
			return 0;
		v /= 100;
	} else if (f->unit.base != NULL) {
		if (w->unit.base == NULL || strcmp(f->unit.base,
		    w->unit.base) != 0)
			return 0;
		v = v * f->unit.scale / w->unit.scale;
	} else if (f->other || (!bare && w->unit.base != NULL))
		return 0;
	return quiz_within(v, w->v, w->tol);
}

/*
 * Copy the figure f of text, with the word before it ("about 54 ms"),
 * into buf as one line.
 */
static void
snippet(const char *text, const struct figure *f, char *buf, size_t size)
{
	const char *a = f->start, *b = f->end;
	size_t n, i;

	while (a > text && a[-1] == ' ')
		a--;
	while (a > text && a[-1] != ' ' && a[-1] != '\n' && f->start - a < 24)
		a--;
	if (a < f->start && a[0] == ' ')
		a++;
	while (b > f->start && (b[-1] == ' ' || b[-1] == '\n'))
		b--;
	n = (size_t)(b - a);
	if (n + 1 > size)
		n = size - 1;
	/* Never cut a UTF-8 sequence. */
	while (n > 0 && ((unsigned char)a[n] & 0xc0) == 0x80 && a + n < b)
		n--;
	for (i = 0; i < n; i++)
		buf[i] = a[i] == '\n' ? ' ' : a[i];
	buf[n] = '\0';
}

/* 1 with the figure's text in buf if text holds the answer w. */
static int
find(const char *text, const struct want *w, int bare, char *buf,
    size_t size)
{
	struct figure f;
	const char *p = text;

	if (text == NULL)
		return 0;
	while (*p != '\0') {
		if (!digit(*p) || !starts_figure(text, p)) {
			p++;
			continue;
		}
		p = read_figure(p, &f, 0);
		if (p == f.start)
			p++;
		if (figure_matches(&f, w, bare)) {
			snippet(text, &f, buf, size);
			return 1;
		}
	}
	return 0;
}

/* A numeric question and its computed answer. */
struct asked {
	size_t				 drop;
	size_t				 block;
	const struct content_question	*q;
	struct want			 want;
};

/* Where a search is: the question, whether the field is before it. */
struct search {
	const struct content_course	*c;
	const struct asked		*a;
	struct content_problems		*probs;
	const struct content_drop	*where;	/* the drop being read */
	int				 above;	/* before the question */
	int				 n;	/* problems added */
};

/* The file name of d as the course names it, under the course's dir. */
static const char *
short_file(const struct content_course *c, const struct content_drop *d)
{
	size_t n = c->dir != NULL ? strlen(c->dir) : 0;

	if (d->file == NULL)
		return "";
	if (n > 0 && strncmp(d->file, c->dir, n) == 0 && d->file[n] == '/')
		return d->file + n + 1;
	return d->file;
}

/* "0.054 s", "0.0968": the answer as the problem names it. */
static void
answer_text(const struct asked *a, char *buf, size_t size)
{
	if (a->q->unit != NULL && a->want.unit.base != NULL)
		snprintf(buf, size, "%.4g %s", a->want.v, a->q->unit);
	else
		snprintf(buf, size, "%.4g", a->want.v);
}

/* Look for the answer in text, the field of the drop being read. */
static void
look(struct search *s, const char *text, const char *field)
{
	const struct content_drop *d = &s->c->drops[s->a->drop];
	struct pl_err err;
	char found[64], path[64], answer[48];

	if (!find(text, &s->a->want, s->above, found, sizeof found))
		return;
	snprintf(path, sizeof path, "blocks[%zu]", s->a->block);
	answer_text(s->a, answer, sizeof answer);
	if (s->above)
		pl_err_set_path(&err, d->file, path, _("question \"%s\": its "
		    "answer (%s) stands above it as \"%s\" in %s: ask for a "
		    "figure the learner has to work out"), s->a->q->id,
		    answer, found, field);
	else
		pl_err_set_path(&err, d->file, path, _("question \"%s\": its "
		    "answer (%s) is written as \"%s\" in another question, "
		    "%s %s: ask for a figure the learner has to work out"),
		    s->a->q->id, answer, found, short_file(s->c, s->where),
		    field);
	content_add_problem(s->probs, &err);
	s->n++;
}

/* Field name of block i: "blocks[3].text". */
static const char *
field(char *buf, size_t size, size_t i, const char *name)
{
	snprintf(buf, size, "blocks[%zu].%s", i, name);
	return buf;
}

/* Field name of item k of a list in block i: "blocks[3].hints[1]". */
static const char *
item(char *buf, size_t size, size_t i, const char *list, size_t k,
    const char *name)
{
	snprintf(buf, size, "blocks[%zu].%s[%zu]%s%s", i, list, k,
	    name != NULL ? "." : "", name != NULL ? name : "");
	return buf;
}

/* Every field of a question block. */
static void
look_question(struct search *s, const struct content_question *o, size_t i)
{
	char f[80];
	size_t k;

	look(s, o->prompt, field(f, sizeof f, i, "prompt"));
	for (k = 0; k < o->n_options; k++) {
		look(s, o->options[k].text, item(f, sizeof f, i, "options", k,
		    "text"));
		look(s, o->options[k].explain, item(f, sizeof f, i, "options",
		    k, "explain"));
	}
	look(s, o->explain, field(f, sizeof f, i, "explain"));
	look(s, o->answer, field(f, sizeof f, i, "answer"));
}

/* Every field of any block the learner reads. */
static void
look_block(struct search *s, const struct content_block *b, size_t i)
{
	char f[80];
	size_t k;

	switch (b->kind) {
	case CONTENT_TEXT:
		look(s, b->title, field(f, sizeof f, i, "title"));
		look(s, b->text, field(f, sizeof f, i, "text"));
		break;
	case CONTENT_QUESTION:
		look_question(s, &b->question, i);
		break;
	case CONTENT_ANIMATION:
		look(s, b->animation.caption, field(f, sizeof f, i,
		    "caption"));
		break;
	case CONTENT_SCENARIO:
		look(s, b->scenario.title, field(f, sizeof f, i, "title"));
		look(s, b->scenario.brief, field(f, sizeof f, i, "brief"));
		for (k = 0; k < b->scenario.n_hints; k++)
			look(s, b->scenario.hints[k], item(f, sizeof f, i,
			    "hints", k, NULL));
		look(s, b->scenario.solution, field(f, sizeof f, i,
		    "solution"));
		break;
	}
}

/* Text before the question and every other question of the course. */
static int
check_text(const struct content_course *c, const struct asked *a,
    struct content_problems *probs)
{
	struct search s;
	const struct content_drop *d = &c->drops[a->drop];
	char f[80];
	size_t i, j;

	s.c = c;
	s.a = a;
	s.probs = probs;
	s.where = d;
	s.above = 1;
	s.n = 0;
	look(&s, a->q->prompt, field(f, sizeof f, a->block, "prompt"));
	look(&s, d->title, "title");
	look(&s, d->summary, "summary");
	for (j = 0; j < a->block; j++)
		look_block(&s, &d->blocks[j], j);
	s.above = 0;
	for (i = 0; i < c->n_drops; i++) {
		s.where = &c->drops[i];
		for (j = 0; j < c->drops[i].n_blocks; j++)
			if (c->drops[i].blocks[j].kind == CONTENT_QUESTION &&
			    (i != a->drop || j > a->block))
				look_question(&s, &c->drops[i].blocks[j].question,
				    j);
	}
	return s.n;
}

/* The later of two numeric questions that ask the same is reported. */
static int
check_twice(const struct content_course *c, const struct asked *all,
    size_t x, struct content_problems *probs)
{
	const struct asked *a = &all[x], *b;
	struct pl_err err;
	char path[64], answer[48];
	double tol;
	size_t i;

	for (i = 0; i < x; i++) {
		b = &all[i];
		tol = a->want.tol > b->want.tol ? a->want.tol : b->want.tol;
		if (strcmp(a->q->quantity, b->q->quantity) != 0 ||
		    !quiz_within(b->want.v, a->want.v, tol))
			continue;
		snprintf(path, sizeof path, "blocks[%zu]", a->block);
		answer_text(a, answer, sizeof answer);
		pl_err_set_path(&err, c->drops[a->drop].file, path,
		    _("question \"%s\" asks again what question \"%s\" of %s "
		    "(blocks[%zu]) asks: %s, %s; ask for another "
		    "configuration"), a->q->id, b->q->id,
		    short_file(c, &c->drops[b->drop]), b->block,
		    a->q->quantity, answer);
		content_add_problem(probs, &err);
		return 1;
	}
	return 0;
}

int
answer_check_giveaways(const struct hw_catalog *cat,
    const struct content_course *c, struct content_problems *probs)
{
	struct asked *all = NULL, *a;
	struct pl_err err;
	size_t i, j, n = 0, cap = 0;
	int found = 0;

	for (i = 0; i < c->n_drops; i++) {
		const struct content_drop *d = &c->drops[i];

		for (j = 0; j < d->n_blocks; j++) {
			const struct content_question *q =
			    &d->blocks[j].question;
			double v;

			if (d->blocks[j].kind != CONTENT_QUESTION ||
			    q->type != CONTENT_Q_NUMERIC ||
			    q->quantity == NULL ||
			    answer_engine(cat, q->engine, q->quantity, d->file,
			    "", &v, &err) != 0)
				continue;
			if (n == cap) {
				size_t nc = cap == 0 ? 16 : 2 * cap;

				if ((a = realloc(all, nc * sizeof *a)) == NULL)
					goto oom;
				all = a;
				cap = nc;
			}
			a = &all[n++];
			a->drop = i;
			a->block = j;
			a->q = q;
			a->want.v = v;
			a->want.tol = q->tolerance;
			a->want.fraction = quiz_wants_fraction(q);
			a->want.unit = question_unit(q->unit);
		}
	}
	for (i = 0; i < n; i++) {
		found += check_text(c, &all[i], probs);
		found += check_twice(c, all, i, probs);
	}
	free(all);
	return found;
oom:
	free(all);
	pl_err_set_path(&err, "", "", "%s", _("out of memory"));
	content_add_problem(probs, &err);
	return found + 1;
}
