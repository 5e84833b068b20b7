/*
 * translit.h - lesson text in plain ASCII for terminals that are not
 * UTF-8.
 *
 * Lessons and cards are UTF-8 and write formulas with ×, ≈, ·, ², −, Greek
 * letters. Under LANG=C curses would print those bytes as "~W" or "M-7";
 * instead each character is written the way one types it in ASCII: × as
 * "x", ≈ as "~=", · as "*", ² as "^2", → as "->", α as "alpha", Ψ as "Psi".
 * A character with no ASCII form becomes "?". wrap.c measures text by the
 * same rule when translit_wanted() is true, so lines wrapped for the
 * screen still fit once transliterated.
 */
#ifndef PARLEARN_CORE_TRANSLIT_H
#define PARLEARN_CORE_TRANSLIT_H

#include <stddef.h>

/* 1 if the locale's character set is not UTF-8 (nl_langinfo(CODESET)):
 * text must then be shown transliterated. setlocale() must have run. */
int	translit_wanted(void);

/*
 * Decode the UTF-8 character at s (at most max bytes, max > 0): its code
 * point goes to *cp and its length is returned. A byte that does not start
 * a valid, shortest-form sequence is one character of length 1 with
 * *cp = 0xFFFD.
 */
size_t	translit_decode(const char *s, size_t max, unsigned long *cp);

/* The ASCII form of code point cp (>= 0x80), or NULL if none is known. */
const char	*translit_cp(unsigned long cp);

/*
 * The ASCII form of the character at s (at most max bytes, max > 0): an
 * ASCII byte as itself (copied into one[2]), else translit_cp or "?".
 * *len gets the bytes the character takes in s.
 */
const char	*translit_char(const char *s, size_t max, size_t *len,
		    char one[2]);

/*
 * Write the first n bytes of s in ASCII into out (size outsz > 0),
 * NUL-terminated; a character whose form does not fit whole is left out
 * with everything after it. Returns the length the whole would need
 * (without the NUL), like snprintf.
 */
size_t	translit_ascii(const char *s, size_t n, char *out, size_t outsz);

#endif
