// SPDX-License-Identifier: GPL-2.0
/*
 * The series' own kselftest (tools/testing/selftests/trusted_for), which
 * check.sh builds from the patched tree and puts in the initramfs as
 * /trusted_for_test.  Its TAP lines become cases of this program; a skipped
 * test counts as a failure, so that a missing privilege cannot pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define SELFTEST "/trusted_for_test"

void run_selftest(void)
{
	char line[512];
	int p[2], status, n;
	FILE *out;
	pid_t pid;

	if (access(SELFTEST, X_OK)) {
		report(0, "kselftest: %s: %s", SELFTEST, strerror(errno));
		return;
	}
	set_policy(0);
	if (pipe(p) || (pid = fork()) < 0) {
		report(0, "kselftest: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		close(p[1]);
		execl(SELFTEST, SELFTEST, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	out = fdopen(p[0], "r");
	while (fgets(line, sizeof(line), out)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "ok ", 3)) {
			/* "ok <n> <name>": a SKIP is not a pass */
			n = 3 + strspn(line + 3, "0123456789 ");
			report(!strstr(line, "# SKIP"), "kselftest %s",
			       line + n);
		} else if (!strncmp(line, "not ok ", 7)) {
			report(0, "kselftest %s", line);
		} else {
			printf("tfk-selftest: %s\n", line);
		}
	}
	fclose(out);
	waitpid(pid, &status, 0);
	report(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "kselftest trusted_for_test exits with status 0 (0x%x)", status);
}
