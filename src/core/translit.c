/*
 * translit.c - the ASCII form of the characters lessons use.
 *
 * One table sorted by code point, searched with bsearch. The forms are
 * what a person writes in a plain-text email: operators as their ASCII
 * spelling, superscripts with '^', Greek letters by name, accented
 * letters without their accent (German umlauts as "ae", "oe", "ue").
 */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "core/translit.h"

struct form {
	unsigned long	 cp;
	const char	*ascii;
};

static const struct form forms[] = {
	{ 0x00A0, " " },	/* no-break space */
	{ 0x00A1, "!" }, { 0x00A2, "c" }, { 0x00A3, "GBP" },
	{ 0x00A7, "S" }, { 0x00A9, "(c)" }, { 0x00AB, "<<" },
	{ 0x00AD, "" },		/* soft hyphen */
	{ 0x00AE, "(R)" }, { 0x00B0, "deg" }, { 0x00B1, "+/-" },
	{ 0x00B2, "^2" }, { 0x00B3, "^3" }, { 0x00B4, "'" },
	{ 0x00B5, "u" },	/* micro: "us", "um" */
	{ 0x00B7, "*" },	/* middle dot as multiplication */
	{ 0x00B9, "^1" }, { 0x00BB, ">>" }, { 0x00BC, "1/4" },
	{ 0x00BD, "1/2" }, { 0x00BE, "3/4" }, { 0x00BF, "?" },
	{ 0x00C0, "A" }, { 0x00C1, "A" }, { 0x00C2, "A" }, { 0x00C3, "A" },
	{ 0x00C4, "Ae" }, { 0x00C5, "A" }, { 0x00C6, "AE" }, { 0x00C7, "C" },
	{ 0x00C8, "E" }, { 0x00C9, "E" }, { 0x00CA, "E" }, { 0x00CB, "E" },
	{ 0x00CC, "I" }, { 0x00CD, "I" }, { 0x00CE, "I" }, { 0x00CF, "I" },
	{ 0x00D1, "N" }, { 0x00D2, "O" }, { 0x00D3, "O" }, { 0x00D4, "O" },
	{ 0x00D5, "O" }, { 0x00D6, "Oe" }, { 0x00D7, "x" }, { 0x00D8, "O" },
	{ 0x00D9, "U" }, { 0x00DA, "U" }, { 0x00DB, "U" }, { 0x00DC, "Ue" },
	{ 0x00DD, "Y" }, { 0x00DF, "ss" },
	{ 0x00E0, "a" }, { 0x00E1, "a" }, { 0x00E2, "a" }, { 0x00E3, "a" },
	{ 0x00E4, "ae" }, { 0x00E5, "a" }, { 0x00E6, "ae" }, { 0x00E7, "c" },
	{ 0x00E8, "e" }, { 0x00E9, "e" }, { 0x00EA, "e" }, { 0x00EB, "e" },
	{ 0x00EC, "i" }, { 0x00ED, "i" }, { 0x00EE, "i" }, { 0x00EF, "i" },
	{ 0x00F1, "n" }, { 0x00F2, "o" }, { 0x00F3, "o" }, { 0x00F4, "o" },
	{ 0x00F5, "o" }, { 0x00F6, "oe" }, { 0x00F7, "/" }, { 0x00F8, "o" },
	{ 0x00F9, "u" }, { 0x00FA, "u" }, { 0x00FB, "u" }, { 0x00FC, "ue" },
	{ 0x00FD, "y" }, { 0x00FF, "y" },
	{ 0x0391, "Alpha" }, { 0x0392, "Beta" }, { 0x0393, "Gamma" },
	{ 0x0394, "Delta" }, { 0x0395, "Epsilon" }, { 0x0396, "Zeta" },
	{ 0x0397, "Eta" }, { 0x0398, "Theta" }, { 0x0399, "Iota" },
	{ 0x039A, "Kappa" }, { 0x039B, "Lambda" }, { 0x039C, "Mu" },
	{ 0x039D, "Nu" }, { 0x039E, "Xi" }, { 0x039F, "Omicron" },
	{ 0x03A0, "Pi" }, { 0x03A1, "Rho" }, { 0x03A3, "Sigma" },
	{ 0x03A4, "Tau" }, { 0x03A5, "Upsilon" }, { 0x03A6, "Phi" },
	{ 0x03A7, "Chi" }, { 0x03A8, "Psi" }, { 0x03A9, "Omega" },
	{ 0x03B1, "alpha" }, { 0x03B2, "beta" }, { 0x03B3, "gamma" },
	{ 0x03B4, "delta" }, { 0x03B5, "epsilon" }, { 0x03B6, "zeta" },
	{ 0x03B7, "eta" }, { 0x03B8, "theta" }, { 0x03B9, "iota" },
	{ 0x03BA, "kappa" }, { 0x03BB, "lambda" }, { 0x03BC, "mu" },
	{ 0x03BD, "nu" }, { 0x03BE, "xi" }, { 0x03BF, "omicron" },
	{ 0x03C0, "pi" }, { 0x03C1, "rho" }, { 0x03C2, "sigma" },
	{ 0x03C3, "sigma" }, { 0x03C4, "tau" }, { 0x03C5, "upsilon" },
	{ 0x03C6, "phi" }, { 0x03C7, "chi" }, { 0x03C8, "psi" },
	{ 0x03C9, "omega" }, { 0x03D5, "phi" },
	{ 0x1D40, "^T" },	/* modifier capital T: a transpose */
	{ 0x2002, " " }, { 0x2003, " " }, { 0x2009, " " }, { 0x200A, " " },
	{ 0x200B, "" },		/* zero-width space */
	{ 0x2010, "-" }, { 0x2011, "-" }, { 0x2012, "-" }, { 0x2013, "-" },
	{ 0x2014, "-" }, { 0x2015, "-" }, { 0x2018, "'" }, { 0x2019, "'" },
	{ 0x201A, "," }, { 0x201C, "\"" }, { 0x201D, "\"" }, { 0x201E, "\"" },
	{ 0x2020, "+" }, { 0x2022, "*" }, { 0x2026, "..." }, { 0x202F, " " },
	{ 0x2030, "o/oo" }, { 0x2032, "'" }, { 0x2033, "\"" },
	{ 0x2070, "^0" }, { 0x2071, "^i" }, { 0x2074, "^4" }, { 0x2075, "^5" },
	{ 0x2076, "^6" }, { 0x2077, "^7" }, { 0x2078, "^8" }, { 0x2079, "^9" },
	{ 0x207A, "^+" }, { 0x207B, "^-" }, { 0x207F, "^n" },
	{ 0x2080, "_0" }, { 0x2081, "_1" }, { 0x2082, "_2" }, { 0x2083, "_3" },
	{ 0x2084, "_4" }, { 0x2085, "_5" }, { 0x2086, "_6" }, { 0x2087, "_7" },
	{ 0x2088, "_8" }, { 0x2089, "_9" },
	{ 0x20AC, "EUR" }, { 0x2122, "(TM)" },
	{ 0x2190, "<-" }, { 0x2191, "^" }, { 0x2192, "->" }, { 0x2193, "v" },
	{ 0x2194, "<->" }, { 0x21D0, "<=" }, { 0x21D2, "=>" }, { 0x21D4, "<=>" },
	{ 0x2200, "for all" }, { 0x2202, "d" }, { 0x2203, "exists" },
	{ 0x2206, "Delta" }, { 0x2207, "nabla" }, { 0x2208, " in " },
	{ 0x220F, "prod" }, { 0x2211, "sum" }, { 0x2212, "-" }, { 0x2213, "-/+" },
	{ 0x2215, "/" }, { 0x2217, "*" }, { 0x2219, "*" }, { 0x221A, "sqrt" },
	{ 0x221D, " prop. to " }, { 0x221E, "inf" }, { 0x2223, "|" },
	{ 0x2225, "||" }, { 0x2227, " and " }, { 0x2228, " or " },
	{ 0x2229, " cap " }, { 0x222A, " cup " }, { 0x222B, "integral" },
	{ 0x223C, "~" }, { 0x2243, "~=" }, { 0x2245, "~=" }, { 0x2248, "~=" },
	{ 0x2260, "!=" }, { 0x2261, "==" }, { 0x2264, "<=" }, { 0x2265, ">=" },
	{ 0x226A, "<<" }, { 0x226B, ">>" }, { 0x2282, " subset of " },
	{ 0x2286, " subset of " }, { 0x2295, "(+)" }, { 0x2297, "(x)" },
	{ 0x22C5, "*" }, { 0x22EF, "..." }, { 0x2308, "ceil(" },
	{ 0x2309, ")" }, { 0x230A, "floor(" }, { 0x230B, ")" },
	{ 0x2500, "-" }, { 0x2502, "|" }, { 0x250C, "+" }, { 0x2510, "+" },
	{ 0x2514, "+" }, { 0x2518, "+" }, { 0x251C, "+" }, { 0x2524, "+" },
	{ 0x252C, "+" }, { 0x2534, "+" }, { 0x253C, "+" }, { 0x2550, "=" },
	{ 0x2588, "#" }, { 0x2591, "." }, { 0x2592, ":" }, { 0x2593, "#" },
	{ 0x25A0, "#" }, { 0x25B2, "^" }, { 0x25B6, ">" }, { 0x25BC, "v" },
	{ 0x25C0, "<" }, { 0x25CF, "o" }, { 0x2713, "*" }, { 0x2714, "*" },
	{ 0x2717, "x" }, { 0x2718, "x" },
};

