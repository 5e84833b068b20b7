/*
 * scr_playground_panels.c - the two full-width panels of the playground:
 * a scenario's incident (brief, diagnosis, prediction, goal, claims, the
 * last verdict with the engine's numbers, the hints opened so far, the
 * worked solution), the diagnosis's causes to choose from, and the
 * ranked search (the best layouts with their figures and reasons, and the
 * rank of the current one). Only draws what core computed.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/framework.h"
#include "tui/draw.h"
#include "tui/scr_playground.h"
#include "tui/term.h"

static const char *
mark(int ok)
{
	return ok ? ui_glyph_check() : (ui_term.utf8 ? "\u2717" : "x");
}

static void
incident_goal(const struct pgs *p, struct pgs_flow *f)
{
	char line[SC_TRADEOFF_LEN + 100], g[200], pre[24];
	int i;

	pgs_flow_text(f, _("Goal (all must hold):"), 0, ui_attr(UI_C_HEADING));
	for (i = 0; i < p->rules.n_goal; i++) {
		scenario_goal_text(&p->rules.goal[i], g, sizeof g);
		pgs_flow_hang(f, "- ", g, 2, (int)A_NORMAL);
	}
	if (p->rules.n_claims == 0)
		return;
	snprintf(line, sizeof line, _("Claims: press 1-%d to assert or "
	    "withdraw each; the check measures each asserted one on your "
	    "layout and on the runner-up:"), p->rules.n_claims);
	pgs_flow_text(f, line, 0, ui_attr(UI_C_HEADING));
	for (i = 0; i < p->rules.n_claims; i++) {
		snprintf(pre, sizeof pre, "[%s] %d. ",
		    (p->asserted >> i) & 1u ? "x" : " ", i + 1);
		pgs_flow_hang(f, pre, p->rules.claims[i].text, 2,
		    (p->asserted >> i) & 1u ?
		    ui_attr(UI_C_ACCENT) : (int)A_NORMAL);
	}
	if (p->typing == PGS_TYPE_TRADEOFF)
		snprintf(line, sizeof line, _("Trade-off (Enter ends): %s_"),
		    p->tradeoff);
	else
		snprintf(line, sizeof line, _("Trade-off (t to write: what "
		    "your layout gives up against the runner-up, with a "
		    "figure): %s"), p->tradeoff);
	pgs_flow_text(f, line, 0, p->typing == PGS_TYPE_TRADEOFF ?
	    ui_attr(UI_C_ACCENT) : ui_attr(UI_C_HEADING));
}

/* The committed diagnosis, or how to commit one; and the prediction. */
static void
incident_reasoning(const struct pgs *p, struct pgs_flow *f)
{
	const struct sc_diagnosis *d = &p->rules.diagnosis;
	const struct sc_prediction *pr = &p->rules.prediction;
	char line[SC_TEXT_LEN + 2200];

	pgs_flow_text(f, _("Diagnosis:"), 0, ui_attr(UI_C_HEADING));
	if (p->diagnosis < 0 || p->diagnosis >= d->n_options)
		pgs_flow_text(f, _("none committed yet: press e and choose the "
		    "cause before you check a fix."), 2, ui_attr(UI_C_WARN));
	else if (p->diagnosis_right) {
		snprintf(line, sizeof line, "%s %d. ", mark(1),
		    p->diagnosis + 1);
		pgs_flow_hang(f, line, d->options[p->diagnosis].text, 2,
		    ui_attr(UI_C_DONE));
	} else {
		snprintf(line, sizeof line, _("%s %d is not the cause: %s "
		    "Press e to choose again."), mark(0), p->diagnosis + 1,
		    d->options[p->diagnosis].explain);
		pgs_flow_text(f, line, 2, ui_attr(UI_C_WARN));
	}
	pgs_flow_text(f, _("Prediction:"), 0, ui_attr(UI_C_HEADING));
	pgs_flow_text(f, pr->prompt, 2, (int)A_NORMAL);
	if (p->typing == PGS_TYPE_PREDICTION)
		snprintf(line, sizeof line, _("Your prediction (Enter ends): "
		    "%s_ %s"), p->predict_text, pr->unit);
	else if (p->predict_text[0] != '\0')
		snprintf(line, sizeof line, _("Your prediction: %s %s (p to "
		    "change)"), p->predict_text, pr->unit);
	else
		snprintf(line, sizeof line, "%s", _("Your prediction: none yet "
		    "(press p)"));
	pgs_flow_text(f, line, 2, p->typing == PGS_TYPE_PREDICTION ?
	    ui_attr(UI_C_ACCENT) : (int)A_NORMAL);
}

