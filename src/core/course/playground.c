/*
 * playground.c - knobs over one cost-model configuration.
 *
 * Each knob steps through a list of values: catalog entries for the model
 * and GPU, "nice" sizes (powers of two and three times powers of two) for
 * counts and batches, powers of two for TP and the micro-batch, every
 * integer for PP, and the words of each enumerated setting. When GPUs, DP,
 * TP or PP changes, the state looks for the next value whose product can
 * still equal the GPU count by adjusting one unlocked partner (DP first),
 * and the note says which partner moved. If no such value exists the plain
 * next value is taken and the engine's reason explains what is wrong.
 *
 * Invariant: cur holds cm_evaluate(cfg) when cur_valid; prev is the last
 * valid result before it (have_prev); start is what pg_init evaluated
 * (have_start), unchanged by later changes and pg_apply.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/course/playground.h"

/* Upper ends of the stepped ranges. */
#define PG_MAX_GPUS	16384
#define PG_MAX_BATCH	65536
#define PG_MAX_SEQ	131072
#define PG_MAX_MB	64
#define PG_MAX_TP	64
#define PG_MAX_V	8
/* Values tried when looking for one that keeps DP x TP x PP = GPUs. */
#define PG_MAX_TRIES	512

/* The knobs other than the axes' degrees, whose rows are the mesh's. */
static const char *const knob_names[PG_N_KNOBS] = {
	[PG_MODEL] = "model", [PG_GPU] = "gpu", [PG_GPUS] = "gpus",
	[PG_GPN] = "gpus_per_node", [PG_SEQ] = "seq",
	[PG_GLOBAL_BATCH] = "global_batch", [PG_MICRO_BATCH] = "micro_batch",
	[PG_ZERO] = "zero", [PG_RECOMPUTE] = "recompute",
	[PG_SP] = "seq_parallel", [PG_SCHEDULE] = "schedule",
	[PG_VSTAGES] = "virtual_stages", [PG_ATTENTION] = "attention",
	[PG_RANK_ORDER] = "rank_order", [PG_EP] = "ep"
};

static const char *const knob_labels[PG_N_KNOBS] = {
	[PG_MODEL] = N_("Model"), [PG_GPU] = N_("GPU type"),
	[PG_GPUS] = N_("GPUs"), [PG_GPN] = N_("GPUs per node"),
	[PG_SEQ] = N_("Sequence length"),
	[PG_GLOBAL_BATCH] = N_("Global batch"),
	[PG_MICRO_BATCH] = N_("Micro-batch"), [PG_ZERO] = N_("ZeRO stage"),
	[PG_RECOMPUTE] = N_("Recompute"), [PG_SP] = N_("Sequence parallel"),
	[PG_SCHEDULE] = N_("Schedule"), [PG_VSTAGES] = N_("Virtual stages"),
	[PG_ATTENTION] = N_("Attention"), [PG_RANK_ORDER] = N_("Rank order"),
	[PG_EP] = N_("Expert parallel")
};

const char *
pg_knob_name(enum pg_knob k)
{
	enum mesh_axis a;

	if (pg_knob_axis(k, &a) == 0)
		return mesh_axis(a)->key;
	return k < PG_N_KNOBS ? knob_names[k] : "";
}

const char *
pg_knob_label(enum pg_knob k)
{
	enum mesh_axis a;

	if (pg_knob_axis(k, &a) == 0)
		return mesh_axis(a)->knob;
	return k < PG_N_KNOBS ? knob_labels[k] : "";
}

int
pg_knob_parse(const char *name, enum pg_knob *out)
{
	int k;

	for (k = 0; k < PG_N_KNOBS; k++)
		if (strcmp(name, pg_knob_name((enum pg_knob)k)) == 0) {
			*out = (enum pg_knob)k;
			return 0;
		}
	return -1;
}

