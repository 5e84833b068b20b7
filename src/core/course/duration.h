/*
 * duration.h - how long a drop takes a learner, estimated from its
 * content rather than typed into the lesson file.
 *
 * A drop's time is the sum of four terms (lessons/README.md, "How long a
 * drop takes", says how each figure was obtained and measured):
 *
 *   reading     every word the learner reads: text blocks and their
 *               headings, the title and summary, question prompts,
 *               options, the explanations a right answer shows, model
 *               answers, animation captions, incident briefs and hints;
 *               prose at DURATION_PROSE_WPM, lines shown as is
 *               (formulas, tables, diagrams) at DURATION_VERBATIM_WPM
 *   questions   deciding, computing or composing, by question type
 *   animations  the step played once at the player's default speed,
 *               then part of its events stepped through again
 *   incidents   diagnosing and trying layouts in the playground, plus
 *               the claims and the written trade-off of drop 14
 *
 * Everything is computed from the loaded drop and the simulator (an
 * animation's events come from running its step); no I/O, no curses.
 */
#ifndef PARLEARN_CORE_COURSE_DURATION_H
#define PARLEARN_CORE_COURSE_DURATION_H

#include <stddef.h>

#include "core/course/content.h"

/*
 * Reading rates, words per minute. Brysbaert (2019), "How many words do
 * we read per minute? A review and meta-analysis of reading rate",
 * Journal of Memory and Language 109, 104047: adults read English
 * non-fiction silently at 238 wpm on average, most between 175 and 300.
 * His studies read for comprehension and left out reading to memorise.
 * A drop is read to learn, is dense with figures and units ("TP 8 x PP
 * 8, 2.8 billion parameters, 5.6 GB"), and a figure read now is used in
 * a question a page later: prose is taken at 200 wpm, between his mean
 * and the low end of his range, and Carver's (1992) rate for reading to
 * learn (below). A line shown as is is a formula, a table or a diagram,
 * read symbol by symbol and checked against the prose: Carver (1992),
 * "Reading rate: theory, research, and practical implications", Journal
 * of Reading 36(2), 84-95, gives 138 wpm for reading to memorise.
 */
#define DURATION_PROSE_WPM		200.0
#define DURATION_VERBATIM_WPM		138.0

/*
 * Per question, on top of reading its words: seconds. Test-construction
 * guides allow about 30 s per true/false item, 60 s per multiple-choice
 * item and 120 s per written short answer, reading included.
 *   single      one decision among the options: the 60 s item less the
 *               reading already counted (about 30 s at 200 wpm), 30 s
 *   multiple    every option judged right or wrong on its own: a
 *               true/false item each, less its reading, 15 s per option
 *   numeric     a figure worked out from a configuration (bytes per
 *               parameter times parameters, a bubble fraction, a ring's
 *               volume over a link) and typed; a first miss is corrected
 *               from its hint: a short answer whose writing is the
 *               calculation, 120 s
 *   reveal      an answer composed in the head, not written, before the
 *               model answer is revealed and compared: half the written
 *               short answer, 60 s
 */
#define DURATION_SINGLE_S		30.0
#define DURATION_MULTIPLE_OPTION_S	15.0
#define DURATION_NUMERIC_S		120.0
#define DURATION_REVEAL_S		60.0

/*
 * An animation: its step played once at the player's default speed
 * (PLAYER_BASE_SECONDS over the speed factor, core/sim/player.h; the
 * player opens at 1x, 12 s), then a quarter of its events stepped
 * through again with Left and Right, 2 s to look at each frame: a
 * pipeline of 4 GPUs and 8 micro-batches (136 events) takes 12 + 68 s.
 */
#define DURATION_STEP_SHARE		0.25
#define DURATION_STEP_S			2.0

/*
 * An incident, besides reading its brief, hints and solution: reading
 * the start layout's memory and time panels (1 minute), three tries of
 * 2.5 minutes each (turn two or three knobs, read the verdict and the
 * engine's reasons), 1.5 minutes on the outcome: 10 minutes. A claim
 * (drop 14) takes 30 s to check against the panels, the written
 * trade-off (at least 8 different words) 3 minutes.
 */
#define DURATION_INCIDENT_S		600.0
#define DURATION_CLAIM_S		30.0
#define DURATION_TRADEOFF_S		180.0

struct duration {
	double	read_s;		/* reading every word, seconds */
	double	questions_s;	/* deciding, computing, composing, seconds */
	double	animations_s;	/* playing and stepping, seconds */
	double	incidents_s;	/* working the incidents, seconds */
	size_t	prose_words;	/* words read at DURATION_PROSE_WPM */
	size_t	verbatim_words;	/* words read at DURATION_VERBATIM_WPM */
	int	questions;	/* question blocks */
	int	animations;	/* animation blocks */
	size_t	anim_stops;	/* the animations' distinct events, all */
	int	incidents;	/* scenario blocks */
};

/*
 * Words in s (NULL: none), a word being a run of characters other than
 * space and newline. Words on lines that start with two spaces (shown as
 * is) go to *verbatim, the rest to *prose; both are added to, not set.
 */
void	duration_count_words(const char *s, size_t *prose, size_t *verbatim);

/*
 * What playing an animation block takes: the wall seconds of one play at
 * the player's default speed (*play_s) and the player's distinct event
 * stops (*stops, the frames Left and Right step through). Runs the
 * block's step in the simulator. Returns 0, or -1 if the block does not
 * run (then *play_s is still one play and *stops 0).
 */
int	duration_animation(const struct content_animation *, double *play_s,
	    size_t *stops);

/* Estimate drop d; every field of out is set. */
void	duration_drop(const struct content_drop *d, struct duration *out);

/* The sum of the four terms, seconds. */
double	duration_seconds(const struct duration *);

/* Seconds as the whole minutes shown: rounded, at least 1. */
int	duration_minutes(double seconds);

/*
 * The estimate of every drop of c, minutes, into minutes[i] for
 * c->drops[i] (c->n_drops entries); returns their sum.
 */
int	duration_course(const struct content_course *c, int *minutes);

/*
 * Minutes as the screens show a longer time: "45 min", "4 h 5 min",
 * "3 h" (translated). Writes at most n bytes to buf; returns buf.
 */
char	*duration_text(int minutes, char *buf, size_t n);

#endif
