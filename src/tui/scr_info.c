/*
 * scr_info.c - a full-screen page of text with a title, for entries whose
 * feature is described but not built yet. Text longer than the window
 * scrolls with j/k, the page keys and g/G.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "core/wrap.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/term.h"
#include "tui/ui.h"

struct info {
	const char		*title;		/* N_() */
	const char *const	*body;		/* N_() paragraphs, NULL-ended */
	int			 top;		/* lines scrolled off */
	int			 lines;		/* lines the text took last draw */
	int			 rows;		/* rows it had */
};

static const struct ui_key_help info_help[] = {
	{ N_("Up/Down, j/k"), N_("scroll") },
	{ N_("PgDn, f, Space"), N_("scroll a page down") },
	{ N_("PgUp, b"), N_("scroll a page up") },
	{ N_("Home/End, g/G"), N_("top / bottom") },
	{ N_("q, Esc, h"), N_("back") },
	{ NULL, NULL }
};

static void
info_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct info *in = s->state;
	struct ui_text_draw d = { w, 2, 2, rows - 3,
	    cols - 4 > 90 ? 90 : cols - 4, A_NORMAL, 0, 0 };
	size_t i;

	in->rows = rows - 4;
	if (in->top > in->lines - in->rows)
		in->top = in->lines - in->rows;
	if (in->top < 0)
		in->top = 0;
	d.skip = in->top;
	ui_title(w, cols, _(in->title), NULL);
	for (i = 0; in->body[i] != NULL; i++) {
		if (i > 0)
			ui_text_line("", 0, &d);
		wrap_paragraph(_(in->body[i]), d.width, ui_text_line, &d);
	}
	in->lines = d.total;
	ui_status(w, rows, cols, in->lines > in->rows ?
	    _("j/k scroll  f/b page  q back  ? keys") : _("q back  ? keys"),
	    ui_attr(UI_C_DIM));
}

static enum ui_result
info_key(struct ui_screen *s, int ch)
{
	struct info *in = s->state;
	int page = in->rows > 2 ? in->rows - 1 : 1;

	/* The end is in->lines: drawing clamps it. */
	if (ui_scroll_key(ch, &in->top, page, in->lines))
		return UI_HANDLED;
	if (ch == 'q' || ch == 'Q' || ch == 27 || ch == 'h' || ch == KEY_LEFT)
		return UI_BACK;
	return UI_IGNORED;
}

static void
info_free(struct ui_screen *s)
{
	free(s->state);
}

struct ui_screen *
ui_info_new(const char *title, const char *const *body)
{
	struct ui_screen *s = calloc(1, sizeof *s);
	struct info *in = calloc(1, sizeof *in);

	if (s == NULL || in == NULL) {
		free(s);
		free(in);
		return NULL;
	}
	in->title = title;
	in->body = body;
	s->title = title;
	s->help = info_help;
	s->draw = info_draw;
	s->key = info_key;
	s->free = info_free;
	s->state = in;
	return s;
}
