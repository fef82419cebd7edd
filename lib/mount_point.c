/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * /proc/self/mountinfo, one mount at a time; and which mount point holds a
 * descriptor's file, for messages only.  trusted-for status compiles this
 * file in too, to name the places users write (tools/places.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

int tf_mountinfo_open(struct tf_mountinfo *m)
{
	memset(m, 0, sizeof(*m));
	m->f = fopen("/proc/self/mountinfo", "re");
	return m->f ? 0 : -1;
}

/*
 * "ID PARENT MAJ:MIN ROOT POINT OPTIONS ...": the first and the fifth
 * field, the line cut in place.  A line of another shape is skipped.
 */
int tf_mountinfo_next(struct tf_mountinfo *m)
{
	while (getline(&m->line, &m->cap, m->f) > 0) {
		char *field[5], *save = NULL, *s = m->line;
		int n;

		for (n = 0; n < 5; n++, s = NULL) {
			field[n] = strtok_r(s, " \n", &save);
			if (!field[n])
				break;
		}
		if (n < 5 || sscanf(field[0], "%llu", &m->id) != 1)
			continue;
		unescape(field[4]);
		m->point = field[4];
		return 1;
	}
	return 0;
}

void tf_mountinfo_close(struct tf_mountinfo *m)
{
	if (m->f)
		fclose(m->f);
	free(m->line);
	memset(m, 0, sizeof(*m));
}

int tf_mount_point(int fd, char *buf, size_t size)
{
	struct tf_mountinfo m;
	struct statx stx;
	int found = -1;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID) || tf_mountinfo_open(&m) < 0)
		return -1;
	while (found < 0 && tf_mountinfo_next(&m))
		if (m.id == stx.stx_mnt_id) {
			snprintf(buf, size, "%s", m.point);
			found = 0;
		}
	tf_mountinfo_close(&m);
	return found;
}
