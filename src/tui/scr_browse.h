/*
 * scr_browse.h - the card browser: every flashcard the learner has, a
 * search over front, back and deck, and suspending or unsuspending a card
 * (store/cards_browse.h), as Anki's browser does. Opened with B on the
 * home screen.
 */
#ifndef PARLEARN_TUI_SCR_BROWSE_H
#define PARLEARN_TUI_SCR_BROWSE_H

#include "tui/app.h"

struct ui_screen	*ui_browse_new(struct app *);

#endif
