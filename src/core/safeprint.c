/*
 * safeprint.c - printf through safetext.
 */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "core/safeprint.h"
#include "core/safetext.h"

int
safeprint_flags(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs != NULL && strcmp(cs, "UTF-8") == 0 ? SAFETEXT_UTF8 : 0;
}

int
safeprint_puts(FILE *fp, const char *text, int flags)
{
	char *safe = safetext_dup(text, safeprint_flags() | flags);
	int rc;

	if (safe == NULL)
		return -1;
	rc = fputs(safe, fp) < 0 ? -1 : 0;
	free(safe);
	return rc;
}

int
safeprint_vprintf(FILE *fp, const char *fmt, va_list ap)
{
	char *text;
	int rc;

	if (vasprintf(&text, fmt, ap) < 0)
		return -1;
	rc = safeprint_puts(fp, text, SAFETEXT_NEWLINE);
	free(text);
	return rc;
}

int
safeprint_printf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = safeprint_vprintf(fp, fmt, ap);
	va_end(ap);
	return rc;
}