/* Evaluate cfg into cur, keeping the last valid result in prev. */
static void
evaluate(struct pg_state *s)
{
	struct pl_err err;

	if (s->cur_valid) {
		s->prev = s->cur;
		s->have_prev = 1;
	}
	s->why[0] = '\0';
	s->cur_valid = cm_evaluate(&s->cfg, &s->cur, &err) == 0;
	if (!s->cur_valid)
		snprintf(s->why, sizeof s->why, "%s", err.msg);
}

void
pg_init(struct pg_state *s, const struct hw_catalog *cat,
    const struct cm_config *cfg, unsigned locked)
{
	memset(s, 0, sizeof *s);
	s->cat = cat;
	s->cfg = *cfg;
	s->locked = locked;
	s->framework0 = cfg->framework;
	evaluate(s);
	s->start = s->cur;
	s->have_start = s->cur_valid;
}

int
pg_default_config(const struct hw_catalog *cat, struct cm_config *out)
{
	const struct hw_model *m = hw_model_find(cat, "llama2-13b");
	const struct hw_gpu *g = cm_default_gpu(cat);

	if (m == NULL)
		m = cat->n_models > 0 ? &cat->models[0] : NULL;
	if (m == NULL || g == NULL)
		return -1;
	cm_config_default(out, m, g);
	out->gpus = 16;
	out->dp = 4;
	out->tp = 2;
	out->pp = 2;
	out->zero = 1;
	out->seq_parallel = 1;
	return 0;
}

/* Next "nice" number after v (dir +1) or before it (dir -1): 1, 2, 3, 4, 6, 8, 12 ... */
static long
nice_step(long v, int dir, long lo, long hi)
{
	long p, best = -1;

	for (p = 1; p <= hi; p *= 2) {
		long c[2] = { p, 3 * p }, i;

		for (i = 0; i < 2; i++) {
			if (c[i] < lo || c[i] > hi)
				continue;
			if (dir > 0 && c[i] > v && (best < 0 || c[i] < best))
				best = c[i];
			if (dir < 0 && c[i] < v && c[i] > best)
				best = c[i];
		}
	}
	return best;
}

/* Next power of two after v (or before it), in [lo, hi], or -1. */
static long
pow2_step(long v, int dir, long lo, long hi)
{
	long p, best = -1;

	for (p = 1; p <= hi; p *= 2) {
		if (p < lo)
			continue;
		if (dir > 0 && p > v && best < 0)
			best = p;
		if (dir < 0 && p < v)
			best = p;
	}
	return best;
}

int
pg_knob_axis(enum pg_knob k, enum mesh_axis *a)
{
	if (k < PG_AXES || k >= PG_AXES + MESH_N_AXES)
		return -1;
	*a = (enum mesh_axis)(k - PG_AXES);
	return 0;
}

/*
 * Next degree of axis a after v, stepped as the search grid steps it: a
 * power of two up to PG_MAX_TP, every value up to the layers, and the
 * REST axis (DP) through nice sizes while the GPU count may follow it,
 * else every value up to the GPUs.
 */
static long
degree_step(const struct pg_state *s, enum mesh_axis a, long v, int dir)
{
	const struct mesh_axis_info *x = mesh_axis(a);
	long n = s->cfg.gpus;

	if (x->step == MESH_STEP_POW2)
		return pow2_step(v, dir, 1, PG_MAX_TP);
	if (x->step == MESH_STEP_REST && !(s->locked & (1u << PG_GPUS)))
		return nice_step(v, dir, 1, PG_MAX_GPUS);
	if (x->cap == MESH_CAP_LAYERS)
		n = s->cfg.model.layers;
	v += dir;
	return v >= 1 && v <= n ? v : -1;
}

