/*
 * usage.h - how every subcommand speaks about its own use, in one style,
 * always one line on stderr:
 *
 *   parlearn: CMD: message                      an error (exit 1 or 2)
 *   parlearn: CMD: FILE:LINE:COL: message       a problem in a file
 *   parlearn: CMD: message (try 'parlearn CMD --help')
 *                                               a usage error (exit 1)
 *
 * main.c names the running subcommand once (cli_set_command) and every
 * message after that carries it, so no call site spells "parlearn: plan:".
 * -h and --help print the help on stdout and exit 0 everywhere.
 */
#ifndef PARLEARN_CLI_USAGE_H
#define PARLEARN_CLI_USAGE_H

#include <getopt.h>
#include <stdio.h>

/* The subcommand being run ("plan", "lab submit"), or NULL for none. */
void		 cli_set_command(const char *name);
const char	*cli_command(void);

/*
 * "parlearn: CMD: " and the formatted message on stderr, through
 * cli_printf (untrusted text shown safely). fmt has no trailing newline.
 */
void	cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_error with the "(try 'parlearn CMD --help')" hint. Returns 1. */
int	cli_usage_error(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

/*
 * getopt_long with parlearn's messages. shortopts as for getopt_long (a
 * leading '+' stops at the first operand); list "h" in it and map
 * "help" to 'h' in longopts. An unknown option, a missing argument or an
 * argument given to a flag is reported with cli_usage_error and returns
 * '?': the caller returns 1. Reset optind to 0 before the first call.
 */
int	cli_getopt(int argc, char **argv, const char *shortopts,
	    const struct option *longopts);

/*
 * arg as a whole number from min to max (core's pl_parse_long) in *out:
 * 0, or 1 after the usage error "OPT: 'x' is not a whole number from MIN
 * to MAX".
 */
int	cli_whole_number(const char *opt, const char *arg, long min, long max,
	    long *out);

/* "unexpected argument 'x'" as a usage error; returns 1. */
int	cli_extra_argument(const char *arg);

#endif
