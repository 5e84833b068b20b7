/*
 * playground.h - the knob model of the cost-model playground.
 *
 * A playground holds one engine configuration and the knobs a learner
 * turns: each knob has a name (the engine-configuration key, so a
 * scenario's "locked" list and a lesson's "start" use the same words), a
 * label, and a list of values to step through. pg_change() turns a knob by
 * one step, keeps DP x TP x PP = GPUs where it can (the note says what it
 * adjusted), evaluates the new layout with the cost model and keeps the
 * previous valid result and the starting one, so a screen can show what
 * changed since the previous setting or since the start. At the end of a
 * knob's list the note says so. Pure logic: no allocation, no I/O; the
 * catalog is borrowed and must outlive the state.
 */
#ifndef PARLEARN_CORE_PLAYGROUND_H
#define PARLEARN_CORE_PLAYGROUND_H

#include <stddef.h>

#include "core/engine/costmodel.h"
#include "core/engine/hardware.h"

enum pg_knob {
	PG_MODEL,		/* model preset from the catalog */
	PG_GPU,			/* GPU type from the catalog */
	PG_GPUS,		/* GPUs in the job */
	PG_GPN,			/* GPUs per node */
	PG_SEQ,			/* sequence length, tokens */
	PG_GLOBAL_BATCH,	/* samples per step */
	PG_MICRO_BATCH,		/* samples per micro-batch */
	PG_AXES,		/* one knob per axis's degree, in enum
				   mesh_axis order (the mesh's table) */
	PG_ZERO = PG_AXES + MESH_N_AXES,	/* 0..3 */
	PG_RECOMPUTE,		/* none, selective, full */
	PG_SP,			/* sequence parallelism off/on */
	PG_SCHEDULE,		/* gpipe, 1f1b, interleaved */
	PG_VSTAGES,		/* virtual stages (interleaved) */
	PG_ATTENTION,		/* flash, plain */
	PG_RANK_ORDER,		/* rank numbering, innermost axis first */
	PG_EP,			/* expert parallelism (appended: saved
				 * attempts name knobs, but keep the order) */
	PG_N_KNOBS
};

#define PG_DP	((enum pg_knob)(PG_AXES + MESH_DP))
#define PG_TP	((enum pg_knob)(PG_AXES + MESH_TP))
#define PG_PP	((enum pg_knob)(PG_AXES + MESH_PP))

/* The figures a screen shows and diffs. */
enum pg_fig {
	PG_F_MEM_PARAMS, PG_F_MEM_GRADS, PG_F_MEM_OPTIM, PG_F_MEM_ACT,
	PG_F_MEM_OTHER, PG_F_MEM_TOTAL,		/* bytes */
	PG_F_T_COMPUTE, PG_F_T_COMM, PG_F_T_BUBBLE, PG_F_T_OPTIM,
	PG_F_T_STEP,				/* seconds */
	PG_F_BUBBLE, PG_F_MFU,			/* fractions, 0..1 */
	PG_F_TOKENS,				/* tokens/s */
	PG_F_N
};

#define PG_NOTE_LEN	160

/* What a change is measured from. */
enum pg_base {
	PG_VS_PREV,		/* the previous valid setting */
	PG_VS_START		/* the configuration pg_init started from */
};

struct pg_state {
	const struct hw_catalog	*cat;		/* borrowed */
	struct cm_config	 cfg;		/* what the knobs show */
	unsigned		 locked;	/* bit (1u << knob) per locked knob */
	struct cm_result	 cur;		/* valid only if cur_valid */
	int			 cur_valid;	/* bool */
	char			 why[512];	/* engine's reason when !cur_valid */
	struct cm_result	 prev;		/* last valid result before cur */
	int			 have_prev;	/* bool */
	struct cm_result	 start;		/* pg_init's result */
	int			 have_start;	/* bool: the start was valid */
	char			 note[PG_NOTE_LEN]; /* what the last change adjusted */
	unsigned		 changes;	/* knob presses that changed cfg */
	enum cm_framework	 framework0;	/* pg_init's: what the search
						 * prices rows as */
};

/* Engine-configuration key of a knob ("tp"), and its label (N_()). */
const char	*pg_knob_name(enum pg_knob);
const char	*pg_knob_label(enum pg_knob);
/* Knob named name; 0, or -1 for an unknown name. */
int		 pg_knob_parse(const char *name, enum pg_knob *out);

