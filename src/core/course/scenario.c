/*
 * scenario.c - parse a scenario's rules and grade a layout against them.
 *
 * Thresholds come from the lesson file (goal) or are fixed by the claim
 * words (10 % headroom, 10 % bubble, 15 % exposed communication). The
 * headroom claim measures free memory against the GPU's whole capacity,
 * (capacity - total) / capacity; "fits" uses the engine's usable memory
 * (capacity minus its reserve). "Best" is the fastest fitting layout of
 * cm_search over the start's model, cluster and batch. GB = 1e9 bytes.
 * The comparative claims (more free memory, less exposed communication,
 * a smaller bubble than the runner-up) are strict: a tie does not hold,
 * and measured on the runner-up itself they never do.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "core/course/content.h"
#include "core/json.h"
#include "core/number.h"
#include "core/course/playground.h"
#include "core/course/scenario.h"
#include "core/safetext.h"

static const char *const check_names[SC_N_CLAIM_CHECKS] = {
	"fits", "headroom_ge_10pct", "tp_within_node", "bubble_le_10pct",
	"exposed_comm_le_15pct", "more_free_than_runner_up",
	"less_exposed_comm_than_runner_up", "smaller_bubble_than_runner_up"
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
	free(sc->diagnosis.prompt);
	for (i = 0; i < sc->diagnosis.n_options; i++) {
		free(sc->diagnosis.options[i].text);
		free(sc->diagnosis.options[i].explain);
	}
	free(sc->prediction.prompt);
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
		    "tp_within_node, bubble_le_10pct, exposed_comm_le_15pct, "
		    "fits, more_free_than_runner_up, "
		    "less_exposed_comm_than_runner_up or "
		    "smaller_bubble_than_runner_up"));
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

/* A required string of o, sanitised into *out. */
static int
take_text(const cJSON *o, const char *key, char **out, const char *file,
    const char *p, struct pl_err *err)
{
	const char *v;
	char q[256];

	if (pl_json_string(o, key, 1, &v, file, p, err))
		return -1;
	if ((*out = content_sanitize(v, NULL)) == NULL) {
		pl_err_set_path(err, file, pl_json_path_key(q, sizeof q, p,
		    key), "%s", _("is not valid UTF-8"));
		return -1;
	}
	return 0;
}

static int
parse_option(struct sc_option *o, const cJSON *j, const char *file,
    const char *p, struct pl_err *err)
{
	if (!cJSON_IsObject(j)) {
		pl_err_set_path(err, file, p, "%s", _("must be an object with "
		    "text, correct and explain"));
		return -1;
	}
	if (take_text(j, "text", &o->text, file, p, err) ||
	    pl_json_bool(j, "correct", 1, &o->correct, file, p, err) ||
	    take_text(j, "explain", &o->explain, file, p, err))
		return -1;
	return 0;
}

static int
parse_diagnosis(struct sc_diagnosis *d, const cJSON *b, const char *file,
    const char *path, struct pl_err *err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(b, "diagnosis"),
	    *arr, *it;
	char p[256], q[256], r[256], c[300];
	int n, right = 0;

	pl_json_path_key(p, sizeof p, path, "diagnosis");
	if (!cJSON_IsObject(o)) {
		pl_err_set_path(err, file, p, "%s", _("must be an object with "
		    "a prompt and 3 to 5 options: every incident asks for the "
		    "cause before a fix is checked"));
		return -1;
	}
	if (take_text(o, "prompt", &d->prompt, file, p, err))
		return -1;
	arr = cJSON_GetObjectItemCaseSensitive(o, "options");
	pl_json_path_key(q, sizeof q, p, "options");
	n = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	if (n < SC_MIN_OPTIONS || n > SC_MAX_OPTIONS) {
		pl_err_set_path(err, file, q, _("must be an array of %d to %d "
		    "options"), SC_MIN_OPTIONS, SC_MAX_OPTIONS);
		return -1;
	}
	cJSON_ArrayForEach(it, arr) {
		pl_json_path_index(r, sizeof r, q, d->n_options);
		if (parse_option(&d->options[d->n_options++], it, file, r,
		    err) != 0)
			return -1;
		if (d->options[d->n_options - 1].correct) {
			if (right++ > 0) {
				pl_err_set_path(err, file, pl_json_path_key(c,
				    sizeof c, r, "correct"), "%s", _("is the "
				    "second correct option: a diagnosis has "
				    "exactly one"));
				return -1;
			}
			d->right = d->n_options - 1;
		}
	}
	if (right == 0) {
		pl_err_set_path(err, file, q, "%s", _("has no correct option: a "
		    "diagnosis has exactly one"));
		return -1;
	}
	return 0;
}

