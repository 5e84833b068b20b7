/*
 * cmd_lab.c - `parlearn lab`: host, join, step, submit, status, report and
 * reset an instructor-led lab in a directory on a shared filesystem.
 *
 * There is no server: the host writes DIR/state.json, each student writes
 * DIR/results/USER@PROFILE.json (store/labdir.h), and the dashboard polls.
 * Step numbers on the command line are 1-based, as on the screens.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "core/json.h"
#include "core/lab/lab.h"
#include "store/labdir.h"

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn lab COMMAND DIR [OPTION]...\n"
	    "Run an instructor-led lab from a directory every student can reach.\n"
	    "\n"
	    "  host DIR --script FILE [--no-dashboard]\n"
	    "                    create the lab directory (yours) and show the dashboard\n"
	    "  join DIR          follow the lab as a student\n"
	    "  step DIR N|next|prev\n"
	    "                    move the lab to another step (host)\n"
	    "  submit DIR --step N (--question ID | --scenario ID) --correct 0|1\n"
	    "                    record one answer, as the student screen does\n"
	    "  submit DIR --step N --run FILE\n"
	    "                    record a run step's run (parlearn run -o FILE)\n"
	    "  status DIR        the current step and the class, as text\n"
	    "  report DIR [--format csv|json] [-o FILE]\n"
	    "                    the class table: per student per step, per question\n"
	    "  reset DIR         archive the results and start again for a new group\n"
	    "\n"
	    "Global options such as --projector and --profile go before 'lab'.\n"));
}

static int
err_out(const struct pl_err *e)
{
	cli_print_err(e);
	return 2;
}

/* Script and state of DIR; both or neither. 0 or 2 (printed). */
static int
open_lab(const char *dir, struct lab_script **ls, struct lab_state *st)
{
	struct pl_err err;

	pl_err_clear(&err);
	if ((*ls = labdir_load_script(dir, &err)) == NULL)
		return err_out(&err);
	if (labdir_read_state(dir, st, &err) != 0) {
		lab_script_free(*ls);
		*ls = NULL;
		return err_out(&err);
	}
	return 0;
}

/* Validate a script against the course, if the course loads. */
static int
check_script(const struct cli_ctx *ctx, const struct lab_script *ls)
{
	struct content_problems probs = { NULL, 0, 0 };
	struct content_course *c = content_load(ctx->content_dir, NULL);
	char buf[1800];
	size_t i;
	int rc = 0;

	if (c == NULL)
		return 0;
	if (lab_script_check_course(ls, c, &probs) > 0)
		rc = 2;
	for (i = 0; i < probs.n; i++)
		fprintf(stderr, "parlearn: %s\n", pl_err_format(&probs.items[i],
		    buf, sizeof buf));
	content_problems_free(&probs);
	content_free(c);
	return rc;
}

static int
run_dashboard(const struct cli_ctx *ctx, const char *dir)
{
	struct content_course *c = content_load(ctx->content_dir, NULL);
	struct tui_start st;
	int rc;

	cli_tui_start(&st, ctx, NULL, TUI_LAB_HOST);
	st.course = c;
	st.lab_dir = dir;
	rc = tui_run(&st);
	content_free(c);
	return rc;
}

