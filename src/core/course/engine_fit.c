/*
 * engine_fit.c - every engine configuration in the course fits when it is
 * opened, unless its block says its premise is that it does not (issue
 * 25: drop 5's and drop 7's configurations said "does not fit" in the
 * playground while their text said nothing of it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/course/engine_fit.h"
#include "core/engine/costmodel.h"

int
engine_fit_take_expect(const cJSON *obj, int has_config, const char *file,
    const char *path, int *oom, struct pl_err *err)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(obj, "expect");
	char p[256];

	*oom = 0;
	if (e == NULL)
		return 0;
	pl_json_path_key(p, sizeof p, path, "expect");
	if (!has_config) {
		pl_err_set_path(err, file, p, "%s", _("only a block with an "
		    "engine configuration (\"engine\" or \"start\") says what "
		    "it expects"));
		return -1;
	}
	if (!cJSON_IsString(e) || (strcmp(e->valuestring, "oom") != 0 &&
	    strcmp(e->valuestring, "fits") != 0)) {
		pl_err_set_path(err, file, p, "%s", _("must be \"fits\" or "
		    "\"oom\""));
		return -1;
	}
	*oom = strcmp(e->valuestring, "oom") == 0;
	return 0;
}

size_t
engine_fit_each(const struct content_course *c,
    void (*fn)(const struct engine_fit_item *, void *), void *arg)
{
	struct engine_fit_item it;
	size_t i, j, n = 0;

	for (i = 0; i < c->n_drops; i++) {
		const struct content_drop *d = &c->drops[i];

		for (j = 0; j < d->n_blocks; j++) {
			const struct content_block *b = &d->blocks[j];

			it.file = d->file;
			if (b->kind == CONTENT_QUESTION &&
			    b->question.engine != NULL) {
				it.config = b->question.engine;
				it.expect_oom = b->question.expect_oom;
				snprintf(it.path, sizeof it.path,
				    "blocks[%zu].engine", j);
			} else if (b->kind == CONTENT_SCENARIO) {
				it.config = cJSON_GetObjectItemCaseSensitive(
				    b->scenario.raw, "start");
				it.expect_oom = b->scenario.expect_oom;
				snprintf(it.path, sizeof it.path,
				    "blocks[%zu].start", j);
			} else
				continue;
			fn(&it, arg);
			n++;
		}
	}
	for (i = 0; i < c->n_cards; i++) {
		const struct content_card *k = &c->cards[i];
		size_t x, at = i;

		if (k->engine == NULL)
			continue;
		it.file = "flashcards";
		for (x = 0; x < c->n_decks; x++)
			if (i >= c->decks[x].first_card && i <
			    c->decks[x].first_card + c->decks[x].n_cards) {
				it.file = c->decks[x].file;
				at = i - c->decks[x].first_card;
			}
		it.config = k->engine;
		it.expect_oom = k->expect_oom;
		snprintf(it.path, sizeof it.path, "cards[%zu].engine", at);
		fn(&it, arg);
		n++;
	}
	return n;
}

struct fit_run {
	const struct hw_catalog		*cat;
	struct content_problems		*probs;
	struct cm_result		*r;
	int				 bad;
};

static void
check_one(const struct engine_fit_item *it, void *arg)
{
	struct fit_run *fr = arg;
	struct cm_config cfg;
	struct pl_err err, e;

	if (cm_config_from_json(&cfg, it->config, fr->cat, it->file, it->path,
	    &err) != 0) {
		content_add_problem(fr->probs, &err);
		fr->bad++;
		return;
	}
	if (cm_evaluate(&cfg, fr->r, &e) != 0) {
		pl_err_set_path(&err, it->file, it->path, "%s", e.msg);
	} else if (!fr->r->fits && !it->expect_oom) {
		pl_err_set_path(&err, it->file, it->path, _("does not fit when "
		    "opened (%.1f GB of %.1f GB usable); mark the block "
		    "\"expect\": \"oom\" if that is its premise"),
		    fr->r->mem_total / 1e9, fr->r->mem_usable / 1e9);
	} else if (fr->r->fits && it->expect_oom) {
		pl_err_set_path(&err, it->file, it->path, _("is marked "
		    "\"expect\": \"oom\" but fits (%.1f GB of %.1f GB usable)"),
		    fr->r->mem_total / 1e9, fr->r->mem_usable / 1e9);
	} else
		return;
	content_add_problem(fr->probs, &err);
	fr->bad++;
}

int
engine_fit_check_course(const struct hw_catalog *cat,
    const struct content_course *c, struct content_problems *probs)
{
	struct fit_run fr = { cat, probs, NULL, 0 };

	if ((fr.r = malloc(sizeof *fr.r)) == NULL)
		return 0;
	engine_fit_each(c, check_one, &fr);
	free(fr.r);
	return fr.bad;
}
