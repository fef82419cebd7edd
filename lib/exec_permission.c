/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * May the caller's effective credentials execute a regular file?  As
 * execve() judges it: the permission bits, POSIX ACLs, and CAP_DAC_OVERRIDE,
 * which lets root execute a file only if some execute bit is set.
 *
 * faccessat2(AT_EACCESS) asks the kernel itself, but it also refuses every
 * file on a noexec mount, and policy 2 must judge the file bit alone there.
 * On such mounts, and on kernels without faccessat2, the decision is made
 * here from the mode and the access ACL, for the effective uid and groups
 * (the kernel uses the filesystem ids, which only setfsuid() makes differ).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"

#define ACL_XATTR "system.posix_acl_access"
#define ACL_VERSION 2
#define ACL_USER_OBJ 0x01
#define ACL_USER 0x02
#define ACL_GROUP_OBJ 0x04
#define ACL_GROUP 0x08
#define ACL_MASK 0x10
#define ACL_OTHER 0x20
#define ACL_EXECUTE 0x01
#define ACL_MAX_ENTRIES 1024

struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

static int has_dac_override(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		return 0;
	return (data[0].effective & (1U << CAP_DAC_OVERRIDE)) != 0;
}

static int in_group(gid_t gid)
{
	gid_t groups[256];
	int n;

	if (gid == getegid())
		return 1;
	n = getgroups(256, groups);
	for (int i = 0; i < n; i++)
		if (groups[i] == gid)
			return 1;
	return 0;
}

static ssize_t read_acl(int fd, char *buf, size_t size)
{
	char self[32];
	ssize_t n = fgetxattr(fd, ACL_XATTR, buf, size);

	/* O_PATH descriptors have no xattr calls; their magic link does. */
	if (n < 0 && errno == EBADF) {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		n = getxattr(self, ACL_XATTR, buf, size);
	}
	return n;
}

/* 1 allowed, 0 refused, -1 the ACL could not be read or parsed. */
static int acl_allows(int fd, const struct stat *st)
{
	char buf[4 + ACL_MAX_ENTRIES * 8];
	struct acl_entry e;
	ssize_t n = read_acl(fd, buf, sizeof(buf));
	int mask = ACL_EXECUTE, owner = -1, named = -1, group = -1, other = 0;
	int group_matched = 0;
	uint32_t version;

	if (n < 0)
		return (errno == ENODATA || errno == EOPNOTSUPP) ? 2 : -1;
	memcpy(&version, buf, 4);
	if (n < 4 || (n - 4) % 8 || version != ACL_VERSION)
		return -1;
	for (char *p = buf + 4; p < buf + n; p += 8) {
		memcpy(&e, p, sizeof(e));
		int x = (e.perm & ACL_EXECUTE) != 0;

		switch (e.tag) {
		case ACL_USER_OBJ: owner = x; break;
		case ACL_USER:
			if (e.id == geteuid())
				named = x;
			break;
		case ACL_GROUP_OBJ:
			if (in_group(st->st_gid)) {
				group_matched = 1;
				group = group > 0 ? group : x;
			}
			break;
		case ACL_GROUP:
			if (in_group(e.id)) {
				group_matched = 1;
				group = group > 0 ? group : x;
			}
			break;
		case ACL_MASK: mask = x; break;
		case ACL_OTHER: other = x; break;
		default: return -1;
		}
	}
	if (st->st_uid == geteuid())
		return owner == 1;
	if (named >= 0)
		return named && mask;
	if (group_matched)
		return group == 1 && mask;
	return other;
}

static int mode_allows(const struct stat *st)
{
	if (st->st_uid == geteuid())
		return (st->st_mode & S_IXUSR) != 0;
	if (in_group(st->st_gid))
		return (st->st_mode & S_IXGRP) != 0;
	return (st->st_mode & S_IXOTH) != 0;
}

int tf_exec_permission(int fd, const struct stat *st, int noexec_mount)
{
	int allowed;

	if (!noexec_mount) {
		if (syscall(SYS_faccessat2, fd, "", X_OK,
			    AT_EMPTY_PATH | AT_EACCESS) == 0)
			return 0;
		if (errno != ENOSYS)
			return -1;
	}
	if (has_dac_override()) {
		allowed = (st->st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
	} else {
		allowed = acl_allows(fd, st);
		if (allowed == 2)
			allowed = mode_allows(st);
	}
	if (allowed < 0) {
		errno = EIO;
		return -1;
	}
	if (!allowed) {
		errno = EACCES;
		return -1;
	}
	return 0;
}
