/*
 * cmd_review.c - `parlearn review`: the review screen straight away, the
 * due queue as text (--list, --all), cram mode, and the daily limits.
 *
 * The queue printed by --list is the one the review screen serves
 * (store_review_open builds both), so a script sees what a learner would.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "core/wrap.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/output.h"
#include "cli/review_json.h"
#include "cli/usage.h"
#include "store/cards.h"
#include "tui/tui.h"

struct review_opts {
	int		 list;		/* print the queue */
	int		 all;		/* print every card */
	int		 cram;
	int		 json;		/* --list as JSON */
	const char	*deck;
	int		 set[3];	/* new, reviews, rollover; -1 unset */
};

static const char *const state_label[] = {
	N_("new"), N_("learning"), N_("review"), N_("relearning")
};

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn review [OPTION]...\n"
	    "Review the flashcards that are due, in the terminal.\n"
	    "\n"
	    "  --list                print today's queue instead (no terminal needed)\n"
	    "  --all                 with --list: every unlocked card and its due date\n"
	    "  --json                with --list: as JSON (schema parlearn.review-list/1)\n"
	    "  --cram                review any cards without changing their schedule\n"
	    "  --deck DECK           only the cards of DECK\n"
	    "  --new-per-day N       new cards a day (default 20)\n"
	    "  --reviews-per-day N   reviews a day (default 200)\n"
	    "  --rollover H          hour the next day starts, 0-23 (default 4)\n"
	    "  -h, --help            show this help\n"
	    "\n"
	    "The last three save the setting for your profile and print them all.\n"));
}

static int
parse_int(const char *opt, const char *s, int max, int *out)
{
	long v;

	if (cli_whole_number(opt, s, 0, max, &v) != 0)
		return 1;
	*out = (int)v;
	return 0;
}

static int
parse_opts(struct review_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "all", no_argument, NULL, 'a' },
		{ "cram", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "deck", required_argument, NULL, 'd' },
		{ "new-per-day", required_argument, NULL, 'n' },
		{ "reviews-per-day", required_argument, NULL, 'r' },
		{ "rollover", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, rc = 0;

	memset(o, 0, sizeof *o);
	o->set[0] = o->set[1] = o->set[2] = -1;
	optind = 0;
	while (rc == 0 && (ch = cli_getopt(argc, argv, "+h", opts)) != -1) {
		switch (ch) {
		case 'l': o->list = 1; break;
		case 'a': o->all = 1; break;
		case 'c': o->cram = 1; break;
		case 'j': o->json = 1; break;
		case 'd': o->deck = optarg; break;
		case 'n':
			rc = parse_int("--new-per-day", optarg, REVIEW_MAX_LIMIT,
			    &o->set[0]);
			break;
		case 'r':
			rc = parse_int("--reviews-per-day", optarg,
			    REVIEW_MAX_LIMIT, &o->set[1]);
			break;
		case 'o':
			rc = parse_int("--rollover", optarg, 23, &o->set[2]);
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			return 1;
		}
	}
	if (rc == 0 && optind < argc)
		rc = cli_extra_argument(argv[optind]);
	if (rc == 0 && (o->all || o->json) && !o->list)
		rc = cli_usage_error("%s", _("--all and --json go with --list"));
	return rc;
}

static int
save_settings(struct cli_session *s, const struct review_opts *o)
{
	struct review_settings set;
	struct pl_err err;

	if (store_review_settings(s->store, s->profile, &set, &err) != 0)
		goto fail;
	if (o->set[0] >= 0)
		set.new_per_day = o->set[0];
	if (o->set[1] >= 0)
		set.reviews_per_day = o->set[1];
	if (o->set[2] >= 0)
		set.rollover_hour = o->set[2];
	if (store_review_settings_save(s->store, s->profile, &set, &err) != 0)
		goto fail;
	printf(_("new cards per day: %d\nreviews per day: %d\n"
	    "next day starts at: %02d:00\n"), set.new_per_day,
	    set.reviews_per_day, set.rollover_hour);
	return 0;
fail:
	cli_print_err(&err);
	return 2;
}

/* "2026-11-24 04:00 (in 1d)" for t. */
static void
format_due(int64_t t, int64_t now, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char when[32], rel[32];

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(when, sizeof when, "?");
	fsrs_format_interval(t > now ? t - now : now - t, rel, sizeof rel);
	if (t <= now)
		snprintf(buf, size, _("%s (due, %s ago)"), when, rel);
	else
		snprintf(buf, size, _("%s (in %s)"), when, rel);
}

