/*
 * lab_verify.c - what a run step's grade can rest on: the file a student
 * hands in, checked against itself and against the simulator's run of
 * the same configuration, which is deterministic.
 *
 * A file cannot show who ran it, where, or that its times were measured
 * (labs/README.md). It can show that it is the document `parlearn run`
 * writes (a trace document is the simulator's, whatever block is pasted
 * into it); that its layout is the mode's; that its events are those of
 * the simulator's run of the layout, with times of their own (a run
 * records each collective whole, never the simulator's ring steps, and
 * numbers collectives its own way); that its summary is its events'; and
 * that its loss and differences are what the simulator computes: bit for
 * bit with ordered reductions, within LAB_RUN_TOLERANCE with the MPI
 * library's order.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/json.h"
#include "core/lab/lab.h"

#define GRAD_SLACK	1e-13	/* rounding in a bound between differences */

/*
 * cJSON writes a number with 15 digits when those read back within a
 * rounding error of it, so a number read from the file is the one
 * written to within a few units in the last place of scale.
 */
static int
near(double a, double b, double scale)
{
	return fabs(a - b) <= 4 * DBL_EPSILON * fabs(scale);
}

static int
same(double a, double b)
{
	return near(a, b, fmax(fabs(a), fabs(b)));
}

struct doc {
	const cJSON		*root, *measured, *simulator;
	const struct sim_config	*cfg;
	const char		*file;
	struct pl_err		*err;
	char			 what[64];	/* "dp on 4 GPUs" */
	int			 mpi;		/* --reduce mpi */
};

static int
refuse(struct doc *d, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
refuse(struct doc *d, const char *path, const char *fmt, ...)
{
	char msg[sizeof d->err->msg];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pl_err_set_path(d->err, d->file, path, "%s", msg);
	return -1;
}

static const cJSON *
object(struct doc *d, const cJSON *o, const char *key)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsObject(m)) {
		refuse(d, key, "%s", _("must be an object, as parlearn run "
		    "writes it"));
		return NULL;
	}
	return m;
}

/* A parlearn.run/1 document: its "measured" and "simulator" blocks. */
static int
check_kind(struct doc *d)
{
	const char *schema = NULL, *reduce = NULL;

	if (pl_json_string(d->root, "schema", 0, &schema, d->file, "",
	    d->err) != 0)
		return -1;
	if (schema != NULL && strcmp(schema, "parlearn.trace/1") == 0)
		return refuse(d, "measured", "%s", _("a parlearn trace document "
		    "carries no \"measured\" block: trace simulates, only "
		    "parlearn run measures"));
	if (schema == NULL || strcmp(schema, "parlearn.run/1") != 0)
		return refuse(d, "schema", "%s", _("not a parlearn.run/1 "
		    "document: hand in the file parlearn run -o FILE writes"));
	if ((d->measured = object(d, d->root, "measured")) == NULL ||
	    (d->simulator = object(d, d->root, "simulator")) == NULL ||
	    pl_json_string(d->measured, "reduce", 1, &reduce, d->file,
	    "measured", d->err) != 0)
		return -1;
	if (strcmp(reduce, "ordered") != 0 && strcmp(reduce, "mpi") != 0)
		return refuse(d, "measured.reduce", _("unknown value '%s'"),
		    reduce);
	d->mpi = strcmp(reduce, "mpi") == 0;
	return 0;
}

static int
int_is(struct doc *d, const cJSON *o, const char *key, const char *path,
    long want, int *same)
{
	long v = 0;

	if (pl_json_int(o, key, 1, -1, 1L << 30, &v, d->file, path,
	    d->err) != 0)
		return -1;
	*same = v == want;
	return 0;
}

