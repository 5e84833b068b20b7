/*
 * check_sim_keys.c - the simulator's table of settings (core/sim/sim_keys.c)
 * against everything made from it or kept beside it: the mode and
 * schedule tables and the word lists of messages, trace's and run's
 * options (one parser: the same options make the same run), the ranges,
 * an animation block's keys, the player's knobs, shell completion and
 * the man page.
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/course/animation.h"
#include "core/json.h"
#include "core/pipeline.h"
#include "core/sim/sim_keys.h"
#include "core/sim/sim_knob.h"
#include "run/run_opts.h"
#include "capture.h"

static struct cli_ctx ctx = { .db_path = "/nonexistent/progress.db",
	.profile = "t" };

static const unsigned cmds[] = { SIM_FOR_TRACE, SIM_FOR_RUN };

static const struct sim_key *
key(const char *name)
{
	const struct sim_key *k = sim_key_find(name);

	ck_assert_msg(k != NULL, "no row %s", name);
	return k;
}

/* The int or string field of req that row k sets. */
static int
int_field(const struct sim_request *req, const struct sim_key *k)
{
	return *(const int *)(const void *)((const char *)req + k->off);
}

static const char *
word_field(const struct sim_request *req, const struct sim_key *k)
{
	return *(const char *const *)(const void *)((const char *)req +
	    k->off);
}

/* The getopt val of k's option for cmd, from sim_opts_longopts. */
static int
opt_val(unsigned cmd, const struct sim_key *k)
{
	struct option o[SIM_NKEYS_MAX];
	size_t n = sim_opts_longopts(cmd, o), i;

	for (i = 0; i < n; i++)
		if (strcmp(o[i].name, sim_key_option(k, cmd)) == 0)
			return o[i].val;
	ck_abort_msg("%s has no option %s", k->key, sim_key_option(k, cmd));
	return 0;
}

/* Every mode of sim.c's table and schedule of pipeline.c's is a word of
 * its row, in order, and the list messages print names them all. */
START_TEST(words_are_the_tables)
{
	const struct sim_key *m = key("mode"), *s = key("schedule");
	struct sim_request req;
	struct sim_config cfg;
	struct pl_err err;
	enum sim_mode mode;
	enum pipe_schedule sched;
	char buf[256];
	int i;

	for (i = 0; i < SIM_NMODES; i++) {
		ck_assert_str_eq(m->word(i), sim_mode_name((enum sim_mode)i));
		ck_assert_int_eq(sim_key_word_index(m, m->word(i)), i);
		ck_assert_int_eq(sim_mode_parse(m->word(i), &mode), 0);
		ck_assert_int_eq(mode, i);
		ck_assert_ptr_nonnull(strstr(sim_key_words(m, NULL, buf,
		    sizeof buf), m->word(i)));
	}
	ck_assert_ptr_null(m->word(SIM_NMODES));
	for (i = 0; i < PIPE_N_SCHEDULES; i++) {
		ck_assert_str_eq(s->word(i), pipe_schedule_names[i]);
		ck_assert_int_eq(pipe_schedule_parse(s->word(i), &sched), 0);
		ck_assert_int_eq(sched, i);
	}
	ck_assert_ptr_null(s->word(PIPE_N_SCHEDULES));
	ck_assert_int_eq(sim_key_word_index(m, "zz"), -1);
	ck_assert_str_eq(sim_key_words(m, NULL, buf, sizeof buf),
	    "single, dp, tp, pp, fsdp, 3d, cp or ep");
	ck_assert_str_eq(sim_key_words(s, "|", buf, sizeof buf),
	    "gpipe|1f1b|interleaved|zb-h1|dualpipe");
	/* The builder's refusals list them. */
	memset(&req, 0, sizeof req);
	req.mode = "zz";
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_str_eq(err.msg, "unknown mode 'zz' (single, dp, tp, pp, "
	    "fsdp, 3d, cp or ep)");
	req.mode = NULL;
	req.schedule = "zz";
	ck_assert_int_eq(sim_config_build(&req, &cfg, &err), -1);
	ck_assert_str_eq(err.msg, "unknown schedule 'zz' (gpipe, 1f1b, "
	    "interleaved, zb-h1 or dualpipe)");
}
END_TEST

