/*
 * scr_reader.h - what the reader screen's keys (scr_reader.c), its
 * drawing (scr_reader_draw.c) and its answering I/O (scr_reader_answer.c)
 * share. Not used elsewhere: the constructors are ui_reader_new() and
 * ui_reference_new() in app.h.
 *
 * Which block a key acts on, locking and the marker are core/course/reader's;
 * this screen draws its page and saves what it reports.
 */
#ifndef PARLEARN_TUI_SCR_READER_H
#define PARLEARN_TUI_SCR_READER_H

#include <curses.h>
#include <stdint.h>
#include <time.h>

#include "core/course/reader.h"
#include "tui/app.h"

struct reader_scr {
	struct app	*app;
	int		 drop;		/* index in course->drops; -1 reference */
	int		 reference;	/* the reference document: nothing saved */
	struct reader	 rd;
	time_t		 last_key;
	int64_t		 seconds;	/* reading time not yet saved */
	int		 read_saved;	/* "read" was recorded this visit */
	int		 was_done;	/* the drop was done at the last look */
	char		 note[300];	/* the reader's message above the
					 * status line, until the next key */
};

/*
 * Score the drop again from the store (scr_reader.c). When it has just
 * become done, the note says so; at_end (the end was just reached) and
 * not done, the note says what is left.
 */
void	rs_progress(struct reader_scr *, int at_end);

/* Draw the page (scr_reader_draw.c); writes nothing to the store. */
void	rs_draw(struct reader_scr *, WINDOW *, int rows, int cols);

/*
 * Act on what a key did (scr_reader_answer.c): save a graded answer and
 * its mistake card, open an animation or a scenario, or say why a key
 * was refused.
 */
void	rs_effect(struct reader_scr *, enum reader_effect);

#endif
