/*
 * emit_read.c - read back the layout an emitted config states (see
 * emit_read.h). Only the keys emit_*.c write are read; a hand-written
 * file may hold more, which is ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/engine/emit_read.h"
#include "i18n.h"

#define MARK	"PARLEARN_CONFIG"

static const char *const axis_name[EA_N] = { "nodes", "GPUs per node",
	"DP", "TP", "PP", "CP", "EP", "ZeRO", "micro-batch", "global batch" };

static void
set(struct emit_layout *o, enum emit_axis a, long v, int line,
    const char *key)
{
	o->v[a] = v;
	o->line[a] = line;
	o->key[a] = key;
}

/* A whole positive decimal number in s[0..n), else -1. */
static long
number(const char *s, size_t n)
{
	long v = 0;
	size_t i;

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	if (n == 0 || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Next line of [p, end): its length; *next past its newline. */
static size_t
line_len(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	*next = nl ? nl + 1 : end;
	return (size_t)((nl ? nl : end) - p);
}

static int
bad_number(const char *file, int line, const char *key, struct pl_err *err)
{
	pl_err_set(err, file, line, 0, _("%s is not a whole number"), key);
	return -1;
}

/* torchtitan: [section] headers, key = value. */
static const struct { const char *sec, *key; enum emit_axis a; } tt_keys[] = {
	{ "training", "local_batch_size", EA_MICRO },
	{ "training", "global_batch_size", EA_GLOBAL },
	{ "parallelism", "data_parallel_replicate_degree", EA_DP },
	{ "parallelism", "data_parallel_shard_degree", EA_DP },
	{ "parallelism", "tensor_parallel_degree", EA_TP },
	{ "parallelism", "pipeline_parallel_degree", EA_PP },
	{ "parallelism", "context_parallel_degree", EA_CP },
	{ "parallelism", "expert_parallel_degree", EA_EP },
	{ "parallelism", "pipeline_parallel_microbatch_size", EA_MICRO },
};

static int
read_torchtitan(const char *p, const char *end, int line0, const char *file,
    struct emit_layout *o, struct pl_err *err)
{
	char sec[64] = "";
	long rep = -1, shard = -1, local = -1, pmicro = -1;
	int line = line0, rl = 0;
	const char *next;

	for (; p < end; p = next, line++) {
		size_t n = line_len(p, end, &next), i, k;
		const char *eq;

		while (n > 0 && isspace((unsigned char)*p))
			p++, n--;
		if (n == 0 || *p == '#')
			continue;
		if (*p == '[') {
			const char *c = memchr(p, ']', n);

			if (c == NULL || (size_t)(c - p - 1) >= sizeof(sec)) {
				pl_err_set(err, file, line, 0,
				    _("unreadable TOML section header"));
				return -1;
			}
			memcpy(sec, p + 1, (size_t)(c - p - 1));
			sec[c - p - 1] = '\0';
			continue;
		}
		eq = memchr(p, '=', n);
		if (eq == NULL) {
			pl_err_set(err, file, line, 0,
			    _("not a TOML line (key = value)"));
			return -1;
		}
		k = (size_t)(eq - p);
		while (k > 0 && isspace((unsigned char)p[k - 1]))
			k--;
		for (i = 0; i < sizeof(tt_keys) / sizeof(tt_keys[0]); i++) {
			long v;

			if (strcmp(sec, tt_keys[i].sec) != 0 ||
			    strlen(tt_keys[i].key) != k ||
			    memcmp(p, tt_keys[i].key, k) != 0)
				continue;
			v = number(eq + 1, n - (size_t)(eq + 1 - p));
			if (v < 0)
				return bad_number(file, line, tt_keys[i].key,
				    err);
			if (strcmp(tt_keys[i].key,
			    "data_parallel_replicate_degree") == 0)
				rep = v, rl = line;
			else if (strcmp(tt_keys[i].key,
			    "data_parallel_shard_degree") == 0)
				shard = v, rl = rl ? rl : line;
			else if (strcmp(tt_keys[i].key,
			    "local_batch_size") == 0)
				local = v, o->line[EA_MICRO] = line;
			else if (tt_keys[i].a == EA_MICRO)
				pmicro = v, o->line[EA_MICRO] = line;
			else
				set(o, tt_keys[i].a, v, line, tt_keys[i].key);
		}
	}
	if (rep > 0 && shard > 0)
		set(o, EA_DP, rep * shard, rl,
		    "data_parallel_replicate_degree * data_parallel_shard_degree");
	/* With PP, local_batch_size is the DP rank's whole batch and the
	 * micro-batch its own key (emit_torchtitan.c). */
	if (pmicro > 0)
		set(o, EA_MICRO, pmicro, o->line[EA_MICRO],
		    "pipeline_parallel_microbatch_size");
	else if (local > 0 && (o->v[EA_PP] <= 1))
		set(o, EA_MICRO, local, o->line[EA_MICRO], "local_batch_size");
	/* An absent degree is torchtitan's default, 1. */
	if (o->v[EA_CP] < 0)
		set(o, EA_CP, 1, 0, "context_parallel_degree");
	if (o->v[EA_EP] < 0)
		set(o, EA_EP, 1, 0, "expert_parallel_degree");
	return 0;
}

static const struct { const char *flag; enum emit_axis a; } mg_flags[] = {
	{ "--tensor-model-parallel-size", EA_TP },
	{ "--pipeline-model-parallel-size", EA_PP },
	{ "--context-parallel-size", EA_CP },
	{ "--expert-model-parallel-size", EA_EP },
	{ "--micro-batch-size", EA_MICRO },
	{ "--global-batch-size", EA_GLOBAL },
};

/* Megatron-LM: one flag (and its value) a line. */
static int
read_megatron(const char *p, const char *end, int line0, const char *file,
    struct emit_layout *o, struct pl_err *err)
{
	int line = line0;
	const char *next;

	for (; p < end; p = next, line++) {
		size_t n = line_len(p, end, &next), i, k;

		if (n == 0 || *p == '#' || strncmp(p, "--", 2) != 0)
			continue;
		for (k = 0; k < n && !isspace((unsigned char)p[k]); k++)
			;
		for (i = 0; i < sizeof(mg_flags) / sizeof(mg_flags[0]); i++) {
			long v;

			if (strlen(mg_flags[i].flag) != k ||
			    memcmp(p, mg_flags[i].flag, k) != 0)
				continue;
			v = number(p + k, n - k);
			if (v < 0)
				return bad_number(file, line, mg_flags[i].flag,
				    err);
			set(o, mg_flags[i].a, v, line, mg_flags[i].flag);
		}
	}
	if (o->v[EA_CP] < 0)
		set(o, EA_CP, 1, 0, "--context-parallel-size");
	if (o->v[EA_EP] < 0)
		set(o, EA_EP, 1, 0, "--expert-model-parallel-size");
	return 0;
}

static long
json_int(const cJSON *obj, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	double d;

	if (!cJSON_IsNumber(it))
		return -1;
	d = it->valuedouble;
	return d >= 0 && d < 1e9 && d == (long)d ? (long)d : -1;
}

static int
read_deepspeed(const char *text, size_t len, const char *file,
    struct emit_layout *o, struct pl_err *err)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *z, *t;
	long acc;

	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		pl_err_set(err, file, 0, 0, _("not a DeepSpeed JSON object"));
		return -1;
	}
	set(o, EA_GLOBAL, json_int(root, "train_batch_size"), 0,
	    "train_batch_size");
	set(o, EA_MICRO, json_int(root, "train_micro_batch_size_per_gpu"), 0,
	    "train_micro_batch_size_per_gpu");
	acc = json_int(root, "gradient_accumulation_steps");
	if (o->v[EA_GLOBAL] > 0 && o->v[EA_MICRO] > 0 && acc > 0)
		set(o, EA_DP, o->v[EA_GLOBAL] / (o->v[EA_MICRO] * acc), 0,
		    "train_batch_size / (micro * gradient_accumulation_steps)");
	z = cJSON_GetObjectItemCaseSensitive(root, "zero_optimization");
	set(o, EA_ZERO, z ? json_int(z, "stage") : -1, 0,
	    "zero_optimization.stage");
	t = cJSON_GetObjectItemCaseSensitive(root, "tensor_parallel");
	set(o, EA_TP, t ? json_int(t, "autotp_size") : 1, 0,
	    "tensor_parallel.autotp_size");
	cJSON_Delete(root);
	return 0;
}

