/*
 * scr_playground.c - the cost-model playground: keys, scenario rules and
 * saving attempts. Every figure comes from core/playground and
 * core/costmodel; every verdict from core/scenario. Drawing is in
 * scr_playground_draw.c.
 *
 * Free mode starts on pg_default_config(). Scenario mode starts on the
 * block's start configuration with its locked knobs; 'c' grades the
 * current layout, saves the attempt (store/scenario_store) and, on a
 * failure, unlocks the next hint; after two failures 'w' shows the worked
 * solution. Failures and passes are read back from the store on opening,
 * so hints stay unlocked and a passed scenario shows as passed. A defense
 * (a scenario with claims) also takes a written trade-off: 't' starts
 * typing it, Enter or Esc ends; it is saved with each attempt
 * (store/scenario_tradeoff.h) and read back on opening.
 *
 * Inside an incident the learner reasons before checking (issue 22): 'e'
 * opens the causes and a digit commits one (saved as its own row; a
 * wrong one shows why and may be replaced, a right one stays), 'p' types
 * the predicted figure for the layout about to be checked, and 'c'
 * refuses until both are there. The ranked search waits until the
 * incident is passed, and no row of it is ever applied inside one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/number.h"
#include "store/scenario_store.h"
#include "core/safetext.h"
#include "store/scenario_tradeoff.h"
#include "tui/app.h"
#include "tui/scr_playground.h"
#include "tui/ui.h"

/* Failed checks before the worked solution can be opened. */
#define PGS_SOLUTION_AFTER	2

static const struct ui_key_help playground_help[] = {
	{ N_("Up/Down, j/k"), N_("select a knob (or a ranked layout)") },
	{ N_("Left/Right, h/l"), N_("change the selected knob") },
	{ N_("s"), N_("ranked search: the best layouts, and yours") },
	{ N_("Enter"), N_("in the ranking: apply the selected layout") },
	{ N_("r"), N_("back to the starting configuration") },
	{ N_("d"), N_("change column: since the previous setting, or since "
	    "the start") },
	{ N_("Tab, i"), N_("scenario: incident brief, goal, verdict, hints") },
	{ N_("e"), N_("scenario: the diagnosis; a digit commits a cause") },
	{ N_("p"), N_("scenario: type your prediction; Enter ends") },
	{ N_("c"), N_("scenario: check the layout against the goal") },
	{ N_("1-8"), N_("defense: assert or withdraw a claim") },
	{ N_("t"), N_("defense: write the trade-off; Enter ends") },
	{ N_("w"), N_("scenario: worked solution (after two failed checks)") },
	{ N_("q, Esc"), N_("close the ranking; back") },
	{ NULL, NULL }
};

int
pgs_hints_open(const struct pgs *p)
{
	if (p->sc == NULL)
		return 0;
	return p->failed < (int)p->sc->n_hints ? p->failed :
	    (int)p->sc->n_hints;
}

/* Run the ranked search for the current configuration. */
static void
open_search(struct pgs *p)
{
	struct cm_config from;
	struct pl_err err;

	if (p->search == NULL && (p->search = malloc(sizeof *p->search)) ==
	    NULL)
		return;
	pg_search_config(&p->pg, &from);
	if (cm_search(&from, CM_SEARCH_MAX, p->search, &err) != 0) {
		ui_flash(err.msg);
		return;
	}
	p->rank = p->pg.cur_valid ? cm_search_rank(p->search, &p->pg.cur,
	    &p->rank_tied) : -1;
	p->search_sel = 0;
	p->pg.note[0] = '\0';
	p->panel = PGS_SEARCH;
}

