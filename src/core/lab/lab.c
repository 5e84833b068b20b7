/*
 * lab.c - lab scripts: parsing, validation against the course, the items
 * a step asks about, and the lab state file.
 *
 * A script is read in one pass into struct lab_script; every text field is
 * sanitised (content_sanitize) so control characters never reach a
 * terminal. Errors carry FILE:LINE:COL for syntax and FILE: json.path for
 * fields, as the lesson loader's do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/json.h"
#include "core/lab/lab.h"
#include "core/sim/sim.h"

#define LAB_MAX_STEPS	200
#define LAB_MAX_LIST	64

static const char *const kind_names[] = {
	"drop", "scenario", "questions", "break", "run", "emit"
};

const char *
lab_step_kind_name(enum lab_step_kind k)
{
	static const char *const shown[] = {
		N_("drop"), N_("scenario"), N_("questions"), N_("break"),
		N_("run"), N_("emit")
	};

	return _(shown[k]);
}

const char *
lab_step_title(const struct lab_step *s, const struct content_course *c,
    char *buf, size_t size)
{
	const struct content_drop *d;

	if (s->has_title || c == NULL || s->drop == NULL ||
	    (d = content_find_drop(c, s->drop)) == NULL)
		snprintf(buf, size, "%s", s->title);
	else if (s->kind == LAB_STEP_QUESTIONS)
		snprintf(buf, size, _("Questions on drop %d: %s"), d->number,
		    d->title);
	else
		snprintf(buf, size, _("Drop %d: %s"), d->number, d->title);
	return buf;
}

static char *
dup_text(const char *s, const char *file, const char *path,
    struct pl_err *err)
{
	size_t bad;
	char *t = content_sanitize(s, &bad);

	if (t == NULL)
		pl_err_set_path(err, file, path,
		    _("invalid UTF-8 at byte %zu"), bad);
	return t;
}

static void
free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* An array of strings (ids when ids is set). 0 or -1. */
static int
parse_list(const cJSON *obj, const char *key, int ids, char ***out,
    size_t *n_out, const char *file, const char *parent, struct pl_err *err)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key), *it;
	char path[256], ipath[300];
	size_t n = 0;

	*out = NULL;
	*n_out = 0;
	if (arr == NULL)
		return 0;
	pl_json_path_key(path, sizeof path, parent, key);
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > LAB_MAX_LIST) {
		pl_err_set_path(err, file, path,
		    _("must be an array of at most %d strings"), LAB_MAX_LIST);
		return -1;
	}
	*out = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof **out);
	if (*out == NULL)
		return -1;
	cJSON_ArrayForEach(it, arr) {
		pl_json_path_index(ipath, sizeof ipath, path, (int)n);
		if (!cJSON_IsString(it) || (ids && !lab_id_valid(
		    it->valuestring))) {
			pl_err_set_path(err, file, ipath, "%s", ids ?
			    _("must be an id of letters, digits, '.', '_' or '-'") :
			    _("must be a string"));
			goto fail;
		}
		(*out)[n] = dup_text(it->valuestring, file, ipath, err);
		if ((*out)[n] == NULL)
			goto fail;
		*n_out = ++n;
	}
	return 0;
fail:
	free_list(*out, n);
	*out = NULL;
	*n_out = 0;
	return -1;
}

