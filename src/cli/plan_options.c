/*
 * plan_options.c - `parlearn plan`'s command line: the engine's keys as
 * long options, its usage text, and the options gathered into one engine
 * configuration object (cli_plan_options, cli.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "cli/plan_emit.h"
#include "cli/usage.h"
#include "core/engine/costmodel.h"
#include "core/wrap.h"

/*
 * plan's options are the engine's keys (cm_keys(): --name with '-' for
 * '_', and --no-name for a BOOL key) plus its output options (--json,
 * --emit, -o, --row: plan_emit.h). The option values are gathered into one
 * engine configuration object and given to the same builder the lessons
 * use, cm_config_from_json.
 */
#define PLAN_MAX_OPTS	128
#define PLAN_NAME_LEN	48

enum { O_JSON = 1, O_EMIT, O_ROW, O_KEY = 256, O_NO = 1024 };

struct plan_optv {
	struct option	opt[PLAN_MAX_OPTS];
	char		name[PLAN_MAX_OPTS][PLAN_NAME_LEN];
};

/* The option spelling of a key: "--" not included, '-' for '_'. */
void
cli_plan_opt_name(const char *key, int neg, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s%s", neg ? "no-" : "", key);
	for (i = 0; buf[i] != '\0'; i++)
		if (buf[i] == '_')
			buf[i] = '-';
}

static void
add_opt(struct plan_optv *v, int *n, const char *key, int neg, int has_arg,
    int val)
{
	cli_plan_opt_name(key, neg, v->name[*n], sizeof v->name[*n]);
	v->opt[*n] = (struct option){ v->name[*n], has_arg, NULL, val };
	(*n)++;
}

