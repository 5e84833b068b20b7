/*
 * sim_modes.h - inside the simulator: how a mode lays the toy model out
 * over devices, what each device holds, and the executor that runs one
 * step on that layout. Used by sim.c and sim_collective.c only.
 *
 * Every mode is one grid: d replicas (data parallel) x p pipeline stages x
 * t tensor-parallel ranks, device rank = (r*p + s)*t + k (TP innermost, as
 * Megatron places it), plus the FSDP flag (parameters sharded over the d
 * replicas). single is 1x1x1, dp dx1x1, tp 1x1xt, pp 1xpx1, fsdp dx1x1
 * sharded, 3d 2x2x2.
 */
#ifndef PARLEARN_CORE_SIM_MODES_H
#define PARLEARN_CORE_SIM_MODES_H

#include <stddef.h>

#include "core/sim/sim.h"

enum sim_split {
	SIM_SPLIT_NONE,		/* the whole layer on the device */
	SIM_SPLIT_COL,		/* W's output columns split over TP ranks */
	SIM_SPLIT_ROW		/* W's input rows split over TP ranks */
};

struct sim_layout {
	int		 d;		/* data-parallel replicas */
	int		 p;		/* pipeline stages */
	int		 t;		/* tensor-parallel ranks */
	int		 v;		/* chunks per stage */
	int		 m;		/* microbatches per replica */
	int		 b;		/* samples per microbatch */
	int		 fsdp;		/* 1: params, grads, Adam state sharded */
	int		 lps;		/* layers per virtual stage */
	enum pipe_schedule	 kind;		/* pipeline schedule */
	enum sim_split	 split[SIM_LAYERS];
};

struct sim_dev {
	int	 r, s, k;		/* replica, stage, TP rank */
	double	*w;			/* parameters held (FSDP: shards) */
	double	*g;			/* their gradients */
	double	*am, *av;		/* Adam moments, NULL until the step */
	size_t	 n_w;			/* values in w, g, am, av */
	size_t	 off[SIM_LAYERS];	/* layer's offset in w; SIZE_MAX if not held */
	double	*full[SIM_LAYERS];	/* FSDP: gathered layer while in use */
	double	*fullg[SIM_LAYERS];	/* FSDP: unsharded grads in backward */
	double	*act[SIM_LAYERS + 1][SIM_BATCH];	/* layer inputs/outputs */
	double	*dact[SIM_LAYERS + 1][SIM_BATCH];	/* their gradients */
	double	 clock;			/* seconds: when the device is free */
};

struct sim_run {
	struct sim_layout	 lay;
	struct sim_cost		 cost;
	int			 n_dev;		/* d*p*t */
	struct sim_dev		*dev;		/* n_dev devices */
	struct sim_timeline	*tl;		/* where events go */
	double			 x[SIM_BATCH * SIM_WIDTH];	/* data loader */
	double			 target[SIM_BATCH * SIM_WIDTH];
	double			 loss;		/* summed by the driver */
	int			 oom;		/* an allocation failed */
};

/* Values in one FSDP shard of a layer: ceil(SIM_LAYER_PARAMS / d). */
size_t	sim_fsdp_shard(const struct sim_layout *);

/* Device rank of replica r, stage s, TP rank k. */
int	sim_rank(const struct sim_layout *, int r, int s, int k);

/* Allocate n zeroed values on a device, accounted as kind at time t. */
double	*sim_dev_alloc(struct sim_run *, int dev, enum sim_mem_kind,
	    size_t n, double t);
/* Free them (p may be NULL), accounting at time t; sets *p to NULL. */
void	 sim_dev_free(struct sim_run *, int dev, enum sim_mem_kind,
	    double **p, size_t n, double t);

/*
 * Run one step of lay under cost, recording into tl (initialised by the
 * caller for d*p*t devices). Fills *loss and the full-layout gradients and
 * updated parameters. Returns 0, or -1 on ENOMEM or a schedule bug.
 */
int	sim_exec(const struct sim_layout *, const struct sim_cost *,
	    struct sim_timeline *, double *loss, double *grads,
	    double *params);

#endif