static int
parse_override(const cJSON *st, struct lab_step *s, const char *file,
    const char *parent, struct pl_err *err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(st, "override");
	const char *gpu = NULL;
	char path[256];
	long v;

	if (o == NULL)
		return 0;
	pl_json_path_key(path, sizeof path, parent, "override");
	if (!cJSON_IsObject(o) || s->kind != LAB_STEP_SCENARIO) {
		pl_err_set_path(err, file, path, "%s",
		    _("must be an object, and only on a scenario step"));
		return -1;
	}
	s->has_override = 1;
	if (pl_json_string(o, "gpu", 0, &gpu, file, path, err) != 0)
		return -1;
	if (gpu != NULL && (s->override.gpu = strdup(gpu)) == NULL)
		return -1;
	v = 0;
	if (pl_json_int(o, "gpus", 0, 1, 100000, &v, file, path, err) != 0)
		return -1;
	s->override.gpus = (int)v;
	v = 0;
	if (pl_json_int(o, "gpus_per_node", 0, 1, 64, &v, file, path,
	    err) != 0)
		return -1;
	s->override.gpus_per_node = (int)v;
	if (pl_json_number(o, "intra_bw", 0, 0.001, 1e6, &s->override.intra_bw,
	    file, path, err) != 0 || pl_json_number(o, "inter_bw", 0, 0.001,
	    1e6, &s->override.inter_bw, file, path, err) != 0)
		return -1;
	return 0;
}

