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

int tf_proc_root(void)
{
	struct statfs sfs;
	int proc = TF_UNFORGED(open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));

	if (proc < 0)
		return -1;
	/* Poisoned: a filter that fakes success without filling it fails. */
	memset(&sfs, 0, sizeof(sfs));
	if (fstatfs(proc, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC) {
		close(proc);
		errno = EXDEV;
		return -1;
	}
	return proc;
}

int tf_proc_open(const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	int proc = tf_proc_root(), fd, error;

	if (proc < 0)
		return -1;
	fd = TF_UNFORGED((int)syscall(SYS_openat2, proc, path, &how, sizeof(how)));
	error = errno;
	close(proc);
	errno = error;
	return fd;
}
