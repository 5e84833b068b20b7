/*
 * safeprint.h - printf whose whole output goes through safetext, for both
 * programs (parlearn's cli_printf and parlearn-run's messages), so a file
 * name, a value from a file or an argument never reaches a terminal as
 * control characters.
 */
#ifndef PARLEARN_CORE_SAFEPRINT_H
#define PARLEARN_CORE_SAFEPRINT_H

#include <stdarg.h>
#include <stdio.h>

/* SAFETEXT_UTF8 when the locale's codeset is UTF-8, else 0. */
int	safeprint_flags(void);

/*
 * Write text to fp rendered by safetext with safeprint_flags() | flags.
 * 0, or -1 when out of memory or the write failed.
 */
int	safeprint_puts(FILE *fp, const char *text, int flags);

/*
 * Format and write to fp with every control character but '\n' and '\t'
 * (from our own format strings) shown as text. 0, or -1.
 */
int	safeprint_vprintf(FILE *fp, const char *fmt, va_list ap);
int	safeprint_printf(FILE *fp, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
