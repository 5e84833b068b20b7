/*
 * scr_playground_panels.c - the two full-width panels of the playground:
 * a scenario's incident (brief, goal, claims, the last verdict with the
 * engine's numbers, the hints opened so far, the worked solution) and the
 * ranked search (the best layouts with their figures and reasons, and the
 * rank of the current one). Only draws what core computed.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
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
	char line[SC_TRADEOFF_LEN + 100], g[200];
	int i;

	pgs_flow_text(f, _("Goal (all must hold):"), 0, ui_attr(UI_C_HEADING));
	for (i = 0; i < p->rules.n_goal; i++) {
		scenario_goal_text(&p->rules.goal[i], g, sizeof g);
		snprintf(line, sizeof line, "- %s", g);
		pgs_flow_text(f, line, 2, (int)A_NORMAL);
	}
	if (p->rules.n_claims == 0)
		return;
	snprintf(line, sizeof line, _("Claims: press 1-%d to assert or "
	    "withdraw each; the check verifies every one against the "
	    "engine:"), p->rules.n_claims);
	pgs_flow_text(f, line, 0, ui_attr(UI_C_HEADING));
	for (i = 0; i < p->rules.n_claims; i++) {
		snprintf(line, sizeof line, "[%s] %d. %s",
		    (p->asserted >> i) & 1u ? "x" : " ", i + 1,
		    p->rules.claims[i].text);
		pgs_flow_text(f, line, 2, (p->asserted >> i) & 1u ?
		    ui_attr(UI_C_ACCENT) : (int)A_NORMAL);
	}
	if (p->typing)
		snprintf(line, sizeof line, _("Trade-off (Enter ends): %s_"),
		    p->tradeoff);
	else
		snprintf(line, sizeof line, _("Trade-off (t to write, at least "
		    "%d words): %s"), SC_TRADEOFF_WORDS, p->tradeoff);
	pgs_flow_text(f, line, 0, p->typing ? ui_attr(UI_C_ACCENT) :
	    ui_attr(UI_C_HEADING));
}

static void
incident_rank(const struct pgs *p, struct pgs_flow *f)
{
	const struct sc_grade *g = &p->grade;
	char line[300];

	if (!g->valid || g->listed == 0)
		return;
	if (g->rank > 0)
		snprintf(line, sizeof line, _("Rank %d among the %d best valid "
		    "layouts the engine found; %.2f of the best layout's "
		    "tokens/s."), g->rank, g->listed, g->share_best);
	else if (g->rank == 0)
		snprintf(line, sizeof line, _("Slower than all %d best valid "
		    "layouts the engine lists; %.2f of the best layout's "
		    "tokens/s."), g->listed, g->share_best);
	else
		snprintf(line, sizeof line, "%s", _("Not ranked: the layout "
		    "does not fit."));
	pgs_flow_text(f, line, 0, ui_attr(UI_C_ACCENT));
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
		snprintf(line, sizeof line, "%s %s", mark(g->crit[i].pass),
		    g->crit[i].text);
		pgs_flow_text(f, line, 2, ui_attr(g->crit[i].pass ? UI_C_DONE :
		    UI_C_WARN));
	}
	/* Every claim is graded, asserted or not. */
	for (i = 0; i < g->n_claims && g->valid; i++) {
		snprintf(line, sizeof line, _("%s claim %d: %s, %s (%s)"),
		    mark(g->claims[i].pass), i + 1, g->claims[i].holds ?
		    _("holds") : _("fails on this layout"),
		    g->claims[i].asserted ? _("asserted") :
		    _("not asserted"), g->claims[i].text);
		pgs_flow_text(f, line, 2, ui_attr(g->claims[i].pass ?
		    UI_C_DONE : UI_C_WARN));
	}
	if (g->n_claims > 0) {
		if (g->tradeoff_ok)
			snprintf(line, sizeof line, _("%s trade-off written (%d "
			    "words)"), mark(1), g->tradeoff_words);
		else
			snprintf(line, sizeof line, _("%s trade-off: %d words; "
			    "write at least %d (press t)"), mark(0),
			    g->tradeoff_words, SC_TRADEOFF_WORDS);
		pgs_flow_text(f, line, 2, ui_attr(g->tradeoff_ok ? UI_C_DONE :
		    UI_C_WARN));
	}
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
		snprintf(line, sizeof line, "%d. %s", i + 1, p->sc->hints[i]);
		pgs_flow_text(f, line, 2, (int)A_NORMAL);
	}
	if (open < (int)p->sc->n_hints)
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
	    p->info_top, 0, 0, 0, 0 };

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
	incident_goal(p, &f);
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	incident_verdict(p, &f);
	pgs_flow_text(&f, "", 0, (int)A_NORMAL);
	incident_help(p, &f);
	if (f.more)
		ui_put(w, b->y + b->h - 1, b->x, _("more below: j or Space"),
		    b->w, ui_attr(UI_C_DIM));
	return f.total;
}

