/*
 * cmd_check_content.c - `parlearn check-content [DIR]`: validate lessons,
 * flashcards and labs, print every problem, exit 2 if there is any.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/output.h"
#include "cli/paths.h"
#include "cli/usage.h"
#include "core/course/answer.h"
#include "core/course/content.h"
#include "core/course/engine_fit.h"
#include "core/engine/hardware.h"
#include "core/json.h"
#include "core/jsonpos.h"
#include "core/lab/lab.h"
#include "core/course/scenario.h"

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn check-content [DIR]\n"
	    "Validate the course under DIR (default: the content parlearn uses):\n"
	    "lessons/course.json, every drop under lessons/, every deck under\n"
	    "flashcards/ and every lab script under labs/, against the catalogs\n"
	    "in DIR/data when DIR has one (else the installed ones). Each\n"
	    "problem is one line on standard error, FILE:LINE:COL: message (a\n"
	    "JSON path such as blocks[2].text after the position when there is\n"
	    "one), the form editors read as a quickfix or compile-error list.\n"
	    "Exit status 0 if all is valid, 2 if not.\n"
	    "\n"
	    "  -h, --help   show this help\n"));
}

/* Every scenario's start configuration must evaluate. */
static void
check_scenarios(const struct hw_catalog *cat, const struct content_course *c,
    struct content_problems *probs)
{
	const struct content_drop *d;
	struct cm_config cfg;
	struct cm_result *r = malloc(sizeof *r);
	struct pl_err err, e;
	char path[64];
	size_t i, j;

	for (i = 0; r != NULL && i < c->n_drops; i++) {
		d = &c->drops[i];
		for (j = 0; j < d->n_blocks; j++) {
			if (d->blocks[j].kind != CONTENT_SCENARIO)
				continue;
			snprintf(path, sizeof path, "blocks[%zu]", j);
			if (scenario_start(d->blocks[j].scenario.raw, cat, &cfg,
			    d->file, path, &err) != 0) {
				content_add_problem(probs, &err);
				continue;
			}
			if (cm_evaluate(&cfg, r, &e) == 0)
				continue;
			snprintf(path, sizeof path, "blocks[%zu].start", j);
			pl_err_set_path(&err, d->file, path, "%s", e.msg);
			content_add_problem(probs, &err);
		}
	}
	free(r);
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One lab script: its schema, the course items and GPUs it names. */
static void
check_lab(const char *path, const struct content_course *c,
    const struct hw_catalog *cat, struct content_problems *probs)
{
	struct lab_script *ls;
	struct pl_err err;
	char key[64];
	size_t i;

	pl_err_clear(&err);
	if ((ls = lab_script_load(path, &err)) == NULL) {
		content_add_problem(probs, &err);
		return;
	}
	if (c != NULL)
		lab_script_check_course(ls, c, probs);
	for (i = 0; cat != NULL && i < ls->n_steps; i++)
		if (ls->steps[i].override.gpu != NULL &&
		    hw_gpu_find(cat, ls->steps[i].override.gpu) == NULL) {
			snprintf(key, sizeof key, "steps[%zu].override.gpu", i);
			pl_err_set_path(&err, path, key,
			    _("no GPU called \"%s\" in the catalog"),
			    ls->steps[i].override.gpu);
			content_add_problem(probs, &err);
		}
	lab_script_free(ls);
}

/* Every DIR/labs/NAME.json, in name order. Returns how many. */
static size_t
check_labs(const struct cli_ctx *ctx, const char *dir,
    const struct content_course *c, struct content_problems *probs)
{
	struct hw_catalog cat;
	struct pl_err err;
	struct dirent *de;
	char path[4096], **names = NULL, **nn;
	size_t n = 0, i, len;
	int have_cat;
	DIR *d;

	snprintf(path, sizeof path, "%s/labs", dir);
	if ((d = opendir(path)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		if ((nn = realloc(names, (n + 1) * sizeof *names)) == NULL)
			break;
		names = nn;
		if ((names[n] = strdup(de->d_name)) != NULL)
			n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_name);
	have_cat = hw_catalog_load(&cat, ctx->data_dir, &err) == 0;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/labs/%s", dir, names[i]);
		check_lab(path, c, have_cat ? &cat : NULL, probs);
		free(names[i]);
	}
	if (have_cat)
		hw_catalog_free(&cat);
	free(names);
	return n;
}

/* Every numeric answer must be computable by the cost model. */
static void
check_numeric(const struct cli_ctx *ctx, const struct content_course *c,
    struct content_problems *probs)
{
	struct hw_catalog cat;
	struct pl_err err;

