/*
 * layout.c - turning a drop's blocks into lines for the reader.
 *
 * Text blocks: paragraphs separated by blank lines are wrapped; "- " lines
 * become bullets with a hanging indent; lines starting with two spaces are
 * kept as they are (clipped, never wrapped) so diagrams survive. Numbered
 * options and explanations hang: continuation lines start under the text,
 * not under the number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/course/layout.h"
#include "core/wrap.h"

struct emit_ctx {
	struct layout		*lo;
	enum layout_style	 style;
	enum layout_style	 next_style;	/* for continuation lines */
	int			 indent;
	int			 block;
	int			 failed;
	const char		*prefix;	/* put before the first line */
	int			 hang;		/* then added to indent */
};

/* Narrowest text column worth a hanging indent; below it, no hang. */
#define HANG_MIN_TEXT	12

static int
push(struct layout *lo, const char *s, size_t n, enum layout_style style,
    int indent, int block)
{
	struct layout_line *l;

	if (lo->n == lo->cap) {
		size_t cap = lo->cap == 0 ? 64 : lo->cap * 2;

		l = realloc(lo->lines, cap * sizeof *l);
		if (l == NULL)
			return -1;
		lo->lines = l;
		lo->cap = cap;
	}
	l = &lo->lines[lo->n];
	l->text = malloc(n + 1);
	if (l->text == NULL)
		return -1;
	memcpy(l->text, s, n);
	l->text[n] = '\0';
	l->style = style;
	l->indent = indent;
	l->block = block;
	lo->n++;
	return 0;
}

static void
emit_line(const char *s, size_t n, void *arg)
{
	struct emit_ctx *e = arg;
	char *buf = NULL;

	if (e->prefix != NULL) {
		if (asprintf(&buf, "%s%.*s", e->prefix, (int)n, s) < 0) {
			e->failed = 1;
			return;
		}
		s = buf;
		n = strlen(buf);
	}
	if (push(e->lo, s, n, e->style, e->indent, e->block) != 0)
		e->failed = 1;
	free(buf);
	if (e->prefix != NULL) {
		e->prefix = NULL;
		e->indent += e->hang;
	}
	e->style = e->next_style;
}

/* Wrap s (one paragraph) at the layout width minus indent. */
static int
para(struct layout *lo, const char *s, enum layout_style first,
    enum layout_style rest, int indent, int block)
{
	struct emit_ctx e = { lo, first, rest, indent, block, 0, NULL, 0 };

	wrap_paragraph(s, lo->width - indent, emit_line, &e);
	return e.failed ? -1 : 0;
}

/* prefix ("( ) 1) ", "2) ") then text, continuation lines under the text;
 * on a layout too narrow for that, wrapped as one paragraph. */
static int
hanging(struct layout *lo, const char *prefix, const char *text,
    enum layout_style style, int indent, int block)
{
	struct emit_ctx e = { lo, style, style, indent, block, 0, prefix,
	    wrap_width(prefix, strlen(prefix)) };
	char *s;
	int rc;

	if (lo->width - indent - e.hang < HANG_MIN_TEXT) {
		if (asprintf(&s, "%s%s", prefix, text) < 0)
			return -1;
		rc = para(lo, s, style, style, indent, block);
		free(s);
		return rc;
	}
	wrap_paragraph(text, lo->width - indent - e.hang, emit_line, &e);
	return e.failed ? -1 : 0;
}

static int
blank(struct layout *lo, int block)
{
	if (lo->n > 0 && lo->lines[lo->n - 1].style == LAYOUT_BLANK)
		return 0;
	return push(lo, "", 0, LAYOUT_BLANK, 0, block);
}

/* Lay out one line of a text block. */
static int
text_line(struct layout *lo, const char *line, int block)
{
	if (strncmp(line, "  ", 2) == 0)
		return push(lo, line, wrap_fit(line, lo->width),
		    LAYOUT_VERBATIM, 0, block);
	if (strncmp(line, "- ", 2) == 0)
		return para(lo, line + 2, LAYOUT_BULLET, LAYOUT_BODY, 2, block);
	return para(lo, line, LAYOUT_BODY, LAYOUT_BODY, 0, block);
}

