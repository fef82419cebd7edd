/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which user namespace is this process in?  The policy file counts only if
 * root of the initial user namespace owns it, and fstat() shows owners as
 * this process's namespace maps them: in a namespace made with "unshare -Ur"
 * the user's own files show as uid 0.  The kernel shows a process only the
 * mapping to its parent namespace (/proc/self/uid_map), so a namespace
 * nested in another can map the user's uid to "0" of a parent that is not
 * the initial one.  Only a map that is the identity over every uid proves
 * that uids here are the initial namespace's uids: writing it needs every uid
 * of the parent mapped, which only a privileged process can arrange.  The
 * map is read through procfs.c, so that no mount can stand in for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"

/* The map's extents; the kernel writes at most 340 of them. */
int tf_uid_map_parse(const char *buf, struct tf_uid_map *m)
{
	const char *p = buf;

	m->n = 0;
	while (*p) {
		unsigned long long v[3];
		char *end;

		for (int i = 0; i < 3; i++) {
			while (*p == ' ')
				p++;
			if (*p < '0' || *p > '9')
				return -1;
			errno = 0;
			v[i] = strtoull(p, &end, 10);
			if (errno || v[i] > 0xffffffffULL)
				return -1;
			p = end;
		}
		if (*p++ != '\n' || m->n == TF_UID_MAP_MAX)
			return -1;
		m->inside[m->n] = (uint32_t)v[0];
		m->outside[m->n] = (uint32_t)v[1];
		m->count[m->n] = (uint32_t)v[2];
		m->n++;
	}
	return 0;
}

int tf_uid_map_read(struct tf_uid_map *m, char *why, size_t size)
{
	char buf[TF_UID_MAP_MAX * 40], text[128];
	size_t len = 0;
	ssize_t n;
	int fd = tf_proc_open("self/uid_map"), error;

	if (fd < 0) {
		snprintf(why, size, "cannot read /proc/self/uid_map: %s",
			 errno == EXDEV ? "not procfs, or something mounted over it" :
					  tf_strerror(errno, text, sizeof(text)));
		return -1;
	}
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
			 n < 0 ? tf_strerror(error, text, sizeof(text)) : "unexpected content");
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