/* The value after "name=" in [p, p+n), or -1 (-2: there but no number). */
static long
after(const char *p, size_t n, const char *name)
{
	size_t k = strlen(name), i, j;

	for (i = 0; i + k <= n; i++) {
		if (memcmp(p + i, name, k) != 0)
			continue;
		for (j = i + k; j < n && isdigit((unsigned char)p[j]); j++)
			;
		return j > i + k ? number(p + i + k, j - i - k) : -2;
	}
	return -1;
}

static int read_any(const char *, size_t, int, const char *,
    struct emit_layout *, struct pl_err *);

/* Slurm: #SBATCH lines, the torchrun line, and the config in the here
 * document emit_sbatch.c writes. */
static int
read_sbatch(const char *p, const char *end, const char *file,
    struct emit_layout *o, struct pl_err *err)
{
	const char *next, *body = NULL;
	int line = 1, bline = 0;
	long v;

	for (; p < end; p = next, line++) {
		size_t n = line_len(p, end, &next);

		if (body == NULL && n >= strlen(MARK) + 4 &&
		    strstr(p, "<<'" MARK "'") != NULL &&
		    strstr(p, "<<'" MARK "'") < p + n) {
			body = next;
			bline = line + 1;
			continue;
		}
		if (body != NULL) {
			if (n == strlen(MARK) && memcmp(p, MARK, n) == 0) {
				struct emit_layout in;

				if (read_any(body, (size_t)(p - body), bline,
				    file, &in, err) != 0)
					return -1;
				memcpy(&o->v[EA_DP], &in.v[EA_DP],
				    sizeof(long) * (EA_N - EA_DP));
				memcpy(&o->line[EA_DP], &in.line[EA_DP],
				    sizeof(int) * (EA_N - EA_DP));
				memcpy(&o->key[EA_DP], &in.key[EA_DP],
				    sizeof(char *) * (EA_N - EA_DP));
				body = NULL;
			}
			continue;
		}
		if (n > 8 && memcmp(p, "#SBATCH ", 8) == 0 &&
		    (v = after(p, n, "--nodes=")) != -1) {
			if (v < 0)
				return bad_number(file, line, "--nodes", err);
			set(o, EA_NODES, v, line, "#SBATCH --nodes");
		} else if (n > 0 && *p != '#' &&
		    (v = after(p, n, "--nproc_per_node=")) != -1) {
			if (v < 0)
				return bad_number(file, line,
				    "--nproc_per_node", err);
			set(o, EA_GPUS_PER_NODE, v, line, "--nproc_per_node");
		}
	}
	if (body != NULL) {
		pl_err_set(err, file, bline, 0,
		    _("the here document has no closing %s line"), MARK);
		return -1;
	}
	return 0;
}

