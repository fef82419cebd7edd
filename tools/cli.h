/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every command of trusted-for shares: the exit statuses, the command
 * table's row, one-line messages and the small parsers (cli.c).
 */
#ifndef TRUSTED_FOR_CLI_H
#define TRUSTED_FOR_CLI_H

#include <stdio.h>

#include "trustedfor.h"

/* Exit statuses, documented in trusted-for(1). */
#define EXIT_TRUSTED 0
#define EXIT_UNTRUSTED 1
#define EXIT_USAGE 2
#define EXIT_ERROR 3
#define EXIT_RUN_FAILED 125
#define EXIT_CANNOT_EXECUTE 126
#define EXIT_NOT_FOUND 127

/*
 * One row of the command table (trusted-for.c), defined in the command's
 * own file.  fn gets argv from the command's name on; --help prints the
 * synopsis and the help line.
 */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis; /* the options and operands after the name */
	const char *help;     /* one line: what the command answers or does */
};

extern const struct command check_command, status_command, scan_command,
	run_command, policy_command;

extern const char *const program;

/* "trusted-for: MESSAGE" on stderr, the message made printable. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * "trusted-for: MESSAGE (see trusted-for --help)" on stderr, the message
 * made printable; returns EXIT_USAGE.
 */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A check policy "0".."3"; 0, or -1 for anything else. */
int parse_policy(const char *arg, unsigned int *policy);

/* "FILE: not trusted for execution: REASON: DETAIL", no newline. */
void print_verdict(FILE *out, const struct trusted_for_verdict *v);

#endif
