/*
 * quiz.c - grading answers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/quiz.h"

int
quiz_choose(const struct content_question *q, struct quiz_state *st, int i)
{
	if (i < 0 || (size_t)i >= q->n_options || i >= QUIZ_MAX_OPTIONS)
		return -1;
	if (q->type == CONTENT_Q_SINGLE)
		st->selected = 1u << i;
	else
		st->selected ^= 1u << i;
	st->answered = 0;
	return 0;
}

int
quiz_submit_choice(const struct content_question *q, struct quiz_state *st)
{
	unsigned want = 0;
	size_t i;

	if (st->selected == 0)
		return -1;
	for (i = 0; i < q->n_options && i < QUIZ_MAX_OPTIONS; i++)
		if (q->options[i].correct)
			want |= 1u << i;
	st->correct = st->selected == want;
	st->answered = 1;
	st->attempts++;
	return st->correct;
}

int
quiz_within(double x, double want, double tolerance)
{
	if (!isfinite(x) || !isfinite(want))
		return 0;
	if (want == 0)
		return fabs(x) <= tolerance;
	return fabs(x - want) <= tolerance * fabs(want);
}

int
quiz_submit_numeric(const struct content_question *q, struct quiz_state *st,
    const char *text)
{
	char *end;
	double v;

	if (!isfinite(st->expected))
		return -1;
	v = strtod(text, &end);
	while (*end == ' ')
		end++;
	if (end == text || *end != '\0' || !isfinite(v))
		return -1;
	st->given = v;
	st->correct = quiz_within(v, st->expected, q->tolerance);
	st->answered = 1;
	st->attempts++;
	return st->correct;
}

int
quiz_self_grade(struct quiz_state *st, enum quiz_self g)
{
	if (!st->revealed || g == QUIZ_SELF_NONE)
		return -1;
	st->self = g;
	st->correct = g == QUIZ_SELF_GOT;
	st->answered = 1;
	st->attempts++;
	return st->correct;
}

void
quiz_response(const struct content_question *q, const struct quiz_state *st,
    char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	switch (q->type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		for (i = 0; i < q->n_options && n + 4 < size; i++)
			if (st->selected & (1u << i))
				n += (size_t)snprintf(buf + n, size - n, "%s%zu",
				    n > 0 ? "," : "", i + 1);
		break;
	case CONTENT_Q_NUMERIC:
		snprintf(buf, size, "%.6g", st->given);
		break;
	case CONTENT_Q_REVEAL:
		snprintf(buf, size, "%s", st->self == QUIZ_SELF_GOT ? "got" :
		    st->self == QUIZ_SELF_PARTLY ? "partly" : "missed");
		break;
	}
}
