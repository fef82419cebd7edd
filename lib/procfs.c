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
 * A filter can make open() "succeed" with 0 without opening anything, and
 * 0 is then whatever the process holds there: an inherited standard input,
 * or a file the process opened itself because standard input was closed at
 * its start (a script the attacker wrote, say).  A real open returns only a
 * descriptor that was free, so the caller asks first whether 0 is open
 * (tf_fd0_open()), and a 0 while it was is forged.  A real open returns 0..2
 * only when they were closed (a daemon's), and the descriptor it makes is
 * close-on-exec, which no inherited one is (it would not have survived the
 * exec) and no forged fcntl() says (a filter answers 0 or an error).
 */
int tf_fd0_open(void)
{
	return fcntl(STDIN_FILENO, F_GETFD) >= 0;
}

int tf_unforged(int fd, int fd0_was_open)
{
	int flags;

	if (fd < 0 || fd > 2)
		return fd;
	if (fd > 0 || !fd0_was_open) {
		flags = fcntl(fd, F_GETFD);
		if (flags > 0 && (flags & FD_CLOEXEC))
			return fd;
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
	int fd0_was_open = tf_fd0_open(), proc, fd, error;

	proc = tf_unforged(open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW),
			   fd0_was_open);
	if (proc < 0)
		return -1;
	/* Poisoned: a filter that fakes success without filling it fails. */
	memset(&sfs, 0, sizeof(sfs));
	if (fstatfs(proc, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC) {
		close(proc);
		errno = EXDEV;
		return -1;
	}
	fd = tf_unforged((int)syscall(SYS_openat2, proc, path, &how, sizeof(how)),
			 fd0_was_open || proc == 0);
	error = errno;
	close(proc);
	errno = error;
	return fd;
}
