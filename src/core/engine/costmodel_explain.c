/*
 * costmodel_explain.c - the reasons attached to a result, each a stable
 * code and a translated sentence.
 *
 * One layout on its own (cm_explain): does it fit and with how much memory
 * free, what dominates the step, which choices cost time, and whether the
 * search would rank it. Codes: fits, does_not_fit, dominant,
 * tp_inter_node, pipeline_unfilled, bubble_share, host_bound,
 * dp_comm_exposed, tp_comm_share, tp_overlap, search_excluded.
 *
 * A ranked row (cm_explain_ranked): what it wins and loses against the
 * rows next to it (the row above, the row below; the best row, having
 * none above, what it wins and gives up against the second), found by comparing the two results part by part (the
 * largest difference in compute, TP, PP, exposed DP/ZeRO traffic, bubble,
 * optimizer step, or free memory) and naming the settings that differ
 * where that part comes from. Codes: tie, compute_time, tp_comm_share,
 * pp_comm_share, dp_comm_exposed, bubble_share, optimizer_time, headroom,
 * tp_overlap, dominant.
 *
 * tp_overlap (issue 12 section 4): with TP overlap on, the layout is also
 * evaluated without it; when that changes a verdict (communication-bound
 * instead of compute-bound, fits or not, or a ranked row falling behind a
 * row below it by more than the tie tolerance) a reason says how much TP
 * all-reduce the overlap hides and what the verdict would be.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/engine/framework.h"

/* Differences smaller than this share of the step are not reasons. */
#define MIN_SHARE	0.005
/* idle SMs named from this share of the products' time */
#define IDLE_SMS_SHARE	0.05
/* Free memory must differ by this much (share of the GPU) to count. */
#define MIN_HEADROOM	0.03

