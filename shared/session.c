/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The confinement of trusted_for_confine_session(), recognised by answers
 * the kernel alone never gives and that change nothing: setns() on no
 * descriptor is EBADF, ptrace() of pid 0 is ESRCH, seccomp() loading a
 * filter from NULL is EFAULT; the filter says EPERM to each.  Only a seccomp
 * filter can forge them, and an unprivileged user's filter comes with
 * no_new_privs.  All three, because a privileged caller's own hardening (a
 * service manager's filter around sshd or login) may refuse user
 * namespaces and ptrace too, but leave seccomp() open: a session taken for
 * confined under it would get no filter of the module's, and its user
 * could install one that turns enforcement off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "session.h"

bool tf_session_confined(void)
{
	bool userns, traced, filters;

	userns = syscall(SYS_setns, -1, CLONE_NEWUSER) < 0 && errno == EPERM;
	traced = ptrace(PTRACE_PEEKDATA, 0, NULL, NULL) < 0 && errno == EPERM;
	filters = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL) < 0 && errno == EPERM;
	return userns && traced && filters;
}