/* Next value of a numeric knob after v, or -1 at the end of its range. */
static long
num_step(const struct pg_state *s, enum pg_knob k, long v, int dir)
{
	enum mesh_axis a;

	if (pg_knob_axis(k, &a) == 0)
		return degree_step(s, a, v, dir);
	switch (k) {
	case PG_GPUS:
		return nice_step(v, dir, 1, PG_MAX_GPUS);
	case PG_GPN:
		return pow2_step(v, dir, 1, 16);
	case PG_SEQ:
		return pow2_step(v, dir, 256, PG_MAX_SEQ);
	case PG_GLOBAL_BATCH:
		return nice_step(v, dir, 1, PG_MAX_BATCH);
	case PG_MICRO_BATCH:
		return pow2_step(v, dir, 1, PG_MAX_MB);
	case PG_ZERO:
		v += dir;
		return v >= 0 && v <= 3 ? v : -1;
	case PG_VSTAGES:
		v += dir;
		return v >= 1 && v <= PG_MAX_V ? v : -1;
	default:
		return -1;
	}
}

static int *
degree(struct cm_config *c, enum pg_knob k)
{
	enum mesh_axis a;

	if (pg_knob_axis(k, &a) != 0)
		return &c->gpus;
	return (int *)(void *)((char *)c + cm_degree_offset(a));
}

int
pg_knob_shown(const struct pg_state *s, enum pg_knob k)
{
	enum mesh_axis a;

	if (k == PG_EP)
		return pg_ep_shown(&s->cfg);
	if (pg_knob_axis(k, &a) != 0 || !mesh_axis(a)->optional)
		return 1;
	return cm_degree(&s->cfg, a) > 1 ||
	    s->cfg.model.seq >= 2 * MESH_SEQ_CHUNK;
}

/* "DP x TP x PP": the labels of the axes whose knobs are shown. */
static const char *
shown_labels(const struct pg_state *s, char *buf, size_t size)
{
	size_t used = 0;
	int a;

	buf[0] = '\0';
	for (a = 0; a < MESH_N_AXES && used < size; a++)
		if (pg_knob_shown(s, (enum pg_knob)(PG_AXES + a)))
			used += (size_t)snprintf(buf + used, size - used,
			    "%s%s", used ? " x " : "",
			    mesh_axis((enum mesh_axis)a)->label);
	return buf;
}

/*
 * The knobs that may move to keep the degrees' product equal to the GPUs
 * after knob k changed, in the order they are tried: after the GPU count,
 * the axes that follow it; after an axis, the GPU count if that axis
 * absorbs first (DP), then the other axes by the table's absorbs order.
 */
static int
partners(enum pg_knob k, enum pg_knob *out)
{
	enum mesh_axis changed = MESH_N_AXES, a;
	int n = 0, rank, i;

	if (pg_knob_axis(k, &changed) == 0 && mesh_axis(changed)->absorbs == 0)
		out[n++] = PG_GPUS;
	for (rank = 0; rank < MESH_N_AXES; rank++)
		for (i = 0; i < MESH_N_AXES; i++) {
			a = (enum mesh_axis)i;
			if (a == changed || mesh_axis(a)->absorbs != rank ||
			    (k == PG_GPUS && !mesh_axis(a)->follows_gpus))
				continue;
			out[n++] = (enum pg_knob)(PG_AXES + i);
		}
	return n;
}

/*
 * Make the degrees' product equal the GPUs after knob k changed by
 * adjusting the first unlocked partner that can take an integer value.
 * Returns the partner, k itself when nothing needed to change, or
 * PG_N_KNOBS if none can.
 */
static enum pg_knob
balance(const struct pg_state *s, struct cm_config *c, enum pg_knob k)
{
	enum pg_knob with[MESH_N_AXES + 1];
	long prod = cm_layout_gpus(c), rest;
	int i, n = partners(k, with), *slot;

	if (prod == c->gpus)
		return k;
	for (i = 0; i < n; i++) {
		enum pg_knob p = with[i];

		if ((s->locked & (1u << p)) || !pg_knob_shown(s, p))
			continue;
		slot = degree(c, p);
		if (p == PG_GPUS) {
			if (prod < 1 || prod > PG_MAX_GPUS)
				continue;
			*slot = (int)prod;
			return p;
		}
		rest = prod / *slot;
		if (rest < 1 || c->gpus % rest != 0)
			continue;
		*slot = (int)(c->gpus / rest);
		return p;
	}
	return PG_N_KNOBS;
}

