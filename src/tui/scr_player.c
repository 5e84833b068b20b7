/*
 * scr_player.c - the animation player: the toy model's step played on
 * its devices, and the learner's hands on it.
 *
 * Opened from an animation block it plays that block's run at once (the
 * block becomes a config in core/course/animation.c); opened from the
 * home screen it waits, paused. Keys turn the run's settings (core's
 * sim_config_turn finds the next valid value) and load the new run; x
 * puts the run beside the one it is best compared with (GPipe and 1F1B,
 * DP with and without overlap) on one time axis (scr_player_compare.c).
 *
 * While playing, the screen asks for a tick every 33 ms and advances the
 * clock by the wall time that really passed; paused, it asks for none, so
 * the loop blocks. ui.c redraws into stdscr and doupdate() sends only the
 * cells that changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/course/animation.h"
#include "core/sim/sim_keys.h"
#include "core/sim/sim_knob.h"
#include "tui/scr_player.h"
#include "tui/term.h"
#include "tui/ui.h"

#define TICK_MS		33	/* ~30 frames a second while playing */

/*
 * Each description fits the help box's 43 columns. The knobs' lines
 * (between Tab and x) are the simulator's table's: see player_keys().
 */
static const struct ui_key_help clock_help[] = {
	{ N_("Space"), N_("play or pause") },
	{ N_("Right, l"), N_("step to the next event (pauses)") },
	{ N_("Left, h"), N_("step to the previous event") },
	{ N_("+, -"), N_("faster, slower") },
	{ N_("r"), N_("restart from the beginning") },
	/* "(single ... 3d)": the first and last of the mode table's. */
	{ N_("Tab, Shift-Tab"), N_("next, previous mode (%s ... %s)") },
	{ NULL, NULL }
};
static const struct ui_key_help end_help[] = {
	{ N_("x"), N_("compare (side by side from 160 columns)") },
	{ N_("q, Esc"), N_("back") },
	{ NULL, NULL }
};

/* The help: clock_help, a line per knob of core/sim/sim_keys.c, end_help. */
static const struct ui_key_help *
player_keys(void)
{
	static struct ui_key_help help[SIM_NKEYS_MAX + 16];
	static char label[SIM_NKEYS_MAX][8], modes[64];
	const struct sim_key *k;
	size_t n = 0, i;
	int last;

	if (help[0].keys != NULL)
		return help;
	for (i = 0; clock_help[i].keys != NULL; i++)
		help[n++] = clock_help[i];
	k = sim_key_of_knob(SIM_KNOB_MODE);
	for (last = 0; k->word(last + 1) != NULL; last++)
		;
	snprintf(modes, sizeof modes, _("next, previous mode (%s ... %s)"),
	    k->word(0), k->word(last));
	help[n - 1].what = modes;
	for (k = sim_keys(), i = 0; k->key != NULL; k++, i++) {
		if (!(k->uses & SIM_FOR_KNOB) || k->knob_keys == NULL)
			continue;
		/* "g, G": up and down; "p": a switch. */
		snprintf(label[i], sizeof label[i], k->knob_keys[1] != '\0' ?
		    "%c, %c" : "%c", k->knob_keys[0], k->knob_keys[1]);
		help[n++] = (struct ui_key_help){ label[i], k->knob_help };
	}
	for (i = 0; end_help[i].keys != NULL; i++)
		help[n++] = end_help[i];
	help[n] = (struct ui_key_help){ NULL, NULL };
	return help;
}

/*
 * The player the clock drives: in a comparison, the longer run; a
 * measured run always (the simulated one follows its share of the step).
 */
static struct player *
lead(struct pscr *ps)
{
	if (ps->cmp_ok && !ps->pl.origin.measured &&
	    ps->cmp.res.step_time > ps->pl.res.step_time)
		return &ps->cmp;
	return &ps->pl;
}

/*
 * In a comparison, the other run shows the same simulated time; a measured
 * run and a simulated one share no clock, so the same share of the step.
 */