static int
text_block(struct layout *lo, const struct content_block *b, int block)
{
	const char *p = b->text, *nl;
	char *line;
	int rc = 0;

	if (b->title != NULL && (para(lo, b->title, LAYOUT_HEADING,
	    LAYOUT_HEADING, 0, block) != 0 || blank(lo, block) != 0))
		return -1;
	while (rc == 0 && *p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		line = strndup(p, (size_t)(nl - p));
		if (line == NULL)
			return -1;
		rc = line[0] == '\0' ? blank(lo, block) :
		    text_line(lo, line, block);
		free(line);
		p = *nl == '\n' ? nl + 1 : nl;
	}
	return rc;
}

static int
option_lines(struct layout *lo, const struct content_question *q,
    const struct quiz_state *st, int block)
{
	const char *mark;
	size_t i;
	char pre[32];
	int rc = 0, on;

	for (i = 0; rc == 0 && i < q->n_options; i++) {
		on = st != NULL && (st->selected & (1u << i)) != 0;
		if (q->type == CONTENT_Q_SINGLE)
			mark = on ? "(*)" : "( )";
		else
			mark = on ? "[x]" : "[ ]";
		snprintf(pre, sizeof pre, "%s %zu) ", mark, i + 1);
		rc = hanging(lo, pre, q->options[i].text, LAYOUT_OPTION, 2,
		    block);
	}
	return rc;
}

/*
 * Once a choice question is over: why, option by option, for every
 * option chosen and every right one. Before that nothing marks an option.
 */
static int
choice_feedback(struct layout *lo, const struct content_question *q,
    const struct quiz_state *st, int block)
{
	char pre[32];
	size_t i;
	int rc = 0, chosen;

	if (!quiz_over(q, st))
		return 0;
	for (i = 0; rc == 0 && i < q->n_options; i++) {
		chosen = (st->selected & (1u << i)) != 0;
		if (!chosen && !q->options[i].correct)
			continue;
		snprintf(pre, sizeof pre, "%zu) ", i + 1);
		rc = hanging(lo, pre, q->options[i].explain, LAYOUT_EXPLAIN, 2,
		    block);
	}
	return rc;
}

/* The verdict of a choice answer: right; the kind of mistake while a
 * counting try is left; the right options once it is over. */
static const char *
choice_verdict(const struct content_question *q, const struct quiz_state *st)
{
	int m = quiz_choice_mistake(q, st);

	if (st->correct)
		return _("Right.");
	if (quiz_over(q, st))
		return q->type == CONTENT_Q_SINGLE ? _("Not this one. The "
		    "right option and why are below; this question now goes "
		    "to your review cards.") : _("Not this set. The right "
		    "options and why are below; this question now goes to "
		    "your review cards.");
	if (m == (QUIZ_CHOICE_EXTRA | QUIZ_CHOICE_MISSING))
		return _("Not yet: at least one option you ticked is wrong, "
		    "and at least one right option is not ticked. One more "
		    "try counts.");
	if (m == QUIZ_CHOICE_EXTRA)
		return _("Not yet: at least one option you ticked is wrong. "
		    "One more try counts.");
	return _("Not yet: at least one right option is not ticked. One "
	    "more try counts.");
}

static int
verdict(struct layout *lo, const struct quiz_state *st, const char *right,
    const char *wrong, int block)
{
	return para(lo, st->correct ? right : wrong, st->correct ?
	    LAYOUT_RIGHT : LAYOUT_WRONG, st->correct ? LAYOUT_RIGHT :
	    LAYOUT_WRONG, 0, block);
}

/*
 * After a miss with a counting try left: the kind of mistake, never its
 * size, its direction or the figure (quiz_numeric_hint).
 */
static const char *
hint_text(const struct quiz_state *st)
{
	switch (st->hint) {
	case QUIZ_HINT_UNITS:
		return _("Not yet: check the unit prefix (kilo, mega, giga; "
		    "milli, micro) of each figure you used.");
	case QUIZ_HINT_BYTES:
		return _("Not yet: check the bytes per parameter. How many "
		    "bytes does each value take here, and which of them are "
		    "sharded?");
	case QUIZ_HINT_TWICE:
		return _("Not yet: you are off by a factor of two. Is "
		    "something counted twice, or once where it happens twice "
		    "(forward and backward, send and receive)?");
	case QUIZ_HINT_GROUP:
		return _("Not yet: check what is divided among the GPUs. Is "
		    "your figure for one GPU, or for the whole group that "
		    "shares the work?");
	case QUIZ_HINT_SIGN:
		return _("Not yet: check the sign.");
	case QUIZ_HINT_NONE:
		break;
	}
	return _("Not yet. Go through your working once more, step by "
	    "step, against the formula in the text.");
}