static int
parse_prediction(struct sc_prediction *pr, const cJSON *b,
    const char *file, const char *path, struct pl_err *err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(b, "prediction");
	const char *qty, *unit;
	const char *const *names;
	char p[256], q[256];
	size_t i;

	pl_json_path_key(p, sizeof p, path, "prediction");
	if (!cJSON_IsObject(o)) {
		pl_err_set_path(err, file, p, "%s", _("must be an object with "
		    "prompt, quantity, unit and tolerance: every incident asks "
		    "for the fix's effect before it is checked"));
		return -1;
	}
	if (take_text(o, "prompt", &pr->prompt, file, p, err) ||
	    pl_json_string(o, "quantity", 1, &qty, file, p, err) ||
	    pl_json_string(o, "unit", 1, &unit, file, p, err) ||
	    pl_json_number(o, "tolerance", 1, 1e-3, 1, &pr->tolerance, file,
	    p, err))
		return -1;
	names = cm_quantity_names();
	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], qty) == 0)
			break;
	if (names[i] == NULL || strlen(qty) >= sizeof pr->quantity) {
		pl_err_set_path(err, file, pl_json_path_key(q, sizeof q, p,
		    "quantity"), _("unknown quantity \"%s\""), qty);
		return -1;
	}
	snprintf(pr->quantity, sizeof pr->quantity, "%s", qty);
	snprintf(pr->unit, sizeof pr->unit, "%s", unit);
	pr->fraction = strcmp(qty, "bubble_fraction") == 0 ||
	    strcmp(qty, "mfu") == 0;
	return 0;
}

