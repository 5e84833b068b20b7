/*
 * sim_keys.h - the simulator's settings, one table (sim_keys.c keys[]):
 * each row is one setting of a struct sim_request with its animation-block
 * key, its option for `parlearn trace` and `parlearn run`, its help line,
 * its values, the member of the trace document that holds it and the
 * player's knob that turns it. trace's and run's options, their --help,
 * an animation block's keys and the words of every message that lists
 * modes or schedules are made from the table; adding a setting is one row.
 */
#ifndef PARLEARN_CORE_SIM_KEYS_H
#define PARLEARN_CORE_SIM_KEYS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/sim/sim.h"

enum sim_key_kind {
	SIM_KEY_WORD,		/* one of the key's words: mode, schedule */
	SIM_KEY_COUNT,		/* a whole number from 1 */
	SIM_KEY_FLAG		/* a switch: on when given (a block: true) */
};

/* Where a setting applies (bits of sim_key.uses). */
#define SIM_FOR_TRACE	0x01	/* `parlearn trace --OPTION` */
#define SIM_FOR_RUN	0x02	/* `parlearn run --OPTION` (and parlearn-run) */
#define SIM_FOR_BLOCK	0x04	/* an animation block's KEY */
#define SIM_FOR_KNOB	0x08	/* a knob of the player */
#define SIM_BLOCK_NEEDS	0x10	/* a block must give it */

/* getopt_long's val for the setting of row i: SIM_OPT_VAL + i. */
#define SIM_OPT_VAL	0x1000
#define SIM_NKEYS_MAX	16	/* rows the table may grow to */

struct sim_key {
	const char	*key;		/* a block's key, [a-z_]+ */
	const char	*option;	/* the option, without "--" */
	const char	*run_option;	/* run's own spelling, or NULL */
	enum sim_key_kind kind;
	const char	*arg;		/* WORD, COUNT: --help's placeholder */
	const char	*(*word)(int);	/* WORD: word i, NULL past the last */
	/* COUNT: the largest a block takes; an option takes up to INT_MAX
	 * (sim_config_check then bounds the run either way). */
	long		 block_hi;
	size_t		 off;		/* its field in struct sim_request */
	unsigned	 uses;		/* SIM_FOR_* */
	const char	*help;		/* gettext-marked; a WORD's: after
					   its words */
	const char	*run_help;	/* the same, run's own, or NULL */
	const char	*json;		/* member of parlearn.trace/1 */
	int		 json_negated;	/* 1: the member is the opposite */
	int		 knob;		/* enum sim_knob, or -1 */
	/* The player's keys: "gG" turns up and down, "p" toggles; NULL:
	 * the screen binds it (the mode: Tab, Shift-Tab). */
	const char	*knob_keys;
	const char	*knob_help;	/* the player's help line, marked */
};

/* The rows, terminated by one with key NULL. */
const struct sim_key	*sim_keys(void);

/* The row of an animation block's key, or NULL. */
const struct sim_key	*sim_key_find(const char *key);

/* The row of enum sim_knob knob, or NULL. */
const struct sim_key	*sim_key_of_knob(int knob);

/* The option's name for a command (SIM_FOR_TRACE or SIM_FOR_RUN),
 * without "--": "gpus", or run's "np". */
const char	*sim_key_option(const struct sim_key *, unsigned cmd);

/* The row whose option (with or without "--") cmd takes, or NULL. */
const struct sim_key	*sim_key_by_option(unsigned cmd, const char *name);

/* Index of s among a WORD key's words, or -1. */
int	sim_key_word_index(const struct sim_key *, const char *s);

/*
 * A WORD key's words as a sentence lists them, "single, dp, tp, pp, fsdp
 * or 3d" (the "or" translated), sep NULL; or joined by sep ("a|b|c").
 * Returns buf.
 */
char	*sim_key_words(const struct sim_key *, const char *sep, char *buf,
	    size_t size);

/* The keys of the rows with any of the uses bits, "a, b, c". Returns buf. */
char	*sim_keys_names(unsigned uses, char *buf, size_t size);

/*
 * getopt_long's entries for cmd's settings, val SIM_OPT_VAL + row, into
 * out (room for SIM_NKEYS_MAX). Returns how many.
 */
size_t	sim_opts_longopts(unsigned cmd, struct option *out);

/*
 * The one parser of trace's and run's settings: when val is a setting's
 * (sim_opts_longopts), apply arg to req and return 1, or return -1 with
 * err = "--gpus: 'x' is not a whole number from 1 to 2147483647" (the
 * option as cmd spells it); 0 when val is not a setting. Words are kept
 * as given: sim_config_build refuses an unknown one.
 */
int	sim_opts_take(unsigned cmd, int val, const char *arg,
	    struct sim_request *, struct pl_err *);

/*
 * A block's COUNT or FLAG key from obj into req (absent: left as is):
 * 0, or -1 with err naming PATH.KEY. WORD keys are the caller's (their
 * text is the block's own copy).
 */
int	sim_key_from_json(const struct sim_key *, const cJSON *obj,
	    struct sim_request *, const char *file, const char *path,
	    struct pl_err *);

/*
 * --help: "HEAD [--mode MODE] ... EXTRA..." wrapped to 80 columns (head
 * translated, "Usage: parlearn trace"; extra NULL-terminated, or NULL),
 * and the option lines of cmd's settings. sim_opts_line prints one more
 * in the same columns (help translated).
 */
void	sim_opts_synopsis(FILE *, unsigned cmd, const char *head,
	    const char *const *extra);
void	sim_opts_help(FILE *, unsigned cmd);
void	sim_opts_line(FILE *, const char *synopsis, const char *help);

#endif
