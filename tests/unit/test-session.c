/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tf_session_state() (session/state.c), which trusted-for status and run
 * and pam_trustedfor.so read: a session already confined gets no second
 * filter.  So a filter that answers as the confinement does must not pass
 * for it unless no filter in place can be the user's: another filter that
 * refuses user namespaces and ptrace with EPERM (a service manager's
 * hardening around sshd or login) leaves the session open; a user's own
 * filter that answers the three probes exactly as the confinement does,
 * and confines nothing, leaves it unproven, as does the user's own
 * tf_session_confine() (under no_new_privs); root's is proven.
 * As root and as uid 65534.
 */
#define _GNU_SOURCE
#include "../tap.h"
#include <errno.h>
#include <grp.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"
#include "trustedfor.h"

/*
 * A filter as root installs one (a service manager's hardening): without
 * no_new_privs.  Anyone else needs it.
 */
static scmp_filter_ctx new_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (ctx && geteuid() == 0 && seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0) < 0) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

/* setns() into a user namespace and every ptrace() request are EPERM. */
static int foreign_filter(void)
{
	scmp_filter_ctx ctx = new_filter();
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

/* The probes' answers, exactly and nothing more (tests/helpers/forge-answer.c's confined=EPERM). */
static int forged_filter(void)
{
	scmp_filter_ctx ctx = new_filter();
	int r;

	if (!ctx)
		return -1;
	r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setns), 2,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffff, 0xffffffff),
			     SCMP_A1(SCMP_CMP_EQ, CLONE_NEWUSER));
	if (!r)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ptrace), 2,
				     SCMP_A0(SCMP_CMP_EQ, PTRACE_PEEKDATA), SCMP_A1(SCMP_CMP_EQ, 0));
	if (!r)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 3,
				     SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER),
				     SCMP_A1(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0));
	if (!r)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	return r;
}

enum { NONE, FOREIGN, FORGED, CONFINED, FOREIGN_THEN_CONFINED };

/* tf_session_state() in a child under the given filters, or 10+ on error. */
static int confined_under(int which)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if ((which == FOREIGN || which == FOREIGN_THEN_CONFINED) && foreign_filter() < 0)
			_exit(10);
		if (which == FORGED && forged_filter() < 0)
			_exit(12);
		if ((which == CONFINED || which == FOREIGN_THEN_CONFINED) &&
		    tf_session_confine() < 0)
			_exit(11);
		_exit(tf_session_state());
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
	/* Root installs a filter without no_new_privs: its own are proven root's. */
	int mine = arg ? TF_SESSION_CONFINED : TF_SESSION_UNPROVEN;

	tap_is_int(confined_under(NONE), TF_SESSION_OPEN, "%s: no filter: open", who);
	tap_is_int(confined_under(FOREIGN), TF_SESSION_OPEN,
		   "%s: a filter refusing setns and ptrace with EPERM: open", who);
	tap_is_int(confined_under(FORGED), mine,
		   "%s: a filter answering the three probes only: %s", who,
		   arg ? "confined (root's)" : "unproven");
	tap_is_int(confined_under(CONFINED), mine, "%s: tf_session_confine(): %s", who,
		   arg ? "confined" : "unproven (under no_new_privs)");
	tap_is_int(confined_under(FOREIGN_THEN_CONFINED), mine,
		   "%s: that filter, then tf_session_confine(): %s", who,
		   arg ? "confined" : "unproven");
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
