/*
 * number.h - numbers read and written the same in every locale.
 *
 * parlearn calls setlocale(LC_ALL, ""), so strtod and printf follow the
 * learner's LC_NUMERIC: under de_DE.UTF-8 strtod refuses "12.5" and
 * printf writes "12,5". Every number a learner types or a file holds goes
 * through pl_parse_double, which always accepts '.', and every number
 * written to JSON or CSV through pl_num_c, which always writes '.'.
 * Screens print with the locale's separator (pl_num_local, or plain
 * printf).
 */
#ifndef PARLEARN_CORE_NUMBER_H
#define PARLEARN_CORE_NUMBER_H

#include <stddef.h>

enum pl_num_flags {
	/* Also accept the locale's decimal separator when it is not '.'
	 * (a German learner types "107,8" in an answer box). Never for
	 * command-line options, where "1,5" could be a typo for a list. */
	PL_NUM_LOCALE	= 1 << 0,
	/* The value asked for is a fraction: "27%" means 0.27. Without
	 * this flag a trailing '%' is allowed and ignored ("27%" is 27),
	 * for values asked in percent. */
	PL_NUM_FRACTION	= 1 << 1,
	/* Accept a ratio "a/b" ("3/11"); b must not be 0. */
	PL_NUM_RATIO	= 1 << 2
};

/*
 * Parse the whole of s as a finite number: optional sign, digits with an
 * optional decimal part, an optional exponent ("7.5e9"), then an
 * optional '%' or, with PL_NUM_RATIO, "/b". Spaces around it are allowed;
 * "inf", "nan", hexadecimal and thousands separators are not. Returns 0
 * with *out set, or -1 (and *out untouched) if s is not such a number.
 */
int	pl_parse_double(const char *s, unsigned flags, double *out);

/*
 * Parse the whole of s as a whole number from min to max: optional
 * spaces, an optional sign, the digits 0-9, optional spaces; nothing
 * else ("4x", "1e3", "1.0", "", a thousands separator or a value beyond
 * long are refused). The same in every locale. Returns 0 with *out set,
 * or -1 (and *out untouched) if s is not such a number.
 */
int	pl_parse_long(const char *s, long min, long max, long *out);

/*
 * Format v with printf's "%.*g" (conv 'g'), "%.*f" (conv 'f') or "%.*e"
 * (conv 'e') and digits as the precision, into buf of size n. pl_num_c
 * always writes '.' as the decimal point (JSON, CSV, files);
 * pl_num_local writes the locale's (screens). Both return buf; an
 * unknown conv formats as 'g'.
 */
const char	*pl_num_c(char *buf, size_t n, double v, char conv, int digits);
const char	*pl_num_local(char *buf, size_t n, double v, char conv,
		    int digits);

#endif
