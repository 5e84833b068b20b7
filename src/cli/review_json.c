/*
 * review_json.c - the review queue as JSON (review_json.h). The state
 * words are the contract's, never translated.
 */
#include <cjson/cJSON.h>

#include "cli/jsonout.h"
#include "cli/review_json.h"

static const char *const state_word[] = {
	"new", "learning", "review", "relearning"
};

static cJSON *
card_json(const struct store_card *k, const struct review_item *it)
{
	const struct fsrs_card *c = &it->card;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "id", k->id);
	cJSON_AddStringToObject(o, "deck", k->deck);
	cJSON_AddStringToObject(o, "state", state_word[c->state & 3]);
	cli_json_add_time(o, "due_unix_s", c->state == FSRS_NEW ? 0 : c->due);
	cli_json_add_time(o, "last_review_unix_s", c->last_review);
	cJSON_AddNumberToObject(o, "stability_days", c->stability);
	cJSON_AddNumberToObject(o, "difficulty", c->difficulty);
	cJSON_AddNumberToObject(o, "reps", c->reps);
	cJSON_AddNumberToObject(o, "lapses", c->lapses);
	cJSON_AddBoolToObject(o, "own", k->user);
	cJSON_AddStringToObject(o, "front", k->front);
	cJSON_AddStringToObject(o, "back", k->back);
	return o;
}

int
review_list_json(const struct store_review *r, int all, int64_t now)
{
	const struct review_queue *q = &r->queue;
	cJSON *doc = cli_json_doc(CLI_SCHEMA("review-list")), *o, *cards;
	size_t i, k;

	if (doc == NULL)
		return cli_json_emit(NULL);
	cJSON_AddNumberToObject(doc, "now_unix_s", (double)now);
	cJSON_AddBoolToObject(doc, "cram", r->cram);
	cJSON_AddBoolToObject(doc, "all", all);
	o = cJSON_AddObjectToObject(doc, "limits");
	cJSON_AddNumberToObject(o, "new_per_day", r->settings.new_per_day);
	cJSON_AddNumberToObject(o, "reviews_per_day",
	    r->settings.reviews_per_day);
	cJSON_AddNumberToObject(o, "rollover_hour", r->settings.rollover_hour);
	o = cJSON_AddObjectToObject(doc, "today");
	cJSON_AddNumberToObject(o, "new", q->n_new);
	cJSON_AddNumberToObject(o, "learning", q->n_learning);
	cJSON_AddNumberToObject(o, "review", q->n_review);
	cJSON_AddNumberToObject(o, "backlog", q->backlog);
	cJSON_AddNumberToObject(o, "backlog_days", q->backlog_days);
	cards = cJSON_AddArrayToObject(doc, "cards");
	for (i = 0; i < (all ? r->set.n : q->n); i++) {
		k = all ? i : q->order[i];
		cJSON_AddItemToArray(cards, card_json(&r->set.cards[k],
		    &r->set.items[k]));
	}
	return cli_json_emit(doc);
}
