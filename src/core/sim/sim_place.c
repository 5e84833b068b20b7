/*
 * sim_place.c - what each device of a run is called and where it sits in
 * the layout, the one naming the lessons, the player and `parlearn trace`
 * share: GPUs G0, G1, ... and pipeline stages from 0, stage 0 on G0
 * (sim_modes.h places rank (r*p + s)*t + k).
 */
#include <stdio.h>

#include "core/sim/sim.h"

const char *
sim_device_name(int dev, char *buf, size_t n)
{
	snprintf(buf, n, "G%d", dev);
	return buf;
}

void
sim_device_place(const struct sim_result *res, int dev,
    struct sim_place *pl)
{
	int t = res->tp > 0 ? res->tp : 1, p = res->pp > 0 ? res->pp : 1;
	int v = res->v > 0 ? res->v : 1, lps = SIM_LAYERS / (p * v), l;

	pl->tp_rank = dev % t;
	pl->stage = (dev / t) % p;
	pl->replica = dev / (t * p);
	pl->layers = 0;
	for (l = 0; lps > 0 && l < SIM_LAYERS; l++)
		if ((l / lps) % p == pl->stage)
			pl->layers |= 1u << l;
}

const char *
sim_layers_text(unsigned mask, char *buf, size_t n)
{
	int l, first = -1, last = -1, count = 0, gaps = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (l = 0; l < SIM_LAYERS; l++)
		if (mask & (1u << l)) {
			if (last >= 0 && l != last + 1)
				gaps = 1;
			if (first < 0)
				first = l;
			last = l;
			count++;
		}
	if (count > 2 && !gaps) {
		snprintf(buf, n, "L%d-L%d", first + 1, last + 1);
		return buf;
	}
	for (l = 0; l < SIM_LAYERS && used < n; l++)
		if (mask & (1u << l))
			used += (size_t)snprintf(buf + used, n - used, "%sL%d",
			    used > 0 ? " " : "", l + 1);
	return buf;
}
