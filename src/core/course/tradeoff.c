/*
 * tradeoff.c - find figures with their quantity in a written trade-off
 * and confirm them against the engine.
 *
 * A figure is a number (digits, one '.' or ',' as the decimal separator;
 * "1,234" with three digits after the separator is read both ways), an
 * optional k (thousands), then its unit. Its quantity is the keyword
 * nearest to it in the same sentence among those its unit allows: GB is
 * memory, s and ms communication, tokens/s throughput, a bare number a
 * bubble fraction (at most 1) or tokens/s (above 100), % any of the four.
 * Free memory is measured against the card's whole capacity, as the
 * headroom claim does; exposed communication against the step.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "core/course/tradeoff.h"

/* Keywords per quantity, lower case, matched at the start of a word. */
static const char *const keywords[TO_N_QTY][12] = {
	{ "free", "headroom", "spare", "frei", "spielraum", "reserve",
	    "luft", "\xc3\xbc" "brig", NULL },
	{ "comm", "exposed", "kommunikation", "all-reduce", "allreduce",
	    "network", "netzwerk", NULL },
	{ "bubble", "blase", "idle", "leerlauf", NULL },
	{ "token", "tok/s", "throughput", "durchsatz", "faster", "slower",
	    "schneller", "langsamer", "speed", NULL },
};

static const char *const qty_labels[TO_N_QTY] = {
	N_("memory free"), N_("exposed communication"), N_("bubble"),
	N_("tokens/s")
};

const char *
tradeoff_qty_label(enum to_qty q)
{
	return q < TO_N_QTY ? _(qty_labels[q]) : "";
}

/* Absolute floor of the tolerance per unit. */
static double
unit_floor(enum to_unit u, enum to_qty q)
{
	switch (u) {
	case TO_U_GB: return 0.5;
	case TO_U_PCT: return q == TO_TOKENS ? 1.0 : 0.5;
	case TO_U_S: return 0.02;
	case TO_U_MS: return 20;
	case TO_U_NONE: return q == TO_BUBBLE ? 0.005 : 0;
	default: return 0;
	}
}

static int
is_word(int c)
{
	return isalnum((unsigned char)c) || (unsigned char)c >= 0x80;
}

/* Sentence ends: . ; ! ? and newlines, but not a '.' between digits. */
static int
sentence_end(const char *t, size_t i)
{
	char c = t[i];

	if (c == ';' || c == '!' || c == '?' || c == '\n')
		return 1;
	if (c != '.')
		return 0;
	return !(i > 0 && isdigit((unsigned char)t[i - 1]) &&
	    isdigit((unsigned char)t[i + 1]));
}

/* Unit after the number at t (spaces skipped); *len its length. */
static enum to_unit
read_unit(const char *t, size_t *len)
{
	static const struct {
		const char	*w;
		enum to_unit	 u;
	} units[] = {
		{ "tokens/s", TO_U_TOKS }, { "token/s", TO_U_TOKS },
		{ "tok/s", TO_U_TOKS }, { "tokens per second", TO_U_TOKS },
		{ "token pro sekunde", TO_U_TOKS },
		{ "percentage points", TO_U_PCT }, { "prozentpunkte", TO_U_PCT },
		{ "percent", TO_U_PCT }, { "prozent", TO_U_PCT },
		{ "pt", TO_U_PCT }, { "%", TO_U_PCT },
		{ "gib", TO_U_GB }, { "gb", TO_U_GB },
		{ "ms", TO_U_MS }, { "milliseconds", TO_U_MS },
		{ "millisekunden", TO_U_MS },
		{ "seconds", TO_U_S }, { "sekunden", TO_U_S }, { "sec", TO_U_S },
		{ "s", TO_U_S },
	};
	size_t i, n, sp = strspn(t, " ");

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		n = strlen(units[i].w);
		if (strncasecmp(t + sp, units[i].w, n) == 0 &&
		    (units[i].w[0] == '%' || !isalpha((unsigned char)t[sp +
		    n]))) {
			*len = sp + n;
			return units[i].u;
		}
	}
	*len = 0;
	return TO_U_NONE;
}

/* Quantities unit u can belong to, as bits. */
static unsigned
unit_allows(enum to_unit u, double v)
{
	switch (u) {
	case TO_U_GB: return 1u << TO_FREE;
	case TO_U_S: case TO_U_MS: return 1u << TO_COMM;
	case TO_U_TOKS: return 1u << TO_TOKENS;
	case TO_U_PCT: return (1u << TO_N_QTY) - 1;
	default:
		return v <= 1 ? 1u << TO_BUBBLE : v > 100 ? 1u << TO_TOKENS :
		    0;
	}
}

/*
 * The allowed quantity whose keyword lies nearest to [from, to) inside
 * the sentence [s, e) of t, or TO_N_QTY.
 */
