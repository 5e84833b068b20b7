/*
 * content.c - loading the course: course.json, the drops, the decks.
 *
 * Layout on disk (lessons/README.md): DIR/lessons/course.json names the
 * phases; each DIR/lessons/<folder>/NAME.json is one drop; each
 * DIR/flashcards/NAME.json is one deck. Files are read in name order so the
 * result does not depend on the directory's order. A drop or deck that
 * fails validation is left out and reported; drops are then sorted by
 * their number.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "core/course/content_parse.h"
#include "core/json.h"

#define MAX_FILES	512

static void
problem(struct content_problems *probs, const struct pl_err *e)
{
	struct pl_err *n;

	if (probs == NULL)
		return;
	if (probs->n == probs->cap) {
		size_t cap = probs->cap == 0 ? 8 : probs->cap * 2;

		n = realloc(probs->items, cap * sizeof *n);
		if (n == NULL)
			return;
		probs->items = n;
		probs->cap = cap;
	}
	probs->items[probs->n++] = *e;
}

void
content_problems_free(struct content_problems *probs)
{
	if (probs == NULL)
		return;
	free(probs->items);
	memset(probs, 0, sizeof *probs);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Sorted, allocated list of names in dir matching want_dir (subdirectories)
 * or else *.json files. Returns the count, or -1 if dir cannot be opened.
 */