static void
apply_selected(struct pgs *p)
{
	const struct cm_result *r;

	if (p->search == NULL || p->search_sel >= p->search->n_top)
		return;
	if (p->sc != NULL) {
		/* A row carried into an incident's check passes it without
		 * the reasoning it asks for. */
		ui_flash(_("In an incident the ranking is for reading: turn the "
		    "knobs yourself."));
		return;
	}
	r = &p->search->top[p->search_sel];
	if (!pg_same_knobs(&r->cfg, &p->pg.cfg, p->pg.locked)) {
		ui_flash(_("That layout changes a locked knob of this scenario."));
		return;
	}
	pg_apply(&p->pg, &r->cfg);
	p->graded = 0;
	p->panel = PGS_FIGURES;
	ui_flash(p->base == PG_VS_START ? _("Layout applied; the change "
	    "column compares it with the start.") : _("Layout applied; the "
	    "change column compares it with the one before."));
}

static void
save_attempt(struct pgs *p)
{
	struct pl_err err;
	char layout[600], num[32];
	time_t now = time(NULL);

	pg_layout_text(&p->pg.cfg, layout, sizeof layout);
	snprintf(layout + strlen(layout), sizeof layout - strlen(layout),
	    ";predicted=%s;prediction=%s", pl_num_c(num, sizeof num,
	    p->grade.prediction.asserted ? p->predicted : 0, 'g', 6),
	    p->grade.prediction.pass ? "ok" : "off");
	if (store_scenario_add_tradeoff(p->app->store, p->app->profile,
	    p->drop_id, p->sc->id, p->grade.pass, layout,
	    p->rules.n_claims > 0 ? p->tradeoff : NULL,
	    difftime(now, p->opened), (int64_t)now, &err) != 0)
		app_store_error(&err);
	else
		app_answered(p->app);
	p->opened = now;
	if (p->grade.pass) {
		p->passed = 1;
		snprintf(p->passed_layout, sizeof p->passed_layout, "%s",
		    layout);
	}
}

static void
check(struct pgs *p)
{
	struct cm_config from;
	struct sc_attempt a;
	struct pl_err err;
	char msg[200];

	if (p->sc == NULL || p->load_err[0] != '\0')
		return;
	if (p->diagnosis < 0) {
		ui_flash(_("Commit a diagnosis first: press e and choose the "
		    "cause."));
		return;
	}
	if (scenario_parse_prediction(&p->rules, p->predict_text,
	    &p->predicted) != 0) {
		ui_flash(_("Type your prediction first: press p, then the "
		    "figure you expect for this layout."));
		return;
	}
	a.asserted = p->asserted;
	a.tradeoff = p->tradeoff;
	a.diagnosis = p->diagnosis;
	a.predicted = 1;
	a.prediction = p->predicted;
	a.reveal = p->predictions_off >= PGS_SOLUTION_AFTER;
	/* The best layout for the settings as they are now (attention,
	 * precision, model ... may have changed since the start). */
	pg_search_config(&p->pg, &from);
	if (cm_search(&from, CM_SEARCH_MAX, p->best, &err) != 0)
		p->best->n_top = 0;
	scenario_grade(&p->rules, p->pg.cur_valid ? &p->pg.cur : NULL,
	    p->pg.why, &p->start, p->best, &a, &p->grade);
	if (p->grade.valid && !p->grade.prediction.pass &&
	    ++p->predictions_off >= PGS_SOLUTION_AFTER && !a.reveal) {
		/* The second prediction off: now the figure is shown. */
		a.reveal = 1;
		scenario_grade(&p->rules, &p->pg.cur, p->pg.why, &p->start,
		    p->best, &a, &p->grade);
	}
	p->graded = 1;
	save_attempt(p);
	p->panel = PGS_INCIDENT;
	p->info_top = 0;
	if (p->grade.pass) {
		ui_flash(_("Passed: every criterion holds. The attempt is saved."));
		return;
	}
	p->failed++;
	if (p->failed <= (int)p->sc->n_hints)
		snprintf(msg, sizeof msg, _("Not yet. Hint %d is now open."),
		    p->failed);
	else
		snprintf(msg, sizeof msg, "%s", _("Not yet. Read the failed "
		    "lines and try again."));
	if (p->failed == PGS_SOLUTION_AFTER)
		snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " %s",
		    _("Press w for the worked solution."));
	ui_flash(msg);
}

