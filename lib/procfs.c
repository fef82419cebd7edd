/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A file of procfs, opened so that no mount stands in for it.  A user can
 * mount over any path in a mount namespace of their own: a tmpfs with a
 * file of their making, or another procfs file bound in place (one that
 * reads "0", say).  So /proc must be a procfs, and the path below it is
 * resolved without crossing a mount point.  A procfs the user mounted
 * themselves (in a PID namespace of their own) shows the same kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "internal.h"
#include "missing.h"

/*
 * A filter can make an open "succeed" with 0 without opening anything, and
 * 0 is then whatever the process holds there: an inherited standard input,
 * or a file the process opened itself because standard input was closed at
 * its start (the attacker's script, say).  A seccomp filter keeps no state:
 * the same system call, from the same instruction with the same arguments,
 * gets the same answer.  So a 0 counts only if the same open, made again
 * while the first is held, gives another descriptor: the kernel never
 * hands out one in use, and a filter can answer only 0 or an error.  (Asking
 * fcntl() beforehand whether 0 was open was a return value too, which a
 * filter answered with EBADF: found by review on 2026-12-05.)
 */
int tf_unforged(int fd, int again)
{
	if (fd != 0)
		return fd;
	if (again > 0) {
		close(again);
		return 0;
	}
	errno = EBADF;
	return -1;
}

int tf_proc_open(const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	struct statfs sfs;
	int proc, fd, error;

	proc = TF_UNFORGED(open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
	if (proc < 0)
		return -1;
	/* Poisoned: a filter that fakes success without filling it fails. */
	memset(&sfs, 0, sizeof(sfs));
	if (fstatfs(proc, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC) {
		close(proc);
		errno = EXDEV;
		return -1;
	}
	fd = TF_UNFORGED((int)syscall(SYS_openat2, proc, path, &how, sizeof(how)));
	error = errno;
	close(proc);
	errno = error;
	return fd;
}
