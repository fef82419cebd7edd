/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for: one command a file (check.c, status.c, scan.c, run.c,
 * policy.c), each a row of the table below, which also writes --help.
 * Adding a command is adding a file and a row.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct command *const commands[] = {
	&check_command,
	&status_command,
	&scan_command,
	&run_command,
	&policy_command,
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_help(void)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		printf("%s %s %s%s%s\n", i ? "      " : "Usage:", program,
		       commands[i]->name, commands[i]->synopsis[0] ? " " : "",
		       commands[i]->synopsis);
	printf("       %s --help | --version\n\nCommands:\n", program);
	for (size_t i = 0; i < N_COMMANDS; i++)
		printf("  %-7s %s\n", commands[i]->name, commands[i]->help);
	printf("\nSee %s(1).\n", program);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "";

	/* Bad options are reported by the commands, one line each. */
	opterr = 0;
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i]->fn(argc - 1, argv + 1);
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		print_help();
		return EXIT_TRUSTED;
	}
	if (!strcmp(name, "--version")) {
		printf("%s %s\n", program, TRUSTEDFOR_VERSION);
		return EXIT_TRUSTED;
	}
	if (!*name)
		return usage_error("no command given");
	return usage_error("unknown command '%s'", name);
}