static void
incident_rank(const struct pgs *p, struct pgs_flow *f)
{
	const struct sc_grade *g = &p->grade;
	char line[300], why[CM_REASON_LEN];

	if (!g->valid || g->listed == 0)
		return;
	if (g->rank > 0)
		snprintf(line, sizeof line, _("Ranked %d of the %ld layouts "
		    "the engine ranked (within 3%% counts as a tie); %.2f of "
		    "the best layout's tokens/s."), g->rank, g->ranked,
		    g->share_best);
	else if (g->rank == 0)
		snprintf(line, sizeof line, _("Not among the %d fastest "
		    "layouts the engine keeps (of %ld ranked); %.2f of the "
		    "best layout's tokens/s."), g->listed, g->ranked,
		    g->share_best);
	else
		snprintf(line, sizeof line, _("Not ranked: %s."),
		    cm_search_why_excluded(&p->pg.cur, why, sizeof why));
	pgs_flow_text(f, line, 0, ui_attr(UI_C_ACCENT));
}

/* A defense's claims against the runner-up, and its trade-off. */
static void
incident_defense(const struct pgs *p, struct pgs_flow *f)
{
	const struct sc_grade *g = &p->grade;
	const struct cm_config *u = &g->runner_up.cfg;
	char line[600], z[8], lay[96];
	struct mesh m;
	int i;

	cm_mesh(u, &m);

	if (g->runner >= 0)
		snprintf(line, sizeof line, _("Runner-up (row %d of the "
		    "ranking): %s, micro-batch %d, %s"), g->runner + 1,
		    mesh_layout_text(&m, lay, sizeof lay), u->micro_batch,
		    cm_zero_label(u, z, sizeof z));
	else
		snprintf(line, sizeof line, "%s", _("Runner-up: none ranked"));
	pgs_flow_text(f, line, 2, ui_attr(UI_C_ACCENT));
	for (i = 0; i < g->n_claims; i++) {
		const struct sc_verdict *v = &g->claims[i];

		snprintf(line, sizeof line, _("%s claim %d: %s, %s%s (%s)"),
		    mark(v->pass && (!v->asserted || !v->holds_runner)), i + 1,
		    v->holds ? _("holds") : _("fails on this layout"),
		    v->asserted ? _("asserted") : _("not asserted"),
		    v->asserted && v->holds ? (v->holds_runner ?
		    _(", true of the runner-up too: earns nothing") :
		    _(", sets your layout apart")) : "", v->text);
		pgs_flow_text(f, line, 2, ui_attr(!v->pass ? UI_C_WARN :
		    v->asserted && !v->holds_runner ? UI_C_DONE : UI_C_DIM));
	}
	if (!g->claims_ok && g->distinguishing < 0) {
		snprintf(line, sizeof line, "%s %s", mark(0), _("claims: none "
		    "asserted that holds on your layout and not on the "
		    "runner-up"));
		pgs_flow_text(f, line, 2, ui_attr(UI_C_WARN));
	}
	snprintf(line, sizeof line, "%s %s", mark(g->tradeoff_ok),
	    g->tradeoff.text);
	pgs_flow_text(f, line, 2, ui_attr(g->tradeoff_ok ? UI_C_DONE :
	    UI_C_WARN));
}