int
scenario_parse(struct scenario *sc, const cJSON *block, const char *file,
    const char *path, struct pl_err *err)
{
	memset(sc, 0, sizeof *sc);
	if (parse_locked(sc, block, file, path, err) != 0 ||
	    parse_goal(sc, block, file, path, err) != 0 ||
	    parse_claims(sc, block, file, path, err) != 0 ||
	    parse_diagnosis(&sc->diagnosis, block, file, path, err) != 0 ||
	    parse_prediction(&sc->prediction, block, file, path, err) != 0) {
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

/* Share of the card's whole capacity left free. */
static double
free_share(const struct cm_result *r)
{
	return r->mem_gpu > 0 ? (r->mem_gpu - r->mem_total) / r->mem_gpu : 0;
}

static double
comm_share(const struct cm_result *r)
{
	return r->t_step > 0 ? r->t_exposed_comm / r->t_step : 0;
}

/*
 * Whether claim c holds for r, against the runner-up u (comparative
 * claims; false without one), and its line when text is not NULL.
 */
static int
claim_holds(const struct sc_claim *c, const struct cm_result *r,
    const struct cm_result *u, char *text, size_t size, double *measured)
{
	double fr = free_share(r), comm = comm_share(r), m = 0;
	char buf[SC_TEXT_LEN];
	int h;

	switch (c->check) {
	case SC_CLAIM_FITS:
		m = GB(r->mem_total);
		h = r->fits;
		snprintf(buf, sizeof buf, _("%.1f GB of %.1f GB usable"),
		    GB(r->mem_total), GB(r->mem_usable));
		break;
	case SC_CLAIM_HEADROOM:
		m = fr;
		h = fr >= 0.10 - 1e-12;
		if (r->fits)
			snprintf(buf, sizeof buf, _("%.1f%% of %.1f GB free"),
			    100 * fr, GB(r->mem_gpu));
		else	/* no free share to speak of */
			snprintf(buf, sizeof buf, _("needs %.1f GB more than "
			    "the %.1f GB usable"), GB(r->mem_total -
			    r->mem_usable), GB(r->mem_usable));
		break;
	case SC_CLAIM_TP_NODE:
		m = r->cfg.tp;
		h = !r->tp_inter;
		snprintf(buf, sizeof buf, _("TP %d in nodes of %d"),
		    r->cfg.tp, r->cfg.gpus_per_node);
		break;
	case SC_CLAIM_BUBBLE:
		m = r->bubble_fraction;
		h = r->bubble_fraction <= 0.10 + 1e-12;
		snprintf(buf, sizeof buf, _("bubble %.1f%%"),
		    100 * r->bubble_fraction);
		break;
	case SC_CLAIM_COMM:
		m = comm;
		h = comm <= 0.15 + 1e-12;
		snprintf(buf, sizeof buf, _("exposed communication %.1f%% of "
		    "the step"), 100 * comm);
		break;
	case SC_CLAIM_MORE_FREE:
		m = fr;
		h = u != NULL && tradeoff_worse(u, r, TO_FREE);
		snprintf(buf, sizeof buf, _("%.1f GB free, the runner-up "
		    "%.1f GB"), GB(r->mem_gpu - r->mem_total), u != NULL ?
		    GB(u->mem_gpu - u->mem_total) : 0);
		break;
	case SC_CLAIM_LESS_COMM:
		m = comm;
		h = u != NULL && tradeoff_worse(u, r, TO_COMM);
		snprintf(buf, sizeof buf, _("exposed communication %.3f s, "
		    "the runner-up %.3f s"), r->t_exposed_comm, u != NULL ?
		    u->t_exposed_comm : 0);
		break;
	default:
		m = r->bubble_fraction;
		h = u != NULL && tradeoff_worse(u, r, TO_BUBBLE);
		snprintf(buf, sizeof buf, _("bubble %.1f%%, the runner-up "
		    "%.1f%%"), 100 * r->bubble_fraction, u != NULL ?
		    100 * u->bubble_fraction : 0);
		break;
	}
	if (text != NULL)
		snprintf(text, size, "%s", buf);
	if (measured != NULL)
		*measured = m;
	return h;
}

/*
 * Claims of a defense: each measured on r and on the runner-up u. An
 * asserted false claim fails; one asserted claim must hold on r and not
 * on u.
 */
static void
grade_claims(const struct scenario *sc, const struct cm_result *r,
    const struct cm_result *u, unsigned asserted, struct sc_grade *g)
{
	int i, false_claim = 0;

	g->distinguishing = -1;
	for (i = 0; i < sc->n_claims; i++) {
		struct sc_verdict *v = &g->claims[i];

		v->asserted = (asserted >> i) & 1u;
		v->holds = claim_holds(&sc->claims[i], r, u, v->text,
		    sizeof v->text, &v->measured);
		v->holds_runner = u != NULL && claim_holds(&sc->claims[i], u,
		    u, NULL, 0, NULL);
		v->pass = !v->asserted || v->holds;
		false_claim |= !v->pass;
		if (v->asserted && v->holds && !v->holds_runner &&
		    g->distinguishing < 0)
			g->distinguishing = i;
	}
	g->claims_ok = !false_claim && g->distinguishing >= 0;
}

int
scenario_runner_up(const struct cm_search *s, const struct cm_result *r)
{
	unsigned all = (1u << PG_N_KNOBS) - 1;
	int i;

	if (s == NULL || s->n_top == 0)
		return -1;
	for (i = 0; i < s->n_top; i++)
		if (pg_same_knobs(&s->top[i].cfg, &r->cfg, all))
			break;
	if (i == s->n_top)
		return 0;
	if (i == 0)
		return s->n_top > 1 ? 1 : -1;
	return i - 1;
}

int
scenario_parse_prediction(const struct scenario *sc, const char *text,
    double *out)
{
	return pl_parse_double(text, PL_NUM_LOCALE | PL_NUM_RATIO |
	    (sc->prediction.fraction ? PL_NUM_FRACTION : 0), out);
}

int
scenario_prediction_within(const struct scenario *sc, double v,
    double want)
{
	return fabs(v - want) <= sc->prediction.tolerance * fabs(want) +
	    1e-12;
}

/* The prediction against the engine's figure for r. */
static void
grade_prediction(const struct scenario *sc, const struct cm_result *r,
    const struct sc_attempt *a, struct sc_verdict *v)
{
	const struct sc_prediction *p = &sc->prediction;
	const char *sp = p->unit[0] != '\0' ? " " : "";
	double want = 0;

	if (cm_quantity(r, p->quantity, &want) != 0)
		want = 0;
	v->measured = want;
	v->asserted = a->predicted;
	v->pass = a->predicted && scenario_prediction_within(sc,
	    a->prediction, want);
	if (!a->predicted)
		snprintf(v->text, sizeof v->text, "%s", _("prediction: none "
		    "typed (press p)"));
	else if (v->pass || a->reveal)
		snprintf(v->text, sizeof v->text, _("prediction: %g%s%s, the "
		    "engine %.4g%s%s (within %.0f%%: %s)"), a->prediction, sp,
		    p->unit, want, sp, p->unit, 100 * p->tolerance, v->pass ?
		    _("yes") : _("no"));
	else	/* neither size nor direction until it is earned */
		snprintf(v->text, sizeof v->text, _("prediction: %g%s%s is off "
		    "by more than %.0f%%"), a->prediction, sp, p->unit,
		    100 * p->tolerance);
}

void
scenario_grade(const struct scenario *sc, const struct cm_result *r,
    const char *why, const struct cm_result *start,
    const struct cm_search *best, const struct sc_attempt *a,
    struct sc_grade *g)
{
	const struct cm_result *u = NULL;
	int i;

	memset(g, 0, sizeof *g);
	g->valid = r != NULL && r->valid;
	g->n_crit = sc->n_goal;
	g->n_claims = sc->n_claims;
	g->rank = -1;
	g->runner = -1;
	g->distinguishing = -1;
	g->listed = best != NULL ? best->n_top : 0;
	g->ranked = best != NULL ? best->eligible : 0;
	g->diagnosis_ok = a->diagnosis >= 0 && a->diagnosis ==
	    sc->diagnosis.right;
	g->tradeoff_ok = sc->n_claims == 0;
	g->claims_ok = sc->n_claims == 0;
	if (!g->valid) {
		/* One line with the engine's reason, not one per criterion. */
		g->n_crit = 1;
		snprintf(g->crit[0].text, sizeof g->crit[0].text,
		    _("not a valid layout, so no goal was checked: %s"),
		    why != NULL ? why : "");
		snprintf(g->prediction.text, sizeof g->prediction.text, "%s",
		    _("prediction: not checked, the layout is not valid"));
		return;
	}
	g->goal_ok = 1;
	for (i = 0; i < sc->n_goal; i++) {
		grade_crit(&sc->goal[i], r, start, best, &g->crit[i]);
		g->goal_ok = g->goal_ok && g->crit[i].pass;
	}
	grade_prediction(sc, r, a, &g->prediction);
	if (best != NULL && best->n_top > 0) {
		g->rank = pg_rank(best, r);
		g->share_best = r->tokens_per_s / best->top[0].tokens_per_s;
	}
	g->share_start = start != NULL && start->tokens_per_s > 0 ?
	    r->tokens_per_s / start->tokens_per_s : 0;
	if (sc->n_claims > 0) {
		if ((g->runner = scenario_runner_up(best, r)) >= 0) {
			g->runner_up = best->top[g->runner];
			u = &g->runner_up;
		}
		grade_claims(sc, r, u, a->asserted, g);
		tradeoff_grade(a->tradeoff, r, u, &g->tradeoff);
		g->tradeoff_ok = g->tradeoff.pass;
	}
	g->pass = g->goal_ok && g->diagnosis_ok && g->prediction.pass &&
	    g->claims_ok && g->tradeoff_ok;
}

int
sc_tradeoff_ok(const char *text)
{
	return text != NULL && text[0] != '\0' &&
	    safetext_text_ok(text, SC_TRADEOFF_LEN - 1, 0);
}
