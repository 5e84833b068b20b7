/*
 * calib_parse.c - reading nccl-tests' tables and gemm_bench.py's
 * (calibrate.h). nccl-tests prints its device list ("Rank N ... on HOST
 * device D"), a header naming the columns ("size count type redop root
 * time algbw busbw #wrong", out-of-place first; older versions have no
 * root column, some logs drop the leading '#') and one row per size; the
 * columns are found by name in the header, numbers are read the same in
 * every locale.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/engine/calibrate.h"
#include "core/number.h"

#define MAX_TOK		24
#define MAX_HOSTS	512
#define HOST_LEN	64

static const char *const coll_names[CAL_N_COLLS] = { "all_reduce_perf",
	"all_gather_perf", "reduce_scatter_perf", "alltoall_perf" };

const char *
calib_coll_name(enum calib_coll k)
{
	return (unsigned)k < CAL_N_COLLS ? coll_names[k] : "?";
}

/* Split line (modified) into at most MAX_TOK words; their columns. */
static int
split(char *line, char **tok, int *col)
{
	char *p = line;
	int n = 0;

	while (*p != '\0' && n < MAX_TOK) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0')
			break;
		tok[n] = p;
		col[n++] = (int)(p - line) + 1;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
	return n;
}

static int
digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The collective the text names, or -1. */
static int
kind_of(const char *text)
{
	const char *start = strstr(text, "Collective test starting:");
	const char *first = NULL, *at;
	int i, k = -1;

	for (i = 0; i < CAL_N_COLLS; i++) {
		at = strstr(start != NULL ? start : text, coll_names[i]);
		if (at != NULL && (first == NULL || at < first)) {
			first = at;
			k = i;
		}
	}
	return k;
}

struct hosts {
	int	n;
	char	name[MAX_HOSTS][HOST_LEN];
};

/* "Rank 3 Group 0 Pid 12 on HOST device 3 ...": count it and its host. */
static int
rank_line(char **tok, int n, struct calib_nccl *t, struct hosts *h)
{
	int i, j;

	if (n < 4 || strcmp(tok[0], "Rank") != 0 || !digits(tok[1]))
		return 0;
	for (i = 2; i + 1 < n && strcmp(tok[i], "on") != 0; i++)
		;
	if (i + 1 >= n)
		return 0;
	t->ranks++;
	for (j = 0; j < h->n; j++)
		if (strncmp(h->name[j], tok[i + 1], HOST_LEN - 1) == 0)
			return 1;
	if (h->n < MAX_HOSTS)
		snprintf(h->name[h->n++], HOST_LEN, "%s", tok[i + 1]);
	return 1;
}

static int
find(char **tok, int n, const char *word)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(tok[i], word) == 0)
			return i;
	return -1;
}

static int
number(const char *s, double *v)
{
	return pl_parse_double(s, 0, v);
}

/* One row of the table, or -1 with err. */
static int
table_row(char **tok, int *col, int n, int c_time, int c_bus, int line,
    const char *file, struct calib_nccl *t, struct pl_err *err)
{
	struct calib_row *r;
	double size, us, gbps;
	int bad;

	if (n <= c_bus) {
		pl_err_set(err, file, line, col[n - 1], _("%d columns where the "
		    "header names %d"), n, c_bus + 1);
		return -1;
	}
	bad = number(tok[0], &size) != 0 ? 0 : number(tok[c_time], &us) != 0 ?
	    c_time : number(tok[c_bus], &gbps) != 0 ? c_bus : -1;
	if (bad >= 0) {
		pl_err_set(err, file, line, col[bad], _("not a number: \"%.40s\""),
		    tok[bad]);
		return -1;
	}
	if (t->n_rows == CAL_MAX_ROWS) {
		pl_err_set(err, file, line, 1, _("more than %d sizes"),
		    CAL_MAX_ROWS);
		return -1;
	}
	if (size <= 0 || us <= 0) {
		pl_err_set(err, file, line, col[size <= 0 ? 0 : c_time], "%s",
		    _("sizes and times must be above 0"));
		return -1;
	}
	r = &t->rows[t->n_rows++];
	r->bytes = size;
	r->time_s = us * 1e-6;
	r->busbw = gbps * 1e9;
	r->line = line;
	return 0;
}

