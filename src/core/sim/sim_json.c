/*
 * sim_json.c - a step's timeline and results to JSON and back (the
 * contract of `parlearn trace --json` and `parlearn run --json`).
 *
 * Reading recomputes what the timeline derives (idle gaps, order) rather
 * than trusting the file: idle events in the file are skipped and the
 * timeline is finished again, so a file edited by hand cannot claim a
 * bubble its busy events do not leave.
 *
 * Names carry their unit (issue 17): times are "_s", sizes "_bytes".
 * Files written before that ("start", "end", "t", "params", ...) are
 * still read: each such member falls back to its old name.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/json.h"
#include "core/sim/sim_json.h"
#include "core/sim/sim_modes.h"

static cJSON *
json_event(const struct sim_event *ev)
{
	cJSON *e = cJSON_CreateObject();
	char name[16];

	cJSON_AddNumberToObject(e, "device", ev->device);
	cJSON_AddStringToObject(e, "gpu", sim_device_name(ev->device, name,
	    sizeof name));
	cJSON_AddStringToObject(e, "kind", sim_kind_name(ev->kind));
	cJSON_AddStringToObject(e, "carries", sim_payload_name(ev->what));
	cJSON_AddStringToObject(e, "part", sim_part_name(ev->part));
	cJSON_AddNumberToObject(e, "layer", ev->layer);
	cJSON_AddNumberToObject(e, "microbatch", ev->microbatch);
	cJSON_AddNumberToObject(e, "shard", ev->shard);
	cJSON_AddNumberToObject(e, "chunk", ev->chunk);
	cJSON_AddNumberToObject(e, "start_s", ev->start);
	cJSON_AddNumberToObject(e, "end_s", ev->end);
	cJSON_AddNumberToObject(e, "bytes", (double)ev->bytes);
	cJSON_AddNumberToObject(e, "peer", ev->peer);
	cJSON_AddNumberToObject(e, "collective", ev->collective);
	cJSON_AddNumberToObject(e, "ring_step", ev->ring_step);
	cJSON_AddNumberToObject(e, "ring_steps", ev->ring_steps);
	cJSON_AddNumberToObject(e, "ring_chunk", ev->ring_chunk);
	cJSON_AddStringToObject(e, "phase", ev->kind == SIM_RING_STEP ?
	    sim_kind_name(ev->phase) : "none");
	cJSON_AddBoolToObject(e, "overlap", ev->overlap);
	/* EP's: only on its events, so dense documents keep their form */
	if (ev->expert >= 0 || ev->tokens > 0) {
		cJSON_AddNumberToObject(e, "expert", ev->expert);
		cJSON_AddNumberToObject(e, "tokens", ev->tokens);
	}
	return e;
}

static cJSON *
json_events(const struct sim_timeline *tl)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < tl->n_ev; i++)
		cJSON_AddItemToArray(a, json_event(&tl->ev[i]));
	return a;
}

/* A memory sample's member for kind k: "params_bytes", ... */
static const char *
mem_key(int k, char *buf, size_t len)
{
	snprintf(buf, len, "%s_bytes", sim_mem_kind_name((enum sim_mem_kind)k));
	return buf;
}

static cJSON *
json_memory(const struct sim_timeline *tl)
{
	cJSON *a = cJSON_CreateArray(), *e;
	char name[16], key[32];
	size_t i;
	int k;

	for (i = 0; i < tl->n_mem; i++) {
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "device", tl->mem[i].device);
		cJSON_AddStringToObject(e, "gpu", sim_device_name(
		    tl->mem[i].device, name, sizeof name));
		cJSON_AddNumberToObject(e, "t_s", tl->mem[i].t);
		for (k = 0; k < SIM_NMEM; k++)
			cJSON_AddNumberToObject(e, mem_key(k, key, sizeof key),
			    (double)tl->mem[i].bytes[k]);
		cJSON_AddItemToArray(a, e);
	}
	return a;
}

