/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The helpers every command of trusted-for shares (cli.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "printable.h"

const char *const program = "trusted-for";

/*
 * Names, paths and options come from the user and may hold terminal
 * escapes: the whole message is made printable.  tf_printable() changes
 * bytes one for one, so a buffer of the message's size holds all of it.
 */
static void report(const char *suffix, const char *fmt, va_list ap)
{
	char *message = NULL, *shown = NULL;
	int n = vasprintf(&message, fmt, ap);

	if (n >= 0)
		shown = malloc((size_t)n + 1);
	if (shown)
		tf_printable(shown, (size_t)n + 1, message);
	fprintf(stderr, "%s: %s%s\n", program,
		shown ? shown : "cannot format a message: out of memory",
		suffix);
	free(shown);
	if (n >= 0)
		free(message);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
}

int usage_error(const char *fmt, ...)
{
	char suffix[64];
	va_list ap;

	snprintf(suffix, sizeof(suffix), " (see %s --help)", program);
	va_start(ap, fmt);
	report(suffix, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int parse_policy(const char *arg, unsigned int *policy)
{
	if (strlen(arg) != 1 || arg[0] < '0' || arg[0] > '3')
		return -1;
	*policy = (unsigned int)(arg[0] - '0');
	return 0;
}

void print_verdict(FILE *out, const struct trusted_for_verdict *v)
{
	fprintf(out, "%s%s%s", v->message, v->detail[0] ? ": " : "", v->detail);
}
