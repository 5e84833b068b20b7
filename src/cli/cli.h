/*
 * cli.h - the non-interactive subcommands.
 *
 * main.c parses the global options, fills a struct cli_ctx and calls one
 * cli_*_main through the table in commands.c with the subcommand's own
 * argv (argv[0] is the subcommand's name). Each returns the process exit
 * code: 0 success, 1 usage error, 2 bad data. They print results on
 * stdout and errors on stderr in the one style of usage.h ("parlearn:
 * CMD: message"); -h and --help print their help. Those that open screens
 * do it with one call to tui_run() (tui/tui.h).
 */
#ifndef PARLEARN_CLI_H
#define PARLEARN_CLI_H

struct cli_ctx {
	const char	*content_dir;	/* holds lessons/, flashcards/, labs/ */
	const char	*data_dir;	/* holds gpus.json, models.json: the
					 * content's data/ when it has one
					 * (cli/paths.h), else data_default */
	const char	*data_default;	/* the installed (or build tree's)
					 * data/; NULL: data_dir */
	const char	*db_path;	/* progress database, never NULL */
	int		 db_given;	/* bool: --db named it; create no
					 * directories for it */
	const char	*profile;	/* learner profile name, never NULL */
	int		 projector;	/* bool: --projector, for the screens */
};

int	cli_list_main(const struct cli_ctx *, int argc, char **argv);
int	cli_check_content_main(const struct cli_ctx *, int argc, char **argv);
int	cli_plan_main(const struct cli_ctx *, int argc, char **argv);

/*
 * plan's argv gathered into an engine configuration object, the form
 * cli_plan_main hands to cm_config_from_json. Returns a new object the
 * caller frees with cJSON_Delete, *json set for --json; or NULL after
 * printing any message, with *rc the exit code (0 after --help).
 */
struct plan_args;
struct cJSON	*cli_plan_options(int argc, char **argv, struct plan_args *,
		    int *rc);
/* A key's option spelling, without "--": '-' for '_', "no-" if neg. */
void	cli_plan_opt_name(const char *key, int neg, char *buf, size_t size);
int	cli_trace_main(const struct cli_ctx *, int argc, char **argv);
int	cli_calibrate_main(const struct cli_ctx *, int argc, char **argv);

/* The figures of a --hardware file fitted by calibrate, one line (none:
 * nothing), and as plan's JSON "hardware_measured" (cmd_calibrate.c). */
struct hw_gpu;
void	cli_print_measured(FILE *fp, const struct hw_gpu *);
void	cli_measured_json(struct cJSON *assumed, const struct hw_gpu *);
int	cli_run_main(const struct cli_ctx *, int argc, char **argv);
int	cli_srs_main(const struct cli_ctx *, int argc, char **argv);
int	cli_review_main(const struct cli_ctx *, int argc, char **argv);
int	cli_stats_main(const struct cli_ctx *, int argc, char **argv);
int	cli_deck_main(const struct cli_ctx *, int argc, char **argv);
int	cli_lab_main(const struct cli_ctx *, int argc, char **argv);
int	cli_export_main(const struct cli_ctx *, int argc, char **argv);
int	cli_import_main(const struct cli_ctx *, int argc, char **argv);
int	cli_help_main(const struct cli_ctx *, int argc, char **argv);
/* Hidden: the shell completion's candidates (cmd_complete.c). */
int	cli_complete_main(const struct cli_ctx *, int argc, char **argv);

#endif
