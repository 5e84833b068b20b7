/*
 * scr_info.c - a full-screen page of text with a title, for entries whose
 * feature is described but not built yet.
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
};

struct wrap_draw {
	WINDOW	*w;
	int	 y;
	int	 rows;
	int	 width;
};

static const struct ui_key_help info_help[] = {
	{ N_("q, Esc, h"), N_("back") },
	{ NULL, NULL }
};

static void
emit(const char *s, size_t n, void *arg)
{
	struct wrap_draw *d = arg;
	char line[512];

	if (d->y >= d->rows - 2 || n >= sizeof line)
		return;
	memcpy(line, s, n);
	line[n] = '\0';
	ui_put(d->w, d->y++, 2, line, d->width, A_NORMAL);
}

static void
info_draw(struct ui_screen *s, WINDOW *w, int rows, int cols)
{
	struct info *in = s->state;
	struct wrap_draw d = { w, 2, rows, cols - 4 > 90 ? 90 : cols - 4 };
	size_t i;

	ui_title(w, cols, _(in->title), NULL);
	for (i = 0; in->body[i] != NULL; i++) {
		wrap_paragraph(_(in->body[i]), d.width, emit, &d);
		d.y++;
	}
	ui_status(w, rows, cols, _("q back  ? keys"), ui_attr(UI_C_DIM));
}

static enum ui_result
info_key(struct ui_screen *s, int ch)
{
	(void)s;
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
