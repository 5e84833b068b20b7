/*
 * duration.c - a drop's time from its words, its questions, its
 * animations' events and its incidents (rates and budgets: duration.h).
 *
 * What is counted as read follows what the reader shows a learner who
 * answers right: a choice question's options and the explanations of its
 * right options, the question's explanation, a reveal's model answer. An
 * incident's brief, hints and worked solution are read too: three tries,
 * two of them failing, unlock the hints and then the solution.
 */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "i18n.h"
#include "core/course/animation.h"
#include "core/course/duration.h"
#include "core/sim/player.h"

void
duration_count_words(const char *s, size_t *prose, size_t *verbatim)
{
	int line_start = 1, verb = 0, in_word = 0;

	if (s == NULL)
		return;
	for (; *s != '\0'; s++) {
		if (line_start) {
			verb = s[0] == ' ' && s[1] == ' ';
			line_start = 0;
		}
		if (*s == ' ' || *s == '\n') {
			in_word = 0;
			line_start = *s == '\n';
			continue;
		}
		if (!in_word)
			(*(verb ? verbatim : prose))++;
		in_word = 1;
	}
}

int
duration_animation(const struct content_animation *an, double *play_s,
    size_t *stops)
{
	struct sim_config cfg;
	struct player p;
	struct pl_err err;

	*play_s = PLAYER_BASE_SECONDS;
	*stops = 0;
	if (animation_config(an, &cfg, &err) != 0 ||
	    player_init(&p, &cfg, &err) != 0)
		return -1;
	/* One play at the speed the player opens with. */
	*play_s = PLAYER_BASE_SECONDS / player_speed_factor(&p);
	*stops = p.n_stops;
	player_free(&p);
	return 0;
}

static void
question(const struct content_question *q, struct duration *out)
{
	size_t i;

	duration_count_words(q->prompt, &out->prose_words,
	    &out->verbatim_words);
	duration_count_words(q->explain, &out->prose_words,
	    &out->verbatim_words);
	for (i = 0; i < q->n_options; i++) {
		duration_count_words(q->options[i].text, &out->prose_words,
		    &out->verbatim_words);
		if (q->options[i].correct)
			duration_count_words(q->options[i].explain,
			    &out->prose_words, &out->verbatim_words);
	}
	switch (q->type) {
	case CONTENT_Q_SINGLE:
		out->questions_s += DURATION_SINGLE_S;
		break;
	case CONTENT_Q_MULTIPLE:
		out->questions_s += DURATION_MULTIPLE_OPTION_S *
		    (double)q->n_options;
		break;
	case CONTENT_Q_NUMERIC:
		out->questions_s += DURATION_NUMERIC_S;
		break;
	case CONTENT_Q_REVEAL:
		duration_count_words(q->answer, &out->prose_words,
		    &out->verbatim_words);
		out->questions_s += DURATION_REVEAL_S;
		break;
	}
	out->questions++;
}

static void
animation(const struct content_animation *an, struct duration *out)
{
	double play;
	size_t stops;

	duration_count_words(an->caption, &out->prose_words,
	    &out->verbatim_words);
	(void)duration_animation(an, &play, &stops);
	out->animations_s += play + DURATION_STEP_SHARE * DURATION_STEP_S *
	    (double)stops;
	out->anim_stops += stops;
	out->animations++;
}

static void
incident(const struct content_scenario *sc, struct duration *out)
{
	const cJSON *claims;
	size_t i;

	duration_count_words(sc->title, &out->prose_words,
	    &out->verbatim_words);
	duration_count_words(sc->brief, &out->prose_words,
	    &out->verbatim_words);
	for (i = 0; i < sc->n_hints; i++)
		duration_count_words(sc->hints[i], &out->prose_words,
		    &out->verbatim_words);
	duration_count_words(sc->solution, &out->prose_words,
	    &out->verbatim_words);
	out->incidents_s += DURATION_INCIDENT_S;
	claims = cJSON_GetObjectItemCaseSensitive(sc->raw, "claims");
	if (cJSON_IsArray(claims) && cJSON_GetArraySize(claims) > 0)
		out->incidents_s += DURATION_TRADEOFF_S + DURATION_CLAIM_S *
		    (double)cJSON_GetArraySize(claims);
	out->incidents++;
}

void
duration_drop(const struct content_drop *d, struct duration *out)
{
	const struct content_block *b;
	size_t i;

	memset(out, 0, sizeof *out);
	duration_count_words(d->title, &out->prose_words,
	    &out->verbatim_words);
	duration_count_words(d->summary, &out->prose_words,
	    &out->verbatim_words);
	for (i = 0; i < d->n_blocks; i++) {
		b = &d->blocks[i];
		switch (b->kind) {
		case CONTENT_TEXT:
			duration_count_words(b->title, &out->prose_words,
			    &out->verbatim_words);
			duration_count_words(b->text, &out->prose_words,
			    &out->verbatim_words);
			break;
		case CONTENT_QUESTION:
			question(&b->question, out);
			break;
		case CONTENT_ANIMATION:
			animation(&b->animation, out);
			break;
		case CONTENT_SCENARIO:
			incident(&b->scenario, out);
			break;
		}
	}
	out->read_s = 60.0 * ((double)out->prose_words / DURATION_PROSE_WPM +
	    (double)out->verbatim_words / DURATION_VERBATIM_WPM);
}

double
duration_seconds(const struct duration *du)
{
	return du->read_s + du->questions_s + du->animations_s +
	    du->incidents_s;
}

int
duration_minutes(double seconds)
{
	int m = (int)(seconds / 60.0 + 0.5);

	return m < 1 ? 1 : m;
}

int
duration_course(const struct content_course *c, int *minutes)
{
	struct duration du;
	size_t i;
	int sum = 0;

	for (i = 0; i < c->n_drops; i++) {
		duration_drop(&c->drops[i], &du);
		minutes[i] = duration_minutes(duration_seconds(&du));
		sum += minutes[i];
	}
	return sum;
}

char *
duration_text(int minutes, char *buf, size_t n)
{
	int h = minutes / 60, m = minutes % 60;

	if (h == 0)
		snprintf(buf, n, _("%d min"), m);
	else if (m == 0)
		snprintf(buf, n, _("%d h"), h);
	else
		snprintf(buf, n, _("%d h %d min"), h, m);
	return buf;
}
