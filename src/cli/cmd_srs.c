/*
 * cmd_srs.c - `parlearn srs replay`: show how FSRS schedules one card.
 *
 * A new card is reviewed with each given rating in turn, either on its due
 * date or a given number of days after the previous review, and each step
 * (state, interval, stability, difficulty, due date) is printed as a table
 * or as JSON. It calls the same core/fsrs functions as the review screen,
 * so an instructor can check a schedule, or compare it with the reference
 * implementations' vectors (reference/srs.md §2), from a script.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/jsonout.h"
#include "cli/usage.h"
#include "core/number.h"
#include "core/srs/fsrs.h"

#define SRS_MAX_LIST	10000	/* most ratings (or weights) in one list */

struct srs_opts {
	struct fsrs_params	 p;
	int			*ratings;	/* FSRS grades 1..4 */
	size_t			 n_ratings;
	double			*elapsed;	/* days, one per rating, or NULL */
	size_t			 n_elapsed;
	int64_t			 start;		/* first review, Unix seconds */
	int64_t			 card_id;	/* seeds the fuzz */
	int			 json;
};

/* One review as printed. */
struct srs_row {
	int64_t		 now;		/* review time, Unix seconds */
	double		 r;		/* retrievability before, or -1 */
	struct fsrs_card card;		/* after the review */
	struct fsrs_log	 log;
};

/* Display names of ratings and states, translated where printed. */
static const char *const rating_label[] = {
	N_("again"), N_("hard"), N_("good"), N_("easy")
};
static const char *const state_label[] = {
	N_("new"), N_("learning"), N_("review"), N_("relearning")
};

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn srs replay --ratings LIST [OPTION]...\n"
	    "Review one new card with each rating in turn and show how FSRS-6\n"
	    "schedules it. Each review happens when the card is due, unless\n"
	    "--elapsed-days says otherwise.\n"
	    "\n"
	    "  --ratings LIST           again,hard,good,easy or 1-4, comma-separated\n"
	    "  --elapsed-days LIST      days before each review (since the previous\n"
	    "                           one, or since --start for the first); 0 is\n"
	    "                           the same moment, 0.5 half a day\n"
	    "  --start TIME             first review, UTC: 2024-01-01 or\n"
	    "                           2024-01-01T09:30:00Z (default: now)\n"
	    "  --retention R            desired retention, 0.70 to 0.97 (default 0.9)\n"
	    "  --params LIST            17, 19 or 21 FSRS weights, comma-separated\n"
	    "  --learning-steps LIST    e.g. 1m,10m (default); \"\" for none;\n"
	    "                           units s, m, h, d; a bare number is minutes\n"
	    "  --relearning-steps LIST  default 10m; \"\" for none\n"
	    "  --max-interval DAYS      longest interval (default 36500)\n"
	    "  --no-fuzz                do not spread review intervals\n"
	    "  --card-id N              card id that seeds the fuzz (default 1)\n"
	    "  --json                   print the steps as JSON (schema\n"
	    "                           parlearn.srs-replay/1) instead of a table\n"
	    "  -h, --help               show this help\n"));
}

static int
bad(const char *opt, const char *what)
{
	return cli_usage_error("%s: %s", opt, what);
}

/* Cut spaces off both ends of s, in place. */
static char *
trim(char *s)
{
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
	return s;
}

/* A comma-separated option argument, split into trimmed fields. */
struct srs_list {
	char	 *buf;		/* copy of the argument, owned */
	char	**f;		/* the fields, pointing into buf */
	long	  n;		/* how many; 0 if empty, -1 if over the maximum */
};

/* Split arg into at most max fields. 0, or -1 when out of memory. */
static int
list_split(const char *arg, size_t max, struct srs_list *l)
{
	char *p, *comma;

	l->n = 0;
	l->buf = strdup(arg);
	l->f = calloc(max, sizeof *l->f);
	if (l->buf == NULL || l->f == NULL)
		return -1;
	if (*trim(l->buf) == '\0')
		return 0;
	for (p = l->buf;; p = comma + 1) {
		if ((size_t)l->n == max) {
			l->n = -1;
			return 0;
		}
		if ((comma = strchr(p, ',')) != NULL)
			*comma = '\0';
		l->f[l->n++] = trim(p);
		if (comma == NULL)
			return 0;
	}
}

