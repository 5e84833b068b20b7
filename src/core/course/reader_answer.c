/*
 * reader_answer.c - the reader's answer keys: choosing, typing, checking,
 * revealing and retrying, on the marked question only (rules in reader.h).
 *
 * Grading itself is quiz.c's; this file decides which question a key
 * reaches and keeps a question answered right locked.
 */
#include <math.h>
#include <string.h>

#include "core/course/reader.h"
#include "core/course/reader_int.h"

/*
 * The question answer keys reach: the marked question; or, when an
 * animation or a scenario is marked (or nothing), the first question on
 * the page not answered right. -1 if none.
 */
static int
target(const struct reader *r)
{
	if (rd_is_question(r, r->marked))
		return r->marked;
	return rd_pick(r, RD_QUESTION, -1);
}

/*
 * Question b was graded: lay out its feedback and bring it onto the page.
 * A right answer locks it and the marker moves on to the next block on
 * the page still waiting, if there is one.
 */
static enum reader_effect
graded(struct reader *r, int b)
{
	int next;

	r->dirty = 1;
	r->show = b;
	r->acted = b;
	rd_mark(r, b);
	if (r->quiz[b].correct && (next = rd_pick(r, RD_OPEN, b)) >= 0)
		rd_mark(r, next);
	return READER_ANSWERED;
}

/* Characters of a number pl_parse_double reads: "1.5e3", "107,8" (a
 * decimal comma), "3/11", "27%". */
static int
numeric_char(int ch)
{
	return (ch >= '0' && ch <= '9') || (ch != '\0' &&
	    strchr(".,-+eE/%", ch) != NULL);
}

static enum reader_effect
type_into(struct reader *r, int b, int ch)
{
	const struct content_question *q = &r->drop->blocks[b].question;
	struct quiz_state *st = &r->quiz[b];
	size_t n = strlen(st->input);

	if (rd_locked(r, b))
		return READER_LOCKED;
	switch (q->type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		if (ch < '1' || ch > '9' || quiz_choose(q, st, ch - '1') != 0)
			return READER_NONE;
		break;
	case CONTENT_Q_NUMERIC:
		if (!numeric_char(ch) || n + 1 >= sizeof st->input)
			return READER_NONE;
		st->input[n] = (char)ch;
		st->input[n + 1] = '\0';
		break;
	case CONTENT_Q_REVEAL:
		if (!st->revealed || st->answered || ch < '1' || ch > '3')
			return READER_NONE;
		quiz_self_grade(st, (enum quiz_self)(ch - '0'));
		return graded(r, b);
	}
	r->dirty = 1;
	return READER_CHANGED;
}

enum reader_effect
reader_type(struct reader *r, int ch)
{
	enum reader_effect e;
	int b = target(r);

	if (b < 0)
		return READER_NONE;
	e = type_into(r, b, ch);
	if (e == READER_CHANGED && b != r->marked)
		rd_mark(r, b);
	return e;
}

enum reader_effect
reader_erase(struct reader *r)
{
	int b = r->marked;
	struct quiz_state *st;
	size_t n;

	if (!rd_is_question(r, b) ||
	    r->drop->blocks[b].question.type != CONTENT_Q_NUMERIC)
		return READER_NONE;
	if (rd_locked(r, b))
		return READER_LOCKED;
	st = &r->quiz[b];
	n = strlen(st->input);
	if (n == 0)
		return READER_NONE;
	st->input[n - 1] = '\0';
	r->dirty = 1;
	return READER_CHANGED;
}

enum reader_effect
reader_enter(struct reader *r)
{
	int b = r->marked;
	const struct content_question *q;
	struct quiz_state *st;

	if (b < 0)
		return READER_NONE;
	if (!rd_is_question(r, b)) {
		r->acted = b;
		return READER_OPEN;
	}
	if (rd_locked(r, b))
		return READER_NONE;
	q = &r->drop->blocks[b].question;
	st = &r->quiz[b];
	switch (q->type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		if (st->selected == 0 || st->answered)
			return READER_NONE;
		quiz_submit_choice(q, st);
		return graded(r, b);
	case CONTENT_Q_NUMERIC:
		if (st->input[0] == '\0')
			return READER_NONE;
		switch (quiz_submit_numeric(q, st, st->input)) {
		case QUIZ_NOT_FRACTION:
			return READER_NOT_FRACTION;
		case -1:
			return isfinite(st->expected) ? READER_NOT_NUMBER :
			    READER_NO_FIGURE;
		}
		return graded(r, b);
	case CONTENT_Q_REVEAL:
		break;
	}
	return READER_NONE;
}

enum reader_effect
reader_reveal(struct reader *r)
{
	int b = r->marked;

	if (!rd_is_question(r, b) ||
	    r->drop->blocks[b].question.type != CONTENT_Q_REVEAL ||
	    r->quiz[b].revealed)
		b = rd_pick(r, RD_REVEAL, -1);
	if (b < 0)
		return READER_NONE;
	r->quiz[b].revealed = 1;
	r->dirty = 1;
	r->show = b;
	rd_mark(r, b);
	return READER_CHANGED;
}

enum reader_effect
reader_retry(struct reader *r)
{
	int b = r->marked;
	struct quiz_state *st;

	if (!rd_locked(r, b))
		return READER_NONE;
	st = &r->quiz[b];
	st->answered = 0;
	st->correct = 0;
	st->selected = 0;
	st->input[0] = '\0';
	st->self = QUIZ_SELF_NONE;
	r->asked[b] = r->now;
	r->dirty = 1;
	r->show = b;
	rd_mark(r, b);
	return READER_CHANGED;
}

void
reader_restore(struct reader *r, const struct score_record *recs, size_t n)
{
	size_t i, b;

	for (i = 0; i < n; i++) {
		if (recs[i].scenario || recs[i].attempts == 0)
			continue;
		for (b = 0; b < r->drop->n_blocks; b++)
			if (rd_is_question(r, (int)b) && strcmp(r->drop->blocks[b].
			    question.id, recs[i].id) == 0)
				break;
		if (b == r->drop->n_blocks)
			continue;
		quiz_restore(&r->drop->blocks[b].question, &r->quiz[b],
		    recs[i].response, recs[i].last_right, recs[i].attempts,
		    recs[i].earned);
	}
	r->dirty = 1;
}
