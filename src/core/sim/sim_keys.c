/*
 * sim_keys.c - the simulator's settings: the table, and what is made from
 * it (trace's and run's options and --help, an animation block's keys,
 * the word lists of messages).
 *
 * To add a setting: its field in struct sim_request (sim.h), what
 * sim_config_build does with it, and one line in keys[] below. The
 * options, their help, the block's key and completion follow; the tests
 * of tests/check_sim_keys.c hold the man page and the player to it.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/json.h"
#include "core/number.h"
#include "core/pipeline.h"
#include "core/sim/sim_keys.h"
#include "core/sim/sim_knob.h"
#include "core/wrap.h"

static const char *
mode_word(int i)
{
	return i >= 0 && i < SIM_NMODES ? sim_mode_name((enum sim_mode)i) :
	    NULL;
}

static const char *
schedule_word(int i)
{
	return i >= 0 && i < PIPE_N_SCHEDULES ? pipe_schedule_names[i] : NULL;
}

#define AT(f)		offsetof(struct sim_request, f)
#define T		SIM_FOR_TRACE
#define R		SIM_FOR_RUN
#define B		SIM_FOR_BLOCK
#define K		SIM_FOR_KNOB
#define KNOB(k, keys, h)	SIM_KNOB_##k, keys, h
#define NOKNOB		-1, NULL, NULL
/* Rows by kind: key, option, field, uses, help, JSON member, knob. */
#define WORD(n, o, f, a, w, u, h, knob) \
	{ n, o, NULL, SIM_KEY_WORD, a, w, 0, AT(f), u, h, NULL, n, 0, knob }
#define COUNT(n, o, ro, f, a, hi, u, h, rh, knob) \
	{ n, o, ro, SIM_KEY_COUNT, a, NULL, hi, AT(f), u, h, rh, n, 0, knob }
#define FLAG(n, o, f, u, h, j, neg, knob) \
	{ n, o, NULL, SIM_KEY_FLAG, NULL, NULL, 0, AT(f), u, h, NULL, j, neg, \
	knob }

/* One line per setting, in the order --help, blocks and the player use. */
static const struct sim_key keys[] = {
	WORD("mode", "mode", mode, "MODE", mode_word,
	    T | R | B | K | SIM_BLOCK_NEEDS, N_("(default pp)"),
	    KNOB(MODE, NULL, NULL)),
	COUNT("gpus", "gpus", "np", gpus, "N", SIM_MAX_GPUS, T | R | B | K,
	    N_("GPUs (default 4; single runs on 1, 3d needs 8, cp an "
	    "even number)"),
	    N_("processes, one a GPU (default 4; 3d needs 8; under mpirun "
	    "or srun, the processes they started)"),
	    KNOB(GPUS, "gG", N_("more, fewer GPUs"))),
	COUNT("microbatches", "microbatches", NULL, microbatches, "M", 256,
	    T | R | B | K, N_("micro-batches per pipeline (default 8 for pp "
	    "and 3d, else 1)"), NULL,
	    KNOB(MICROBATCHES, "mM", N_("more, fewer micro-batches"))),
	WORD("schedule", "schedule", schedule, "S", schedule_word,
	    T | R | B | K, N_("(default 1f1b)"),
	    KNOB(SCHEDULE, "sS", N_("next, previous pipeline schedule"))),
	COUNT("virtual_stages", "virtual-stages", NULL, vstages, "V", 16,
	    T | R | B | K, N_("model chunks per GPU, interleaved only "
	    "(default 2)"), NULL,
	    KNOB(VSTAGES, "vV", N_("more, fewer chunks per GPU "
	    "(interleaved)"))),
	COUNT("tp", "tp", NULL, tp, "T", SIM_HEADS, T | R | B | K,
	    N_("tensor-parallel ranks inside each CP rank, cp only "
	    "(default 1)"), NULL,
	    KNOB(TP, "tT", N_("more, fewer TP ranks in each CP rank"))),
	COUNT("moe", "moe", NULL, moe, "E", SIM_MOE_MAX_EXPERTS, T | R | B,
	    N_("the MoE variant: E routed experts in every layer's MLP "
	    "(default 8 for ep, else the dense model)"), NULL, NOKNOB),
	COUNT("top_k", "top-k", NULL, top_k, "K", SIM_MOE_MAX_EXPERTS,
	    T | R | B, N_("experts each token goes to, at most E (default 2)"),
	    NULL, NOKNOB),
	FLAG("shared_expert", "shared-expert", shared_expert, T | R | B,
	    N_("add a shared expert every token goes through"),
	    "shared_expert", 0, NOKNOB),
	COUNT("router_bias", "router-bias", NULL, router_bias, "B",
	    SIM_MOE_MAX_BIAS, T | R | B | K, N_("add B to expert 0's score "
	    "when the router chooses (not to the gates): an imbalanced "
	    "router"), NULL,
	    KNOB(ROUTER, "b", N_("router even, skewed to expert 0 (ep)"))),
	COUNT("ep", "ep", NULL, ep, "E", SIM_MAX_GPUS, T | R | B | K,
	    N_("expert-parallel ranks, ep only, from the DP ranks of a stage "
	    "(default all of them)"), NULL,
	    KNOB(EP, "eE", N_("more, fewer EP ranks (ep)"))),
	COUNT("pp", "pp", NULL, pp, "P", SIM_LAYERS, T | R | B | K,
	    N_("pipeline stages, ep only (default 1)"), NULL,
	    KNOB(PP, "dD", N_("more, fewer pipeline stages (ep)"))),
	FLAG("sequence_parallel", "sequence-parallel", seq_parallel,
	    T | R | B | K, N_("split norms and residuals by position "
	    "(tp, 3d)"), "sequence_parallel", 0,
	    KNOB(SP, "p", N_("sequence parallelism on, off (tp, 3d)"))),
	FLAG("no_overlap", "no-overlap", no_overlap, T | R | B | K,
	    N_("reduce DP gradients after the backward pass; gather ZeRO-3 "
	    "layers without prefetching"), "overlap", 1,
	    KNOB(OVERLAP, "o", N_("DP bucket, ZeRO-3 gather overlap on, "
	    "off"))),
	FLAG("compute_only", "compute-only", compute_only, T | B | K,
	    N_("make communication free (the bubble then matches the "
	    "formula)"), "compute_only", 0,
	    KNOB(COMPUTE_ONLY, "c", N_("compute only: every transfer free"))),
	{ NULL, NULL, NULL, 0, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 0, -1,
	    NULL, NULL }
};

