/*
 * anki.h - flashcards as Anki's plain-text note file, both ways.
 *
 * The format is Anki's "Notes in Plain Text" (File > Import, and what Anki
 * exports), with the file headers Anki 2.1.55 and later read: lines at the
 * top of the file of the form "#key:value" (docs.ankiweb.net, Importing >
 * Text Files > File Headers; the reader is Anki's rslib import_export/text/
 * csv/metadata.rs). After the headers every line starting with '#' is a
 * comment, so a field starting with '#' must be quoted. Fields are quoted
 * as in RFC 4180: a field holding the separator, a quote or a line break is
 * put in double quotes with its quotes doubled.
 *
 * What parlearn writes (anki_header, anki_line):
 *
 *   #separator:tab
 *   #html:true                 fields are HTML: &, < and > as entities and
 *                              line breaks as <br>, so Anki keeps both
 *   #notetype:Basic            found by name, else Anki's current note type
 *   #deck:parlearn::phase-1    Anki resolves this only when the deck exists,
 *   #guid column:1             so the deck column (created when missing)
 *   #deck column:2             comes after it and wins
 *   #tags column:5
 *   GUID<TAB>DECK<TAB>FRONT<TAB>BACK<TAB>TAGS
 *
 * No "#columns:" line: with one, Anki maps fields by name, and a profile in
 * another language names Basic's fields otherwise and leaves Back empty;
 * without it the two columns that are not GUID, deck or tags are Front and
 * Back in order. The GUID makes Anki match a note on a second import (and
 * update it) instead of adding a copy, and keeps two notes with the same
 * front apart, which Anki's first-field duplicate check would merge.
 *
 * What parlearn reads (anki_parse): any such file, with or without
 * headers; #separator (a name or the character), #html (HTML turned into
 * text), #tags (tags for every note), #columns (Front and Back found by
 * name when labelled so), #notetype, #deck, and the GUID, note type, deck
 * and tags columns. Without #separator the first note's line decides (tab,
 * then semicolon, comma, pipe); without #html a field that looks like HTML
 * does.
 */
#ifndef PARLEARN_CORE_SRS_ANKI_H
#define PARLEARN_CORE_SRS_ANKI_H

#include <stddef.h>

#include "core/err.h"

/* The deck parlearn's decks go under in Anki: "parlearn::phase-1". */
#define ANKI_DECK_PREFIX	"parlearn::"

/* One note to write. */
struct anki_out_note {
	const char	*guid;		/* stable id (anki_guid_of) */
	const char	*deck;		/* parlearn's name of the deck */
	const char	*front;		/* text; may hold line breaks */
	const char	*back;
	const char	*tags;		/* space-separated, may be "" */
};

/* The header lines for a file of deck's notes (caller frees). */
char	*anki_header(const char *deck);
/* One note as a line, '\n' included (caller frees); NULL without memory. */
char	*anki_line(const struct anki_out_note *);

/* One note read. Every string is set ("" when the file has none). */
struct anki_note {
	char	*guid;		/* the GUID column's value */
	char	*notetype;	/* the note type column's, or #notetype's */
	char	*deck;		/* the deck column's, or #deck's; a leading
				 * ANKI_DECK_PREFIX removed */
	char	*front;		/* text, never empty */
	char	*back;		/* text, never empty */
	char	*tags;		/* the tags column's and #tags', space-separated */
	int	 line;		/* where the note starts, 1-based */
};

struct anki_notes {
	struct anki_note	*v;
	size_t			 n;
	int			 has_guid;	/* the file had a GUID column */
};

/*
 * Parse text (len bytes, named file in errors). 0 with out filled (free
 * with anki_notes_free), or -1 with err at the position: a NUL byte,
 * text that is not UTF-8, a quote left open, a note without a front or a
 * back (the file's columns give none, or a field is empty), no note.
 */
int	anki_parse(const char *text, size_t len, const char *file,
	    struct anki_notes *out, struct pl_err *err);
void	anki_notes_free(struct anki_notes *);

/* Text as an HTML field: &, <, > as entities, line breaks as <br>. */
char	*anki_text_html(const char *text);
/*
 * An HTML field as text, as a browser shows it: <br> is a line break, a
 * block (div, p, li, tr) a line of its own, other tags go, a line break in
 * the source is a space, entities are decoded (the named ones Anki writes,
 * &#N; and &#xH;), runs of blank lines are cut to one, the ends trimmed.
 */
char	*anki_html_text(const char *html);

/*
 * A card's GUID and back: the two maps are inverse for every card parlearn
 * keeps of its own, so export, import, export gives the same file and a
 * second import finds the same cards.
 *
 *   card id                    GUID
 *   anki:G (a note from Anki)  G
 *   anki-h:H, q:..., u:...     parlearn:anki-h:H, parlearn:q:..., ...
 *   a course card's id ID      parlearn:ID (imported: anki:parlearn:ID,
 *                              never the course card itself)
 *   (no GUID in the file)      anki-h: and a hash of the deck and front,
 *                              the note Anki's duplicate check would match
 *
 * Each writes into buf (always NUL-terminated) and returns buf.
 */
char	*anki_guid_of(const char *card_id, char *buf, size_t size);
char	*anki_card_id(const char *guid, const char *deck, const char *front,
	    char *buf, size_t size);

#endif
