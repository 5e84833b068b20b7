/*
 * cmd_lab_step.c - `parlearn lab step DIR N|next|prev`: move the lab to
 * another step (the host's command; students follow state.json).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/usage.h"
#include "core/number.h"
#include "store/labdir.h"

int
cli_lab_step(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct lab_script *ls;
	struct lab_state st;
	struct pl_err err;
	const char *arg;
	long n = 0;
	int rc, word;

	(void)ctx;
	if (argc != 3)
		return lab_operands(argc, argv, 2);
	if ((rc = lab_open(argv[1], &ls, &st)) != 0)
		return rc;
	arg = argv[2];
	word = strcmp(arg, "next") == 0 || strcmp(arg, "prev") == 0;
	if (strcmp(arg, "next") == 0)
		n = st.step + 2;
	else if (strcmp(arg, "prev") == 0)
		n = st.step;
	if ((!word && pl_parse_long(arg, 1, (long)ls->n_steps, &n) != 0) ||
	    n < 1 || n > (long)ls->n_steps) {
		cli_usage_error(_("a step from 1 to %zu, 'next' or 'prev'"),
		    ls->n_steps);
		lab_script_free(ls);
		return 1;
	}
	if (st.step != (int)n - 1) {
		st.step = (int)n - 1;
		st.step_started = (int64_t)time(NULL);
	}
	lab_script_free(ls);
	pl_err_clear(&err);
	if (labdir_write_state(argv[1], &st, &err) != 0)
		return lab_err_out(&err);
	printf(_("step %ld of %d\n"), n, st.n_steps);
	return 0;
}