static int
list_dir(const char *dir, int want_dir, char ***out)
{
	DIR *d;
	struct dirent *de;
	struct stat st;
	char path[2048], **names;
	int n = 0;

	*out = NULL;
	d = opendir(dir);
	if (d == NULL)
		return -1;
	names = calloc(MAX_FILES, sizeof *names);
	if (names == NULL) {
		closedir(d);
		return -1;
	}
	while ((de = readdir(d)) != NULL && n < MAX_FILES) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (want_dir ? !S_ISDIR(st.st_mode) : (!S_ISREG(st.st_mode) ||
		    len < 6 || strcmp(de->d_name + len - 5, ".json") != 0))
			continue;
		names[n++] = content_strdup(de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	*out = names;
	return n;
}

static void
free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Load and parse path, refusing invalid UTF-8 with its line and column. */
static cJSON *
load_json(const char *path, struct pl_err *err)
{
	char *text, *clean;
	size_t bad = 0;
	cJSON *root;
	int line, col;

	text = pl_read_file(path, NULL, err);
	if (text == NULL)
		return NULL;
	clean = content_sanitize(text, &bad);
	if (clean == NULL) {
		pl_json_position(text, bad, &line, &col);
		pl_err_set(err, path, line, col, "%s",
		    _("invalid UTF-8 in file"));
		free(text);
		return NULL;
	}
	free(clean);
	root = pl_json_parse(text, path, err);
	free(text);
	if (root != NULL && !cJSON_IsObject(root)) {
		pl_err_set(err, path, 1, 1, "%s",
		    _("top level must be a JSON object"));
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

static void
drop_clear(struct content_drop *d)
{
	size_t i;

	free(d->id);
	free(d->title);
	free(d->summary);
	free(d->file);
	for (i = 0; i < d->n_blocks; i++)
		content_block_clear(&d->blocks[i]);
	free(d->blocks);
	memset(d, 0, sizeof *d);
}

/*
 * A drop's time is not read: core/course/duration.c estimates it from
 * the content. The "minutes" key older files carry is ignored.
 */
static int
parse_drop(const cJSON *root, struct content_drop *d,
    const struct content_course *c, struct content_ctx *ctx)
{
	long phase = 0, number = 0;

	if (content_take_string(root, "id", 1, "", ctx, &d->id) != 0 ||
	    pl_json_int(root, "phase", 1, 1, 99, &phase, ctx->file, "",
	    ctx->err) != 0 ||
	    pl_json_int(root, "number", 1, 1, 99, &number, ctx->file, "",
	    ctx->err) != 0 ||
	    content_take_string(root, "title", 1, "", ctx, &d->title) != 0 ||
	    content_take_string(root, "summary", 0, "", ctx,
	    &d->summary) != 0)
		return -1;
	if (!content_valid_id(d->id)) {
		pl_err_set_path(ctx->err, ctx->file, "id", "%s",
		    _("must be lowercase letters, digits and '-'"));
		return -1;
	}
	d->phase = (int)phase;
	d->number = (int)number;
	if (content_find_phase(c, d->phase) == NULL) {
		pl_err_set_path(ctx->err, ctx->file, "phase", "%s",
		    _("no such phase in course.json"));
		return -1;
	}
	return content_parse_blocks(cJSON_GetObjectItemCaseSensitive(root,
	    "blocks"), d, ctx);
}

/* Reject a drop whose id or number another loaded drop already has. */
static int
drop_duplicate(const struct content_course *c, const struct content_drop *d,
    struct pl_err *err)
{
	size_t i;

	for (i = 0; i < c->n_drops; i++) {
		if (strcmp(c->drops[i].id, d->id) == 0) {
			pl_err_set_path(err, d->file, "id",
			    _("drop id \"%s\" is already used by %s"), d->id,
			    c->drops[i].file);
			return 1;
		}
		if (c->drops[i].number == d->number) {
			pl_err_set_path(err, d->file, "number",
			    _("drop number %d is already used by %s"),
			    d->number, c->drops[i].file);
			return 1;
		}
	}
	return 0;
}

static void
load_drop_file(struct content_course *c, const char *path,
    struct content_problems *probs)
{
	struct content_drop d;
	struct content_ctx ctx;
	struct pl_err err;
	cJSON *root;
	void *n;

	memset(&d, 0, sizeof d);
	pl_err_clear(&err);
	ctx.file = path;
	ctx.err = &err;
	root = load_json(path, &err);
	if (root == NULL) {
		problem(probs, &err);
		return;
	}
	d.file = content_strdup(path);
	if (parse_drop(root, &d, c, &ctx) != 0 ||
	    drop_duplicate(c, &d, &err)) {
		problem(probs, &err);
		drop_clear(&d);
		cJSON_Delete(root);
		return;
	}
	cJSON_Delete(root);
	n = realloc(c->drops, (c->n_drops + 1) * sizeof *c->drops);
	if (n == NULL) {
		drop_clear(&d);
		return;
	}
	c->drops = n;
	c->drops[c->n_drops++] = d;
}

static int
parse_phases(const cJSON *root, struct content_course *c,
    struct content_ctx *ctx)
{
	const cJSON *arr, *p;
	char path[64];
	size_t i = 0;
	long num;

	arr = cJSON_GetObjectItemCaseSensitive(root, "phases");
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1) {
		pl_err_set_path(ctx->err, ctx->file, "phases", "%s",
		    _("must be an array of at least one phase"));
		return -1;
	}
	c->phases = calloc((size_t)cJSON_GetArraySize(arr), sizeof *c->phases);
	if (c->phases == NULL)
		return -1;
	cJSON_ArrayForEach(p, arr) {
		struct content_phase *ph = &c->phases[i];

		snprintf(path, sizeof path, "phases[%zu]", i);
		c->n_phases = i + 1;
		if (pl_json_int(p, "number", 1, 1, 99, &num, ctx->file, path,
		    ctx->err) != 0 ||
		    content_take_string(p, "title", 1, path, ctx,
		    &ph->title) != 0 ||
		    content_take_string(p, "goal", 0, path, ctx,
		    &ph->goal) != 0)
			return -1;
		ph->number = (int)num;
		if (num != (long)i + 1) {
			pl_err_set_path(ctx->err, ctx->file, path, "%s",
			    _("phases must be numbered 1, 2, 3 ... in order"));
			return -1;
		}
		i++;
	}
	return 0;
}

static int
load_course_file(struct content_course *c, const char *dir,
    struct content_problems *probs)
{
	struct content_ctx ctx;
	struct pl_err err;
	char path[2048];
	cJSON *root;
	int rc;

	pl_err_clear(&err);
	snprintf(path, sizeof path, "%s/lessons/course.json", dir);
	ctx.file = path;
	ctx.err = &err;
	root = load_json(path, &err);
	if (root == NULL) {
		problem(probs, &err);
		return -1;
	}
	rc = content_take_string(root, "title", 1, "", &ctx, &c->title);
	if (rc == 0)
		rc = parse_phases(root, c, &ctx);
	if (rc != 0)
		problem(probs, &err);
	cJSON_Delete(root);
	return rc;
}

static void
load_drops(struct content_course *c, const char *dir,
    struct content_problems *probs)
{
	char lessons[2048], sub[4096], path[8192];
	char **folders, **files;
	int nf, nj, i, j;

	snprintf(lessons, sizeof lessons, "%s/lessons", dir);
	nf = list_dir(lessons, 1, &folders);
	for (i = 0; i < nf; i++) {
		snprintf(sub, sizeof sub, "%s/%s", lessons, folders[i]);
		nj = list_dir(sub, 0, &files);
		for (j = 0; j < nj; j++) {
			snprintf(path, sizeof path, "%s/%s", sub, files[j]);
			load_drop_file(c, path, probs);
		}
		free_names(files, nj);
	}
	free_names(folders, nf);
}

/* The optional reference document: parsed as a drop, kept apart. */
static void
load_reference(struct content_course *c, const char *dir,
    struct content_problems *probs)
{
	struct content_ctx ctx;
	struct pl_err err;
	char path[2048];
	cJSON *root;
	struct stat st;

	snprintf(path, sizeof path, "%s/lessons/reference.json", dir);
	if (stat(path, &st) != 0)
		return;
	pl_err_clear(&err);
	ctx.file = path;
	ctx.err = &err;
	c->reference = calloc(1, sizeof *c->reference);
	if (c->reference == NULL)
		return;
	root = load_json(path, &err);
	c->reference->file = content_strdup(path);
	if (root == NULL || parse_drop(root, c->reference, c, &ctx) != 0) {
		problem(probs, &err);
		drop_clear(c->reference);
		free(c->reference);
		c->reference = NULL;
	}
	cJSON_Delete(root);
}

static int
cmp_drop(const void *a, const void *b)
{
	return ((const struct content_drop *)a)->number -
	    ((const struct content_drop *)b)->number;
}

struct content_course *
content_load(const char *dir, struct content_problems *probs)
{
	struct content_course *c;

	c = calloc(1, sizeof *c);
	if (c == NULL)
		return NULL;
	c->dir = content_strdup(dir);
	if (load_course_file(c, dir, probs) != 0) {
		content_free(c);
		return NULL;
	}
	load_drops(c, dir, probs);
	load_reference(c, dir, probs);
	if (c->n_drops > 1)
		qsort(c->drops, c->n_drops, sizeof *c->drops, cmp_drop);
	content_load_decks(c, dir, probs);
	return c;
}

void
content_free(struct content_course *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n_drops; i++)
		drop_clear(&c->drops[i]);
	free(c->drops);
	for (i = 0; i < c->n_phases; i++) {
		free(c->phases[i].title);
		free(c->phases[i].goal);
	}
	free(c->phases);
	content_free_decks(c);
	if (c->reference != NULL) {
		drop_clear(c->reference);
		free(c->reference);
	}
	free(c->title);
	free(c->dir);
	free(c);
}

const struct content_drop *
content_find_drop(const struct content_course *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->n_drops; i++)
		if (strcmp(c->drops[i].id, id) == 0)
			return &c->drops[i];
	return NULL;
}

const struct content_phase *
content_find_phase(const struct content_course *c, int number)
{
	size_t i;

	for (i = 0; i < c->n_phases; i++)
		if (c->phases[i].number == number)
			return &c->phases[i];
	return NULL;
}

size_t
content_phase_drops(const struct content_course *c, int phase, size_t *first)
{
	size_t i, n = 0;

	*first = c->n_drops;
	for (i = 0; i < c->n_drops; i++)
		if (c->drops[i].phase == phase) {
			if (n == 0)
				*first = i;
			n++;
		}
	return n;
}

/* Shared with content_deck.c. */
cJSON *
content_load_json(const char *path, struct pl_err *err)
{
	return load_json(path, err);
}

void
content_add_problem(struct content_problems *probs, const struct pl_err *e)
{
	problem(probs, e);
}

int
content_list_json(const char *dir, char ***names)
{
	return list_dir(dir, 0, names);
}

void
content_free_names(char **names, int n)
{
	free_names(names, n);
}