static void
incident_verdict(const struct pgs *p, struct pgs_flow *f)
{
	const struct sc_grade *g = &p->grade;
	char line[400];
	int i;

	if (!p->graded) {
		pgs_flow_text(f, _("Press c to check the current layout."), 0,
		    ui_attr(UI_C_DIM));
		return;
	}
	pgs_flow_text(f, g->pass ? _("Check: PASSED") : _("Check: not yet"),
	    0, ui_attr(g->pass ? UI_C_DONE : UI_C_WARN) | A_BOLD);
	for (i = 0; i < g->n_crit; i++) {
		snprintf(line, sizeof line, "%s ", mark(g->crit[i].pass));
		pgs_flow_hang(f, line, g->crit[i].text, 2,
		    ui_attr(g->crit[i].pass ? UI_C_DONE : UI_C_WARN));
	}
	snprintf(line, sizeof line, "%s %s", mark(g->diagnosis_ok),
	    g->diagnosis_ok ? _("diagnosis: the right cause") :
	    _("diagnosis: not the cause (press e)"));
	pgs_flow_text(f, line, 2, ui_attr(g->diagnosis_ok ? UI_C_DONE :
	    UI_C_WARN));
	snprintf(line, sizeof line, "%s %s", mark(g->prediction.pass),
	    g->prediction.text);
	pgs_flow_text(f, line, 2, ui_attr(g->prediction.pass ? UI_C_DONE :
	    UI_C_WARN));
	if (g->n_claims > 0 && g->valid)
		incident_defense(p, f);
	incident_rank(p, f);
}

static void
incident_help(const struct pgs *p, struct pgs_flow *f)
{
	char line[2200];
	int i, open = pgs_hints_open(p);

	if (open > 0)
		pgs_flow_text(f, _("Hints:"), 0, ui_attr(UI_C_HEADING));
	for (i = 0; i < open; i++) {
		snprintf(line, sizeof line, "%d. ", i + 1);
		pgs_flow_hang(f, line, p->sc->hints[i], 2, (int)A_NORMAL);
	}
	if (open < (int)p->sc->n_hints && !p->passed)
		pgs_flow_text(f, _("A hint opens after each failed check."), 0,
		    ui_attr(UI_C_DIM));
	if (p->show_solution) {
		pgs_flow_text(f, _("Worked solution:"), 0,
		    ui_attr(UI_C_HEADING));
		pgs_flow_text(f, p->sc->solution, 2, (int)A_NORMAL);
	} else if (p->failed >= 2 || p->passed)
		pgs_flow_text(f, _("Press w for the worked solution."), 0,
		    ui_attr(UI_C_ACCENT));
	if (p->passed && p->passed_layout[0] != '\0') {
		snprintf(line, sizeof line, _("Passed with: %s"),
		    p->passed_layout);
		pgs_flow_text(f, line, 0, ui_attr(UI_C_DONE));
	}
}

int
pgs_draw_incident(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	/* The last row is kept for the "more" mark. */
	struct pgs_flow f = { w, { b->y, b->x, b->h - 1, b->w }, b->y,
	    p->info_top, 0, 0, 0, 0, NULL, 0 };

	if (p->load_err[0] != '\0') {
		pgs_flow_text(&f, _("This scenario cannot be run:"), 0,
		    ui_attr(UI_C_WARN));
		pgs_flow_text(&f, p->load_err, 2, (int)A_NORMAL);
		return f.total;
	}
	pgs_flow_text(&f, p->passed ? _("Status: passed (saved)") :
	    _("Status: not passed yet"), 0, ui_attr(p->passed ? UI_C_DONE :
	    UI_C_DIM));
	pgs_flow_text(&f, p->sc->brief, 0, (int)A_NORMAL);
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	incident_reasoning(p, &f);
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	incident_goal(p, &f);
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	incident_verdict(p, &f);
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	incident_help(p, &f);
	if (f.more)
		ui_put_cut(w, b->y + b->h - 1, b->x, _("more below: j or Space"),
		    b->w, ui_attr(UI_C_DIM));
	return f.total;
}