#define FRONT_COLS 60

static void
print_card(const struct store_card *k, const struct review_item *it,
    int64_t now)
{
	char due[96], front[256];
	size_t n;

	if (it->card.state == FSRS_NEW)
		snprintf(due, sizeof due, "%s", "-");
	else
		format_due(it->card.due, now, due, sizeof due);
	snprintf(front, sizeof front, "%s", k->front);
	for (n = 0; front[n] != '\0'; n++)
		if (front[n] == '\n')
			front[n] = ' ';
	/* At most 60 columns, cut between characters, "..." where cut. */
	if (wrap_width(front, strlen(front)) > FRONT_COLS)
		strcpy(front + wrap_fit(front, FRONT_COLS - 3), "...");
	cli_printf(stdout, "%-24s %-10s %-34s %s\n", k->id,
	    _(state_label[it->card.state & 3]), due, front);
}

static void
print_queue(const struct store_review *r, const struct review_opts *o,
    int64_t now)
{
	const struct review_queue *q = &r->queue;
	size_t i;

	if (r->cram)
		printf(_("Cram: %zu cards; ratings will not change any schedule.\n"),
		    q->n);
	else
		printf(_("Today: %d new, %d learning, %d due (limits: %d new and "
		    "%d reviews a day; the day starts at %02d:00)\n"), q->n_new,
		    q->n_learning, q->n_review, r->settings.new_per_day,
		    r->settings.reviews_per_day, r->settings.rollover_hour);
	if (q->backlog > 0)
		printf(P_("Backlog: %d more review is due than today's limit; "
		    "the least likely remembered come first, the rest over the "
		    "next %d days.\n", "Backlog: %d more reviews are due than "
		    "today's limit; the least likely remembered come first, the "
		    "rest over the next %d days.\n", q->backlog), q->backlog,
		    q->backlog_days);
	if (o->all) {
		for (i = 0; i < r->set.n; i++)
			print_card(&r->set.cards[i], &r->set.items[i], now);
		return;
	}
	for (i = 0; i < q->n; i++)
		print_card(&r->set.cards[q->order[i]],
		    &r->set.items[q->order[i]], now);
	if (q->n == 0)
		printf("%s\n", _("Nothing to review now."));
}

static int
run_screen(const struct cli_session *s, const struct cli_ctx *ctx,
    const struct review_opts *o)
{
	struct tui_start st;

	cli_tui_start(&st, ctx, s, TUI_REVIEW);
	st.cram = o->cram;
	st.deck = o->deck;
	return tui_run(&st);
}

int
cli_review_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	struct review_opts o;
	struct cli_session s;
	struct store_review r;
	struct pl_err err;
	int64_t now = (int64_t)time(NULL);
	int rc;

	if ((rc = parse_opts(&o, argc, argv)) != 0)
		return rc < 0 ? 0 : rc;
	/* --list only reads (a read-only database shows the cards as they
	 * are stored); settings and the screen write. */
	if ((rc = (o.list && o.set[0] < 0 && o.set[1] < 0 && o.set[2] < 0 ?
	    cli_session_read : cli_session_open)(ctx, &s, 1)) != 0)
		return rc;
	/* An unknown deck is bad data, as for deck export (issue 23). */
	if (o.deck != NULL && (rc = cli_deck_known(&s, o.deck, &err)) != 1) {
		if (rc < 0)
			cli_print_err(&err);
		else
			cli_error(_("no deck called '%s' (see 'parlearn deck "
			    "list')"), o.deck);
		cli_session_close(&s);
		return 2;
	}
	rc = 0;
	if (o.set[0] >= 0 || o.set[1] >= 0 || o.set[2] >= 0)
		rc = save_settings(&s, &o);
	else if (o.list) {
		if (store_review_open(s.store, s.profile, s.course,
		    s.have_catalog ? &s.catalog : NULL, o.deck, o.cram, now, &r,
		    &err) != 0) {
			cli_print_err(&err);
			rc = 2;
		} else {
			if (o.json)
				rc = review_list_json(&r, o.all, now);
			else
				print_queue(&r, &o, now);
			store_review_close(&r);
		}
	} else
		rc = run_screen(&s, ctx, &o);
	cli_session_close(&s);
	return rc;
}
