/*
 * answer_giveaway.c - a numeric question must not ask for a figure that
 * is printed just above it (issue 14): the learner would copy it, not
 * work it out.
 *
 * "Just above" is the text the learner reads right before answering: the
 * prompt itself, the questions asked together with it just before (their
 * options and explanations too), and the run of text blocks and animation
 * captions above them, back to a scenario or an earlier question. A number
 * followed by a unit other than the question's ("50 MB" for an answer in
 * GB) is another quantity and does not count. Every number in them is
 * read as written in English lesson text ("2,048" with a thousands comma,
 * "0.35", "35%", the ratio "3/11"); one that equals the computed answer within the
 * question's tolerance is a problem. A percentage counts as a fraction
 * when the question asks for one.
 */
#include <ctype.h>
#include <stdio.h>
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

/* Unit words that, after a number, make it a different quantity from
 * an answer in another unit ("50 MB" is not 52 GB). */
static const char *const units[] = {
	"B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB",
	"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "Gb/s", "Tb/s", "s", "ms",
	"us", "\xc2\xb5s", "ns", "min", "h", "FLOP/s", "TFLOP/s", "PFLOP/s",
	"FLOP", "TFLOP", "tokens/s", "W", "kW", "GPU", "GPUs", "nodes",
	"layers", NULL
};

/*
 * Read the number starting at s (a digit): digits with thousands commas
 * and a decimal part, or a ratio of two integers, then what follows it: *pct when it is '%' (after
 * spaces or a no-break space), and the unit word into unit. Returns the
 * byte after the digits.
 */
static const char *
read_number(const char *s, double *v, int *pct, char *unit, size_t size)
{
	char buf[64];
	size_t n = 0;
	int point = 0;

	while (n + 2 < sizeof buf) {
		if (digit(*s))
			buf[n++] = *s++;
		else if (*s == ',' && digit(s[1]) && digit(s[2]) &&
		    digit(s[3]) && !digit(s[4]))
			s++;
		else if (*s == '.' && !point && digit(s[1])) {
			buf[n++] = *s++;
			point = 1;
		} else
			break;
	}
	buf[n] = '\0';
	/* A ratio "3/11" is its value. */
	if (*s == '/' && digit(s[1]) && n + 2 < sizeof buf) {
		buf[n++] = *s++;
		while (digit(*s) && n + 1 < sizeof buf)
			buf[n++] = *s++;
		buf[n] = '\0';
	}
	if (pl_parse_double(buf, PL_NUM_RATIO, v) != 0)
		*v = 0;
	while (*s == ' ')
		s++;
	if (strncmp(s, "\xc2\xa0", 2) == 0)
		s += 2;
	*pct = *s == '%';
	for (n = 0; n + 1 < size && (isalpha((unsigned char)*s) ||
	    *s == '/' || (unsigned char)*s >= 0x80); n++)
		unit[n] = *s++;
	unit[n] = '\0';
	return s;
}

/*
 * The unit of a number in a range or list ("200 or 400 Gb/s", "2 to 4
 * GB"): the next number's, when word joins the two. p follows word.
 */
static void
shared_unit(const char *p, char *word, size_t size)
{
	double v;
	int pct;

	if (strcmp(word, "or") != 0 && strcmp(word, "to") != 0 &&
	    strcmp(word, "and") != 0)
		return;
	while (*p == ' ')
		p++;
	if (digit(*p))
		read_number(p, &v, &pct, word, size);
}

/* 1 if word is a unit other than the question's. */
static int
other_unit(const char *word, const char *unit)
{
	size_t i;

	for (i = 0; units[i] != NULL; i++)
		if (strcmp(word, units[i]) == 0)
			return unit == NULL || strcmp(word, unit) != 0;
	return 0;
}

/* 1 with *found set if text holds a number that gives the answer away. */
static int
find(const char *text, const struct content_question *q, double want,
    double *found)
{
	const char *p = text;
	char word[16];
	int pct;
	double v;

	while (p != NULL && *p != '\0') {
		if (!digit(*p) || (p > text && (digit(p[-1]) ||
		    p[-1] == '.' || isalpha((unsigned char)p[-1])))) {
			p++;
			continue;
		}
		p = read_number(p, &v, &pct, word, sizeof word);
		shared_unit(p, word, sizeof word);
		if (pct && quiz_wants_fraction(q))
			v /= 100;
		else if (other_unit(word, q->unit))
			continue;
		if (quiz_within(v, want, q->tolerance)) {
			*found = v;
			return 1;
		}
	}
	return 0;
}

/* Everything a question shows: prompt, options, explanations, answer. */
static int
find_in_question(const struct content_question *o,
    const struct content_question *q, double want, double *found)
{
	size_t i;

	if (find(o->prompt, q, want, found) || (o->explain != NULL &&
	    find(o->explain, q, want, found)) || (o->answer != NULL &&
	    find(o->answer, q, want, found)))
		return 1;
	for (i = 0; i < o->n_options; i++)
		if (find(o->options[i].text, q, want, found) ||
		    (o->options[i].explain != NULL &&
		    find(o->options[i].explain, q, want, found)))
			return 1;
	return 0;
}

/* Check question block j of d, whose answer is want; 1 if given away. */
static int
check_one(const struct content_drop *d, size_t j, double want,
    struct content_problems *probs)
{
	const struct content_question *q = &d->blocks[j].question;
	struct pl_err err;
	char path[64];
	double v;
	size_t i = j;
	int hit = find(q->prompt, q, want, &v), text_seen = 0;

	/* Back over the questions of the same cluster to the text run
	 * above them; an animation or a scenario ends the search. */
	while (!hit && i-- > 0) {
		const struct content_block *b = &d->blocks[i];

		if (b->kind == CONTENT_QUESTION && !text_seen) {
			hit = find_in_question(&b->question, q, want, &v);
			continue;
		}
		if (b->kind == CONTENT_ANIMATION) {
			hit = find(b->animation.caption, q, want, &v);
			continue;
		}
		if (b->kind != CONTENT_TEXT)
			break;
		text_seen = 1;
		hit = find(b->text, q, want, &v) || (b->title != NULL &&
		    find(b->title, q, want, &v));
	}
	if (!hit)
		return 0;
	snprintf(path, sizeof path, "blocks[%zu]", j);
	pl_err_set_path(&err, d->file, path, _("the answer (%.4g) is printed "
	    "just above the question as %.4g: ask for a figure the learner "
	    "has to work out"), want, v);
	content_add_problem(probs, &err);
	return 1;
}

int
answer_check_giveaways(const struct hw_catalog *cat,
    const struct content_course *c, struct content_problems *probs)
{
	struct pl_err err;
	double want;
	size_t i, j;
	int n = 0;

	for (i = 0; i < c->n_drops; i++) {
		const struct content_drop *d = &c->drops[i];

		for (j = 0; j < d->n_blocks; j++) {
			const struct content_question *q =
			    &d->blocks[j].question;

			if (d->blocks[j].kind != CONTENT_QUESTION ||
			    q->type != CONTENT_Q_NUMERIC ||
			    answer_engine(cat, q->engine, q->quantity, d->file,
			    "", &want, &err) != 0)
				continue;
			n += check_one(d, j, want, probs);
		}
	}
	return n;
}