	if (hw_catalog_load(&cat, ctx->data_dir, &err) != 0) {
		content_add_problem(probs, &err);
		return;
	}
	answer_check_course(&cat, c, probs);
	answer_check_giveaways(&cat, c, probs);
	check_scenarios(&cat, c, probs);
	engine_fit_check_course(&cat, c, probs);
	hw_catalog_free(&cat);
}

/*
 * One problem as editors read a compile error: FILE:LINE:COL: message,
 * with the JSON path of a problem found after parsing located in the file
 * and kept before the message. No "parlearn:" prefix, so that vim's
 * quickfix, Emacs' compilation mode and VS Code's problem matchers jump
 * to it.
 */
static void
print_problem(const struct pl_err *problem)
{
	struct pl_err e = *problem;
	char *text;

	if (e.file[0] == '\0') {
		cli_error("%s", e.msg);
		return;
	}
	if (e.line == 0 && e.path[0] != '\0' &&
	    (text = pl_read_file(e.file, NULL, NULL)) != NULL) {
		json_locate_err(text, &e);
		free(text);
	}
	if (e.line == 0)
		e.line = e.col = 1;
	if (e.path[0] != '\0')
		cli_printf(stderr, "%s:%d:%d: %s: %s\n", e.file, e.line,
		    e.col > 0 ? e.col : 1, e.path, e.msg);
	else
		cli_printf(stderr, "%s:%d:%d: %s\n", e.file, e.line,
		    e.col > 0 ? e.col : 1, e.msg);
}

int
cli_check_content_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c;
	const char *dir = ctx->content_dir;
	struct cli_ctx dctx = *ctx;
	char data[4096];
	size_t i, n_labs;
	int ch;

	optind = 0;
	while ((ch = cli_getopt(argc, argv, "+h", opts)) != -1) {
		if (ch == 'h') {
			usage(stdout);
			return 0;
		}
		return 1;
	}
	if (argc - optind > 1)
		return cli_extra_argument(argv[optind + 1]);
	if (optind < argc) {
		/* DIR's own catalogs when it has a data/, as --content. */
		dir = argv[optind];
		dctx.data_dir = cli_data_dir(dir, ctx->data_default != NULL ?
		    ctx->data_default : ctx->data_dir, data, sizeof data);
	}
	c = content_load(dir, &probs);
	if (c != NULL)
		check_numeric(&dctx, c, &probs);
	n_labs = check_labs(&dctx, dir, c, &probs);
	for (i = 0; i < probs.n; i++)
		print_problem(&probs.items[i]);
	if (c != NULL) {
		cli_printf(stdout, P_("%s: %zu drop, ", "%s: %zu drops, ", c->n_drops),
		    dir, c->n_drops);
		printf(P_("%zu deck, ", "%zu decks, ", c->n_decks), c->n_decks);
		printf(P_("%zu card, ", "%zu cards, ", c->n_cards), c->n_cards);
		if (n_labs > 0)
			printf(P_("%zu lab, ", "%zu labs, ", n_labs), n_labs);
		printf(P_("%zu problem\n", "%zu problems\n", probs.n), probs.n);
	}
	ch = c == NULL || probs.n > 0 ? 2 : 0;
	content_free(c);
	content_problems_free(&probs);
	return ch;
}
