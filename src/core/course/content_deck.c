/*
 * content_deck.c - loading the flashcard decks under DIR/flashcards.
 *
 * Cards of all decks live in one array (course->cards) in deck order; each
 * deck records its slice. Card ids are unique across decks, and a card's
 * drop must be a loaded drop, because that drop unlocks it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/course/engine_fit.h"
#include "core/course/content_parse.h"
#include "core/json.h"

static void
card_clear(struct content_card *k)
{
	free(k->id);
	free(k->deck);
	free(k->drop);
	free(k->front);
	free(k->back);
	cJSON_Delete(k->engine);
	free(k->quantity);
}

struct id_at {
	const char	*id;
	size_t		 at;		/* index in c->cards */
};

static int
cmp_id_at(const void *a, const void *b)
{
	const struct id_at *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c != 0 ? c : x->at < y->at ? -1 : x->at > y->at;
}

/*
 * The first card in [base, n) whose id an earlier card has, or n. Sorting
 * keeps a deck of many thousand cards linearithmic, not quadratic.
 */
static size_t
first_repeat(const struct content_course *c, size_t base, size_t n)
{
	struct id_at *v = malloc((n + 1) * sizeof *v);
	size_t i, found = n;

	if (v == NULL)
		return n;
	for (i = 0; i < n; i++)
		v[i] = (struct id_at){ c->cards[i].id, i };
	qsort(v, n, sizeof *v, cmp_id_at);
	for (i = 1; i < n; i++)
		if (strcmp(v[i - 1].id, v[i].id) == 0 && v[i].at >= base &&
		    v[i].at < found)
			found = v[i].at;
	free(v);
	return found;
}

static int
parse_card(const cJSON *o, struct content_card *k, const char *path,
    const struct content_course *c, struct content_ctx *ctx)
{
	const cJSON *eng;

	if (!cJSON_IsObject(o)) {
		pl_err_set_path(ctx->err, ctx->file, path, "%s",
		    _("must be an object"));
		return -1;
	}
	if (content_take_string(o, "id", 1, path, ctx, &k->id) != 0 ||
	    content_take_string(o, "drop", 1, path, ctx, &k->drop) != 0 ||
	    content_take_string(o, "front", 1, path, ctx, &k->front) != 0 ||
	    content_take_string(o, "back", 1, path, ctx, &k->back) != 0 ||
	    content_take_string(o, "quantity", 0, path, ctx,
	    &k->quantity) != 0)
		return -1;
	if (!content_valid_id(k->id)) {
		pl_err_set_path(ctx->err, ctx->file, path, _("card id \"%s\" "
		    "is malformed or used by another card"), k->id);
		return -1;
	}
	if (content_find_drop(c, k->drop) == NULL) {
		pl_err_set_path(ctx->err, ctx->file, path,
		    _("card names drop \"%s\", which is not loaded"), k->drop);
		return -1;
	}
	eng = cJSON_GetObjectItemCaseSensitive(o, "engine");
	if ((eng != NULL) != (k->quantity != NULL) || (eng != NULL &&
	    (!cJSON_IsObject(eng) || !content_quantity_known(k->quantity)))) {
		pl_err_set_path(ctx->err, ctx->file, path, "%s",
		    _("a numeric card needs both an \"engine\" object and a known \"quantity\""));
		return -1;
	}
	if (engine_fit_take_expect(o, eng != NULL, ctx->file, path,
	    &k->expect_oom, ctx->err) != 0)
		return -1;
	if (eng != NULL)
		k->engine = cJSON_Duplicate(eng, 1);
	return 0;
}

/* Parse one deck file into new entries at the end of c->decks, c->cards. */
static int
parse_deck(const cJSON *root, struct content_course *c,
    struct content_ctx *ctx)
{
	struct content_deck dk;
	const cJSON *arr, *o;
	size_t i = 0, base = c->n_cards, n;
	char path[64];
	void *p;

	memset(&dk, 0, sizeof dk);
	if (content_take_string(root, "deck", 1, "", ctx, &dk.id) != 0 ||
	    content_take_string(root, "title", 1, "", ctx, &dk.title) != 0)
		goto fail;
	arr = cJSON_GetObjectItemCaseSensitive(root, "cards");
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1) {
		pl_err_set_path(ctx->err, ctx->file, "cards", "%s",
		    _("must be an array of at least one card"));
		goto fail;
	}
	n = (size_t)cJSON_GetArraySize(arr);
	p = realloc(c->cards, (base + n) * sizeof *c->cards);
	if (p == NULL)
		goto fail;
	c->cards = p;
	memset(c->cards + base, 0, n * sizeof *c->cards);
	cJSON_ArrayForEach(o, arr) {
		snprintf(path, sizeof path, "cards[%zu]", i);
		if (parse_card(o, &c->cards[base + i], path, c, ctx) != 0) {
			for (n = 0; n <= i; n++)
				card_clear(&c->cards[base + n]);
			goto fail;
		}
		c->cards[base + i].deck = content_strdup(dk.id);
		i++;
	}
	if ((n = first_repeat(c, base, base + i)) < base + i) {
		snprintf(path, sizeof path, "cards[%zu]", n - base);
		pl_err_set_path(ctx->err, ctx->file, path, _("card id \"%s\" "
		    "is malformed or used by another card"), c->cards[n].id);
		for (n = 0; n < i; n++)
			card_clear(&c->cards[base + n]);
		goto fail;
	}
	p = realloc(c->decks, (c->n_decks + 1) * sizeof *c->decks);
	if (p == NULL) {
		for (n = 0; n < i; n++)
			card_clear(&c->cards[base + n]);
		goto fail;
	}
	c->decks = p;
	dk.file = content_strdup(ctx->file);
	dk.first_card = base;
	dk.n_cards = i;
	c->decks[c->n_decks++] = dk;
	c->n_cards = base + i;
	return 0;
fail:
	free(dk.id);
	free(dk.title);
	return -1;
}

void
content_load_decks(struct content_course *c, const char *dir,
    struct content_problems *probs)
{
	char fdir[2048], path[4096];
	struct content_ctx ctx;
	struct pl_err err;
	char **files;
	cJSON *root;
	int n, i;

	snprintf(fdir, sizeof fdir, "%s/flashcards", dir);
	n = content_list_json(fdir, &files);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", fdir, files[i]);
		pl_err_clear(&err);
		ctx.file = path;
		ctx.err = &err;
		root = content_load_json(path, &err);
		if (root == NULL || parse_deck(root, c, &ctx) != 0)
			content_add_problem(probs, &err);
		cJSON_Delete(root);
	}
	content_free_names(files, n);
}

void
content_free_decks(struct content_course *c)
{
	size_t i;

	for (i = 0; i < c->n_cards; i++)
		card_clear(&c->cards[i]);
	free(c->cards);
	for (i = 0; i < c->n_decks; i++) {
		free(c->decks[i].id);
		free(c->decks[i].title);
		free(c->decks[i].file);
	}
	free(c->decks);
}
