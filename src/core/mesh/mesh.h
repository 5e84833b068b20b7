/*
 * mesh.h - the parallel layout, once: which axes a job is split over,
 * each axis's degree, how ranks are numbered over them, which ranks form
 * each axis's groups and how those groups sit on nodes.
 *
 * The engine (cm_group_of, the search grid), the simulator (sim_rank and
 * its groups, where a device sits), the playground (the degrees' product)
 * and parlearn-run (the MPI communicators) all ask this module; none of
 * them multiplies degrees or strides itself. The axes are a table
 * (mesh_axes.c): adding one is a row there and its physics elsewhere
 * (doc/adding-an-axis.md).
 *
 * A mesh is a mixed-radix number system: with the axes in `order`,
 * innermost first, a rank's coordinate on axis order[i] is
 * (rank / stride_i) % degree, stride_i being the product of the degrees
 * inside it (PyTorch's DeviceMesh and Megatron-LM's RankGenerator number
 * ranks the same way).
 */
#ifndef PARLEARN_CORE_MESH_H
#define PARLEARN_CORE_MESH_H

#include <stddef.h>

/* The axes, in the order people name a layout: "DP x TP x PP x CP". */
enum mesh_axis { MESH_DP, MESH_TP, MESH_PP, MESH_CP };
#define MESH_N_AXES	4
#define MESH_N_ORDERS	24	/* MESH_N_AXES!, every rank numbering */
#define MESH_MAX_RANKS	(1L << 30)

/* How the search grid steps an axis's degree (mesh_walk.c). */
enum mesh_step {
	MESH_STEP_POW2,		/* 1, 2, 4, ... */
	MESH_STEP_EVERY,	/* 1, 2, 3, ... */
	MESH_STEP_REST		/* the GPUs over the other degrees */
};

/* What bounds an axis's degree on the grid, beyond dividing the GPUs. */
enum mesh_cap {
	MESH_CAP_NONE,
	MESH_CAP_NODES8,	/* 8 nodes' worth of GPUs ([NAR21] 3.3) */
	MESH_CAP_LAYERS,	/* the layers: a stage holds one at least */
	MESH_CAP_SEQ		/* chunks of MESH_SEQ_CHUNK tokens at least */
};

/*
 * The search tries context parallelism down to chunks of this many tokens
 * per rank: Llama 3 405B's 128K stage ran CP 16, 8K tokens a rank ([LLAMA3]
 * 3.3.2), and shorter sequences are not split.
 */
#define MESH_SEQ_CHUNK	8192

/* Rules a degree must follow (checked by the engine). */
#define MESH_RULE_HEADS		0x01u	/* divides heads, hidden, ffn */
#define MESH_RULE_LAYERS	0x02u	/* divides the layers, nearly */
#define MESH_RULE_BATCH		0x04u	/* divides the batch */
#define MESH_RULE_IN_NODE	0x08u	/* kept in a node on request */
#define MESH_RULE_SEQ		0x10u	/* divides the sequence */

/* Collectives an axis issues, each step (mesh_axis_info.collectives). */
#define MESH_COLL_ALLREDUCE	0x01u
#define MESH_COLL_ALLGATHER	0x02u
#define MESH_COLL_REDUCESCATTER	0x04u
#define MESH_COLL_SENDRECV	0x08u
#define MESH_COLL_ALLTOALL	0x10u

/*
 * One row of the axis table. key names the --KEY option, the engine
 * configuration and lesson key and the JSON member; label is how layouts
 * are written ("TP"); help and knob (the playground's "TP degree") are
 * marked for gettext. nest is the axis's place in the default rank order
 * (innermost 0), which is also how the search grid nests its loops;
 * absorbs is the order in which the playground moves a degree to keep
 * the product equal to the GPUs, and follows_gpus says whether it may
 * move when the GPU count does. priced, simulated and framework say
 * where the engine prices its collectives, where the simulator issues
 * them and who runs the axis this way.
 */
struct mesh_axis_info {
	enum mesh_axis	 axis;
	const char	*key, *label, *arg, *help, *knob;
	int		 nest;
	enum mesh_step	 step;
	enum mesh_cap	 cap;
	int		 absorbs, follows_gpus;
	int		 optional;	/* a layout left without it has 1 */
	unsigned	 rules;		/* MESH_RULE_* */
	unsigned	 collectives;	/* MESH_COLL_* */
	const char	*priced, *simulated, *framework;
};

