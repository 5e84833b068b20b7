/*
 * reader_int.h - what reader.c (the page and the marker) and
 * reader_answer.c (the answer keys) share. Not used elsewhere.
 */
#ifndef PARLEARN_CORE_READER_INT_H
#define PARLEARN_CORE_READER_INT_H

#include "core/course/reader.h"

/* Which blocks rd_pick looks for. */
enum rd_pick {
	RD_ANY,		/* any interactive block */
	RD_OPEN,	/* an interactive block not locked */
	RD_QUESTION,	/* a question not answered right */
	RD_REVEAL	/* a reveal question not yet revealed */
};

int	rd_interactive(const struct reader *, int b);
int	rd_is_question(const struct reader *, int b);
/* 1 if block b is a question answered right. */
int	rd_locked(const struct reader *, int b);

/*
 * The block on the page, after block `after` (-1: any), that the marker
 * goes to first among those of kind what (see reader.h), or -1.
 */
int	rd_pick(const struct reader *, enum rd_pick what, int after);
/* Mark block b (or none, -1) and pin it there. */
void	rd_mark(struct reader *, int b);
/* Keep the marker on the page; re-place it unless pinned. */
void	rd_sync(struct reader *);
/* Scroll so block b is on the page (from its first line). */
void	rd_bring_into_view(struct reader *, int b);

#endif
