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
 * question's relative tolerance. Returns 1, 0, or -1 if the text is not a
 * number or no expected value is known.
 */
int	quiz_submit_numeric(const struct content_question *, struct quiz_state *,
	    const char *text);

/* Record a reveal question's self-grade; counts GOT as correct. */
int	quiz_self_grade(struct quiz_state *, enum quiz_self);

/* A short text describing the answer, for the store's response column. */
void	quiz_response(const struct content_question *, const struct quiz_state *,
	    char *buf, size_t size);

/*
 * 1 if |x - want| <= tolerance |want| (the edge counts), or |x| <=
 * tolerance when want is 0; 0 otherwise or when either is not finite.
 */
int	quiz_within(double x, double want, double tolerance);

#endif
