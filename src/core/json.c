/*
 * json.c - file reading and JSON field access with located errors.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/json.h"

char *
pl_read_file(const char *path, size_t *len_out, struct pl_err *err)
{
	FILE *fp;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	fp = fopen(path, "rb");
	if (fp == NULL) {
		pl_err_set(err, path, 0, 0, "%s", strerror(errno));
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *nb;

			cap = cap == 0 ? 8192 : cap * 2;
			nb = realloc(buf, cap + 1);
			if (nb == NULL) {
				pl_err_set(err, path, 0, 0, "%s",
				    _("out of memory"));
				goto fail;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (len > PL_JSON_MAX_BYTES) {
			pl_err_set(err, path, 0, 0,
			    _("file is larger than %u bytes"),
			    PL_JSON_MAX_BYTES);
			goto fail;
		}
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		pl_err_set(err, path, 0, 0, "%s", _("read error"));
		goto fail;
	}
	fclose(fp);
	buf[len] = '\0';
	if (memchr(buf, '\0', len) != NULL) {
		int line, col;

		pl_json_position(buf, (size_t)((char *)memchr(buf, '\0', len) -
		    buf), &line, &col);
		pl_err_set(err, path, line, col, "%s",
		    _("file holds a NUL byte"));
		free(buf);
		return NULL;
	}
	if (len_out != NULL)
		*len_out = len;
	return buf;
fail:
	fclose(fp);
	free(buf);
	return NULL;
}

void
pl_json_position(const char *text, size_t off, int *line, int *col)
{
	size_t i;
	int l = 1, c = 1;

	for (i = 0; i < off && text[i] != '\0'; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)text[i] & 0xC0) != 0x80)
			c++;
	}
	*line = l;
	*col = c;
}

/*
 * What cJSON would accept silently or refuse with a vague message: a
 * string holding \u0000 (cJSON cuts the string there) and nesting deeper
 * than PL_JSON_MAX_DEPTH. Returns the offset of the first, or -1; *why
 * says which (0 NUL, 1 depth).
 */
static long
prescan(const char *text, int *why)
{
	size_t i;
	int depth = 0, in_str = 0;

	for (i = 0; text[i] != '\0'; i++) {
		if (in_str) {
			if (text[i] == '"')
				in_str = 0;
			else if (text[i] == '\\' && text[i + 1] != '\0') {
				if (text[i + 1] == 'u' && strncmp(text + i + 2,
				    "0000", 4) == 0) {
					*why = 0;
					return (long)i;
				}
				i++;
			}
			continue;
		}
		if (text[i] == '"')
			in_str = 1;
		else if (text[i] == '[' || text[i] == '{') {
			if (++depth > PL_JSON_MAX_DEPTH) {
				*why = 1;
				return (long)i;
			}
		} else if ((text[i] == ']' || text[i] == '}') && depth > 0)
			depth--;
	}
	return -1;
}

cJSON *
pl_json_parse(const char *text, const char *file, struct pl_err *err)
{
	const char *end = NULL;
	cJSON *root;
	long bad;
	int line, col, why = 0;

	if ((bad = prescan(text, &why)) >= 0) {
		pl_json_position(text, (size_t)bad, &line, &col);
		if (why == 0)
			pl_err_set(err, file, line, col, "%s",
			    _("a string holds a NUL character (\\u0000)"));
		else
			pl_err_set(err, file, line, col,
			    _("too deeply nested (more than %d levels)"),
			    PL_JSON_MAX_DEPTH);
		return NULL;
	}
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (root != NULL)
		return root;
	if (end == NULL)
		end = text;
	pl_json_position(text, (size_t)(end - text), &line, &col);
	if (*end == '\0')
		pl_err_set(err, file, line, col, "%s",
		    _("unexpected end of file in JSON"));
	else
		pl_err_set(err, file, line, col, "%s",
		    _("JSON syntax error"));
	return NULL;
}

