/*
 * cmd_lab_submit.c - `parlearn lab submit DIR --step N (--question ID |
 * --scenario ID) --correct 0|1`: record one answer in the student's result
 * file, as the student screen does (earned when right within the
 * question's counting tries, core/course/quiz.h); or `--run FILE`: the run
 * a run step asks for (parlearn run -o FILE), checked against the step.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "cli/cmd_lab.h"
#include "cli/common.h"
#include "cli/usage.h"
#include "core/course/quiz.h"
#include "core/engine/hardware.h"
#include "core/json.h"
#include "core/sim/sim.h"
#include "store/labdir.h"

/*
 * --run FILE for step (1-based) of ls: 1 right, 0 wrong; -1 after
 * printing why the file is not the step's run (nothing is recorded); -2
 * when lab_run_verify refuses it, its reason in why (recorded as a wrong
 * answer with the reason, for the instructor to see).
 */
static int
run_correct(const struct lab_script *ls, long step, const char *file,
    struct pl_err *why)
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
	} else if (lab_run_verify(root, &cfg, res, &o, file, why) != 0)
		correct = -2;
	else
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

/*
 * --run FILE on an emit step: the config a student emitted, read back and
 * held against the step's layout (core/lab/lab_emit.c). 1 right; -2 wrong,
 * the reason in why (recorded); -1 after printing why the file cannot be
 * read (exit 2, nothing recorded).
 */
static int
emit_correct(const struct cli_ctx *ctx, const struct lab_step *s, long step,
    const char *file, struct pl_err *why)
{
	struct hw_catalog cat;
	struct pl_err err;
	size_t len = 0;
	char *text;
	int rc;

	pl_err_clear(&err);
	if (hw_catalog_load(&cat, ctx->data_dir, &err) != 0) {
		cli_print_err(&err);
		return -1;
	}
	if ((text = pl_read_file(file, &len, &err)) == NULL) {
		hw_catalog_free(&cat);
		cli_print_err(&err);
		return -1;
	}
	pl_err_clear(why);
	rc = lab_emit_check(s, &cat, text, len, file, why);
	free(text);
	hw_catalog_free(&cat);
	if (rc < 0) {
		cli_print_err(why);
		return -1;
	}
	if (rc == 0)
		return -2;
	printf(_("step %ld: the config states the step's layout: right\n"),
	    step);
	return 1;
}

/*
 * Whether step s (1-based: step) asks about (kind, id): 0, or 1 after
 * saying what it asks about instead. course may be NULL.
 */
static int
item_check(const struct lab_step *s, long step,
    const struct content_course *c, enum lab_item_kind kind, const char *id)
{
	static const char *const what[] = { "--question", "--scenario",
	    "--run" };
	const char *ids[512];
	enum lab_item_kind kinds[512];
	char list[400];
	size_t n = lab_step_items(s, c, ids, kinds, 512), i, used = 0;

	list[0] = '\0';
	for (i = 0; i < n; i++) {
		if (kinds[i] == kind && strcmp(ids[i], id) == 0)
			return 0;
		if (used < sizeof list)
			used += (size_t)snprintf(list + used, sizeof list -
			    used, "%s%s %s", i > 0 ? ", " : "",
			    what[kinds[i]], kinds[i] == LAB_ITEM_RUN ?
			    "FILE" : ids[i]);
	}
	if (n == 0)
		cli_error(_("step %ld asks about nothing (%s): nothing to "
		    "submit"), step, lab_step_kind_name(s->kind));
	else if (kind == LAB_ITEM_RUN)
		cli_error(_("step %ld is not a run or emit step; it asks "
		    "about: %s"),
		    step, list);
	else if (kind == LAB_ITEM_SCENARIO)
		cli_error(_("step %ld has no scenario %s; it asks about: %s"),
		    step, id, list);
	else
		cli_error(_("step %ld has no question %s; it asks about: %s"),
		    step, id, list);
	return 1;
}

/*
 * The counting tries of question id on step s (quiz_counting_tries: how
 * many answers can earn it); 1 for a scenario or a run, or when the
 * course lacks the question.
 */
static int
counting_tries(const struct content_course *c, const struct lab_step *s,
    enum lab_item_kind kind, const char *id)
{
	const struct content_drop *d;
	size_t i;

	if (kind != LAB_ITEM_QUESTION || s->drop == NULL || c == NULL ||
	    (d = content_find_drop(c, s->drop)) == NULL)
		return 1;
	for (i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == CONTENT_QUESTION &&
		    strcmp(d->blocks[i].question.id, id) == 0)
			return quiz_counting_tries(&d->blocks[i].question);
	return 1;
}

