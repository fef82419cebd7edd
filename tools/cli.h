/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef TRUSTED_FOR_CLI_H
#define TRUSTED_FOR_CLI_H

#include "trustedfor.h"

/* Exit statuses, documented in trusted-for(1). */
#define EXIT_TRUSTED 0
#define EXIT_UNTRUSTED 1
#define EXIT_USAGE 2
#define EXIT_ERROR 3
#define EXIT_RUN_FAILED 125
#define EXIT_CANNOT_EXECUTE 126
#define EXIT_NOT_FOUND 127

extern const char *program;

int parse_policy(const char *arg, unsigned int *policy);
void print_verdict(FILE *out, const struct trusted_for_verdict *v);
int cmd_scan(int argc, char **argv);

/* escapes.c: the machine's ways around enforcement, one warning a line. */
void print_session(FILE *out);
int print_escapes(FILE *out, const char *prefix, const struct trusted_for_policy *p);

#endif
