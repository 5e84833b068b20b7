/*
 * scr_reader_answer.c - what follows a reader key that core/course/reader
 * has decided on: a graded answer is saved with, when it is a
 * substantive miss, a mistake card; Enter on an animation or a scenario
 * opens its screen; a refused key says why on the status line (a key for
 * answers that were off the screen has scrolled to them instead of
 * acting).
 */
#include <stdio.h>
#include <time.h>

#include "i18n.h"
#include "store/cards.h"
#include "tui/scr_reader.h"
#include "tui/ui.h"

static void
save_answer(struct reader_scr *r, int b)
{
	const struct content_drop *d = r->rd.drop;
	const struct content_question *q = &d->blocks[b].question;
	const struct quiz_state *st = &r->rd.quiz[b];
	int64_t now = (int64_t)time(NULL);
	struct pl_err err;
	char resp[128];
	double secs;

	if (r->reference)
		return;
	quiz_response(q, st, resp, sizeof resp);
	secs = r->rd.asked[b] > 0 ? (double)(now - r->rd.asked[b]) : 0;
	/* The answer and its mistake card: one transaction. A miss with a
	 * counting try left is not yet one (store/cards.h). */
	if (store_cards_answer(r->app->store, r->app->profile, d->id, q,
	    st->correct, !st->correct && st->attempts >=
	    quiz_counting_tries(q), resp, secs, st->expected, now, NULL,
	    &err) != 0)
		app_store_error(&err);
	else
		app_answered(r->app);
}

static void
open_block(struct reader_scr *r, int b)
{
	const struct content_block *blk = &r->rd.drop->blocks[b];

	if (blk->kind == CONTENT_ANIMATION)
		ui_push(ui_player_new(r->app, &blk->animation));
	else if (blk->kind == CONTENT_SCENARIO)
		ui_push(ui_playground_new(r->app, &blk->scenario,
		    r->rd.drop->id));
}

void
rs_effect(struct reader_scr *r, enum reader_effect e)
{
	switch (e) {
	case READER_ANSWERED:
		save_answer(r, r->rd.acted);
		rs_progress(r, 0);
		break;
	case READER_OPEN:
		open_block(r, r->rd.acted);
		break;
	case READER_LOCKED:
		ui_flash(_("You answered this one right. Press a to answer it again."));
		break;
	case READER_NOT_NUMBER:
		ui_flash(_("Type a number, such as 112, 1.5e3, 31/50 or 62%."));
		break;
	case READER_NOT_FRACTION:
		/* xgettext:no-c-format */
		ui_flash(_("A fraction lies between 0 and 1: write 0.27 or 27%. This try does not count."));
		break;
	case READER_NO_FIGURE:
		ui_flash(_("The cost model is not available for this question yet."));
		break;
	case READER_EDGE:
		ui_flash(_("No more questions that way: Tab stops at the first and the last."));
		break;
	case READER_NO_QUESTION:
		ui_flash(_("The marker is not on a question: Tab and Shift-Tab move it."));
		break;
	case READER_OFFSCREEN:
		ui_flash(_("The marked question's answers are on the screen now: press the key again."));
		break;
	case READER_NONE:
	case READER_CHANGED:
		break;
	}
}
