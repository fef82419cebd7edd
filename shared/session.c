/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The confinement of trusted_for_confine_session(), recognised.  Two
 * steps, because a seccomp filter answers system calls in the kernel's
 * place:
 *
 * - the filter's answers, which the kernel alone never gives and which
 *   change nothing: setns() on no descriptor is EBADF, ptrace() of pid 0
 *   is ESRCH, seccomp() loading a filter from NULL is EFAULT; the filter
 *   says EPERM to each.  All three, because a privileged caller's own
 *   hardening (a service manager's filter around sshd or login) may refuse
 *   user namespaces and ptrace too, but leave seccomp() open.
 *
 * - who could have installed the filters in place.  Any filter answers
 *   those three as well, a user's own that refuses exactly them and
 *   nothing else among them: no probe tells filters apart, since a filter
 *   may key on the calling instruction too.  But without CAP_SYS_ADMIN
 *   the kernel installs a filter only under no_new_privs, which nothing
 *   clears; and a user has CAP_SYS_ADMIN only in a user namespace of their
 *   own, which the process cannot leave.  So "NoNewPrivs: 0" in procfs's
 *   status of this process (contents no return value can fake), in a
 *   namespace whose uid 0 is the initial root, proves that every filter is
 *   root's: a login's (pam_trustedfor) or a root run's.  A user's own
 *   "trusted-for run --lock" sets no_new_privs: its session is filtered
 *   but cannot be proven to be, and reads as unproven.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "session.h"

static bool filter_answers(void)
{
	bool userns, traced, filters;

	userns = syscall(SYS_setns, -1, CLONE_NEWUSER) < 0 && errno == EPERM;
	traced = ptrace(PTRACE_PEEKDATA, 0, NULL, NULL) < 0 && errno == EPERM;
	filters = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL) < 0 && errno == EPERM;
	return userns && traced && filters;
}

/* True only on procfs's own "NoNewPrivs:\t0" line for this process. */
static bool no_new_privs_off(void)
{
	char buf[4096], why[128];
	size_t len = 0;
	ssize_t n;
	int fd = tf_proc_open("self/status");

	if (fd < 0)
		return false;
	/* Poisoned: a read faked to succeed without filling finds no line. */
	memset(buf, 0, sizeof(buf));
	while (len < sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return strstr(buf, "\nNoNewPrivs:\t0\n") && !strstr(buf, "\nNoNewPrivs:\t1\n") &&
	       tf_root_is_initial(why, sizeof(why)) == 1;
}

enum tf_session tf_session_state(void)
{
	if (!filter_answers())
		return TF_SESSION_OPEN;
	return no_new_privs_off() ? TF_SESSION_CONFINED : TF_SESSION_UNPROVEN;
}

bool tf_session_confined(void)
{
	return tf_session_state() == TF_SESSION_CONFINED;
}
