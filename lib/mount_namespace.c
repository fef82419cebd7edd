/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Is a descriptor's mount one of this process's mount namespace?
 *
 * A user who may create user namespaces mounts what they like in one of
 * their own: a tmpfs without noexec, holding a copy of a file from a noexec
 * mount.  A confined session cannot create one, but a process of the same
 * user outside it can, and hand the session a way in: a descriptor over a
 * Unix socket, or /proc/PID/root, which needs only ptrace read access.  The
 * file is then on an exec mount, which the kernel's check accepts.  The
 * mount is not in the session's mount namespace, and that the check can
 * see: statmount() finds a mount by its unique id only in the caller's.
 *
 * Both calls came with Linux 6.8.  Before it nothing short of reading
 * /proc/self/mountinfo tells a process where a mount is, and mount ids were
 * reused; there a descriptor is not judged by this (trusted_for(3), BUGS),
 * and disabling unprivileged user namespaces is what stops the attack.
 *
 * The mounts found in this namespace are remembered by id (a unique id is
 * never given to another mount), so a process pays the statmount() once
 * per mount; the statx() that finds the mount is the one that reads the
 * file's type and mode for the other checks (tf_file_status()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"

/* What statmount() fills first, as Linux 6.8 defines it. */
struct tf_statmount {
	uint32_t size;
	uint32_t spare1;
	uint64_t mask;
	uint32_t sb_dev_major, sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags, fs_type;
	uint64_t mnt_id;
	uint64_t rest[60];
};

struct tf_mnt_id_req {
	uint32_t size;
	uint32_t spare;
	uint64_t mnt_id;
	uint64_t param;
};

#define KNOWN_MAX 64

static struct {
	pthread_mutex_t lock;
	uint64_t ids[KNOWN_MAX];
	unsigned int count, next;
} known = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int remembered(uint64_t id)
{
	unsigned int i;
	int found = 0;

	pthread_mutex_lock(&known.lock);
	for (i = 0; i < known.count && !found; i++)
		found = known.ids[i] == id;
	pthread_mutex_unlock(&known.lock);
	return found;
}

static void remember(uint64_t id)
{
	pthread_mutex_lock(&known.lock);
	known.ids[known.next] = id;
	known.next = (known.next + 1) % KNOWN_MAX;
	if (known.count < KNOWN_MAX)
		known.count++;
	pthread_mutex_unlock(&known.lock);
}

/*
 * Whether statmount() finds the mount in this namespace.  Only a buffer
 * it filled counts: a call faked to return 0 (a seccomp filter) leaves the
 * poisoned id, which matches nothing.
 */
static int in_this_namespace(uint64_t id)
{
	struct tf_mnt_id_req req = { .size = 24, .mnt_id = id, .param = STATMOUNT_MNT_BASIC };
	struct tf_statmount sm;

	memset(&sm, 0, sizeof(sm));
	if (syscall(SYS_statmount, &req, &sm, sizeof(sm), 0) < 0)
		return 0;
	return (sm.mask & STATMOUNT_MNT_BASIC) && sm.mnt_id == id;
}

/*
 * What the checks read of a file and its mount's unique id (0 before Linux
 * 6.8) come from one statx(), so that this check costs no system call of
 * its own.  A kernel always fills the basic fields; a buffer without them
 * was not filled (a call faked to return 0), which is no answer.
 */
int tf_file_status(int dirfd, const char *path, int flags, struct stat *st,
		   uint64_t *mount_id)
{
	const unsigned int basic = STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID |
				   STATX_INO;
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	memset(st, 0, sizeof(*st));
	/*
	 * The system call itself: glibc's statx() answers ENOSYS with an
	 * fstatat() of its own, which fills the basic fields and no mount id,
	 * so that a filter answering ENOSYS would make a 6.8 kernel look older.
	 */
	if (syscall(SYS_statx, dirfd, path, flags, basic | STATX_MNT_ID_UNIQUE, &stx) < 0)
		return -1;
	if ((stx.stx_mask & basic) != basic) {
		errno = EIO;
		return -1;
	}
	st->st_mode = stx.stx_mode;
	st->st_uid = stx.stx_uid;
	st->st_gid = stx.stx_gid;
	st->st_ino = stx.stx_ino;
	st->st_dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	*mount_id = (stx.stx_mask & STATX_MNT_ID_UNIQUE) ? stx.stx_mnt_id : 0;
	return 0;
}

int tf_mount_namespace_of(uint64_t id)
{
	struct stat st;
	uint64_t root;

	/* Before 6.8: no unique id, nothing to judge by. */
	if (!id)
		return TF_MOUNT_NAMESPACE_UNKNOWN;
	if (remembered(id))
		return TF_MOUNT_NAMESPACE_OWN;
	/*
	 * statmount() refuses (EPERM) a mount whose root this process cannot
	 * reach, which in a chroot is the one the chroot's files are on; the
	 * mount of this process's own root is in its namespace.
	 */
	if (tf_file_status(AT_FDCWD, "/", 0, &st, &root) < 0)
		return -1;
	if (id != root && !in_this_namespace(id))
		return TF_MOUNT_NAMESPACE_OTHER;
	remember(id);
	return TF_MOUNT_NAMESPACE_OWN;
}
