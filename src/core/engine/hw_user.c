/*
 * hw_user.c - a user's own GPU, node and network (--hardware FILE).
 *
 * The file is one entry in data/gpus.json's form (same keys, same units),
 * or a gpus.json-like {"gpus": [...]} of which one entry is picked by
 * name. It is validated as the catalog is, and every problem is reported
 * at the file's line and column, the way content files are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "core/engine/hardware.h"
#include "core/json.h"
#include "core/jsonpos.h"

/* Entry of list named want, or the only entry; NULL with err set. */
static const cJSON *
pick(const cJSON *list, const char *want, const char *file, char *path,
    size_t size, struct pl_err *err)
{
	const cJSON *it, *nm;
	int i = 0, n = cJSON_GetArraySize(list);

	if (!cJSON_IsArray(list) || n == 0) {
		pl_err_set_path(err, file, "gpus", "%s",
		    _("must be a non-empty array"));
		return NULL;
	}
	cJSON_ArrayForEach(it, list) {
		pl_json_path_index(path, size, "gpus", i++);
		nm = cJSON_IsObject(it) ? cJSON_GetObjectItemCaseSensitive(it,
		    "name") : NULL;
		if (want == NULL ? n == 1 : (cJSON_IsString(nm) &&
		    strcmp(nm->valuestring, want) == 0))
			return it;
	}
	if (want == NULL)
		pl_err_set_path(err, file, "gpus", _("holds %d GPUs; name one "
		    "with --gpu"), n);
	else
		pl_err_set_path(err, file, "gpus", _("no GPU named \"%s\""),
		    want);
	return NULL;
}

int
hw_gpu_load_user(const char *file, const char *want, struct hw_gpu *g,
    struct pl_err *err)
{
	char path[256] = "", msg[sizeof err->msg];
	const cJSON *o;
	cJSON *root = NULL;
	char *text;
	int rc = -1;

	pl_err_clear(err);
	if ((text = pl_read_file(file, NULL, err)) == NULL)
		return -1;
	if ((root = pl_json_parse(text, file, err)) == NULL)
		goto out;
	o = root;
	if (cJSON_IsObject(root) &&
	    cJSON_GetObjectItemCaseSensitive(root, "gpus") != NULL)
		o = pick(cJSON_GetObjectItemCaseSensitive(root, "gpus"), want,
		    file, path, sizeof path, err);
	if (o == NULL)
		goto out;
	if (!cJSON_IsObject(o)) {
		pl_err_set_path(err, file, path, "%s", _("must be an object"));
		goto out;
	}
	if (hw_parse_gpu(o, g, file, path, err) != 0)
		goto out;
	if (want != NULL && strcmp(g->name, want) != 0) {
		pl_err_set_path(err, file, "name", _("is \"%s\", not \"%s\""),
		    g->name, want);
		goto out;
	}
	rc = 0;
out:
	if (rc != 0 && json_locate_err(text, err) && err->path[0] != '\0') {
		memcpy(msg, err->msg, sizeof msg);
		snprintf(err->msg, sizeof err->msg, "%.100s: %.400s", err->path,
		    msg);
	}
	cJSON_Delete(root);
	free(text);
	return rc;
}
