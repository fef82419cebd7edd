/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The machine's ways around enforcement, one warning a line (escapes.c),
 * for trusted-for status and check --explain (the writable places: status
 * only).
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

/* One line per place users write on a mount that allows execution. */
int print_writable_exec_mounts(FILE *out, const struct trusted_for_config *p);

#endif
