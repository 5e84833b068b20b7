/*
 * jsonschema.c - validating a JSON document against the subset of JSON
 * Schema described in jsonschema.h. Recursive over the document; each call
 * knows the document's path for the message.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jsonschema.h"

struct ctx {
	const cJSON	*root;		/* for $ref */
	char		*err;
	size_t		 size;
	int		 depth;
};

static int
fail(struct ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->size, "%s: ", path[0] != '\0' ? path : "$");
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->size)
		vsnprintf(c->err + n, c->size - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *
kind(const cJSON *v)
{
	if (cJSON_IsObject(v))
		return "object";
	if (cJSON_IsArray(v))
		return "array";
	if (cJSON_IsString(v))
		return "string";
	if (cJSON_IsBool(v))
		return "boolean";
	if (cJSON_IsNull(v))
		return "null";
	return "number";
}

static int
is_type(const cJSON *v, const char *t)
{
	if (strcmp(t, "integer") == 0)
		return cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
		    floor(v->valuedouble) == v->valuedouble;
	return strcmp(t, kind(v)) == 0;
}

static int
type_ok(struct ctx *c, const cJSON *type, const cJSON *v, const char *path)
{
	const cJSON *t;

	if (cJSON_IsString(type))
		return is_type(v, type->valuestring) ? 0 : fail(c, path,
		    "is %s, not %s", kind(v), type->valuestring);
	if (!cJSON_IsArray(type))
		return fail(c, path, "schema: type must be a name or a list");
	cJSON_ArrayForEach(t, type)
		if (cJSON_IsString(t) && is_type(v, t->valuestring))
			return 0;
	return fail(c, path, "is %s, not one of the types allowed", kind(v));
}

static int validate(struct ctx *, const cJSON *schema, const cJSON *v,
    const char *path);

/* "#/$defs/NAME" in the root schema. */
static const cJSON *
resolve(struct ctx *c, const char *ref)
{
	const char *pre = "#/$defs/";

	if (strncmp(ref, pre, strlen(pre)) != 0)
		return NULL;
	return cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(c->root, "$defs"),
	    ref + strlen(pre));
}

static int
enum_ok(struct ctx *c, const cJSON *list, const cJSON *v, const char *path)
{
	const cJSON *e;
	char *text;

	if (!cJSON_IsArray(list))
		return fail(c, path, "schema: enum must be a list");
	cJSON_ArrayForEach(e, list)
		if (cJSON_Compare(e, v, 1))
			return 0;
	text = cJSON_PrintUnformatted(v);
	fail(c, path, "%s is not one of the values allowed",
	    text != NULL ? text : "the value");
	cJSON_free(text);
	return -1;
}

static int
object_ok(struct ctx *c, const cJSON *s, const cJSON *v, const char *path)
{
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required");
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
	const cJSON *extra = cJSON_GetObjectItemCaseSensitive(s,
	    "additionalProperties");
	const cJSON *k, *sub;
	char p[512];

	if (!cJSON_IsObject(v))
		return 0;
	cJSON_ArrayForEach(k, req)
		if (!cJSON_IsString(k) ||
		    cJSON_GetObjectItemCaseSensitive(v, k->valuestring) == NULL)
			return fail(c, path, "required member \"%s\" is missing",
			    cJSON_IsString(k) ? k->valuestring : "?");
	cJSON_ArrayForEach(k, v) {
		snprintf(p, sizeof p, "%s%s%s", path, path[0] ? "." : "",
		    k->string);
		sub = cJSON_GetObjectItemCaseSensitive(props, k->string);
		if (sub == NULL && cJSON_IsFalse(extra))
			return fail(c, p, "is not a member the schema allows");
		if (sub == NULL && cJSON_IsObject(extra))
			sub = extra;
		if (sub != NULL && validate(c, sub, k, p) != 0)
			return -1;
	}
	return 0;
}

