/*
 * player_int.h - what the player's files share and no screen needs.
 */
#ifndef PARLEARN_CORE_PLAYER_INT_H
#define PARLEARN_CORE_PLAYER_INT_H

#include "core/sim/player.h"

#define PLAYER_EPS	1e-12	/* seconds: starts closer than this are one stop */

/* Find every link that carries bytes and its total (player_flow.c). */
int	player_build_links(struct player *);

#endif