/* Each device's name and place: replica, stage, TP rank, layers held. */
static cJSON *
json_devices(const struct sim_result *r)
{
	cJSON *a = cJSON_CreateArray(), *e, *lay;
	struct sim_place pl;
	char name[16];
	int d, l;

	for (d = 0; d < r->tl.n_devices; d++) {
		sim_device_place(r, d, &pl);
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "device", d);
		cJSON_AddStringToObject(e, "gpu", sim_device_name(d, name,
		    sizeof name));
		cJSON_AddNumberToObject(e, "replica", pl.replica);
		cJSON_AddNumberToObject(e, "stage", pl.stage);
		cJSON_AddNumberToObject(e, "tp_rank", pl.tp_rank);
		lay = cJSON_AddArrayToObject(e, "layers");
		for (l = 0; l < SIM_LAYERS; l++)
			if (pl.layers & (1u << l))
				cJSON_AddItemToArray(lay,
				    cJSON_CreateNumber(l + 1));
		cJSON_AddItemToArray(a, e);
	}
	return a;
}

static cJSON *
json_model(void)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddNumberToObject(m, "layers", SIM_LAYERS);
	cJSON_AddNumberToObject(m, "hidden", SIM_HIDDEN);
	cJSON_AddNumberToObject(m, "heads", SIM_HEADS);
	cJSON_AddNumberToObject(m, "ffn", SIM_FFN);
	cJSON_AddNumberToObject(m, "seq", SIM_SEQ);
	cJSON_AddNumberToObject(m, "batch", SIM_BATCH);
	cJSON_AddNumberToObject(m, "params", SIM_NPARAMS);
	cJSON_AddNumberToObject(m, "scale", SIM_SCALE);
	return m;
}

static cJSON *
json_origin(const struct sim_origin *o)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddNumberToObject(m, "processes", o->processes);
	cJSON_AddNumberToObject(m, "hosts", o->hosts);
	cJSON_AddBoolToObject(m, "one_host", o->hosts == 1);
	cJSON_AddStringToObject(m, "library", o->library);
	if (o->profiler)
		cJSON_AddStringToObject(m, "by", "torch.profiler");
	return m;
}

cJSON *
sim_result_json(const struct sim_config *cfg, const struct sim_result *r,
    const struct sim_origin *origin)
{
	cJSON *root = cJSON_CreateObject();
	double a2a, hidden;
	int a;

	if (root == NULL)
		return NULL;
	cJSON_AddStringToObject(root, "mode", sim_mode_name(cfg->mode));
	cJSON_AddNumberToObject(root, "gpus", cfg->gpus);
	for (a = 0; a < MESH_N_AXES; a++)
		cJSON_AddNumberToObject(root, mesh_axis((enum mesh_axis)a)->key,
		    r->degree[a] > 0 ? r->degree[a] : 1);
	cJSON_AddNumberToObject(root, "microbatches", cfg->microbatches);
	cJSON_AddStringToObject(root, "schedule",
	    pipe_schedule_name(cfg->schedule));
	cJSON_AddNumberToObject(root, "virtual_stages", cfg->vstages);
	cJSON_AddBoolToObject(root, "sequence_parallel", cfg->seq_parallel);
	cJSON_AddBoolToObject(root, "overlap", cfg->overlap);
	cJSON_AddBoolToObject(root, "compute_only", cfg->compute_only);
	/* the MoE variant's settings: only when it runs (dense unchanged) */
	if (cfg->moe.experts > 0) {
		cJSON_AddNumberToObject(root, "moe", cfg->moe.experts);
		cJSON_AddNumberToObject(root, "top_k", cfg->moe.top_k);
		cJSON_AddBoolToObject(root, "shared_expert", cfg->moe.shared);
		cJSON_AddNumberToObject(root, "router_bias",
		    cfg->moe.router_bias);
		cJSON_AddNumberToObject(root, "ep", r->ep > 0 ? r->ep : 1);
	}
	cJSON_AddItemToObject(root, "model", json_model());
	if (origin != NULL && origin->measured)
		cJSON_AddItemToObject(root, "measured", json_origin(origin));
	cJSON_AddNumberToObject(root, "loss", r->loss);
	cJSON_AddNumberToObject(root, "max_loss_error", r->max_loss_error);
	cJSON_AddNumberToObject(root, "max_grad_error", r->max_grad_error);
	cJSON_AddNumberToObject(root, "max_param_error", r->max_param_error);
	cJSON_AddNumberToObject(root, "bubble_fraction", r->bubble);
	cJSON_AddNumberToObject(root, "bubble_formula_fraction",
	    r->bubble_formula);
	cJSON_AddNumberToObject(root, "bytes_moved", (double)r->bytes_moved);
	cJSON_AddNumberToObject(root, "step_time_s", r->step_time);
	a2a = sim_timeline_a2a(&r->tl, -1, &hidden);
	cJSON_AddNumberToObject(root, "all_to_all_s", r->tl.n_devices > 0 ?
	    a2a / r->tl.n_devices : 0.0);
	cJSON_AddNumberToObject(root, "all_to_all_hidden_s",
	    r->tl.n_devices > 0 ? hidden / r->tl.n_devices : 0.0);
	cJSON_AddItemToObject(root, "devices", json_devices(r));
	cJSON_AddItemToObject(root, "events", json_events(&r->tl));
	cJSON_AddItemToObject(root, "memory", json_memory(&r->tl));
	return root;
}

