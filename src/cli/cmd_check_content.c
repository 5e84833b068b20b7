/*
 * cmd_check_content.c - `parlearn check-content [DIR]`: validate lessons,
 * flashcards and labs, print every problem, exit 2 if there is any.
 */
#include <getopt.h>
#include <stdio.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "core/answer.h"
#include "core/content.h"
#include "core/hardware.h"

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn check-content [DIR]\n"
	    "Validate the course under DIR (default: the content parlearn uses):\n"
	    "lessons/course.json, every drop under lessons/ and every deck under\n"
	    "flashcards/. Prints each problem as FILE:LINE:COL: message or\n"
	    "FILE: json.path: message. Exit status 0 if all is valid, 2 if not.\n"));
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
	hw_catalog_free(&cat);
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
	char buf[1800];
	size_t i;
	int ch;

	optind = 0;
	while ((ch = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 1;
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 1;
	}
	if (optind < argc)
		dir = argv[optind];
	c = content_load(dir, &probs);
	if (c != NULL)
		check_numeric(ctx, c, &probs);
	for (i = 0; i < probs.n; i++)
		fprintf(stderr, "parlearn: %s\n", pl_err_format(&probs.items[i],
		    buf, sizeof buf));
	if (c != NULL) {
		printf(P_("%s: %zu drop, ", "%s: %zu drops, ", c->n_drops),
		    dir, c->n_drops);
		printf(P_("%zu deck, ", "%zu decks, ", c->n_decks), c->n_decks);
		printf(P_("%zu card, ", "%zu cards, ", c->n_cards), c->n_cards);
		printf(P_("%zu problem\n", "%zu problems\n", probs.n), probs.n);
	}
	ch = c == NULL || probs.n > 0 ? 2 : 0;
	content_free(c);
	content_problems_free(&probs);
	return ch;
}