/* The verdict with the cost model's figure (as a percentage too for a
 * fraction). */
static int
figure_text(const struct content_question *q, const struct quiz_state *st,
    char **out)
{
	const char *unit = q->unit != NULL ? q->unit : "";

	if (quiz_wants_fraction(q))
		return asprintf(out, st->correct ?
		    _("Right: the cost model gives %.4g %s, %.1f%% (you said "
		    "%.4g).") : _("Not quite: the cost model gives %.4g %s, "
		    "%.1f%%; you said %.4g."), st->expected, unit,
		    100 * st->expected, st->given) < 0 ? -1 : 0;
	return asprintf(out, st->correct ?
	    _("Right: the cost model gives %.4g %s (you said %.4g).") :
	    _("Not quite: the cost model gives %.4g %s; you said %.4g."),
	    st->expected, unit, st->given) < 0 ? -1 : 0;
}

static int
numeric_lines(struct layout *lo, const struct content_question *q,
    const struct quiz_state *st, int block)
{
	char *s;
	int rc;

	if (asprintf(&s, _("Your answer: %s_ %s"), st != NULL ? st->input : "",
	    q->unit != NULL ? q->unit : "") < 0)
		return -1;
	rc = para(lo, s, LAYOUT_INPUT, LAYOUT_INPUT, 2, block);
	free(s);
	if (rc == 0 && quiz_wants_fraction(q) && (st == NULL || !st->correct))
		/* The example is no answer of the course: it must not hint. */
		/* xgettext:no-c-format */
		rc = para(lo, _("A fraction of 1: 0.62, 62% and 31/50 are all "
		    "accepted."), LAYOUT_NOTE, LAYOUT_NOTE, 2, block);
	if (rc != 0 || st == NULL || !st->answered)
		return rc;
	if (!quiz_figure_shown(q, st)) {
		rc = para(lo, hint_text(st), LAYOUT_WRONG, LAYOUT_WRONG, 0,
		    block);
		if (rc == 0)
			rc = para(lo, _("Change your answer and press Enter: "
			    "this try still counts. A second miss shows the "
			    "figure and the working."), LAYOUT_NOTE,
			    LAYOUT_NOTE, 2, block);
		return rc;
	}
	if (figure_text(q, st, &s) != 0)
		return -1;
	rc = para(lo, s, st->correct ? LAYOUT_RIGHT : LAYOUT_WRONG,
	    st->correct ? LAYOUT_RIGHT : LAYOUT_WRONG, 0, block);
	free(s);
	if (rc == 0 && !st->earned)
		rc = para(lo, st->correct ? _("Right now, but after the "
		    "figure was shown: this one does not count toward your "
		    "score and comes back as a review card.") : _("This "
		    "question now goes to your review cards. Type the figure "
		    "once you see how it comes about."), LAYOUT_NOTE,
		    LAYOUT_NOTE, 2, block);
	return rc;
}

static int
reveal_lines(struct layout *lo, const struct content_question *q,
    const struct quiz_state *st, int block)
{
	if (st == NULL || !st->revealed)
		return para(lo, _("Answer it in your head first, then press r to reveal the "
		    "model answer. You grade yourself: it is kept with your "
		    "answers, not counted in your score."),
		    LAYOUT_NOTE, LAYOUT_NOTE, 2, block);
	if (para(lo, q->answer, LAYOUT_EXPLAIN, LAYOUT_EXPLAIN, 2, block) != 0)
		return -1;
	if (!st->answered)
		return para(lo, _("How did you do? 1 missed it, 2 partly, 3 got it."),
		    LAYOUT_NOTE, LAYOUT_NOTE, 2, block);
	return para(lo, st->self == QUIZ_SELF_GOT ? _("You got it.") :
	    st->self == QUIZ_SELF_PARTLY ? _("Partly: read the answer once more; this one will come back.") :
	    _("Missed: read the answer once more; this one will come back."),
	    st->correct ? LAYOUT_RIGHT : LAYOUT_WRONG,
	    st->correct ? LAYOUT_RIGHT : LAYOUT_WRONG, 0, block);
}

