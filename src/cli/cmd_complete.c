/*
 * cmd_complete.c - `parlearn complete [--] WORD...`, hidden: the shell
 * completion's candidates for a command line. WORDs are the words after
 * "parlearn", the last the one being completed (possibly empty). Prints
 * the candidates that start with it, one a line, or one line ":file" or
 * ":dir" when the shell should complete a file or directory name.
 *
 * Commands come from the table (commands.c), options and verbs from each
 * command's own --help (helpopts.h), values from the catalog (model
 * presets, GPUs), the course and the database (decks), the engine's
 * words and the simulator's (core/sim/sim_keys.c: trace's and run's
 * --mode and --schedule); so the completion follows the binary it runs
 * and never goes stale. Completing reads, and never creates, the
 * progress database or a profile in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/helpopts.h"
#include "cli/paths.h"
#include "core/course/content.h"
#include "core/engine/hardware.h"
#include "core/mesh/mesh.h"
#include "core/safetext.h"
#include "core/sim/sim_keys.h"
#include "store/cards_anki.h"
#include "store/db.h"

struct comp {
	struct cli_ctx	 ctx;	/* with the global options of the line */
	const char	*cur;	/* the word being completed */
	char		*seen;	/* the candidates printed, each + '\n' */
	size_t		 n_seen;
};

/* Print cand once, if it completes the current word. */
static void
put(const char *cand, void *arg)
{
	struct comp *c = arg;
	size_t n = strlen(cand);
	const char *p;
	char *ns;

	if (strncmp(cand, c->cur, strlen(c->cur)) != 0 ||
	    safetext_has_control(cand))
		return;
	for (p = c->seen; p != NULL && p < c->seen + c->n_seen;
	    p = strchr(p, '\n') + 1)
		if (strncmp(p, cand, n) == 0 && p[n] == '\n')
			return;
	if ((ns = realloc(c->seen, c->n_seen + n + 2)) != NULL) {
		c->seen = ns;
		memcpy(c->seen + c->n_seen, cand, n);
		c->n_seen += n + 1;
		c->seen[c->n_seen - 1] = '\n';
		c->seen[c->n_seen] = '\0';
	}
	printf("%s\n", cand);
}

/* The words of "a|b|c" (an option's value in its help). */
static void
put_words(struct comp *c, const char *list)
{
	char buf[HELPOPT_ARG], *w, *save = NULL;

	snprintf(buf, sizeof buf, "%s", list);
	for (w = strtok_r(buf, "|", &save); w != NULL;
	    w = strtok_r(NULL, "|", &save))
		put(w, c);
}

static void
put_catalog(struct comp *c, int gpus)
{
	struct hw_catalog cat;
	struct pl_err err;
	size_t i;

	if (hw_catalog_load(&cat, c->ctx.data_dir, &err) != 0)
		return;
	for (i = 0; gpus && i < cat.n_gpus; i++)
		put(cat.gpus[i].name, c);
	for (i = 0; !gpus && i < cat.n_models; i++)
		put(cat.models[i].name, c);
	hw_catalog_free(&cat);
}

static void
put_user_deck(const char *deck, void *arg)
{
	put(deck, arg);
}

/* The course's decks, and the learner's own if the database exists. */
static void
put_decks(struct comp *c)
{
	struct content_course *course = content_load(c->ctx.content_dir, NULL);
	struct store *st;
	struct pl_err err;
	size_t i;

	for (i = 0; course != NULL && i < course->n_decks; i++)
		put(course->decks[i].id, c);
	content_free(course);
	if (access(c->ctx.db_path, R_OK) != 0 ||
	    (st = store_open_read(c->ctx.db_path, 1, &err)) == NULL)
		return;
	store_user_deck_names(st, c->ctx.profile, put_user_deck, c, &err);
	store_close(st);
}