/* getopt's table from the key table. */
static void
make_longopts(struct plan_optv *v)
{
	const struct cm_key *k = cm_keys();
	int i, n = 0;

	for (i = 0; k[i].name != NULL && n + 7 < PLAN_MAX_OPTS; i++) {
		add_opt(v, &n, k[i].name, 0, k[i].kind == CM_KEY_BOOL ?
		    no_argument : required_argument, O_KEY + i);
		if (k[i].kind == CM_KEY_BOOL)
			add_opt(v, &n, k[i].name, 1, no_argument, O_NO + i);
	}
	add_opt(v, &n, "json", 0, no_argument, O_JSON);
	add_opt(v, &n, "emit", 0, required_argument, O_EMIT);
	add_opt(v, &n, "output", 0, required_argument, 'o');
	add_opt(v, &n, "row", 0, required_argument, O_ROW);
	add_opt(v, &n, "help", 0, no_argument, 'h');
	v->opt[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* "--name ARG" of a key, as --help shows it. */
static void
key_synopsis(const struct cm_key *k, char *buf, size_t size)
{
	char name[PLAN_NAME_LEN], neg[PLAN_NAME_LEN];
	size_t len;
	int i;

	cli_plan_opt_name(k->name, 0, name, sizeof name);
	if (k->kind == CM_KEY_BOOL) {
		cli_plan_opt_name(k->name, 1, neg, sizeof neg);
		snprintf(buf, size, "--%s, --%s", name, neg);
		return;
	}
	snprintf(buf, size, "--%s %s", name, k->arg != NULL ? k->arg : "");
	if (k->kind == CM_KEY_WORD && k->words == mesh_order_names()) {
		/* 24 orders: named in the help line, completed one by one */
		snprintf(buf, size, "--%s ORDER", name);
		return;
	}
	if (k->kind != CM_KEY_WORD)
		return;
	for (i = 0; k->words[i] != NULL; i++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%s", i ? "|" : "",
		    k->words[i]);
	}
}

static void
usage_line(FILE *fp, const char *synopsis, const char *help)
{
	wrap_option(fp, synopsis, 26, 1, help);
}

static void
usage(FILE *fp)
{
	const struct cm_key *k;
	char syn[256];
	int g;

	fprintf(fp, "%s", _("Usage: parlearn plan [OPTION]...\n"
	    "Estimate memory and step time of a training layout over the\n"
	    "parallel axes (their degrees are under Layout); without every\n"
	    "degree, rank every valid layout that\n"
	    "fits with --headroom free and a framework runs (ties within 3 %\n"
	    "marked =); the search keeps the micro-batch, schedule, ZeRO,\n"
	    "FSDP, recompute and SP options you give and varies the rest.\n"
	    "Each option is a key of a lesson's engine configuration, with\n"
	    "'_' for '-' (lessons/README.md).\n"));
	for (g = 0; g < CM_N_GROUPS; g++) {
		fprintf(fp, "\n%s:\n", cm_key_group_name((enum cm_key_group)g));
		for (k = cm_keys(); k->name != NULL; k++) {
			if ((int)k->group != g)
				continue;
			key_synopsis(k, syn, sizeof syn);
			usage_line(fp, syn, _(k->help));
		}
	}
	fprintf(fp, "\n%s:\n", _("Output"));
	usage_line(fp, "--json", _("machine-readable result"));
	plan_emit_usage(fp);
	usage_line(fp, "-h, --help", _("show this help"));
	fprintf(fp, _("\nWithout --gpu the GPU is %s.\n"), CM_DEFAULT_GPU);
}

/* One option's value as the JSON value of its key, or NULL (printed). */
static cJSON *
opt_value(const struct cm_key *k, int neg, const char *arg)
{
	char name[PLAN_NAME_LEN];
	cJSON *v;

	switch (k->kind) {
	case CM_KEY_BOOL:
		return cJSON_CreateBool(!neg);
	case CM_KEY_INT:
	case CM_KEY_NUMBER:
		/* JSON's number syntax: the same in every locale. */
		v = cJSON_ParseWithOpts(arg, NULL, 1);
		if (cJSON_IsNumber(v))
			return v;
		cJSON_Delete(v);
		cli_plan_opt_name(k->name, 0, name, sizeof name);
		cli_usage_error(_("--%s: invalid number '%s'"), name, arg);
		return NULL;
	default:
		return cJSON_CreateString(arg);
	}
}

cJSON *
cli_plan_options(int argc, char **argv, struct plan_args *a, int *rc)
{
	struct plan_optv *v = malloc(sizeof *v);
	const struct cm_key *k;
	cJSON *cfg = cJSON_CreateObject(), *val;
	int ch;

	*a = (struct plan_args){ 0, NULL, NULL, 0 };
	*rc = 2;
	if (v == NULL || cfg == NULL)
		goto fail;
	make_longopts(v);
	*rc = 1;
	optind = 0;
	while ((ch = cli_getopt(argc, argv, "+ho:", v->opt)) != -1) {
		if (ch == O_JSON) {
			a->json = 1;
			continue;
		}
		if (ch == O_EMIT || ch == 'o' || ch == O_ROW) {
			if (plan_emit_option(ch == O_ROW ? 'r' : ch == 'o' ?
			    'o' : 'e', optarg, a) != 0)
				goto fail;
			continue;
		}
		if (ch == 'h') {
			usage(stdout);
			*rc = 0;
			goto fail;
		}
		if (ch < O_KEY)
			goto fail;
		k = &cm_keys()[ch >= O_NO ? ch - O_NO : ch - O_KEY];
		if ((val = opt_value(k, ch >= O_NO, optarg)) == NULL)
			goto fail;
		cJSON_DeleteItemFromObjectCaseSensitive(cfg, k->name);
		cJSON_AddItemToObject(cfg, k->name, val);
	}
	if (optind < argc) {
		cli_extra_argument(argv[optind]);
		goto fail;
	}
	if (plan_emit_check(a) != 0)
		goto fail;
	free(v);
	return cfg;
fail:
	free(v);
	cJSON_Delete(cfg);
	return NULL;
}
