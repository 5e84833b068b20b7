/*
 * cmd_deck.c - `parlearn deck list|export|import`: decks as tab-separated
 * text that Anki imports, and imported decks kept in the database.
 *
 * Imported decks live in the progress database (table user_cards, one
 * deck per profile and name), beside the cards made from questions
 * answered wrongly (deck "mistakes"); the course decks stay read-only
 * JSON under flashcards/.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/output.h"
#include "core/safetext.h"
#include "store/cards.h"

#define DECK_MAX_FILE	(64L * 1024 * 1024)	/* largest TSV read */

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn deck list\n"
	    "       parlearn deck export DECK [-o FILE]\n"
	    "       parlearn deck import FILE --name NAME\n"
	    "List the flashcard decks, export one as tab-separated text that Anki\n"
	    "imports (File > Import), or import such a file as a new deck of your\n"
	    "own (kept in your progress database; '-' reads standard input).\n"
	    "\n"
	    "  -o, --output FILE   write the export to FILE (default: standard output)\n"
	    "  --name NAME         name of the imported deck\n"
	    "  --help              show this help\n"));
}

static void
print_user_deck(const char *deck, int n, void *arg)
{
	(void)arg;
	cli_printf(stdout, P_("%-24s %4d card   (yours)\n",
	    "%-24s %4d cards  (yours)\n", n), deck, n);
}

static int
deck_list(struct cli_session *s)
{
	struct pl_err err;
	size_t i;

	for (i = 0; i < s->course->n_decks; i++)
		cli_printf(stdout, P_("%-24s %4zu card   %s\n", "%-24s %4zu cards  %s\n",
		    s->course->decks[i].n_cards), s->course->decks[i].id,
		    s->course->decks[i].n_cards, s->course->decks[i].title);
	if (store_user_decks(s->store, s->profile, print_user_deck, NULL,
	    &err) != 0) {
		cli_print_err(&err);
		return 2;
	}
	return 0;
}