int
cli_lab_submit(const struct cli_ctx *ctx, int argc, char **argv)
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
	struct content_course *c;
	struct lab_script *ls;
	struct lab_state st;
	struct lab_result r;
	struct pl_err err, why;
	char reason[sizeof why.path + sizeof why.msg + 4];
	long step = 0, corr = -1;
	int ch, rc, tries = 1;

	while ((ch = cli_getopt(argc, argv, "", opts)) != -1) {
		if (ch == 's') {
			if (cli_whole_number("--step", optarg, 1, INT_MAX,
			    &step) != 0)
				return 1;
		} else if (ch == 'q' || ch == 'S') {
			id = optarg;
			kind = ch == 'S' ? LAB_ITEM_SCENARIO : LAB_ITEM_QUESTION;
		} else if (ch == 'r') {
			run = optarg;
			id = LAB_RUN_ID;
			kind = LAB_ITEM_RUN;
		} else if (ch == 'c' && (strcmp(optarg, "0") == 0 ||
		    strcmp(optarg, "1") == 0))
			corr = optarg[0] - '0';
		else if (ch == 'c')
			return cli_usage_error(_("--correct: '%s' is not 0 or 1"),
			    optarg);
		else
			return 1;
	}
	if (argc - optind > 1)
		return cli_extra_argument(argv[optind + 1]);
	if (argc - optind != 1)
		return cli_usage_error("%s", _("which directory?"));
	if (id == NULL || !lab_id_valid(id))
		return cli_usage_error("%s", _("--question ID, --scenario ID or "
		    "--run FILE is needed (an ID of letters, digits, '-', '_', "
		    "'.')"));
	if (step < 1 || (run == NULL && corr < 0))
		return cli_usage_error("%s", _("--step N (from 1) and --correct "
		    "0|1 are needed"));
	if (run != NULL && corr >= 0)
		return cli_usage_error("%s", _("--run FILE says whether the run "
		    "is right: no --correct with it"));
	if ((rc = lab_open(argv[optind], &ls, &st)) != 0)
		return rc;
	c = content_load(ctx->content_dir, NULL);
	if (step > st.step + 1) {
		cli_error(_("the lab is at step %d; step %ld is ahead"),
		    st.step + 1, step);
		rc = 1;
	} else if (ls->steps[step - 1].kind == LAB_STEP_DROP &&
	    ls->steps[step - 1].n_questions == 0 && c == NULL) {
		cli_error(_("%s: cannot load the course, which says what step "
		    "%ld asks"), ctx->content_dir, step);
		rc = 2;
	} else
		rc = item_check(&ls->steps[step - 1], step, c, kind, id);
	if (rc == 0 && run != NULL && ls->steps[step - 1].kind == LAB_STEP_EMIT)
		corr = emit_correct(ctx, &ls->steps[step - 1], step, run, &why);
	else if (rc == 0 && run != NULL)
		corr = run_correct(ls, step, run, &why);
	if (rc == 0)
		tries = counting_tries(c, &ls->steps[step - 1], kind, id);
	content_free(c);
	lab_script_free(ls);
	if (rc != 0)
		return rc;
	if (corr == -1)
		return 2;
	memset(&r, 0, sizeof r);
	pl_err_clear(&err);
	if (labdir_whoami(r.user, sizeof r.user) != 0) {
		pl_err_set(&err, NULL, 0, 0, "%s", _("cannot tell who you are"));
		return lab_err_out(&err);
	}
	if (strlen(ctx->profile) >= sizeof r.profile) {
		pl_err_set(&err, NULL, 0, 0, _("a profile name of at most %zu "
		    "bytes is needed in a lab"), sizeof r.profile - 1);
		return lab_err_out(&err);
	}
	snprintf(r.profile, sizeof r.profile, "%s", ctx->profile);
	snprintf(r.session, sizeof r.session, "%s", st.session);
	/* A refused run is a wrong answer, with the reason for the
	 * instructor: the file, not the student's path, is what it names. */
	if (corr == -2) {
		err = why;
		err.file[0] = '\0';
		pl_err_format(&err, reason, sizeof reason);
		pl_err_clear(&err);
	}
	/* Read, add and write under the student's lock: two terminals of
	 * one student never lose each other's answers. */
	rc = labdir_submit_answer(argv[optind], &r, (int)step - 1, kind, id,
	    corr > 0, tries, corr == -2 ? reason : NULL, (int64_t)time(NULL),
	    &err);
	lab_result_free(&r);
	if (rc != 0)
		return lab_err_out(&err);
	return corr == -2 ? lab_err_out(&why) : 0;
}