/* Reading -------------------------------------------------------------- */

struct rd {
	const char	*file;
	struct pl_err	*err;
};

/* The index of s among n names from name(i), or -1 after an error. */
static int
name_index(const struct rd *rd, const cJSON *obj, const char *key,
    const char *path, int n, const char *(*name)(int))
{
	const char *s = NULL;
	char p[256];
	int i;

	if (pl_json_string(obj, key, 1, &s, rd->file, path, rd->err) != 0)
		return -1;
	for (i = 0; i < n; i++)
		if (strcmp(s, name(i)) == 0)
			return i;
	pl_err_set_path(rd->err, rd->file, pl_json_path_key(p, sizeof p, path,
	    key), _("unknown value '%s'"), s);
	return -1;
}

static const char *
kind_name(int i)
{
	return sim_kind_name((enum sim_kind)i);
}

static const char *
payload_name(int i)
{
	return sim_payload_name((enum sim_payload)i);
}

static const char *
part_name(int i)
{
	return sim_part_name((enum sim_part)i);
}

static int
get_int(const struct rd *rd, const cJSON *o, const char *key, long lo,
    long hi, int *out, const char *path)
{
	long v = 0;

	if (pl_json_int(o, key, 1, lo, hi, &v, rd->file, path, rd->err) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* key, or old (its name before issue 17) when only that is present. */
static const char *
key_or_old(const cJSON *o, const char *key, const char *old)
{
	return cJSON_GetObjectItemCaseSensitive(o, key) == NULL &&
	    cJSON_GetObjectItemCaseSensitive(o, old) != NULL ? old : key;
}

static int
get_time(const struct rd *rd, const cJSON *o, const char *key,
    const char *old, double *out, const char *path)
{
	return pl_json_number(o, key_or_old(o, key, old), 1, -1e9, 1e9, out,
	    rd->file, path, rd->err);
}

static int
read_event(const struct rd *rd, const cJSON *o, const char *path,
    struct sim_timeline *tl)
{
	struct sim_event ev, *e;
	int kind, what, part, dev, phase = SIM_IDLE;
	double bytes = 0;

	memset(&ev, 0, sizeof ev);
	if (get_int(rd, o, "device", 0, tl->n_devices - 1, &dev, path) != 0 ||
	    (kind = name_index(rd, o, "kind", path, SIM_NKINDS,
	    kind_name)) < 0 ||
	    (what = name_index(rd, o, "carries", path, SIM_NPAYLOADS,
	    payload_name)) < 0 ||
	    (part = name_index(rd, o, "part", path, SIM_PART_WEIGHTS + 1,
	    part_name)) < 0 ||
	    get_int(rd, o, "layer", 0, SIM_LAYERS, &ev.layer, path) != 0 ||
	    get_int(rd, o, "microbatch", -1, SIM_BATCH, &ev.microbatch,
	    path) != 0 ||
	    get_int(rd, o, "shard", -1, SIM_MAX_GPUS, &ev.shard, path) != 0 ||
	    get_int(rd, o, "chunk", -1, SIM_LAYERS, &ev.chunk, path) != 0 ||
	    get_int(rd, o, "peer", -1, tl->n_devices - 1, &ev.peer, path) != 0 ||
	    get_int(rd, o, "collective", -1, 1L << 30, &ev.collective,
	    path) != 0 ||
	    get_int(rd, o, "ring_steps", 0, 2 * SIM_MAX_GPUS, &ev.ring_steps,
	    path) != 0 ||
	    get_time(rd, o, "start_s", "start", &ev.start, path) != 0 ||
	    get_time(rd, o, "end_s", "end", &ev.end, path) != 0 ||
	    pl_json_number(o, "bytes", 1, 0, 1e15, &bytes, rd->file, path,
	    rd->err) != 0 ||
	    pl_json_bool(o, "overlap", 1, &ev.overlap, rd->file, path,
	    rd->err) != 0)
		return -1;
	if (ev.end < ev.start) {
		pl_err_set_path(rd->err, rd->file, path, "%s",
		    _("the event ends before it starts"));
		return -1;
	}
	if (kind == SIM_IDLE)
		return 0;	/* recomputed by sim_timeline_finish */
	if (kind == SIM_RING_STEP && (get_int(rd, o, "ring_step", 0,
	    2 * SIM_MAX_GPUS, &ev.ring_step, path) != 0 ||
	    get_int(rd, o, "ring_chunk", 0, SIM_MAX_GPUS, &ev.ring_chunk,
	    path) != 0 ||
	    (phase = name_index(rd, o, "phase", path, SIM_NKINDS,
	    kind_name)) < 0))
		return -1;
	if ((e = sim_timeline_add(tl, dev, (enum sim_kind)kind, ev.layer,
	    ev.microbatch, ev.start, ev.end, (size_t)bytes)) == NULL) {
		pl_err_set(rd->err, rd->file, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	e->what = (enum sim_payload)what;
	e->part = (enum sim_part)part;
	e->shard = ev.shard;
	e->chunk = ev.chunk;
	e->peer = ev.peer;
	e->collective = ev.collective;
	e->ring_steps = ev.ring_steps;
	e->overlap = ev.overlap;
	if (cJSON_GetObjectItemCaseSensitive(o, "expert") != NULL &&
	    (get_int(rd, o, "expert", -1, SIM_MOE_MAX_EXPERTS - 1, &e->expert,
	    path) != 0 || get_int(rd, o, "tokens", 0, SIM_TOKENS *
	    SIM_MOE_MAX_EXPERTS, &e->tokens, path) != 0))
		return -1;
	if (kind == SIM_RING_STEP) {
		e->ring_step = ev.ring_step;
		e->ring_chunk = ev.ring_chunk;
		e->phase = (enum sim_kind)phase;
	}
	return 0;
}

static int
read_memory(const struct rd *rd, const cJSON *o, const char *path,
    struct sim_timeline *tl)
{
	double t, v;
	int dev, k;
	size_t *cur;
	char key[32];

	if (get_int(rd, o, "device", 0, tl->n_devices - 1, &dev, path) != 0 ||
	    get_time(rd, o, "t_s", "t", &t, path) != 0)
		return -1;
	cur = tl->cur + (size_t)dev * SIM_NMEM;
	for (k = 0; k < SIM_NMEM; k++) {
		if (pl_json_number(o, key_or_old(o, mem_key(k, key, sizeof key),
		    sim_mem_kind_name((enum sim_mem_kind)k)), 1, 0, 1e15, &v,
		    rd->file, path, rd->err) != 0)
			return -1;
		if ((size_t)v != cur[k] && sim_timeline_mem(tl, dev, t, k,
		    (long long)(size_t)v - (long long)cur[k]) != 0) {
			pl_err_set(rd->err, rd->file, 0, 0, "%s",
			    _("out of memory"));
			return -1;
		}
	}
	return 0;
}

static int
read_array(const struct rd *rd, const cJSON *root, const char *key,
    struct sim_timeline *tl,
    int (*one)(const struct rd *, const cJSON *, const char *,
    struct sim_timeline *))
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key), *o;
	char path[256];
	int i = 0;

	if (!cJSON_IsArray(a)) {
		pl_err_set_path(rd->err, rd->file, key, "%s",
		    _("must be an array"));
		return -1;
	}
	cJSON_ArrayForEach(o, a) {
		pl_json_path_index(path, sizeof path, key, i++);
		if (!cJSON_IsObject(o)) {
			pl_err_set_path(rd->err, rd->file, path, "%s",
			    _("must be an object"));
			return -1;
		}
		if (one(rd, o, path, tl) != 0)
			return -1;
	}
	return 0;
}

/* The MoE variant's settings, when the document has them; ep's pp is
 * its stages. */
static int
read_moe(const struct rd *rd, const cJSON *root, const char *mode,
    struct sim_request *req)
{
	long e = 0, k = 0, bias = 0, ep = 0, pp = 1;
	int shared = 0;

	if (cJSON_GetObjectItemCaseSensitive(root, "moe") == NULL)
		return 0;
	if (pl_json_int(root, "moe", 1, 1, SIM_MOE_MAX_EXPERTS, &e, rd->file,
	    "", rd->err) ||
	    pl_json_int(root, "top_k", 1, 1, SIM_MOE_MAX_EXPERTS, &k,
	    rd->file, "", rd->err) ||
	    pl_json_bool(root, "shared_expert", 1, &shared, rd->file, "",
	    rd->err) ||
	    pl_json_int(root, "router_bias", 1, 0, SIM_MOE_MAX_BIAS, &bias,
	    rd->file, "", rd->err) ||
	    pl_json_int(root, "ep", 1, 1, SIM_MAX_GPUS, &ep, rd->file, "",
	    rd->err))
		return -1;
	if (strcmp(mode, "ep") == 0 && pl_json_int(root, "pp", 1, 1,
	    SIM_LAYERS, &pp, rd->file, "", rd->err))
		return -1;
	req->moe = (int)e;
	req->top_k = (int)k;
	req->shared_expert = shared;
	req->router_bias = (int)bias;
	if (strcmp(mode, "ep") == 0) {
		req->ep = (int)ep;
		req->pp = (int)pp;
	}
	return 0;
}

static int
read_config(const struct rd *rd, const cJSON *root, struct sim_config *cfg)
{
	struct sim_request req;
	const char *mode = NULL, *sched = NULL;
	long gpus = 0, mb = 0, vs = 0, tp = 1;
	int sp = 0, overlap = 1, co = 0;

	memset(&req, 0, sizeof req);
	if (pl_json_string(root, "mode", 1, &mode, rd->file, "", rd->err) ||
	    pl_json_int(root, "gpus", 1, 1, SIM_MAX_GPUS, &gpus, rd->file, "",
	    rd->err) ||
	    pl_json_int(root, "microbatches", 1, 1, SIM_BATCH, &mb, rd->file,
	    "", rd->err) ||
	    pl_json_string(root, "schedule", 1, &sched, rd->file, "",
	    rd->err) ||
	    pl_json_int(root, "virtual_stages", 1, 1, SIM_LAYERS, &vs,
	    rd->file, "", rd->err) ||
	    pl_json_bool(root, "sequence_parallel", 0, &sp, rd->file, "",
	    rd->err) ||
	    pl_json_bool(root, "overlap", 0, &overlap, rd->file, "",
	    rd->err) ||
	    pl_json_bool(root, "compute_only", 0, &co, rd->file, "", rd->err))
		return -1;
	/* cp's TP is the tp degree the document records; tp mode's is its
	 * GPUs */
	if (strcmp(mode, "cp") == 0 && pl_json_int(root, "tp", 0, 1,
	    SIM_HEADS, &tp, rd->file, "", rd->err))
		return -1;
	req.mode = mode;
	req.gpus = (int)gpus;
	req.microbatches = (int)mb;
	req.schedule = sched;
	req.vstages = (int)vs;
	req.seq_parallel = sp;
	req.no_overlap = !overlap;
	req.compute_only = co;
	req.tp = (int)tp;
	if (read_moe(rd, root, mode, &req) != 0)
		return -1;
	if (sim_config_build(&req, cfg, rd->err) != 0) {
		pl_err_set_path(rd->err, rd->file, "", "%s", rd->err->msg);
		return -1;
	}
	return 0;
}

static int
read_origin(const struct rd *rd, const cJSON *root, struct sim_origin *o)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "measured"), *by;
	const char *lib = "";
	long procs = 0, hosts = 0;

	memset(o, 0, sizeof *o);
	if (m == NULL)
		return 0;
	if (!cJSON_IsObject(m)) {
		pl_err_set_path(rd->err, rd->file, "measured", "%s",
		    _("must be an object"));
		return -1;
	}
	if (pl_json_int(m, "processes", 1, 1, SIM_MAX_GPUS, &procs, rd->file,
	    "measured", rd->err) ||
	    pl_json_int(m, "hosts", 1, 1, SIM_MAX_GPUS, &hosts, rd->file,
	    "measured", rd->err) ||
	    pl_json_string(m, "library", 0, &lib, rd->file, "measured",
	    rd->err))
		return -1;
	by = cJSON_GetObjectItemCaseSensitive(m, "by");
	o->profiler = cJSON_IsString(by) &&
	    strcmp(by->valuestring, "torch.profiler") == 0;
	o->measured = 1;
	o->processes = (int)procs;
	o->hosts = (int)hosts;
	snprintf(o->library, sizeof o->library, "%s", lib);
	return 0;
}

