/*
 * content.h - the course as loaded from disk: phases, drops, blocks, decks.
 *
 * content_load() reads DIR/lessons/course.json, every DIR/lessons/<phase>/NN-name.json
 * and every DIR/flashcards/NAME.json, validates them (schema: lessons/README.md)
 * and returns one struct content_course that owns every string in it; free
 * it with content_free(). Text is sanitised on load: control characters and
 * escape sequences never reach a caller, and invalid UTF-8 is an error.
 *
 * A broken drop or deck file does not stop the load: it is left out and its
 * problem is added to the problem list. Only a missing or broken course.json
 * (or a missing lessons/ directory) makes content_load() return NULL.
 */
#ifndef PARLEARN_CORE_CONTENT_H
#define PARLEARN_CORE_CONTENT_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/sim/sim.h"

enum content_block_kind {
	CONTENT_TEXT,
	CONTENT_QUESTION,
	CONTENT_ANIMATION,
	CONTENT_SCENARIO
};

enum content_qtype {
	CONTENT_Q_SINGLE,
	CONTENT_Q_MULTIPLE,
	CONTENT_Q_NUMERIC,
	CONTENT_Q_REVEAL
};

struct content_option {
	char	*text;
	int	 correct;		/* 1 if this option is (one of) the answer */
	char	*explain;		/* why this option is right or wrong */
};

struct content_question {
	char			*id;
	enum content_qtype	 type;
	char			*prompt;
	char			*explain;	/* shown after answering; may be NULL */
	struct content_option	*options;	/* single, multiple */
	size_t			 n_options;
	char			*answer;	/* reveal: the model answer */
	cJSON			*engine;	/* numeric: engine configuration (owned) */
	char			*quantity;	/* numeric: engine quantity name */
	double			 tolerance;	/* numeric: relative, 0.05 = 5 % */
	char			*unit;		/* numeric: shown after the input; may be NULL */
	int			 expect_oom;	/* numeric: "expect": "oom" */
};

/*
 * An animation block: the simulator's settings, one per key of the
 * block (core/sim/sim_keys.h), 0 or NULL where the block leaves it to the
 * default. The strings req.mode and req.schedule are the block's own.
 */
struct content_animation {
	struct sim_request	 req;
	char			*caption;
};

struct content_scenario {
	char	*id;
	char	*title;
	char	*brief;
	cJSON	*raw;			/* the whole block, for the playground (owned) */
	char	**hints;
	size_t	 n_hints;
	char	*solution;
	int	 expect_oom;		/* "expect": "oom": the start does not fit */
};

struct content_block {
	enum content_block_kind	 kind;
	char			*title;		/* text: optional heading */
	char			*text;		/* text: the body */
	struct content_question	 question;
	struct content_animation animation;
	struct content_scenario	 scenario;
};

struct content_drop {
	char			*id;		/* "drop-01" */
	int			 phase;		/* 1-based */
	int			 number;	/* position in the course */
	char			*title;
	char			*summary;	/* may be NULL */
	char			*file;		/* path it was loaded from */
	struct content_block	*blocks;
	size_t			 n_blocks;
};

struct content_phase {
	int	 number;
	char	*title;
	char	*goal;			/* may be NULL */
};

struct content_card {
	char	*id;
	char	*deck;			/* deck id it belongs to */
	char	*drop;			/* drop id that unlocks it */
	char	*front;
	char	*back;
	cJSON	*engine;		/* numeric card: configuration, or NULL */
	char	*quantity;		/* numeric card: quantity name, or NULL */
	int	 expect_oom;		/* numeric card: "expect": "oom" */
};

struct content_deck {
	char	*id;
	char	*title;
	char	*file;
	size_t	 first_card;		/* index into course->cards */
	size_t	 n_cards;
};

struct content_course {
	char			*dir;		/* the content directory */
	char			*title;
	struct content_phase	*phases;	/* sorted by number */
	size_t			 n_phases;
	struct content_drop	*drops;		/* sorted by number */
	size_t			 n_drops;
	struct content_deck	*decks;
	size_t			 n_decks;
	struct content_card	*cards;
	size_t			 n_cards;
	/* lessons/reference.json: the cheatsheet and key equations, read like
	 * a drop but not part of the course; NULL when the file is absent. */
	struct content_drop	*reference;
};

/* Problems found while loading; each is a located struct pl_err. */
struct content_problems {
	struct pl_err	*items;
	size_t		 n;
	size_t		 cap;
};

/*
 * Load the course under dir. Returns NULL when nothing usable could be
 * loaded (first problem in probs says why). probs may be NULL; otherwise
 * it collects every problem and the caller frees it with
 * content_problems_free().
 */
struct content_course	*content_load(const char *dir,
			    struct content_problems *probs);
void			 content_free(struct content_course *);
void			 content_problems_free(struct content_problems *);
/* Append a copy of e to probs (NULL probs: nothing happens). */
void			 content_add_problem(struct content_problems *probs,
			    const struct pl_err *e);

/* Drop with this id, or NULL. Borrowed. */
const struct content_drop	*content_find_drop(const struct content_course *,
				    const char *id);
/* Phase with this number, or NULL. */
const struct content_phase	*content_find_phase(
				    const struct content_course *, int number);

/* Drops of one phase: index of the first in course->drops and the count. */
size_t	content_phase_drops(const struct content_course *, int phase,
	    size_t *first);

/*
 * Copy s with control characters removed: C0 (but \n kept, \t turned into
 * a space), DEL, C1 (U+0080..U+009F) and whole ESC/CSI sequences. Returns an
 * allocated string or NULL if s is not valid UTF-8 (*bad_off then holds the
 * byte offset of the first bad byte).
 */
char	*content_sanitize(const char *s, size_t *bad_off);

/* 1 if name is one of cm_quantity_names(), what the engine computes. */
int	content_quantity_known(const char *name);

#endif
