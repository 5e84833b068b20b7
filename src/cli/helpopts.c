/*
 * helpopts.c - options and verbs read back from a help text (helpopts.h).
 */
#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/helpopts.h"

static int
add(struct helpopts *o, const char *name, size_t nlen, const char *arg,
    size_t alen)
{
	struct helpopt *nv;

	if (nlen == 0 || nlen >= HELPOPT_NAME || helpopts_find(o, name) != NULL)
		return 0;
	if ((nv = realloc(o->v, (o->n + 1) * sizeof *nv)) == NULL)
		return -1;
	o->v = nv;
	snprintf(nv[o->n].name, HELPOPT_NAME, "%.*s", (int)nlen, name);
	snprintf(nv[o->n].arg, HELPOPT_ARG, "%.*s", (int)alen, arg);
	o->n++;
	return 0;
}

/* Length of the option name at s: "-o" or "--name-with-dashes". */
static size_t
name_len(const char *s)
{
	size_t n = 1;

	if (s[0] != '-')
		return 0;
	if (s[1] != '-')
		return isalnum((unsigned char)s[1]) ? 2 : 0;
	for (n = 2; isalnum((unsigned char)s[n]) || s[n] == '-'; n++)
		;
	return n > 2 ? n : 0;
}

/*
 * One option line's synopsis, s[0..len): "-o, --output FILE". Every name
 * takes the value the last one shows.
 */
static int
option_line(struct helpopts *o, const char *s, size_t len)
{
	const char *names[8], *arg = "";
	size_t nl[8], alen = 0, i = 0, k, n = 0;

	while (i < len && n < 8) {
		k = name_len(s + i);
		if (k == 0)
			break;
		names[n] = s + i;
		nl[n++] = k;
		i += k;
		if (i < len && (s[i] == ' ' || s[i] == '=') && s[i + 1] != ' ') {
			arg = s + i + 1;
			alen = len - i - 1;
			break;
		}
		if (i + 2 <= len && s[i] == ',' && s[i + 1] == ' ')
			i += 2;
		else
			break;
	}
	for (i = 0; i < n; i++)
		if (add(o, names[i], nl[i], arg, alen) != 0)
			return -1;
	return 0;
}

/* Strip the brackets of a synopsis token: "[--no-dashboard]", "0|1)". */
static void
token_trim(const char **t, size_t *len)
{
	while (*len > 0 && strchr("[(", **t) != NULL) {
		(*t)++;
		(*len)--;
	}
	while (*len > 0 && strchr("])", (*t)[*len - 1]) != NULL)
		(*len)--;
}

/* A verb line: every "--name [VALUE]" on it. */
static int
verb_line(struct helpopts *o, const char *s, size_t len)
{
	const char *t, *name = NULL, *end = s + len;
	size_t tl, nlen = 0;

	while (s < end) {
		while (s < end && *s == ' ')
			s++;
		for (t = s; s < end && *s != ' '; s++)
			;
		tl = (size_t)(s - t);
		token_trim(&t, &tl);
		if (tl == 0 || (tl == 1 && *t == '|'))
			continue;
		if (name_len(t) == tl) {
			if (name != NULL && add(o, name, nlen, "", 0) != 0)
				return -1;
			name = t;
			nlen = tl;
		} else if (name != NULL) {
			if (add(o, name, nlen, t, tl) != 0)
				return -1;
			name = NULL;
		}
	}
	return name != NULL ? add(o, name, nlen, "", 0) : 0;
}

int
helpopts_parse(const char *help, const char *verb, struct helpopts *o)
{
	const char *line, *nl, *s;
	size_t len, syn, vlen = verb != NULL ? strlen(verb) : 0;
	int rc = 0;

	memset(o, 0, sizeof *o);
	for (line = help; rc == 0 && *line != '\0'; line = nl + (*nl != '\0')) {
		nl = strchr(line, '\n');
		if (nl == NULL)
			nl = line + strlen(line);
		len = (size_t)(nl - line);
		if (verb != NULL) {
			if (len > vlen + 2 && strncmp(line, "  ", 2) == 0 &&
			    strncmp(line + 2, verb, vlen) == 0 &&
			    line[2 + vlen] == ' ')
				rc = verb_line(o, line + 2 + vlen, len - 2 - vlen);
			continue;
		}
		for (s = line; s < nl && *s == ' '; s++)
			;
		if (s == line || s >= nl || *s != '-')
			continue;
		for (syn = 0; s + syn < nl && !(s[syn] == ' ' &&
		    s + syn + 1 < nl && s[syn + 1] == ' '); syn++)
			;
		rc = option_line(o, s, syn);
	}
	if (rc != 0)
		helpopts_free(o);
	return rc;
}

void
helpopts_free(struct helpopts *o)
{
	free(o->v);
	memset(o, 0, sizeof *o);
}

const struct helpopt *
helpopts_find(const struct helpopts *o, const char *name)
{
	size_t i, n = strcspn(name, "=");

	for (i = 0; i < o->n; i++)
		if (strlen(o->v[i].name) == n &&
		    strncmp(o->v[i].name, name, n) == 0)
			return &o->v[i];
	return NULL;
}

size_t
helpopts_verbs(const char *help, void (*fn)(const char *, void *), void *arg)
{
	const char *line, *nl, *w;
	char verb[HELPOPT_NAME];
	size_t n = 0, k;

	for (line = help; *line != '\0'; line = nl + (*nl != '\0')) {
		nl = strchr(line, '\n');
		if (nl == NULL)
			nl = line + strlen(line);
		/* "  verb DIR ..." */
		w = line + 2;
		if (strncmp(line, "  ", 2) != 0 || !islower((unsigned char)*w))
			continue;
		for (k = 0; w + k < nl && (islower((unsigned char)w[k]) ||
		    w[k] == '-'); k++)
			;
		if (w + k + 1 >= nl || w[k] != ' ' ||
		    !isupper((unsigned char)w[k + 1]) || k >= sizeof verb)
			continue;
		snprintf(verb, sizeof verb, "%.*s", (int)k, w);
		fn(verb, arg);
		n++;
	}
	return n;
}

char *
helpopts_capture(int (*main_fn)(const struct cli_ctx *, int, char **),
    const struct cli_ctx *ctx, const char *cmd)
{
	char *av[3] = { (char *)cmd, "--help", NULL }, *buf = NULL, *old;
	FILE *tmp = tmpfile();
	long n;
	int save;

	if (tmp == NULL)
		return NULL;
	old = setlocale(LC_MESSAGES, NULL);
	old = old != NULL ? strdup(old) : NULL;
	setlocale(LC_MESSAGES, "C");
	fflush(stdout);
	save = dup(STDOUT_FILENO);
	if (save >= 0 && dup2(fileno(tmp), STDOUT_FILENO) >= 0) {
		main_fn(ctx, 2, av);
		fflush(stdout);
		dup2(save, STDOUT_FILENO);
	}
	if (save >= 0)
		close(save);
	if (old != NULL)
		setlocale(LC_MESSAGES, old);
	free(old);
	n = ftell(tmp);
	rewind(tmp);
	if (n >= 0 && (buf = calloc(1, (size_t)n + 1)) != NULL &&
	    fread(buf, 1, (size_t)n, tmp) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(tmp);
	return buf;
}