/* The value of option o (with name) of command cmd. */
static void
put_value(struct comp *c, const char *cmd, const struct helpopt *o)
{
	const struct sim_key *k;
	int m;

	if (strcmp(o->name, "--model") == 0)
		put_catalog(c, 0);
	else if (strcmp(o->name, "--gpu") == 0)
		put_catalog(c, 1);
	else if (strcmp(o->name, "--deck") == 0)
		put_decks(c);
	else if ((k = sim_key_by_option(strcmp(cmd, "trace") == 0 ?
	    SIM_FOR_TRACE : strcmp(cmd, "run") == 0 ? SIM_FOR_RUN : 0,
	    o->name)) != NULL && k->kind == SIM_KEY_WORD)
		for (m = 0; k->word(m) != NULL; m++)	/* mode, schedule */
			put(k->word(m), c);
	else if (strcmp(cmd, "run") == 0 && strcmp(o->name, "--reduce") == 0)
		put_words(c, "ordered|mpi");
	else if (strcmp(o->name, "--rank-order") == 0)
		for (m = 0; mesh_order_names()[m] != NULL; m++)
			put(mesh_order_names()[m], c);
	else if (strcmp(o->name, "--ratings") == 0)
		put_words(c, "again|hard|good|easy");
	else if (strchr(o->arg, '|') != NULL)
		put_words(c, o->arg);
	else if (strcmp(o->arg, "FILE") == 0 || strcmp(o->arg, "PATH") == 0)
		printf(":file\n");
	else if (strcmp(o->arg, "DIR") == 0)
		printf(":dir\n");
}

/* The global options and their values, as main.c reads them. */
static const char *const global_with_arg[] = {
	"--content", "--db", "--profile", NULL
};

static int
global_takes_arg(const char *w)
{
	int i;

	for (i = 0; global_with_arg[i] != NULL; i++)
		if (strcmp(w, global_with_arg[i]) == 0)
			return 1;
	return 0;
}

static void
apply_global(struct cli_ctx *ctx, const char *opt, const char *val)
{
	static char data[4096];

	if (strcmp(opt, "--content") == 0) {
		ctx->content_dir = val;
		ctx->data_dir = cli_data_dir(val, ctx->data_default != NULL ?
		    ctx->data_default : ctx->data_dir, data, sizeof data);
	}
	else if (strcmp(opt, "--db") == 0)
		ctx->db_path = val;
	else if (strcmp(opt, "--profile") == 0)
		ctx->profile = val;
}

static void
complete_global(struct comp *c, const char *prev)
{
	const struct cli_command *k;
	struct helpopts o;
	char *help;
	size_t i;

	if (prev != NULL && global_takes_arg(prev)) {
		if (strcmp(prev, "--profile") != 0)
			printf(strcmp(prev, "--db") == 0 ? ":file\n" : ":dir\n");
		return;
	}
	if (c->cur[0] != '-') {
		for (k = cli_commands(); k->name != NULL; k++)
			if (k->summary != NULL)
				put(k->name, c);
		return;
	}
	/* The global options, from `parlearn --help`. */
	help = helpopts_capture(cli_help_main, &c->ctx, "help");
	if (help != NULL && helpopts_parse(help, NULL, &o) == 0) {
		for (i = 0; i < o.n; i++)
			put(o.v[i].name, c);
		helpopts_free(&o);
	}
	free(help);
}

/* The verb of a command that has them (deck, lab, srs), from its help. */
static void
put_verb(const char *verb, void *arg)
{
	put(verb, arg);
}

static void
usage_verbs(const char *help, const char *cmd, struct comp *c)
{
	char key[64];
	const char *p = help;
	size_t n, k;

	/* "Usage: parlearn deck list" and "       parlearn deck export". */
	n = (size_t)snprintf(key, sizeof key, "parlearn %s ", cmd);
	while ((p = strstr(p, key)) != NULL) {
		p += n;
		for (k = 0; p[k] >= 'a' && p[k] <= 'z'; k++)
			;
		if (k > 0 && k < 32 && (p[k] == ' ' || p[k] == '\n')) {
			snprintf(key + n, sizeof key - n, "%.*s", (int)k, p);
			put(key + n, c);
			key[n] = '\0';
		}
	}
}