/* Every option of every command sets the field its row names, and only
 * that one. */
START_TEST(every_option_sets_its_field)
{
	const struct sim_key *k, *o;
	struct sim_request req, none;
	struct pl_err err;
	size_t c;
	int n = 0;

	memset(&none, 0, sizeof none);
	for (c = 0; c < 2; c++)
		for (k = sim_keys(); k->key != NULL; k++) {
			if (!(k->uses & cmds[c]))
				continue;
			memset(&req, 0, sizeof req);
			ck_assert_int_eq(sim_opts_take(cmds[c], opt_val(cmds[c],
			    k), k->kind == SIM_KEY_WORD ? k->word(1) : "3",
			    &req, &err), 1);
			if (k->kind == SIM_KEY_WORD)
				ck_assert_str_eq(word_field(&req, k),
				    k->word(1));
			else
				ck_assert_int_eq(int_field(&req, k),
				    k->kind == SIM_KEY_COUNT ? 3 : 1);
			/* The other rows' fields are untouched. */
			for (o = sim_keys(); o->key != NULL; o++)
				if (o != k && o->kind == SIM_KEY_WORD)
					ck_assert_ptr_null(word_field(&req, o));
				else if (o != k)
					ck_assert_int_eq(int_field(&req, o), 0);
			n++;
		}
	ck_assert_int_eq(n, 29);
	/* A val that is no setting's is left to the command. */
	ck_assert_int_eq(sim_opts_take(SIM_FOR_TRACE, 'j', NULL, &req, &err),
	    0);
	ck_assert_int_eq(sim_opts_take(SIM_FOR_RUN, opt_val(SIM_FOR_TRACE,
	    key("compute_only")), NULL, &req, &err), 0);
	/* Each key once, each option of a command once. */
	for (k = sim_keys(); k->key != NULL; k++)
		for (o = k + 1; o->key != NULL; o++) {
			ck_assert_str_ne(k->key, o->key);
			for (c = 0; c < 2; c++)
				ck_assert(!((k->uses & o->uses & cmds[c]) &&
				    strcmp(sim_key_option(k, cmds[c]),
				    sim_key_option(o, cmds[c])) == 0));
		}
	ck_assert_str_eq(sim_key_option(key("gpus"), SIM_FOR_RUN), "np");
	ck_assert_ptr_eq(sim_key_by_option(SIM_FOR_RUN, "--np"), key("gpus"));
	ck_assert_ptr_null(sim_key_by_option(SIM_FOR_TRACE, "--np"));
}
END_TEST

/* A count out of range is refused naming the option (as the command
 * spells it) or the block's key. */