cJSON *
pl_json_load(const char *path, struct pl_err *err)
{
	char *text;
	cJSON *root;

	text = pl_read_file(path, NULL, err);
	if (text == NULL)
		return NULL;
	root = pl_json_parse(text, path, err);
	free(text);
	return root;
}

char *
pl_json_path_key(char *buf, size_t size, const char *parent, const char *key)
{
	if (parent == NULL || parent[0] == '\0')
		snprintf(buf, size, "%s", key);
	else
		snprintf(buf, size, "%s.%s", parent, key);
	return buf;
}

char *
pl_json_path_index(char *buf, size_t size, const char *parent, int index)
{
	snprintf(buf, size, "%s[%d]", parent != NULL ? parent : "", index);
	return buf;
}

static const cJSON *
field(const cJSON *obj, const char *key, int required, const char *file,
    const char *parent, struct pl_err *err, int *missing)
{
	const cJSON *item;
	char path[256];

	*missing = 0;
	item = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (item == NULL || cJSON_IsNull(item)) {
		*missing = 1;
		if (required)
			pl_err_set_path(err, file, pl_json_path_key(path,
			    sizeof path, parent, key), "%s",
			    _("required field is missing"));
	}
	return item;
}

static int
wrong_type(const char *key, const char *what, const char *file,
    const char *parent, struct pl_err *err)
{
	char path[256];

	pl_err_set_path(err, file, pl_json_path_key(path, sizeof path, parent,
	    key), _("must be %s"), what);
	return -1;
}

int
pl_json_string(const cJSON *obj, const char *key, int required,
    const char **out, const char *file, const char *parent,
    struct pl_err *err)
{
	const cJSON *item;
	int missing;

	item = field(obj, key, required, file, parent, err, &missing);
	if (missing)
		return required ? -1 : 0;
	if (!cJSON_IsString(item))
		return wrong_type(key, _("a string"), file, parent, err);
	*out = item->valuestring;
	return 0;
}

int
pl_json_number(const cJSON *obj, const char *key, int required, double lo,
    double hi, double *out, const char *file, const char *parent,
    struct pl_err *err)
{
	const cJSON *item;
	char path[256];
	int missing;

	item = field(obj, key, required, file, parent, err, &missing);
	if (missing)
		return required ? -1 : 0;
	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
		return wrong_type(key, _("a number"), file, parent, err);
	if (item->valuedouble < lo || item->valuedouble > hi) {
		pl_err_set_path(err, file, pl_json_path_key(path, sizeof path,
		    parent, key), _("must be between %g and %g"), lo, hi);
		return -1;
	}
	*out = item->valuedouble;
	return 0;
}

int
pl_json_int(const cJSON *obj, const char *key, int required, long lo,
    long hi, long *out, const char *file, const char *parent,
    struct pl_err *err)
{
	const cJSON *item;
	char path[256];
	int missing;
	double v;

	item = field(obj, key, required, file, parent, err, &missing);
	if (missing)
		return required ? -1 : 0;
	if (!cJSON_IsNumber(item))
		return wrong_type(key, _("an integer"), file, parent, err);
	v = item->valuedouble;
	if (!isfinite(v) || v != floor(v))
		return wrong_type(key, _("an integer"), file, parent, err);
	if (v < (double)lo || v > (double)hi) {
		pl_err_set_path(err, file, pl_json_path_key(path, sizeof path,
		    parent, key), _("must be between %ld and %ld"), lo, hi);
		return -1;
	}
	*out = (long)v;
	return 0;
}

int
pl_json_bool(const cJSON *obj, const char *key, int required, int *out,
    const char *file, const char *parent, struct pl_err *err)
{
	const cJSON *item;
	int missing;

	item = field(obj, key, required, file, parent, err, &missing);
	if (missing)
		return required ? -1 : 0;
	if (!cJSON_IsBool(item))
		return wrong_type(key, _("true or false"), file, parent, err);
	*out = cJSON_IsTrue(item) ? 1 : 0;
	return 0;
}
