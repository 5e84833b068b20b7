/*
 * helpopts.h - the options a subcommand's --help lists, read back from the
 * help text itself, so that shell completion never goes stale: an option
 * added to a command's help is completed from then on.
 *
 * An option line is indented and starts with '-': "  -o, --output FILE",
 * "  --schedule gpipe|1f1b|interleaved", "  --seq-parallel,
 * --no-seq-parallel"; its synopsis ends at two spaces or the line's end.
 * An upper-case word (FILE, DIR, N) or a list of words joined by '|'
 * after a name means the option takes a value. A verb line ("  host DIR
 * --script FILE [--no-dashboard]", as in `lab --help`) holds that verb's
 * options.
 */
#ifndef PARLEARN_CLI_HELPOPTS_H
#define PARLEARN_CLI_HELPOPTS_H

#include <stddef.h>

#include "cli/cli.h"

#define HELPOPT_NAME	48
#define HELPOPT_ARG	160

struct helpopt {
	char	name[HELPOPT_NAME];	/* "--output", "-o" */
	char	arg[HELPOPT_ARG];	/* "FILE", "gpipe|1f1b|interleaved",
					 * or "" for a flag */
};

struct helpopts {
	struct helpopt	*v;
	size_t		 n;
};

/*
 * The options of help's option lines (verb NULL), or of the line that
 * starts with verb. 0, or -1 out of memory. Free with helpopts_free.
 */
int	helpopts_parse(const char *help, const char *verb, struct helpopts *);
void	helpopts_free(struct helpopts *);

/* The option called name ("--gpu", or "--gpu=h1" up to the '='), or NULL. */
const struct helpopt	*helpopts_find(const struct helpopts *,
			    const char *name);

/*
 * The verbs of a help text's verb lines ("host", "join", ...): words
 * indented by two spaces and followed by an upper-case operand. Each is
 * passed to fn. Returns how many.
 */
size_t	helpopts_verbs(const char *help, void (*fn)(const char *, void *),
	    void *arg);

/*
 * What `parlearn CMD --help` (argv[0] = CMD) prints, captured in memory
 * in the C locale. The caller frees; NULL on failure.
 */
char	*helpopts_capture(int (*main_fn)(const struct cli_ctx *, int, char **),
	    const struct cli_ctx *, const char *cmd);

#endif
