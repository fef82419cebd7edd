/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dlopen() of a descriptor that the enforcement layer allowed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "checked_dlopen.h"

/* err = msg, with every "from" replaced by "to". */
static void replace_name(char *err, size_t errsize, const char *msg,
			 const char *from, const char *to)
{
	size_t n = 0, flen = strlen(from);

	while (*msg && n + 1 < errsize) {
		if (!strncmp(msg, from, flen) &&
		    /* "/proc/self/fd/1" is a prefix of "/proc/self/fd/12" */
		    !(msg[flen] >= '0' && msg[flen] <= '9')) {
			n += (size_t)snprintf(err + n, errsize - n, "%s", to);
			if (n >= errsize)
				n = errsize - 1;
			msg += flen;
		} else {
			err[n++] = *msg++;
		}
	}
	err[n] = '\0';
}

void *tf_checked_dlopen(int fd, const char *path, int flags,
			struct trusted_for_verdict *v, int *refused, char *err,
			size_t errsize)
{
	char fdpath[64];
	struct statfs fs;
	struct link_map *map;
	void *handle;

	*refused = 0;
	err[0] = '\0';
	if (fd < 0)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* dlopen()'s own words for a file it cannot open. */
		snprintf(err, errsize, "%s: cannot open shared object file: %m", path);
		return NULL;
	}
	if (trusted_for_allow_file(fd, path, v) < 0) {
		*refused = 1;
		close(fd);
		return NULL;
	}
	/*
	 * The loader opens what it is given by name: /proc/self/fd/N is this
	 * descriptor only if /proc is procfs.  Without it there is no way to
	 * map exactly the file that was checked, so nothing is loaded.
	 */
	if (statfs("/proc/self/fd", &fs) < 0 || fs.f_type != PROC_SUPER_MAGIC) {
		snprintf(err, errsize,
			 "%s: cannot load shared object: /proc is not mounted", path);
		close(fd);
		return NULL;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	handle = dlopen(fdpath, flags);
	if (!handle) {
		replace_name(err, errsize, dlerror(), fdpath, path);
		close(fd);
		return NULL;
	}
	/*
	 * The descriptor stays open while the loader knows the object by the
	 * name /proc/self/fd/N: it would return that object for the next
	 * dlopen() of the name, so the number must not be reused.  A file
	 * that was loaded already (the loader compares device and inode) keeps
	 * its first name, and this descriptor is not needed.
	 */
	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) < 0 || strcmp(map->l_name, fdpath))
		close(fd);
	return handle;
}