static void
list_free(struct srs_list *l)
{
	free(l->buf);
	free(l->f);
}

/* A whole field as a finite number, '.' in every locale. -1 if not. */
static int
parse_double(const char *s, double *out)
{
	return pl_parse_double(s, 0, out);
}

static int
parse_rating(const char *s, int *g)
{
	static const char *const names[] = { "again", "hard", "good", "easy" };
	int i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(s, names[i]) == 0 ||
		    (s[0] == '1' + i && s[1] == '\0')) {
			*g = i + 1;
			return 0;
		}
	}
	return -1;
}

static int
opt_ratings(struct srs_opts *o, const char *arg)
{
	struct srs_list l;
	int rc = 0;
	long i;

	free(o->ratings);
	o->n_ratings = 0;
	o->ratings = NULL;
	if (list_split(arg, SRS_MAX_LIST, &l) != 0 ||
	    (l.n > 0 && (o->ratings = calloc((size_t)l.n, sizeof *o->ratings))
	    == NULL))
		rc = bad("--ratings", _("out of memory"));
	else if (l.n <= 0)
		rc = bad("--ratings", l.n == 0 ? _("no ratings given") :
		    _("too many ratings"));
	for (i = 0; rc == 0 && i < l.n; i++) {
		if (parse_rating(l.f[i], &o->ratings[i]) != 0) {
			rc = cli_usage_error(_("--ratings: '%s' is not again, "
			    "hard, good, easy or 1-4"), l.f[i]);
		}
	}
	if (rc == 0)
		o->n_ratings = (size_t)l.n;
	list_free(&l);
	return rc;
}

static int
opt_elapsed(struct srs_opts *o, const char *arg)
{
	struct srs_list l;
	int rc = 0;
	long i;

	free(o->elapsed);
	o->n_elapsed = 0;
	o->elapsed = NULL;
	if (list_split(arg, SRS_MAX_LIST, &l) != 0 ||
	    (l.n > 0 && (o->elapsed = calloc((size_t)l.n, sizeof *o->elapsed))
	    == NULL))
		rc = bad("--elapsed-days", _("out of memory"));
	else if (l.n <= 0)
		rc = bad("--elapsed-days", _("expected a list of days"));
	for (i = 0; rc == 0 && i < l.n; i++) {
		if (parse_double(l.f[i], &o->elapsed[i]) != 0 ||
		    o->elapsed[i] < 0 || o->elapsed[i] > 1e6) {
			rc = cli_usage_error(_("--elapsed-days: '%s' is not a "
			    "number of days (0 or more)"), l.f[i]);
		}
	}
	if (rc == 0)
		o->n_elapsed = (size_t)l.n;
	list_free(&l);
	return rc;
}

static int
opt_params(struct srs_opts *o, const char *arg)
{
	double w[FSRS_N_PARAMS];
	struct pl_err err;
	struct srs_list l;
	int rc = 0;
	long i;

	if (list_split(arg, FSRS_N_PARAMS, &l) != 0)
		rc = bad("--params", _("out of memory"));
	else if (l.n < 0)
		rc = bad("--params", _("FSRS needs 17, 19 or 21 parameters"));
	for (i = 0; rc == 0 && i < l.n; i++) {
		if (parse_double(l.f[i], &w[i]) != 0) {
			rc = cli_usage_error(_("--params: '%s' is not a "
			    "number"), l.f[i]);
		}
	}
	if (rc == 0 && fsrs_params_set_weights(&o->p, w, (size_t)l.n, &err)
	    != 0)
		rc = bad("--params", err.msg);
	list_free(&l);
	return rc;
}

/* One step such as "10m", "1.5h", "2d"; a bare number is minutes (Anki). */
static int
parse_step(const char *s, int64_t *secs)
{
	char num[64];
	size_t n = strlen(s);
	double x, unit = 60;

	/* The unit letter, if any, then the number ('.' in every locale). */
	if (n > 0 && strchr("smhd", s[n - 1]) != NULL) {
		unit = s[n - 1] == 's' ? 1 : s[n - 1] == 'm' ? 60 :
		    s[n - 1] == 'h' ? 3600 : FSRS_DAY_S;
		n--;
	}
	if (n == 0 || n >= sizeof num)
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (pl_parse_double(num, 0, &x) != 0)
		return -1;
	x = round(x * unit);
	if (x < 1 || x > 3650.0 * FSRS_DAY_S)
		return -1;
	*secs = (int64_t)x;
	return 0;
}

