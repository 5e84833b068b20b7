/*
 * answer.c - computing numeric answers with the cost model.
 */
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "core/course/answer.h"
#include "core/engine/costmodel.h"

int
answer_engine(const struct hw_catalog *cat, const cJSON *config,
    const char *quantity, const char *file, const char *path, double *out,
    struct pl_err *err)
{
	struct cm_config cfg;
	struct cm_result *r;
	struct pl_err e;
	int rc = -1;

	r = calloc(1, sizeof *r);
	if (r == NULL) {
		pl_err_set_path(err, file, path, "%s", _("out of memory"));
		return -1;
	}
	if (cm_config_from_json(&cfg, config, cat, file, path, err) != 0)
		goto out;
	if (cm_evaluate(&cfg, r, &e) != 0) {
		pl_err_set_path(err, file, path, "%s", e.msg);
		goto out;
	}
	if (cm_quantity(r, quantity, out) != 0) {
		pl_err_set_path(err, file, path, _("unknown quantity \"%s\""),
		    quantity);
		goto out;
	}
	rc = 0;
out:
	free(r);
	return rc;
}

int
answer_check_course(const struct hw_catalog *cat,
    const struct content_course *c, struct content_problems *probs)
{
	struct pl_err err;
	char path[64];
	double v;
	size_t i, j;
	int n = 0;

	for (i = 0; i < c->n_drops; i++) {
		const struct content_drop *d = &c->drops[i];

		for (j = 0; j < d->n_blocks; j++) {
			const struct content_question *q = &d->blocks[j].question;

			if (d->blocks[j].kind != CONTENT_QUESTION ||
			    q->type != CONTENT_Q_NUMERIC)
				continue;
			snprintf(path, sizeof path, "blocks[%zu].engine", j);
			if (answer_engine(cat, q->engine, q->quantity, d->file,
			    path, &v, &err) != 0)
				content_add_problem(probs, &err);
			else
				n++;
		}
	}
	for (i = 0; i < c->n_cards; i++) {
		const struct content_card *k = &c->cards[i];
		const struct content_deck *dk = NULL;
		size_t x;

		if (k->engine == NULL)
			continue;
		for (x = 0; x < c->n_decks; x++)
			if (i >= c->decks[x].first_card && i <
			    c->decks[x].first_card + c->decks[x].n_cards)
				dk = &c->decks[x];
		snprintf(path, sizeof path, "cards[%zu].engine",
		    dk != NULL ? i - dk->first_card : i);
		if (answer_engine(cat, k->engine, k->quantity, dk != NULL ?
		    dk->file : "", path, &v, &err) != 0)
			content_add_problem(probs, &err);
		else
			n++;
	}
	return n;
}
