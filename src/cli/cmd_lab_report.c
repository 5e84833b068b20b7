/*
 * cmd_lab_report.c - `parlearn lab report DIR [--format csv|json] [-o FILE]`:
 * the class table, per student per step and per question.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/output.h"
#include "store/labdir.h"

int
cli_lab_report(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char *fmt = "csv", *out = NULL;
	struct content_course *c;
	struct lab_script *ls;
	struct lab_state st;
	struct labdir_scan sc;
	char *text;
	int ch, rc;

	while ((ch = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (ch == 'f' && (strcmp(optarg, "csv") == 0 ||
		    strcmp(optarg, "json") == 0))
			fmt = optarg;
		else if (ch == 'o')
			out = optarg;
		else
			return 1;
	}
	if (argc - optind != 1) {
		lab_usage(stderr);
		return 1;
	}
	if ((rc = lab_open(argv[optind], &ls, &st)) != 0)
		return rc;
	if ((rc = lab_scan_warn(argv[optind], &sc)) != 0) {
		lab_script_free(ls);
		return rc;
	}
	c = content_load(ctx->content_dir, NULL);
	text = strcmp(fmt, "json") == 0 ? lab_report_json(ls, c, sc.results,
	    sc.n, st.session) : lab_report_csv(ls, c, sc.results, sc.n,
	    st.session);
	rc = text != NULL ? cli_write_text(out, text) : 2;
	free(text);
	content_free(c);
	labdir_scan_free(&sc);
	lab_script_free(ls);
	return rc;
}