/* The row of axis a; the rows are in enum order. */
const struct mesh_axis_info	*mesh_axis(enum mesh_axis a);
/* The axis whose key is key ("tp"); 0, or -1 if none. */
int	mesh_axis_parse(const char *key, enum mesh_axis *a);

struct mesh {
	int		 degree[MESH_N_AXES];	/* by axis */
	enum mesh_axis	 order[MESH_N_AXES];	/* innermost first */
	int		 gpus_per_node;
};

/* Where the ranks of one group sit: n ranks, per_node in each of the
 * `nodes` nodes it touches. */
struct mesh_span {
	int	n;
	int	per_node;
	int	nodes;
	int	domains;	/* NVLink domains it spans (nodes by default) */
};

/* Every degree 1, the default order (by nest), gpus_per_node. */
void	mesh_init(struct mesh *, int gpus_per_node);

/*
 * The rank numberings, in a fixed order: every permutation of the axes,
 * innermost first, in lexicographic order of their nests (0 is the
 * default, tp-pp-dp). Names are the keys joined by '-'.
 */
void		 mesh_set_order(struct mesh *, int order);
const char	*mesh_order_name(int order);
int		 mesh_order_parse(const char *, int *order);
/*
 * Order's name without the optional axes whose degree (degree[] by axis)
 * is 1 ("dp-pp-tp" for dp-pp-tp-cp at CP 1), into buf; and whether order
 * is the one that short name parses back to (mesh_order_parse puts a
 * left-out axis in its default place), so that orders differing only in
 * where an axis of degree 1 sits are told once.
 */
const char	*mesh_order_short(int order, const int *degree, char *buf,
		    size_t size);
int		 mesh_order_canonical(int order, const int *degree);
/* The NULL-terminated list of names, for option tables. */
const char *const	*mesh_order_names(void);

/* Ranks in the mesh: the product of the degrees (0 when it overflows
 * MESH_MAX_RANKS or a degree is below 1). */
long	mesh_size(const struct mesh *);

/* The same for degrees by axis, without a mesh (the engine's hot path). */
long	mesh_product(const int *degree);

/* Distance between neighbours of axis a: the degrees inside it. */
long	mesh_stride(const struct mesh *, enum mesh_axis a);

/* The same for degrees by axis under rank order `order`. */
long	mesh_order_stride(int order, const int *degree, enum mesh_axis a);

/* rank -> coordinates (by axis) and back. */
void	mesh_coords(const struct mesh *, long rank, int coord[MESH_N_AXES]);
long	mesh_rank(const struct mesh *, const int coord[MESH_N_AXES]);

/*
 * The group of axis a that holds rank: its members by their coordinate on
 * a into members (degree[a] of them); returns how many.
 */
int	mesh_group(const struct mesh *, enum mesh_axis a, long rank,
	    long *members);
/* That group's first member: a key equal for every member of the group. */
long	mesh_group_id(const struct mesh *, enum mesh_axis a, long rank);

/* How the groups of axis a sit on nodes (the same for every group). */
void	mesh_span_of(const struct mesh *, enum mesh_axis a,
	    struct mesh_span *);
/*
 * n ranks `stride` apart with gpus_per_node per node and domain_gpus
 * (a multiple of gpus_per_node; 0: the node) per NVLink domain.
 */
void	mesh_span_place(int n, long stride, int gpus_per_node,
	    int domain_gpus, struct mesh_span *);

/*
 * "DP x TP x PP" and "4 x 8 x 8": the labels and the degrees in axis
 * order, joined by " x ", into buf (size bytes).
 */
const char	*mesh_labels_text(char *buf, size_t size);
const char	*mesh_degrees_text(const struct mesh *, char *buf,
		    size_t size);
/* "dp 2 x tp 2 x pp 2": each key with its degree (degree[] by axis). */
const char	*mesh_keys_text(const int *degree, char *buf, size_t size);
/* "DP 4 x TP 8 x PP 8": each label with its degree. */
const char	*mesh_layout_text(const struct mesh *, char *buf,
		    size_t size);

/*
 * The search grid (mesh_walk.c): every way to split `gpus` over the axes
 * with the table's steps and caps, outermost nest first. Start, then call
 * next until it returns 0; each 1 leaves a layout in degree[].
 */
struct mesh_walk {
	long	gpus;
	long	cap[MESH_N_AXES];	/* by axis; caller-filled bounds */
	int	degree[MESH_N_AXES];	/* by axis */
	int	started;
};
void	mesh_walk_start(struct mesh_walk *, long gpus, int gpus_per_node,
	    int layers, long seq);
int	mesh_walk_next(struct mesh_walk *);

#endif
