/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which filesystems can hold code, by fstatfs()'s f_type.  The kernel marks
 * some pseudo-filesystems SB_I_NOEXEC, which refuses execve() on them as a
 * noexec mount would, but fstatvfs() shows no ST_NOEXEC there: a file on
 * mqueue would pass an emulated mount check.  So the mount check trusts only
 * the filesystems listed as holding code, and files on the kernel's own
 * pseudo-filesystems are never trusted at all.  A filesystem missing from
 * this table is refused under the mount check, with its magic number in the
 * reason, until it is added.
 */
#include <stddef.h>

#include "internal.h"

enum { CODE,
       INTERNAL };

static const struct {
	unsigned long magic;
	const char *name;
	int kind;
} filesystems[] = {
	/* Disks, images and memory that hold files people install or write. */
	{ 0xef53, "ext2/ext3/ext4", CODE },
	{ 0x58465342, "xfs", CODE },
	{ 0x9123683e, "btrfs", CODE },
	{ 0xf2f52010, "f2fs", CODE },
	{ 0xca451a4e, "bcachefs", CODE },
	{ 0x2fc12fc1, "zfs", CODE },
	{ 0x3153464a, "jfs", CODE },
	{ 0x52654973, "reiserfs", CODE },
	{ 0x3434, "nilfs2", CODE },
	{ 0x01021994, "tmpfs", CODE },
	{ 0x858458f6, "ramfs", CODE },
	{ 0x794c7630, "overlayfs", CODE },
	{ 0x73717368, "squashfs", CODE },
	{ 0xe0f5e1e2, "erofs", CODE },
	{ 0x28cd3d45, "cramfs", CODE },
	{ 0x7275, "romfs", CODE },
	{ 0x9660, "iso9660", CODE },
	{ 0x15013346, "udf", CODE },
	{ 0x4d44, "vfat/msdos", CODE },
	{ 0x2011bab0, "exfat", CODE },
	{ 0x5346544e, "ntfs", CODE },
	{ 0x4244, "hfs", CODE },
	{ 0x482b, "hfsplus", CODE },
	{ 0x137f, "minix", CODE },
	{ 0x138f, "minix", CODE },
	{ 0x2468, "minix2", CODE },
	{ 0x2478, "minix2", CODE },
	{ 0x4d5a, "minix3", CODE },
	{ 0x00011954, "ufs", CODE },
	{ 0xf15f, "ecryptfs", CODE },
	{ 0x7461636f, "ocfs2", CODE },
	{ 0x01161970, "gfs2", CODE },
	/* Network and host-shared filesystems (9p and virtiofs in guests). */
	{ 0x6969, "nfs", CODE },
	{ 0xfe534d42, "smb2", CODE },
	{ 0xff534d42, "cifs", CODE },
	{ 0x00c36400, "ceph", CODE },
	{ 0x6b414653, "afs", CODE },
	{ 0x5346414f, "afs", CODE },
	{ 0x01021997, "9p", CODE },
	{ 0x65735546, "fuse", CODE },
	{ 0x20030528, "orangefs", CODE },
	{ 0x0bd00bd0, "lustre", CODE },
	/* The kernel's own: SB_I_NOEXEC, or files that are no one's code. */
	{ 0x9fa0, "procfs", INTERNAL },
	{ 0x62656572, "sysfs", INTERNAL },
	{ 0x27e0eb, "cgroupfs", INTERNAL },
	{ 0x63677270, "cgroup2fs", INTERNAL },
	{ 0x19800202, "mqueue", INTERNAL },
	{ 0x50494446, "pidfs", INTERNAL },
	{ 0x42494e4d, "binfmt_misc", INTERNAL },
	{ 0x6c6f6f70, "binderfs", INTERNAL },
	{ 0x7655821, "resctrl", INTERNAL },
	{ 0x64626720, "debugfs", INTERNAL },
	{ 0x74726163, "tracefs", INTERNAL },
	{ 0x73636673, "securityfs", INTERNAL },
	{ 0xcafe4a11, "bpf", INTERNAL },
	{ 0x62656570, "configfs", INTERNAL },
	{ 0xde5e81e4, "efivarfs", INTERNAL },
	{ 0x6165676c, "pstore", INTERNAL },
	{ 0x1cd1, "devpts", INTERNAL },
	{ 0xf97cff8c, "selinuxfs", INTERNAL },
	{ 0x43415d53, "smackfs", INTERNAL },
	{ 0x6e736673, "nsfs", INTERNAL },
};

static int find(long type)
{
	for (size_t i = 0; i < sizeof(filesystems) / sizeof(filesystems[0]); i++)
		if (filesystems[i].magic == (unsigned long)(unsigned int)type)
			return (int)i;
	return -1;
}

const char *tf_kernel_internal_fs(long type)
{
	int i = find(type);

	return i >= 0 && filesystems[i].kind == INTERNAL ? filesystems[i].name :
							   NULL;
}

int tf_fs_holds_code(long type)
{
	int i = find(type);

	return i >= 0 && filesystems[i].kind == CODE;
}
