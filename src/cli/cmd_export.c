/*
 * cmd_export.c - `parlearn export` and `parlearn import`: one learner's
 * progress, answers, scenario results and review statistics as a file,
 * and back into a progress database (store/export.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "core/json.h"
#include "store/export.h"

static void
export_usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn export [--format json|csv] [--profile NAME] [-o FILE]\n"
	    "Write one learner's progress, answers, scenario results and review\n"
	    "statistics (default: JSON on standard output, your profile). The\n"
	    "JSON export (schema parlearn.export/1) is deterministic and\n"
	    "'parlearn import' restores it.\n"
	    "\n"
	    "  --format json|csv   JSON (default) or CSV, one row per record\n"
	    "  --profile NAME      the learner to export (default: yours)\n"
	    "  -o, --output FILE   write to FILE (default: standard output), a\n"
	    "                      regular file replaced when complete: a link or\n"
	    "                      a device (/dev/null, /dev/stdout) is refused;\n"
	    "                      leave out -o and redirect instead\n"
	    "  -h, --help          show this help\n"));
}

static void
import_usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn import [--as NAME] FILE\n"
	    "Restore a profile from its JSON export, in one transaction. Rows\n"
	    "already in the database are kept and never duplicated.\n"
	    "\n"
	    "  --as NAME    import under another profile name\n"
	    "  -h, --help   show this help\n"));
}

int
cli_export_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "profile", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *fmt = "json", *out = NULL, *profile = ctx->profile;
	struct store *st;
	struct content_course *c;
	struct pl_err err;
	struct cli_out o;
	int ch, rc;

	optind = 0;
	while ((ch = cli_getopt(argc, argv, "o:h", opts)) != -1) {
		if (ch == 'h') {
			export_usage(stdout);
			return 0;
		} else if (ch == 'f' && (strcmp(optarg, "json") == 0 ||
		    strcmp(optarg, "csv") == 0))
			fmt = optarg;
		else if (ch == 'f')
			return cli_usage_error(_("--format: '%s' is not json or "
			    "csv"), optarg);
		else if (ch == 'p')
			profile = optarg;
		else if (ch == 'o')
			out = optarg;
		else
			return 1;
	}
	if (optind != argc)
		return cli_extra_argument(argv[optind]);
	pl_err_clear(&err);
	if ((st = store_open_read(ctx->db_path, !ctx->db_given,
	    &err)) == NULL) {
		cli_print_err(&err);
		return 2;
	}
	c = content_load(ctx->content_dir, NULL);
	rc = cli_out_open(&o, out);
	/* Each row is written as it is read (export.h): a profile of any
	 * size takes no more memory than a small one. */
	if (rc == 0)
		rc = strcmp(fmt, "csv") == 0 ? export_profile_write_csv(st,
		    profile, o.fp, &err) : export_profile_write_json(st,
		    profile, c, o.fp, &err);
	if (rc == -2)
		cli_out_error(&o, errno);
	else if (rc == -1)
		cli_print_err(&err);
	if (rc != 2)
		rc = cli_out_close(&o, rc != 0);
	content_free(c);
	store_close(st);
	return rc;
}

int
cli_import_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "as", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct content_problems notes = { NULL, 0, 0 };
	const char *as = NULL;
	struct content_course *c;
	struct store *st;
	struct pl_err err;
	char *text;
	size_t i;
	int ch, added = 0, rc;

	optind = 0;
	while ((ch = cli_getopt(argc, argv, "h", opts)) != -1) {
		if (ch == 'h') {
			import_usage(stdout);
			return 0;
		} else if (ch == 'a')
			as = optarg;
		else
			return 1;
	}
	if (argc - optind > 1)
		return cli_extra_argument(argv[optind + 1]);
	if (argc - optind != 1)
		return cli_usage_error("%s", _("which file?"));
	pl_err_clear(&err);
	if ((text = pl_read_file(argv[optind], NULL, &err)) == NULL) {
		cli_print_err(&err);
		return 2;
	}
	if ((st = store_open_dirs(ctx->db_path, !ctx->db_given,
	    &err)) == NULL) {
		free(text);
		cli_print_err(&err);
		return 2;
	}
	c = content_load(ctx->content_dir, NULL);
	rc = export_import_json(st, text, argv[optind], as, c, &added, &notes,
	    &err);
	for (i = 0; i < notes.n; i++)
		cli_print_problem(_("warning: "), &notes.items[i]);
	content_problems_free(&notes);
	content_free(c);
	if (rc == 0)
		cli_printf(stdout, P_("imported %s: %d row written\n",
		    "imported %s: %d rows written\n", added), argv[optind],
		    added);
	else
		cli_print_err(&err);
	free(text);
	store_close(st);
	return rc == 0 ? 0 : 2;
}
