/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for run: a command with the exec securebits set, and with --lock
 * locked in a session that cannot leave them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "session.h"

/*
 * Locked bits hold only in a session that cannot leave them: no new user
 * namespace (the kernel resets the bits there), no tracer.  The session
 * gets a filter of run's own, stacked on whatever is there, and it counts
 * once procfs shows one filter more: a filter of the user's own can
 * answer seccomp() 0 without loading anything.  Inside a confined session
 * (a login's, a root run's) the filter refuses a second one; that is the
 * confinement only where proven (session/state.c): a filter of the
 * user's own could refuse it too, and answer every probe as the
 * confinement does.
 */
static int confine_session(void)
{
	int before = tf_seccomp_filters(), error;

	if (before < 0) {
		cli_error("run: cannot confine the session: cannot read this process's "
			  "seccomp filters in /proc/self/status");
		return -1;
	}
	if (tf_session_confine() == 0) {
		if (tf_seccomp_filters() == before + 1)
			return 0;
		cli_error("run: cannot confine the session: the filter was reported "
			  "loaded, but /proc/self/status does not show it");
		return -1;
	}
	error = errno;
	switch (tf_session_state()) {
	case TF_SESSION_CONFINED:
		return 0;
	case TF_SESSION_UNPROVEN:
		cli_error("run: cannot confine the session: a seccomp filter refuses a new one, "
			  "and it is not proven to be the confinement (it was installed "
			  "without privileges, under no_new_privs); start the session outside it");
		return -1;
	default:
		cli_error("run: cannot confine the session: %s", strerror(error));
		return -1;
	}
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "restrict-file", no_argument, NULL, 'f' },
		{ "deny-interactive", no_argument, NULL, 'i' },
		{ "lock", no_argument, NULL, 'l' },
		{ "no-confine", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int bits = 0, now;
	int lock = 0, confine = 1, c;
	char why[256];

	while ((c = getopt_long(argc, argv, "+fil", opts, NULL)) != -1) {
		if (c == 'f')
			bits |= SECBIT_EXEC_RESTRICT_FILE;
		else if (c == 'i')
			bits |= SECBIT_EXEC_DENY_INTERACTIVE;
		else if (c == 'l')
			lock = 1;
		else if (c == 'n')
			confine = 0;
		else
			return usage_error("run: bad option '%s'", argv[optind - 1]);
	}
	if (optind == argc)
		return usage_error("run: no command given");
	if (!bits)
		return usage_error("run: nothing to enforce: give --restrict-file and/or --deny-interactive");
	if (!lock && !confine)
		return usage_error("run: --no-confine goes with --lock");
	if (lock)
		bits |= TF_SECBIT_LOCKS(bits);
	if (tf_session_set_bits(bits, &now, why, sizeof(why)) < 0) {
		cli_error("run: %s", why);
		return EXIT_RUN_FAILED;
	}
	if (lock && confine && confine_session() < 0)
		return EXIT_RUN_FAILED;
	execvp(argv[optind], argv + optind);
	c = errno;
	cli_error("run: %s: %s", argv[optind], strerror(c));
	return c == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXECUTE;
}

const struct command run_command = {
	"run", cmd_run,
	"[--restrict-file] [--deny-interactive] [--lock [--no-confine]] -- COMMAND [ARG...]",
	"run COMMAND with the exec securebits set, and locked with --lock"
};
