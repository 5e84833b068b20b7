/*
 * content_block.c - parsing and validating the blocks of a drop.
 *
 * The block kinds and their fields are documented in lessons/README.md.
 * Every check names the JSON path of the offending field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/course/animation.h"
#include "core/course/engine_fit.h"
#include "core/course/content_parse.h"
#include "core/json.h"
#include "core/course/scenario.h"
#include "core/sim/sim_keys.h"

char *
content_strdup(const char *s)
{
	char *d;
	size_t n;

	if (s == NULL)
		return NULL;
	n = strlen(s) + 1;
	d = malloc(n);
	if (d != NULL)
		memcpy(d, s, n);
	return d;
}

int
content_valid_id(const char *s)
{
	if (s == NULL || *s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '-'))
			return 0;
	return 1;
}

int
content_take_string(const cJSON *obj, const char *key, int required,
    const char *path, struct content_ctx *ctx, char **out)
{
	const char *raw = NULL;
	char p[256];

	*out = NULL;
	if (pl_json_string(obj, key, required, &raw, ctx->file, path,
	    ctx->err) != 0)
		return -1;
	if (raw == NULL)
		return 0;
	if (required && raw[0] == '\0') {
		pl_err_set_path(ctx->err, ctx->file, pl_json_path_key(p,
		    sizeof p, path, key), "%s", _("must not be empty"));
		return -1;
	}
	*out = content_sanitize(raw, NULL);
	if (*out == NULL) {
		pl_err_set_path(ctx->err, ctx->file, pl_json_path_key(p,
		    sizeof p, path, key), "%s", _("is not valid UTF-8"));
		return -1;
	}
	return 0;
}

static int
fail(struct content_ctx *ctx, const char *path, const char *key,
    const char *msg)
{
	char p[256];

	pl_err_set_path(ctx->err, ctx->file, key != NULL ?
	    pl_json_path_key(p, sizeof p, path, key) : path, "%s", msg);
	return -1;
}

static int
parse_options(const cJSON *q, struct content_question *qu, const char *path,
    struct content_ctx *ctx)
{
	const cJSON *arr, *o;
	char p[256];
	size_t i = 0, correct = 0;

	arr = cJSON_GetObjectItemCaseSensitive(q, "options");
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 2)
		return fail(ctx, path, "options",
		    _("must be an array of at least two options"));
	qu->n_options = (size_t)cJSON_GetArraySize(arr);
	qu->options = calloc(qu->n_options, sizeof *qu->options);
	if (qu->options == NULL)
		return fail(ctx, path, NULL, _("out of memory"));
	cJSON_ArrayForEach(o, arr) {
		struct content_option *op = &qu->options[i];

		snprintf(p, sizeof p, "%s.options[%zu]", path, i);
		if (!cJSON_IsObject(o))
			return fail(ctx, p, NULL, _("must be an object"));
		if (content_take_string(o, "text", 1, p, ctx, &op->text) != 0 ||
		    content_take_string(o, "explain", 1, p, ctx,
		    &op->explain) != 0 ||
		    pl_json_bool(o, "correct", 1, &op->correct, ctx->file, p,
		    ctx->err) != 0)
			return -1;
		correct += op->correct ? 1 : 0;
		i++;
	}
	if (qu->type == CONTENT_Q_SINGLE && correct != 1)
		return fail(ctx, path, "options",
		    _("a single-choice question needs exactly one correct option"));
	if (qu->type == CONTENT_Q_MULTIPLE && correct < 1)
		return fail(ctx, path, "options",
		    _("a multiple-choice question needs at least one correct option"));
	return 0;
}

static int
parse_numeric(const cJSON *q, struct content_question *qu, const char *path,
    struct content_ctx *ctx)
{
	const cJSON *eng;

	if (cJSON_GetObjectItemCaseSensitive(q, "answer") != NULL)
		return fail(ctx, path, "answer",
		    _("numeric answers come from the engine: use \"engine\" and \"quantity\", not a typed answer"));
	eng = cJSON_GetObjectItemCaseSensitive(q, "engine");
	if (!cJSON_IsObject(eng))
		return fail(ctx, path, "engine",
		    _("must be an object holding an engine configuration"));
	if (content_take_string(q, "quantity", 1, path, ctx,
	    &qu->quantity) != 0)
		return -1;
	if (!content_quantity_known(qu->quantity))
		return fail(ctx, path, "quantity", _("unknown quantity"));
	qu->tolerance = 0.05;
	if (pl_json_number(q, "tolerance", 0, 0.0, 1.0, &qu->tolerance,
	    ctx->file, path, ctx->err) != 0)
		return -1;
	qu->engine = cJSON_Duplicate(eng, 1);
	/* The unit is always shown with the answer box (issue 14). */
	return content_take_string(q, "unit", 1, path, ctx, &qu->unit);
}