/* Keys of the ranking panel; 1 if used. */
static int
search_key(struct pgs *p, int ch)
{
	int n = p->search != NULL ? (p->search->n_top < PGS_SHOWN ?
	    p->search->n_top : PGS_SHOWN) : 0;

	if (n > 0 && ui_scroll_key(ch, &p->search_sel, n, n - 1))
		return 1;
	switch (ch) {
	case '\n': case '\r': case KEY_ENTER:
		apply_selected(p);
		return 1;
	case 's': case 'q': case 27:
		p->panel = PGS_FIGURES;
		return 1;
	default:
		return 0;
	}
}

/* The scrolling keys of the incident panel; 1 if used. */
static int
incident_key(struct pgs *p, int ch)
{
	/* The end is the length of the last draw, which clamps it. */
	return ui_scroll_key(ch, &p->info_top, p->info_rows > 2 ?
	    p->info_rows - 1 : 1, p->info_lines);
}

/* Typing the trade-off or the prediction: Backspace, Enter or Esc ends. */
static void
typing_key(struct pgs *p, int ch)
{
	char *buf = p->typing == PGS_TYPE_TRADEOFF ? p->tradeoff :
	    p->predict_text;
	size_t size = p->typing == PGS_TYPE_TRADEOFF ? sizeof p->tradeoff :
	    sizeof p->predict_text, n = strlen(buf);

	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER || ch == 27) {
		/* No half character is kept (issue 23). */
		safetext_text_end(buf);
		p->typing = PGS_TYPE_NONE;
		return;
	}
	if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		/* Back over a whole UTF-8 character. */
		while (n > 0 && ((unsigned char)buf[--n] & 0xC0) == 0x80)
			;
		buf[n] = '\0';
	} else if (ch < 32 || ch >= 256 || !safetext_type(buf, size, ch))
		return;	/* what import refuses is never typed (issue 23) */
	p->graded = 0;
}

/* Commit diagnosis option i (0-based) and save it. */
static void
diagnose(struct pgs *p, int i)
{
	const struct sc_diagnosis *d = &p->rules.diagnosis;
	struct pl_err err;
	time_t now = time(NULL);

	if (i < 0 || i >= d->n_options)
		return;
	if (p->diagnosis >= 0 && p->diagnosis_right) {
		ui_flash(_("Your diagnosis is committed for this incident."));
		return;
	}
	p->diagnosis = i;
	p->diagnosis_right = i == d->right;
	p->graded = 0;
	if (store_scenario_diagnose(p->app->store, p->app->profile,
	    p->drop_id, p->sc->id, i, p->diagnosis_right, difftime(now,
	    p->opened), (int64_t)now, &err) != 0)
		app_store_error(&err);
	else
		app_answered(p->app);
	ui_flash(p->diagnosis_right ? _("Diagnosis committed. Now type your "
	    "prediction (p), fix the layout and check (c).") : _("Not the "
	    "cause: read why, then choose again."));
}

/* Keys of the diagnosis panel; 1 if used. */
static int
diagnosis_key(struct pgs *p, int ch)
{
	if (ch >= '1' && ch <= '9') {
		diagnose(p, ch - '1');
		return 1;
	}
	if (ch == 'q' || ch == 27 || ch == 'e') {
		p->panel = PGS_INCIDENT;
		return 1;
	}
	return 0;
}

