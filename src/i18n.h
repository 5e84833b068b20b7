/*
 * i18n.h - the one place that defines the gettext shorthands.
 *
 * _() translates now, N_() marks a string in a static table for xgettext
 * and leaves it to be translated where it is drawn.
 */
#ifndef PARLEARN_I18N_H
#define PARLEARN_I18N_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#if defined(ENABLE_NLS) && ENABLE_NLS
#include <libintl.h>
#define _(s)		gettext(s)
#define P_(s, p, n)	ngettext((s), (p), (n))
#else
#define _(s)		((char *)(s))
#define P_(s, p, n)	((n) == 1 ? (char *)(s) : (char *)(p))
#endif
#define N_(s)		(s)

#endif
