/*
 * jsonschema.h - a JSON Schema validator for the subset parlearn's schemas
 * (schema/KIND.json) use, so that the tests need no Python.
 *
 * Keywords: type (a name or a list of names; "integer" is a number with no
 * fraction), const, enum, required, properties, additionalProperties
 * (false, or a schema for the members properties does not name), items,
 * minItems, maxItems, minimum, maximum, $ref to "#/$defs/NAME", and the
 * annotations $schema, $id, $defs, title and description. Any other
 * keyword is an error in the schema, never silently ignored: a schema
 * cannot promise more than this checks.
 */
#ifndef PARLEARN_TESTS_JSONSCHEMA_H
#define PARLEARN_TESTS_JSONSCHEMA_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * 0 if doc satisfies schema; -1 with err set to "PATH: what is wrong"
 * (PATH like "candidates[2].layout.dp", "$" for the root) at the first
 * failure, or to the schema's own fault.
 */
int	jsonschema_validate(const cJSON *schema, const cJSON *doc, char *err,
	    size_t size);

#endif