_Static_assert(sizeof keys / sizeof keys[0] <= SIM_NKEYS_MAX,
    "SIM_NKEYS_MAX holds every row");

const struct sim_key *
sim_keys(void)
{
	return keys;
}

const struct sim_key *
sim_key_find(const char *key)
{
	const struct sim_key *k;

	for (k = keys; key != NULL && k->key != NULL; k++)
		if (strcmp(k->key, key) == 0)
			return k;
	return NULL;
}

const struct sim_key *
sim_key_of_knob(int knob)
{
	const struct sim_key *k;

	for (k = keys; k->key != NULL; k++)
		if ((k->uses & SIM_FOR_KNOB) && k->knob == knob)
			return k;
	return NULL;
}

const char *
sim_key_option(const struct sim_key *k, unsigned cmd)
{
	return cmd == SIM_FOR_RUN && k->run_option != NULL ? k->run_option :
	    k->option;
}

const struct sim_key *
sim_key_by_option(unsigned cmd, const char *name)
{
	const struct sim_key *k;

	if (name != NULL && strncmp(name, "--", 2) == 0)
		name += 2;
	for (k = keys; name != NULL && k->key != NULL; k++)
		if ((k->uses & cmd) && strcmp(sim_key_option(k, cmd),
		    name) == 0)
			return k;
	return NULL;
}

int
sim_key_word_index(const struct sim_key *k, const char *s)
{
	int i;

	for (i = 0; s != NULL && k->word != NULL && k->word(i) != NULL; i++)
		if (strcmp(k->word(i), s) == 0)
			return i;
	return -1;
}

/* Append s to buf (size bytes, NUL-terminated), cutting what is too long. */
static void
add(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s", s);
}

char *
sim_key_words(const struct sim_key *k, const char *sep, char *buf,
    size_t size)
{
	char head[256];
	int i, n = 0;

	buf[0] = head[0] = '\0';
	while (k->word != NULL && k->word(n) != NULL)
		n++;
	for (i = 0; i < n; i++) {
		if (sep != NULL) {
			add(buf, size, i ? sep : "");
			add(buf, size, k->word(i));
		} else if (i < n - 1) {
			add(head, sizeof head, i ? ", " : "");
			add(head, sizeof head, k->word(i));
		}
	}
	if (sep == NULL && n > 1)
		snprintf(buf, size, _("%s or %s"), head, k->word(n - 1));
	else if (sep == NULL && n == 1)
		snprintf(buf, size, "%s", k->word(0));
	return buf;
}

char *
sim_keys_names(unsigned uses, char *buf, size_t size)
{
	const struct sim_key *k;

	buf[0] = '\0';
	for (k = keys; k->key != NULL; k++)
		if (k->uses & uses) {
			add(buf, size, buf[0] != '\0' ? ", " : "");
			add(buf, size, k->key);
		}
	return buf;
}

