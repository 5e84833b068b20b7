/*
 * content_parse.h - shared by the content loader's files; not an API.
 */
#ifndef PARLEARN_CORE_CONTENT_PARSE_H
#define PARLEARN_CORE_CONTENT_PARSE_H

#include "core/course/content.h"

struct content_ctx {
	const char		*file;	/* file being read, for messages */
	struct pl_err		*err;	/* first problem of this file */
};

/*
 * Copy the sanitised string field key of obj into *out (allocated).
 * Returns 0, or -1 with ctx->err set. An absent optional field sets
 * *out to NULL.
 */
int	content_take_string(const cJSON *obj, const char *key, int required,
	    const char *path, struct content_ctx *ctx, char **out);

/* Parse and validate blocks[] of a drop into drop->blocks. */
int	content_parse_blocks(const cJSON *arr, struct content_drop *drop,
	    struct content_ctx *ctx);

/* Free what a block owns (not the block itself). */
void	content_block_clear(struct content_block *);

/* strdup that returns NULL for NULL. */
char	*content_strdup(const char *);

/* 1 if s is non-empty and only [a-z0-9-]. */
int	content_valid_id(const char *s);

/* Shared between content.c and content_deck.c. */
cJSON	*content_load_json(const char *path, struct pl_err *err);
int	 content_list_json(const char *dir, char ***names);
void	 content_free_names(char **names, int n);
void	 content_load_decks(struct content_course *, const char *dir,
	    struct content_problems *);
void	 content_free_decks(struct content_course *);

#endif
