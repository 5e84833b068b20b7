/*
 * cmd_deck.c - `parlearn deck list|export|import`: decks as Anki's note
 * file (core/srs/anki.h), both ways.
 *
 * Imported decks live in the progress database (table user_cards, one
 * deck per profile and name, store/cards_anki.h), beside the cards made
 * from questions answered wrongly (deck "mistakes"); the course decks stay
 * read-only JSON under flashcards/.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "i18n.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/jsonout.h"
#include "cli/output.h"
#include "cli/usage.h"
#include "core/safetext.h"
#include "core/srs/anki.h"
#include "store/cards.h"
#include "store/cards_anki.h"

#define DECK_MAX_FILE	(64L * 1024 * 1024)	/* largest file read */

static void
usage(FILE *fp)
{
	fprintf(fp, "%s", _("Usage: parlearn deck list [--json]\n"
	    "       parlearn deck export DECK [-o FILE]\n"
	    "       parlearn deck import FILE [--name NAME]\n"
	    "List the flashcard decks; export one as a text file Anki imports\n"
	    "(File > Import: each note with a stable GUID, its deck and tags);\n"
	    "or import such a file, or any Anki \"Notes in Plain Text\" export,\n"
	    "into decks of your own, kept in your progress database ('-' reads\n"
	    "standard input). Notes are matched by GUID (else by deck and\n"
	    "front): importing a file again adds nothing and updates what\n"
	    "changed.\n"
	    "\n"
	    "  --json              list as JSON (schema parlearn.deck-list/1)\n"
	    "  -o, --output FILE   write the export to FILE (default: standard\n"
	    "                      output), a regular file replaced when complete:\n"
	    "                      a link or a device (/dev/null, /dev/stdout) is\n"
	    "                      refused; leave out -o and redirect instead\n"
	    "  --name NAME         import every note into deck NAME (default: the\n"
	    "                      deck each note names)\n"
	    "  -h, --help          show this help\n"));
}

static void
print_user_deck(const char *deck, int n, void *arg)
{
	(void)arg;
	cli_printf(stdout, P_("%-24s %4d card   (yours)\n",
	    "%-24s %4d cards  (yours)\n", n), deck, n);
}

static void
add_user_deck(const char *deck, int n, void *arg)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "id", deck);
	cJSON_AddNullToObject(o, "title");
	cJSON_AddNumberToObject(o, "cards", n);
	cJSON_AddBoolToObject(o, "own", 1);
	cJSON_AddItemToArray(arg, o);
}

static int
deck_list_json(struct cli_session *s)
{
	const struct content_deck *d;
	struct pl_err err;
	cJSON *doc, *arr, *o;
	size_t i;

	if ((doc = cli_json_doc(CLI_SCHEMA("deck-list"))) == NULL)
		return cli_json_emit(NULL);
	arr = cJSON_AddArrayToObject(doc, "decks");
	for (i = 0; i < s->course->n_decks; i++) {
		d = &s->course->decks[i];
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", d->id);
		cJSON_AddStringToObject(o, "title", d->title);
		cJSON_AddNumberToObject(o, "cards", (double)d->n_cards);
		cJSON_AddBoolToObject(o, "own", 0);
		cJSON_AddItemToArray(arr, o);
	}
	if (store_user_decks(s->store, s->profile, add_user_deck, arr,
	    &err) != 0) {
		cli_print_err(&err);
		cJSON_Delete(doc);
		return 2;
	}
	return cli_json_emit(doc);
}

