/*
 * cmd_help.c - `parlearn help [COMMAND [ARG]...]`: the global help, or
 * what `parlearn COMMAND [ARG]... --help` prints.
 */
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/usage.h"

int
cli_help_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	const struct cli_command *c;
	char **av;
	int i, rc;

	if (argc < 2 || argv[1][0] == '-') {
		cli_usage(stdout);
		return 0;
	}
	if ((c = cli_command_find(argv[1])) == NULL || c->summary == NULL)
		return cli_usage_error(_("no command called '%s'"), argv[1]);
	/* COMMAND ARG... --help: "help lab" and "help srs replay" alike. */
	if ((av = calloc((size_t)argc + 1, sizeof *av)) == NULL)
		return 2;
	for (i = 1; i < argc; i++)
		av[i - 1] = argv[i];
	av[argc - 1] = "--help";
	cli_set_command(c->name);
	rc = c->main(ctx, argc, av);
	free(av);
	return rc;
}
