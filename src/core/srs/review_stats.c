/*
 * review_stats.c - review statistics and their text rendering.
 *
 * The store fills a struct review_stats from its aggregate tables (no log
 * scan); review_stats_lines() turns it into the lines that both
 * `parlearn stats` prints and the statistics screen draws, so the two
 * cannot disagree. Bars are scaled to the largest value shown.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/srs/review.h"

#define LINE_MAX_BYTES	1024

void
review_stats_init(struct review_stats *s, int64_t now, int tz_offset_s,
    int rollover_hour)
{
	memset(s, 0, sizeof *s);
	s->today = review_day(now, tz_offset_s, rollover_hour);
}

void
review_stats_add_due(struct review_stats *s, int64_t due, int tz_offset_s,
    int rollover_hour)
{
	int64_t d = review_day(due, tz_offset_s, rollover_hour) - s->today;

	if (d < 0)
		d = 0;
	if (d < REVIEW_FORECAST_DAYS)
		s->forecast[d]++;
}

void
review_stats_add_reviews(struct review_stats *s, int64_t t, long n,
    int tz_offset_s, int rollover_hour)
{
	int64_t ago = s->today - review_day(t, tz_offset_s, rollover_hour);

	if (ago >= 0 && ago < REVIEW_HEATMAP_DAYS)
		s->heatmap[REVIEW_HEATMAP_DAYS - 1 - ago] += (int)n;
}

int
review_age_bucket(int elapsed_days)
{
	return elapsed_days < 7 ? 0 : elapsed_days < 21 ? 1 :
	    elapsed_days < 90 ? 2 : 3;
}

int
review_stats_streak(const struct review_stats *s)
{
	int i = REVIEW_HEATMAP_DAYS - 1, n = 0;

	/* A day not yet reviewed today does not break the streak. */
	if (s->heatmap[i] == 0)
		i--;
	for (; i >= 0 && s->heatmap[i] > 0; i--)
		n++;
	return n;
}

/* A line being built, and where it goes. */
struct out {
	char	 buf[LINE_MAX_BYTES];
	size_t	 n;
	int	 utf8;
	void	(*emit)(const char *, size_t, void *);
	void	*arg;
};

static void
put(struct out *o, const char *s)
{
	size_t l = strlen(s);

	if (o->n + l < sizeof o->buf) {
		memcpy(o->buf + o->n, s, l);
		o->n += l;
	}
}

static void
endl(struct out *o)
{
	o->emit(o->buf, o->n, o->arg);
	o->n = 0;
}

static void
line(struct out *o, const char *s)
{
	put(o, s);
	endl(o);
}

static void
draw_states(struct out *o, const struct review_stats *s)
{
	char b[256];

	line(o, _("Cards by state"));
	snprintf(b, sizeof b, _("  new %d   learning %d"),
	    s->by_state[FSRS_NEW], s->by_state[FSRS_LEARNING]);
	line(o, b);
	snprintf(b, sizeof b, _("  review %d   relearning %d"),
	    s->by_state[FSRS_REVIEW], s->by_state[FSRS_RELEARNING]);
	line(o, b);
	endl(o);
}

#define FORECAST_ROWS	6	/* height of the forecast chart */

static void
draw_forecast(struct out *o, const struct review_stats *s, int width)
{
	char b[128];
	int i, r, max = 0, total = 0, cw;

	for (i = 0; i < REVIEW_FORECAST_DAYS; i++) {
		if (s->forecast[i] > max)
			max = s->forecast[i];
		total += s->forecast[i];
	}
	/* Two columns a day when they fit beside the 7-column axis. */
	cw = width >= 8 + 2 * REVIEW_FORECAST_DAYS ? 2 : 1;
	snprintf(b, sizeof b, _("Due in the next 30 days: %d, today %d"),
	    total, s->forecast[0]);
	line(o, b);
	for (r = FORECAST_ROWS; r >= 1; r--) {
		snprintf(b, sizeof b, "%5d |", r == FORECAST_ROWS ? max : 0);
		if (r != FORECAST_ROWS)
			snprintf(b, sizeof b, "      |");
		put(o, b);
		for (i = 0; i < REVIEW_FORECAST_DAYS; i++) {
			/* Rows filled: ceil(v * ROWS / max). */
			int h = max > 0 ? (s->forecast[i] * FORECAST_ROWS +
			    max - 1) / max : 0;

			put(o, h >= r ? (o->utf8 ? "\u2588" : "#") : " ");
			if (cw == 2)
				put(o, " ");
		}
		endl(o);
	}
	put(o, "    0 +");
	for (i = 0; i < REVIEW_FORECAST_DAYS * cw; i++)
		put(o, o->utf8 ? "\u2500" : "-");
	endl(o);
	snprintf(b, sizeof b, "       %-*s%-*s%-*s%s", 7 * cw, _("today"),
	    7 * cw, "+7", 7 * cw, "+14", "+21");
	line(o, b);
	endl(o);
}