/* Each device's replica, stage, TP rank and layers: sim_device_place's. */
static int
check_devices(struct doc *d, const struct sim_result *res)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(d->root, "devices");
	const cJSON *e, *l, *lay;
	struct sim_place pl;
	char path[64];
	unsigned mask;
	int i = 0, s1, s2, s3, s4;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != d->cfg->gpus)
		return refuse(d, "devices", _("must list the %d devices of %s"),
		    d->cfg->gpus, d->what);
	cJSON_ArrayForEach(e, a) {
		pl_json_path_index(path, sizeof path, "devices", i);
		sim_device_place(res, i, &pl);
		if (!cJSON_IsObject(e) || int_is(d, e, "device", path, i,
		    &s1) != 0 || int_is(d, e, "replica", path, pl.replica,
		    &s2) != 0 || int_is(d, e, "stage", path, pl.stage,
		    &s3) != 0 || int_is(d, e, "tp_rank", path, pl.tp_rank,
		    &s4) != 0)
			return d->err->msg[0] != '\0' ? -1 : refuse(d, path,
			    "%s", _("must be an object"));
		mask = 0;
		lay = cJSON_GetObjectItemCaseSensitive(e, "layers");
		if (!cJSON_IsArray(lay))
			lay = NULL;
		cJSON_ArrayForEach(l, lay)
			if (cJSON_IsNumber(l) && l->valuedouble >= 1 &&
			    l->valuedouble <= SIM_LAYERS)
				mask |= 1u << ((int)l->valuedouble - 1);
			else
				mask = ~0u;
		if (!s1 || !s2 || !s3 || !s4 || mask != pl.layers)
			return refuse(d, path, _("G%d is not placed as in %s "
			    "(replica %d, stage %d, TP rank %d)"), i, d->what,
			    pl.replica, pl.stage, pl.tp_rank);
		i++;
	}
	return 0;
}

/* Processes, the dp x tp x pp members, devices, and hosts per rank. */
static int
check_layout(struct doc *d, const struct sim_result *res,
    const struct sim_origin *o)
{
	const cJSON *h, *a, *b;
	int s1, s2, s3, hosts = 0, one = 0, seen;

	if (o->processes != d->cfg->gpus)
		return refuse(d, "measured.processes", _("%d processes for %s: "
		    "a run has one process per GPU"), o->processes, d->what);
	if (int_is(d, d->root, "dp", "", res->dp, &s1) != 0 ||
	    int_is(d, d->root, "tp", "", res->tp, &s2) != 0 ||
	    int_is(d, d->root, "pp", "", res->pp, &s3) != 0)
		return -1;
	if (!s1 || !s2 || !s3)
		return refuse(d, "dp", _("not the layout of %s: dp %d x tp %d "
		    "x pp %d"), d->what, res->dp, res->tp, res->pp);
	if (check_devices(d, res) != 0)
		return -1;
	h = cJSON_GetObjectItemCaseSensitive(d->measured, "host_of_rank");
	if (!cJSON_IsArray(h) || cJSON_GetArraySize(h) != o->processes)
		return refuse(d, "measured.host_of_rank", _("must name the host "
		    "of each of the %d processes"), o->processes);
	cJSON_ArrayForEach(a, h) {
		if (!cJSON_IsString(a))
			return refuse(d, "measured.host_of_rank", "%s",
			    _("must be an array of host names"));
		seen = 0;
		for (b = h->child; b != a; b = b->next)
			seen |= strcmp(b->valuestring, a->valuestring) == 0;
		hosts += !seen;
	}
	if (pl_json_bool(d->measured, "one_host", 1, &one, d->file,
	    "measured", d->err) != 0)
		return -1;
	if (hosts != o->hosts || one != (hosts == 1))
		return refuse(d, "measured.hosts", _("%d hosts, while the ranks "
		    "name %d"), o->hosts, hosts);
	return 0;
}

/* An event as both runs have it: no times, no collective numbering. */
struct evkey {
	int	 v[11];
	size_t	 bytes;
	double	 start, end;
};

/* By what happened, not when. */
static int
cmp_shape(const struct evkey *a, const struct evkey *b)
{
	int i;

	for (i = 0; i < 11; i++)
		if (a->v[i] != b->v[i])
			return a->v[i] < b->v[i] ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	return 0;
}

static int
cmp_key(const void *pa, const void *pb)
{
	const struct evkey *a = pa, *b = pb;
	int c = cmp_shape(a, b);

	if (c != 0 || a->start == b->start)
		return c;
	return a->start < b->start ? -1 : 1;
}

/* tl's events but idle gaps (and ring steps, unless rings) as keys. */
static struct evkey *
keys(const struct sim_timeline *tl, int rings, size_t *n)
{
	struct evkey *k = malloc((tl->n_ev + 1) * sizeof *k);
	size_t i;

	*n = 0;
	for (i = 0; k != NULL && i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];
		struct evkey *x = &k[*n];

		if (e->kind == SIM_IDLE || (e->kind == SIM_RING_STEP && !rings))
			continue;
		x->v[0] = e->device;
		x->v[1] = (int)e->kind;
		x->v[2] = (int)e->what;
		x->v[3] = (int)e->part;
		x->v[4] = e->layer;
		x->v[5] = e->microbatch;
		x->v[6] = e->shard;
		x->v[7] = e->chunk;
		x->v[8] = e->peer;
		x->v[9] = e->ring_steps;
		x->v[10] = e->overlap;
		x->bytes = e->bytes;
		x->start = e->start;
		x->end = e->end;
		(*n)++;
	}
	if (k != NULL)
		qsort(k, *n, sizeof *k, cmp_key);
	return k;
}