void
pgs_draw_diagnosis(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	const struct sc_diagnosis *d = &p->rules.diagnosis;
	struct pgs_flow f = { w, *b, b->y, 0, 0, 0, 0, 0, NULL, 0 };
	char pre[16], line[2200];
	int i, attr;

	pgs_flow_text(&f, d->prompt, 0, ui_attr(UI_C_HEADING));
	pgs_flow_text(&f, p->diagnosis >= 0 && p->diagnosis_right ?
	    _("Committed; it stays for this incident.") : _("Press the "
	    "number of the cause you commit to. Only your first commit "
	    "counts toward the score; a wrong one shows why, and you may "
	    "choose again."), 0, ui_attr(UI_C_DIM));
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	for (i = 0; i < d->n_options; i++) {
		snprintf(pre, sizeof pre, "%s%d. ", i == p->diagnosis ?
		    (p->diagnosis_right ? "+" : "-") : " ", i + 1);
		attr = i != p->diagnosis ? (int)A_NORMAL :
		    ui_attr(p->diagnosis_right ? UI_C_DONE : UI_C_WARN);
		pgs_flow_hang(&f, pre, d->options[i].text, 0, attr);
	}
	if (p->diagnosis < 0 || p->diagnosis >= d->n_options)
		return;
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	snprintf(line, sizeof line, "%s", d->options[p->diagnosis].explain);
	pgs_flow_text(&f, line, 0, ui_attr(p->diagnosis_right ? UI_C_DONE :
	    UI_C_WARN));
}

static const char *
short_sched(const struct cm_config *c)
{
	return c->schedule == PIPE_INTERLEAVED ? "inter" :
	    pipe_schedule_name(c->schedule);
}

static const char *
short_rc(const struct cm_config *c)
{
	return c->recompute == CM_RECOMPUTE_SELECTIVE ? "sel" :
	    cm_recompute_name(c->recompute);
}

static void
search_row(const struct pgs *p, WINDOW *w, const struct pgs_box *b, int y,
    int i)
{
	const struct cm_result *r = &p->search->top[i];
	char line[200], rk[16], fw[16], z[8];
	int attr = (int)A_NORMAL, a, n;

	snprintf(rk, sizeof rk, "%d%s", r->rank, r->tied ? "=" : "");
	n = snprintf(line, sizeof line, "%2d %3s", i + 1, rk);
	for (a = 0; a < MESH_N_AXES; a++)	/* DP is 4 wide, the rest 3 */
		n += snprintf(line + n, sizeof line - (size_t)n, " %*d",
		    a == 0 ? 4 : 3, r->cfg.degree[a]);
	snprintf(line + n, sizeof line - (size_t)n, " %2d %-5s %2d %-3s "
	    "%-4s %-3s %7.3f %5.1f%% %3.0f%% %-3s %6.1f", r->cfg.micro_batch,
	    short_sched(&r->cfg),
	    r->cfg.virtual_stages, cm_zero_label(&r->cfg, z, sizeof z),
	    short_rc(&r->cfg),
	    r->cfg.seq_parallel ? _("on") : _("off"), r->t_step, 100 * r->mfu,
	    100 * r->headroom, fw_short_text(r->priced_as != 0 ?
	    r->priced_as : r->frameworks, fw, sizeof fw), r->mem_total / 1e9);
	if (!pg_same_knobs(&r->cfg, &p->pg.cfg, p->pg.locked))
		attr = ui_attr(UI_C_DIM);
	if (i == p->search_sel)
		attr = ui_attr(UI_C_SELECT);
	if (pg_is_row(&p->pg, &r->cfg))
		ui_put(w, y, b->x, ui_glyph_arrow(), 1, ui_attr(UI_C_ACCENT));
	ui_put_cut(w, y, b->x + 2, line, b->w - 2, attr);
}

