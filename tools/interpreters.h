/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The interpreters on PATH and whether each is enlightened (interpreters.c),
 * for trusted-for status.
 */
#ifndef TRUSTED_FOR_INTERPRETERS_H
#define TRUSTED_FOR_INTERPRETERS_H

#include <stdio.h>

/* One "interpreter: NAME (PATH): VERDICT" line each; -1 when out of memory. */
int print_interpreters(FILE *out);

#endif