static int
lab_host(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "script", required_argument, NULL, 's' },
		{ "no-dashboard", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char *script = NULL;
	struct lab_script *ls;
	struct lab_state st, old;
	struct pl_err err;
	char *text;
	int ch, nodash = 0, rc;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == 's')
			script = optarg;
		else if (ch == 'n')
			nodash = 1;
		else
			return 1;
	}
	if (script == NULL || argc - optind != 1) {
		usage(stderr);
		return 1;
	}
	pl_err_clear(&err);
	if ((text = pl_read_file(script, NULL, &err)) == NULL ||
	    (ls = lab_script_parse(text, script, &err)) == NULL) {
		free(text);
		return err_out(&err);
	}
	rc = check_script(ctx, ls);
	if (rc == 0 && labdir_create(argv[optind], text, &err) != 0)
		rc = err_out(&err);
	memset(&st, 0, sizeof st);
	st.n_steps = (int)ls->n_steps;
	lab_script_free(ls);
	free(text);
	if (rc != 0)
		return rc;
	/* Taking up a lab again keeps its step and session. */
	if (labdir_read_state(argv[optind], &old, &err) == 0 &&
	    old.n_steps == st.n_steps)
		st = old;
	else {
		labdir_new_session(st.session, sizeof st.session);
		st.started = st.step_started = (int64_t)time(NULL);
	}
	if (labdir_write_state(argv[optind], &st, &err) != 0)
		return err_out(&err);
	if (nodash) {
		printf(_("lab ready in %s: step %d of %d\n"), argv[optind],
		    st.step + 1, st.n_steps);
		return 0;
	}
	return run_dashboard(ctx, argv[optind]);
}

static int
lab_join(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_session s;
	struct tui_start ts;
	int rc;

	if (argc - optind != 1) {
		usage(stderr);
		return 1;
	}
	{
		struct lab_script *ls;
		struct lab_state st;

		if ((rc = open_lab(argv[optind], &ls, &st)) != 0)
			return rc;
		lab_script_free(ls);
	}
	if ((rc = cli_session_open(ctx, &s, 1)) != 0)
		return rc;
	cli_tui_start(&ts, ctx, &s, TUI_LAB_STUDENT);
	ts.lab_dir = argv[optind];
	rc = tui_run(&ts);
	cli_session_close(&s);
	return rc;
}

static int
lab_step(int argc, char **argv)
{
	struct lab_script *ls;
	struct lab_state st;
	struct pl_err err;
	const char *arg;
	char *end;
	long n;
	int rc;

	if (argc - optind != 2) {
		usage(stderr);
		return 1;
	}
	if ((rc = open_lab(argv[optind], &ls, &st)) != 0)
		return rc;
	arg = argv[optind + 1];
	if (strcmp(arg, "next") == 0)
		n = st.step + 2;
	else if (strcmp(arg, "prev") == 0)
		n = st.step;
	else
		n = strtol(arg, &end, 10);
	if ((strcmp(arg, "next") != 0 && strcmp(arg, "prev") != 0 &&
	    *end != '\0') || n < 1 || n > (long)ls->n_steps) {
		fprintf(stderr, _("parlearn: lab step: a step from 1 to %zu, 'next' or 'prev'\n"),
		    ls->n_steps);
		lab_script_free(ls);
		return 1;
	}
	if (st.step != (int)n - 1) {
		st.step = (int)n - 1;
		st.step_started = (int64_t)time(NULL);
	}
	lab_script_free(ls);
	if (labdir_write_state(argv[optind], &st, &err) != 0)
		return err_out(&err);
	printf(_("step %ld of %d\n"), n, st.n_steps);
	return 0;
}

/* The caller's result for this lab: read back, or new for this session. */
static int
own_result(const char *dir, const struct cli_ctx *ctx,
    const struct lab_state *st, struct lab_result *r, struct pl_err *err)
{
	memset(r, 0, sizeof *r);
	if (labdir_whoami(r->user, sizeof r->user) != 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("cannot tell who you are"));
		return -1;
	}
	snprintf(r->profile, sizeof r->profile, "%s", ctx->profile);
	if (labdir_read_own(dir, r, err) < 0)
		return -1;
	if (strcmp(r->session, st->session) != 0) {
		lab_result_free(r);
		r->step = -1;
		snprintf(r->session, sizeof r->session, "%s", st->session);
	}
	return 0;
}

/*
 * --run FILE for step (1-based) of ls: the item's correctness, or -1
 * after printing why the file does not do for the step.
 */