static int
array_ok(struct ctx *c, const cJSON *s, const cJSON *v, const char *path)
{
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(s, "items");
	const cJSON *lo = cJSON_GetObjectItemCaseSensitive(s, "minItems");
	const cJSON *hi = cJSON_GetObjectItemCaseSensitive(s, "maxItems");
	const cJSON *e;
	char p[512];
	int i = 0, n;

	if (!cJSON_IsArray(v))
		return 0;
	n = cJSON_GetArraySize(v);
	if (cJSON_IsNumber(lo) && n < lo->valuedouble)
		return fail(c, path, "has %d items, fewer than %g", n,
		    lo->valuedouble);
	if (cJSON_IsNumber(hi) && n > hi->valuedouble)
		return fail(c, path, "has %d items, more than %g", n,
		    hi->valuedouble);
	cJSON_ArrayForEach(e, v) {
		snprintf(p, sizeof p, "%s[%d]", path, i++);
		if (items != NULL && validate(c, items, e, p) != 0)
			return -1;
	}
	return 0;
}

static int
number_ok(struct ctx *c, const cJSON *s, const cJSON *v, const char *path)
{
	const cJSON *lo = cJSON_GetObjectItemCaseSensitive(s, "minimum");
	const cJSON *hi = cJSON_GetObjectItemCaseSensitive(s, "maximum");

	if (!cJSON_IsNumber(v))
		return 0;
	if (cJSON_IsNumber(lo) && v->valuedouble < lo->valuedouble)
		return fail(c, path, "%g is less than the minimum %g",
		    v->valuedouble, lo->valuedouble);
	if (cJSON_IsNumber(hi) && v->valuedouble > hi->valuedouble)
		return fail(c, path, "%g is more than the maximum %g",
		    v->valuedouble, hi->valuedouble);
	return 0;
}

/* The keywords this validator knows; any other is the schema's error. */
static const char *const known[] = {
	"$schema", "$id", "$defs", "$ref", "title", "description", "type",
	"const", "enum", "required", "properties", "additionalProperties",
	"items", "minItems", "maxItems", "minimum", "maximum", NULL
};

static int
keywords_ok(struct ctx *c, const cJSON *s, const char *path)
{
	const cJSON *k;
	int i;

	cJSON_ArrayForEach(k, s) {
		for (i = 0; known[i] != NULL; i++)
			if (strcmp(k->string, known[i]) == 0)
				break;
		if (known[i] == NULL)
			return fail(c, path, "schema: keyword \"%s\" is not "
			    "supported", k->string);
	}
	return 0;
}

static int
validate(struct ctx *c, const cJSON *s, const cJSON *v, const char *path)
{
	const cJSON *ref, *type, *cst, *en;
	int rc;

	if (cJSON_IsTrue(s))
		return 0;
	if (!cJSON_IsObject(s))
		return fail(c, path, "schema: not an object");
	if (keywords_ok(c, s, path) != 0)
		return -1;
	if (++c->depth > 64)
		return fail(c, path, "schema: $ref nests too deep");
	rc = 0;
	ref = cJSON_GetObjectItemCaseSensitive(s, "$ref");
	if (cJSON_IsString(ref)) {
		const cJSON *target = resolve(c, ref->valuestring);

		rc = target != NULL ? validate(c, target, v, path) :
		    fail(c, path, "schema: no definition %s", ref->valuestring);
	}
	type = cJSON_GetObjectItemCaseSensitive(s, "type");
	if (rc == 0 && type != NULL)
		rc = type_ok(c, type, v, path);
	cst = cJSON_GetObjectItemCaseSensitive(s, "const");
	if (rc == 0 && cst != NULL && !cJSON_Compare(cst, v, 1))
		rc = fail(c, path, "is not the value the schema fixes");
	en = cJSON_GetObjectItemCaseSensitive(s, "enum");
	if (rc == 0 && en != NULL)
		rc = enum_ok(c, en, v, path);
	if (rc == 0)
		rc = object_ok(c, s, v, path);
	if (rc == 0)
		rc = array_ok(c, s, v, path);
	if (rc == 0)
		rc = number_ok(c, s, v, path);
	c->depth--;
	return rc;
}

int
jsonschema_validate(const cJSON *schema, const cJSON *doc, char *err,
    size_t size)
{
	struct ctx c = { schema, err, size, 0 };

	if (size > 0)
		err[0] = '\0';
	return validate(&c, schema, doc, "");
}
