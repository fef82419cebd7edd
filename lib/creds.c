/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * This thread's ids, read from /proc/thread-self/status: a buffer the
 * kernel fills.  getresuid(), getresgid() and getgroups() will not do for a
 * decision: a seccomp filter of the user's own makes them return what it
 * likes, and any installed shared object preloaded into the process
 * (fakeroot's libfakeroot answers them from its FAKEROOT* variables)
 * replaces them outright, before the loader guard's own decisions.  The
 * thread's own file: each thread has its credentials.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* The status file with NGROUPS_MAX (65536) groups is under 1 MiB. */
#define STATUS_MAX (1 << 20)

/* The whole file, NUL-terminated, or NULL with errno. */
static char *read_status(void)
{
	size_t size = 4096, len = 0;
	char *buf = calloc(1, size), *more;
	int fd = tf_proc_open("thread-self/status"), error;
	ssize_t n;

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (len + 1 == size) {
			if (size >= STATUS_MAX || !(more = realloc(buf, size * 2))) {
				errno = size >= STATUS_MAX ? EFBIG : ENOMEM;
				goto fail;
			}
			memset(more + size, 0, size);
			buf = more;
			size *= 2;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	/* A read that claimed bytes it did not write leaves a NUL inside. */
	if (strlen(buf) != len) {
		free(buf);
		errno = EPROTO;
		return NULL;
	}
	return buf;
fail:
	error = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = error;
	return NULL;
}

/* The value after "KEY:" at a line's start, or NULL. */
static const char *field(const char *status, const char *key)
{
	size_t n = strlen(key);

	for (const char *line = status;;) {
		if (!strncmp(line, key, n) && line[n] == ':')
			return line + n + 1;
		if (!(line = strchr(line, '\n')))
			return NULL;
		line++;
	}
}

/* "real effective saved filesystem", each an id. */
static int four_ids(const char *p, unsigned int id[4])
{
	return p && sscanf(p, " %u %u %u %u", &id[0], &id[1], &id[2], &id[3]) == 4 ? 0 : -1;
}

/* The "Groups:" line's list: "\t1 2 3 \n", or "\t\n" for none. */
static int parse_groups(const char *list, struct tf_creds *c)
{
	const char *end = strchr(list, '\n');
	int n = 0;

	if (!end)
		return -1;
	for (const char *p = list; p < end; p++)
		n += *p >= '0' && *p <= '9' && (p == list || p[-1] == ' ' || p[-1] == '\t');
	c->groups = malloc((size_t)(n ? n : 1) * sizeof(gid_t));
	if (!c->groups)
		return -1;
	for (const char *p = list; p < end && c->ngroups < n;) {
		char *next;
		unsigned long g;

		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		g = strtoul(p, &next, 10);
		if (g > UINT32_MAX)
			return -1;
		c->groups[c->ngroups++] = (gid_t)g;
		p = next;
	}
	return 0;
}

int tf_creds_read(struct tf_creds *c)
{
	char *status = read_status();
	unsigned int uid[4], gid[4];
	const char *groups;
	int r = -1;

	memset(c, 0, sizeof(*c));
	if (!status)
		return -1;
	groups = field(status, "Groups");
	if (four_ids(field(status, "Uid"), uid) == 0 && four_ids(field(status, "Gid"), gid) == 0 &&
	    groups && parse_groups(groups, c) == 0) {
		c->ruid = uid[0], c->euid = uid[1], c->fsuid = uid[3];
		c->rgid = gid[0], c->egid = gid[1], c->fsgid = gid[3];
		r = 0;
	}
	free(status);
	if (r < 0) {
		tf_creds_free(c);
		errno = EPROTO;
	}
	return r;
}

void tf_creds_free(struct tf_creds *c)
{
	free(c->groups);
	c->groups = NULL;
	c->ngroups = 0;
}