static void
sync_clocks(struct pscr *ps)
{
	struct player *a = lead(ps), *b = a == &ps->pl ? &ps->cmp : &ps->pl;

	if (!ps->cmp_ok)
		return;
	if (a->origin.measured || b->origin.measured)
		b->now = a->res.step_time > 0 ? a->now / a->res.step_time *
		    b->res.step_time : 0;
	else
		b->now = a->now < b->res.step_time ? a->now :
		    b->res.step_time;
	b->playing = a->playing;
	b->speed = a->speed;
}

static void
single_view(struct pscr *ps, WINDOW *w, int rows, int cols)
{
	struct pscr_plan pl;
	int big;

	/* Projector: room below the essentials for the big figures. */
	big = ps->app->projector && rows - UI_BIG_ROWS - 1 >= 10 +
	    player_devices(&ps->pl);
	pscr_plan(ps, big ? rows - UI_BIG_ROWS - 1 : rows, cols, &pl);
	pscr_draw_title(ps, w, cols);
	if (pl.set_n > 0)
		pscr_draw_settings(ps, w, pl.set_y, cols);
	pscr_draw_caption(ps, w, &pl, cols);
	pscr_draw_boxes(ps, w, &pl, cols);
	pscr_draw_flows(&ps->pl, w, pl.flow_y, pl.flow_n, cols);
	pscr_draw_links(ps, w, &pl, cols);
	pscr_draw_gantt(ps, w, &pl, cols);
	if (pl.legend_y >= 0 && !big)
		pscr_draw_legend(ps, w, pl.legend_y, cols);
	if (big)
		pscr_draw_big_stats(ps, w, pl.stats_y + 1, rows, cols);
	else
		pscr_draw_stats(&ps->pl, w, pl.stats_y, pl.stats_n, cols);
}

static void
player_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct pscr *ps = s->state;

	if (!ps->ok) {
		ui_title(w, cols, _("Animation"), NULL);
		ui_put(w, 2, 2, ps->err, cols - 4, ui_attr(UI_C_WARN));
		ui_status(w, rows, cols, _("q back  Tab next mode  ? keys"),
		    ui_attr(UI_C_DIM));
		return;
	}
	if (ps->show_against) {
		pscr_draw_title(ps, w, cols);
		pscr_draw_against(ps, w, rows - 1, cols);
	} else if (ps->cmp_ok) {
		pscr_draw_title(ps, w, cols);
		pscr_draw_compare(ps, w, rows - 1, cols);
	} else
		single_view(ps, w, rows, cols);
	ui_status(w, rows, cols, cols >= 78 ? _("Space play  arrows step  "
	    "Tab mode  g m s v p o c x: settings  ? keys  q back") :
	    _("Space play  Left/Right step  q back  ? keys"),
	    ui_attr(UI_C_DIM));
}

/* The most transfers in flight at once, for the row budget. */
static int
most_flows(const struct player *p)
{
	struct player_flow fl[PSCR_MAX_FLOWS];
	int n, most = 0;
	size_t i;

	for (i = 0; i < p->n_stops; i++) {
		n = (int)player_flows(p, p->stops[i], fl, PSCR_MAX_FLOWS);
		if (n > most)
			most = n;
	}
	return most;
}

/* Run cfg next to the main run, for a comparison. */
static void
load_compare(struct pscr *ps)
{
	struct sim_config other;
	struct pl_err err;

	if (ps->cmp_ok)
		player_free(&ps->cmp);
	ps->cmp_ok = 0;
	if (ps->pl.origin.measured)
		other = ps->cfg;	/* the simulator's run of it */
	else if (sim_config_compare(&ps->cfg, &other) != 0) {
		ps->note = N_("nothing to compare this mode with");
		return;
	}
	ps->cmp_ok = player_init(&ps->cmp, &other, &err) == 0;
	if (ps->cmp_ok) {
		ps->cmp.now = ps->pl.now;
		sync_clocks(ps);
	}
}

/* Load ps->cfg into the player; on failure the screen shows err. */
static void
load(struct pscr *ps, int playing)
{
	struct pl_err err;
	int comparing = ps->cmp_ok;

	if (ps->ok)
		player_free(&ps->pl);
	ps->ok = player_init(&ps->pl, &ps->cfg, &err) == 0;
	if (!ps->ok)
		snprintf(ps->err, sizeof ps->err, "%s", err.msg);
	else
		ps->pl.playing = playing;
	pscr_drop_cells(ps);
	ps->max_flows = ps->ok ? most_flows(&ps->pl) : 0;
	if (ps->cmp_ok) {
		player_free(&ps->cmp);
		ps->cmp_ok = 0;
	}
	if (ps->ok && comparing)
		load_compare(ps);
	clock_gettime(CLOCK_MONOTONIC, &ps->last);
}

