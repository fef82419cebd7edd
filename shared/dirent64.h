/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef TRUSTEDFOR_DIRENT64_H
#define TRUSTEDFOR_DIRENT64_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One entry of getdents64(), as the kernel writes it. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * The entry at offset at of the n bytes getdents64() wrote into buf, or
 * NULL when it does not fit or its name is not terminated within it: a
 * listing is trusted only because the kernel wrote it, so anything else
 * ends it.
 */
static inline const struct linux_dirent64 *tf_dirent_at(const char *buf, long n, long at)
{
	const size_t head = offsetof(struct linux_dirent64, d_name);
	const struct linux_dirent64 *d = (const struct linux_dirent64 *)(buf + at);

	if (n - at < (long)head + 1 || d->d_reclen < head + 1 || d->d_reclen > n - at ||
	    !memchr(d->d_name, '\0', d->d_reclen - head))
		return NULL;
	return d;
}

#endif