static int
run_correct(const struct lab_script *ls, long step, const char *file)
{
	struct sim_config cfg;
	struct sim_result *res = calloc(1, sizeof *res);
	struct sim_origin o;
	struct pl_err err;
	cJSON *root;
	int correct = -1;

	pl_err_clear(&err);
	if (res == NULL || (root = pl_json_load(file, &err)) == NULL) {
		if (res != NULL)
			cli_print_err(&err);
		free(res);
		return -1;
	}
	if (sim_result_from_json(root, file, &cfg, res, &o, &err) != 0 ||
	    lab_run_check(&ls->steps[step - 1], &cfg, res, &o, file, &correct,
	    &err) != 0) {
		cli_print_err(&err);
		correct = -1;
	} else
		printf(P_("step %ld: %s on %d processes on %d host; largest "
		    "difference from one device %.3g: %s\n", "step %ld: %s on "
		    "%d processes on %d hosts; largest difference from one "
		    "device %.3g: %s\n", o.hosts), step,
		    sim_mode_name(cfg.mode), o.processes, o.hosts,
		    fmax(res->max_loss_error, fmax(res->max_grad_error,
		    res->max_param_error)), correct ? _("right") : _("wrong"));
	cJSON_Delete(root);
	sim_result_free(res);
	free(res);
	return correct;
}

static int
lab_submit(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "step", required_argument, NULL, 's' },
		{ "question", required_argument, NULL, 'q' },
		{ "scenario", required_argument, NULL, 'S' },
		{ "correct", required_argument, NULL, 'c' },
		{ "run", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	const char *id = NULL, *run = NULL;
	enum lab_item_kind kind = LAB_ITEM_QUESTION;
	struct lab_script *ls;
	struct lab_state st;
	struct lab_result r;
	struct pl_err err;
	long step = 0, corr = -1;
	int ch, rc;

	optind = 0;
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == 's')
			step = strtol(optarg, NULL, 10);
		else if (ch == 'q' || ch == 'S') {
			id = optarg;
			kind = ch == 'S' ? LAB_ITEM_SCENARIO : LAB_ITEM_QUESTION;
		} else if (ch == 'r') {
			run = optarg;
			id = LAB_RUN_ID;
			kind = LAB_ITEM_RUN;
		} else if (ch == 'c' && (strcmp(optarg, "0") == 0 ||
		    strcmp(optarg, "1") == 0))
			corr = optarg[0] - '0';
		else
			return 1;
	}
	if (argc - optind != 1 || id == NULL || (corr < 0) != (run != NULL) ||
	    step < 1 || !lab_id_valid(id)) {
		usage(stderr);
		return 1;
	}
	if ((rc = open_lab(argv[optind], &ls, &st)) != 0)
		return rc;
	if (step > st.step + 1) {
		fprintf(stderr, _("parlearn: lab submit: the lab is at step %d; step %ld is ahead\n"),
		    st.step + 1, step);
		lab_script_free(ls);
		return 1;
	}
	if (run != NULL)
		corr = run_correct(ls, step, run);
	lab_script_free(ls);
	if (corr < 0)
		return 2;
	pl_err_clear(&err);
	if (own_result(argv[optind], ctx, &st, &r, &err) != 0)
		return err_out(&err);
	if (r.step != (int)step - 1) {
		r.step = (int)step - 1;
		r.step_since = (int64_t)time(NULL);
	}
	r.updated = (int64_t)time(NULL);
	rc = lab_result_add(&r, (int)step - 1, kind, id, (int)corr);
	if (rc == 0)
		rc = labdir_submit(argv[optind], &r, &err);
	lab_result_free(&r);
	return rc == 0 ? 0 : err_out(&err);
}

static int
write_out(const char *path, const char *text)
{
	FILE *fp = path != NULL ? fopen(path, "w") : stdout;

	if (fp == NULL) {
		perror(path);
		return 2;
	}
	fputs(text, fp);
	if (text[0] != '\0' && text[strlen(text) - 1] != '\n')
		fputc('\n', fp);
	if (fp != stdout && fclose(fp) != 0) {
		perror(path);
		return 2;
	}
	return 0;
}