static int
read_results(const struct rd *rd, const cJSON *root, struct sim_result *r)
{
	double lo = 0, hi = 1e300;

	return pl_json_number(root, "loss", 1, -hi, hi, &r->loss, rd->file,
	    "", rd->err) ||
	    pl_json_number(root, "max_loss_error", 1, lo, hi,
	    &r->max_loss_error, rd->file, "", rd->err) ||
	    pl_json_number(root, "max_grad_error", 1, lo, hi,
	    &r->max_grad_error, rd->file, "", rd->err) ||
	    pl_json_number(root, "max_param_error", 1, lo, hi,
	    &r->max_param_error, rd->file, "", rd->err) ? -1 : 0;
}

int
sim_result_from_json(const cJSON *root, const char *file,
    struct sim_config *cfg, struct sim_result *res, struct sim_origin *origin,
    struct pl_err *err)
{
	struct rd rd = { file, err };
	struct sim_origin o;
	struct sim_layout lay;
	int n;

	memset(res, 0, sizeof *res);
	pl_err_clear(err);
	if (!cJSON_IsObject(root)) {
		pl_err_set(err, file, 0, 0, "%s", _("not a JSON object"));
		return -1;
	}
	if (read_config(&rd, root, cfg) != 0 || read_origin(&rd, root, &o) != 0)
		return -1;
	sim_layout_of(cfg, &lay);
	n = lay.d * lay.p * lay.t;
	if (sim_timeline_init(&res->tl, n) != 0) {
		pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	if (read_results(&rd, root, res) != 0 ||
	    read_array(&rd, root, "events", &res->tl, read_event) != 0 ||
	    read_array(&rd, root, "memory", &res->tl, read_memory) != 0 ||
	    sim_timeline_finish(&res->tl) != 0) {
		if (err->msg[0] == '\0')
			pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
		sim_result_free(res);
		memset(res, 0, sizeof *res);
		return -1;
	}
	res->dp = lay.d / lay.c;
	res->cp = lay.c;
	res->tp = lay.t;
	res->pp = lay.p;
	res->v = lay.v;
	res->schedule = lay.kind;
	res->ep = lay.e;
	res->moe = lay.moe;
	res->bubble = sim_timeline_bubble(&res->tl);
	res->bubble_formula = sim_layout_bubble_formula(&lay);
	res->bytes_moved = sim_timeline_bytes(&res->tl);
	res->step_time = res->tl.t_end;
	if (origin != NULL)
		*origin = o;
	return 0;
}
