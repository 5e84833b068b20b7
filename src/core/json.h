/*
 * json.h - reading JSON files with errors that name the file and position.
 *
 * cJSON reports a parse failure as a pointer into the text; these helpers
 * turn it into FILE:LINE:COL. After parsing, cJSON keeps no positions, so
 * field checks report the JSON path instead ("blocks[2].text").
 */
#ifndef PARLEARN_CORE_JSON_H
#define PARLEARN_CORE_JSON_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "core/err.h"

/* Largest file the loaders accept, bytes. Bigger files are refused. */
#define PL_JSON_MAX_BYTES	(4u * 1024u * 1024u)

/* Deepest nesting of arrays and objects accepted (ours need under 10). */
#define PL_JSON_MAX_DEPTH	64

/*
 * Read a whole file into a NUL-terminated buffer the caller frees.
 * Returns NULL and fills err if it cannot be read, is too big or holds a
 * NUL byte. *len_out (may be NULL) receives the length.
 */
char	*pl_read_file(const char *path, size_t *len_out, struct pl_err *err);

/*
 * Parse text (named file for errors). Returns a tree the caller frees with
 * cJSON_Delete, or NULL with err set to FILE:LINE:COL of the syntax error,
 * of a string holding \u0000 (never cut short silently) or of nesting
 * deeper than PL_JSON_MAX_DEPTH ("too deeply nested").
 */
cJSON	*pl_json_parse(const char *text, const char *file, struct pl_err *err);

/* pl_read_file then pl_json_parse. */
cJSON	*pl_json_load(const char *path, struct pl_err *err);

/* 1-based line and column of byte offset off in text. */
void	 pl_json_position(const char *text, size_t off, int *line, int *col);

/*
 * Typed field access. Each returns 0 on success and -1 with err set to
 * "FILE: PATH.KEY: message" when the field is missing (and required) or of
 * the wrong type. parent_path is the JSON path of obj ("" for the root).
 * An absent optional field leaves *out untouched and returns 0.
 */
int	pl_json_string(const cJSON *obj, const char *key, int required,
	    const char **out, const char *file, const char *parent_path,
	    struct pl_err *err);
int	pl_json_int(const cJSON *obj, const char *key, int required, long lo,
	    long hi, long *out, const char *file, const char *parent_path,
	    struct pl_err *err);
int	pl_json_number(const cJSON *obj, const char *key, int required,
	    double lo, double hi, double *out, const char *file,
	    const char *parent_path, struct pl_err *err);
int	pl_json_bool(const cJSON *obj, const char *key, int required,
	    int *out, const char *file, const char *parent_path,
	    struct pl_err *err);

/* Write parent_path + "." + key (or "[i]") into buf. Returns buf. */
char	*pl_json_path_key(char *buf, size_t size, const char *parent,
	    const char *key);
char	*pl_json_path_index(char *buf, size_t size, const char *parent,
	    int index);

#endif