/* Step a degree (or GPUs) to the next value that can be balanced. */
static int
change_degree(struct pg_state *s, enum pg_knob k, int dir)
{
	struct cm_config c;
	long v = *degree(&s->cfg, k), first = -1;
	enum pg_knob moved;
	int tries;
	char val[32], labels[64];

	for (tries = 0; tries < PG_MAX_TRIES; tries++) {
		if ((v = num_step(s, k, v, dir)) < 0)
			break;
		if (first < 0)
			first = v;
		c = s->cfg;
		*degree(&c, k) = (int)v;
		if ((moved = balance(s, &c, k)) == PG_N_KNOBS)
			continue;
		s->cfg = c;
		if (moved != k) {
			pg_knob_value(s, moved, val, sizeof val);
			snprintf(s->note, sizeof s->note, _("%s set to %s to keep "
			    "%s = GPUs."), _(pg_knob_label(moved)), val,
			    shown_labels(s, labels, sizeof labels));
		}
		return 1;
	}
	if (first < 0)
		return 0;
	*degree(&s->cfg, k) = (int)first;
	snprintf(s->note, sizeof s->note, _("No unlocked knob could "
	    "restore %s = GPUs."), shown_labels(s, labels, sizeof labels));
	return 1;
}

/* Index of name in the catalog list, or -1. */
static long
find_model(const struct hw_catalog *cat, const char *name)
{
	size_t i;

	for (i = 0; i < cat->n_models; i++)
		if (strcmp(cat->models[i].name, name) == 0)
			return (long)i;
	return -1;
}

