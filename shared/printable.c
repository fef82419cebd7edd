/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A terminal acts on C0 controls (ESC starts a sequence), on DEL, and, in
 * UTF-8, on the C1 controls U+0080..U+009F (U+009B is a one-character CSI);
 * a byte that is not UTF-8 may be read as a C1 control by a terminal in an
 * 8-bit mode.  The bidirectional formatting characters (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069) reorder what a terminal shows, so
 * that "evil.py" could be made to read as another name, and the invisible
 * ones (zero-width, line and paragraph separators): replaced too.
 * Everything else is passed as it is.
 */
#include <stdio.h>
#include <string.h>

#include "printable.h"

#define ELLIPSIS "\xe2\x80\xa6"

static int is_bidi_control(unsigned int cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* Zero-width characters, which hide in a name ("evil<U+200B>.py" shows as
 * "evil.py"), and the line and paragraph separators, which split a line. */
static int is_invisible(unsigned int cp)
{
	return (cp >= 0x200b && cp <= 0x200d) || cp == 0x2028 || cp == 0x2029 || cp == 0x2060 ||
	       cp == 0xfeff;
}

/* The length of a valid UTF-8 character at p that is not a control, or 0. */
static size_t utf8_char(const unsigned char *p)
{
	size_t n;
	unsigned int cp;

	if (p[0] >= 0x20 && p[0] < 0x7f)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, and the C1 controls. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0 || is_bidi_control(cp) ||
	    is_invisible(cp))
		return 0;
	return n;
}

/*
 * One unit at p: its length in the input, its width in the output, and
 * whether it is copied as it is (else it is replaced).
 */
static size_t unit(const unsigned char *p, int quote, size_t *width, int *safe)
{
	size_t n = utf8_char(p);

	*safe = n && !(quote && (*p == '"' || *p == '\\'));
	if (*safe) {
		*width = n;
		return n;
	}
	*width = quote ? 4 : 1;
	return 1;
}

static void sanitise(char *out, size_t size, const char *in, int quote)
{
	const unsigned char *p = (const unsigned char *)in, *start = p;
	size_t total = 0, width, n, o = 0;
	int safe;

	if (!size)
		return;
	/*
	 * Most names are printable ASCII that fits, which the loops below
	 * would copy as it is, one character at a time: an interpreter names
	 * every file it checks, so that copy comes first.
	 */
	for (n = 0; n < size && p[n] >= 0x20 && p[n] < 0x7f &&
		    !(quote && (p[n] == '"' || p[n] == '\\'));
	     n++)
		;
	if (n < size && !p[n]) {
		memcpy(out, in, n + 1);
		return;
	}
	for (const unsigned char *q = p; *q; q += n)
		total += (n = unit(q, quote, &width, &safe), width);
	if (total > size - 1 && size > sizeof(ELLIPSIS)) {
		size_t budget = size - sizeof(ELLIPSIS);
		const unsigned char *slash;

		while (total > budget) {
			start += (n = unit(start, quote, &width, &safe));
			total -= width;
		}
		/* From the next component on, if that keeps part of it. */
		slash = (const unsigned char *)strchr((const char *)start, '/');
		if (slash && slash[1])
			start = slash;
		memcpy(out, ELLIPSIS, sizeof(ELLIPSIS) - 1);
		o = sizeof(ELLIPSIS) - 1;
	}
	for (p = start; *p && o + 1 < size; p += n) {
		n = unit(p, quote, &width, &safe);
		if (o + width >= size)
			break;
		if (safe)
			memcpy(out + o, p, n);
		else if (quote)
			snprintf(out + o, 5, "\\x%02x", *p);
		else
			out[o] = '?';
		o += width;
	}
	out[o] = '\0';
}

void tf_printable(char *out, size_t size, const char *in)
{
	sanitise(out, size, in, 0);
}

void tf_quoted(char *out, size_t size, const char *in)
{
	sanitise(out, size, in, 1);
}
