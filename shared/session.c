/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The confinement of trusted_for_confine_session(), recognised by answers
 * the kernel alone never gives and that change nothing: setns() on no
 * descriptor is EBADF, ptrace() of pid 0 is ESRCH; the filter says EPERM.
 * Only a seccomp filter can forge them, and an unprivileged user's filter
 * comes with no_new_privs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "session.h"

bool tf_session_confined(void)
{
	bool userns, traced;

	userns = syscall(SYS_setns, -1, CLONE_NEWUSER) < 0 && errno == EPERM;
	traced = ptrace(PTRACE_PEEKDATA, 0, NULL, NULL) < 0 && errno == EPERM;
	return userns && traced;
}
