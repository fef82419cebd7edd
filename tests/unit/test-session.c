/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tf_session_confined() (shared/session.c), which trusted-for status and
 * pam_trustedfor.so read: a PAM session that is already confined gets no
 * second filter.  So another filter that happens to refuse user namespaces
 * and ptrace with EPERM (a service manager's hardening around sshd or
 * login) must not pass for the confinement: under it, a session left
 * without the module's filter lets the user install one that turns
 * enforcement off.  As root and as uid 65534.
 */
#define _GNU_SOURCE
#include "../tap.h"
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"
#include "trustedfor.h"

/* setns() into a user namespace and every ptrace() request are EPERM. */
static int foreign_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int r;

	if (!ctx)
		return -1;
	r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setns), 1,
			     SCMP_A1(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	if (!r)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ptrace), 0);
	if (!r)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	return r;
}

enum { NONE, FOREIGN, CONFINED, FOREIGN_THEN_CONFINED };

/* tf_session_confined() in a child under the given filters: 0, 1, or 2+ on error. */
static int confined_under(int which)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if ((which == FOREIGN || which == FOREIGN_THEN_CONFINED) && foreign_filter() < 0)
			_exit(10);
		if ((which == CONFINED || which == FOREIGN_THEN_CONFINED) &&
		    trusted_for_confine_session(0) < 0)
			_exit(11);
		_exit(tf_session_confined() ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		tap_bail("fork");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

static void cases(void *arg)
{
	const char *who = arg ? "root" : "uid 65534";

	if (!arg && geteuid() == 0 &&
	    (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
	     setresuid(65534, 65534, 65534) < 0))
		tap_bail("drop to uid 65534");
	tap_is_int(confined_under(NONE), 0, "%s: no filter: not confined", who);
	tap_is_int(confined_under(FOREIGN), 0,
		   "%s: a filter refusing setns and ptrace with EPERM: not confined", who);
	tap_is_int(confined_under(CONFINED), 1, "%s: trusted_for_confine_session(): confined", who);
	tap_is_int(confined_under(FOREIGN_THEN_CONFINED), 1,
		   "%s: that filter, then trusted_for_confine_session(): confined", who);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() == 0)
		tap_in_child(cases, "root");
	else
		tap_not_run("tf_session_confined() as root", "not root");
	tap_in_child(cases, NULL);
	return tap_done();
}