/* Keys only a scenario has; 1 if used. */
static int
scenario_key(struct pgs *p, int ch)
{
	if (p->sc == NULL)
		return 0;
	if (p->typing != PGS_TYPE_NONE) {
		typing_key(p, ch);
		return 1;
	}
	if (p->load_err[0] != '\0')
		return 0;
	if (p->panel == PGS_DIAGNOSIS && diagnosis_key(p, ch))
		return 1;
	if (ch == 't' && p->rules.n_claims > 0) {
		p->typing = PGS_TYPE_TRADEOFF;
		p->panel = PGS_INCIDENT;
		return 1;
	}
	if (ch == 'e') {
		p->panel = PGS_DIAGNOSIS;
		return 1;
	}
	if (ch == 'p') {
		p->typing = PGS_TYPE_PREDICTION;
		p->panel = PGS_INCIDENT;
		return 1;
	}
	if (ch == 's' && !p->passed) {
		ui_flash(_("The ranked search opens once this incident is "
		    "passed: reason it out first."));
		return 1;
	}
	if (ch == 'c') {
		check(p);
		return 1;
	}
	if (ch == '\t' || ch == 'i') {
		p->panel = p->panel == PGS_INCIDENT ? PGS_FIGURES :
		    PGS_INCIDENT;
		return 1;
	}
	if (ch == 'w') {
		if (p->failed >= PGS_SOLUTION_AFTER || p->passed) {
			p->show_solution = 1;
			p->panel = PGS_INCIDENT;
			p->info_top = 0;
		} else
			ui_flash(_("The worked solution opens after two failed "
			    "checks."));
		return 1;
	}
	if (ch >= '1' && ch <= '8' && ch - '1' < p->rules.n_claims) {
		p->asserted ^= 1u << (ch - '1');
		p->graded = 0;
		p->panel = PGS_INCIDENT;
		return 1;
	}
	return 0;
}

static void
turn(struct pgs *p, int dir)
{
	if (pg_change(&p->pg, (enum pg_knob)p->sel, dir) > 0)
		p->graded = 0;
	p->panel = PGS_FIGURES;
}

/* d: measure the change column from the previous setting or the start. */
static void
toggle_base(struct pgs *p)
{
	p->base = p->base == PG_VS_PREV ? PG_VS_START : PG_VS_PREV;
	p->panel = PGS_FIGURES;
	ui_flash(p->base == PG_VS_START ? _("Change column: since the start. "
	    "d: since the previous setting.") : _("Change column: since the "
	    "previous setting. d: since the start."));
}

static enum ui_result
playground_key(struct ui_screen *s, int ch)
{
	struct pgs *p = s->state;

	if (p->panel == PGS_SEARCH && search_key(p, ch))
		return UI_HANDLED;
	if (scenario_key(p, ch))
		return UI_HANDLED;
	if (p->panel == PGS_INCIDENT && incident_key(p, ch))
		return UI_HANDLED;
	switch (ch) {
	case KEY_UP: case 'k':
		do
			p->sel = (p->sel + PG_N_KNOBS - 1) % PG_N_KNOBS;
		while (!pg_knob_shown(&p->pg, (enum pg_knob)p->sel));
		break;
	case KEY_DOWN: case 'j':
		do
			p->sel = (p->sel + 1) % PG_N_KNOBS;
		while (!pg_knob_shown(&p->pg, (enum pg_knob)p->sel));
		break;
	case KEY_LEFT: case 'h':
		turn(p, -1);
		break;
	case KEY_RIGHT: case 'l':
		turn(p, +1);
		break;
	case 's':
		open_search(p);
		break;
	case 'd':
		toggle_base(p);
		break;
	case 'r':
		pg_apply(&p->pg, &p->start.cfg);
		p->graded = 0;
		break;
	case 'q': case 'Q': case 27:
		return UI_BACK;
	default:
		return UI_IGNORED;
	}
	/* a change may hide the knob in hand (CP back to 1 at a short
	 * sequence): the one above it */
	while (!pg_knob_shown(&p->pg, (enum pg_knob)p->sel))
		p->sel = (p->sel + PG_N_KNOBS - 1) % PG_N_KNOBS;
	return UI_HANDLED;
}

static int
playground_typing(struct ui_screen *s)
{
	return ((struct pgs *)s->state)->typing != PGS_TYPE_NONE;
}

static void
playground_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	pgs_draw(s->state, w, rows, cols);
}

