/*
 * plan_emit.c - `parlearn plan --emit`: pick the layout (the one given,
 * or a row of the search), ask the core whether the target can say it,
 * and write it through the -o writer (output.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli/output.h"
#include "cli/plan_emit.h"
#include "cli/usage.h"
#include "core/engine/emit.h"
#include "core/number.h"
#include "core/wrap.h"

int
plan_emit_option(int which, const char *arg, struct plan_args *a)
{
	if (which == 'o')
		a->out = arg;
	else if (which == 'e')
		a->emit = arg;
	else if (pl_parse_long(arg, 1, 1000000, &a->row) != 0)
		return cli_usage_error(_("--row: invalid number '%s'"), arg);
	return 0;
}

void
plan_emit_usage(FILE *fp)
{
	wrap_option(fp, "--emit torchtitan|megatron|deepspeed|sbatch", 26, 1,
	    _("write the layout (or the search's row) as that framework's "
	    "config"));
	wrap_option(fp, "-o, --output FILE", 26, 1,
	    _("write --emit's config to FILE"));
	wrap_option(fp, "--row N", 26, 1,
	    _("with --emit: the search's row N (1)"));
}

int
plan_emit_check(const struct plan_args *a)
{
	enum emit_kind k;

	if (a->emit == NULL) {
		if (a->out != NULL)
			return cli_usage_error("%s", _("-o needs --emit"));
		if (a->row != 0)
			return cli_usage_error("%s", _("--row needs --emit"));
		return 0;
	}
	if (emit_kind_parse(a->emit, &k) != 0)
		return cli_usage_error(_("--emit: unknown target '%s' "
		    "(torchtitan, megatron, deepspeed, sbatch)"), a->emit);
	if (a->json)
		return cli_usage_error("%s", _("--emit and --json do not go "
		    "together"));
	return 0;
}

static int
write_out(const struct cm_config *c, enum emit_kind k, const char *path)
{
	struct cli_out o;
	int failed;

	if (cli_out_open(&o, path) != 0)
		return 2;
	failed = emit_write(o.fp, c, k) != 0;
	return cli_out_close(&o, failed) != 0 || failed ? 2 : 0;
}

/* The first of the search's rows k can say, 1-based; 0 when none. */
static int
first_row(const struct cm_search *s, enum emit_kind k)
{
	char why[EMIT_WHY_LEN];
	int i;

	for (i = 0; i < s->n_top; i++)
		if (emit_refuse(&s->top[i].cfg, k, why, sizeof why) == 0)
			return i + 1;
	return 0;
}

static int
emit_row(const struct cm_config *base, enum emit_kind k,
    const struct plan_args *a)
{
	struct cm_search *s = malloc(sizeof *s);
	char why[EMIT_WHY_LEN];
	struct pl_err err;
	long row = a->row > 0 ? a->row : 1;
	int rc = 1, alt;

	if (s == NULL)
		return 2;
	if (cm_search(base, CM_SEARCH_MAX, s, &err) != 0)
		cli_error("%s", err.msg);
	else if (row > s->n_top)
		cli_error(_("--row %ld: the search ranked %d rows"), row,
		    s->n_top);
	else if (emit_refuse(&s->top[row - 1].cfg, k, why, sizeof why)) {
		alt = first_row(s, k);
		if (alt > 0 && why[0] != '\0' && why[strlen(why) - 1] == '.')
			why[strlen(why) - 1] = '\0';
		if (alt > 0)
			/* TRANSLATORS: %1$ld a row, %2$s why it is refused,
			 * %3$d the first row that can be written. */
			cli_error(_("row %1$ld: %2$s; row %3$d can be written "
			    "(--row %3$d)."), row, why, alt);
		else
			cli_error(_("row %1$ld: %2$s"), row, why);
	} else
		rc = write_out(&s->top[row - 1].cfg, k, a->out);
	free(s);
	return rc;
}

int
plan_emit_run(const struct cm_config *c, int searched,
    const struct plan_args *a)
{
	struct cm_result *r;
	char why[EMIT_WHY_LEN];
	struct pl_err err;
	enum emit_kind k;
	int rc = 1;

	if (emit_kind_parse(a->emit, &k) != 0)
		return 1;
	if (searched)
		return emit_row(c, k, a);
	if (a->row > 1)
		return cli_usage_error("%s", _("--row picks a row of the "
		    "search: leave out a degree to search"));
	if ((r = malloc(sizeof *r)) == NULL)
		return 2;
	if (cm_evaluate(c, r, &err) != 0)
		cli_error("%s", err.msg);
	else if (!r->valid)
		cli_error("%s", _("this layout is not valid"));
	else if (emit_refuse(&r->cfg, k, why, sizeof why))
		cli_error("%s", why);
	else
		rc = write_out(&r->cfg, k, a->out);
	free(r);
	return rc;
}