static long
find_gpu(const struct hw_catalog *cat, const char *name)
{
	size_t i;

	for (i = 0; i < cat->n_gpus; i++)
		if (strcmp(cat->gpus[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* Next catalog index after i (or before), or -1. */
static long
index_step(long i, size_t n, int dir)
{
	if (i < 0)
		return n > 0 ? (dir > 0 ? 0 : (long)n - 1) : -1;
	i += dir;
	return i >= 0 && i < (long)n ? i : -1;
}

static int
change_model(struct pg_state *s, int dir)
{
	long i = index_step(find_model(s->cat, s->cfg.model.name),
	    s->cat->n_models, dir);
	int seq = s->cfg.model.seq;

	if (i < 0)
		return 0;
	s->cfg.model = s->cat->models[i];
	if (!pg_ep_shown(&s->cfg))	/* a dense model has no EP */
		s->cfg.ep = 0;
	if (s->locked & (1u << PG_SEQ))
		s->cfg.model.seq = seq;
	if (!(s->locked & (1u << PG_GLOBAL_BATCH)) &&
	    s->cfg.model.global_batch > 0)
		s->cfg.global_batch = s->cfg.model.global_batch;
	return 1;
}

static int
change_gpu(struct pg_state *s, int dir)
{
	long i = index_step(find_gpu(s->cat, s->cfg.gpu.name),
	    s->cat->n_gpus, dir);
	const struct hw_gpu *g;

	if (i < 0)
		return 0;
	g = &s->cat->gpus[i];
	s->cfg.gpu = *g;
	s->cfg.intra_bw = g->nvlink_bw;
	s->cfg.intra_eff = g->nvlink_eff;
	s->cfg.inter_bw = g->inter_bw;
	s->cfg.intra_lat_s = g->intra_lat_s;
	s->cfg.inter_lat_s = g->inter_lat_s;
	return 1;
}

/* Step an enumerated setting among n values; 0 at the ends. */
static int
enum_step(int *v, int n, int dir)
{
	if (*v + dir < 0 || *v + dir >= n)
		return 0;
	*v += dir;
	return 1;
}

static int
change_schedule(struct pg_state *s, int dir)
{
	int v = (int)s->cfg.schedule;

	if (!enum_step(&v, 3, dir))
		return 0;
	s->cfg.schedule = (enum pipe_schedule)v;
	if (s->cfg.schedule == PIPE_INTERLEAVED &&
	    s->cfg.virtual_stages < 2 && !(s->locked & (1u << PG_VSTAGES))) {
		s->cfg.virtual_stages = CM_INTERLEAVED_V;
		snprintf(s->note, sizeof s->note, _("Virtual stages set to %d "
		    "for the interleaved schedule."), CM_INTERLEAVED_V);
	} else if (s->cfg.schedule != PIPE_INTERLEAVED &&
	    s->cfg.virtual_stages != 1 && !(s->locked & (1u << PG_VSTAGES))) {
		s->cfg.virtual_stages = 1;
		snprintf(s->note, sizeof s->note, "%s", _("Virtual stages set "
		    "to 1: only the interleaved schedule uses them."));
	}
	return 1;
}

static int
change_vstages(struct pg_state *s, int dir)
{
	long v = num_step(s, PG_VSTAGES, s->cfg.virtual_stages, dir);

	if (v < 0)
		return 0;
	s->cfg.virtual_stages = (int)v;
	if (v > 1 && s->cfg.schedule != PIPE_INTERLEAVED &&
	    !(s->locked & (1u << PG_SCHEDULE))) {
		s->cfg.schedule = PIPE_INTERLEAVED;
		snprintf(s->note, sizeof s->note, "%s", _("Schedule set to "
		    "interleaved: only it uses virtual stages."));
	} else if (v == 1 && s->cfg.schedule == PIPE_INTERLEAVED &&
	    !(s->locked & (1u << PG_SCHEDULE))) {
		s->cfg.schedule = PIPE_1F1B;
		snprintf(s->note, sizeof s->note, "%s", _("Schedule set to "
		    "1f1b: one virtual stage is not interleaving."));
	}
	return 1;
}

/* Step a plain numeric knob held in an int or long field. */
static int
change_number(struct pg_state *s, enum pg_knob k, int dir)
{
	long cur, v;

	cur = k == PG_GPN ? s->cfg.gpus_per_node : k == PG_SEQ ?
	    s->cfg.model.seq : k == PG_GLOBAL_BATCH ? s->cfg.global_batch :
	    k == PG_MICRO_BATCH ? s->cfg.micro_batch : s->cfg.zero;
	if ((v = num_step(s, k, cur, dir)) < 0)
		return 0;
	if (k == PG_GPN)
		s->cfg.gpus_per_node = (int)v;
	else if (k == PG_SEQ)
		s->cfg.model.seq = (int)v;
	else if (k == PG_GLOBAL_BATCH)
		s->cfg.global_batch = v;
	else if (k == PG_MICRO_BATCH)
		s->cfg.micro_batch = (int)v;
	else
		s->cfg.zero = (int)v;
	return 1;
}

static int
change_enum(struct pg_state *s, enum pg_knob k, int dir)
{
	int v, rc;

	switch (k) {
	case PG_RECOMPUTE:
		v = (int)s->cfg.recompute;
		if ((rc = enum_step(&v, 3, dir)))
			s->cfg.recompute = (enum cm_recompute)v;
		return rc;
	case PG_SP:
		return enum_step(&s->cfg.seq_parallel, 2, dir);
	case PG_ATTENTION:
		v = (int)s->cfg.attention;
		if ((rc = enum_step(&v, 2, dir)))
			s->cfg.attention = (enum cm_attention)v;
		return rc;
	case PG_SCHEDULE:
		return change_schedule(s, dir);
	case PG_RANK_ORDER:	/* each distinct order once (CP 1) */
		v = (int)s->cfg.rank_order;
		while ((rc = enum_step(&v, MESH_N_ORDERS, dir)) &&
		    !mesh_order_canonical(v, s->cfg.degree))
			;
		if (rc)
			s->cfg.rank_order = v;
		return rc;
	default:
		return change_vstages(s, dir);
	}
}

/* The note for a knob that cannot go further in direction dir. */
static void
note_end(struct pg_state *s, enum pg_knob k, int dir)
{
	char val[64];

	pg_knob_value(s, k, val, sizeof val);
	snprintf(s->note, sizeof s->note, dir > 0 ?
	    _("%s: %s is the last value; there is none after it.") :
	    _("%s: %s is the first value; there is none before it."),
	    _(pg_knob_label(k)), val);
}

int
pg_change(struct pg_state *s, enum pg_knob k, int dir)
{
	enum mesh_axis a;
	int rc;

	s->note[0] = '\0';
	if (k >= PG_N_KNOBS)
		return 0;
	if (s->locked & (1u << k)) {
		snprintf(s->note, sizeof s->note, _("%s is locked in this "
		    "scenario."), _(pg_knob_label(k)));
		return -1;
	}
	dir = dir < 0 ? -1 : 1;
	switch (pg_knob_axis(k, &a) == 0 ? PG_GPUS : k) {
	case PG_MODEL:
		rc = change_model(s, dir);
		break;
	case PG_GPU:
		rc = change_gpu(s, dir);
		break;
	case PG_GPUS:	/* and every axis's degree */
		rc = change_degree(s, k, dir);
		break;
	case PG_GPN: case PG_SEQ: case PG_GLOBAL_BATCH: case PG_MICRO_BATCH:
	case PG_ZERO:
		rc = change_number(s, k, dir);
		break;
	case PG_EP:
		rc = pg_ep_change(&s->cfg, dir);
		break;
	default:
		rc = change_enum(s, k, dir);
		break;
	}
	if (rc) {
		s->changes++;
		evaluate(s);
	} else
		note_end(s, k, dir);
	return rc;
}

void
pg_apply(struct pg_state *s, const struct cm_config *cfg)
{
	s->note[0] = '\0';
	s->cfg = *cfg;
	s->changes++;
	evaluate(s);
}

void
pg_search_config(const struct pg_state *s, struct cm_config *out)
{
	*out = s->cfg;
	out->framework = s->framework0;
}

int
pg_is_row(const struct pg_state *s, const struct cm_config *r)
{
	struct cm_config row = *r;

	if (s->cfg.framework == CM_FW_AUTO)
		row.framework = CM_FW_AUTO;
	return cm_same_shape(&row, &s->cfg);
}

void
pg_knob_value(const struct pg_state *s, enum pg_knob k, char *buf,
    size_t size)
{
	const struct cm_config *c = &s->cfg;
	enum mesh_axis a;

	if (pg_knob_axis(k, &a) == 0) {
		snprintf(buf, size, "%d", cm_degree(c, a));
		return;
	}
	switch (k) {
	case PG_MODEL: snprintf(buf, size, "%s", c->model.name); break;
	case PG_GPU: snprintf(buf, size, "%s", c->gpu.name); break;
	case PG_GPUS: snprintf(buf, size, "%d", c->gpus); break;
	case PG_GPN: snprintf(buf, size, "%d", c->gpus_per_node); break;
	case PG_SEQ: snprintf(buf, size, "%d", c->model.seq); break;
	case PG_GLOBAL_BATCH: snprintf(buf, size, "%ld", c->global_batch);
		break;
	case PG_MICRO_BATCH: snprintf(buf, size, "%d", c->micro_batch); break;
	case PG_ZERO: snprintf(buf, size, "%d", c->zero); break;
	case PG_RECOMPUTE:
		snprintf(buf, size, "%s", cm_recompute_name(c->recompute));
		break;
	case PG_SP: snprintf(buf, size, "%s", c->seq_parallel ? _("on") :
	    _("off")); break;
	case PG_SCHEDULE:
		snprintf(buf, size, "%s", pipe_schedule_name(c->schedule));
		break;
	case PG_VSTAGES: snprintf(buf, size, "%d", c->virtual_stages); break;
	case PG_ATTENTION:
		snprintf(buf, size, "%s", cm_attention_name(c->attention));
		break;
	case PG_RANK_ORDER:
		mesh_order_short(c->rank_order, c->degree, buf, size);
		break;
	case PG_EP: snprintf(buf, size, "%d", pg_ep_degree(c)); break;
	default: snprintf(buf, size, "?"); break;
	}
}

void
pg_layout_text(const struct cm_config *c, char *buf, size_t size)
{
	size_t used = 0;
	int a;

	buf[0] = '\0';
	for (a = 0; a < MESH_N_AXES && used < size; a++)
		if (!mesh_axis((enum mesh_axis)a)->optional ||
		    cm_degree(c, (enum mesh_axis)a) > 1)
			used += (size_t)snprintf(buf + used, size - used,
			    "%s=%d ", mesh_axis((enum mesh_axis)a)->key,
			    cm_degree(c, (enum mesh_axis)a));
	if (used >= size)
		return;
	snprintf(buf + used, size - used, "mb=%d zero=%d recompute=%s "
	    "sp=%s schedule=%s v=%d attention=%s seq=%d gb=%ld gpus=%d gpn=%d "
	    "model=%s gpu=%s", c->micro_batch, c->zero,
	    cm_recompute_name(c->recompute), c->seq_parallel ? "on" : "off",
	    pipe_schedule_name(c->schedule), c->virtual_stages,
	    cm_attention_name(c->attention), c->model.seq, c->global_batch,
	    c->gpus, c->gpus_per_node, c->model.name, c->gpu.name);
	if (c->rank_order != 0 && strlen(buf) + 1 < size) {
		char o[MESH_N_AXES * 8];

		snprintf(buf + strlen(buf), size - strlen(buf), " order=%s",
		    mesh_order_short(c->rank_order, c->degree, o, sizeof o));
	}
	if (pg_ep_degree(c) > 1 && strlen(buf) + 1 < size)
		snprintf(buf + strlen(buf), size - strlen(buf), " ep=%d",
		    pg_ep_degree(c));
}

/* Knob k of c as a number (names compared separately). */
static long
knob_num(const struct cm_config *c, enum pg_knob k)
{
	enum mesh_axis a;

	if (pg_knob_axis(k, &a) == 0)
		return cm_degree(c, a);
	switch (k) {
	case PG_GPUS: return c->gpus;
	case PG_GPN: return c->gpus_per_node;
	case PG_SEQ: return c->model.seq;
	case PG_GLOBAL_BATCH: return c->global_batch;
	case PG_MICRO_BATCH: return c->micro_batch;
	case PG_ZERO: return c->zero;
	case PG_RECOMPUTE: return (long)c->recompute;
	case PG_SP: return c->seq_parallel;
	case PG_SCHEDULE: return (long)c->schedule;
	case PG_VSTAGES: return c->virtual_stages;
	case PG_ATTENTION: return (long)c->attention;
	case PG_RANK_ORDER: return (long)c->rank_order;
	case PG_EP: return pg_ep_degree(c);
	default: return 0;
	}
}

int
pg_same_knobs(const struct cm_config *a, const struct cm_config *b,
    unsigned mask)
{
	int k;

	for (k = 0; k < PG_N_KNOBS; k++) {
		if (!(mask & (1u << k)))
			continue;
		if (k == PG_MODEL && strcmp(a->model.name, b->model.name) != 0)
			return 0;
		if (k == PG_GPU && strcmp(a->gpu.name, b->gpu.name) != 0)
			return 0;
		if (knob_num(a, (enum pg_knob)k) != knob_num(b, (enum pg_knob)k))
			return 0;
	}
	return 1;
}

int
pg_rank(const struct cm_search *s, const struct cm_result *r)
{
	return cm_search_rank(s, r, NULL);
}
