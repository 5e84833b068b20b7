/*
 * reader_answer.c - the reader's answer keys: choosing, typing, checking,
 * revealing and retrying, on the marked question only (rules in reader.h).
 *
 * Grading itself is quiz.c's; this file decides whether a key reaches the
 * marked question (its answers on the page, not locked) and what the page
 * shows after it.
 */
#include <math.h>
#include <string.h>

#include "core/course/reader.h"
#include "core/course/reader_int.h"

/*
 * Question b was graded: lay out its verdict and explanations and bring
 * them onto the page with its answers. It stays marked, right or not.
 */
static enum reader_effect
graded(struct reader *r, int b)
{
	r->dirty = 1;
	r->acted = b;
	rd_mark(r, b);
	rd_show(r, b, RD_SHOW_FEEDBACK);
	return READER_ANSWERED;
}

/*
 * Whether a key may act on the marked question: READER_NONE when it may;
 * else what the learner is told. Answers off the page are brought onto it
 * (at the next view) and the key changes nothing.
 */
static enum reader_effect
reach(struct reader *r, int b)
{
	if (!rd_is_question(r, b))
		return READER_NO_QUESTION;
	if (rd_locked(r, b))
		return READER_LOCKED;
	if (!rd_answers_on_page(r, b)) {
		rd_mark(r, b);
		rd_show(r, b, RD_SHOW_ANSWERS);
		return READER_OFFSCREEN;
	}
	return READER_NONE;
}

/* The answer changed: lay it out again and keep it on the page. */
static enum reader_effect
changed(struct reader *r, int b)
{
	r->dirty = 1;
	rd_mark(r, b);
	rd_show(r, b, RD_SHOW_ANSWERS);
	return READER_CHANGED;
}

/* Characters of a number pl_parse_double reads: "1.5e3", "107,8" (a
 * decimal comma), "3/11", "27%". */
static int
numeric_char(int ch)
{
	return (ch >= '0' && ch <= '9') || (ch != '\0' &&
	    strchr(".,-+eE/%", ch) != NULL);
}

/* 1 if key ch means something to question b as it stands. */
static int
takes(const struct reader *r, int b, int ch)
{
	const struct content_question *q = &r->drop->blocks[b].question;
	const struct quiz_state *st = &r->quiz[b];

	switch (q->type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		return ch >= '1' && ch <= '9' && (size_t)(ch - '1') <
		    q->n_options && ch - '1' < QUIZ_MAX_OPTIONS;
	case CONTENT_Q_NUMERIC:
		return numeric_char(ch) && strlen(st->input) + 1 <
		    sizeof st->input;
	case CONTENT_Q_REVEAL:
		return st->revealed && !st->answered && ch >= '1' && ch <= '3';
	}
	return 0;
}

enum reader_effect
reader_type(struct reader *r, int ch)
{
	int b = r->marked;
	const struct content_question *q;
	struct quiz_state *st;
	enum reader_effect e;
	size_t n;

	if ((e = reach(r, b)) == READER_LOCKED || e == READER_NO_QUESTION)
		return e;
	if (!takes(r, b, ch))
		return READER_NONE;
	if (e != READER_NONE)
		return e;
	q = &r->drop->blocks[b].question;
	st = &r->quiz[b];
	switch (q->type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		if (quiz_choose(q, st, ch - '1') != 0)
			return READER_NONE;
		break;
	case CONTENT_Q_NUMERIC:
		n = strlen(st->input);
		st->input[n] = (char)ch;
		st->input[n + 1] = '\0';
		break;
	case CONTENT_Q_REVEAL:
		quiz_self_grade(st, (enum quiz_self)(ch - '0'));
		return graded(r, b);
	}
	return changed(r, b);
}

enum reader_effect
reader_erase(struct reader *r)
{
	int b = r->marked;
	struct quiz_state *st;
	enum reader_effect e;
	size_t n;

	if (!rd_is_question(r, b) ||
	    r->drop->blocks[b].question.type != CONTENT_Q_NUMERIC)
		return READER_NONE;
	st = &r->quiz[b];
	n = strlen(st->input);
	if ((e = reach(r, b)) != READER_NONE || n == 0)
		return e;
	st->input[n - 1] = '\0';
	return changed(r, b);
}

/* 1 if Enter has an answer of question b to check. */
static int
to_check(const struct reader *r, int b)
{
	const struct quiz_state *st = &r->quiz[b];

	switch (r->drop->blocks[b].question.type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		return st->selected != 0 && !st->answered;
	case CONTENT_Q_NUMERIC:
		return st->input[0] != '\0';
	case CONTENT_Q_REVEAL:
		break;
	}
	return 0;
}

enum reader_effect
reader_enter(struct reader *r)
{
	int b = r->marked;
	const struct content_question *q;
	struct quiz_state *st;
	enum reader_effect e;

	if (b < 0)
		return READER_NONE;
	if (!rd_is_question(r, b)) {
		r->acted = b;
		return READER_OPEN;
	}
	/* Nothing to check (or locked): Enter is left to the page. */
	if (rd_locked(r, b) || !to_check(r, b))
		return READER_NONE;
	if ((e = reach(r, b)) != READER_NONE)
		return e;
	q = &r->drop->blocks[b].question;
	st = &r->quiz[b];
	if (q->type != CONTENT_Q_NUMERIC) {
		quiz_submit_choice(q, st);
		return graded(r, b);
	}
	switch (quiz_submit_numeric(q, st, st->input)) {
	case QUIZ_NOT_FRACTION:
		return READER_NOT_FRACTION;
	case -1:
		return isfinite(st->expected) ? READER_NOT_NUMBER :
		    READER_NO_FIGURE;
	}
	return graded(r, b);
}

enum reader_effect
reader_reveal(struct reader *r)
{
	int b = r->marked;
	enum reader_effect e;

	if (rd_is_question(r, b) && (r->drop->blocks[b].question.type !=
	    CONTENT_Q_REVEAL || r->quiz[b].revealed))
		return READER_NONE;
	if ((e = reach(r, b)) != READER_NONE)
		return e;
	r->quiz[b].revealed = 1;
	r->dirty = 1;
	rd_mark(r, b);
	rd_show(r, b, RD_SHOW_FEEDBACK);
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
	rd_mark(r, b);
	rd_show(r, b, RD_SHOW_ANSWERS);
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