/* Write one note; tags "parlearn DECK" with spaces in DECK made '_'. */
static int
put_note(FILE *fp, const char *deck, const char *front, const char *back)
{
	char tags[300], *p, *line, *f, *b;
	char *safe = safetext_dup(deck, SAFETEXT_UTF8);
	int rc;

	if (safe == NULL)
		return -1;
	snprintf(tags, sizeof tags, "parlearn %s", safe);
	free(safe);
	for (p = tags + 9; *p != '\0'; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
	/* Stored text is shown, never obeyed, even if an older parlearn or
	 * a hand edit left an escape in it. */
	f = safetext_dup(front, SAFETEXT_UTF8 | SAFETEXT_NEWLINE);
	b = safetext_dup(back, SAFETEXT_UTF8 | SAFETEXT_NEWLINE);
	line = f != NULL && b != NULL ? review_tsv_line(f, b, tags) : NULL;
	free(f);
	free(b);
	if (line == NULL)
		return -1;
	rc = fputs(line, fp) < 0 ? -1 : 0;
	free(line);
	return rc;
}

/* Notes of deck to fp: a course deck (every card) or a user deck. *n gets
 * the number written; nothing at all is written for an unknown deck. */
static int
write_deck(struct cli_session *s, const char *deck, FILE *fp, int *n)
{
	const struct content_deck *d = NULL;
	struct store_card_set set;
	struct pl_err err;
	size_t i;
	char *back, *head;
	int rc;

	memset(&set, 0, sizeof set);
	*n = 0;
	for (i = 0; i < s->course->n_decks; i++)
		if (strcmp(s->course->decks[i].id, deck) == 0)
			d = &s->course->decks[i];
	if (d == NULL && store_cards_load(s->store, s->profile, s->course,
	    NULL, deck, &set, &err) != 0) {
		cli_print_err(&err);
		return -2;
	}
	if (d == NULL && set.n == 0)
		return 0;
	head = review_tsv_header(deck);
	rc = head != NULL && fputs(head, fp) >= 0 ? 0 : -1;
	free(head);
	for (i = 0; d != NULL && rc == 0 && i < d->n_cards; i++, (*n)++) {
		const struct content_card *k = &s->course->cards[d->first_card + i];

		back = review_card_back(k, s->have_catalog ? &s->catalog : NULL);
		rc = back != NULL ? put_note(fp, deck, k->front, back) : -1;
		free(back);
	}
	for (i = 0; rc == 0 && i < set.n; i++, (*n)++)
		rc = put_note(fp, deck, set.cards[i].front, set.cards[i].back);
	store_card_set_free(&set);
	return rc;
}

/*
 * The export goes to a temporary file renamed over out when complete
 * (cli_out), so a failure leaves out as it was and nothing we did not
 * create is ever removed.
 */
static int
deck_export(struct cli_session *s, const char *deck, const char *out)
{
	struct cli_out o;
	int n = 0, rc;

	if (cli_out_open(&o, out) != 0)
		return 2;
	rc = write_deck(s, deck, o.fp, &n);
	if (rc == -1)
		cli_out_error(&o, errno);
	else if (rc == 0 && n == 0) {
		cli_printf(stderr, _("parlearn: deck: no deck called '%s' (see "
		    "'parlearn deck list')\n"), deck);
		rc = -1;
	}
	return cli_out_close(&o, rc != 0);
}

/* Read all of path ("-": stdin). NULL with a message on failure. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, n;

	*len = 0;
	if (fp == NULL) {
		cli_printf(stderr, "parlearn: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	do {
		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > (size_t)DECK_MAX_FILE ||
			    (nb = realloc(buf, cap + 1)) == NULL) {
				cli_printf(stderr, _("parlearn: %s: file too large\n"),
				    path);
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, fp);
		*len += n;
	} while (n > 0);
	if (fp != stdin)
		fclose(fp);
	return buf;
}

static int
deck_import(struct cli_session *s, const char *file, const char *name)
{
	struct review_tsv t;
	struct pl_err err;
	size_t len;
	char *text = slurp(file, &len);
	int rc = 2;

	if (text == NULL)
		return 2;
	if (review_tsv_parse(text, len, file, &t, &err) != 0)
		cli_print_err(&err);
	else if (store_cards_import(s->store, s->profile, s->course, name, &t,
	    (int64_t)time(NULL), &err) != 0) {
		cli_print_err(&err);
		review_tsv_free(&t);
	} else {
		cli_printf(stdout, P_("Imported %zu card into deck '%s'.\n",
		    "Imported %zu cards into deck '%s'.\n", t.n), t.n, name);
		review_tsv_free(&t);
		rc = 0;
	}
	free(text);
	return rc;
}

int
cli_deck_main(const struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *name = NULL, *verb;
	struct cli_session s;
	int ch, rc, nargs;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (ch) {
		case 'o': out = optarg; break;
		case 'n': name = optarg; break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "%s", _("Try 'parlearn deck --help' for more information.\n"));
			return 1;
		}
	}
	verb = optind < argc ? argv[optind] : "";
	nargs = argc - optind - 1;
	if (!((strcmp(verb, "list") == 0 && nargs == 0) ||
	    (strcmp(verb, "export") == 0 && nargs == 1) ||
	    (strcmp(verb, "import") == 0 && nargs == 1 && name != NULL))) {
		usage(stderr);
		return 1;
	}
	if ((rc = cli_session_open(ctx, &s, 1)) != 0)
		return rc;
	if (strcmp(verb, "list") == 0)
		rc = deck_list(&s);
	else if (strcmp(verb, "export") == 0)
		rc = deck_export(&s, argv[optind + 1], out);
	else
		rc = deck_import(&s, argv[optind + 1], name);
	cli_session_close(&s);
	return rc;
}
