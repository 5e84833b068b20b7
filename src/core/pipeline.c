/*
 * pipeline.c - schedule names and the bubble formula.
 */
#include <stddef.h>
#include <string.h>

#include "core/pipeline.h"

const char *const pipe_schedule_names[PIPE_N_SCHEDULES + 1] = {
	"gpipe", "1f1b", "interleaved", "zb-h1", "dualpipe", "dualpipev", NULL
};

const char *
pipe_schedule_name(enum pipe_schedule k)
{
	return ((int)k >= 0 && (int)k < PIPE_N_SCHEDULES) ? pipe_schedule_names[k] : "?";
}

int
pipe_schedule_parse(const char *s, enum pipe_schedule *out)
{
	int i;

	for (i = 0; s != NULL && i < PIPE_N_SCHEDULES; i++)
		if (strcmp(s, pipe_schedule_names[i]) == 0) {
			*out = (enum pipe_schedule)i;
			return 0;
		}
	return -1;
}

double
pipe_bubble_fraction(int p, long m, int v)
{
	if (p <= 1 || m < 1)
		return 0.0;
	return (p - 1.0) / ((double)v * (double)m + p - 1.0);
}