/* Which kind text is, by its first non-comment content. */
static int
read_any(const char *text, size_t len, int line0, const char *file,
    struct emit_layout *o, struct pl_err *err)
{
	const char *p = text, *end = text + len, *next;
	int line = line0;
	int a;

	for (a = 0; a < EA_N; a++) {
		o->v[a] = -1;
		o->line[a] = 0;
		o->key[a] = axis_name[a];
	}
	if (len >= 2 && memcmp(text, "#!", 2) == 0) {
		o->kind = EMIT_SBATCH;
		return read_sbatch(text, end, file, o, err);
	}
	for (; p < end; p = next, line++) {
		size_t n = line_len(p, end, &next);

		while (n > 0 && isspace((unsigned char)*p))
			p++, n--;
		if (n == 0 || *p == '#')
			continue;
		if (*p == '{') {
			o->kind = EMIT_DEEPSPEED;
			return read_deepspeed(text, len, file, o, err);
		}
		if (*p == '[') {
			o->kind = EMIT_TORCHTITAN;
			return read_torchtitan(text, end, line0, file, o, err);
		}
		if (n > 2 && p[0] == '-' && p[1] == '-') {
			o->kind = EMIT_MEGATRON;
			return read_megatron(text, end, line0, file, o, err);
		}
		break;
	}
	pl_err_set(err, file, p < end ? line : 0, 0, _("not a torchtitan, "
	    "Megatron-LM, DeepSpeed or Slurm config written by plan --emit"));
	return -1;
}

