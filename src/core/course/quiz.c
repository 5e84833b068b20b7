/*
 * quiz.c - grading answers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course/quiz.h"
#include "core/mesh/mesh.h"
#include "core/number.h"

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
	st->earned |= st->correct && st->attempts <= quiz_counting_tries(q);
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
quiz_wants_fraction(const struct content_question *q)
{
	return q->quantity != NULL && (strcmp(q->quantity,
	    "bubble_fraction") == 0 || strcmp(q->quantity, "mfu") == 0);
}

/* A memory figure: the quantities named "..._gb". */
static int
wants_memory(const struct content_question *q)
{
	size_t n = q->quantity != NULL ? strlen(q->quantity) : 0;

	return n > 3 && strcmp(q->quantity + n - 3, "_gb") == 0;
}

int
quiz_counting_tries(const struct content_question *q)
{
	switch (q->type) {
	case CONTENT_Q_SINGLE:
		return 1;
	case CONTENT_Q_MULTIPLE:
	case CONTENT_Q_NUMERIC:
		return 2;
	case CONTENT_Q_REVEAL:
		break;
	}
	return 0;
}

int
quiz_over(const struct content_question *q, const struct quiz_state *st)
{
	return st->answered && (st->correct ||
	    st->attempts >= quiz_counting_tries(q));
}

int
quiz_choice_mistake(const struct content_question *q,
    const struct quiz_state *st)
{
	unsigned want = 0;
	size_t i;
	int m = 0;

	for (i = 0; i < q->n_options && i < QUIZ_MAX_OPTIONS; i++)
		if (q->options[i].correct)
			want |= 1u << i;
	if (st->selected & ~want)
		m |= QUIZ_CHOICE_EXTRA;
	if (want & ~st->selected)
		m |= QUIZ_CHOICE_MISSING;
	return m;
}

/* 1 if x is within 3 % of want (how close a ratio must be to name it). */
static int
near(double x, double want)
{
	return fabs(x - want) <= 0.03 * want;
}

/*
 * Bytes per parameter a learner may use or forget: bf16 weights (2),
 * fp32 weights or bf16 weights + gradients (4), 6, 8, mixed-precision
 * Adam's fp32 copy and moments (12), the 16-byte rule, Megatron's 18
 * (reference/costmodel.md, "Memory").
 */
static const double bytes_per_param[] = { 2, 4, 6, 8, 12, 16, 18 };
#define N_BPP	(sizeof bytes_per_param / sizeof bytes_per_param[0])

static int
bytes_ratio(double r)
{
	size_t i, j;

	for (i = 0; i < N_BPP; i++)
		for (j = 0; j < N_BPP; j++)
			if (i != j && near(r, bytes_per_param[i] /
			    bytes_per_param[j]))
				return 1;
	return 0;
}

/* a (>= 1) is one degree or the product of two. */
static int
degree_ratio(double a, const double *deg, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (near(a, deg[i]))
			return 1;
		for (j = i + 1; j < n; j++)
			if (near(a, deg[i] * deg[j]))
				return 1;
	}
	return 0;
}

enum quiz_hint
quiz_numeric_hint(double given, double expected, int memory,
    const double *degrees, size_t n)
{
	enum quiz_hint found = QUIZ_HINT_NONE;
	double r, a;
	int k, causes = 0;

	if (!isfinite(given) || !isfinite(expected) || expected == 0 ||
	    given == 0)
		return QUIZ_HINT_NONE;
	r = given / expected;
	if (r < 0)
		return near(-r, 1) ? QUIZ_HINT_SIGN : QUIZ_HINT_NONE;
	a = r >= 1 ? r : 1 / r;
	for (k = 1; k <= 3; k++)
		if (near(a, pow(1000, k))) {
			found = QUIZ_HINT_UNITS;
			causes++;
		}
	if (memory && bytes_ratio(r)) {
		found = QUIZ_HINT_BYTES;
		causes++;
	}
	if (near(a, 2)) {
		found = QUIZ_HINT_TWICE;
		causes++;
	}
	if (degree_ratio(a, degrees, n)) {
		found = QUIZ_HINT_GROUP;
		causes++;
	}
	return causes == 1 ? found : QUIZ_HINT_NONE;
}