#define N_FORMS	(sizeof forms / sizeof forms[0])

int
translit_wanted(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs == NULL || strcmp(cs, "UTF-8") != 0;
}

size_t
translit_decode(const char *s, size_t max, unsigned long *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long c, min;
	size_t n, i;

	*cp = 0xFFFD;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xC2 && u[0] <= 0xDF) {
		n = 2, c = u[0] & 0x1F, min = 0x80;
	} else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
		n = 3, c = u[0] & 0x0F, min = 0x800;
	} else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
		n = 4, c = u[0] & 0x07, min = 0x10000;
	} else
		return 1;
	if (n > max)
		return 1;
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return 1;
		c = c << 6 | (u[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 1;
	*cp = c;
	return n;
}

static int
cmp_form(const void *key, const void *elem)
{
	unsigned long k = *(const unsigned long *)key;
	const struct form *f = elem;

	return k < f->cp ? -1 : k > f->cp;
}

const char *
translit_cp(unsigned long cp)
{
	const struct form *f = bsearch(&cp, forms, N_FORMS, sizeof forms[0],
	    cmp_form);

	return f != NULL ? f->ascii : NULL;
}

const char *
translit_char(const char *s, size_t max, size_t *len, char one[2])
{
	unsigned long cp;
	const char *a;

	*len = translit_decode(s, max, &cp);
	if (cp < 0x80) {
		one[0] = (char)cp;
		one[1] = '\0';
		return one;
	}
	a = translit_cp(cp);
	return a != NULL ? a : "?";
}

size_t
translit_ascii(const char *s, size_t n, char *out, size_t outsz)
{
	size_t i = 0, len, need = 0, used = 0, al;
	const char *a;
	char one[2];
	int full = 0;

	while (i < n) {
		a = translit_char(s + i, n - i, &len, one);
		al = strlen(a);
		if (!full && used + al < outsz) {
			memcpy(out + used, a, al);
			used += al;
		} else
			full = 1;
		need += al;
		i += len;
	}
	out[used] = '\0';
	return need;
}