static int
parse_kind(const cJSON *st, struct lab_step *s, const char *file,
    const char *path, struct pl_err *err)
{
	const char *k = NULL;
	char kpath[256];
	size_t i;

	if (pl_json_string(st, "kind", 1, &k, file, path, err) != 0)
		return -1;
	for (i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
		if (strcmp(k, kind_names[i]) == 0) {
			s->kind = (enum lab_step_kind)i;
			return 0;
		}
	pl_err_set_path(err, file, pl_json_path_key(kpath, sizeof kpath, path,
	    "kind"), _("unknown step kind \"%s\" (drop, scenario, questions, run, emit or break)"),
	    k);
	return -1;
}

/* The fields each kind needs, and a title when none is given. */
static int
parse_refs(const cJSON *st, struct lab_step *s, const char *file,
    const char *path, struct pl_err *err)
{
	const char *drop = NULL, *sc = NULL;
	char kpath[256];
	int need = s->kind != LAB_STEP_BREAK && s->kind != LAB_STEP_RUN &&
	    s->kind != LAB_STEP_EMIT;

	if (pl_json_string(st, "drop", need, &drop, file, path, err) != 0 ||
	    pl_json_string(st, "scenario", s->kind == LAB_STEP_SCENARIO, &sc,
	    file, path, err) != 0)
		return -1;
	if (drop != NULL && (s->kind == LAB_STEP_BREAK ||
	    !lab_id_valid(drop))) {
		pl_err_set_path(err, file, pl_json_path_key(kpath, sizeof kpath,
		    path, "drop"), "%s", need ? _("must be a drop id") :
		    _("a break has no drop"));
		return -1;
	}
	if (sc != NULL && (s->kind != LAB_STEP_SCENARIO || !lab_id_valid(sc))) {
		pl_err_set_path(err, file, pl_json_path_key(kpath, sizeof kpath,
		    path, "scenario"), "%s",
		    _("only a scenario step names a scenario, by its id"));
		return -1;
	}
	if ((drop != NULL && (s->drop = strdup(drop)) == NULL) ||
	    (sc != NULL && (s->scenario = strdup(sc)) == NULL))
		return -1;
	if (parse_list(st, "questions", 1, &s->questions, &s->n_questions,
	    file, path, err) != 0)
		return -1;
	if (s->kind == LAB_STEP_QUESTIONS && s->n_questions == 0) {
		pl_err_set_path(err, file, pl_json_path_key(kpath, sizeof kpath,
		    path, "questions"), "%s",
		    _("a questions step needs at least one question id"));
		return -1;
	}
	return 0;
}

/* A run step's "run": a request the simulator's config builder accepts. */
static int
parse_run(const cJSON *st, struct lab_step *s, const char *file,
    const char *parent, struct pl_err *err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(st, "run");
	struct sim_request req;
	struct sim_config cfg;
	struct pl_err why;
	char path[256];
	long np = 0, mb = 0;

	pl_json_path_key(path, sizeof path, parent, "run");
	if ((o == NULL) != (s->kind != LAB_STEP_RUN) ||
	    (o != NULL && !cJSON_IsObject(o))) {
		pl_err_set_path(err, file, path, "%s", _("a run step needs a "
		    "\"run\" object, and only a run step has one"));
		return -1;
	}
	if (o == NULL)
		return 0;
	memset(&req, 0, sizeof req);
	if (pl_json_string(o, "mode", 1, &req.mode, file, path, err) != 0 ||
	    pl_json_int(o, "np", 0, 1, SIM_MAX_GPUS, &np, file, path,
	    err) != 0 || pl_json_int(o, "microbatches", 0, 1, SIM_BATCH, &mb,
	    file, path, err) != 0 || pl_json_string(o, "schedule", 0,
	    &req.schedule, file, path, err) != 0)
		return -1;
	req.gpus = (int)np;
	req.microbatches = (int)mb;
	if (sim_config_build(&req, &cfg, &why) != 0) {
		pl_err_set_path(err, file, path, "%s", why.msg);
		return -1;
	}
	if (np > 0 && cfg.gpus != np) {
		pl_err_set_path(err, file, path, _("mode %s runs on %d "
		    "processes, not %ld"), req.mode, cfg.gpus, np);
		return -1;
	}
	s->run.np = (int)np;
	s->run.microbatches = (int)mb;
	if ((s->run.mode = strdup(req.mode)) == NULL || (req.schedule != NULL &&
	    (s->run.schedule = strdup(req.schedule)) == NULL))
		return -1;
	return 0;
}

static int
parse_step(const cJSON *st, struct lab_step *s, const char *file,
    const char *path, struct pl_err *err)
{
	const char *title = NULL;
	char buf[200];
	long min = 0;

	if (!cJSON_IsObject(st)) {
		pl_err_set_path(err, file, path, "%s", _("must be an object"));
		return -1;
	}
	if (parse_kind(st, s, file, path, err) != 0 ||
	    pl_json_int(st, "minutes", 1, 1, 240, &min, file, path, err) != 0 ||
	    pl_json_string(st, "title", s->kind == LAB_STEP_BREAK, &title,
	    file, path, err) != 0 || parse_refs(st, s, file, path, err) != 0 ||
	    parse_override(st, s, file, path, err) != 0 ||
	    parse_run(st, s, file, path, err) != 0 ||
	    lab_emit_parse(st, s, file, path, err) != 0 ||
	    parse_list(st, "talking_points", 0, &s->points, &s->n_points,
	    file, path, err) != 0)
		return -1;
	s->minutes = (int)min;
	s->has_title = title != NULL;
	if (title == NULL && s->kind == LAB_STEP_RUN) {
		snprintf(buf, sizeof buf, "%s %s", lab_step_kind_name(s->kind),
		    s->run.mode);
		title = buf;
	} else if (title == NULL && s->kind == LAB_STEP_EMIT) {
		snprintf(buf, sizeof buf, "%s %s", lab_step_kind_name(s->kind),
		    s->emit.model);
		title = buf;
	} else if (title == NULL) {
		snprintf(buf, sizeof buf, "%s %s%s%s", lab_step_kind_name(
		    s->kind), s->drop, s->scenario != NULL ? " / " : "",
		    s->scenario != NULL ? s->scenario : "");
		title = buf;
	}
	s->title = dup_text(title, file, path, err);
	return s->title == NULL ? -1 : 0;
}

static int
parse_steps(const cJSON *root, struct lab_script *ls, const char *file,
    struct pl_err *err)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "steps"), *st;
	char path[64];
	int n;

	n = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	if (n < 1 || n > LAB_MAX_STEPS) {
		pl_err_set_path(err, file, "steps",
		    _("must be an array of 1 to %d steps"), LAB_MAX_STEPS);
		return -1;
	}
	ls->steps = calloc((size_t)n, sizeof *ls->steps);
	if (ls->steps == NULL)
		return -1;
	cJSON_ArrayForEach(st, arr) {
		pl_json_path_index(path, sizeof path, "steps", (int)ls->n_steps);
		if (parse_step(st, &ls->steps[ls->n_steps++], file, path,
		    err) != 0)
			return -1;
		ls->minutes += ls->steps[ls->n_steps - 1].minutes;
	}
	return 0;
}

