/*
 * jsonout.h - the JSON documents the subcommands print, one contract:
 *
 * Every document is an object whose first member is "schema":
 * "parlearn.KIND/VERSION" (parlearn.plan/1, parlearn.list/1, ...). A JSON
 * Schema for each kind is installed as $(pkgdatadir)/schema/KIND.json and
 * tests/check_schemas validates every command's output against it. Names
 * carry their unit: _s (seconds; _unix_s for a time since 1970), _bytes,
 * _gb (1e9 bytes), _per_s, _days; a share from 0 to 1 is a _fraction or
 * says so in the schema. Words a script matches on (statuses, reason
 * codes) are never translated; "text" members are.
 *
 * A change that renames or removes a member, or changes its meaning, is
 * a new VERSION; adding a member is not.
 */
#ifndef PARLEARN_CLI_JSONOUT_H
#define PARLEARN_CLI_JSONOUT_H

#include <cjson/cJSON.h>

/* The schema name of kind: "parlearn.KIND/1". */
#define CLI_SCHEMA(kind)	"parlearn." kind "/1"

/* A new object holding only "schema": CLI_SCHEMA(kind), or NULL. */
cJSON	*cli_json_doc(const char *schema);

/*
 * A document of schema holding obj's members after its "schema" (obj is
 * emptied and freed), for a core function's JSON. NULL without memory
 * (obj freed too).
 */
cJSON	*cli_json_wrap(const char *schema, cJSON *obj);

/*
 * Print doc on stdout with a final newline and free it. 0, or 2 when doc
 * is NULL (out of memory) after saying so.
 */
int	cli_json_emit(cJSON *doc);

/* Add a Unix time in seconds, or null when t is 0 (never). */
void	cli_json_add_time(cJSON *o, const char *name, long long t);

#endif