static int
opt_steps(const char *opt, const char *arg, int64_t *steps, int *n_steps)
{
	struct srs_list l;
	int rc = 0;
	long i;

	if (list_split(arg, FSRS_MAX_STEPS, &l) != 0)
		rc = bad(opt, _("out of memory"));
	else if (l.n < 0) {
		rc = cli_usage_error(_("%s: at most %d steps"), opt,
		    FSRS_MAX_STEPS);
	}
	for (i = 0; rc == 0 && i < l.n; i++) {
		if (parse_step(l.f[i], &steps[i]) != 0) {
			rc = cli_usage_error(_("%s: '%s' is not a time such "
			    "as 30s, 10m, 1h or 1d"), opt, l.f[i]);
		}
	}
	if (rc == 0)
		*n_steps = (int)l.n;
	list_free(&l);
	return rc;
}

/* The forms of --start, each with its shape ('9' is any digit). */
static const struct {
	const char	*fmt;		/* for strptime */
	const char	*shape;
} time_forms[] = {
	{ "%Y-%m-%dT%H:%M:%S", "9999-99-99T99:99:99" },
	{ "%Y-%m-%d %H:%M:%S", "9999-99-99 99:99:99" },
	{ "%Y-%m-%dT%H:%M", "9999-99-99T99:99" },
	{ "%Y-%m-%d %H:%M", "9999-99-99 99:99" },
	{ "%Y-%m-%d", "9999-99-99" },
};

/* 1 if s starts with shape; strptime alone takes "2024-1-1" too. */
static int
has_shape(const char *s, const char *shape)
{
	for (; *shape != '\0'; s++, shape++)
		if (*shape == '9' ? *s < '0' || *s > '9' : *s != *shape)
			return 0;
	return 1;
}

/*
 * YYYY-MM-DD, optionally followed by T (or a space) and HH:MM[:SS], and
 * Z or +00:00. Always UTC. Returns 0 and the Unix time, or -1 for another
 * form, a date before 1970 or one that does not exist (2024-02-30).
 */
static int
parse_time(const char *s, int64_t *out)
{
	struct tm tm, norm;
	const char *end;
	time_t t;
	size_t i, n;

	for (i = 0; i < sizeof time_forms / sizeof time_forms[0]; i++) {
		n = strlen(time_forms[i].shape);
		if (has_shape(s, time_forms[i].shape) && (s[n] == '\0' ||
		    strcmp(s + n, "Z") == 0 || strcmp(s + n, "+00:00") == 0))
			break;
	}
	if (i == sizeof time_forms / sizeof time_forms[0])
		return -1;
	memset(&tm, 0, sizeof tm);
	end = strptime(s, time_forms[i].fmt, &tm);
	if (end != s + n || tm.tm_year < 70)
		return -1;
	/* timegm folds 2024-02-30 into March 1: refuse what moved. */
	norm = tm;
	t = timegm(&norm);
	if (t == (time_t)-1 || norm.tm_mday != tm.tm_mday ||
	    norm.tm_mon != tm.tm_mon || norm.tm_hour != tm.tm_hour ||
	    norm.tm_min != tm.tm_min || norm.tm_sec != tm.tm_sec)
		return -1;
	*out = (int64_t)t;
	return 0;
}

/* ISO 8601 UTC, "2024-01-03T00:00:00Z". */
static const char *
format_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, size, "?");
	return buf;
}

/* Handle one option other than the list ones. */
static int
opt_scalar(struct srs_opts *o, int ch, const char *arg)
{
	struct pl_err err;
	double r;
	long n;

	switch (ch) {
	case 'r':
		if (parse_double(arg, &r) != 0)
			return bad("--retention", _("not a number"));
		if (fsrs_params_set_retention(&o->p, r, &err) != 0)
			return bad("--retention", err.msg);
		return 0;
	case 'm':
		if (cli_whole_number("--max-interval", arg, 1, 36500, &n) != 0)
			return 1;
		o->p.maximum_interval = (int)n;
		return 0;
	case 'c':
		if (cli_whole_number("--card-id", arg, 0, 1000000000L, &n) != 0)
			return 1;
		o->card_id = n;
		return 0;
	case 's':
		if (parse_time(arg, &o->start) != 0)
			return bad("--start", _("expected a UTC time such as "
			    "2024-01-01 or 2024-01-01T09:30:00Z"));
		return 0;
	}
	return 1;
}

