/*
 * layout.h - a drop laid out as lines for a given width.
 *
 * The reader screen draws these lines and nothing else; all wrapping and
 * numbering happens here so that it can be tested without a terminal.
 */
#ifndef PARLEARN_CORE_LAYOUT_H
#define PARLEARN_CORE_LAYOUT_H

#include <stddef.h>

#include "core/course/content.h"
#include "core/course/quiz.h"

enum layout_style {
	LAYOUT_BODY,
	LAYOUT_HEADING,		/* a block's title */
	LAYOUT_BULLET,		/* first line of a "- " item */
	LAYOUT_VERBATIM,	/* two-space indented line, not wrapped */
	LAYOUT_PROMPT,		/* a question's prompt */
	LAYOUT_OPTION,		/* a choice option */
	LAYOUT_NOTE,		/* captions, how to answer */
	LAYOUT_INPUT,		/* a numeric answer being typed */
	LAYOUT_RIGHT,		/* verdict: right */
	LAYOUT_WRONG,		/* verdict: not right */
	LAYOUT_EXPLAIN,		/* explanations after an answer */
	LAYOUT_BLANK
};

struct layout_line {
	char			*text;		/* UTF-8, NUL-terminated */
	enum layout_style	 style;
	int			 indent;	/* columns to the left of text */
	int			 block;		/* index of the block it shows */
};

struct layout {
	struct layout_line	*lines;
	size_t			 n;
	size_t			 cap;
	int			 width;		/* columns it was laid out for */
};

/*
 * Lay out drop for width columns (at least 10). quiz (may be NULL) holds
 * one state per block: questions are drawn with the choices made, the
 * verdict and the explanations. Returns 0, -1 on memory failure. Free
 * with layout_free().
 */
int	layout_drop(const struct content_drop *, const struct quiz_state *quiz,
	    int width, struct layout *out);
void	layout_free(struct layout *);

/* First line showing block (or the nearest block after it). */
size_t	layout_line_of_block(const struct layout *, int block);

#endif
