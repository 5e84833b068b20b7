/*
 * scr_player.c - the animation player (placeholder until the player lands:
 * says what it will do).
 */
#include "i18n.h"
#include "tui/app.h"
#include "tui/ui.h"

static const char *const player_body[] = {
	N_("The animation player is coming in a later version of parlearn."),
	N_("Here you will watch the toy 4-layer model run forward and backward on simulated GPUs under data, tensor, pipeline and sharded data parallelism, with the data moving between devices, a timeline with the bubble marked, and the memory on each device."),
	N_("Meanwhile, 'parlearn trace --help' prints the same runs as a timeline on the command line."),
	NULL
};

struct ui_screen *
ui_player_new(struct app *a, const struct content_animation *an)
{
	(void)a;
	(void)an;
	return ui_info_new(N_("Animations"), player_body);
}
