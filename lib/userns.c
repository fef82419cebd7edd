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
	char text[128];
	int fd = tf_proc_open("self/uid_map");

	if (fd < 0)
		snprintf(why, size, "cannot read /proc/self/uid_map: %s",
			 errno == EXDEV ? "not procfs, or something mounted over it" :
					  tf_strerror(errno, text, sizeof(text)));
	return fd;
}

/*
 * The first line of the map is enough to tell the identity: an extent over
 * every uid leaves no room for another (the kernel refuses extents that
 * overlap or wrap).  Every process asks this at its first decision, so the
 * answer costs one short read and none of the room 340 extents take.
 */
int tf_uid_map_identity(char *why, size_t size)
{
	char buf[64], text[128];
	const char *p = buf, *end;
	uint32_t v[3];
	ssize_t n;
	int fd = open_map(why, size), error;

	if (fd < 0)
		return -1;
	/* Cleared: a read faked to succeed without filling it finds no line. */
	memset(buf, 0, sizeof(buf));
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	error = errno;
	close(fd);
	if (n < 0) {
		snprintf(why, size, "cannot read /proc/self/uid_map: %s",
			 tf_strerror(error, text, sizeof(text)));
		return -1;
	}
	if (n == 0)
		return 0; /* not written yet: no uid is mapped */
	buf[n] = '\0';
	end = memchr(buf, '\n', (size_t)n);
	if (!end || strlen(buf) < (size_t)(end - buf) || parse_extent(&p, v) < 0) {
		snprintf(why, size, "cannot read /proc/self/uid_map: unexpected content");
		return -1;
	}
	return v[0] == 0 && v[1] == 0 && v[2] == 4294967295U;
}

int tf_uid_map_read(struct tf_uid_map *m, char *why, size_t size)
{
	char buf[TF_UID_MAP_MAX * 40], text[128];
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