START_TEST(ranges_name_the_option)
{
	static const char *const bad[] = { "0", "-1", "4x", "",
	    "2147483648", NULL };
	char want[128], json[64];
	const struct sim_key *k;
	struct sim_request req;
	struct pl_err err;
	cJSON *o;
	size_t c, i;

	for (k = sim_keys(); k->key != NULL; k++) {
		if (k->kind != SIM_KEY_COUNT)
			continue;
		for (c = 0; c < 2; c++)
			for (i = 0; bad[i] != NULL; i++) {
				memset(&req, 0, sizeof req);
				ck_assert_int_eq(sim_opts_take(cmds[c],
				    opt_val(cmds[c], k), bad[i], &req, &err),
				    -1);
				snprintf(want, sizeof want, "--%s: '%s' is not "
				    "a whole number from 1 to %d",
				    sim_key_option(k, cmds[c]), bad[i],
				    INT_MAX);
				ck_assert_str_eq(err.msg, want);
				ck_assert_int_eq(int_field(&req, k), 0);
			}
		ck_assert_int_eq(sim_opts_take(SIM_FOR_TRACE, opt_val(
		    SIM_FOR_TRACE, k), "2147483647", &req, &err), 1);
		ck_assert_int_eq(int_field(&req, k), INT_MAX);
		/* A block: 1 to block_hi. */
		for (i = 0; i < 3; i++) {
			long v = i == 0 ? 0 : i == 1 ? k->block_hi :
			    k->block_hi + 1;

			snprintf(json, sizeof json, "{\"%s\": %ld}", k->key, v);
			o = cJSON_Parse(json);
			memset(&req, 0, sizeof req);
			ck_assert_int_eq(sim_key_from_json(k, o, &req, "f",
			    "blocks[1]", &err), i == 1 ? 0 : -1);
			if (i == 1)
				ck_assert_int_eq(int_field(&req, k), v);
			else {
				snprintf(want, sizeof want, "blocks[1].%s",
				    k->key);
				ck_assert_str_eq(err.path, want);
				snprintf(want, sizeof want, "must be between 1 "
				    "and %ld", k->block_hi);
				ck_assert_str_eq(err.msg, want);
			}
			cJSON_Delete(o);
		}
	}
}
END_TEST

/* argv for cmd: each row's option of pairs (key, value; value NULL for a
 * flag), as cmd spells it. */
static int
make_argv(unsigned cmd, const char *const *pairs, char **argv)
{
	static char names[2][16][40];
	int n = 0, i;

	argv[n++] = cmd == SIM_FOR_TRACE ? "trace" : "run";
	for (i = 0; pairs[i] != NULL; i += 2) {
		snprintf(names[cmd == SIM_FOR_RUN][i / 2], 40, "--%s",
		    sim_key_option(key(pairs[i]), cmd));
		argv[n++] = names[cmd == SIM_FOR_RUN][i / 2];
		if (pairs[i + 1] != NULL)
			argv[n++] = (char *)pairs[i + 1];
	}
	if (cmd == SIM_FOR_TRACE)
		argv[n++] = "--json";
	argv[n] = NULL;
	return n;
}

/* The config's value of row k as its member of trace's JSON has it. */
static void
same_member(const cJSON *root, const struct sim_key *k,
    const struct sim_config *cfg)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, k->json);
	int want;

	/* the MoE variant's members are there only when it runs */
	if (strstr(" moe top_k shared_expert router_bias ep ", k->json) !=
	    NULL && strlen(k->json) > 1 && cfg->moe.experts == 0) {
		ck_assert_ptr_null(v);
		return;
	}
	ck_assert_msg(v != NULL, "trace --json has no %s", k->json);
	if (strcmp(k->key, "mode") == 0) {
		ck_assert_str_eq(v->valuestring, sim_mode_name(cfg->mode));
		return;
	}
	if (strcmp(k->key, "schedule") == 0) {
		ck_assert_str_eq(v->valuestring,
		    pipe_schedule_name(cfg->schedule));
		return;
	}
	/* the JSON's tp is the layout's degree: cp's --tp, tp's GPUs */
	if (strcmp(k->key, "pp") == 0) {	/* the layout's PP degree */
		want = cfg->mode == SIM_PP ? cfg->gpus : cfg->mode == SIM_3D ?
		    2 : cfg->pp > 1 ? cfg->pp : 1;
		ck_assert_int_eq(v->valueint, want);
		return;
	}
	want = strcmp(k->key, "moe") == 0 ? cfg->moe.experts :
	    strcmp(k->key, "top_k") == 0 ? cfg->moe.top_k :
	    strcmp(k->key, "shared_expert") == 0 ? cfg->moe.shared :
	    strcmp(k->key, "router_bias") == 0 ? cfg->moe.router_bias :
	    strcmp(k->key, "ep") == 0 ? (cfg->mode != SIM_EP ? 1 :
	    cfg->ep > 0 ? cfg->ep : cfg->gpus / (cfg->pp > 1 ? cfg->pp : 1)) :
	    strcmp(k->key, "tp") == 0 ? (cfg->mode == SIM_CP ?
	    (cfg->tp > 1 ? cfg->tp : 1) : cfg->mode == SIM_TP ? cfg->gpus :
	    cfg->mode == SIM_3D ? 2 : 1) :
	    strcmp(k->key, "gpus") == 0 ? cfg->gpus :
	    strcmp(k->key, "microbatches") == 0 ? cfg->microbatches :
	    strcmp(k->key, "virtual_stages") == 0 ? cfg->vstages :
	    strcmp(k->key, "sequence_parallel") == 0 ? cfg->seq_parallel :
	    strcmp(k->key, "no_overlap") == 0 ? !cfg->overlap :
	    cfg->compute_only;
	if (k->json_negated)
		want = !want;
	ck_assert_msg(cJSON_IsNumber(v) ? v->valueint == want :
	    cJSON_IsTrue(v) == want, "%s: trace and run differ", k->key);
}

