/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which user namespace is this process in?  The policy file counts only if
 * root of the initial user namespace owns it, and fstat() shows owners as
 * this process's namespace maps them: in a namespace made with "unshare -Ur"
 * the user's own files show as uid 0, and root's as the overflow uid.
 *
 * So the question is whether uid 0 here is that root.  procfs gives its
 * "self" link to root of the initial namespace in every instance, whoever
 * mounted it, and statx() shows that owner through every map between the
 * initial namespace and this one: the link shows as uid 0 exactly when
 * those maps carry that root to 0.  An unprivileged user can map only their
 * own uid, so no namespace of theirs, however nested, does.  (The kernel
 * shows a process only the map to its parent namespace, /proc/self/uid_map,
 * which cannot tell a nested "0 0 1" from root's.)  Nothing here looks up
 * /proc/PID, which the kernel would build for the process at the first look.
 *
 * What is asked is procfs's own link, on a procfs: a user's namespace can
 * mount over /proc, but only a file of their own shows as uid 0 there, and
 * procfs has no link of theirs by that name (their interfaces' names make
 * directories and plain files).  An unmapped owner shows as
 * kernel.overflowuid, which only root sets; it must not be 0 (trusted-for
 * status says so).  The full map is still read, for the message, in a
 * namespace that does not map root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"

/* One line of the map, "inside outside count\n", with *p past it. */
static int parse_extent(const char **p, uint32_t v[3])
{
	for (int i = 0; i < 3; i++) {
		unsigned long long x;
		char *end;

		while (**p == ' ')
			(*p)++;
		if (**p < '0' || **p > '9')
			return -1;
		errno = 0;
		x = strtoull(*p, &end, 10);
		if (errno || x > 0xffffffffULL)
			return -1;
		v[i] = (uint32_t)x;
		*p = end;
	}
	return *(*p)++ == '\n' ? 0 : -1;
}

/* The map's extents; the kernel writes at most 340 of them. */
int tf_uid_map_parse(const char *buf, struct tf_uid_map *m)
{
	const char *p = buf;

	m->n = 0;
	while (*p) {
		uint32_t v[3];

		if (parse_extent(&p, v) < 0 || m->n == TF_UID_MAP_MAX)
			return -1;
		m->inside[m->n] = v[0];
		m->outside[m->n] = v[1];
		m->count[m->n] = v[2];
		m->n++;
	}
	return 0;
}

static int open_map(char *why, size_t size)
{
	int fd = tf_proc_open("self/uid_map");

	if (fd < 0)
		snprintf(why, size, "cannot read /proc/self/uid_map: %s",
			 errno == EXDEV ? "not procfs, or something mounted over it" :
					  tf_strerror(errno));
	return fd;
}

/*
 * The buffer is poisoned as "not a link, owner unknown": a statx() faked to
 * succeed without filling it tells nothing, and that fails closed.  A mount
 * on the link itself would show the mount's root instead: refused too.
 */
int tf_root_is_initial(char *why, size_t size)
{
	struct statx sx;
	int proc = tf_proc_root(), r, error;

	if (proc < 0) {
		if (errno == EXDEV)
			snprintf(why, size, "cannot tell the user namespace: /proc is not procfs");
		else
			snprintf(why, size, "cannot tell the user namespace: /proc: %s",
				 tf_strerror(errno));
		return -1;
	}
	memset(&sx, 0, sizeof(sx));
	sx.stx_uid = (uint32_t)-1;
	/* The system call itself: glibc's statx() answers ENOSYS with an
	 * fstatat() of its own, which fills another buffer. */
	r = (int)syscall(SYS_statx, proc, "self", AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			 STATX_TYPE | STATX_UID, &sx);
	error = errno;
	close(proc);
	if (r < 0) {
		snprintf(why, size, "cannot tell the user namespace: /proc/self: %s",
			 tf_strerror(error));
		return -1;
	}
	if ((sx.stx_mask & (STATX_TYPE | STATX_UID)) != (STATX_TYPE | STATX_UID) ||
	    !S_ISLNK(sx.stx_mode) || !(sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
	    (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT)) {
		snprintf(why, size, "cannot tell the user namespace: /proc/self is not procfs's own link");
		return -1;
	}
	return sx.stx_uid == 0;
}

int tf_uid_map_read(struct tf_uid_map *m, char *why, size_t size)
{
	char buf[TF_UID_MAP_MAX * 40];
	size_t len = 0;
	ssize_t n;
	int fd = open_map(why, size), error;

	if (fd < 0)
		return -1;
	memset(buf, 0, sizeof(buf));
	do {
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n > 0)
			len += (size_t)n;
	} while ((n > 0 && len < sizeof(buf) - 1) || (n < 0 && errno == EINTR));
	error = errno;
	close(fd);
	buf[len] = '\0';
	if (n < 0 || strlen(buf) != len || tf_uid_map_parse(buf, m) < 0) {
		snprintf(why, size, "cannot read /proc/self/uid_map: %s",
			 n < 0 ? tf_strerror(error) : "unexpected content");
		return -1;
	}
	return 0;
}

int tf_uid_map_is_identity(const struct tf_uid_map *m)
{
	return m->n == 1 && m->inside[0] == 0 && m->outside[0] == 0 &&
	       m->count[0] == 4294967295U;
}

int tf_uid_map_outside(const struct tf_uid_map *m, uint32_t inside,
		       uint32_t *outside)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (inside >= m->inside[i] && inside - m->inside[i] < m->count[i]) {
			*outside = m->outside[i] + (inside - m->inside[i]);
			return 0;
		}
	return -1;
}

/* "0 1000 1", the map in one short line for a message. */
void tf_uid_map_describe(const struct tf_uid_map *m, char *out, size_t size)
{
	size_t n = 0;

	snprintf(out, size, "%s", m->n ? "" : "empty");
	for (unsigned int i = 0; i < m->n && n + 1 < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%u %u %u",
				      i ? ", " : "", m->inside[i],
				      m->outside[i], m->count[i]);
}