/* An operand (not an option or its value), position pos of the command. */
static void
complete_operand(struct comp *c, const char *cmd, const char *help,
    int pos, char **ops)
{
	if (strcmp(cmd, "help") == 0 && pos == 0)
		complete_global(c, NULL);
	else if (pos == 0 && (strcmp(cmd, "check-content") == 0))
		printf(":dir\n");
	else if (pos == 0 && strcmp(cmd, "import") == 0)
		printf(":file\n");
	else if (pos == 0) {
		if (helpopts_verbs(help, put_verb, c) == 0)
			usage_verbs(help, cmd, c);
	} else if (strcmp(cmd, "lab") == 0 && pos == 1)
		printf(":dir\n");
	else if (strcmp(cmd, "lab") == 0 && pos == 2 &&
	    strcmp(ops[0], "step") == 0)
		put_words(c, "next|prev");
	else if (strcmp(cmd, "deck") == 0 && pos == 1 &&
	    strcmp(ops[0], "export") == 0)
		put_decks(c);
	else if (strcmp(cmd, "deck") == 0 && pos == 1 &&
	    strcmp(ops[0], "import") == 0)
		printf(":file\n");
}

static void
complete_command(struct comp *c, const struct cli_command *k, char **w,
    int n)
{
	const struct helpopt *o, *prev = NULL;
	struct helpopts opts, verb_opts;
	char *help = helpopts_capture(k->main, &c->ctx, k->name);
	char *ops[8];
	int i, n_ops = 0, have_verb = 0;

	if (help == NULL || helpopts_parse(help, NULL, &opts) != 0) {
		free(help);
		return;
	}
	memset(&verb_opts, 0, sizeof verb_opts);
	/* Walk the words before the current one: options, their values and
	 * operands; a command with verbs takes the verb's options too. */
	for (i = 0; i < n - 1; i++) {
		o = helpopts_find(&opts, w[i]);
		if (o == NULL && have_verb)
			o = helpopts_find(&verb_opts, w[i]);
		if (o != NULL && w[i][0] == '-') {
			if (o->arg[0] != '\0' && strchr(w[i], '=') == NULL)
				i++;
			continue;
		}
		if (w[i][0] == '-')
			continue;
		if (n_ops == 0 && !have_verb &&
		    helpopts_parse(help, w[i], &verb_opts) == 0)
			have_verb = verb_opts.n > 0;
		if (n_ops < 8)
			ops[n_ops++] = w[i];
	}
	if (n >= 2 && w[n - 2][0] == '-') {
		prev = helpopts_find(&opts, w[n - 2]);
		if (prev == NULL && have_verb)
			prev = helpopts_find(&verb_opts, w[n - 2]);
		if (prev != NULL && prev->arg[0] == '\0')
			prev = NULL;
	}
	if (prev != NULL)
		put_value(c, k->name, prev);
	else if (c->cur[0] == '-') {
		for (i = 0; i < (int)verb_opts.n; i++)
			put(verb_opts.v[i].name, c);
		for (i = 0; i < (int)opts.n; i++)
			put(opts.v[i].name, c);
	} else
		complete_operand(c, k->name, help, n_ops, ops);
	helpopts_free(&verb_opts);
	helpopts_free(&opts);
	free(help);
}

int
cli_complete_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	const struct cli_command *k;
	struct comp c;
	char **w = argv + 1;
	int n = argc - 1, i;

	if (n > 0 && strcmp(w[0], "--") == 0) {
		w++;
		n--;
	}
	memset(&c, 0, sizeof c);
	c.ctx = *ctx;
	c.cur = n > 0 ? w[n - 1] : "";
	/* Global options before the command. */
	for (i = 0; i < n - 1 && w[i][0] == '-'; i++)
		if (global_takes_arg(w[i]) && i + 1 < n - 1) {
			apply_global(&c.ctx, w[i], w[i + 1]);
			i++;
		}
	if (i >= n - 1)
		complete_global(&c, n >= 2 ? w[n - 2] : NULL);
	else if ((k = cli_command_find(w[i])) != NULL && k->summary != NULL)
		complete_command(&c, k, w + i + 1, n - i - 1);
	free(c.seen);
	return 0;
}