/*
 * trace's and run's parsers take the same settings to the same run:
 * trace --json's settings are the config run makes of the same options.
 */
START_TEST(trace_and_run_agree)
{
	static const char *const cases[][20] = {
		{ "mode", "pp", "gpus", "2", "microbatches", "4", "schedule",
		    "interleaved", "virtual_stages", "2", NULL },
		{ "mode", "tp", "gpus", "4", "sequence_parallel", NULL, NULL },
		{ "mode", "dp", "gpus", "2", "no_overlap", NULL,
		    "microbatches", "2", NULL },
		{ "mode", "fsdp", "gpus", "4", "no_overlap", NULL, NULL },
		{ "mode", "3d", "microbatches", "4", "schedule", "gpipe",
		    "sequence_parallel", NULL, NULL },
		{ "schedule", "gpipe", NULL },
		{ "mode", "cp", "gpus", "8", "tp", "2", NULL },
		{ "mode", "ep", "gpus", "8", "pp", "2", "ep", "2", "moe", "4",
		    "top_k", "1", "shared_expert", NULL, "router_bias", "2",
		    NULL },
		{ "mode", "dp", "gpus", "2", "moe", "4", NULL },
	};
	const struct sim_key *k;
	struct sim_config cfg;
	struct run_opts ro;
	struct pl_err err;
	struct capture c;
	char *argv[24];
	cJSON *root;
	size_t i;
	int argc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		argc = make_argv(SIM_FOR_RUN, cases[i], argv);
		ck_assert_int_eq(run_opts_parse(argc, argv, &ro, 1), 0);
		ck_assert_int_eq(run_opts_config(&ro, ro.np, &cfg, &err), 0);
		argc = make_argv(SIM_FOR_TRACE, cases[i], argv);
		capture_run(cli_trace_main, &ctx, argc, argv, &c);
		ck_assert_msg(c.rc == 0, "trace: %s", c.err);
		root = cJSON_Parse(c.out);
		ck_assert_ptr_nonnull(root);
		for (k = sim_keys(); k->key != NULL; k++)
			if (k->uses & SIM_FOR_RUN)
				same_member(root, k, &cfg);
		cJSON_Delete(root);
		capture_free(&c);
	}
}
END_TEST

/* A block takes the table's keys and no other; its errors list them. */
START_TEST(block_keys)
{
	const struct sim_key *k;
	char buf[256];

	for (k = sim_keys(); k->key != NULL; k++)
		ck_assert_int_eq(animation_key_known(k->key),
		    (k->uses & SIM_FOR_BLOCK) != 0);
	ck_assert(!animation_key_known("caption"));
	ck_assert(!animation_key_known("virtual-stages"));
	ck_assert_str_eq(sim_keys_names(SIM_FOR_BLOCK, buf, sizeof buf),
	    "mode, gpus, microbatches, schedule, virtual_stages, tp, moe, "
	    "top_k, shared_expert, router_bias, ep, pp, sequence_parallel, "
	    "no_overlap, compute_only");
	ck_assert(key("mode")->uses & SIM_BLOCK_NEEDS);
}
END_TEST