static enum to_qty
nearest_keyword(const char *t, size_t s, size_t e, size_t from, size_t to,
    unsigned allow)
{
	size_t i, d, best_d = (size_t)-1;
	enum to_qty best = TO_N_QTY;
	int q, k;

	for (i = s; i < e; i++) {
		if (i > s && is_word(t[i - 1]))
			continue;
		for (q = 0; q < TO_N_QTY; q++) {
			if (!(allow & (1u << q)))
				continue;
			for (k = 0; keywords[q][k] != NULL; k++) {
				if (strncasecmp(t + i, keywords[q][k],
				    strlen(keywords[q][k])) != 0)
					continue;
				d = i >= to ? i - to : i < from ? from - i : 0;
				if (d < best_d) {
					best_d = d;
					best = (enum to_qty)q;
				}
			}
		}
	}
	return best;
}

int
tradeoff_find(const char *t, struct to_figure *out, int max)
{
	size_t i = 0, j, s = 0, e, ulen, n = t != NULL ? strlen(t) : 0;
	int count = 0;

	while (i < n && count < max) {
		struct to_figure f;
		size_t start, sep = 0, frac = 0;
		int kilo;
		char num[64];
		enum to_unit u;
		enum to_qty q;

		if (sentence_end(t, i))
			s = i + 1;
		if (!isdigit((unsigned char)t[i]) || (i > 0 &&
		    (isalpha((unsigned char)t[i - 1]) || t[i - 1] == '.' ||
		    t[i - 1] == ','))) {
			i++;
			continue;
		}
		start = i;
		while (i < n && isdigit((unsigned char)t[i]))
			i++;
		if (i + 1 < n && (t[i] == '.' || t[i] == ',') &&
		    isdigit((unsigned char)t[i + 1])) {
			sep = i++;
			while (i < n && isdigit((unsigned char)t[i])) {
				i++;
				frac++;
			}
		}
		if (i - start >= sizeof num)
			continue;
		memcpy(num, t + start, i - start);
		num[i - start] = '\0';
		if (sep)
			num[sep - start] = '.';
		f.value = strtod(num, NULL);
		f.alt = f.value;
		/* "84,436" or "1.234": maybe thousands. */
		if (sep && frac == 3 && sep - start <= 3)
			f.alt = f.value * 1000;
		f.at = (int)start;
		kilo = i < n && (t[i] == 'k' || t[i] == 'K') && (i + 1 >= n ||
		    !isalpha((unsigned char)t[i + 1]));
		if (kilo) {
			f.value *= 1000;
			f.alt *= 1000;
			i++;
		}
		u = read_unit(t + i, &ulen);
		i += ulen;
		if (kilo && u == TO_U_NONE)
			u = TO_U_TOKS;
		for (e = i; e < n && !sentence_end(t, e); e++)
			;
		q = nearest_keyword(t, s, e, start, i, unit_allows(u, f.value));
		if (q == TO_N_QTY)
			continue;
		f.qty = q;
		f.unit = u;
		out[count++] = f;
		for (j = start; j < i; j++)
			if (sentence_end(t, j))
				s = j + 1;
	}
	return count;
}

/* The engine's value of q for r in unit u. */
static double
engine_value(const struct cm_result *r, enum to_qty q, enum to_unit u)
{
	switch (q) {
	case TO_FREE:
		if (u == TO_U_PCT)
			return r->mem_gpu > 0 ? 100 * (r->mem_gpu -
			    r->mem_total) / r->mem_gpu : 0;
		return (r->mem_gpu - r->mem_total) / 1e9;
	case TO_COMM:
		if (u == TO_U_PCT)
			return r->t_step > 0 ? 100 * r->t_exposed_comm /
			    r->t_step : 0;
		return u == TO_U_MS ? 1000 * r->t_exposed_comm :
		    r->t_exposed_comm;
	case TO_BUBBLE:
		return u == TO_U_PCT ? 100 * r->bubble_fraction :
		    r->bubble_fraction;
	default:
		return r->tokens_per_s;
	}
}

int
tradeoff_worse(const struct cm_result *c, const struct cm_result *u,
    enum to_qty q)
{
	double a = engine_value(c, q, TO_U_NONE), b = engine_value(u, q,
	    TO_U_NONE), eps = 1e-9 * (fabs(a) + fabs(b)) + 1e-12;

	switch (q) {
	case TO_FREE: case TO_TOKENS:
		return a < b - eps;
	default:
		return a > b + eps;
	}
}

static int
differ(const struct cm_result *c, const struct cm_result *u, enum to_qty q)
{
	return tradeoff_worse(c, u, q) || tradeoff_worse(u, c, q);
}

static int
near(double v, double want, double floor)
{
	double tol = TO_REL_TOL * fabs(want);

	return fabs(v - want) <= (tol > floor ? tol : floor);
}

