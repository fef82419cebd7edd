/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The machine's ways around enforcement, one warning a line (escapes.c),
 * for trusted-for status and check --explain.
 */
#ifndef TRUSTED_FOR_ESCAPES_H
#define TRUSTED_FOR_ESCAPES_H

#include <stdio.h>

#include "trustedfor.h"

/* "session: confined: ..." or "session: not confined". */
void print_session(FILE *out);

/* One line per way out that this machine leaves open; returns how many. */
int print_escapes(FILE *out, const char *prefix,
		  const struct trusted_for_config *p);

/*
 * Why the enforcement in force does or does not depend on one way out:
 * "nothing is enforced here", "this session is confined against it" or
 * "the enforcement here depends on it".
 */
const char *escape_depends(const struct trusted_for_config *p, int confined_here);

#endif
