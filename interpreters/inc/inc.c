/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inc: the reference interpreter, and the smallest complete example of an
 * interpreter that adopts libtrustedfor.
 *
 * The language is the one of the kernel's check-exec sample: one command a
 * line.  "+" adds one to a counter and prints it, "?" reads a number from
 * standard input into the counter, "#" starts a comment (so a "#!" line is
 * one), a blank line does nothing, and anything else is an error (exit 1).
 *
 *   inc FILE       run FILE
 *   inc -i         run the code on standard input
 *   inc -c CODE    run CODE
 *
 * Adopting the library takes three rules, each marked ADOPT below:
 *  1. Open the code file once and ask about that descriptor, then read the
 *     code from the same descriptor: never check a path and open it again.
 *  2. Code that is not a checked file (stdin, a -c string) is interactive:
 *     ask trusted_for_allow_interactive(), with the descriptor if there is
 *     one (stdin that is a regular file passing the check may run).
 *  3. On a refusal print "PROG: " and the verdict's message, one line, and
 *     exit 126.  The library has already logged it; it decided from the
 *     securebits and the policy file whether to refuse.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trustedfor.h>

#include "printable.h"

static long counter;

/* Runs one line of code; returns NULL, or what went wrong. */
static const char *run_line(const char *line)
{
	if (line[0] == '#' || line[0] == '\0')
		return NULL;
	if (!strcmp(line, "+")) {
		printf("%ld\n", ++counter);
		return NULL;
	}
	if (!strcmp(line, "?"))
		return scanf("%ld", &counter) == 1 ? NULL : "no number on stdin";
	return "bad command";
}

/* Runs code from f, line by line; name is for error messages. */
static int run_file(FILE *f, const char *name)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	const char *error;
	long lineno = 0;
	int status = 0;

	while ((len = getline(&line, &size, f)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		error = run_line(line);
		if (error) {
			char shown_name[256], shown_line[256];

			/* The echo is the file's bytes: the terminal must not act on them. */
			tf_printable(shown_name, sizeof(shown_name), name);
			tf_printable(shown_line, sizeof(shown_line), line);
			fprintf(stderr, "inc: %s:%ld: %s: %s\n", shown_name, lineno,
				error, shown_line);
			status = 1;
			break;
		}
	}
	free(line);
	return status;
}

/* ADOPT 3: one line, status 126, as a shell that cannot execute a file. */
static int refuse(const struct trusted_for_verdict *v)
{
	fprintf(stderr, "inc: %s\n", v->message);
	return 126;
}

int main(int argc, char **argv)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	FILE *f;
	int fd, status;

	if (argc == 3 && !strcmp(argv[1], "-c")) {
		/* ADOPT 2: a string has no descriptor to check. */
		if (trusted_for_allow_interactive(-1, "-c", &v) < 0)
			return refuse(&v);
		f = fmemopen(argv[2], strlen(argv[2]), "r");
		if (!f) {
			perror("inc: -c");
			return 1;
		}
		status = run_file(f, "-c");
		fclose(f);
		return status;
	}
	if (argc == 2 && !strcmp(argv[1], "-i")) {
		/* ADOPT 2: stdin is judged by what it is (a pipe never passes). */
		if (trusted_for_allow_interactive(STDIN_FILENO, "<stdin>", &v) < 0)
			return refuse(&v);
		return run_file(stdin, "<stdin>");
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: inc FILE | inc -i | inc -c CODE\n");
		return 2;
	}
	/* ADOPT 1: open once, check this descriptor, read from it. */
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		char shown[1024];

		tf_printable(shown, sizeof(shown), argv[1]);
		fprintf(stderr, "inc: %s: %m\n", shown);
		return 1;
	}
	if (trusted_for_allow_file(fd, argv[1], &v) < 0) {
		close(fd);
		return refuse(&v);
	}
	f = fdopen(fd, "r");
	if (!f) {
		fprintf(stderr, "inc: %s: %m\n", argv[1]);
		close(fd);
		return 1;
	}
	status = run_file(f, argv[1]);
	fclose(f);
	return status;
}