size_t
quiz_degrees(const struct content_question *q, double *out)
{
	struct mesh m;
	const cJSON *v;
	size_t n = 0;
	int i;

	/* Each axis's degree, innermost first, then the GPUs. */
	mesh_init(&m, 1);
	for (i = 0; q->engine != NULL && i <= MESH_N_AXES; i++) {
		v = cJSON_GetObjectItemCaseSensitive(q->engine,
		    i < MESH_N_AXES ? mesh_axis(m.order[i])->key : "gpus");
		if (cJSON_IsNumber(v) && v->valuedouble > 1)
			out[n++] = v->valuedouble;
	}
	return n;
}

int
quiz_submit_numeric(const struct content_question *q, struct quiz_state *st,
    const char *text)
{
	unsigned flags = PL_NUM_LOCALE | PL_NUM_RATIO;
	double v, deg[QUIZ_MAX_DEGREES];
	size_t nd;

	if (!isfinite(st->expected))
		return -1;
	if (quiz_wants_fraction(q))
		flags |= PL_NUM_FRACTION;
	if (pl_parse_double(text, flags, &v) != 0)
		return -1;
	if (quiz_wants_fraction(q) && fabs(v) > 1)
		return QUIZ_NOT_FRACTION;
	st->given = v;
	st->correct = quiz_within(v, st->expected, q->tolerance);
	nd = quiz_degrees(q, deg);
	st->hint = st->correct ? QUIZ_HINT_NONE : quiz_numeric_hint(v,
	    st->expected, wants_memory(q), deg, nd);
	st->answered = 1;
	st->attempts++;
	st->earned |= st->correct && st->attempts <= quiz_counting_tries(q);
	return st->correct;
}

int
quiz_figure_shown(const struct content_question *q,
    const struct quiz_state *st)
{
	return quiz_over(q, st);
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
		pl_num_c(buf, size, st->given, 'g', 6);
		break;
	case CONTENT_Q_REVEAL:
		snprintf(buf, size, "%s", st->self == QUIZ_SELF_GOT ? "got" :
		    st->self == QUIZ_SELF_PARTLY ? "partly" : "missed");
		break;
	}
}

/* Options "1,3" into a bit set; -1 if one is not an option of q. */
static int
parse_options(const struct content_question *q, const char *s,
    unsigned *bits)
{
	char *end;
	long i;

	*bits = 0;
	while (*s != '\0') {
		i = strtol(s, &end, 10);
		if (end == s || i < 1 || (size_t)i > q->n_options ||
		    i > QUIZ_MAX_OPTIONS)
			return -1;
		*bits |= 1u << (i - 1);
		s = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			return -1;
	}
	return *bits != 0 ? 0 : -1;
}

int
quiz_restore(const struct content_question *q, struct quiz_state *st,
    const char *response, int correct, int attempts, int earned)
{
	double v;
	unsigned bits;

	switch (q->type) {
	case CONTENT_Q_SINGLE:
	case CONTENT_Q_MULTIPLE:
		if (parse_options(q, response, &bits) != 0)
			return -1;
		st->selected = bits;
		break;
	case CONTENT_Q_NUMERIC:
		if (pl_parse_double(response, PL_NUM_LOCALE, &v) != 0)
			return -1;
		st->given = v;
		snprintf(st->input, sizeof st->input, "%s", response);
		if (!correct && isfinite(st->expected)) {
			double deg[QUIZ_MAX_DEGREES];
			size_t nd = quiz_degrees(q, deg);

			st->hint = quiz_numeric_hint(v, st->expected,
			    wants_memory(q), deg, nd);
		}
		break;
	case CONTENT_Q_REVEAL:
		if (strcmp(response, "got") == 0)
			st->self = QUIZ_SELF_GOT;
		else if (strcmp(response, "partly") == 0)
			st->self = QUIZ_SELF_PARTLY;
		else if (strcmp(response, "missed") == 0)
			st->self = QUIZ_SELF_MISSED;
		else
			return -1;
		st->revealed = 1;
		break;
	}
	st->answered = 1;
	st->correct = correct != 0;
	st->attempts = attempts > 0 ? attempts : 1;
	st->earned = earned != 0;
	return 0;
}