static int
check_events(struct doc *d, const struct sim_result *res,
    const struct sim_result *sim)
{
	struct evkey *a, *b;
	size_t na, nb, i, same_time = 0;
	int rc = 0;

	a = keys(&res->tl, 1, &na);
	b = keys(&sim->tl, 0, &nb);
	if (a == NULL || b == NULL) {
		free(a);
		free(b);
		pl_err_set(d->err, d->file, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	for (i = 0; i < na && a[i].v[1] != SIM_RING_STEP; i++)
		;
	if (i < na)
		rc = refuse(d, "events", "%s", _("ring steps are the "
		    "simulator's: a run records each collective whole"));
	for (i = 0; rc == 0 && i < na && i < nb; i++) {
		if (cmp_shape(&a[i], &b[i]) != 0)
			break;
		same_time += same(a[i].start, b[i].start) &&
		    same(a[i].end, b[i].end);
	}
	if (rc == 0 && (i < na || i < nb))
		rc = refuse(d, "events", _("not the events of %s: the "
		    "simulator's run of it has %zu, this file %zu, the first "
		    "that differs %s on G%d"), d->what, nb, na,
		    sim_kind_name((enum sim_kind)(i < na ? a : b)[i].v[1]),
		    (i < na ? a : b)[i].v[0]);
	if (rc == 0 && same_time == na)
		rc = refuse(d, "events", "%s", _("its times are the "
		    "simulator's model, not measured: a trace timeline is not "
		    "a run"));
	free(a);
	free(b);
	return rc;
}

/* The summary members, as recomputed from the events on reading. */
static int
check_summary(struct doc *d, const struct sim_result *res)
{
	double bytes = 0, step = 0, bub = 0, formula = 0;

	if (pl_json_number(d->root, "bytes_moved", 1, 0, 1e18, &bytes, d->file,
	    "", d->err) != 0 || pl_json_number(d->root, "step_time_s", 1, 0,
	    1e9, &step, d->file, "", d->err) != 0 ||
	    pl_json_number(d->root, "bubble_fraction", 1, 0, 1, &bub, d->file,
	    "", d->err) != 0 || pl_json_number(d->root,
	    "bubble_formula_fraction", 1, 0, 1, &formula, d->file, "",
	    d->err) != 0)
		return -1;
	if (bytes != (double)res->bytes_moved)
		return refuse(d, "bytes_moved", _("%.0f, while its events move "
		    "%zu bytes"), bytes, res->bytes_moved);
	if (fabs(step - res->step_time) > 1e-9 * fmax(1, res->step_time))
		return refuse(d, "step_time_s", _("%.9g s, while its events "
		    "span %.9g s"), step, res->step_time);
	if (fabs(bub - res->bubble) > 1e-9 ||
	    fabs(formula - res->bubble_formula) > 1e-12)
		return refuse(d, "bubble_fraction", _("%.6g (formula %.6g), "
		    "while its events leave %.6g (formula %.6g)"), bub, formula,
		    res->bubble, res->bubble_formula);
	return 0;
}

/*
 * Ordered reductions claim the simulator's numbers bit for bit; the MPI
 * library's order is within the tolerance. Either way its largest
 * difference from one device is bound to the simulator's by the
 * triangle inequality over the largest difference between the two.
 */
static int
bound(struct doc *d, const char *key, double e_run, double e_sim,
    double diff)
{
	if (diff == 0 ? same(e_run, e_sim) : fabs(e_run - e_sim) <= diff +
	    GRAD_SLACK && diff <= e_run + e_sim + GRAD_SLACK)
		return 0;
	return refuse(d, key, _("%.3g: the simulator's run of %s differs "
	    "from one device by %.3g and this run from it by %.3g, so this "
	    "cannot be"), e_run, d->what, e_sim, diff);
}

static int
check_numbers(struct doc *d, const struct sim_result *res,
    const struct sim_result *sim, const struct sim_result *one)
{
	double sl = 0, dl = 0, dg = 0, dp = 0, tol = d->mpi ?
	    LAB_RUN_TOLERANCE : 0;
	int bit = 0;

	if (pl_json_number(d->simulator, "loss", 1, -1e300, 1e300, &sl,
	    d->file, "simulator", d->err) != 0 ||
	    pl_json_number(d->simulator, "max_loss_diff", 1, 0, 1e300, &dl,
	    d->file, "simulator", d->err) != 0 ||
	    pl_json_number(d->simulator, "max_grad_diff", 1, 0, 1e300, &dg,
	    d->file, "simulator", d->err) != 0 ||
	    pl_json_number(d->simulator, "max_param_diff", 1, 0, 1e300, &dp,
	    d->file, "simulator", d->err) != 0 ||
	    pl_json_bool(d->simulator, "bit_for_bit", 1, &bit, d->file,
	    "simulator", d->err) != 0)
		return -1;
	if (!same(sl, sim->loss))
		return refuse(d, "simulator.loss", _("%.17g, while the "
		    "simulator computes %.17g for %s"), sl, sim->loss, d->what);
	if (fabs(res->loss - sim->loss) > tol && !same(res->loss, sim->loss))
		return refuse(d, "loss", d->mpi ? _("%.17g is not a loss of %s: "
		    "the simulator computes %.17g, and a run in the MPI "
		    "library's order agrees with it to 1e-9") : _("%.17g is not "
		    "the loss of %s: the simulator computes %.17g, and a run "
		    "with ordered reductions agrees with it bit for bit"),
		    res->loss, d->what, sim->loss);
	if (!near(dl, fabs(res->loss - sim->loss), sl) || bit != (dl == 0 &&
	    dg == 0 && dp == 0))
		return refuse(d, "simulator", _("its differences from the "
		    "simulator (loss %.3g, bit for bit: %s) are not those of "
		    "its loss"), dl, bit ? "true" : "false");
	if (dg > tol || dp > tol)
		return refuse(d, "simulator", d->mpi ? _("gradients %.3g and "
		    "parameters %.3g from the simulator's: a run in the MPI "
		    "library's order agrees to 1e-9") : _("gradients %.3g and "
		    "parameters %.3g from the simulator's: a run with ordered "
		    "reductions agrees bit for bit"), dg, dp);
	if (!near(res->max_loss_error, fabs(res->loss - one->loss), sl))
		return refuse(d, "max_loss_error", _("%.3g, while its loss "
		    "differs from one device's by %.3g"), res->max_loss_error,
		    fabs(res->loss - one->loss));
	return bound(d, "max_grad_error", res->max_grad_error,
	    sim_max_diff(sim->grads, one->grads, SIM_NPARAMS), dg) != 0 ||
	    bound(d, "max_param_error", res->max_param_error,
	    sim_max_diff(sim->params, one->params, SIM_NPARAMS), dp) != 0 ?
	    -1 : 0;
}

int
lab_run_verify(const cJSON *root, const struct sim_config *cfg,
    const struct sim_result *res, const struct sim_origin *o,
    const char *file, struct pl_err *err)
{
	struct sim_result *sim = calloc(2, sizeof *sim), *one = sim + 1;
	struct sim_config single;
	struct doc d;
	int rc;

	memset(&d, 0, sizeof d);
	d.root = root;
	d.cfg = cfg;
	d.file = file;
	d.err = err;
	snprintf(d.what, sizeof d.what, _("%s on %d GPUs"),
	    sim_mode_name(cfg->mode), cfg->gpus);
	pl_err_clear(err);
	sim_config_default(&single, SIM_SINGLE, 1);
	if (sim == NULL || sim_run(cfg, sim, err) != 0 ||
	    sim_run(&single, one, err) != 0) {
		if (sim != NULL)
			sim_result_free(sim);
		free(sim);
		pl_err_set(err, file, 0, 0, "%s", _("out of memory"));
		return -1;
	}
	rc = !o->measured ? refuse(&d, "", "%s", _("not a measured run: write "
	    "one with parlearn run -o FILE")) : check_kind(&d);
	if (rc == 0)
		rc = check_layout(&d, res, o);
	if (rc == 0)
		rc = check_events(&d, res, sim);
	if (rc == 0)
		rc = check_summary(&d, res);
	if (rc == 0)
		rc = check_numbers(&d, res, sim, one);
	sim_result_free(sim);
	sim_result_free(one);
	free(sim);
	return rc;
}