struct lab_script *
lab_script_parse(const char *text, const char *file, struct pl_err *err)
{
	struct lab_script *ls;
	const char *title = NULL;
	cJSON *root;

	root = pl_json_parse(text, file, err);
	if (root == NULL)
		return NULL;
	ls = calloc(1, sizeof *ls);
	if (ls == NULL || (ls->file = strdup(file != NULL ? file : "")) == NULL)
		goto fail;
	if (!cJSON_IsObject(root)) {
		pl_err_set_path(err, file, "", "%s",
		    _("a lab script is a JSON object"));
		goto fail;
	}
	if (pl_json_string(root, "title", 1, &title, file, "", err) != 0 ||
	    (ls->title = dup_text(title, file, "title", err)) == NULL ||
	    parse_steps(root, ls, file, err) != 0)
		goto fail;
	cJSON_Delete(root);
	return ls;
fail:
	if (err != NULL && err->msg[0] == '\0')
		pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
	cJSON_Delete(root);
	lab_script_free(ls);
	return NULL;
}

struct lab_script *
lab_script_load(const char *path, struct pl_err *err)
{
	struct lab_script *ls;
	char *text;

	if (err != NULL)
		pl_err_clear(err);
	text = pl_read_file(path, NULL, err);
	if (text == NULL)
		return NULL;
	ls = lab_script_parse(text, path, err);
	free(text);
	return ls;
}

void
lab_script_free(struct lab_script *ls)
{
	size_t i;

	if (ls == NULL)
		return;
	for (i = 0; i < ls->n_steps; i++) {
		struct lab_step *s = &ls->steps[i];

		free(s->title);
		free(s->drop);
		free(s->scenario);
		free(s->override.gpu);
		free(s->run.mode);
		free(s->run.schedule);
		lab_emit_free(&s->emit);
		free_list(s->questions, s->n_questions);
		free_list(s->points, s->n_points);
	}
	free(ls->steps);
	free(ls->title);
	free(ls->file);
	free(ls);
}

/* The block of kind k with this id in drop d, or NULL. */
static const struct content_block *
find_block(const struct content_drop *d, enum content_block_kind k,
    const char *id)
{
	size_t i;

	for (i = 0; i < d->n_blocks; i++) {
		const struct content_block *b = &d->blocks[i];
		const char *bid = k == CONTENT_QUESTION ? b->question.id :
		    b->scenario.id;

		if (b->kind == k && bid != NULL && strcmp(bid, id) == 0)
			return b;
	}
	return NULL;
}

static void
problem(struct content_problems *probs, const char *file, int step,
    const char *key, const char *msg, size_t *count)
{
	struct pl_err e;
	char path[64], p2[80];

	pl_err_clear(&e);
	pl_json_path_index(path, sizeof path, "steps", step);
	pl_err_set_path(&e, file, pl_json_path_key(p2, sizeof p2, path, key),
	    "%s", msg);
	content_add_problem(probs, &e);
	(*count)++;
}

size_t
lab_script_check_course(const struct lab_script *ls,
    const struct content_course *c, struct content_problems *probs)
{
	const struct content_drop *d;
	char m[256];
	size_t i, q, n = 0;

	for (i = 0; i < ls->n_steps; i++) {
		const struct lab_step *s = &ls->steps[i];

		if (s->drop == NULL)
			continue;
		if ((d = content_find_drop(c, s->drop)) == NULL) {
			snprintf(m, sizeof m,
			    _("no drop with id \"%s\" in the course"), s->drop);
			problem(probs, ls->file, (int)i, "drop", m, &n);
			continue;
		}
		if (s->scenario != NULL && find_block(d, CONTENT_SCENARIO,
		    s->scenario) == NULL) {
			snprintf(m, sizeof m,
			    _("the drop has no scenario \"%s\""), s->scenario);
			problem(probs, ls->file, (int)i, "scenario", m, &n);
		}
		for (q = 0; q < s->n_questions; q++)
			if (find_block(d, CONTENT_QUESTION,
			    s->questions[q]) == NULL) {
				snprintf(m, sizeof m,
				    _("the drop has no question \"%s\""),
				    s->questions[q]);
				problem(probs, ls->file, (int)i, "questions", m,
				    &n);
			}
	}
	return n;
}