static void add(struct cm_result *r, const char *code, enum cm_effect effect,
    int vs, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
add(struct cm_result *r, const char *code, enum cm_effect effect, int vs,
    const char *fmt, ...)
{
	struct cm_reason *rs;
	va_list ap;

	if (r->n_reasons >= CM_MAX_REASONS)
		return;
	rs = &r->reasons[r->n_reasons++];
	rs->code = code;
	rs->effect = effect;
	rs->vs = vs;
	va_start(ap, fmt);
	vsnprintf(rs->text, sizeof rs->text, fmt, ap);
	va_end(ap);
}

/* ---- one layout ---- */

/* The parts of a step, in the order of enum part. */
enum part { P_COMPUTE, P_TP, P_PP, P_DP, P_BUBBLE, P_OPTIM, P_N };

static double
part_time(const struct cm_result *r, enum part k)
{
	switch (k) {
	/* with what collectives beside it slow */
	case P_COMPUTE: return r->t_compute + r->t_comm_slowed;
	case P_TP: return r->t_tp_exposed;	/* overlap hides the rest */
	case P_PP: return r->t_pp;
	case P_DP: return r->t_dp_exposed;
	case P_BUBBLE: return r->t_bubble;
	default: return r->t_optimizer;
	}
}

static void
explain_memory(struct cm_result *r)
{
	if (r->fits)
		add(r, "fits", CM_NOTE, 0, _("fits: %.1f GB of %.1f GB usable "
		    "per GPU, %.0f%% of its memory free"), r->mem_total / 1e9,
		    r->mem_usable / 1e9, 100 * r->headroom);
	else
		add(r, "does_not_fit", CM_NOTE, 0, _("does not fit: needs "
		    "%.1f GB per GPU, %.1f GB usable (%.1f GB over)"),
		    r->mem_total / 1e9, r->mem_usable / 1e9,
		    (r->mem_total - r->mem_usable) / 1e9);
}

static const char *const part_name[P_N] = { N_("compute"),
    N_("TP communication"), N_("PP communication"),
    N_("exposed DP communication"), N_("the pipeline bubble"),
    N_("the optimizer step") };

/* The largest part of r's step. */
static enum part
dominant_part(const struct cm_result *r)
{
	int k, best = 0;

	for (k = 1; k < P_N; k++)
		if (part_time(r, (enum part)k) > part_time(r, (enum part)best))
			best = k;
	return (enum part)best;
}

static int
is_comm(enum part k)
{
	return k == P_TP || k == P_PP || k == P_DP;
}

static void
explain_dominant(struct cm_result *r)
{
	enum part best;

	if (r->t_step <= 0)
		return;
	best = dominant_part(r);
	add(r, "dominant", CM_NOTE, 0, _("%s dominates: %.0f%% of the "
	    "%.3f s step"), _(part_name[best]), 100 * part_time(r, best) /
	    r->t_step, r->t_step);
}

/*
 * With TP overlap on and hiding a share of the step worth naming: r's
 * layout evaluated without it into o. Returns 0 when there is nothing to
 * compare.
 */
static int
without_tp_overlap(const struct cm_result *r, struct cm_result *o)
{
	struct cm_config c = r->cfg;

	if (!c.tp_overlap || r->t_tp - r->t_tp_exposed < MIN_SHARE * r->t_step)
		return 0;
	c.tp_overlap = 0;
	cm_evaluate_quick(&c, o);
	return 1;
}

/*
 * The tp_overlap reason when a verdict changes without the overlap; behind
 * is the last row of the n_listed rows of a ranking the layout would fall
 * behind (0: none). Adds
 * nothing when no verdict changes.
 */
static void
add_tp_overlap(struct cm_result *r, const struct cm_result *o, int behind,
    int n_listed)
{
	double hid = r->t_tp - r->t_tp_exposed;
	enum part d = dominant_part(o);
	char why[CM_REASON_LEN];

	if (behind > 0 && behind == n_listed)
		snprintf(why, sizeof why, _("without it its step would be "
		    "%.3f s, behind all %d rows listed"), o->t_step, behind);
	else if (behind > 0)
		snprintf(why, sizeof why, _("without it its step would be "
		    "%.3f s, behind #%d"), o->t_step, behind);
	else if (r->fits != o->fits)
		snprintf(why, sizeof why, "%s", o->fits ? _("without it this "
		    "layout fits") : _("without it this layout does not fit"));
	else if (is_comm(d) && !is_comm(dominant_part(r)))
		snprintf(why, sizeof why, _("without it this layout is "
		    "communication-bound (%s %.0f%% of a %.3f s step)"),
		    _(part_name[d]), 100 * part_time(o, d) / o->t_step,
		    o->t_step);
	else
		return;
	add(r, "tp_overlap", CM_NOTE, behind, _("TP overlap hides %.2f s of "
	    "TP all-reduce; %s"), hid, why);
}

/*
 * Products that leave SMs idle (costmodel_gemm.h): what the default's tile
 * model adds to the matrix products over the shape rule alone, when it is
 * a share worth naming.
 */
static void
explain_idle_sms(struct cm_result *r)
{
	struct cm_config c = r->cfg;
	struct cm_result o;
	double loss;

	if (c.gemm_model != CM_GEMM_COMBINED || r->t_gemm < MIN_SHARE *
	    r->t_step)
		return;
	c.gemm_model = CM_GEMM_RULE;
	cm_evaluate_quick(&c, &o);
	loss = r->t_gemm - o.t_gemm;
	if (loss <= IDLE_SMS_SHARE * r->t_gemm)
		return;
	if (c.model.experts > 0 && c.kernels == CM_KERNELS_EAGER)
		add(r, "idle_sms", CM_NOTE, 0, _("%.0f%% of the products' "
		    "%.0f ms is idle SMs: one expert's product alone has too "
		    "few output tiles (a grouped GEMM, fused or compiled, "
		    "shares the waves)"), 100 * loss / r->t_gemm,
		    1e3 * r->t_gemm);
	else
		add(r, "idle_sms", CM_NOTE, 0, _("%.0f%% of the products' "
		    "%.0f ms is idle SMs: too few output tiles to fill the "
		    "waves (more tokens per micro-batch, or less TP, add "
		    "tiles)"), 100 * loss /
		    r->t_gemm, 1e3 * r->t_gemm);
}

void
cm_explain(struct cm_result *r)
{
	const struct cm_config *c = &r->cfg;
	char why[CM_REASON_LEN];
	struct cm_result o;

	r->n_reasons = 0;
	explain_memory(r);
	explain_dominant(r);
	/* The group's bus bandwidth: all NICs of a node when it has several
	 * ranks there, one NIC when each rank is alone (costmodel_net.c). */
	if (r->tp_inter)
		add(r, "tp_inter_node", CM_NOTE, 0, _("the TP group of %d spans "
		    "%d nodes (%d per node): its all-reduces get %.0f GB/s, "
		    "NVLink alone %.0f"), c->tp, r->group[MESH_TP].nodes,
		    r->group[MESH_TP].per_node, r->group_bw[MESH_TP] / 1e9,
		    c->intra_bw * c->intra_eff / 1e9);
	if (c->pp > 1 && r->microbatches < c->pp)
		add(r, "pipeline_unfilled", CM_NOTE, 0, _("only %ld "
		    "micro-batches for %d stages: the pipeline never fills"),
		    r->microbatches, c->pp);
	else if (r->bubble_fraction > 0.05 && cm_sched_split_backward(c))
		add(r, "bubble_share", CM_NOTE, 0, c->schedule == PIPE_ZB_H1 ?
		    _("the bubble idles %.0f%% of the step: ZB-H1's "
		    "(p-1)(F+B-2W) with p=%d, m=%ld") : c->schedule ==
		    PIPE_DUALPIPE ? _("the bubble idles %.0f%% of the step: "
		    "DualPipe's (p/2-1)(F&B+B-3W) with p=%d, m=%ld") :
		    _("the bubble idles %.0f%% of the step: DualPipeV's "
		    "(p-1)(F&B+B-3W)/2 with p=%d, m=%ld"),
		    100 * r->bubble_fraction, c->pp, r->microbatches);
	else if (r->bubble_fraction > 0.05)
		add(r, "bubble_share", CM_NOTE, 0, _("the bubble idles %.0f%% "
		    "of the step: (p-1)/(v m+p-1) with p=%d, m=%ld, v=%d"),
		    100 * r->bubble_fraction, c->pp, r->microbatches,
		    c->virtual_stages);
	/* The CPU issues slower than the GPU runs (costmodel_host.c). */
	if (r->t_overhead > 0.05 * r->t_step)
		add(r, "host_bound", CM_NOTE, 0, _("the host sets the pace: "
		    "the GPU waits %.1f ms a step for Python and the "
		    "dispatcher to issue its kernels (forward %.1f ms, "
		    "backward %.1f ms of host time)"), 1e3 * r->t_overhead,
		    1e3 * r->t_host_fwd, 1e3 * r->t_host_bwd);
	if (r->t_dp_exposed > 0.05 * r->t_step)
		add(r, "dp_comm_exposed", CM_NOTE, 0, _("%.0f ms of DP gradient "
		    "reduction is not hidden behind the backward pass"),
		    1e3 * r->t_dp_exposed);
	if (r->t_cp_exposed > 0.05 * r->t_step)
		/* TRANSLATORS: %s is ring, all-gather or ulysses */
		add(r, "cp_comm_exposed", CM_NOTE, 0, _("%.0f ms of CP's K/V "
		    "exchange (%s) is not hidden behind attention, %.0f%% of "
		    "the step"), 1e3 * r->t_cp_exposed,
		    cm_cp_impl_name(c->cp_impl), 100 * r->t_cp_exposed /
		    r->t_step);
	if (r->t_ep_exposed > 0.05 * r->t_step) {
		struct cm_ep_layer x;

		cm_ep_layer(c, &x);
		add(r, "ep_comm_exposed", CM_NOTE, 0, x.in_domain ?
		    _("EP's all-to-alls wait %.0f ms a step, %.0f%% of it, "
		    "inside one NVLink domain") : _("EP's all-to-alls wait "
		    "%.0f ms a step, %.0f%% of it: its ranks span NVLink "
		    "domains, so most copies cross a NIC"), 1e3 * r->t_ep_exposed,
		    100 * r->t_ep_exposed / r->t_step);
	}
	if (r->t_tp_exposed > 0.15 * r->t_step && !r->tp_inter)
		add(r, "tp_comm_share", CM_NOTE, 0, _("TP all-reduces take "
		    "%.0f%% of the step"), 100 * r->t_tp_exposed / r->t_step);
	if (without_tp_overlap(r, &o))
		add_tp_overlap(r, &o, 0, 0);
	explain_idle_sms(r);
	if (r->fits && cm_search_excluded(r) != CM_EX_NONE)
		add(r, "search_excluded", CM_NOTE, 0, _("the search does not "
		    "rank it: %s"), cm_search_why_excluded(r, why,
		    sizeof why));
}

/* ---- a ranked row against its neighbours ---- */

char *
cm_zero_label(const struct cm_config *c, char *buf, size_t size)
{
	int h = c->zero >= 3 && c->hsdp;
	int k = c->zero >= 3 && !c->reshard_after_forward && c->pp <= 1;

	snprintf(buf, size, "%d%s%s", c->zero, h ? "H" : "", k ? "K" : "");
	return buf;
}

/* Settings that shape each part, the most direct cause first. */
enum knob { K_DP = MESH_DP, K_TP = MESH_TP, K_PP = MESH_PP, K_CP = MESH_CP,
	K_MB = MESH_N_AXES, K_SCHED, K_ZERO, K_RC, K_SP, K_FW, K_N };
#define KB(k)	(1u << (k))
#define K_END	K_N

static const enum knob part_knobs[P_N][7] = {
	[P_COMPUTE] = { K_RC, K_TP, K_CP, K_MB, K_PP, K_FW, K_END },
	[P_TP] = { K_TP, K_SP, K_RC, K_MB, K_CP, K_FW, K_END },
	[P_PP] = { K_PP, K_SCHED, K_MB, K_TP, K_CP, K_FW, K_END },
	[P_DP] = { K_ZERO, K_DP, K_CP, K_TP, K_PP, K_FW, K_END },
	[P_BUBBLE] = { K_PP, K_SCHED, K_MB, K_DP, K_FW, K_END },
	[P_OPTIM] = { K_ZERO, K_DP, K_TP, K_PP, K_FW, K_END },
};
static const enum knob memory_knobs[] = { K_ZERO, K_RC, K_TP, K_CP, K_PP,
	K_SP, K_MB, K_SCHED, K_FW, K_END };
static const enum knob all_knobs[] = { K_DP, K_TP, K_PP, K_CP, K_MB,
	K_SCHED, K_ZERO, K_RC, K_SP, K_FW, K_END };

/* The framework a row is priced as, or "as set". */
static const char *
priced_label(const struct cm_config *c)
{
	return c->framework == CM_FW_AUTO ? _("as set") :
	    fw_label((enum fw_id)(c->framework - 1));
}

static unsigned
differing(const struct cm_config *a, const struct cm_config *b)
{
	unsigned m = 0;
	int x;

	for (x = 0; x < MESH_N_AXES; x++)	/* an axis's knob is its enum */
		m |= a->degree[x] != b->degree[x] ? KB(x) : 0;
	m |= a->micro_batch != b->micro_batch ? KB(K_MB) : 0;
	m |= a->schedule != b->schedule ||
	    a->virtual_stages != b->virtual_stages ? KB(K_SCHED) : 0;
	m |= a->zero != b->zero || (a->zero >= 3 && (a->hsdp != b->hsdp ||
	    a->reshard_after_forward != b->reshard_after_forward)) ?
	    KB(K_ZERO) : 0;
	m |= a->recompute != b->recompute ? KB(K_RC) : 0;
	m |= a->seq_parallel != b->seq_parallel ? KB(K_SP) : 0;
	m |= a->framework != b->framework ? KB(K_FW) : 0;
	return m;
}

/* One "TP 2 vs 4" fragment for knob k into buf. */
static void
knob_text(enum knob k, const struct cm_config *a, const struct cm_config *b,
    char *buf, size_t size)
{
	char za[8], zb[8];

	if ((int)k < MESH_N_AXES) {
		/* TRANSLATORS: "TP 2 vs 4": an axis's degree in two layouts */
		snprintf(buf, size, _("%s %d vs %d"),
		    mesh_axis((enum mesh_axis)k)->label, a->degree[k],
		    b->degree[k]);
		return;
	}
	switch (k) {
	case K_MB:
		snprintf(buf, size, _("micro-batch %d vs %d"), a->micro_batch,
		    b->micro_batch);
		break;
	case K_SCHED:
		snprintf(buf, size, _("%s v=%d vs %s v=%d"),
		    pipe_schedule_name(a->schedule), a->virtual_stages,
		    pipe_schedule_name(b->schedule), b->virtual_stages);
		break;
	case K_ZERO:
		snprintf(buf, size, _("ZeRO %s vs %s"), cm_zero_label(a, za,
		    sizeof za), cm_zero_label(b, zb, sizeof zb));
		break;
	case K_RC:
		snprintf(buf, size, _("recompute %s vs %s"),
		    cm_recompute_name(a->recompute),
		    cm_recompute_name(b->recompute));
		break;
	case K_FW:
		/* TRANSLATORS: "Megatron-LM vs PyTorch FSDP2": the frameworks
		 * two rows are priced as */
		snprintf(buf, size, _("%s vs %s"), priced_label(a),
		    priced_label(b));
		break;
	default:
		snprintf(buf, size, "%s", a->seq_parallel ? _("SP on vs off") :
		    _("SP off vs on"));
		break;
	}
}

/*
 * The settings that differ between a and b, taken in the order of want
 * (all of them when none of want differs), at most three, joined with
 * ", ".
 */
static void
diff_text(const struct cm_config *a, const struct cm_config *b,
    const enum knob *want, char *buf, size_t size)
{
	unsigned d = differing(a, b);
	const enum knob *k;
	char one[64];
	size_t len = 0;
	int n = 0, pass;

	buf[0] = '\0';
	for (pass = 0; pass < 2 && n == 0; pass++)
		for (k = pass ? all_knobs : want; *k != K_END && n < 3; k++) {
			if (!(d & KB(*k)))
				continue;
			knob_text(*k, a, b, one, sizeof one);
			snprintf(buf + len, size - len, "%s%s", n ? ", " : "",
			    one);
			len = strlen(buf);
			n++;
		}
	if (n == 0)
		snprintf(buf, size, "%s", _("same settings"));
}

/*
 * The part where r differs most from o in the direction sign (+1: r is
 * slower there, -1: r is faster), or -1 when no part differs by at least
 * MIN_SHARE of r's step.
 */
static int
largest_part(const struct cm_result *r, const struct cm_result *o, int sign)
{
	double d, best_d = MIN_SHARE * r->t_step;
	int k, best = -1;

	for (k = 0; k < P_N; k++) {
		d = sign * (part_time(r, (enum part)k) -
		    part_time(o, (enum part)k));
		if (d >= best_d) {
			best_d = d;
			best = k;
		}
	}
	return best;
}

/* "TP 2 vs 4: TP communication 0.26 s a step vs 0.52 s for #2". */
static void
add_part(struct cm_result *r, const struct cm_result *o, int row_o,
    enum part k, enum cm_effect effect)
{
	static const char *const code[P_N] = { "compute_time",
	    "tp_comm_share", "pp_comm_share", "dp_comm_exposed",
	    "bubble_share", "optimizer_time" };
	char why[120];
	double a = part_time(r, k), b = part_time(o, k);

	diff_text(&r->cfg, &o->cfg, part_knobs[k], why, sizeof why);
	switch (k) {
	case P_COMPUTE:
		add(r, code[k], effect, row_o, _("%s: compute %.3g s a step "
		    "vs %.3g s for #%d"), why, a, b, row_o);
		break;
	case P_TP:
		add(r, code[k], effect, row_o, _("%s: TP communication %.3g s "
		    "a step (%.1f%%) vs %.3g s (%.1f%%) for #%d"), why, a,
		    100 * a / r->t_step, b, 100 * b / o->t_step, row_o);
		break;
	case P_PP:
		add(r, code[k], effect, row_o, _("%s: pipeline sends %.3g s a "
		    "step vs %.3g s for #%d"), why, a, b, row_o);
		break;
	case P_DP:
		add(r, code[k], effect, row_o, _("%s: exposed DP/ZeRO traffic "
		    "%.3g s a step vs %.3g s for #%d"), why, a, b, row_o);
		break;
	case P_BUBBLE:
		add(r, code[k], effect, row_o, _("%s: pipeline bubble %.3g s a "
		    "step (%.1f%%) vs %.3g s (%.1f%%) for #%d"), why, a,
		    100 * r->bubble_fraction, b, 100 * o->bubble_fraction,
		    row_o);
		break;
	default:
		add(r, code[k], effect, row_o, _("%s: optimizer step %.3g s vs "
		    "%.3g s for #%d"), why, a, b, row_o);
		break;
	}
}

static void
add_headroom_win(struct cm_result *r, const struct cm_result *o, int row_o)
{
	char why[120];

	diff_text(&r->cfg, &o->cfg, memory_knobs, why, sizeof why);
	add(r, "headroom", CM_WIN, row_o, _("%s: %.0f%% of GPU memory free "
	    "vs %.0f%% for #%d"), why, 100 * r->headroom, 100 * o->headroom,
	    row_o);
}

static void
explain_tie(struct cm_search *s, int i)
{
	struct cm_result *r = &s->top[i];
	int j, first = i, last = i;

	while (first > 0 && s->top[first - 1].rank == r->rank)
		first--;
	while (last + 1 < s->n_top && s->top[last + 1].rank == r->rank)
		last++;
	if (first == i)
		add(r, "tie", CM_NOTE, 0, _("rows #%d-#%d are a tie: their steps "
		    "are within %.0f%% of this one's %.3g s"), first + 1,
		    last + 1, 100 * CM_TIE_TOL, r->t_step);
	else {
		j = first;
		add(r, "tie", CM_NOTE, j + 1, _("a tie with #%d: %.1f%% slower, "
		    "within the model's %.0f%%"), j + 1, 100 * (r->t_step /
		    s->top[j].t_step - 1), 100 * CM_TIE_TOL);
	}
}

/* Against the row above: what costs it time, and what it gains. */
static void
explain_above(struct cm_result *r, const struct cm_result *up, int row_up)
{
	int k;

	if ((k = largest_part(r, up, +1)) >= 0)
		add_part(r, up, row_up, (enum part)k, CM_LOSS);
	if (r->headroom - up->headroom >= MIN_HEADROOM)
		add_headroom_win(r, up, row_up);
	else if ((k = largest_part(r, up, -1)) >= 0)
		add_part(r, up, row_up, (enum part)k, CM_WIN);
}

/*
 * Row i against the listed rows if it lost its TP overlap (the others keep
 * theirs, as the search keeps the setting): the last row below it that
 * would then be faster beyond the tie tolerance.
 */
static void
explain_overlap_ranked(struct cm_search *s, int i)
{
	struct cm_result *r = &s->top[i], o;
	int j, behind = 0;

	if (!without_tp_overlap(r, &o))
		return;
	for (j = i + 1; j < s->n_top; j++)
		if (s->top[j].t_step * (1 + CM_TIE_TOL) < o.t_step)
			behind = j + 1;
	add_tp_overlap(r, &o, behind, s->n_top);
}

void
cm_explain_ranked(struct cm_search *s)
{
	struct cm_result *r;
	int i, k;

	for (i = 0; i < s->n_top; i++) {
		r = &s->top[i];
		r->n_reasons = 0;
		if (r->tied)
			explain_tie(s, i);
		if (i > 0)
			explain_above(r, &s->top[i - 1], i);
		if (i + 1 < s->n_top &&
		    (k = largest_part(r, &s->top[i + 1], -1)) >= 0)
			add_part(r, &s->top[i + 1], i + 2, (enum part)k, CM_WIN);
		/* The best has no row above: say what it gives up instead. */
		if (i == 0 && s->n_top > 1 &&
		    (k = largest_part(r, &s->top[1], +1)) >= 0)
			add_part(r, &s->top[1], 2, (enum part)k, CM_LOSS);
		explain_overlap_ranked(s, i);
		add(r, "headroom", CM_NOTE, 0, _("%.0f%% of GPU memory free "
		    "(%.1f GB of %.1f GB used)"), 100 * r->headroom,
		    r->mem_total / 1e9, r->mem_gpu / 1e9);
		explain_dominant(r);
	}
}