/* Each knob of the player is one row's, with keys no other row has. */
START_TEST(knobs)
{
	const struct sim_key *k, *o;
	struct sim_config cfg;
	char buf[64];
	int knob;

	for (knob = SIM_KNOB_MODE; knob <= SIM_KNOB_COMPUTE_ONLY; knob++) {
		k = sim_key_of_knob(knob);
		ck_assert_msg(k != NULL, "knob %d has no row", knob);
		ck_assert(k->knob_keys != NULL || knob == SIM_KNOB_MODE);
		ck_assert(k->knob_keys == NULL || k->knob_help != NULL);
		for (o = sim_keys(); o->key != NULL; o++)
			ck_assert(o == k || o->knob_keys == NULL ||
			    k->knob_keys == NULL ||
			    strpbrk(o->knob_keys, k->knob_keys) == NULL);
	}
	sim_config_default(&cfg, SIM_PP, 4);
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_GPUS, buf, sizeof buf),
	    "4 GPUs");
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_MICROBATCHES, buf,
	    sizeof buf), "8 mb");
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_OVERLAP, buf,
	    sizeof buf), "overlap on");
}
END_TEST

/* `parlearn complete WORDS...`'s candidates, one a line. */
static char *
complete(const char *w1, const char *w2, const char *w3)
{
	char *argv[] = { "complete", "--", (char *)w1, (char *)w2, (char *)w3,
	    NULL };
	struct capture c;
	char *out;

	capture_run(cli_complete_main, &ctx, w3 != NULL ? 5 : 4, argv, &c);
	ck_assert_int_eq(c.rc, 0);
	out = c.out;
	c.out = NULL;
	capture_free(&c);
	return out;
}

/* Completion offers each command's options of the table, and a WORD
 * option's words, exactly. */
START_TEST(completion)
{
	const struct sim_key *k;
	char want[512], line[64], *got;
	size_t c;
	int i;

	for (c = 0; c < 2; c++) {
		const char *cmd = cmds[c] == SIM_FOR_TRACE ? "trace" : "run";

		got = complete(cmd, "--", NULL);
		for (k = sim_keys(); k->key != NULL; k++) {
			snprintf(line, sizeof line, "\n--%s\n",
			    sim_key_option(k, cmds[c]));
			snprintf(want, sizeof want, "\n%s", got);
			ck_assert_msg((strstr(want, line) != NULL) ==
			    ((k->uses & cmds[c]) != 0), "%s: --%s", cmd,
			    sim_key_option(k, cmds[c]));
		}
		free(got);
		for (k = sim_keys(); k->key != NULL; k++) {
			if (k->kind != SIM_KEY_WORD || !(k->uses & cmds[c]))
				continue;
			snprintf(line, sizeof line, "--%s",
			    sim_key_option(k, cmds[c]));
			got = complete(cmd, line, "");
			want[0] = '\0';
			for (i = 0; k->word(i) != NULL; i++) {
				strcat(want, k->word(i));
				strcat(want, "\n");
			}
			ck_assert_str_eq(got, want);
			free(got);
		}
	}
}
END_TEST

/* The man page's section of cmd, from its .SS line to the next. */
static char *
man_section(const char *man, const char *cmd)
{
	char head[32];
	const char *s, *e;

	snprintf(head, sizeof head, "\n.SS \"%s ", cmd);
	s = strstr(man, head);
	ck_assert_msg(s != NULL, "the man page has no section %s", cmd);
	e = strstr(s + 1, "\n.SS ");
	ck_assert_ptr_nonnull(e);
	return strndup(s, (size_t)(e - s));
}

/* "\-\-virtual\-stages" at s as "virtual-stages"; the bytes read. */
static size_t
man_option(const char *s, char *out, size_t size)
{
	size_t i = 0, n = 0;

	ck_assert(strncmp(s, "\\-\\-", 4) == 0);
	for (i = 4; (s[i] >= 'a' && s[i] <= 'z') || strncmp(s + i, "\\-",
	    2) == 0; i++) {
		if (s[i] == '\\')
			i++;
		if (n + 1 < size)
			out[n++] = s[i];
	}
	out[n] = '\0';
	return i;
}

