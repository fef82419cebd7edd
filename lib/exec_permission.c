/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * May the caller's effective credentials execute a regular file?  As
 * execve() judges it: the permission bits, POSIX ACLs, and CAP_DAC_OVERRIDE,
 * which lets a capable process execute a file only if some execute bit is
 * set and the file's owner and group are mapped in its user namespace.
 *
 * faccessat2(AT_EACCESS) asks the kernel itself, but it also refuses every
 * file on a noexec mount, and policy 2 must judge the file bit alone there.
 * On such mounts, and where faccessat2 is missing or filtered (ENOSYS on old
 * kernels, EPERM from a container's seccomp profile), the decision is made
 * here from the mode and the access ACL, for the filesystem ids and groups
 * the kernel judges by.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

static int has_dac_override(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	/* No capability until the kernel writes one: a forged 0 fills nothing. */
	struct __user_cap_data_struct data[2] = { { 0, 0, 0 }, { 0, 0, 0 } };

	if (syscall(SYS_capget, &hdr, data) < 0)
		return 0;
	return (data[0].effective & (1U << CAP_DAC_OVERRIDE)) != 0;
}

/* A procfs file as a stream, opened as procfs.c opens them. */
static FILE *proc_stream(const char *path)
{
	int fd = tf_proc_open(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "re");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* The caller's filesystem ids and groups, which the kernel judges
 * permission by, come from creds.c. */
static int in_group(const struct tf_creds *c, gid_t gid)
{
	if (gid == c->fsgid)
		return 1;
	for (int i = 0; i < c->ngroups; i++)
		if (c->groups[i] == gid)
			return 1;
	return 0;
}

/*
 * The kernel lets CAP_DAC_OVERRIDE act on an inode only if its owner and
 * group are mapped in the caller's user namespace.  stat() shows an
 * unmapped id as the overflow id, which a namespace may also map: that
 * ambiguity is taken as unmapped (a denial), except in the initial
 * namespace, where every id is mapped.
 */
static int id_mapped(const char *map_path, const char *overflow_path,
		     unsigned int id, int *in_initial)
{
	char line[128];
	unsigned long inside, outside, count, overflow = 65534;
	int mapped = 0, initial = 0;
	FILE *f = proc_stream(overflow_path);

	if (f) {
		if (fscanf(f, "%lu", &overflow) != 1)
			overflow = 65534;
		fclose(f);
	}
	f = proc_stream(map_path);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lu %lu %lu", &inside, &outside, &count) != 3)
			continue;
		if (inside == 0 && outside == 0 && count == 4294967295UL)
			initial = 1;
		if (id >= inside && id - inside < count)
			mapped = 1;
	}
	fclose(f);
	if (in_initial)
		*in_initial = initial;
	return mapped && (initial || id != overflow);
}

static int uid_mapped(uid_t uid, int *in_initial)
{
	return id_mapped("self/uid_map", "sys/kernel/overflowuid", (unsigned int)uid, in_initial);
}

static int gid_mapped(gid_t gid, int *in_initial)
{
	return id_mapped("self/gid_map", "sys/kernel/overflowgid", (unsigned int)gid, in_initial);
}

/* in_initial, when asked: whether both maps are the initial namespace's. */
static int owner_mapped(const struct stat *st, int *in_initial)
{
	int uids_initial = 0, gids_initial = 0;
	int mapped = uid_mapped(st->st_uid, &uids_initial) &&
		     gid_mapped(st->st_gid, &gids_initial);

	if (in_initial)
		*in_initial = uids_initial && gids_initial;
	return mapped;
}

/*
 * The access ACL, in a buffer as large as the attribute (up to the 64 KiB
 * an extended attribute may hold, 8191 entries).  Returns its length, 0
 * when the file has none, -1 with errno; the caller frees *out.
 */
static ssize_t read_acl(int fd, char **out)
{
	char self[32];
	ssize_t n = 0;
	int use_path = 0;

	*out = NULL;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	for (int tries = 0; tries < 4; tries++) {
		n = use_path ? getxattr(self, ACL_XATTR, NULL, 0) :
			       fgetxattr(fd, ACL_XATTR, NULL, 0);
		/* O_PATH descriptors have no xattr calls; their magic link does. */
		if (n < 0 && errno == EBADF && !use_path) {
			use_path = 1;
			tries--;
			continue;
		}
		if (n < 0)
			return (errno == ENODATA || errno == EOPNOTSUPP) ? 0 : -1;
		free(*out);
		*out = malloc(n ? (size_t)n : 1);
		if (!*out)
			return -1;
		n = use_path ? getxattr(self, ACL_XATTR, *out, (size_t)n) :
			       fgetxattr(fd, ACL_XATTR, *out, (size_t)n);
		/* ERANGE: the ACL grew between the two calls; ask again. */
		if (n >= 0 || errno != ERANGE)
			break;
	}
	if (n < 0) {
		free(*out);
		*out = NULL;
	}
	return n < 0 && errno == ENODATA ? 0 : n;
}

/*
 * The kernel's ACL walk for execute permission.  1 allowed, 0 refused, -1
 * the ACL is malformed (which the kernel would never store).
 */
static int acl_allows(const struct tf_creds *c, const void *acl, size_t n,
		      const struct stat *st)
{
	const unsigned char *buf = acl;
	struct acl_entry e;
	int mask = ACL_EXECUTE, owner = -1, named = -1, group = -1, other = 0;
	int group_matched = 0;
	uint32_t version;

	if (n < 4 || (n - 4) % 8)
		return -1;
	memcpy(&version, buf, 4);
	if (version != ACL_VERSION)
		return -1;
	for (size_t off = 4; off < n; off += 8) {
		memcpy(&e, buf + off, sizeof(e));
		int x = (e.perm & ACL_EXECUTE) != 0;

		switch (e.tag) {
		case ACL_USER_OBJ: owner = x; break;
		case ACL_USER:
			if (e.id == c->fsuid)
				named = x;
			break;
		case ACL_GROUP_OBJ:
		case ACL_GROUP:
			if (in_group(c, e.tag == ACL_GROUP ? (gid_t)e.id :
							     st->st_gid)) {
				group_matched = 1;
				group = group > 0 ? group : x;
			}
			break;
		case ACL_MASK: mask = x; break;
		case ACL_OTHER: other = x; break;
		default: return -1;
		}
	}
	if (st->st_uid == c->fsuid)
		return owner == 1;
	if (named >= 0)
		return named && mask;
	if (group_matched)
		return group == 1 && mask;
	return other;
}

/*
 * Whether the ids the decision compares are the kernel's.  In a user
 * namespace, stat() shows an owner or group not mapped there as the
 * overflow id (65534), which the caller may show too (its own id mapped to
 * 65534, a supplementary group not mapped, no map yet): "the caller owns
 * it" cannot then be told from "nobody here does", which the kernel, that
 * compares the real ids, tells apart.  An
 * ACL's entries are compared with ids too; outside the initial namespace
 * they are not trusted at all.  The "other" class compares nothing.
 */
static int ids_known(const struct tf_creds *c, const struct stat *st, int acl)
{
	int initial = 0;

	if (acl)
		return owner_mapped(st, &initial) && initial;
	if (st->st_uid == c->fsuid)
		return uid_mapped(st->st_uid, NULL);
	if (in_group(c, st->st_gid))
		return gid_mapped(st->st_gid, NULL);
	return 1;
}

static int mode_allows(const struct tf_creds *c, const struct stat *st)
{
	if (st->st_uid == c->fsuid)
		return (st->st_mode & S_IXUSR) != 0;
	if (in_group(c, st->st_gid))
		return (st->st_mode & S_IXGRP) != 0;
	return (st->st_mode & S_IXOTH) != 0;
}

/* Exposed for the tests of the ACL's bounds: 1, 0, or -1 malformed. */
int tf_acl_allows(const void *acl, size_t n, const struct stat *st)
{
	struct tf_creds c;
	int r = -1;

	if (tf_creds_read(&c) == 0)
		r = acl_allows(&c, acl, n, st);
	tf_creds_free(&c);
	return r;
}

int tf_exec_permission(int fd, const struct stat *st, int noexec_mount,
		       const char **why)
{
	struct tf_creds c;
	char *acl = NULL;
	ssize_t n;
	int allowed, saved_errno = errno;

	*why = NULL;
	/*
	 * The kernel's no is final.  Its yes is one return value, which a
	 * seccomp filter of the user's own can give (for a mode 0644 file
	 * under policy 2, or a memfd without the execute bit under policy 1):
	 * it counts only if the mode and the ACL give the caller the execute
	 * permission too.  That the file has no ACL is itself one return value
	 * (ENODATA): see trusted_for(3), BUGS.
	 */
	if (!noexec_mount &&
	    syscall(SYS_faccessat2, fd, "", X_OK, AT_EMPTY_PATH | AT_EACCESS) < 0 &&
	    errno != ENOSYS && errno != EPERM)
		return -1;
	n = read_acl(fd, &acl);
	if (n < 0) {
		*why = "cannot read the POSIX ACL";
		return -1;
	}
	/* Without an ACL, a mode that answers every class alike needs no ids. */
	if (n == 0 && (st->st_mode & 0111) == 0111) {
		allowed = 1;
	} else if (n == 0 && !(st->st_mode & 0111)) {
		allowed = 0;
	} else if (tf_creds_read(&c) < 0) {
		tf_creds_free(&c);
		free(acl);
		*why = "cannot read the caller's ids";
		return -1;
	} else if (!ids_known(&c, st, n > 0)) {
		tf_creds_free(&c);
		free(acl);
		*why = "its owner or group is not mapped in this user namespace";
		errno = EACCES;
		return -1;
	} else {
		allowed = n > 0 ? acl_allows(&c, acl, (size_t)n, st) : mode_allows(&c, st);
		tf_creds_free(&c);
	}
	free(acl);
	if (allowed < 0) {
		*why = "malformed POSIX ACL";
		errno = EIO;
		return -1;
	}
	if (!allowed && has_dac_override() &&
	    (st->st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) && owner_mapped(st, NULL))
		allowed = 1;
	if (!allowed) {
		errno = EACCES;
		return -1;
	}
	/* A yes leaves errno as it was, as trusted_for() promises. */
	errno = saved_errno;
	return 0;
}
