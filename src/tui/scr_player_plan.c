/*
 * scr_player_plan.c - how the player's rows are spent: the title, the
 * device boxes, the Gantt chart with its transfer lane and cursor, and
 * the figures come first; then, as the terminal allows and in order of
 * importance, the second line of each box, the second figures line,
 * transfers in flight, the caption, the settings line, the bytes per
 * link, the legend, the memory by kind; spare rows become blank lines.
 */
#include <string.h>

#include "i18n.h"
#include "core/sim/sim_knob.h"
#include "core/wrap.h"
#include "tui/scr_player.h"

/* wrap_paragraph's emit when only the number of lines is wanted. */
static void
count_emit(const char *s, size_t n, void *arg)
{
	(void)s;
	(void)n;
	(void)arg;
}

const char *
pscr_caption(const struct pscr *ps)
{
	if (ps->measured[0] != '\0' && !ps->cmp_ok)
		return ps->measured;
	if (ps->an == NULL || ps->an->caption == NULL || ps->cmp_ok ||
	    !sim_config_same(&ps->cfg, &ps->block))
		return NULL;
	return ps->an->caption;
}

/* Rows for the optional parts, in order of importance. */
static void
plan_optional(struct pscr_plan *pl, int extra, int cap_want, int nflows)
{
	static const int order[] = { 0, 1, 2, 3, 6, 4, 5, 2, 3, 2, 3, 3, 4 };
	size_t i;

	for (i = 0; i < sizeof order / sizeof order[0] && extra > 0; i++) {
		switch (order[i]) {
		case 0:
			pl->holds_n++;
			break;
		case 1:
			pl->stats_n++;
			break;
		case 2:
			if (pl->flow_n >= (nflows > 1 ? nflows : 1))
				continue;
			pl->flow_n++;
			break;
		case 3:
			if (pl->cap_n >= cap_want)
				continue;
			pl->cap_n++;
			break;
		case 4:
			pl->link_n++;
			break;
		case 5:
			pl->legend_y = 0;
			break;
		case 6:
			pl->set_n = 1;
			break;
		}
		extra--;
	}
	for (; extra > 0 && pl->flow_n < nflows && pl->flow_n < 6; extra--)
		pl->flow_n++;
	if (extra >= SIM_NMEM + 1) {
		pl->detail_n = SIM_NMEM;
		extra -= SIM_NMEM;
	}
	if (cap_want > pl->cap_n && extra > 0) {
		i = (size_t)(extra < cap_want - pl->cap_n ? extra :
		    cap_want - pl->cap_n);
		pl->cap_n += (int)i;
		extra -= (int)i;
	}
	pl->gap_n = extra;
}

void
pscr_plan(const struct pscr *ps, int rows, int cols, struct pscr_plan *pl)
{
	int n = player_devices(&ps->pl), avail = rows - 2, need, y, fixed;
	int cap_want = 0, nflows = ps->max_flows < 3 ? 3 : ps->max_flows;

	memset(pl, 0, sizeof *pl);
	pl->legend_y = -1;
	pl->holds_n = 1;
	pl->stats_n = 1;
	pl->gantt_n = n;
	pl->lane_n = 1;
	if (pscr_caption(ps) != NULL)
		cap_want = wrap_paragraph(_(pscr_caption(ps)), cols - 4,
		    count_emit, NULL);
	/* Boxes (1 + 4), Gantt rows, lane, cursor, stats. */
	need = 5 + n + 1 + 1 + 1;
	if (need > avail) {
		pl->lane_n = 0;
		need--;
	}
	if (need > avail) {
		pl->gantt_n -= need - avail;
		if (pl->gantt_n < 1)
			pl->gantt_n = 1;
	}
	fixed = 5 + pl->gantt_n + pl->lane_n + 2;
	plan_optional(pl, avail - fixed, cap_want, nflows);
	y = 1;
	pl->set_y = y;
	y += pl->set_n;
	pl->cap_y = y;
	y += pl->cap_n;
	pl->box_y = y;
	y += pl->holds_n + 4 + pl->detail_n;
	y += pl->gap_n > 2 ? 1 : 0;
	pl->flow_y = y;
	y += pl->flow_n;
	pl->link_y = y;
	y += pl->link_n;
	y += pl->gap_n > 0 ? 1 : 0;
	pl->gantt_y = y;
	y += pl->gantt_n + pl->lane_n + 1;
	if (pl->legend_y == 0)
		pl->legend_y = y++;
	y += pl->gap_n > 1 ? 1 : 0;
	pl->stats_y = y;
}
