/*
 * cards_anki.h - the learner's own decks to and from Anki's note file
 * (core/srs/anki.h): importing notes as cards, and reading a deck's notes
 * back with their tags for an export.
 *
 * A note's card id is anki_card_id(): its GUID, or without one its deck
 * and front. Importing a note whose card is already there (the same file a
 * second time, or an Anki note edited since) changes its front, back and
 * tags and keeps its schedule; nothing is ever added twice.
 */
#ifndef PARLEARN_STORE_CARDS_ANKI_H
#define PARLEARN_STORE_CARDS_ANKI_H

#include <stdint.h>

#include "core/course/content.h"
#include "core/srs/anki.h"
#include "store/db.h"

/* What an import did, in notes. */
struct store_import_counts {
	int	added;		/* new cards */
	int	updated;	/* cards there already whose text or tags changed */
	int	unchanged;	/* cards there already, as they were */
};

/*
 * Import notes into deck, or when deck is NULL into each note's own deck,
 * in one transaction: all or nothing. Refused (-1 with err naming the
 * note's line in file) when a deck name is missing, is not a name
 * (safetext_name_ok, STORE_DECK_MAX_CHARS), or is a course deck's or
 * STORE_MISTAKES_DECK. counts may be NULL.
 */
int	store_cards_import(struct store *, int64_t profile,
	    const struct content_course *, const char *deck,
	    const struct anki_notes *notes, const char *file, int64_t now,
	    struct store_import_counts *counts, struct pl_err *err);

/* One of the learner's cards as a note: borrowed for the call. */
struct store_note {
	const char	*card_id;
	const char	*deck;
	const char	*front;
	const char	*back;
	const char	*tags;		/* "" for none */
};

/*
 * Call fn for each card of profile_name's deck, in the order they were
 * added, reading only: an unknown profile has none and is not created.
 * Returns how many, or -1 with err set.
 */
int	store_user_deck_notes(struct store *, const char *profile_name,
	    const char *deck, void (*fn)(const struct store_note *, void *),
	    void *arg, struct pl_err *err);

/*
 * Call fn with the name of each of profile_name's own decks, reading only:
 * an unknown profile has none and is not created. 0 or -1.
 */
int	store_user_deck_names(struct store *, const char *profile_name,
	    void (*fn)(const char *deck, void *), void *arg,
	    struct pl_err *err);

#endif
