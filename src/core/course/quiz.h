/*
 * quiz.h - answering a drop's questions: state, grading, feedback.
 *
 * The reader keeps one struct quiz_state per block; layout_drop() draws
 * the state (choices made, verdict, explanations), so grading and feedback
 * are decided here and only drawn by the screen.
 */
#ifndef PARLEARN_CORE_QUIZ_H
#define PARLEARN_CORE_QUIZ_H

#include <stddef.h>

#include "core/course/content.h"
#include "core/mesh/mesh.h"

/* Self-grades of a reveal question. */
enum quiz_self {
	QUIZ_SELF_NONE = 0,
	QUIZ_SELF_MISSED = 1,
	QUIZ_SELF_PARTLY = 2,
	QUIZ_SELF_GOT = 3
};

/*
 * The kind of mistake a wrong numeric answer shows (quiz_numeric_hint),
 * named to the learner without its size or direction: a hint may say
 * "check the unit prefix", never "1000 times too high". NONE when no
 * single cause explains the miss (none, or more than one, fits): then the
 * feedback says nothing specific.
 */
enum quiz_hint {
	QUIZ_HINT_NONE,
	QUIZ_HINT_UNITS,	/* off by 10^3, 10^6 or 10^9: a unit prefix */
	QUIZ_HINT_BYTES,	/* memory off by a ratio of bytes per parameter */
	QUIZ_HINT_TWICE,	/* off by 2x: counted twice, or once too few */
	QUIZ_HINT_GROUP,	/* off by a parallel degree: per GPU vs per group */
	QUIZ_HINT_SIGN		/* the sign is wrong */
};

struct quiz_state {
	unsigned	 selected;	/* bit i: option i chosen */
	int		 answered;	/* a verdict is shown */
	int		 correct;	/* verdict of the last answer */
	int		 attempts;	/* counted answers (a format slip is
					 * none), saved ones included */
	int		 earned;	/* right within the counting tries */
	int		 revealed;	/* reveal: model answer shown */
	enum quiz_self	 self;		/* reveal: learner's own grade */
	char		 input[32];	/* numeric: what is being typed */
	double		 given;		/* numeric: last submitted value */
	double		 expected;	/* numeric: engine figure, NAN if none */
	enum quiz_hint	 hint;		/* numeric: after a wrong answer */
};

/* Most options a choice question may have (bits in selected). */
#define QUIZ_MAX_OPTIONS	9

/*
 * Answers that can earn a question (core/course/score.h): 1 for a single
 * choice (any feedback after a miss would leave a guess among fewer
 * options), 2 for multiple choice and numeric, whose first miss gets
 * feedback that names only the kind of mistake; 0 for reveal questions,
 * which are self-graded and earn nothing.
 */
int	quiz_counting_tries(const struct content_question *);

/*
 * 1 once the question is over: answered right, or out of counting tries.
 * Only then does the reader show the figure, which options are right,
 * every option's explanation and the question's.
 */
int	quiz_over(const struct content_question *, const struct quiz_state *);

/*
 * After a wrong multiple-choice answer, what kind of mistake it is,
 * without saying which option: bit 1, an option ticked that is wrong;
 * bit 2, a right option left out.
 */
#define QUIZ_CHOICE_EXTRA	1
#define QUIZ_CHOICE_MISSING	2
int	quiz_choice_mistake(const struct content_question *,
	    const struct quiz_state *);

/* Toggle option i (multiple) or select only it (single). 0, -1 if no such option. */
int	quiz_choose(const struct content_question *, struct quiz_state *, int i);

/*
 * Grade the current choice. Returns 1 right, 0 wrong, -1 when nothing is
 * selected. Right means exactly the correct options are selected.
 */
int	quiz_submit_choice(const struct content_question *, struct quiz_state *);

/*
 * Grade a numeric answer typed as text against st->expected with the
 * question's relative tolerance. The text is read by pl_parse_double
 * (core/number.h) in any locale: '.' or the locale's decimal comma,
 * scientific notation, a ratio "3/11", and "27%", which is 0.27 when the
 * question asks for a fraction. A wrong answer sets st->hint. Returns 1,
 * 0, -1 if the text is not a number or no expected value is known, or
 * QUIZ_NOT_FRACTION when a fraction question gets a number above 1 (a
 * format slip: "20" for 20 %), which is no answer and counts no try.
 */
#define QUIZ_NOT_FRACTION	(-2)
int	quiz_submit_numeric(const struct content_question *, struct quiz_state *,
	    const char *text);

/* 1 if the question's quantity is a fraction (0..1): bubble, MFU. */
int	quiz_wants_fraction(const struct content_question *);

/*
 * The one cause that explains given / expected, or QUIZ_HINT_NONE when
 * none or several do. The causes: a power of 1000 (a unit prefix); for
 * memory (memory set) a ratio of two bytes-per-parameter counts; a
 * factor of 2; a parallel degree of the question's configuration or a
 * product of two (degrees: tp, pp, dp, gpus; n of them, each > 1), read
 * as per GPU vs per group; the sign. Ratios match within 3 %.
 */
enum quiz_hint	quiz_numeric_hint(double given, double expected, int memory,
		    const double *degrees, size_t n);

/* The parallel degrees of q's engine configuration (each axis's, then
 * gpus; those above 1) into out (QUIZ_MAX_DEGREES); returns how many. */
#define QUIZ_MAX_DEGREES	(MESH_N_AXES + 1)
size_t	quiz_degrees(const struct content_question *, double *out);

/* 1 when the figure of a numeric question may be shown: quiz_over. */
int	quiz_figure_shown(const struct content_question *,
	    const struct quiz_state *);

/* Record a reveal question's self-grade (GOT is kept as correct; no
 * reveal question counts toward the score). */
int	quiz_self_grade(struct quiz_state *, enum quiz_self);

/*
 * A short text describing the answer, for the store's response column:
 * "1,3" (options), the number with '.' in any locale, or got / partly /
 * missed.
 */
void	quiz_response(const struct content_question *, const struct quiz_state *,
	    char *buf, size_t size);

/*
 * Show an answer saved earlier (quiz_response's text, its verdict, the
 * number of counted answers saved and whether the question was earned)
 * as if just given, so a reopened drop shows it. st->expected must be
 * set first for a numeric question. Returns 0, or -1 when the text does
 * not fit the question (st is then unchanged).
 */
int	quiz_restore(const struct content_question *, struct quiz_state *,
	    const char *response, int correct, int attempts, int earned);

/*
 * 1 if |x - want| <= tolerance |want| (the edge counts), or |x| <=
 * tolerance when want is 0; 0 otherwise or when either is not finite.
 */
int	quiz_within(double x, double want, double tolerance);

#endif
