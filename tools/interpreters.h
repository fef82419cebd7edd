/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The interpreters a user can run and whether each is enlightened
 * (interpreters.c), for trusted-for status.
 */
#ifndef TRUSTED_FOR_INTERPRETERS_H
#define TRUSTED_FOR_INTERPRETERS_H

#include <stdio.h>

/*
 * Verbose, one "interpreter: NAME (PATH): VERDICT" line each; else a line
 * for the enlightened ones, one for the others by kind, one for those only
 * root (or one group) may run, and one for those it cannot read.  -1 when
 * out of memory.
 */
int print_interpreters(FILE *out, int verbose);

#endif
