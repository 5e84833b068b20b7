/*
 * scenario.c - parse a scenario's rules and grade a layout against them.
 *
 * Thresholds come from the lesson file (goal) or are fixed by the claim
 * words (10 % headroom, 10 % bubble, 15 % exposed communication). The
 * headroom claim measures free memory against the GPU's whole capacity,
 * (capacity - total) / capacity; "fits" uses the engine's usable memory
 * (capacity minus its reserve). "Best" is the fastest fitting layout of
 * cm_search over the start's model, cluster and batch. GB = 1e9 bytes.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "core/course/content.h"
#include "core/json.h"
#include "core/course/playground.h"
#include "core/course/scenario.h"

static const char *const check_names[SC_N_CLAIM_CHECKS] = {
	"fits", "headroom_ge_10pct", "tp_within_node", "bubble_le_10pct",
	"exposed_comm_le_15pct"
};

const char *
scenario_check_name(enum sc_claim_check c)
{
	return c < SC_N_CLAIM_CHECKS ? check_names[c] : "";
}

void
scenario_free(struct scenario *sc)
{
	int i;

	if (sc == NULL)
		return;
	for (i = 0; i < sc->n_claims; i++)
		free(sc->claims[i].text);
	memset(sc, 0, sizeof *sc);
}

static int
parse_locked(struct scenario *sc, const cJSON *b, const char *file,
    const char *path, struct pl_err *err)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(b, "locked"), *it;
	enum pg_knob k;
	char p[256], q[256];
	int i = 0;

	pl_json_path_key(p, sizeof p, path, "locked");
	if (arr == NULL) {
		pl_err_set_path(err, file, p, "%s", _("is missing: an incident "
		    "locks at least model, gpu, gpus and gpus_per_node"));
		return -1;
	}
	if (!cJSON_IsArray(arr)) {
		pl_err_set_path(err, file, p, "%s", _("must be an array of knob "
		    "names"));
		return -1;
	}
	cJSON_ArrayForEach(it, arr) {
		pl_json_path_index(q, sizeof q, p, i++);
		if (!cJSON_IsString(it) || pg_knob_parse(it->valuestring,
		    &k) != 0) {
			pl_err_set_path(err, file, q, "%s", _("must be a knob "
			    "name: model, gpu, gpus, gpus_per_node, seq, "
			    "global_batch, micro_batch, dp, tp, pp, zero, "
			    "recompute, seq_parallel, schedule, virtual_stages "
			    "or attention"));
			return -1;
		}
		sc->locked |= 1u << k;
	}
	/* The brief fixes the model and the cluster: a layout that changes
	 * them answers another incident. */
	if ((sc->locked & SC_LOCKED_ALWAYS) != SC_LOCKED_ALWAYS) {
		pl_err_set_path(err, file, p, "%s", _("must lock model, gpu, "
		    "gpus and gpus_per_node: the brief fixes the model and the "
		    "cluster"));
		return -1;
	}
	return 0;
}

/* The goal keys, their kinds and whether they are booleans. */
static const struct {
	const char		*key;
	enum sc_crit_kind	 kind;
	int			 is_bool;
	double			 lo, hi;
} goal_keys[] = {
	{ "fits", SC_FITS, 1, 0, 1 },
	{ "max_bubble", SC_MAX_BUBBLE, 0, 0, 1 },
	{ "min_tokens_share_of_start", SC_MIN_SHARE_START, 0, 0, 100 },
	{ "min_tokens_share_of_best", SC_MIN_SHARE_BEST, 0, 0, 1 },
	{ "max_step_s", SC_MAX_STEP, 0, 1e-9, 1e9 },
	{ "tp_within_node", SC_TP_NODE, 1, 0, 1 },
};
#define N_GOAL_KEYS	(sizeof goal_keys / sizeof goal_keys[0])