static int
deck_list(struct cli_session *s, int json)
{
	struct pl_err err;
	size_t i;

	if (json)
		return deck_list_json(s);
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

/* Where an export writes, and how it went. */
struct export {
	FILE	*fp;
	int	 n;		/* notes written */
	int	 failed;	/* a write or an allocation failed */
};

/*
 * Write one note. Stored text is shown, never obeyed, even if an older
 * parlearn or a hand edit left an escape in it.
 */
static void
put_note(struct export *x, const char *card_id, const char *deck,
    const char *front, const char *back, const char *tags)
{
	struct anki_out_note n;
	char guid[700], *f, *b, *t, *dk, *line;

	dk = safetext_dup(deck, SAFETEXT_UTF8);
	f = safetext_dup(front, SAFETEXT_UTF8 | SAFETEXT_NEWLINE);
	b = safetext_dup(back, SAFETEXT_UTF8 | SAFETEXT_NEWLINE);
	t = safetext_dup(tags, SAFETEXT_UTF8);
	n.guid = anki_guid_of(card_id, guid, sizeof guid);
	n.deck = dk;
	n.front = f;
	n.back = b;
	n.tags = t;
	line = dk != NULL && f != NULL && b != NULL && t != NULL ?
	    anki_line(&n) : NULL;
	if (line == NULL || fputs(line, x->fp) < 0)
		x->failed = 1;
	else
		x->n++;
	free(line);
	free(dk);
	free(f);
	free(b);
	free(t);
}

static void
put_user_note(const struct store_note *k, void *arg)
{
	put_note(arg, k->card_id, k->deck, k->front, k->back, k->tags);
}

/* A course deck: every card, tagged "parlearn" and the deck's name. */
static void
put_course_deck(struct cli_session *s, const struct content_deck *d,
    struct export *x)
{
	const struct content_card *k;
	char tags[300], *back, *p;
	size_t i;

	snprintf(tags, sizeof tags, "parlearn %s", d->id);
	for (p = tags + 9; *p != '\0'; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
	for (i = 0; i < d->n_cards && !x->failed; i++) {
		k = &s->course->cards[d->first_card + i];
		back = review_card_back(k, s->have_catalog ? &s->catalog : NULL);
		if (back == NULL)
			x->failed = 1;
		else
			put_note(x, k->id, d->id, k->front, back, tags);
		free(back);
	}
}

struct deck_find {
	const char	*name;
	int		 found;
};

static void
match_deck(const char *deck, void *arg)
{
	struct deck_find *f = arg;

	if (strcmp(deck, f->name) == 0)
		f->found = 1;
}

/*
 * One of the learner's own decks: *st, the database opened to read it.
 * A database or profile that does not exist has no decks; neither is
 * created. 0, or 2 after printing why.
 */
static int
open_user_deck(const struct cli_ctx *ctx, const char *deck,
    struct store **st)
{
	struct deck_find f = { deck, 0 };
	struct pl_err err;
	struct stat sb;

	*st = NULL;
	pl_err_clear(&err);
	if (stat(ctx->db_path, &sb) == 0 || errno != ENOENT) {
		if ((*st = store_open_dirs(ctx->db_path, 0, &err)) == NULL ||
		    store_user_deck_names(*st, ctx->profile, match_deck, &f,
		    &err) != 0) {
			cli_print_err(&err);
			return 2;
		}
	}
	if (!f.found) {
		cli_error(_("no deck called '%s' (see 'parlearn deck list')"),
		    deck);
		return 2;
	}
	return 0;
}

/*
 * deck export only reads: a course deck comes from the course alone, one
 * of the learner's own from the database, which it never writes (no
 * profile is created, nothing is recorded). So an export that fails, as
 * on a full disk, leaves the database as it was. The export goes to a
 * temporary file renamed over out when complete (cli_out), so a failure
 * leaves out as it was too; an unknown deck writes nothing.
 */
static int
deck_export(const struct cli_ctx *ctx, const char *deck, const char *out)
{
	const struct content_deck *d = NULL;
	struct export x = { NULL, 0, 0 };
	struct cli_session s;
	struct store *st = NULL;
	struct pl_err err;
	struct cli_out o;
	char *head = NULL, *safe;
	size_t i;
	int rc;

	if ((rc = cli_course_open(ctx, &s, 1)) != 0)
		return rc;
	for (i = 0; i < s.course->n_decks; i++)
		if (strcmp(s.course->decks[i].id, deck) == 0)
			d = &s.course->decks[i];
	if ((d == NULL && (rc = open_user_deck(ctx, deck, &st)) != 0) ||
	    (rc = cli_out_open(&o, out)) != 0) {
		store_close(st);
		cli_session_close(&s);
		return rc;
	}
	x.fp = o.fp;
	safe = safetext_dup(deck, SAFETEXT_UTF8);
	head = safe != NULL ? anki_header(safe) : NULL;
	errno = 0;
	if (head == NULL || fputs(head, o.fp) < 0)
		x.failed = 1;
	if (d != NULL && !x.failed)
		put_course_deck(&s, d, &x);
	else if (!x.failed && store_user_deck_notes(st, ctx->profile, deck,
	    put_user_note, &x, &err) < 0) {
		cli_print_err(&err);
		rc = 2;
	}
	if (x.failed)
		cli_out_error(&o, errno != 0 ? errno : ENOMEM);
	free(head);
	free(safe);
	rc = cli_out_close(&o, x.failed || rc != 0);
	store_close(st);
	cli_session_close(&s);
	return rc;
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
		cli_error("%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > (size_t)DECK_MAX_FILE ||
			    (nb = realloc(buf, cap + 1)) == NULL) {
				cli_error(_("%s: file too large"), path);
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, fp);
		*len += n;
	} while (n > 0);
	if (buf != NULL)
		buf[*len] = '\0';
	if (fp != stdin)
		fclose(fp);
	return buf;
}

static int
deck_import(struct cli_session *s, const char *file, const char *name)
{
	struct store_import_counts n;
	struct anki_notes notes;
	struct pl_err err;
	size_t len;
	char *text = slurp(file, &len);
	int rc = 2;

	if (text == NULL)
		return 2;
	if (anki_parse(text, len, file, &notes, &err) != 0)
		cli_print_err(&err);
	else {
		if (store_cards_import(s->store, s->profile, s->course, name,
		    &notes, file, (int64_t)time(NULL), &n, &err) != 0)
			cli_print_err(&err);
		else {
			cli_printf(stdout, P_("%s: %zu note: %d added, %d "
			    "updated, %d already there\n", "%s: %zu notes: %d "
			    "added, %d updated, %d already there\n", notes.n),
			    file, notes.n, n.added, n.updated, n.unchanged);
			rc = 0;
		}
		anki_notes_free(&notes);
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
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *name = NULL, *verb;
	struct cli_session s;
	int ch, rc, nargs, json = 0;

	optind = 0;
	while ((ch = cli_getopt(argc, argv, "ho:", opts)) != -1) {
		switch (ch) {
		case 'o': out = optarg; break;
		case 'n': name = optarg; break;
		case 'j': json = 1; break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return 1;
		}
	}
	verb = optind < argc ? argv[optind] : "";
	nargs = argc - optind - 1;
	if (strcmp(verb, "list") != 0 && strcmp(verb, "export") != 0 &&
	    strcmp(verb, "import") != 0)
		return verb[0] == '\0' ?
		    cli_usage_error("%s", _("expected a command: list, export "
		    "or import")) :
		    cli_usage_error(_("unknown command '%s' (list, export, "
		    "import)"), verb);
	if (strcmp(verb, "list") == 0 && nargs > 0)
		return cli_extra_argument(argv[optind + 1]);
	if (json && strcmp(verb, "list") != 0)
		return cli_usage_error("%s", _("--json goes with list"));
	if (strcmp(verb, "list") != 0 && nargs != 1)
		return nargs > 1 ? cli_extra_argument(argv[optind + 2]) :
		    cli_usage_error("%s", strcmp(verb, "export") == 0 ?
		    _("export: which deck?") : _("import: which file?"));
	if (strcmp(verb, "export") == 0)
		return deck_export(ctx, argv[optind + 1], out);
	if ((rc = (strcmp(verb, "list") == 0 ? cli_session_read :
	    cli_session_open)(ctx, &s, 1)) != 0)
		return rc;
	if (strcmp(verb, "list") == 0)
		rc = deck_list(&s, json);
	else
		rc = deck_import(&s, argv[optind + 1], name);
	cli_session_close(&s);
	return rc;
}
