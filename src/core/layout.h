/*
 * layout.h - a drop laid out as lines for a given width.
 *
 * The reader screen draws these lines and nothing else; all wrapping and
 * numbering happens here so that it can be tested without a terminal.
 */
#ifndef PARLEARN_CORE_LAYOUT_H
#define PARLEARN_CORE_LAYOUT_H

#include <stddef.h>

#include "core/content.h"

enum layout_style {
	LAYOUT_BODY,
	LAYOUT_HEADING,		/* a block's title */
	LAYOUT_BULLET,		/* first line of a "- " item */
	LAYOUT_VERBATIM,	/* two-space indented line, not wrapped */
	LAYOUT_PROMPT,		/* a question's prompt */
	LAYOUT_OPTION,		/* a choice option */
	LAYOUT_NOTE,		/* captions, hints, "answer in the reader" */
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
 * Lay out drop for width columns (at least 10). Returns 0, -1 on memory
 * failure. Free with layout_free(). Text of question, animation and scenario
 * blocks is laid out as a readable summary; screens that make them
 * interactive use the block index.
 */
int	layout_drop(const struct content_drop *, int width, struct layout *out);
void	layout_free(struct layout *);

/* First line showing block (or the nearest block after it). */
size_t	layout_line_of_block(const struct layout *, int block);

#endif