int
calib_nccl_parse(const char *text, const char *file, int kind_hint,
    struct calib_nccl *t, struct pl_err *err)
{
	struct hosts h;
	char buf[1024], *tok[MAX_TOK];
	const char *p = text, *nl;
	int col[MAX_TOK], n, line = 0, c_time = -1, c_bus = -1, off;

	memset(t, 0, sizeof *t);
	h.n = 0;
	pl_err_clear(err);
	t->kind = (enum calib_coll)kind_of(text);
	if ((int)t->kind < 0)
		t->kind = (enum calib_coll)kind_hint;
	if ((int)t->kind < 0 || (int)t->kind >= CAL_N_COLLS) {
		pl_err_set(err, file, 1, 1, "%s", _("cannot tell which "
		    "collective this is: name it (all_reduce:FILE, "
		    "all_gather:FILE, reduce_scatter:FILE, alltoall:FILE)"));
		return -1;
	}
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		line++;
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		snprintf(buf, sizeof buf, "%.*s", (int)(nl - p), p);
		off = buf[0] == '#';
		n = split(buf + off, tok, col);
		if (n == 0 || rank_line(tok, n, t, &h))
			continue;
		if (find(tok, n, "size") >= 0 && find(tok, n, "busbw") >= 0 &&
		    find(tok, n, "time") >= 0) {
			c_time = find(tok, n, "time");
			c_bus = find(tok, n, "busbw");
			continue;
		}
		if (off || c_bus < 0 || !digits(tok[0]))
			continue;
		if (table_row(tok, col, n, c_time, c_bus, line, file, t,
		    err) != 0)
			return -1;
	}
	t->nodes = h.n;
	if (t->ranks < 2 || t->n_rows == 0) {
		pl_err_set(err, file, line > 0 ? line : 1, 1, "%s", t->ranks < 2 ?
		    _("no device list of two or more ranks (nccl-tests prints "
		    "one \"Rank N ... on HOST\" line per GPU)") :
		    _("no nccl-tests table (a header with size and busbw, then "
		    "one row per size)"));
		return -1;
	}
	return 0;
}

int
calib_gemm_parse(const char *text, const char *file, struct calib_gemm *t,
    struct pl_err *err)
{
	char buf[512], *tok[MAX_TOK];
	const char *p = text, *nl;
	int col[MAX_TOK], n, i, line = 0;
	double v[4];

	memset(t, 0, sizeof *t);
	pl_err_clear(err);
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		line++;
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		snprintf(buf, sizeof buf, "%.*s", (int)(nl - p), p);
		n = split(buf, tok, col);
		if (n == 0 || tok[0][0] == '#')
			continue;
		if (n < 4) {
			pl_err_set(err, file, line, col[n - 1], "%s",
			    _("a row is M K N and the time in ms"));
			return -1;
		}
		for (i = 0; i < 4; i++)
			if (number(tok[i], &v[i]) != 0 || v[i] <= 0) {
				pl_err_set(err, file, line, col[i],
				    _("not a number above 0: \"%.40s\""),
				    tok[i]);
				return -1;
			}
		if (t->n_rows == CAL_MAX_ROWS) {
			pl_err_set(err, file, line, 1, _("more than %d "
			    "products"), CAL_MAX_ROWS);
			return -1;
		}
		t->rows[t->n_rows] = (struct calib_gemm_row){ v[0], v[1], v[2],
		    v[3] * 1e-3, line };
		t->n_rows++;
	}
	if (t->n_rows == 0) {
		pl_err_set(err, file, line > 0 ? line : 1, 1, "%s",
		    _("no products (rows of M K N time_ms)"));
		return -1;
	}
	return 0;
}
