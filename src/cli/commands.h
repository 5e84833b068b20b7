/*
 * commands.h - the table of subcommands: main.c dispatches through it,
 * `parlearn --help` and `parlearn help` list it, and `parlearn complete`
 * completes its names. A new subcommand is one line in commands.c.
 */
#ifndef PARLEARN_CLI_COMMANDS_H
#define PARLEARN_CLI_COMMANDS_H

#include <stdio.h>

#include "cli/cli.h"

struct cli_command {
	const char	*name;
	int		(*main)(const struct cli_ctx *, int argc, char **argv);
	const char	*summary;	/* marked for gettext; NULL: hidden */
};

/* Every subcommand, in --help order; ends with a NULL name. */
const struct cli_command	*cli_commands(void);
/* The subcommand called name, or NULL. */
const struct cli_command	*cli_command_find(const char *name);

/* `parlearn --help`: usage, the commands, the global options. */
void	cli_usage(FILE *fp);

/* Run argv[0] (a subcommand name) or report an unknown one (exit 1). */
int	cli_dispatch(const struct cli_ctx *, int argc, char **argv);

#endif