/* Turn a knob; a turn that finds no valid value says so. */
static void
turn(struct pscr *ps, enum sim_knob knob, int dir)
{
	if (!sim_config_turn(&ps->cfg, knob, dir, PLAYER_MAX_DEVICES)) {
		ps->note = N_("no other setting that way fits the toy model "
		    "in this mode");
		return;
	}
	load(ps, ps->ok && lead(ps)->playing);
}

/* The knob ch turns and which way: Tab for the mode, else the table's. */
static int
knob_of_key(int ch, enum sim_knob *knob, int *dir)
{
	const struct sim_key *k;

	*knob = SIM_KNOB_MODE;
	*dir = ch == '\t' ? 1 : -1;
	if (ch == '\t' || ch == KEY_BTAB)
		return 1;
	for (k = sim_keys(); ch > 0 && ch < 256 && k->key != NULL; k++) {
		if (!(k->uses & SIM_FOR_KNOB) || k->knob_keys == NULL ||
		    strchr(k->knob_keys, ch) == NULL)
			continue;
		*knob = (enum sim_knob)k->knob;
		*dir = ch == k->knob_keys[0] ? 1 : -1;
		return 1;
	}
	return 0;
}

static int
knob_key(struct pscr *ps, int ch)
{
	enum sim_knob knob;
	int dir;

	if (!knob_of_key(ch, &knob, &dir))
		return 0;
	if (ps->ok && ps->pl.origin.measured)
		ps->note = N_("a measured run keeps its settings; x puts the "
		    "simulator's run beside it");
	else
		turn(ps, knob, dir);
	return 1;
}

static enum ui_result
clock_key(struct pscr *ps, int ch)
{
	struct player *p = lead(ps);

	switch (ch) {
	case ' ':
		player_toggle(p);
		break;
	case KEY_RIGHT:
	case 'l':
		player_step(p, 1);
		break;
	case KEY_LEFT:
	case 'h':
		player_step(p, -1);
		break;
	case '+':
	case '=':
		player_speed_change(p, 1);
		break;
	case '-':
	case '_':
		player_speed_change(p, -1);
		break;
	case 'r':
		player_restart(p);
		break;
	case 'x':
		if (ps->against != NULL)
			ps->show_against = !ps->show_against;
		else if (ps->cmp_ok) {
			player_free(&ps->cmp);
			ps->cmp_ok = 0;
		} else
			load_compare(ps);
		break;
	default:
		return UI_IGNORED;
	}
	sync_clocks(ps);
	clock_gettime(CLOCK_MONOTONIC, &ps->last);
	return UI_HANDLED;
}

static enum ui_result
player_key(struct ui_screen *s, int ch)
{
	struct pscr *ps = s->state;

	ps->note = NULL;
	if (ch == 'q' || ch == 'Q' || ch == 27)
		return UI_BACK;
	if (knob_key(ps, ch))
		return UI_HANDLED;
	if (!ps->ok)
		return UI_IGNORED;
	return clock_key(ps, ch);
}

/* The time left to the next frame: frames keep a 33 ms cadence however
 * long the last one took to draw. */
static int
player_next_tick(struct ui_screen *s)
{
	struct pscr *ps = s->state;
	struct timespec now;
	long since;

	if (!ps->ok || !lead(ps)->playing)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	since = (long)(now.tv_sec - ps->last.tv_sec) * 1000 +
	    (now.tv_nsec - ps->last.tv_nsec) / 1000000;
	return since >= TICK_MS ? 1 : (int)(TICK_MS - since);
}

static void
player_tick(struct ui_screen *s)
{
	struct pscr *ps = s->state;
	struct timespec now;
	double dt;

	clock_gettime(CLOCK_MONOTONIC, &now);
	dt = (double)(now.tv_sec - ps->last.tv_sec) +
	    (double)(now.tv_nsec - ps->last.tv_nsec) / 1e9;
	ps->last = now;
	if (dt > 0.5)
		dt = 0.5;
	if (ps->ok) {
		player_advance(lead(ps), dt);
		sync_clocks(ps);
	}
}