size_t
sim_opts_longopts(unsigned cmd, struct option *out)
{
	size_t i, n = 0;

	for (i = 0; keys[i].key != NULL; i++)
		if (keys[i].uses & cmd)
			out[n++] = (struct option){
			    sim_key_option(&keys[i], cmd),
			    keys[i].kind == SIM_KEY_FLAG ? no_argument :
			    required_argument, NULL, SIM_OPT_VAL + (int)i };
	return n;
}

int
sim_opts_take(unsigned cmd, int val, const char *arg,
    struct sim_request *req, struct pl_err *err)
{
	const struct sim_key *k;
	char *f;
	long v;
	int i = val - SIM_OPT_VAL;

	if (i < 0 || i >= (int)(sizeof keys / sizeof keys[0]) - 1 ||
	    !(keys[i].uses & cmd))
		return 0;
	k = &keys[i];
	f = (char *)req + k->off;
	switch (k->kind) {
	case SIM_KEY_WORD:
		*(const char **)(void *)f = arg;
		break;
	case SIM_KEY_FLAG:
		*(int *)(void *)f = 1;
		break;
	case SIM_KEY_COUNT:
		if (pl_parse_long(arg, 1, INT_MAX, &v) != 0) {
			/* The words of cli_whole_number (cli/usage.c). */
			char name[64];

			snprintf(name, sizeof name, "--%s",
			    sim_key_option(k, cmd));
			pl_err_set(err, NULL, 0, 0, _("%s: '%s' is not a whole "
			    "number from %ld to %ld"), name, arg, 1L,
			    (long)INT_MAX);
			return -1;
		}
		*(int *)(void *)f = (int)v;
		break;
	}
	return 1;
}

int
sim_key_from_json(const struct sim_key *k, const cJSON *obj,
    struct sim_request *req, const char *file, const char *path,
    struct pl_err *err)
{
	int *f = (int *)(void *)((char *)req + k->off);
	long v = 0;

	if (k->kind == SIM_KEY_COUNT) {
		if (pl_json_int(obj, k->key, 0, 1, k->block_hi, &v, file, path,
		    err) != 0)
			return -1;
		*f = (int)v;
		return 0;
	}
	if (k->kind == SIM_KEY_FLAG)
		return pl_json_bool(obj, k->key, 0, f, file, path, err);
	return 0;
}

/* "--name ARG" of a setting, as cmd's --help shows it. */
static void
synopsis(const struct sim_key *k, unsigned cmd, char *buf, size_t size)
{
	snprintf(buf, size, "--%s%s%s", sim_key_option(k, cmd),
	    k->arg != NULL ? " " : "", k->arg != NULL ? k->arg : "");
}

/* Items of a usage line, wrapped at 80 columns under a 9-column indent. */
struct usage_wrap {
	FILE	*fp;
	int	 col;
};

static void
usage_item(struct usage_wrap *u, const char *item)
{
	int w = wrap_width(item, strlen(item));

	if (u->col + 1 + w > 79) {
		fprintf(u->fp, "\n%9s", "");
		u->col = 9;
	} else {
		fputc(' ', u->fp);
		u->col++;
	}
	fputs(item, u->fp);
	u->col += w;
}

void
sim_opts_synopsis(FILE *fp, unsigned cmd, const char *head,
    const char *const *extra)
{
	struct usage_wrap u = { fp, wrap_width(head, strlen(head)) };
	const struct sim_key *k;
	char syn[64], item[80];
	size_t i;

	fputs(head, fp);
	for (k = keys; k->key != NULL; k++)
		if (k->uses & cmd) {
			synopsis(k, cmd, syn, sizeof syn);
			snprintf(item, sizeof item, "[%s]", syn);
			usage_item(&u, item);
		}
	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		usage_item(&u, extra[i]);
	fputc('\n', fp);
}

void
sim_opts_line(FILE *fp, const char *syn, const char *help)
{
	wrap_option(fp, syn, 20, 2, help);
}

void
sim_opts_help(FILE *fp, unsigned cmd)
{
	const struct sim_key *k;
	char syn[64], words[128], help[512];

	for (k = keys; k->key != NULL; k++) {
		if (!(k->uses & cmd))
			continue;
		synopsis(k, cmd, syn, sizeof syn);
		if (k->kind == SIM_KEY_WORD)
			snprintf(help, sizeof help, "%s %s", sim_key_words(k,
			    NULL, words, sizeof words), _(k->help));
		else
			snprintf(help, sizeof help, "%s",
			    _(cmd == SIM_FOR_RUN && k->run_help != NULL ?
			    k->run_help : k->help));
		sim_opts_line(fp, syn, help);
	}
}
