/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one sanitiser for everything the project prints: the library's
 * messages and log lines, and the tools' and inc's output.  Compiled into
 * each of them (it is not part of the library's API).
 */
#ifndef TRUSTEDFOR_PRINTABLE_H
#define TRUSTEDFOR_PRINTABLE_H

#include <stddef.h>

/*
 * Copies in to out (size bytes, NUL-terminated) as text a terminal shows
 * as text: each byte of a C0 control, DEL, a C1 control (U+0080..U+009F,
 * which UTF-8 writes C2 80..C2 9F) or a byte that is not UTF-8 becomes '?'.
 * When it does not fit, the start is dropped, not the end: "…" and the
 * tail, from a '/' where there is one, so that a file's own name survives.
 */
void tf_printable(char *out, size_t size, const char *in);

/* The same for a log value between double quotes: those bytes, '"' and
 * '\\' become \xNN, so that the line can be parsed back. */
void tf_quoted(char *out, size_t size, const char *in);

#endif
