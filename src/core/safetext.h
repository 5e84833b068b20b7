/*
 * safetext.h - untrusted text made safe for a terminal or a spreadsheet.
 *
 * Text that someone else chose (a file name in a course directory, a value
 * echoed in an error, a student's result file name, a deck or profile name
 * stored by an import) must never reach a terminal as control characters:
 * OSC 52 sets the clipboard, OSC 0 the window title, CSI 2J clears the
 * screen and CSI 6n makes the terminal type into the victim's input. These
 * functions show such characters as text instead of sending them:
 *
 *   ESC and the other C0 controls   caret notation: "^[", "^G", "^@"
 *   DEL                             "^?"
 *   C1 controls (U+0080..U+009F)    "\u009b"
 *   bytes that are not UTF-8        "\xff"
 *   bidi overrides (U+202A..202E, U+2066..2069)
 *                                   "\u202e"
 *
 * Valid UTF-8 is kept in a UTF-8 locale (SAFETEXT_UTF8); in any other every
 * byte above 0x7F is shown as "\xNN". Nothing here allocates except the
 * _dup and _csv functions, and nothing does I/O.
 */
#ifndef PARLEARN_CORE_SAFETEXT_H
#define PARLEARN_CORE_SAFETEXT_H

#include <stddef.h>

enum {
	SAFETEXT_UTF8 = 1,	/* keep valid multibyte UTF-8 characters */
	SAFETEXT_NEWLINE = 2,	/* keep '\n' and '\t' (our own messages) */
};

/*
 * Render s into buf (always NUL-terminated when size > 0). Returns the
 * length the whole rendering needs, as snprintf does.
 */
size_t	safetext_render(const char *s, char *buf, size_t size, int flags);

/* The rendering in a new string (caller frees), or NULL without memory. */
char	*safetext_dup(const char *s, int flags);

/*
 * One CSV cell for a spreadsheet (RFC 4180): rendered as above, in double
 * quotes with quotes doubled, and a cell a spreadsheet would read as a
 * formula (first character = + - @, tab or carriage return) prefixed with
 * a single quote. Caller frees; NULL without memory.
 */
char	*safetext_csv(const char *s, int flags);

/*
 * Length of the valid UTF-8 sequence at s and its code point in *cp, or 0
 * when the bytes at s are not valid UTF-8 (or s is at its NUL).
 */
size_t	safetext_utf8(const char *s, unsigned int *cp);

/* 1 if code point cp must not reach a terminal as it is. */
int	safetext_is_control(unsigned int cp);

/*
 * 1 if s is a name fit to store and show: valid UTF-8, 1 to max_chars
 * characters (code points, not bytes), no control character, no bidi
 * override, not only spaces.
 */
int	safetext_name_ok(const char *s, size_t max_chars);

/*
 * 1 if s is valid UTF-8 of at most max bytes with no control character
 * and no bidi override ('\n' allowed when newlines is set).
 */
int	safetext_text_ok(const char *s, size_t max, int newlines);

/*
 * Append the byte ch, typed, to the NUL-terminated buf of size bytes when
 * the text stays what safetext_text_ok(buf, size - 1, 0) accepts once the
 * character it starts or continues is complete. Returns 1 if appended.
 * safetext_text_end() cuts a trailing incomplete character.
 */
int	safetext_type(char *buf, size_t size, int ch);
void	safetext_text_end(char *buf);

/* 1 if s holds a control character, a bidi override or invalid UTF-8. */
int	safetext_has_control(const char *s);

#endif