static int
parse_question(const cJSON *b, struct content_block *blk, const char *path,
    struct content_ctx *ctx)
{
	struct content_question *qu = &blk->question;
	char *type = NULL;
	int rc = -1;

	if (engine_fit_take_expect(b, cJSON_IsObject(
	    cJSON_GetObjectItemCaseSensitive(b, "engine")), ctx->file, path,
	    &qu->expect_oom, ctx->err) != 0)
		return -1;
	if (content_take_string(b, "id", 1, path, ctx, &qu->id) != 0 ||
	    content_take_string(b, "type", 1, path, ctx, &type) != 0 ||
	    content_take_string(b, "prompt", 1, path, ctx, &qu->prompt) != 0 ||
	    content_take_string(b, "explain", 0, path, ctx, &qu->explain) != 0)
		goto out;
	if (!content_valid_id(qu->id)) {
		fail(ctx, path, "id", _("must be lowercase letters, digits and '-'"));
		goto out;
	}
	if (strcmp(type, "single") == 0 || strcmp(type, "multiple") == 0) {
		qu->type = type[0] == 's' ? CONTENT_Q_SINGLE : CONTENT_Q_MULTIPLE;
		rc = parse_options(b, qu, path, ctx);
	} else if (strcmp(type, "numeric") == 0) {
		qu->type = CONTENT_Q_NUMERIC;
		rc = parse_numeric(b, qu, path, ctx);
	} else if (strcmp(type, "reveal") == 0) {
		qu->type = CONTENT_Q_REVEAL;
		rc = content_take_string(b, "answer", 1, path, ctx, &qu->answer);
	} else
		fail(ctx, path, "type",
		    _("must be single, multiple, numeric or reveal"));
out:
	free(type);
	return rc;
}

/* Every key of an animation block is one it knows: a misspelt setting
 * would otherwise play a different run than the caption describes. */
static int
check_animation_keys(const cJSON *b, const char *path,
    struct content_ctx *ctx)
{
	char keys[256], msg[320];
	const cJSON *it;

	cJSON_ArrayForEach(it, b)
		if (strcmp(it->string, "kind") != 0 &&
		    strcmp(it->string, "caption") != 0 &&
		    !animation_key_known(it->string)) {
			sim_keys_names(SIM_FOR_BLOCK, keys, sizeof keys);
			snprintf(msg, sizeof msg, _("is not an animation key "
			    "(%s, caption)"), keys);
			return fail(ctx, path, it->string, msg);
		}
	return 0;
}

/* A WORD setting (mode, schedule): the block's own copy of its text. */
static int
take_word(const cJSON *b, const struct sim_key *k, struct sim_request *req,
    const char *path, struct content_ctx *ctx)
{
	char *s;

	if (content_take_string(b, k->key, (k->uses & SIM_BLOCK_NEEDS) != 0,
	    path, ctx, &s) != 0)
		return -1;
	*(const char **)(void *)((char *)req + k->off) = s;
	return 0;
}

static int
check_word(const struct sim_key *k, const struct sim_request *req,
    const char *path, struct content_ctx *ctx)
{
	const char *s = *(const char *const *)(const void *)
	    ((const char *)req + k->off);
	char words[128], msg[192];

	if (s == NULL || sim_key_word_index(k, s) >= 0)
		return 0;
	snprintf(msg, sizeof msg, _("must be %s"), sim_key_words(k, NULL,
	    words, sizeof words));
	return fail(ctx, path, k->key, msg);
}

