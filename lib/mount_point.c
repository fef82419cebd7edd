/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which mount point holds a descriptor's file, for messages only. */
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

int tf_mount_point(int fd, char *buf, size_t size)
{
	struct statx stx;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int found = -1;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return -1;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	while (found < 0 && getline(&line, &cap, f) > 0) {
		unsigned long long id;
		char mnt[4096];

		if (sscanf(line, "%llu %*u %*u:%*u %*s %4095s", &id, mnt) == 2 &&
		    id == stx.stx_mnt_id) {
			unescape(mnt);
			snprintf(buf, size, "%s", mnt);
			found = 0;
		}
	}
	free(line);
	fclose(f);
	return found;
}
