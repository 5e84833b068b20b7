/*
 * import_int.h - what the two halves of import share: the schema as a
 * table of sections and fields (import.c), the checks every row passes
 * before the first write (import_check.c), and the sorted key sets both
 * use.
 */
#ifndef PARLEARN_STORE_IMPORT_INT_H
#define PARLEARN_STORE_IMPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/course/content.h"
#include "core/err.h"
#include "store/db.h"

#define ID_MAX_BYTES	256		/* drop, question, card ids, keys */
#define TEXT_MAX_BYTES	4096		/* responses, setting values */
#define FACE_MAX_BYTES	65536		/* a card's front or back */
#define MAX_NOTES	20		/* unknown drops/questions told */

enum ftype {
	F_ID,		/* text, 1..ID_MAX_BYTES, no control character */
	F_TEXT,		/* text, 0..TEXT_MAX_BYTES, no control character */
	F_FACE,		/* card text, newlines allowed */
	F_TRADEOFF,	/* text, 1..SC_TRADEOFF_LEN - 1, no control char */
	F_DECK,		/* a deck name (safetext_name_ok) */
	F_INT,		/* an integer from lo to hi */
	F_INT64,	/* any int64; a string of digits beyond 2^53 */
	F_TIME,		/* Unix seconds, 0..EXPORT_TIME_MAX */
	F_REAL		/* a finite number from lo to hi */
};

struct field {
	const char	*key;		/* JSON key, also the column */
	enum ftype	 type;
	int		 null_ok;	/* may be null or absent */
	double		 lo, hi;	/* F_INT, F_REAL */
};

struct section {
	const char		*json;		/* key in the root or in review */
	int			 in_review;
	const char		*table;
	const char		*verb;		/* INSERT, INSERT OR ... */
	const struct field	*fields;	/* key fields first */
	size_t			 n_fields;
	size_t			 n_key;
	const char		*existing;	/* SELECT of the key columns of
						 * the profile's rows, or NULL
						 * when the verb handles them */
	int			 optional;	/* may be absent (older files) */
	const char		*insert;	/* the INSERT, ?1 the profile and
						 * ?2... the fields; NULL: made
						 * from verb, table, fields */
};

/* A sorted set of keys ("a\x1fb\x1f3"), or rows' keys with their index. */
struct keyset {
	char	**keys;
	size_t	 n, cap;
};

/* What the checks share. */
struct import {
	struct store			*st;
	const char			*file;
	const struct content_course	*course;
	struct content_problems		*notes;
	size_t				 n_unknown;	/* rows noted or not */
	struct keyset			 noted;		/* drops/questions told */
	int64_t				 profile;
	int				 added;
	struct pl_err			*err;
};

/* The answers' and trade-offs' fields, which key one another (import.c). */
extern const struct field	import_answer_fields[];
extern const struct field	import_tradeoff_fields[];

/* The sections in the order they are checked and written (import.c). */
extern const struct section	import_sections[];
extern const size_t		import_n_sections;

/* import_check.c */
int	import_keyset_add(struct keyset *, char *key);
int	import_keyset_has(const struct keyset *, const char *key);
void	import_keyset_free(struct keyset *);
int	import_int_value(const cJSON *v, enum ftype t, int64_t *out);
int	import_key_part(char *buf, size_t size, size_t *len, const cJSON *v,
	    const struct field *f, int64_t iv);
int	import_cmp_key(const void *a, const void *b);
const cJSON	*import_section_array(const cJSON *root,
		    const struct section *sec);
int	import_check_header(struct import *, const cJSON *o,
	    const char **name);
int	import_check_all(struct import *, const cJSON *o, const char *name);

#endif