static int
parse_goal(struct scenario *sc, const cJSON *b, const char *file,
    const char *path, struct pl_err *err)
{
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(b, "goal"), *it;
	char p[256], q[256];
	double v;
	size_t i;
	int on;

	pl_json_path_key(p, sizeof p, path, "goal");
	if (!cJSON_IsObject(g)) {
		pl_err_set_path(err, file, p, "%s", _("must be an object "
		    "holding the success criteria"));
		return -1;
	}
	cJSON_ArrayForEach(it, g) {
		for (i = 0; i < N_GOAL_KEYS; i++)
			if (it->string != NULL &&
			    strcmp(it->string, goal_keys[i].key) == 0)
				break;
		if (i == N_GOAL_KEYS) {
			pl_err_set_path(err, file, pl_json_path_key(q, sizeof q,
			    p, it->string != NULL ? it->string : "?"), "%s",
			    _("unknown criterion: use fits, max_bubble, "
			    "min_tokens_share_of_start, min_tokens_share_of_best, "
			    "max_step_s or tp_within_node"));
			return -1;
		}
		on = 1;
		v = 1;
		if (goal_keys[i].is_bool ? pl_json_bool(g, it->string, 1, &on,
		    file, p, err) : pl_json_number(g, it->string, 1,
		    goal_keys[i].lo, goal_keys[i].hi, &v, file, p, err))
			return -1;
		if (!on || sc->n_goal >= SC_MAX_CRIT)
			continue;
		sc->goal[sc->n_goal].kind = goal_keys[i].kind;
		sc->goal[sc->n_goal++].target = v;
	}
	if (sc->n_goal == 0) {
		pl_err_set_path(err, file, p, "%s", _("must hold at least one "
		    "criterion"));
		return -1;
	}
	for (i = 0; i < (size_t)sc->n_goal; i++)
		if (sc->goal[i].kind == SC_MIN_SHARE_START)
			return 0;
	/* Without a floor against the start, a slower layout that meets
	 * the other criteria would pass. */
	pl_err_set_path(err, file, p, "%s", _("must hold "
	    "min_tokens_share_of_start, a throughput floor against the "
	    "starting layout"));
	return -1;
}

static int
parse_claim(struct sc_claim *c, const cJSON *o, const char *file,
    const char *p, struct pl_err *err)
{
	const char *id = NULL, *text = NULL, *check = NULL;
	char q[256];
	int k;

	if (!cJSON_IsObject(o)) {
		pl_err_set_path(err, file, p, "%s", _("must be an object"));
		return -1;
	}
	if (pl_json_string(o, "id", 1, &id, file, p, err) ||
	    pl_json_string(o, "text", 1, &text, file, p, err) ||
	    pl_json_string(o, "check", 1, &check, file, p, err))
		return -1;
	for (k = 0; k < SC_N_CLAIM_CHECKS; k++)
		if (strcmp(check, check_names[k]) == 0)
			break;
	if (k == SC_N_CLAIM_CHECKS) {
		pl_err_set_path(err, file, pl_json_path_key(q, sizeof q, p,
		    "check"), "%s", _("must be headroom_ge_10pct, "
		    "tp_within_node, bubble_le_10pct, exposed_comm_le_15pct or "
		    "fits"));
		return -1;
	}
	c->check = (enum sc_claim_check)k;
	snprintf(c->id, sizeof c->id, "%s", id);
	if ((c->text = content_sanitize(text, NULL)) == NULL) {
		pl_err_set_path(err, file, pl_json_path_key(q, sizeof q, p,
		    "text"), "%s", _("is not valid UTF-8"));
		return -1;
	}
	return 0;
}

static int
parse_claims(struct scenario *sc, const cJSON *b, const char *file,
    const char *path, struct pl_err *err)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(b, "claims"), *it;
	char p[256], q[256];

	if (arr == NULL)
		return 0;
	pl_json_path_key(p, sizeof p, path, "claims");
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > SC_MAX_CLAIMS) {
		pl_err_set_path(err, file, p, _("must be an array of at most %d "
		    "claims"), SC_MAX_CLAIMS);
		return -1;
	}
	cJSON_ArrayForEach(it, arr) {
		pl_json_path_index(q, sizeof q, p, sc->n_claims);
		if (parse_claim(&sc->claims[sc->n_claims], it, file, q,
		    err) != 0)
			return -1;
		sc->n_claims++;
	}
	return 0;
}

int
scenario_parse(struct scenario *sc, const cJSON *block, const char *file,
    const char *path, struct pl_err *err)
{
	memset(sc, 0, sizeof *sc);
	if (parse_locked(sc, block, file, path, err) != 0 ||
	    parse_goal(sc, block, file, path, err) != 0 ||
	    parse_claims(sc, block, file, path, err) != 0) {
		scenario_free(sc);
		return -1;
	}
	return 0;
}