/*
 * The settings are the simulator's table's (core/sim/sim_keys.c): first
 * the words, then the caption, the words checked, the numbers and
 * switches; then the run they make together.
 */
static int
parse_animation(const cJSON *b, struct content_block *blk, const char *path,
    struct content_ctx *ctx)
{
	struct content_animation *an = &blk->animation;
	const struct sim_key *k;
	struct sim_config cfg;
	struct pl_err err;

	if (check_animation_keys(b, path, ctx) != 0)
		return -1;
	for (k = sim_keys(); k->key != NULL; k++)
		if ((k->uses & SIM_FOR_BLOCK) && k->kind == SIM_KEY_WORD &&
		    take_word(b, k, &an->req, path, ctx) != 0)
			return -1;
	if (content_take_string(b, "caption", 1, path, ctx,
	    &an->caption) != 0)
		return -1;
	for (k = sim_keys(); k->key != NULL; k++)
		if ((k->uses & SIM_FOR_BLOCK) && (k->kind == SIM_KEY_WORD ?
		    check_word(k, &an->req, path, ctx) : sim_key_from_json(k, b,
		    &an->req, ctx->file, path, ctx->err)) != 0)
			return -1;
	/* The settings together must be a run the toy can make. */
	if (animation_config(an, &cfg, &err) != 0)
		return fail(ctx, path, NULL, err.msg);
	return 0;
}

static int
parse_hints(const cJSON *b, struct content_scenario *sc, const char *path,
    struct content_ctx *ctx)
{
	const cJSON *arr, *h;
	char p[256];
	size_t i = 0;

	arr = cJSON_GetObjectItemCaseSensitive(b, "hints");
	if (arr == NULL)
		return 0;
	if (!cJSON_IsArray(arr))
		return fail(ctx, path, "hints", _("must be an array of strings"));
	sc->n_hints = (size_t)cJSON_GetArraySize(arr);
	sc->hints = calloc(sc->n_hints + 1, sizeof *sc->hints);
	if (sc->hints == NULL)
		return fail(ctx, path, NULL, _("out of memory"));
	cJSON_ArrayForEach(h, arr) {
		snprintf(p, sizeof p, "%s.hints[%zu]", path, i);
		if (!cJSON_IsString(h))
			return fail(ctx, p, NULL, _("must be a string"));
		sc->hints[i] = content_sanitize(h->valuestring, NULL);
		if (sc->hints[i] == NULL)
			return fail(ctx, p, NULL, _("is not valid UTF-8"));
		i++;
	}
	return 0;
}

static int
parse_scenario(const cJSON *b, struct content_block *blk, const char *path,
    struct content_ctx *ctx)
{
	struct content_scenario *sc = &blk->scenario;
	struct scenario rules;

	if (content_take_string(b, "id", 1, path, ctx, &sc->id) != 0 ||
	    content_take_string(b, "title", 1, path, ctx, &sc->title) != 0 ||
	    content_take_string(b, "brief", 1, path, ctx, &sc->brief) != 0 ||
	    content_take_string(b, "solution", 1, path, ctx,
	    &sc->solution) != 0)
		return -1;
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(b, "start")))
		return fail(ctx, path, "start",
		    _("must be an object holding an engine configuration"));
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(b, "goal")))
		return fail(ctx, path, "goal",
		    _("must be an object holding the success criteria"));
	if (parse_hints(b, sc, path, ctx) != 0 ||
	    engine_fit_take_expect(b, 1, ctx->file, path, &sc->expect_oom,
	    ctx->err) != 0)
		return -1;
	/* locked, goal and claims: the playground's own parser. */
	if (scenario_parse(&rules, b, ctx->file, path, ctx->err) != 0)
		return -1;
	scenario_free(&rules);
	sc->raw = cJSON_Duplicate(b, 1);
	return 0;
}

static int
parse_block(const cJSON *b, struct content_block *blk, const char *path,
    struct content_ctx *ctx)
{
	char *kind = NULL;
	int rc = -1;

