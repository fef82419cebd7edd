/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The confinement of tf_session_confine(), recognised.  Two
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
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "session.h"
#include "unforged.h"

static bool filter_answers(void)
{
	bool userns, traced, filters;

	userns = syscall(SYS_setns, -1, CLONE_NEWUSER) < 0 && errno == EPERM;
	traced = ptrace(PTRACE_PEEKDATA, 0, NULL, NULL) < 0 && errno == EPERM;
	filters = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL) < 0 && errno == EPERM;
	return userns && traced && filters;
}

/*
 * This process's own status file, read into BUF: the length, or -1.  A
 * user-notification supervisor answers an open() with a descriptor of its
 * choosing (SECCOMP_IOCTL_NOTIF_ADDFD): another process's status, whose
 * "NoNewPrivs: 0" is not this one's.  So the descriptor must be the file
 * that a statx() of the same name, below the same procfs, finds: the
 * kernel resolves "self" for the caller, and a statx() faked to succeed
 * leaves its buffer as poisoned, unlike any file's.  Writing this
 * process's memory instead (to fake a buffer) takes a process that may
 * trace it: trusted-for is installed mode 0711, non-dumpable from
 * execve(), and a login's PAM stack runs in root's processes.
 */
ssize_t tf_own_status(char *buf, size_t size)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	struct stat opened;
	struct statx named;
	size_t len = 0;
	ssize_t n = -1;
	int proc = tf_proc_root(), fd;

	if (proc < 0)
		return -1;
	fd = TF_UNFORGED((int)syscall(SYS_openat2, proc, "self/status", &how, sizeof(how)));
	memset(&opened, 0, sizeof(opened));
	memset(&named, 0xff, sizeof(named));
	named.stx_mask = 0;
	if (fd < 0 || fstat(fd, &opened) < 0 ||
	    syscall(SYS_statx, proc, "self/status", AT_NO_AUTOMOUNT, STATX_INO, &named) < 0 ||
	    !(named.stx_mask & STATX_INO) || named.stx_ino != opened.st_ino ||
	    makedev(named.stx_dev_major, named.stx_dev_minor) != opened.st_dev)
		goto out;
	/* Poisoned: a read faked to succeed without filling finds no line. */
	memset(buf, 0, size);
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	n = n < 0 ? -1 : (ssize_t)len;
out:
	if (fd >= 0)
		close(fd);
	close(proc);
	return n;
}

/* True only on procfs's own "NoNewPrivs:\t0" line for this process. */
static bool no_new_privs_off(void)
{
	char buf[4096], why[128];

	if (tf_own_status(buf, sizeof(buf)) < 0)
		return false;
	return strstr(buf, "\nNoNewPrivs:\t0\n") && !strstr(buf, "\nNoNewPrivs:\t1\n") &&
	       tf_root_is_initial(why, sizeof(why)) == 1;
}

int tf_seccomp_filters(void)
{
	char buf[4096];
	const char *line;
	int n = -1;

	if (tf_own_status(buf, sizeof(buf)) < 0 || !(line = strstr(buf, "\nSeccomp_filters:\t")) ||
	    sscanf(line, "\nSeccomp_filters:\t%d", &n) != 1)
		return -1;
	return n;
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
