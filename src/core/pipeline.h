/*
 * pipeline.h - the pipeline schedules and their bubble, one vocabulary for
 * the cost model, the simulator and every screen.
 *
 * GPipe runs every forward then every backward; 1F1B (PipeDream-Flush)
 * alternates after a warm-up; interleaved 1F1B is Megatron-LM's schedule
 * with v model chunks per device ([NAR21] §2.2.2; reference/costmodel.md §e).
 */
#ifndef PARLEARN_CORE_PIPELINE_H
#define PARLEARN_CORE_PIPELINE_H

enum pipe_schedule {
	PIPE_GPIPE,
	PIPE_1F1B,
	PIPE_INTERLEAVED,
	PIPE_ZB_H1,		/* zero bubble, backward split in B and W */
	PIPE_DUALPIPE,		/* DeepSeek-V3's bidirectional schedule */
	PIPE_DUALPIPEV		/* DualPipe cut in half: a V of 2 stages a GPU */
};
#define PIPE_N_SCHEDULES 6

/* The names, in enum order, NULL-terminated: "gpipe", "1f1b", "interleaved",
 * "zb-h1", "dualpipe", "dualpipev". */
extern const char *const pipe_schedule_names[PIPE_N_SCHEDULES + 1];

/* One name; "?" for a value out of range. */
const char	*pipe_schedule_name(enum pipe_schedule);

/* Parse one of the names above into *out: 0, or -1 if unknown or NULL. */
int		 pipe_schedule_parse(const char *, enum pipe_schedule *out);

/*
 * (p-1)/(v*m+p-1): the idle share of a step with p stages, m micro-batches
 * and v chunks per stage (reference/costmodel.md §e). 0 when p <= 1 or m < 1.
 */
double		 pipe_bubble_fraction(int p, long m, int v);

#endif