/* 1 if figure f matches the chosen, the runner-up or their difference. */
static int
confirms(const struct to_figure *f, const struct cm_result *c,
    const struct cm_result *u)
{
	double a = engine_value(c, f->qty, f->unit), b = engine_value(u,
	    f->qty, f->unit), fl = unit_floor(f->unit, f->qty), w[4];
	int i, n = 0, k;

	if (f->qty == TO_TOKENS && f->unit == TO_U_PCT) {
		/* % faster or slower, either way round */
		if (a <= 0 || b <= 0)
			return 0;
		w[n++] = fabs(100 * (b / a - 1));
		w[n++] = fabs(100 * (1 - a / b));
	} else {
		w[n++] = a;
		w[n++] = b;
		if (fabs(a - b) > 1e-12)
			w[n++] = fabs(a - b);
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++)
			if (near(k ? f->alt : f->value, w[i], fl))
				return 1;
	return 0;
}

/* The figure's unit as the screen writes it. */
static const char *
unit_text(enum to_unit u)
{
	switch (u) {
	case TO_U_GB: return " GB";
	case TO_U_PCT: return "%";
	case TO_U_S: return " s";
	case TO_U_MS: return " ms";
	case TO_U_TOKS: return " tokens/s";
	default: return "";
	}
}

void
tradeoff_grade(const char *text, const struct cm_result *chosen,
    const struct cm_result *runner, struct to_verdict *v)
{
	struct to_figure figs[TO_MAX_FIGS];
	unsigned want = 0, differing = 0;
	int i, q, best = -1;

	memset(v, 0, sizeof *v);
	v->words = tradeoff_count_words(text);
	v->found = tradeoff_find(text, figs, TO_MAX_FIGS);
	if (runner == NULL) {
		snprintf(v->text, sizeof v->text, "%s", _("trade-off: the "
		    "engine ranks no runner-up to hold your layout against"));
		return;
	}
	for (q = 0; q < TO_N_QTY; q++) {
		if (tradeoff_worse(chosen, runner, (enum to_qty)q))
			want |= 1u << q;
		if (differ(chosen, runner, (enum to_qty)q))
			differing |= 1u << q;
	}
	if (want == 0)
		want = differing;
	for (i = 0; i < v->found; i++) {
		if (!confirms(&figs[i], chosen, runner))
			continue;
		if (best < 0 || ((want >> figs[i].qty) & 1u))
			best = i;
		if ((want >> figs[i].qty) & 1u)
			break;
	}
	if (best >= 0) {
		v->confirmed = 1;
		v->fig = figs[best];
		v->qty = figs[best].qty;
		v->gives_up = tradeoff_worse(chosen, runner, v->qty);
		v->chosen = engine_value(chosen, v->qty, v->fig.unit);
		v->runner = engine_value(runner, v->qty, v->fig.unit);
	}
	v->pass = v->confirmed && ((want >> v->qty) & 1u) &&
	    v->words >= TO_WORDS;
	if (v->pass)
		snprintf(v->text, sizeof v->text, _("trade-off: %s %g%s "
		    "confirmed (the engine: %.4g%s on your layout, %.4g%s on "
		    "the runner-up)%s"), tradeoff_qty_label(v->qty),
		    v->fig.value, unit_text(v->fig.unit), v->chosen,
		    unit_text(v->fig.unit), v->runner, unit_text(v->fig.unit),
		    v->gives_up ? _("; your layout gives this up") : "");
	else if (v->found == 0)
		snprintf(v->text, sizeof v->text, _("trade-off: no figure with "
		    "its quantity; write a number with what it measures: "
		    "memory free (GB or %%), exposed communication (s, ms or "
		    "%% of the step), bubble (%% or a fraction) or tokens/s"));
	else if (!v->confirmed)
		snprintf(v->text, sizeof v->text, _("trade-off: %d figures with "
		    "a quantity, none within %.0f%% of the engine's figures "
		    "for your layout, the runner-up or their difference"),
		    v->found, 100 * TO_REL_TOL);
	else if (!((want >> v->qty) & 1u))
		snprintf(v->text, sizeof v->text, _("trade-off: %s confirmed, "
		    "but your layout does not lose to the runner-up on it; "
		    "name what it gives up"), tradeoff_qty_label(v->qty));
	else
		snprintf(v->text, sizeof v->text, _("trade-off: %d different "
		    "words; write at least %d"), v->words, TO_WORDS);
}

/* A word counts when it has two or more bytes and a letter in it. */
static int
word_counts(const char *w, size_t n)
{
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		if (isalpha((unsigned char)w[i]) || (unsigned char)w[i] >= 0x80)
			return 1;
	return 0;
}

/* The word at w (n bytes) already appears, as a word, in text before w. */
static int
word_seen(const char *text, const char *w, size_t n)
{
	const char *p = text;
	size_t len;

	while (p < w) {
		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (p >= w)
			break;
		if (len == n && strncasecmp(p, w, n) == 0)
			return 1;
		p += len;
	}
	return 0;
}

int
tradeoff_count_words(const char *text)
{
	const char *p = text;
	size_t len;
	int n = 0;

	while (p != NULL && *p != '\0') {
		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (len > 0 && word_counts(p, len) && !word_seen(text, p, len))
			n++;
		p += len;
	}
	return n;
}