int
scenario_start(const cJSON *block, const struct hw_catalog *cat,
    struct cm_config *cfg, const char *file, const char *path,
    struct pl_err *err)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(block, "start");
	char p[256];

	pl_json_path_key(p, sizeof p, path, "start");
	if (!cJSON_IsObject(st)) {
		pl_err_set_path(err, file, p, "%s", _("must be an object holding "
		    "an engine configuration"));
		return -1;
	}
	return cm_config_from_json(cfg, st, cat, file, p, err);
}

void
scenario_goal_text(const struct sc_goal_item *it, char *buf, size_t size)
{
	switch (it->kind) {
	case SC_FITS:
		snprintf(buf, size, "%s", _("fits in GPU memory"));
		break;
	case SC_MAX_BUBBLE:
		snprintf(buf, size, _("pipeline bubble at most %.1f%% of the "
		    "step"), 100 * it->target);
		break;
	case SC_MIN_SHARE_START:
		snprintf(buf, size, _("at least %.2f of the starting layout's "
		    "tokens/s"), it->target);
		break;
	case SC_MIN_SHARE_BEST:
		snprintf(buf, size, _("at least %.2f of the best layout's "
		    "tokens/s (ranked search)"), it->target);
		break;
	case SC_MAX_STEP:
		snprintf(buf, size, _("step time at most %.3f s"), it->target);
		break;
	default:
		snprintf(buf, size, "%s", _("every TP group inside one node"));
		break;
	}
}

#define GB(x)	((x) / 1e9)

static void
grade_crit(const struct sc_goal_item *it, const struct cm_result *r,
    const struct cm_result *start, const struct cm_search *best,
    struct sc_verdict *v)
{
	double b = best != NULL && best->n_top > 0 ?
	    best->top[0].tokens_per_s : 0;

	switch (it->kind) {
	case SC_FITS:
		v->measured = GB(r->mem_total);
		v->pass = r->fits;
		snprintf(v->text, sizeof v->text, _("fits: %.1f GB of %.1f GB "
		    "usable per GPU"), GB(r->mem_total), GB(r->mem_usable));
		break;
	case SC_MAX_BUBBLE:
		v->measured = r->bubble_fraction;
		v->pass = r->bubble_fraction <= it->target + 1e-12;
		snprintf(v->text, sizeof v->text, _("bubble %.1f%% of the step "
		    "(at most %.1f%%)"), 100 * v->measured, 100 * it->target);
		break;
	case SC_MIN_SHARE_START:
		v->measured = start->tokens_per_s > 0 ? r->tokens_per_s /
		    start->tokens_per_s : 0;
		v->pass = v->measured >= it->target - 1e-12;
		snprintf(v->text, sizeof v->text, _("%.0f tokens/s = %.2f of the "
		    "start's %.0f (at least %.2f)"), r->tokens_per_s,
		    v->measured, start->tokens_per_s, it->target);
		break;
	case SC_MIN_SHARE_BEST:
		v->measured = b > 0 ? r->tokens_per_s / b : 0;
		v->pass = b > 0 && v->measured >= it->target - 1e-12;
		snprintf(v->text, sizeof v->text, _("%.0f tokens/s = %.2f of the "
		    "best layout's %.0f (at least %.2f)"), r->tokens_per_s,
		    v->measured, b, it->target);
		break;
	case SC_MAX_STEP:
		v->measured = r->t_step;
		v->pass = r->t_step <= it->target;
		snprintf(v->text, sizeof v->text, _("step %.3f s (at most "
		    "%.3f s)"), r->t_step, it->target);
		break;
	default:
		v->measured = r->cfg.tp;
		v->pass = !r->tp_inter;
		snprintf(v->text, sizeof v->text, _("TP group of %d GPUs, nodes "
		    "of %d: %s"), r->cfg.tp, r->cfg.gpus_per_node, r->tp_inter ?
		    _("crosses nodes") : _("inside one node"));
		break;
	}
}

static void
grade_claim(const struct sc_claim *c, const struct cm_result *r,
    struct sc_verdict *v)
{
	double free_frac = r->mem_gpu > 0 ? (r->mem_gpu - r->mem_total) /
	    r->mem_gpu : 0;
	double comm = r->t_step > 0 ? r->t_exposed_comm / r->t_step : 0;