static int
question_block(struct layout *lo, const struct content_block *b,
    const struct quiz_state *st, int block)
{
	const struct content_question *q = &b->question;
	int rc, choice = q->type == CONTENT_Q_SINGLE ||
	    q->type == CONTENT_Q_MULTIPLE;

	rc = para(lo, q->prompt, LAYOUT_PROMPT, LAYOUT_PROMPT, 0, block);
	if (rc == 0 && choice)
		rc = option_lines(lo, q, st, block);
	if (rc == 0 && choice && (st == NULL || !st->answered))
		rc = para(lo, q->type == CONTENT_Q_SINGLE ?
		    _("Press a number to choose, then Enter to check.") :
		    _("Press numbers to choose every right option, then Enter to check."),
		    LAYOUT_NOTE, LAYOUT_NOTE, 2, block);
	if (rc == 0 && choice && st != NULL && st->answered) {
		rc = verdict(lo, st, _("Right."), choice_verdict(q, st),
		    block);
		if (rc == 0)
			rc = choice_feedback(lo, q, st, block);
	}
	if (rc == 0 && q->type == CONTENT_Q_NUMERIC)
		rc = numeric_lines(lo, q, st, block);
	if (rc == 0 && q->type == CONTENT_Q_REVEAL)
		rc = reveal_lines(lo, q, st, block);
	if (rc == 0 && q->explain != NULL && st != NULL && (q->type ==
	    CONTENT_Q_REVEAL ? st->answered : quiz_over(q, st)))
		rc = para(lo, q->explain, LAYOUT_EXPLAIN, LAYOUT_EXPLAIN, 0,
		    block);
	return rc;
}

static int
block_lines(struct layout *lo, const struct content_block *b,
    const struct quiz_state *st, int block)
{
	switch (b->kind) {
	case CONTENT_TEXT:
		return text_block(lo, b, block);
	case CONTENT_QUESTION:
		return question_block(lo, b, st, block);
	case CONTENT_ANIMATION:
		if (para(lo, _("Animation: press Enter to play it."),
		    LAYOUT_PROMPT, LAYOUT_PROMPT, 0, block) != 0)
			return -1;
		return para(lo, b->animation.caption, LAYOUT_NOTE, LAYOUT_NOTE,
		    2, block);
	case CONTENT_SCENARIO:
		if (para(lo, b->scenario.title, LAYOUT_HEADING,
		    LAYOUT_HEADING, 0, block) != 0 || blank(lo, block) != 0 ||
		    para(lo, b->scenario.brief, LAYOUT_BODY, LAYOUT_BODY, 0,
		    block) != 0)
			return -1;
		return para(lo, _("Press Enter to open this incident in the cost-model playground."),
		    LAYOUT_PROMPT, LAYOUT_PROMPT, 0, block);
	}
	return 0;
}

int
layout_drop(const struct content_drop *d, const struct quiz_state *quiz,
    int width, struct layout *out)
{
	size_t i;

	memset(out, 0, sizeof *out);
	out->width = width < 10 ? 10 : width;
	for (i = 0; i < d->n_blocks; i++) {
		if (i > 0 && blank(out, (int)i) != 0)
			goto fail;
		if (block_lines(out, &d->blocks[i], quiz != NULL ? &quiz[i] :
		    NULL, (int)i) != 0)
			goto fail;
	}
	while (out->n > 0 && out->lines[out->n - 1].style == LAYOUT_BLANK) {
		free(out->lines[out->n - 1].text);
		out->n--;
	}
	return 0;
fail:
	layout_free(out);
	return -1;
}

void
layout_free(struct layout *lo)
{
	size_t i;

	for (i = 0; i < lo->n; i++)
		free(lo->lines[i].text);
	free(lo->lines);
	memset(lo, 0, sizeof *lo);
}

size_t
layout_line_of_block(const struct layout *lo, int block)
{
	size_t i;

	for (i = 0; i < lo->n; i++)
		if (lo->lines[i].block >= block)
			return i;
	return lo->n > 0 ? lo->n - 1 : 0;
}