size_t
lab_step_items(const struct lab_step *s, const struct content_course *c,
    const char **ids, enum lab_item_kind *kinds, size_t max)
{
	const struct content_drop *d = NULL;
	size_t i, n = 0;

	if (s->kind == LAB_STEP_BREAK)
		return 0;
	for (i = 0; i < s->n_questions && n < max; i++, n++) {
		ids[n] = s->questions[i];
		kinds[n] = LAB_ITEM_QUESTION;
	}
	if (s->kind == LAB_STEP_DROP && s->n_questions == 0 && c != NULL)
		d = content_find_drop(c, s->drop);
	for (i = 0; d != NULL && i < d->n_blocks && n < max; i++)
		if (d->blocks[i].kind == CONTENT_QUESTION) {
			ids[n] = d->blocks[i].question.id;
			kinds[n++] = LAB_ITEM_QUESTION;
		}
	if (s->scenario != NULL && n < max) {
		ids[n] = s->scenario;
		kinds[n++] = LAB_ITEM_SCENARIO;
	}
	if ((s->kind == LAB_STEP_RUN || s->kind == LAB_STEP_EMIT) && n < max) {
		ids[n] = LAB_RUN_ID;
		kinds[n++] = LAB_ITEM_RUN;
	}
	return n;
}

int
lab_id_valid(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= LAB_ID_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", s[i]) == NULL)
			return 0;
	return 1;
}

char *
lab_state_to_json(const struct lab_state *st)
{
	cJSON *o = cJSON_CreateObject();
	char *s;

	if (o == NULL)
		return NULL;
	cJSON_AddNumberToObject(o, "version", 1);
	cJSON_AddStringToObject(o, "session", st->session);
	cJSON_AddNumberToObject(o, "step", st->step);
	cJSON_AddNumberToObject(o, "steps", st->n_steps);
	cJSON_AddNumberToObject(o, "started", (double)st->started);
	cJSON_AddNumberToObject(o, "step_started", (double)st->step_started);
	s = cJSON_Print(o);
	cJSON_Delete(o);
	return s;
}

int
lab_state_parse(const char *text, const char *file, struct lab_state *st,
    struct pl_err *err)
{
	const char *session = NULL;
	double t0 = 0, t1 = 0;
	long step = 0, n = 0;
	cJSON *o;
	int rc = -1;

	memset(st, 0, sizeof *st);
	o = pl_json_parse(text, file, err);
	if (o == NULL)
		return -1;
	if (pl_json_string(o, "session", 1, &session, file, "", err) != 0 ||
	    pl_json_int(o, "steps", 1, 1, LAB_MAX_STEPS, &n, file, "",
	    err) != 0 || pl_json_int(o, "step", 1, 0, n - 1, &step, file, "",
	    err) != 0 || pl_json_number(o, "started", 1, 0, 1e11, &t0, file, "",
	    err) != 0 || pl_json_number(o, "step_started", 1, 0, 1e11, &t1,
	    file, "", err) != 0)
		goto out;
	if (!lab_id_valid(session) || strlen(session) >= sizeof st->session) {
		pl_err_set_path(err, file, "session", "%s", _("not a valid id"));
		goto out;
	}
	snprintf(st->session, sizeof st->session, "%s", session);
	st->step = (int)step;
	st->n_steps = (int)n;
	st->started = (int64_t)t0;
	st->step_started = (int64_t)t1;
	rc = 0;
out:
	cJSON_Delete(o);
	return rc;
}