	switch (c->check) {
	case SC_CLAIM_FITS:
		v->measured = GB(r->mem_total);
		v->holds = r->fits;
		snprintf(v->text, sizeof v->text, _("%.1f GB of %.1f GB usable"),
		    GB(r->mem_total), GB(r->mem_usable));
		break;
	case SC_CLAIM_HEADROOM:
		v->measured = free_frac;
		v->holds = free_frac >= 0.10 - 1e-12;
		if (r->fits)
			snprintf(v->text, sizeof v->text, _("%.1f%% of %.1f GB "
			    "free"), 100 * free_frac, GB(r->mem_gpu));
		else	/* no free share to speak of */
			snprintf(v->text, sizeof v->text, _("needs %.1f GB more "
			    "than the %.1f GB usable"), GB(r->mem_total -
			    r->mem_usable), GB(r->mem_usable));
		break;
	case SC_CLAIM_TP_NODE:
		v->measured = r->cfg.tp;
		v->holds = !r->tp_inter;
		snprintf(v->text, sizeof v->text, _("TP %d in nodes of %d"),
		    r->cfg.tp, r->cfg.gpus_per_node);
		break;
	case SC_CLAIM_BUBBLE:
		v->measured = r->bubble_fraction;
		v->holds = r->bubble_fraction <= 0.10 + 1e-12;
		snprintf(v->text, sizeof v->text, _("bubble %.1f%%"),
		    100 * r->bubble_fraction);
		break;
	default:
		v->measured = comm;
		v->holds = comm <= 0.15 + 1e-12;
		snprintf(v->text, sizeof v->text, _("exposed communication "
		    "%.1f%% of the step"), 100 * comm);
		break;
	}
	/* Graded whether asserted or not: the defense must hold. */
	v->pass = v->holds && v->asserted;
}

/* A word counts when it has two or more bytes and a letter in it. */
static int
word_counts(const char *w, size_t n)
{
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		if (isalpha((unsigned char)w[i]) || (unsigned char)w[i] >= 0x80)
			return 1;
	return 0;
}

/* The word at w (n bytes) already appears, as a word, in text before w. */
static int
word_seen(const char *text, const char *w, size_t n)
{
	const char *p = text;
	size_t len;

	while (p < w) {
		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (p >= w)
			break;
		if (len == n && strncasecmp(p, w, n) == 0)
			return 1;
		p += len;
	}
	return 0;
}

int
scenario_count_words(const char *text)
{
	const char *p = text;
	size_t len;
	int n = 0;

	while (p != NULL && *p != '\0') {
		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (len > 0 && word_counts(p, len) && !word_seen(text, p, len))
			n++;
		p += len;
	}
	return n;
}

void
scenario_grade(const struct scenario *sc, const struct cm_result *r,
    const char *why, const struct cm_result *start,
    const struct cm_search *best, unsigned asserted, const char *tradeoff,
    struct sc_grade *g)
{
	int i;

	memset(g, 0, sizeof *g);
	g->valid = r != NULL && r->valid;
	g->n_crit = sc->n_goal;
	g->n_claims = sc->n_claims;
	g->rank = -1;
	g->listed = best != NULL ? best->n_top : 0;
	g->ranked = best != NULL ? best->eligible : 0;
	g->tradeoff_words = scenario_count_words(tradeoff);
	g->tradeoff_ok = sc->n_claims == 0 ||
	    g->tradeoff_words >= SC_TRADEOFF_WORDS;
	g->pass = g->valid && g->tradeoff_ok;
	for (i = 0; i < sc->n_claims; i++)
		g->claims[i].asserted = (asserted >> i) & 1u;
	if (!g->valid) {
		/* One line with the engine's reason, not one per criterion. */
		g->n_crit = 1;
		snprintf(g->crit[0].text, sizeof g->crit[0].text,
		    _("not a valid layout, so no goal was checked: %s"),
		    why != NULL ? why : "");
		return;
	}
	for (i = 0; i < sc->n_goal; i++) {
		grade_crit(&sc->goal[i], r, start, best, &g->crit[i]);
		g->pass = g->pass && g->crit[i].pass;
	}
	for (i = 0; i < sc->n_claims; i++) {
		grade_claim(&sc->claims[i], r, &g->claims[i]);
		g->pass = g->pass && g->claims[i].pass;
	}
	if (best != NULL && best->n_top > 0) {
		g->rank = pg_rank(best, r);
		g->share_best = r->tokens_per_s / best->top[0].tokens_per_s;
	}
	g->share_start = start != NULL && start->tokens_per_s > 0 ?
	    r->tokens_per_s / start->tokens_per_s : 0;
}