/* One heatmap cell: blank, then four levels relative to max. */
static const char *
cell(int v, int max, int utf8)
{
	static const char *const u[] = { "\u00b7", "\u2591", "\u2592",
	    "\u2593", "\u2588" };
	static const char *const a[] = { ".", "-", "+", "*", "#" };
	int lvl = v <= 0 || max <= 0 ? 0 : 1 + (v * 4 - 1) / max;

	if (lvl > 4)
		lvl = 4;
	return utf8 ? u[lvl] : a[lvl];
}

static void
draw_heatmap(struct out *o, const struct review_stats *s, int width)
{
	static const char *const wd[] = { N_("Mon"), N_("Tue"), N_("Wed"),
	    N_("Thu"), N_("Fri"), N_("Sat"), N_("Sun") };
	int weeks = (width - 6) < 53 ? width - 6 : 53, r, w, max = 0, i;
	long year = 0;
	/* Column of today: weekday (Mon = 0) of the last day shown. */
	int today_wd = (int)(((s->today + 3) % 7 + 7) % 7);
	char b[160];

	for (i = 0; i < REVIEW_HEATMAP_DAYS; i++) {
		year += s->heatmap[i];
		if (s->heatmap[i] > max)
			max = s->heatmap[i];
	}
	snprintf(b, sizeof b, _("Reviews in the past year: %ld"), year);
	line(o, b);
	snprintf(b, sizeof b, P_("  all time: %ld   streak: %d day",
	    "  all time: %ld   streak: %d days", review_stats_streak(s)),
	    s->total_reviews, review_stats_streak(s));
	line(o, b);
	for (r = 0; r < 7; r++) {
		snprintf(b, sizeof b, "  %-4.4s", _(wd[r]));
		put(o, b);
		for (w = 0; w < weeks; w++) {
			/* Days ago of (week w, weekday r); the last column is
			 * this week. */
			int ago = (weeks - 1 - w) * 7 + today_wd - r;

			if (ago < 0 || ago >= REVIEW_HEATMAP_DAYS)
				put(o, " ");
			else
				put(o, cell(s->heatmap[REVIEW_HEATMAP_DAYS - 1 -
				    ago], max, o->utf8));
		}
		endl(o);
	}
	endl(o);
}

static void
draw_ages(struct out *o, const struct review_stats *s)
{
	static const char *const names[REVIEW_N_AGES] = { N_("< 7 days"),
	    N_("7-20 days"), N_("21-89 days"), N_(">= 90 days") };
	char b[256], m[32], a[32];
	int i;

	line(o, _("True retention (reviews passed)"));
	snprintf(b, sizeof b, "  %-11s %12s %12s", _("interval"),
	    _("last 30 days"), _("all time"));
	line(o, b);
	for (i = 0; i < REVIEW_N_AGES; i++) {
		const struct review_age *x = &s->ages_month[i], *y = &s->ages[i];

		if (x->n > 0)
			snprintf(m, sizeof m, "%.1f%% (%d)",
			    100.0 * x->passed / x->n, x->n);
		else
			snprintf(m, sizeof m, "-");
		if (y->n > 0)
			snprintf(a, sizeof a, "%.1f%% (%d)",
			    100.0 * y->passed / y->n, y->n);
		else
			snprintf(a, sizeof a, "-");
		snprintf(b, sizeof b, "  %-11s %12s %12s", _(names[i]), m, a);
		line(o, b);
	}
}

void
review_stats_lines(const struct review_stats *s, int width, int utf8,
    void (*emit)(const char *, size_t, void *), void *arg)
{
	struct out o;

	memset(&o, 0, sizeof o);
	o.utf8 = utf8;
	o.emit = emit;
	o.arg = arg;
	if (width < 40)
		width = 40;
	if (width > 200)
		width = 200;
	draw_states(&o, s);
	draw_forecast(&o, s, width);
	draw_heatmap(&o, s, width);
	draw_ages(&o, s);
}
