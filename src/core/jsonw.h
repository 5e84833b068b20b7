/*
 * jsonw.h - JSON written as it is produced, byte for byte as cJSON_Print
 * lays out the same tree (tabs, "key":<TAB>value, ", " between array
 * elements, cJSON's number and string forms), so a document too large to
 * hold as a tree reads exactly as one printed from a tree.
 *
 * Calls must nest properly: a value inside an object follows
 * jsonw_key(). Nothing is checked and nothing is allocated; a write error
 * stays in the stream (ferror(fp)).
 */
#ifndef PARLEARN_CORE_JSONW_H
#define PARLEARN_CORE_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH	16

struct jsonw {
	FILE		*fp;
	int		 depth;
	unsigned char	 items[JSONW_MAX_DEPTH];  /* per level: has one */
	unsigned char	 object[JSONW_MAX_DEPTH]; /* per level: is an object */
};

void	jsonw_init(struct jsonw *, FILE *fp);
void	jsonw_object_begin(struct jsonw *);
void	jsonw_object_end(struct jsonw *);
void	jsonw_array_begin(struct jsonw *);
void	jsonw_array_end(struct jsonw *);
/* The next member's key (inside an object). */
void	jsonw_key(struct jsonw *, const char *key);
/* s NULL writes "" as cJSON does. */
void	jsonw_string(struct jsonw *, const char *s);
/* A number as cJSON prints a double; NaN and infinities as null. */
void	jsonw_number(struct jsonw *, double v);
void	jsonw_null(struct jsonw *);
void	jsonw_bool(struct jsonw *, int v);

/*
 * v as cJSON_Print writes the double v into buf (at least 32 bytes):
 * "%d" when it is an int, else 15 significant digits when they read back
 * as v, else 17, with '.' for the decimal point in any locale.
 */
void	jsonw_format_number(char *buf, size_t n, double v);

#endif