	if (!cJSON_IsObject(b))
		return fail(ctx, path, NULL, _("must be an object"));
	if (content_take_string(b, "kind", 1, path, ctx, &kind) != 0)
		return -1;
	if (strcmp(kind, "text") == 0) {
		blk->kind = CONTENT_TEXT;
		rc = content_take_string(b, "title", 0, path, ctx, &blk->title);
		if (rc == 0)
			rc = content_take_string(b, "text", 1, path, ctx,
			    &blk->text);
	} else if (strcmp(kind, "question") == 0) {
		blk->kind = CONTENT_QUESTION;
		rc = parse_question(b, blk, path, ctx);
	} else if (strcmp(kind, "animation") == 0) {
		blk->kind = CONTENT_ANIMATION;
		rc = parse_animation(b, blk, path, ctx);
	} else if (strcmp(kind, "scenario") == 0) {
		blk->kind = CONTENT_SCENARIO;
		rc = parse_scenario(b, blk, path, ctx);
	} else
		fail(ctx, path, "kind",
		    _("must be text, question, animation or scenario"));
	if (rc == 0 && (blk->kind == CONTENT_TEXT ||
	    blk->kind == CONTENT_ANIMATION)) {
		int oom;

		rc = engine_fit_take_expect(b, 0, ctx->file, path, &oom,
		    ctx->err);
	}
	free(kind);
	return rc;
}

static int
check_unique_ids(struct content_drop *drop, struct content_ctx *ctx)
{
	size_t i, j;
	char p[64];

	for (i = 0; i < drop->n_blocks; i++) {
		const char *a = drop->blocks[i].kind == CONTENT_QUESTION ?
		    drop->blocks[i].question.id : NULL;

		if (a == NULL)
			continue;
		for (j = 0; j < i; j++)
			if (drop->blocks[j].kind == CONTENT_QUESTION &&
			    strcmp(drop->blocks[j].question.id, a) == 0) {
				snprintf(p, sizeof p, "blocks[%zu].id", i);
				return fail(ctx, p, NULL,
				    _("question id is used twice in this drop"));
			}
	}
	return 0;
}

int
content_parse_blocks(const cJSON *arr, struct content_drop *drop,
    struct content_ctx *ctx)
{
	const cJSON *b;
	char path[64];
	size_t i = 0;

	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1)
		return fail(ctx, "blocks", NULL,
		    _("must be an array of at least one block"));
	drop->blocks = calloc((size_t)cJSON_GetArraySize(arr),
	    sizeof *drop->blocks);
	if (drop->blocks == NULL)
		return fail(ctx, "blocks", NULL, _("out of memory"));
	cJSON_ArrayForEach(b, arr) {
		snprintf(path, sizeof path, "blocks[%zu]", i);
		drop->n_blocks = i + 1;
		if (parse_block(b, &drop->blocks[i], path, ctx) != 0)
			return -1;
		i++;
	}
	return check_unique_ids(drop, ctx);
}

void
content_block_clear(struct content_block *b)
{
	const struct sim_key *k;
	size_t i;

	free(b->title);
	free(b->text);
	free(b->question.id);
	free(b->question.prompt);
	free(b->question.explain);
	for (i = 0; i < b->question.n_options; i++) {
		free(b->question.options[i].text);
		free(b->question.options[i].explain);
	}
	free(b->question.options);
	free(b->question.answer);
	cJSON_Delete(b->question.engine);
	free(b->question.quantity);
	free(b->question.unit);
	for (k = sim_keys(); k->key != NULL; k++)
		if (k->kind == SIM_KEY_WORD)
			free(*(char **)(void *)((char *)&b->animation.req +
			    k->off));
	free(b->animation.caption);
	free(b->scenario.id);
	free(b->scenario.title);
	free(b->scenario.brief);
	cJSON_Delete(b->scenario.raw);
	for (i = 0; i < b->scenario.n_hints; i++)
		free(b->scenario.hints[i]);
	free(b->scenario.hints);
	free(b->scenario.solution);
}
