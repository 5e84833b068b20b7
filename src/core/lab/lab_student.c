/*
 * lab_student.c - what a student's lab screen decides: which step it
 * shows as the host moves the lab (following the instructor), how far
 * the student may move on their own, and the scenario a step opens with
 * the room's cluster put into its start.
 */
#include <string.h>

#include "core/lab/lab.h"

enum lab_follow
lab_follow(const struct lab_state *was, const struct lab_state *now,
    size_t n_steps, int *view)
{
	if (now->n_steps < 1 || (size_t)now->n_steps != n_steps ||
	    now->step < 0 || now->step >= now->n_steps)
		return LAB_FOLLOW_NONE;
	if (strcmp(now->session, was->session) != 0) {
		*view = now->step;
		return LAB_FOLLOW_RESET;
	}
	if (now->step == was->step)
		return LAB_FOLLOW_NONE;
	/* Following the lab, or ahead of it after it went back. */
	if (*view == was->step || *view > now->step) {
		*view = now->step;
		return LAB_FOLLOW_STEP;
	}
	return LAB_FOLLOW_KEEP;
}

int
lab_view_move(const struct lab_state *st, int view, int delta)
{
	int v = view + delta;

	if (v > st->step)
		v = st->step;
	return v < 0 ? 0 : v;
}

/* Set key in obj to item, replacing it or adding it. 0 or -1. */
static int
put(cJSON *obj, const char *key, cJSON *item)
{
	if (item == NULL)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(obj, key) != NULL)
		return cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item) ?
		    0 : (cJSON_Delete(item), -1);
	return cJSON_AddItemToObject(obj, key, item) ? 0 :
	    (cJSON_Delete(item), -1);
}

static int
apply_override(cJSON *start, const struct lab_override *o)
{
	if (o->gpu != NULL && put(start, "gpu", cJSON_CreateString(o->gpu)))
		return -1;
	if (o->gpus > 0 && put(start, "gpus", cJSON_CreateNumber(o->gpus)))
		return -1;
	if (o->gpus_per_node > 0 && put(start, "gpus_per_node",
	    cJSON_CreateNumber(o->gpus_per_node)))
		return -1;
	if (o->intra_bw > 0 && put(start, "intra_bw",
	    cJSON_CreateNumber(o->intra_bw)))
		return -1;
	if (o->inter_bw > 0 && put(start, "inter_bw",
	    cJSON_CreateNumber(o->inter_bw)))
		return -1;
	return 0;
}

const struct content_scenario *
lab_step_scenario(const struct lab_step *ls, const struct content_drop *d,
    struct lab_scenario *out)
{
	const struct content_scenario *sc = NULL;
	cJSON *start;
	size_t i;

	memset(out, 0, sizeof *out);
	if (ls->scenario == NULL || d == NULL)
		return NULL;
	for (i = 0; i < d->n_blocks && sc == NULL; i++)
		if (d->blocks[i].kind == CONTENT_SCENARIO &&
		    strcmp(d->blocks[i].scenario.id, ls->scenario) == 0)
			sc = &d->blocks[i].scenario;
	if (sc == NULL || !ls->has_override ||
	    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(sc->raw, "start")))
		return sc;
	out->sc = *sc;
	out->sc.raw = cJSON_Duplicate(sc->raw, 1);
	out->owned = out->sc.raw != NULL;
	start = cJSON_GetObjectItemCaseSensitive(out->sc.raw, "start");
	if (start == NULL || apply_override(start, &ls->override) != 0) {
		lab_scenario_free(out);
		return NULL;
	}
	return &out->sc;
}

void
lab_scenario_free(struct lab_scenario *s)
{
	if (s->owned)
		cJSON_Delete(s->sc.raw);
	memset(s, 0, sizeof *s);
}
