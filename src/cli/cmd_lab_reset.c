/*
 * cmd_lab_reset.c - `parlearn lab reset DIR`: archive the results and put
 * the lab back at step 1 for a new group.
 */
#include <stdio.h>
#include <time.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/output.h"
#include "store/labdir.h"

int
cli_lab_reset(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct pl_err err;
	char arch[1200];

	(void)ctx;
	if (argc != 2) {
		lab_usage(stderr);
		return 1;
	}
	pl_err_clear(&err);
	if (labdir_reset(argv[1], (int64_t)time(NULL), arch, sizeof arch,
	    &err) != 0)
		return lab_err_out(&err);
	cli_printf(stdout, _("archived to %s; the lab is back at step 1\n"), arch);
	return 0;
}
