/*
 * usage.c - one message style for every subcommand (see usage.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "core/safeprint.h"
#include "core/number.h"

static const char *command;	/* set once by main.c */

void
cli_set_command(const char *name)
{
	command = name;
}

const char *
cli_command(void)
{
	return command;
}

/* One line: "parlearn: CMD: message", with the --help hint if hint. */
static void
verror(int hint, const char *fmt, va_list ap)
{
	char *msg, help[80];

	if (vasprintf(&msg, fmt, ap) < 0)
		return;
	help[0] = '\0';
	if (hint)
		snprintf(help, sizeof help, " (try 'parlearn %s%s--help')",
		    command != NULL ? command : "", command != NULL ? " " : "");
	/* the message may quote an argument: a newline in it is shown as
	 * text, so the error stays on one line */
	fprintf(stderr, "parlearn: %s%s", command != NULL ? command : "",
	    command != NULL ? ": " : "");
	safeprint_puts(stderr, msg, 0);
	fprintf(stderr, "%s\n", help);
	free(msg);
}

void
cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(0, fmt, ap);
	va_end(ap);
}

int
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(1, fmt, ap);
	va_end(ap);
	return 1;
}

int
cli_extra_argument(const char *arg)
{
	return cli_usage_error(_("unexpected argument '%s'"), arg);
}

int
cli_whole_number(const char *opt, const char *arg, long min, long max,
    long *out)
{
	if (pl_parse_long(arg, min, max, out) == 0)
		return 0;
	/* parlearn-run (run/run_opts.c) prints the same message. */
	return cli_usage_error(_("%s: '%s' is not a whole number from %ld to "
	    "%ld"), opt, arg, min, max);
}

/* The option word "--name=value" up to any '=', for a message. */
static char *
long_name(const char *word)
{
	return strndup(word, strcspn(word, "="));
}

int
cli_getopt(int argc, char **argv, const char *shortopts,
    const struct option *longopts)
{
	int plus = shortopts[0] == '+', before = optind > 0 ? optind : 1;
	const char *word;
	char spec[64], opt[3] = { '-', '?', '\0' };
	int ch;

	/* ':' first (after any '+'): a missing argument returns ':'. */
	snprintf(spec, sizeof spec, "%s:%s", plus ? "+" : "",
	    shortopts + plus);
	opterr = 0;
	ch = getopt_long(argc, argv, spec, longopts, NULL);
	if (ch != '?' && ch != ':')
		return ch;
	/* When optind moved, the word it passed is the offending one (after
	 * any permutation); when it did not, the error is inside a cluster
	 * of short options. */
	word = optind > before && optind - 1 < argc ? argv[optind - 1] : "";
	if (strncmp(word, "--", 2) == 0) {
		char *name = long_name(word);

		if (name == NULL)
			return '?';
		if (ch == ':')
			cli_usage_error(_("option '%s' requires an argument"),
			    name);
		else if (optopt != 0)
			cli_usage_error(_("option '%s' does not take an "
			    "argument"), name);
		else
			cli_usage_error(_("unrecognized option '%s'"), name);
		free(name);
		return '?';
	}
	if (optopt > ' ' && optopt < 127)
		opt[1] = (char)optopt;
	if (ch == ':')
		cli_usage_error(_("option '%s' requires an argument"), opt);
	else
		cli_usage_error(_("unrecognized option '%s'"), opt);
	return '?';
}