static void
print_status(const struct lab_script *ls, const struct lab_state *st,
    const struct labdir_scan *sc, const struct content_course *c)
{
	struct lab_class cl;
	char title[300];
	size_t i;

	printf(_("%s: step %d of %zu: %s\n"), ls->title, st->step + 1,
	    ls->n_steps, lab_step_title(&ls->steps[st->step], c, title,
	    sizeof title));
	if (lab_class_build(ls, c, sc->results, sc->n, st->session, &cl) != 0)
		return;
	printf(P_("%zu student\n", "%zu students\n", cl.n_students),
	    cl.n_students);
	for (i = 0; i < ls->n_steps; i++)
		if (cl.on_step[i] > 0)
			printf(_("  on step %zu: %d\n"), i + 1, cl.on_step[i]);
	if (cl.most_missed >= 0)
		printf(_("most missed: step %d, %s (%d missed on the first try)\n"),
		    cl.items[cl.most_missed].step + 1,
		    cl.items[cl.most_missed].id, cl.items[cl.most_missed].missed);
	printf(P_("%zu file skipped\n", "%zu files skipped\n",
	    sc->n_problems), sc->n_problems);
	lab_class_free(&cl);
}

static int
lab_reset(const char *dir)
{
	struct pl_err err;
	char arch[1200];

	pl_err_clear(&err);
	if (labdir_reset(dir, (int64_t)time(NULL), arch, sizeof arch,
	    &err) != 0)
		return err_out(&err);
	printf(_("archived to %s; the lab is back at step 1\n"), arch);
	return 0;
}

/* status (what 1), report (0), reset (2). */
static int
lab_report(const struct cli_ctx *ctx, int argc, char **argv, int what)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char *fmt = "csv", *out = NULL;
	struct content_course *c = NULL;
	struct lab_script *ls;
	struct lab_state st;
	struct labdir_scan sc;
	struct pl_err err;
	char *text, buf[1800];
	size_t i;
	int ch, rc;

	optind = 0;
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
		usage(stderr);
		return 1;
	}
	if (what == 2)
		return lab_reset(argv[optind]);
	if ((rc = open_lab(argv[optind], &ls, &st)) != 0)
		return rc;
	pl_err_clear(&err);
	if (labdir_scan(argv[optind], &sc, &err) != 0) {
		lab_script_free(ls);
		return err_out(&err);
	}
	for (i = 0; i < sc.n_problems; i++)
		fprintf(stderr, "parlearn: warning: %s\n", pl_err_format(
		    &sc.problems[i], buf, sizeof buf));
	c = content_load(ctx->content_dir, NULL);
	rc = 0;
	if (what == 1)
		print_status(ls, &st, &sc, c);
	else {
		text = strcmp(fmt, "json") == 0 ? lab_report_json(ls, c,
		    sc.results, sc.n, st.session) : lab_report_csv(ls, c,
		    sc.results, sc.n, st.session);
		rc = text != NULL ? write_out(out, text) : 2;
		free(text);
	}
	content_free(c);
	labdir_scan_free(&sc);
	lab_script_free(ls);
	return rc;
}

int
cli_lab_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	const char *cmd;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 1 : 0;
	}
	cmd = argv[1];
	argc--;
	argv++;
	optind = 0;
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "host") == 0)
		return lab_host(ctx, argc, argv);
	optind = 1;
	if (strcmp(cmd, "join") == 0)
		return lab_join(ctx, argc, argv);
	if (strcmp(cmd, "step") == 0)
		return lab_step(argc, argv);
	if (strcmp(cmd, "submit") == 0)
		return lab_submit(ctx, argc, argv);
	if (strcmp(cmd, "status") == 0)
		return lab_report(ctx, argc, argv, 1);
	if (strcmp(cmd, "report") == 0)
		return lab_report(ctx, argc, argv, 0);
	if (strcmp(cmd, "reset") == 0)
		return lab_report(ctx, argc, argv, 2);
	fprintf(stderr, _("parlearn: lab: unknown command '%s'\n"), cmd);
	usage(stderr);
	return 1;
}
