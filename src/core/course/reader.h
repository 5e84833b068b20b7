/*
 * reader.h - the reader's model of one drop: the page the learner sees,
 * the block the keys act on, and what answering does.
 *
 * The screen calls reader_view() before it draws (it knows the width and
 * the rows), draws r->lo's lines from r->top and the marker at
 * reader_marker_line(), and passes each key to one function below. Each
 * returns what happened; the screen does the I/O that follows (saving an
 * answer, opening the player). Nothing here draws, reads a clock or writes.
 *
 * The rules, which the reader's help overlay states:
 * - One interactive block (question, animation, scenario) with a line on
 *   the page is marked. The marker is drawn on its first line on the page,
 *   so it is always in view; a block that leaves the page loses it.
 * - The marker moves only when the learner moves it or the page: Tab /
 *   Shift-Tab (reader_tab) mark the next / previous interactive block of
 *   the drop, exactly one, bringing it (and its answers) onto the page;
 *   they stop at the last / first (READER_EDGE), they do not wrap. When
 *   the learner moves the page, the marker goes to the first block on the
 *   page that still waits (a question not answered right, an animation, a
 *   scenario), one that starts on the page before one cut at the top; else
 *   to the first interactive block on the page. Answering never moves it:
 *   after an answer, right or not, the answered question stays marked.
 * - Answer keys (digits, number characters, Backspace, Enter, r) act on
 *   the marked question only. With an animation, a scenario or nothing
 *   marked, digits, number characters and r change nothing and say so
 *   (READER_NO_QUESTION); Enter opens the marked animation or scenario.
 *   Enter with nothing to check, or on a locked question, and Backspace
 *   with nothing to erase are left to the page (READER_NONE).
 * - They act only while the marked question's answers (its options, its
 *   input line, or the note a reveal question is answered by) are all on
 *   the page. Otherwise the key changes nothing: the page scrolls to show
 *   them (READER_OFFSCREEN) and the learner presses it again.
 * - After a key changes an answer, the page scrolls so that the answers,
 *   and after Enter the verdict and explanations, are on it.
 * - A question answered right is locked: its keys are refused
 *   (READER_LOCKED) until reader_retry() opens it again.
 * - The drop has been read to its end once its last line was on a page.
 */
#ifndef PARLEARN_CORE_READER_H
#define PARLEARN_CORE_READER_H

#include <stdint.h>

#include "core/course/content.h"
#include "core/course/layout.h"
#include "core/course/quiz.h"
#include "core/course/score.h"
#include "core/engine/hardware.h"

/* What a key did. */
enum reader_effect {
	READER_NONE,		/* not used: the screen may use the key */
	READER_CHANGED,		/* state changed: draw again */
	READER_ANSWERED,	/* question r->acted was graded: save it */
	READER_OPEN,		/* Enter on animation or scenario r->acted */
	READER_LOCKED,		/* the marked question is answered right */
	READER_NOT_NUMBER,	/* the numeric answer typed is not a number */
	READER_NOT_FRACTION,	/* a fraction is asked and the number is
				 * above 1: no answer, no try counted */
	READER_NO_FIGURE,	/* no engine figure for this question */
	READER_EDGE,		/* Tab: no interactive block further on */
	READER_NO_QUESTION,	/* an answer key, no question marked */
	READER_OFFSCREEN	/* the marked question's answers were off the
				 * page: scrolled to them, nothing changed */
};

struct reader {
	const struct content_drop *drop;	/* borrowed */
	struct quiz_state	*quiz;		/* one per block, owned */
	int64_t			*asked;		/* per block: Unix s it was first
						 * marked, 0 = never; owned */
	int64_t			 now;		/* Unix s; the caller sets it
						 * before each call */
	struct layout		 lo;		/* the drop at the last width */
	int			 top;		/* first line on the page */
	int			 page;		/* lines on the page */
	int			 one_block;	/* projector: a page is one block */
	int			 marked;	/* block the keys act on, or -1 */
	int			 acted;		/* block of the last READER_ANSWERED
						 * or READER_OPEN, or -1 */
	int			 pinned;	/* marked by Tab or an answer: kept
						 * while on the page */
	int			 show;		/* block to bring onto the page at
						 * the next view, or -1 */
	int			 show_what;	/* which of its lines (reader.c) */
	int			 dirty;		/* answer text changed: lay out */
	int			 resume_block;	/* block on top at the first view */
	int			 end_seen;	/* last line has been on a page */
};

/*
 * Start reading drop (borrowed; must outlive r) from its first block.
 * Numeric questions get their expected figure from catalog (may be NULL:
 * then they have none and READER_NO_FIGURE is their answer). 0, or -1
 * when out of memory. Free with reader_free().
 */
int	reader_init(struct reader *, const struct content_drop *,
	    const struct hw_catalog *catalog);
void	reader_free(struct reader *);

/*
 * Before drawing: lay out for width columns (again only if the width or
 * an answer changed), with a page of `page` lines; bring an answered
 * block's feedback onto the page and place the marker. reader_view_block
 * is the projector's view: the page is the part of one block that fits
 * in `rows` rows; it returns the line spacing to draw with (2 when the
 * block fits double-spaced, else 1). Both return -1 when out of memory.
 */
int	reader_view(struct reader *, int width, int page);
int	reader_view_block(struct reader *, int width, int rows);

/* Scroll by n lines (negative: up), within the drop. */
void	reader_scroll(struct reader *, int n);
/* Projector: the rest of this block, then the next (dir 1) or previous. */
void	reader_step(struct reader *, int dir);
/* Mark the next (dir 1) or previous (dir -1) interactive block: one. */
enum reader_effect	reader_tab(struct reader *, int dir);

/*
 * An answer key: '1'..'9' choose an option or grade a revealed answer
 * (1 missed, 2 partly, 3 got it); '0'..'9' and ". , - + e E / %" type a
 * number.
 */
enum reader_effect	reader_type(struct reader *, int ch);
/* Backspace: erase the last character of a numeric answer. */
enum reader_effect	reader_erase(struct reader *);
/* Enter: check the marked answer, or open the marked animation/scenario. */
enum reader_effect	reader_enter(struct reader *);
/* r: show the model answer of the marked reveal question. */
enum reader_effect	reader_reveal(struct reader *);
/* Open the marked question, answered right, for a new answer. */
enum reader_effect	reader_retry(struct reader *);

/*
 * Show the answers saved on an earlier visit: recs (n of them, from the
 * store; core/course/score.h) hold each question's latest answer, which
 * its question shows as if just given, locked when right. Records of
 * incidents, of questions the drop no longer has, or that do not fit
 * their question are skipped. Call after reader_init, before the first
 * view.
 */
void	reader_restore(struct reader *, const struct score_record *recs,
	    size_t n);

/* Line to draw the marker on (index in r->lo), or -1 for none. */
int	reader_marker_line(const struct reader *);
/* Block shown on the top line (the place to save), or resume_block. */
int	reader_top_block(const struct reader *);

#endif