static int
parse_args(struct srs_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ratings", required_argument, NULL, 'R' },
		{ "elapsed-days", required_argument, NULL, 'e' },
		{ "start", required_argument, NULL, 's' },
		{ "retention", required_argument, NULL, 'r' },
		{ "params", required_argument, NULL, 'w' },
		{ "learning-steps", required_argument, NULL, 'l' },
		{ "relearning-steps", required_argument, NULL, 'L' },
		{ "max-interval", required_argument, NULL, 'm' },
		{ "no-fuzz", no_argument, NULL, 'n' },
		{ "card-id", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, rc = 0;

	optind = 0;
	while (rc == 0 && (ch = cli_getopt(argc, argv, "+h", opts)) != -1) {
		switch (ch) {
		case 'R':
			rc = opt_ratings(o, optarg);
			break;
		case 'e':
			rc = opt_elapsed(o, optarg);
			break;
		case 'w':
			rc = opt_params(o, optarg);
			break;
		case 'l':
			rc = opt_steps("--learning-steps", optarg,
			    o->p.learning_steps, &o->p.n_learning_steps);
			break;
		case 'L':
			rc = opt_steps("--relearning-steps", optarg,
			    o->p.relearning_steps, &o->p.n_relearning_steps);
			break;
		case 'n':
			o->p.enable_fuzz = 0;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'r': case 'm': case 'c': case 's':
			rc = opt_scalar(o, ch, optarg);
			break;
		default:
			return 1;
		}
	}
	if (rc != 0)
		return rc;
	if (optind < argc)
		return cli_extra_argument(argv[optind]);
	if (o->n_ratings == 0)
		return cli_usage_error("%s", _("--ratings is required"));
	if (o->elapsed != NULL && o->n_elapsed != o->n_ratings) {
		return cli_usage_error(_("--elapsed-days: expected one value "
		    "per rating (%zu), got %zu"), o->n_ratings, o->n_elapsed);
	}
	return 0;
}

/* Review the card once per rating; rows[i] receives each step. */
static void
replay(const struct srs_opts *o, struct srs_row *rows)
{
	struct fsrs_card c;
	int64_t now = o->start;
	size_t i;

	fsrs_card_new(&c, o->card_id, now);
	for (i = 0; i < o->n_ratings; i++) {
		if (o->elapsed != NULL)
			now = (i == 0 ? o->start : c.last_review) +
			    llround(o->elapsed[i] * FSRS_DAY_S);
		else
			now = c.due;
		rows[i].now = now;
		rows[i].r = c.state == FSRS_NEW ? -1 :
		    fsrs_retrievability(&o->p, &c, now);
		fsrs_review(&o->p, &c, (enum fsrs_rating)o->ratings[i], now,
		    &c, &rows[i].log);
		rows[i].card = c;
	}
}

static int
print_json(const struct srs_opts *o, const struct srs_row *rows)
{
	cJSON *root = cli_json_doc(CLI_SCHEMA("srs-replay")), *steps, *s;
	char buf[64], *out;
	size_t i;

	steps = cJSON_AddArrayToObject(root, "steps");
	for (i = 0; i < o->n_ratings; i++) {
		s = cJSON_CreateObject();
		cJSON_AddStringToObject(s, "rating",
		    fsrs_rating_name(rows[i].log.rating));
		cJSON_AddStringToObject(s, "reviewed",
		    format_time(rows[i].now, buf, sizeof buf));
		cJSON_AddNumberToObject(s, "elapsed_days",
		    rows[i].log.elapsed_days);
		if (rows[i].r < 0)
			cJSON_AddNullToObject(s, "retrievability");
		else
			cJSON_AddNumberToObject(s, "retrievability", rows[i].r);
		cJSON_AddStringToObject(s, "state",
		    fsrs_state_name(rows[i].card.state));
		cJSON_AddNumberToObject(s, "step", rows[i].card.step);
		cJSON_AddNumberToObject(s, "interval_days",
		    rows[i].log.scheduled_days);
		cJSON_AddNumberToObject(s, "interval_s",
		    (double)rows[i].log.scheduled_s);
		cJSON_AddNumberToObject(s, "stability_days",
		    rows[i].card.stability);
		cJSON_AddNumberToObject(s, "difficulty",
		    rows[i].card.difficulty);
		cJSON_AddStringToObject(s, "due",
		    format_time(rows[i].card.due, buf, sizeof buf));
		cJSON_AddItemToArray(steps, s);
	}
	out = cJSON_Print(root);
	cJSON_Delete(root);
	if (out == NULL)
		return 2;
	printf("%s\n", out);
	free(out);
	return 0;
}

static void
print_steps_line(const char *what, const int64_t *steps, int n)
{
	char buf[32];
	int i;

	printf("%s:", what);
	if (n == 0)
		printf(" %s", _("none"));
	for (i = 0; i < n; i++)
		printf(" %s", fsrs_format_interval(steps[i], buf, sizeof buf));
	printf("\n");
}

static void
print_text(const struct srs_opts *o, const struct srs_row *rows)
{
	char when[32], due[32], ivl[32], r[16];
	size_t i;

	printf(_("FSRS-6, desired retention %.2f, maximum interval %d days, "
	    "fuzz %s\n"), o->p.desired_retention, o->p.maximum_interval,
	    o->p.enable_fuzz ? _("on") : _("off"));
	print_steps_line(_("Learning steps"), o->p.learning_steps,
	    o->p.n_learning_steps);
	print_steps_line(_("Relearning steps"), o->p.relearning_steps,
	    o->p.n_relearning_steps);
	printf("\n%3s  %-6s  %-20s  %-7s %-10s  %8s  %9s  %10s  %s\n", "#",
	    _("rating"), _("reviewed (UTC)"), _("R"), _("state"),
	    _("interval"), _("stability"), _("difficulty"), _("due (UTC)"));
	for (i = 0; i < o->n_ratings; i++) {
		format_time(rows[i].now, when, sizeof when);
		format_time(rows[i].card.due, due, sizeof due);
		fsrs_format_interval(rows[i].log.scheduled_s, ivl, sizeof ivl);
		if (rows[i].r < 0)
			snprintf(r, sizeof r, "-");
		else
			snprintf(r, sizeof r, "%.1f%%", 100 * rows[i].r);
		printf("%3zu  %-6s  %-20s  %-7s %-10s  %8s  %9.4f  %10.4f  %s\n",
		    i + 1, _(rating_label[rows[i].log.rating - 1]), when, r,
		    _(state_label[rows[i].card.state]), ivl,
		    rows[i].card.stability, rows[i].card.difficulty, due);
	}
}

static int
srs_replay(int argc, char **argv)
{
	struct srs_opts o;
	struct srs_row *rows;
	struct pl_err err;
	int rc;

	memset(&o, 0, sizeof o);
	fsrs_params_default(&o.p);
	o.start = (int64_t)time(NULL);
	o.card_id = 1;
	rc = parse_args(&o, argc, argv);
	if (rc == 0 && fsrs_params_check(&o.p, &err) != 0)
		rc = cli_usage_error("%s", err.msg);
	if (rc == 0) {
		rows = calloc(o.n_ratings, sizeof *rows);
		if (rows == NULL) {
			cli_error("%s", _("out of memory"));
			rc = 2;
		} else {
			replay(&o, rows);
			if (o.json)
				rc = print_json(&o, rows);
			else
				print_text(&o, rows);
			free(rows);
		}
	}
	free(o.ratings);
	free(o.elapsed);
	return rc < 0 ? 0 : rc;
}

int
cli_srs_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	if (argc >= 2 && strcmp(argv[1], "replay") == 0)
		return srs_replay(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc < 2)
		return cli_usage_error("%s", _("expected a command: replay"));
	if (argv[1][0] == '-')
		return cli_usage_error(_("unrecognized option '%s'"), argv[1]);
	return cli_usage_error(_("unknown command '%s'; the command is "
	    "replay"), argv[1]);
}