/*
 * The man page's trace section has an entry for each of trace's
 * settings, with the table's placeholder, and a WORD's entry lists its
 * words; run's section names the settings it shares with trace.
 */
START_TEST(man_page)
{
	struct pl_err err;
	char *man = pl_read_file(TOP_SRCDIR "/doc/parlearn.1", NULL, &err);
	char *sec, *p, name[48], words[128];
	const struct sim_key *k;
	size_t n = 0, rows = 0;

	ck_assert_ptr_nonnull(man);
	sec = man_section(man, "trace");
	for (p = strstr(sec, "\n.TP\n."); p != NULL;
	    p = strstr(p + 1, "\n.TP\n.")) {
		p += 5;
		p += strcspn(p, " ") + 1;
		p += man_option(p, name, sizeof name);
		n++;
		if (strcmp(name, "json") == 0 || strcmp(name, "from") == 0 ||
		    strcmp(name, "against") == 0 ||
		    strcmp(name, "dump-weights") == 0)
			continue;
		k = sim_key_by_option(SIM_FOR_TRACE, name);
		ck_assert_msg(k != NULL, "the man page's trace has --%s, the "
		    "table does not", name);
		if (k->arg != NULL) {
			snprintf(words, sizeof words, " \" %s\"\n", k->arg);
			ck_assert_msg(strncmp(p, words, strlen(words)) == 0,
			    "man: --%s takes %s", name, k->arg);
			p += strlen(words);
		} else
			ck_assert_msg(*p == '\n', "man: --%s takes nothing",
			    name);
		if (k->kind == SIM_KEY_WORD) {
			sim_key_words(k, NULL, words, sizeof words);
			ck_assert_msg(strncmp(p, words, strlen(words)) == 0,
			    "man: --%s should list %s", name, words);
		}
	}
	for (k = sim_keys(); k->key != NULL; k++)
		rows += (k->uses & SIM_FOR_TRACE) != 0;
	ck_assert_uint_eq(n, rows + 4);	/* json, from, against, dump-weights */
	free(sec);
	/* run: "The options that shape the step (--mode, ...) are trace's" */
	sec = man_section(man, "run");
	p = strstr(sec, "The options that shape the step");
	ck_assert_ptr_nonnull(p);
	n = 0;
	while ((p = strstr(p, "\\-\\-")) != NULL && p < strstr(sec,
	    "\n.BR trace 's.")) {
		p += man_option(p, name, sizeof name);
		k = sim_key_by_option(SIM_FOR_RUN, name);
		ck_assert_msg(k != NULL && (k->uses & SIM_FOR_TRACE) &&
		    k->run_option == NULL, "man: run's --%s is not trace's",
		    name);
		n++;
	}
	for (rows = 0, k = sim_keys(); k->key != NULL; k++)
		rows += (k->uses & SIM_FOR_RUN) && (k->uses & SIM_FOR_TRACE) &&
		    k->run_option == NULL;
	ck_assert_uint_eq(n, rows);
	ck_assert_ptr_nonnull(strstr(sec, "\\-\\-np"));
	free(sec);
	free(man);
}
END_TEST

static Suite *
sim_keys_suite(void)
{
	Suite *s = suite_create("sim_keys");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, words_are_the_tables);
	tcase_add_test(tc, every_option_sets_its_field);
	tcase_add_test(tc, ranges_name_the_option);
	tcase_add_test(tc, block_keys);
	tcase_add_test(tc, knobs);
	suite_add_tcase(s, tc);
	tc = tcase_create("made from it");
	tcase_add_test(tc, trace_and_run_agree);
	tcase_add_test(tc, completion);
	tcase_add_test(tc, man_page);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sim_keys_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