static void
search_head(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	const struct cm_search *s = p->search;
	char line[400], why[CM_REASON_LEN], head[160];
	int a, n;

	snprintf(line, sizeof line, _("%ld layouts, %ld ranked; the %d "
	    "fastest for %s on %d x %s:"), s->evaluated, s->eligible,
	    s->n_top < PGS_SHOWN ? s->n_top : PGS_SHOWN,
	    p->pg.cfg.model.name, p->pg.cfg.gpus, p->pg.cfg.gpu.name);
	ui_put_cut(w, b->y, b->x, line, b->w, ui_attr(UI_C_HEADING));
	if (p->rank > 0)
		snprintf(line, sizeof line, _("Your layout ranks %d%s of %ld "
		    "(marked with the arrow when shown)."), p->rank,
		    p->rank_tied ? "=" : "", s->eligible);
	else if (p->rank == 0)
		snprintf(line, sizeof line, _("Your layout is not among the %d "
		    "fastest the engine keeps (of %ld ranked)."), s->n_top,
		    s->eligible);
	else if (p->pg.cur_valid)
		snprintf(line, sizeof line, _("Your layout is not ranked: %s."),
		    cm_search_why_excluded(&p->pg.cur, why, sizeof why));
	else
		snprintf(line, sizeof line, "%s", _("Your layout is not "
		    "ranked: it is not a valid layout."));
	ui_put_cut(w, b->y + 1, b->x, line, b->w, ui_attr(UI_C_ACCENT));
	n = snprintf(head, sizeof head, "%s", _(" # rank"));
	for (a = 0; a < MESH_N_AXES; a++)
		n += snprintf(head + n, sizeof head - (size_t)n, " %3s",
		    mesh_axis((enum mesh_axis)a)->label);
	snprintf(head + n, sizeof head - (size_t)n, "%s", _(" mb sched  v Z   "
	    "rc   SP   step s   MFU free fw      GB"));
	ui_put_cut(w, b->y + 2, b->x + 2, head, b->w - 2, ui_attr(UI_C_DIM));
}

void
pgs_draw_search(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	static const char mark[] = { '*', '+', '-' };
	const struct cm_search *s = p->search;
	const struct cm_result *r;
	struct pgs_flow f;
	char line[CM_REASON_LEN + 200], why[CM_REASON_LEN];
	int i, y, n;

	if (s == NULL)
		return;
	if (s->n_top == 0) {
		ui_put_cut(w, b->y, b->x, _("No layout of this model is ranked on "
		    "this cluster."), b->w, ui_attr(UI_C_WARN));
		if (s->have_closest)
			ui_put_cut(w, b->y + 1, b->x, s->closest.fits ?
			    cm_search_why_excluded(&s->closest, why,
			    sizeof why) : s->closest.reasons[0].text, b->w,
			    (int)A_NORMAL);
		return;
	}
	search_head(p, w, b);
	n = s->n_top < PGS_SHOWN ? s->n_top : PGS_SHOWN;
	y = b->y + 3;
	for (i = 0; i < n && y < b->y + b->h; i++)
		search_row(p, w, b, y++, i);
	if (y + 1 >= b->y + b->h)
		return;
	f = (struct pgs_flow){ w, { y + 1, b->x, b->y + b->h - y - 1, b->w },
	    y + 1, 0, 0, 0, 0, 0, NULL, 0 };
	r = &s->top[p->search_sel];
	snprintf(line, sizeof line, _("= a tie within %.0f%%; ranked when it "
	    "fits with %.0f%% free and a framework runs it"),
	    100 * CM_TIE_TOL, 100 * p->pg.cfg.headroom);
	pgs_flow_text(&f, line, 0, ui_attr(UI_C_DIM));
	snprintf(line, sizeof line, _("Why #%d: + wins, - loses against the "
	    "rows next to it"), p->search_sel + 1);
	pgs_flow_text(&f, line, 0, ui_attr(UI_C_HEADING));
	snprintf(line, sizeof line, _("runs on: %s"),
	    fw_list_text(r->frameworks, why, sizeof why));
	pgs_flow_text(&f, line, 2, ui_attr(UI_C_DIM));
	if (r->priced_as != 0) {	/* the search prices a row per framework */
		snprintf(line, sizeof line, _("priced as %s runs it"),
		    fw_list_text(r->priced_as, why, sizeof why));
		pgs_flow_text(&f, line, 2, ui_attr(UI_C_DIM));
	}
	for (i = 0; i < r->n_reasons; i++) {
		snprintf(line, sizeof line, "%c %s", mark[r->reasons[i].effect],
		    r->reasons[i].text);
		pgs_flow_text(&f, line, 2, ui_attr(r->reasons[i].effect ==
		    CM_LOSS ? UI_C_WARN : UI_C_DIM));
	}
}
