/*
 * quiz.h - answering a drop's questions: state, grading, feedback.
 *
 * The reader keeps one struct quiz_state per block; layout_drop() draws
 * the state (choices made, verdict, explanations), so grading and feedback
 * are decided here and only drawn by the screen.
 */
#ifndef PARLEARN_CORE_QUIZ_H
#define PARLEARN_CORE_QUIZ_H

#include "core/course/content.h"

/* Self-grades of a reveal question. */
enum quiz_self {
	QUIZ_SELF_NONE = 0,
	QUIZ_SELF_MISSED = 1,
	QUIZ_SELF_PARTLY = 2,
	QUIZ_SELF_GOT = 3
};

/*
 * What a first wrong numeric answer suggests, before the figure is shown
 * (quiz_numeric_hint). factor is given / expected.
 */
enum quiz_hint {
	QUIZ_HINT_NONE,
	QUIZ_HINT_PERCENT,	/* a percentage typed where a fraction is asked */
	QUIZ_HINT_UNITS,	/* off by 10^3, 10^6 or 10^9: a unit prefix */
	QUIZ_HINT_BYTES,	/* memory off by a ratio of bytes per parameter */
	QUIZ_HINT_TWICE,	/* off by 2x: counted twice, or once too few */
	QUIZ_HINT_SIGN,		/* the sign is wrong */
	QUIZ_HINT_HIGH,		/* too high by factor */
	QUIZ_HINT_LOW		/* too low by factor */
};

struct quiz_state {
	unsigned	 selected;	/* bit i: option i chosen */
	int		 answered;	/* a verdict is shown */
	int		 correct;	/* verdict of the last answer */
	int		 attempts;	/* answers given this visit */
	int		 revealed;	/* reveal: model answer shown */
	enum quiz_self	 self;		/* reveal: learner's own grade */
	char		 input[32];	/* numeric: what is being typed */
	double		 given;		/* numeric: last submitted value */
	double		 expected;	/* numeric: engine figure, NAN if none */
	enum quiz_hint	 hint;		/* numeric: after a wrong answer */
	double		 factor;	/* numeric: given / expected */
};

/* Most options a choice question may have (bits in selected). */
#define QUIZ_MAX_OPTIONS	9

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
 * 0, or -1 if the text is not a number or no expected value is known.
 */
int	quiz_submit_numeric(const struct content_question *, struct quiz_state *,
	    const char *text);

/* 1 if the question's quantity is a fraction (0..1): bubble, MFU. */
int	quiz_wants_fraction(const struct content_question *);

/*
 * Why given may differ from expected, checked in this order: a
 * percentage where a fraction is asked (fraction set), a power of 1000,
 * for memory (memory set) a ratio of two bytes-per-parameter counts, a
 * factor of 2, the sign; else too high or too low. *factor receives
 * given / expected (0 when expected is 0).
 */
enum quiz_hint	quiz_numeric_hint(double given, double expected, int fraction,
		    int memory, double *factor);

/*
 * 1 when the figure of a numeric question may be shown: after a right
 * answer, or the second wrong one. Before that a miss shows only a hint.
 */
int	quiz_figure_shown(const struct quiz_state *);

/* Record a reveal question's self-grade; counts GOT as correct. */
int	quiz_self_grade(struct quiz_state *, enum quiz_self);

/*
 * A short text describing the answer, for the store's response column:
 * "1,3" (options), the number with '.' in any locale, or got / partly /
 * missed.
 */
void	quiz_response(const struct content_question *, const struct quiz_state *,
	    char *buf, size_t size);

/*
 * Show an answer saved earlier (quiz_response's text, its verdict and the
 * number of answers saved) as if just given, so a reopened drop shows it.
 * st->expected must be set first for a numeric question. Returns 0, or
 * -1 when the text does not fit the question (st is then unchanged).
 */
int	quiz_restore(const struct content_question *, struct quiz_state *,
	    const char *response, int correct, int attempts);

/*
 * 1 if |x - want| <= tolerance |want| (the edge counts), or |x| <=
 * tolerance when want is 0; 0 otherwise or when either is not finite.
 */
int	quiz_within(double x, double want, double tolerance);

#endif
