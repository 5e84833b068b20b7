/*
 * emit_read.h - a layout read back from a file `plan --emit` writes (or a
 * student wrote by hand): torchtitan TOML, Megatron-LM flags, DeepSpeed
 * JSON, or a Slurm script with one of them inside; and its comparison
 * with the layout a lab step asks for. No curses, no SQLite.
 */
#ifndef PARLEARN_CORE_EMIT_READ_H
#define PARLEARN_CORE_EMIT_READ_H

#include <stddef.h>

#include "core/engine/costmodel.h"
#include "core/engine/emit.h"
#include "core/err.h"

#define EMIT_READ_MAX	(1L << 20)	/* larger files are refused */

/* The axes a file can state; -1 where it says nothing. */
enum emit_axis { EA_NODES, EA_GPUS_PER_NODE, EA_DP, EA_TP, EA_PP, EA_CP,
	EA_EP, EA_ZERO, EA_MICRO, EA_GLOBAL, EA_N };

struct emit_layout {
	enum emit_kind	kind;		/* what the file is */
	long		v[EA_N];	/* value, or -1 */
	int		line[EA_N];	/* 1-based line it is on, 0 if derived */
	const char	*key[EA_N];	/* the key/flag it came from (static) */
};

/*
 * Read text (len bytes, the contents of file) as an emitted config. 0, or
 * -1 with err naming file and line for garbage, NUL bytes, a file over
 * EMIT_READ_MAX, an unknown kind or a value that is not a number.
 */
int	emit_read(const char *text, size_t len, const char *file,
	    struct emit_layout *out, struct pl_err *err);

/*
 * Compare what the file says with c: every axis its kind states must be
 * there and equal. 0 when it matches, else 1 with err naming the file,
 * the line and the key, and both values.
 */
int	emit_read_check(const struct emit_layout *got,
	    const struct cm_config *c, const char *file, struct pl_err *err);

#endif
