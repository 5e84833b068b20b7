/*
 * common.c - opening the course and the progress store for a subcommand,
 * and handing them to the interactive program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "cli/common.h"
#include "cli/output.h"
#include "store/cards.h"
#include "store/progress_score.h"

void
cli_print_err(const struct pl_err *err)
{
	cli_print_problem(NULL, err);
}

static void
print_problems(const struct content_problems *probs, int warn)
{
	size_t i;

	for (i = 0; warn && i < probs->n; i++)
		cli_print_problem(_("warning: skipped "), &probs->items[i]);
}

int
cli_course_open(const struct cli_ctx *ctx, struct cli_session *s, int warn)
{
	struct content_problems probs = { NULL, 0, 0 };
	struct pl_err err;

	memset(s, 0, sizeof *s);
	s->course = content_load(ctx->content_dir, &probs);
	if (s->course == NULL) {
		if (probs.n > 0)
			cli_print_err(&probs.items[0]);
		else
			cli_printf(stderr, _("parlearn: %s: cannot load the course\n"),
			    ctx->content_dir);
		content_problems_free(&probs);
		return 2;
	}
	print_problems(&probs, warn);
	/* Without the catalog the course still runs; numeric questions say
	 * the engine is unavailable. */
	if (hw_catalog_load(&s->catalog, ctx->data_dir, &err) == 0)
		s->have_catalog = 1;
	else if (warn)
		cli_print_problem(_("warning: "), &err);
	s->problems = (int)probs.n;
	content_problems_free(&probs);
	return 0;
}

static int
session_open(const struct cli_ctx *ctx, struct cli_session *s, int warn,
    int readonly)
{
	struct pl_err err;
	int rc;

	if ((rc = cli_course_open(ctx, s, warn)) != 0)
		return rc;
	s->status = calloc(s->course->n_drops + 1, sizeof *s->status);
	s->scores = calloc(s->course->n_drops + 1, sizeof *s->scores);
	s->store = (readonly ? store_open_read : store_open_dirs)(ctx->db_path,
	    !ctx->db_given, &err);
	if (s->status == NULL || s->scores == NULL || s->store == NULL ||
	    store_profile(s->store, ctx->profile, (int64_t)time(NULL),
	    &s->profile, &err) != 0 ||
	    store_course_progress(s->store, s->profile, s->course, s->status,
	    s->scores, &s->last_drop, &err) != 0) {
		cli_print_err(&err);
		cli_session_close(s);
		return 2;
	}
	return 0;
}

int
cli_session_open(const struct cli_ctx *ctx, struct cli_session *s, int warn)
{
	return session_open(ctx, s, warn, 0);
}

int
cli_session_read(const struct cli_ctx *ctx, struct cli_session *s, int warn)
{
	return session_open(ctx, s, warn, 1);
}

struct deck_find {
	const char	*name;
	int		 found;
};

static void
match_user_deck(const char *deck, int n, void *arg)
{
	struct deck_find *f = arg;

	if (n > 0 && strcmp(deck, f->name) == 0)
		f->found = 1;
}

int
cli_deck_known(const struct cli_session *s, const char *deck,
    struct pl_err *err)
{
	struct deck_find f = { deck, 0 };
	size_t i;

	for (i = 0; i < s->course->n_decks; i++)
		if (strcmp(s->course->decks[i].id, deck) == 0)
			return 1;
	if (store_user_decks(s->store, s->profile, match_user_deck, &f,
	    err) != 0)
		return -1;
	return f.found;
}

void
cli_tui_start(struct tui_start *st, const struct cli_ctx *ctx,
    const struct cli_session *s, enum tui_first first)
{
	memset(st, 0, sizeof *st);
	st->first = first;
	st->projector = ctx->projector;
	st->profile_name = ctx->profile;
	if (s == NULL)
		return;
	st->course = s->course;
	st->store = s->store;
	st->profile = s->profile;
	st->problems = s->problems;
	st->catalog = s->have_catalog ? &s->catalog : NULL;
}

void
cli_session_close(struct cli_session *s)
{
	store_close(s->store);
	content_free(s->course);
	if (s->have_catalog)
		hw_catalog_free(&s->catalog);
	free(s->status);
	free(s->scores);
	memset(s, 0, sizeof *s);
}