static const char *
short_sched(const struct cm_config *c)
{
	return c->schedule == PIPE_INTERLEAVED ? "inter" :
	    pipe_schedule_name(c->schedule);
}

static void
search_row(const struct pgs *p, WINDOW *w, const struct pgs_box *b, int y,
    int i)
{
	const struct cm_result *r = &p->search->top[i];
	const unsigned shape = (1u << PG_DP) | (1u << PG_TP) | (1u << PG_PP) |
	    (1u << PG_MICRO_BATCH) | (1u << PG_SCHEDULE) | (1u << PG_VSTAGES);
	char line[200];
	int attr = (int)A_NORMAL;

	snprintf(line, sizeof line, "%2d %3d %3d %3d %3d %-5s %2d %2d %-9s "
	    "%-3s %8.3f %5.1f%% %8.0f %6.1f", i + 1, r->cfg.dp, r->cfg.tp,
	    r->cfg.pp, r->cfg.micro_batch, short_sched(&r->cfg),
	    r->cfg.virtual_stages, r->cfg.zero,
	    cm_recompute_name(r->cfg.recompute), r->cfg.seq_parallel ?
	    _("on") : _("off"), r->t_step, 100 * r->mfu, r->tokens_per_s,
	    r->mem_total / 1e9);
	if (!pg_same_knobs(&r->cfg, &p->pg.cfg, p->pg.locked))
		attr = ui_attr(UI_C_DIM);
	if (i == p->search_sel)
		attr = ui_attr(UI_C_SELECT);
	if (pg_same_knobs(&r->cfg, &p->pg.cfg, shape))
		ui_put(w, y, b->x, ui_glyph_arrow(), 1, ui_attr(UI_C_ACCENT));
	ui_put(w, y, b->x + 2, line, b->w - 2, attr);
}

static void
search_head(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	const struct cm_search *s = p->search;
	char line[300];

	snprintf(line, sizeof line, _("%ld layouts, %ld fit; the %d "
	    "fastest for %s on %d x %s:"), s->evaluated,
	    s->fitting, s->n_top < PGS_SHOWN ? s->n_top : PGS_SHOWN,
	    p->pg.cfg.model.name, p->pg.cfg.gpus, p->pg.cfg.gpu.name);
	ui_put(w, b->y, b->x, line, b->w, ui_attr(UI_C_HEADING));
	if (p->rank > 0)
		snprintf(line, sizeof line, _("Your layout ranks %d of the %d "
		    "best (marked with the arrow when listed)."), p->rank,
		    s->n_top);
	else if (p->rank == 0)
		snprintf(line, sizeof line, _("Your layout is slower than the "
		    "%d best listed."), s->n_top);
	else
		snprintf(line, sizeof line, "%s", _("Your layout is not "
		    "ranked: it is invalid or does not fit."));
	ui_put(w, b->y + 1, b->x, line, b->w, ui_attr(UI_C_ACCENT));
	ui_put(w, b->y + 2, b->x + 2, _(" # DP  TP  PP  mb sched  v  Z "
	    "recompute SP    step s   MFU  tokens/s  GB"), b->w - 2,
	    ui_attr(UI_C_DIM));
}

void
pgs_draw_search(const struct pgs *p, WINDOW *w, const struct pgs_box *b)
{
	const struct cm_search *s = p->search;
	struct pgs_flow f;
	char line[CM_REASON_LEN + 8];
	int i, y, n;

	if (s == NULL)
		return;
	if (s->n_top == 0) {
		ui_put(w, b->y, b->x, _("No layout of this model fits on this "
		    "cluster."), b->w, ui_attr(UI_C_WARN));
		if (s->have_closest)
			ui_put(w, b->y + 1, b->x, s->closest.reasons[0], b->w,
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
	    y + 1, 0, 0, 0, 0, 0 };
	snprintf(line, sizeof line, _("Why #%d:"), p->search_sel + 1);
	pgs_flow_text(&f, line, 0, ui_attr(UI_C_HEADING));
	for (i = 0; i < s->top[p->search_sel].n_reasons; i++) {
		snprintf(line, sizeof line, "- %s",
		    s->top[p->search_sel].reasons[i]);
		pgs_flow_text(&f, line, 2, ui_attr(UI_C_DIM));
	}
}