static void
playground_free(struct ui_screen *s)
{
	struct pgs *p = s->state;

	scenario_free(&p->rules);
	free(p->search);
	free(p->best);
	free(p);
}

/* Read the scenario's rules, start, best layout and past attempts. */
static int
load_scenario(struct pgs *p, struct cm_config *cfg)
{
	struct store_scenario_stats st;
	struct pl_err err;
	char buf[600];

	if (scenario_parse(&p->rules, p->sc->raw, p->drop_id, "scenario",
	    &err) != 0 || scenario_start(p->sc->raw, p->app->catalog, cfg,
	    p->drop_id, "scenario", &err) != 0 ||
	    cm_evaluate(cfg, &p->start, &err) != 0 ||
	    (p->best = malloc(sizeof *p->best)) == NULL ||
	    cm_search(cfg, CM_SEARCH_MAX, p->best, &err) != 0) {
		snprintf(p->load_err, sizeof p->load_err, "%s",
		    pl_err_format(&err, buf, sizeof buf));
		return -1;
	}
	if (store_scenario_stats(p->app->store, p->app->profile, p->drop_id,
	    p->sc->id, &st, &err) != 0)
		app_store_error(&err);
	p->failed = st.failed;
	p->passed = st.passed;
	p->predictions_off = st.predictions_off;
	p->diagnosis = st.diagnosis;
	p->diagnosis_right = st.diagnosis_right;
	if (p->rules.n_claims > 0 && store_scenario_tradeoff(p->app->store,
	    p->app->profile, p->drop_id, p->sc->id, p->tradeoff,
	    sizeof p->tradeoff, &err) < 0)
		app_store_error(&err);
	/* An older parlearn may have stored what may not be saved again:
	 * keep its safe rendering (issue 23). */
	if (p->tradeoff[0] != '\0' && !sc_tradeoff_ok(p->tradeoff)) {
		char *safe = safetext_dup(p->tradeoff, SAFETEXT_UTF8);

		p->tradeoff[0] = '\0';
		if (safe != NULL) {
			snprintf(p->tradeoff, sizeof p->tradeoff, "%s", safe);
			safetext_text_end(p->tradeoff);
		}
		free(safe);
	}
	snprintf(p->passed_layout, sizeof p->passed_layout, "%s", st.layout);
	p->panel = PGS_INCIDENT;
	return 0;
}

static const char *const no_catalog_body[] = {
	N_("The GPU and model catalog (data/gpus.json, data/models.json) could not be loaded, so the cost model cannot run."),
	N_("'parlearn plan --help' names the data directory it reads; 'parlearn check-content' reports what is wrong."),
	NULL
};

struct ui_screen *
ui_playground_new(struct app *a, const struct content_scenario *sc,
    const char *drop_id)
{
	struct ui_screen *s;
	struct pgs *p;
	struct cm_config cfg;

	if (a->catalog == NULL)
		return ui_info_new(N_("Cost-model playground"),
		    no_catalog_body);
	s = calloc(1, sizeof *s);
	p = calloc(1, sizeof *p);
	if (s == NULL || p == NULL || a->catalog == NULL ||
	    pg_default_config(a->catalog, &cfg) != 0) {
		free(s);
		free(p);
		return NULL;
	}
	p->app = a;
	p->sel = PG_TP;
	p->diagnosis = -1;
	p->sc = sc;
	p->drop_id = drop_id != NULL ? drop_id : "";
	if (sc != NULL && load_scenario(p, &cfg) != 0)
		pg_default_config(a->catalog, &cfg);
	pg_init(&p->pg, a->catalog, &cfg, p->load_err[0] == '\0' ?
	    p->rules.locked : 0);
	if (sc == NULL || p->load_err[0] != '\0')
		p->start.cfg = cfg;
	p->opened = time(NULL);
	s->title = N_("Cost-model playground");
	s->help = playground_help;
	s->draw = playground_draw;
	s->key = playground_key;
	s->typing = playground_typing;
	s->free = playground_free;
	s->state = p;
	return s;
}
