/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The places users write on a mount that allows execution (places.c), for
 * trusted-for status.
 */
#ifndef TRUSTED_FOR_PLACES_H
#define TRUSTED_FOR_PLACES_H

#include <stdio.h>

#include "trustedfor.h"

/*
 * One warning line for them all, or, verbose or when there is one, one
 * line a place with who writes there; returns how many places.
 */
int print_places(FILE *out, const struct trusted_for_config *p, int verbose);

#endif
