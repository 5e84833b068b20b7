/*
 * scr_player_against.c - a measured step (trace --from) beside the
 * engine's prediction of it (--against PLAN): core's rows
 * (core/sim/trace_vs_plan.h) as a table under the player's title.
 */
#include <stdio.h>

#include "i18n.h"
#include "tui/draw.h"
#include "tui/scr_player.h"
#include "tui/term.h"
#include "tui/ui.h"

void
pscr_draw_against(struct pscr *ps, WINDOW *w, int rows, int cols)
{
	const struct trace_vs_plan *t = ps->against;
	char line[256], m[32], e[32], x[16];
	int r, y = 2, dim = ui_attr(UI_C_DIM);

	/* TRANSLATORS: %1$d ranks; %2$s a model, %3$d GPUs, %4$s a GPU,
	 * both from the plan file. */
	snprintf(line, sizeof line, _("Measured on %1$d ranks vs the "
	    "engine's plan: %2$s, %3$d %4$s"), t->gpus, t->model, t->gpus,
	    t->gpu);
	ui_put_cut(w, y++, 2, line, cols - 4, 0);
	y++;
	/* labels are translated: placed by column, not padded by bytes */
	snprintf(line, sizeof line, "%12s %12s %12s", _("measured"),
	    _("engine"), _("engine/m"));
	ui_put(w, y++, 24, line, cols - 26, ui_attr(UI_C_HEADING));
	for (r = 0; r < TVP_NROWS && y < rows - 4; r++) {
		ui_put_cut(w, y, 2, _(tvp_row_label(r)), 22, 0);
		snprintf(line, sizeof line, "%12s %12s %12s",
		    tvp_value_text(r, t->measured[r], m, sizeof m),
		    tvp_value_text(r, t->engine[r], e, sizeof e),
		    tvp_ratio_text(t, r, x, sizeof x));
		ui_put(w, y++, 24, line, cols - 26, 0);
	}
	y++;
	if (y < rows - 2)
		ui_put_cut(w, y++, 2, _("Measured: the mean of the ranks. Not "
		    "hidden: no compute beside."),
		    cols - 4, dim);
	if (y < rows - 2)
		ui_put_cut(w, y++, 2, _("Above 1x the engine predicts more. "
		    "x goes back to the step."), cols - 4,
		    dim);
}
