/*
 * content_text.c - making text from content files safe to draw.
 *
 * Lesson text is shown as text: a lesson must not be able to move the
 * cursor, change colours or retitle the terminal. Everything in C0 except
 * the newline, DEL, everything in C1 and whole escape sequences are dropped.
 * Invalid UTF-8 is refused, so the screen never shows mojibake.
 */
#include <stdlib.h>
#include <string.h>

#include "core/course/content.h"
#include "core/engine/costmodel.h"
#include "core/safetext.h"

/* Bytes of an escape sequence starting at the ESC at s (at least 1). */
static size_t
escape_len(const unsigned char *s)
{
	size_t i = 1;

	if (s[1] == '[') {
		/* CSI: parameters and intermediates, then one final byte. */
		for (i = 2; s[i] >= 0x20 && s[i] <= 0x3F; i++)
			;
		for (; s[i] >= 0x20 && s[i] <= 0x2F; i++)
			;
		return s[i] >= 0x40 && s[i] <= 0x7E ? i + 1 : i;
	}
	if (s[1] == ']' || s[1] == 'P' || s[1] == '_' || s[1] == '^') {
		/* OSC, DCS, APC, PM: up to BEL or ESC \. */
		for (i = 2; s[i] != '\0'; i++) {
			if (s[i] == 0x07)
				return i + 1;
			if (s[i] == 0x1B && s[i + 1] == '\\')
				return i + 2;
		}
		return i;
	}
	return s[1] != '\0' ? 2 : 1;
}

char *
content_sanitize(const char *str, size_t *bad_off)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str), i = 0, o = 0, n;
	unsigned int cp;
	char *out;

	out = malloc(len + 1);
	if (out == NULL)
		return NULL;
	while (i < len) {
		n = safetext_utf8(str + i, &cp);
		if (n == 0) {
			if (bad_off != NULL)
				*bad_off = i;
			free(out);
			return NULL;
		}
		if (cp == 0x1B) {
			i += escape_len(s + i);
			continue;
		}
		if (cp == '\t')
			out[o++] = ' ';
		else if (cp == '\n' || !(cp < 0x20 || cp == 0x7F ||
		    (cp >= 0x80 && cp <= 0x9F))) {
			memcpy(out + o, s + i, n);
			o += n;
		}
		i += n;
	}
	out[o] = '\0';
	return out;
}

/* The engine's own list, so a lesson can ask for what it computes. */
int
content_quantity_known(const char *name)
{
	const char *const *q;

	for (q = cm_quantity_names(); name != NULL && *q != NULL; q++)
		if (strcmp(*q, name) == 0)
			return 1;
	return 0;
}
