/*
 * cmd_lab.h - what the `parlearn lab` subcommands share.
 *
 * cmd_lab.c dispatches to one file per subcommand (cmd_lab_host.c,
 * cmd_lab_join.c, ...), in the style of tmux's cmd-*.c. Each runs with
 * argv[0] the subcommand's name and optind set for getopt_long; each returns
 * the exit code (0, 1 usage, 2 bad data) after printing its own messages.
 */
#ifndef PARLEARN_CLI_CMD_LAB_H
#define PARLEARN_CLI_CMD_LAB_H

#include <stdio.h>

#include "cli/cli.h"
#include "core/err.h"
#include "core/lab/lab.h"

/* Print the usage of `parlearn lab` to fp. */
void	lab_usage(FILE *fp);

/* Print err as "parlearn: ..." and return 2. */
int	lab_err_out(const struct pl_err *err);

/* Script and state of DIR; both or neither. 0, or 2 after printing. */
int	lab_open(const char *dir, struct lab_script **ls,
	    struct lab_state *st);

/*
 * Scan DIR's results into sc, printing each skipped file as a warning on
 * stderr. 0 (free sc with labdir_scan_free), or 2 after printing.
 */
struct labdir_scan;
int	lab_scan_warn(const char *dir, struct labdir_scan *sc);

int	cli_lab_host(const struct cli_ctx *, int argc, char **argv);
int	cli_lab_join(const struct cli_ctx *, int argc, char **argv);
int	cli_lab_step(const struct cli_ctx *, int argc, char **argv);
int	cli_lab_submit(const struct cli_ctx *, int argc, char **argv);
int	cli_lab_status(const struct cli_ctx *, int argc, char **argv);
int	cli_lab_report(const struct cli_ctx *, int argc, char **argv);
int	cli_lab_reset(const struct cli_ctx *, int argc, char **argv);

#endif