int
emit_read(const char *text, size_t len, const char *file,
    struct emit_layout *out, struct pl_err *err)
{
	if (len > (size_t)EMIT_READ_MAX) {
		pl_err_set(err, file, 0, 0, _("file too large (over %ld bytes)"),
		    EMIT_READ_MAX);
		return -1;
	}
	if (memchr(text, '\0', len) != NULL) {
		const char *z = memchr(text, '\0', len), *q;
		int line = 1;

		for (q = text; q < z; q++)
			line += *q == '\n';
		pl_err_set(err, file, line, 0, _("NUL byte in a text file"));
		return -1;
	}
	return read_any(text, len, 1, file, out, err);
}

/* Which axes each kind must state (the rest it may leave out). */
static int
required(enum emit_kind k, enum emit_axis a)
{
	switch (k) {
	case EMIT_TORCHTITAN:
		return a == EA_DP || a == EA_TP || a == EA_PP ||
		    a == EA_MICRO || a == EA_GLOBAL;
	case EMIT_MEGATRON:
		return a == EA_TP || a == EA_PP || a == EA_MICRO ||
		    a == EA_GLOBAL;
	case EMIT_DEEPSPEED:
		return a == EA_DP || a == EA_ZERO || a == EA_MICRO ||
		    a == EA_GLOBAL;
	default:
		return a == EA_NODES || a == EA_GPUS_PER_NODE ||
		    a == EA_MICRO || a == EA_GLOBAL;
	}
}

int
emit_read_check(const struct emit_layout *got, const struct cm_config *c,
    const char *file, struct pl_err *err)
{
	long want[EA_N];
	int a;

	want[EA_NODES] = emit_nodes(c);
	want[EA_GPUS_PER_NODE] = emit_procs_per_node(c);
	want[EA_DP] = c->dp;
	want[EA_TP] = c->tp;
	want[EA_PP] = c->pp;
	want[EA_CP] = c->cp > 0 ? c->cp : 1;
	want[EA_EP] = cm_ep(c) > 0 ? cm_ep(c) : 1;
	want[EA_ZERO] = c->zero;
	want[EA_MICRO] = c->micro_batch;
	want[EA_GLOBAL] = c->global_batch;
	for (a = 0; a < EA_N; a++) {
		if (got->v[a] < 0 && required(got->kind, a)) {
			pl_err_set(err, file, 0, 0,
			    _("%s: no %s (%s) in the file"), axis_name[a],
			    got->key[a], emit_kind_names[got->kind]);
			return 1;
		}
		if (got->v[a] >= 0 && got->v[a] != want[a]) {
			pl_err_set(err, file, got->line[a], 0,
			    _("%s is %ld, the step's layout has %s %ld"),
			    got->key[a], got->v[a], axis_name[a], want[a]);
			return 1;
		}
	}
	return 0;
}