/*
 * Start from cfg (copied; the model and GPU need not be in cat) with the
 * knobs in locked (bit per knob) held fixed, and evaluate it.
 */
void	pg_init(struct pg_state *, const struct hw_catalog *cat,
	    const struct cm_config *cfg, unsigned locked);

/*
 * The default free playground: Llama 2 13B on 16 H100-80GB, 2 nodes, TP 2
 * x PP 2 x DP 4 (or the first model and GPU of cat). Returns 0, or -1 if
 * cat has no model or no GPU.
 */
int	pg_default_config(const struct hw_catalog *cat, struct cm_config *out);

/*
 * Turn knob k one step (dir -1 or +1) and re-evaluate. Returns 1 if the
 * configuration changed, 0 if the knob is at the end of its range (note
 * says it is the first or last value), -1 if it is locked (note says so).
 */
int	pg_change(struct pg_state *, enum pg_knob k, int dir);

/* Replace the layout with cfg (from the search) and re-evaluate. */
void	pg_apply(struct pg_state *, const struct cm_config *cfg);

/*
 * The configuration to search from: cfg with the framework the playground
 * started with, so a ranked row applied (priced as its framework) does not
 * narrow the next search to that framework.
 */
void	pg_search_config(const struct pg_state *, struct cm_config *out);

/* 1 when search row r is the playground's layout (its framework too,
 * unless the playground prices as set). */
int	pg_is_row(const struct pg_state *, const struct cm_config *r);

/* Knob k's current value as text ("4", "selective", "H100 SXM5 80 GB"). */
void	pg_knob_value(const struct pg_state *, enum pg_knob k, char *buf,
	    size_t size);

/* Value of figure f in r (units above). */
double	pg_figure(const struct cm_result *r, enum pg_fig f);

/*
 * Change of figure f from prev to cur; 0 when there is no previous valid
 * result or the state is invalid.
 */
double	pg_delta(const struct pg_state *, enum pg_fig f);

/*
 * Change of figure f from base (the previous setting or the start) to cur;
 * 0 when that base is missing (pg_has_base) or the state is invalid.
 */
double	pg_delta_from(const struct pg_state *, enum pg_fig f,
	    enum pg_base base);
/* 1 if base has a valid result to compare with, else 0. */
int	pg_has_base(const struct pg_state *, enum pg_base base);

/*
 * The layout of cfg as one line of text for the store and the screen:
 * "dp=2 tp=4 pp=4 mb=1 zero=1 recompute=full sp=off schedule=1f1b v=1
 * attention=flash seq=4096 gb=56 gpus=32 gpn=8 model=llama2-70b
 * gpu=a100-80gb", with " order=pp-tp-dp" at the end when the rank order
 * is not the default one, then " ep=8" when EP is above 1.
 */
/* The axis knob k sets the degree of: 0, or -1 for another knob. */
/*
 * 1 if the screen lists knob k: an optional axis's degree (CP) only once
 * the sequence is long enough for the search to split it (2 x
 * MESH_SEQ_CHUNK tokens) or it is above 1.
 */
int	pg_knob_shown(const struct pg_state *, enum pg_knob k);

/*
 * The EP knob (playground_ep.c): shown for a model with routed experts;
 * pg_ep_change steps cfg's EP to the next power of two (dir +1) or the
 * one before (-1) that divides the experts and DP x CP, 0 at the end.
 */
int	pg_ep_shown(const struct cm_config *cfg);
int	pg_ep_degree(const struct cm_config *cfg);
int	pg_ep_change(struct cm_config *cfg, int dir);
int	pg_knob_axis(enum pg_knob k, enum mesh_axis *a);

void	pg_layout_text(const struct cm_config *cfg, char *buf, size_t size);

/*
 * 1 if a and b agree on every knob in mask (bit per knob), else 0.
 */
int	pg_same_knobs(const struct cm_config *a, const struct cm_config *b,
	    unsigned mask);

/*
 * Tie-aware rank of r among the search's ranked layouts (cm_search_rank):
 * 1 = best or within 3 % of it, 0 when r falls beyond a full list, -1
 * when the search would not rank r (cm_search_why_excluded says why).
 */
int	pg_rank(const struct cm_search *s, const struct cm_result *r);

#endif
