/*
 * jsonout.c - printing the JSON documents of the subcommands (jsonout.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "cli/jsonout.h"
#include "cli/output.h"
#include "cli/usage.h"

cJSON *
cli_json_doc(const char *schema)
{
	cJSON *o = cJSON_CreateObject();

	if (o != NULL && cJSON_AddStringToObject(o, "schema", schema) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *
cli_json_wrap(const char *schema, cJSON *obj)
{
	cJSON *doc = obj != NULL ? cli_json_doc(schema) : NULL, *m;

	if (doc == NULL) {
		cJSON_Delete(obj);
		return NULL;
	}
	while ((m = obj->child) != NULL) {
		cJSON_DetachItemViaPointer(obj, m);
		cJSON_AddItemToObject(doc, m->string, m);
	}
	cJSON_Delete(obj);
	return doc;
}

int
cli_json_emit(cJSON *doc)
{
	char *text = doc != NULL ? cJSON_Print(doc) : NULL;
	int rc;

	cJSON_Delete(doc);
	if (text == NULL) {
		cli_error("%s", _("out of memory"));
		return 2;
	}
	/* Larger than stdio's buffer: a failed write is told as it
	 * happens, with its reason. */
	rc = cli_write_text(NULL, text);
	free(text);
	return rc;
}

void
cli_json_add_time(cJSON *o, const char *name, long long t)
{
	if (t == 0)
		cJSON_AddNullToObject(o, name);
	else
		cJSON_AddNumberToObject(o, name, (double)t);
}
