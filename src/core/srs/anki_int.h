/*
 * anki_int.h - what anki.c (writing, HTML, ids) and anki_parse.c (reading)
 * share: a growing string.
 */
#ifndef PARLEARN_CORE_SRS_ANKI_INT_H
#define PARLEARN_CORE_SRS_ANKI_INT_H

#include <stddef.h>

struct abuf {
	char	*s;
	size_t	 n, cap;
	int	 oom;		/* an append failed: s is incomplete */
};

void	abuf_add(struct abuf *, const char *s, size_t n);
void	abuf_str(struct abuf *, const char *s);
void	abuf_char(struct abuf *, char c);
/* The string (NUL-terminated; "" if nothing was added), or NULL after an
 * append failed. The caller owns it; b is emptied. */
char	*abuf_take(struct abuf *);

#endif
