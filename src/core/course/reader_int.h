/*
 * reader_int.h - what reader.c (the page and the marker) and
 * reader_answer.c (the answer keys) share. Not used elsewhere.
 */
#ifndef PARLEARN_CORE_READER_INT_H
#define PARLEARN_CORE_READER_INT_H

#include "core/course/reader.h"

/* Which lines of a block the next view brings onto the page. */
enum rd_show {
	RD_SHOW_BLOCK,		/* the block, never past its first line */
	RD_SHOW_ANSWERS,	/* its answers (options, input, note) */
	RD_SHOW_FEEDBACK	/* its answers through its last line */
};

int	rd_interactive(const struct reader *, int b);
int	rd_is_question(const struct reader *, int b);
/* 1 if block b is a question answered right. */
int	rd_locked(const struct reader *, int b);

/* Mark block b (or none, -1) and pin it there. */
void	rd_mark(struct reader *, int b);
/* Keep the marker on the page; re-place it unless pinned. */
void	rd_sync(struct reader *);
/* Bring `what` of block b onto the page at the next view. */
void	rd_show(struct reader *, int b, enum rd_show what);
/* 1 if all of question b's answers are on the page (or it has none). */
int	rd_answers_on_page(const struct reader *, int b);

#endif
