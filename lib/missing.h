/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel constants that Debian 12's headers lack, with their kernel values. */
#ifndef TRUSTEDFOR_MISSING_H
#define TRUSTEDFOR_MISSING_H

#include <linux/magic.h>

#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000 /* Linux 6.14 */
#endif

#ifndef SECBIT_EXEC_RESTRICT_FILE
#define SECBIT_EXEC_RESTRICT_FILE (1U << 8) /* Linux 6.14 */
#endif
#ifndef SECBIT_EXEC_RESTRICT_FILE_LOCKED
#define SECBIT_EXEC_RESTRICT_FILE_LOCKED (1U << 9)
#endif
#ifndef SECBIT_EXEC_DENY_INTERACTIVE
#define SECBIT_EXEC_DENY_INTERACTIVE (1U << 10)
#endif
#ifndef SECBIT_EXEC_DENY_INTERACTIVE_LOCKED
#define SECBIT_EXEC_DENY_INTERACTIVE_LOCKED (1U << 11)
#endif
/* Each exec bit's lock is the next bit up. */
#define TF_SECBIT_LOCKS(bits) ((bits) << 1)

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U /* Linux 6.3 */
#endif

#ifndef PR_GET_SECUREBITS
#define PR_GET_SECUREBITS 27
#endif
#ifndef PR_SET_SECUREBITS
#define PR_SET_SECUREBITS 28
#endif

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U /* Linux 6.8 */
#endif
#ifndef SYS_statmount
#define SYS_statmount 457 /* Linux 6.8, the same number on every arch */
#endif
#ifndef STATMOUNT_MNT_BASIC
#define STATMOUNT_MNT_BASIC 0x00000002U
#endif

#ifndef SYS_faccessat2
#define SYS_faccessat2 439 /* Linux 5.8, the same number on every arch */
#endif

/*
 * The trusted_for() system call exists only in kernels built with the
 * project's patch series (kernel/patches).  It is the next free x86_64
 * number of Linux 6.12, which later mainline kernels give to another call:
 * use it only after the running kernel proved it is the patched one.
 */
#if defined(__x86_64__) && !defined(__ILP32__)
#define TRUSTED_FOR_SYSCALL_NR 463
#endif
/* Below /proc, as lib/procfs.c opens it, and whole, for messages and tests. */
#define TRUSTED_FOR_KERNEL_POLICY_IN_PROC "sys/fs/trusted_for_policy"
#define TRUSTED_FOR_KERNEL_POLICY_PATH "/proc/" TRUSTED_FOR_KERNEL_POLICY_IN_PROC

/* Filesystems whose superblock the kernel marks SB_I_NOEXEC. */
#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif
#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#endif