static void
player_scr_free(struct ui_screen *s)
{
	struct pscr *ps = s->state;

	if (ps == NULL)
		return;
	if (ps->ok)
		player_free(&ps->pl);
	if (ps->cmp_ok)
		player_free(&ps->cmp);
	free(ps->cells);
	free(ps);
}

/* The caption of a measured run: where it ran, and what its times are. */
static void
measured_caption(struct pscr *ps)
{
	const struct sim_origin *o = &ps->pl.origin;
	int n;

	n = snprintf(ps->measured, sizeof ps->measured, P_("Measured on %d "
	    "process with %s.", "Measured on %d processes with %s.",
	    o->processes), o->processes, o->library);
	if (n > 0 && (size_t)n < sizeof ps->measured && o->profiler)
		snprintf(ps->measured + n, sizeof ps->measured - (size_t)n, " %s",
		    ps->against != NULL ? _("PyTorch's own regions and "
		    "collectives; x: the engine's plan beside it.") :
		    _("PyTorch's own regions and collectives, the ranks' clocks "
		    "aligned on the collectives; x puts the simulator's run "
		    "beside it."));
	else if (n > 0 && (size_t)n < sizeof ps->measured &&
	    ps->against != NULL)
		snprintf(ps->measured + n, sizeof ps->measured - (size_t)n, " %s",
		    _("The collectives are MPI's; x puts the engine's plan "
		    "beside it."));
	else if (n > 0 && (size_t)n < sizeof ps->measured)
		snprintf(ps->measured + n, sizeof ps->measured - (size_t)n, " %s",
		    o->hosts == 1 ? _("CPU times on one machine: the shape of "
		    "the step, not a GPU's speed. The collectives are MPI's; "
		    "x puts the simulator's run beside it.") :
		    _("The collectives are MPI's; x puts the simulator's run "
		    "beside it."));
}

static void
player_setup(struct ui_screen *s, struct pscr *ps)
{
	s->title = N_("Animation");
	s->help = player_keys();
	s->draw = player_draw;
	s->key = player_key;
	s->next_tick_ms = player_next_tick;
	s->tick = player_tick;
	s->free = player_scr_free;
	s->state = ps;
}

struct ui_screen *
ui_player_replay(struct app *a, const struct sim_config *cfg,
    struct sim_result *res, const struct sim_origin *origin,
    const struct trace_vs_plan *against)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct pscr *ps = calloc(1, sizeof *ps);
	struct pl_err err;

	if (s == NULL || ps == NULL) {
		free(s);
		free(ps);
		return NULL;
	}
	ps->app = a;
	ps->against = against;
	ps->block = ps->cfg = *cfg;
	ps->ok = player_init_result(&ps->pl, cfg, res, origin, &err) == 0;
	if (!ps->ok)
		snprintf(ps->err, sizeof ps->err, "%s", err.msg);
	else {
		ps->pl.playing = 1;
		ps->max_flows = most_flows(&ps->pl);
		if (origin != NULL && origin->measured)
			measured_caption(ps);
	}
	clock_gettime(CLOCK_MONOTONIC, &ps->last);
	player_setup(s, ps);
	return s;
}

struct ui_screen *
ui_player_new(struct app *a, const struct content_animation *an)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct pscr *ps = calloc(1, sizeof *ps);
	struct pl_err err;

	if (s == NULL || ps == NULL) {
		free(s);
		free(ps);
		return NULL;
	}
	ps->app = a;
	ps->an = an;
	sim_config_default(&ps->block, SIM_PP, sim_mode_default_gpus(SIM_PP));
	if (an != NULL && animation_config(an, &ps->block, &err) != 0) {
		snprintf(ps->err, sizeof ps->err, "%s", err.msg);
		ps->cfg = ps->block;
	} else {
		ps->cfg = ps->block;
		/* A block plays at once; the free-standing player waits. */
		load(ps, an != NULL);
	}
	player_setup(s, ps);
	return s;
}
