/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Interfaces between the library's files; nothing here is exported.
 *
 * The files, bottom to top.  A file calls only files listed before it, so a
 * reader follows a call downward and never climbs back (tests/unit/layers.py
 * reads this list and checks it against the objects' symbols):
 *
 *   names.c            the names of reasons and backends
 *   abi.c              the public structs' sizes: what a caller's can hold
 *   log.c              the way out: the log function, its target, strerror
 *   ../shared/printable.c  what reaches a terminal or a log line
 *   filesystems.c      which filesystems hold code, by f_type
 *   procfs.c           a file of procfs that no mount stands in for, and
 *                      opens that a filter cannot forge
 *   creds.c            this thread's ids, as procfs shows them
 *   mount_point.c      /proc/self/mountinfo, and the mount point of a
 *                      descriptor, for messages
 *   mount_namespace.c  is a descriptor's mount one of this process's
 *   exec_permission.c  may the effective credentials execute the file
 *   userns.c           this process's uid map
 *   spared.c           whom a bad policy file does not bind: root and the
 *                      administrators' group
 *   check.c            the kernel probe and the check's three backends
 *   policy_file.c      the policy file: its syntax, owner and contents
 *   config.c           the configuration in force: policy file, environment,
 *                      caller, securebits
 *   trusted_for.c      the seed call and the check's public faces
 *   enforce.c          run or refuse, and the audit log
 */
#ifndef TRUSTEDFOR_INTERNAL_H
#define TRUSTEDFOR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "trustedfor.h"
#include "unforged.h"

#define TF_EXPORT __attribute__((visibility("default")))

/*
 * abi.c: a caller's struct begins with its size.  tf_abi_accepts(): 0, or -1
 * with EINVAL when it is NULL or smaller than the first layout.
 * tf_abi_copy(): what both sizes hold, from the library's full struct.
 * tf_verdict_out(): that for a verdict, then returns r with errno kept.
 */
int tf_abi_accepts(const void *caller, unsigned int first_size);
void tf_abi_copy(void *caller, const void *full, size_t full_size);
int tf_verdict_out(struct trusted_for_verdict *v,
		   const struct trusted_for_verdict *full, int r);

/* log.c: strerror() for threads and every locale: constant text. */
const char *tf_strerror(int error);

/* A line longer than this is cut (documented in trusted_for(3)). */
#define TF_LOG_LINE_MAX 4096
void tf_log(int priority, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Where the default log function writes: set by the configuration layer. */
void tf_log_set_target(enum trusted_for_log_target target);

/*
 * exec_permission.c: may the effective credentials execute this file?  0,
 * or -1 with errno (EACCES: no; anything else: the check failed, and *why
 * says how, or is NULL).
 */
int tf_exec_permission(int fd, const struct stat *st, int noexec_mount,
		       const char **why);
int tf_acl_allows(const void *acl, size_t n, const struct stat *st);

/* filesystems.c: f_type magic numbers */
const char *tf_kernel_internal_fs(long type);
int tf_fs_holds_code(long type);

/*
 * mount_point.c: the mounts of /proc/self/mountinfo, one a call to next (1,
 * or 0 at the end); point is the mount point, unescaped, valid until the
 * next call.  open is 0, or -1 with errno.
 */
struct tf_mountinfo {
	FILE *f;
	char *line;
	size_t cap;
	unsigned long long id;
	const char *point;
};
int tf_mountinfo_open(struct tf_mountinfo *m);
int tf_mountinfo_next(struct tf_mountinfo *m);
void tf_mountinfo_close(struct tf_mountinfo *m);
/* The mount point of fd's file, for messages: 0, or -1. */
int tf_mount_point(int fd, char *buf, size_t size);

/*
 * mount_namespace.c: a file's type, mode, owner, device and inode and its
 * mount's unique id (0 before Linux 6.8) in one statx(); where a mount is,
 * or -1 with errno when the kernel could not say.
 */
enum {
	TF_MOUNT_NAMESPACE_OWN,
	TF_MOUNT_NAMESPACE_OTHER,
	TF_MOUNT_NAMESPACE_UNKNOWN, /* before Linux 6.8 */
};
int tf_file_status(int dirfd, const char *path, int flags, struct stat *st,
		   uint64_t *mount_id);
int tf_mount_namespace_of(uint64_t mount_id);

/* procfs.c: /proc/PATH, read-only, or -1 (EXDEV: not procfs, or a mount on
 * the way) with errno; and /proc itself (O_PATH), or -1 (EXDEV: not
 * procfs) with errno. */
int tf_proc_open(const char *path);
int tf_proc_root(void);

/* creds.c: this thread's real, effective and filesystem ids and its
 * supplementary groups, from /proc/thread-self/status (0, or -1 with
 * errno); the groups are the caller's to free with tf_creds_free(). */
struct tf_creds {
	uid_t ruid, euid, fsuid;
	gid_t rgid, egid, fsgid;
	gid_t *groups;
	int ngroups;
};
int tf_creds_read(struct tf_creds *c);
void tf_creds_free(struct tf_creds *c);

/* spared.c: whether a bad policy file binds this process (0) or not (1:
 * root, or the administrators' group, admin_gid); who that is, in words
 * ("root and group 27 (sudo)", the name where the caller knows it); the
 * group's id, -1 for none. */
int tf_spared_by_bad_file(void);
void tf_spared_who(char *out, size_t size, const char *group_name);
long tf_admin_gid(void);

/* userns.c: whether uid 0 here is root of the initial user namespace (1),
 * is not (0), or cannot be told (-1, why says); and, for messages, this
 * process's uid map, read so that no mount can fake it. */
int tf_root_is_initial(char *why, size_t size);
#define TF_UID_MAP_MAX 340
struct tf_uid_map {
	unsigned int n;
	uint32_t inside[TF_UID_MAP_MAX], outside[TF_UID_MAP_MAX],
		count[TF_UID_MAP_MAX];
};
int tf_uid_map_read(struct tf_uid_map *m, char *why, size_t size);
int tf_uid_map_parse(const char *buf, struct tf_uid_map *m);
int tf_uid_map_is_identity(const struct tf_uid_map *m);
int tf_uid_map_outside(const struct tf_uid_map *m, uint32_t inside,
		       uint32_t *outside);
void tf_uid_map_describe(const struct tf_uid_map *m, char *out, size_t size);

/* check.c: the kernel probe, and the check through one backend. */
struct tf_kernel {
	int patched;	  /* /proc/sys/fs/trusted_for_policy exists, and no
			     AT_EXECVE_CHECK (a mainline 6.14+ is not it) */
	int execve_check; /* execveat() knows AT_EXECVE_CHECK, or may */
	int probe_error;  /* why the probe could not tell, or 0 */
};
void tf_kernel_probe(struct tf_kernel *k);
void tf_kernel_override(const struct tf_kernel *k);
int tf_kernel_policy(unsigned int *policy);
int tf_kernel_sysctl_present(void);
/* The backend for a check policy; only the patched kernel's call applies its
 * own sysctl's policy (kernel_policy), never one given by a caller. */
enum trusted_for_backend tf_backend_for(unsigned int policy, int kernel_policy);
int tf_answer(int fd, unsigned int policy, enum trusted_for_backend backend);
int tf_check_stream(int fd, unsigned int policy, enum trusted_for_backend backend,
		    const char *name, struct trusted_for_verdict *v);
int tf_check(int fd, unsigned int policy, enum trusted_for_backend backend,
	     const char *name, struct trusted_for_verdict *v);

/*
 * policy_file.c: the policy file, and the enforcement words it shares with
 * TRUSTEDFOR_ENFORCE ("none", or a list of "file", "interactive", "all").
 */
int tf_enforce_parse(const char *list, unsigned int *enforce);
struct tf_policy_file {
	unsigned int check_policy; /* 0..3 */
	unsigned int enforce;	   /* TRUSTED_FOR_ENFORCE_* */
	int audit;
	enum trusted_for_log_target log_target;
	enum trusted_for_file_state state;
	char problem[TRUSTED_FOR_MESSAGE_MAX]; /* why it fails closed */
};
#define TF_POLICY_FILE_MAX (64 * 1024)
#define TF_POLICY_LINE_MAX 256
#define TF_POLICY_HEADER "trustedfor-policy 1"
#define TF_POLICY_END "end"
void tf_policy_file_defaults(struct tf_policy_file *f);
void tf_policy_file_fail_closed(struct tf_policy_file *f, const char *why);
int tf_policy_parse(const char *buf, size_t len, struct tf_policy_file *f);
void tf_policy_read(int fd, int content_only, struct tf_policy_file *f);
void tf_policy_load(const char *path, struct tf_policy_file *f);
/* The check policy without a file: 3, or what the build chose (meson's
 * default_policy: Debian's packages choose 1, for its 0644 libraries). */
#ifndef TF_DEFAULT_POLICY
#define TF_DEFAULT_POLICY TRUSTED_FOR_POLICY_ALL
#endif
/* The administrators' group (spared.c): meson's admin_gid, else Debian's
 * sudo, for builds of the library's files outside meson (the fuzzer, the
 * guest's programs). */
#ifndef TF_ADMIN_GID
#define TF_ADMIN_GID 27
#endif
/* The one command that mends a bad file, named wherever one is reported. */
#define TF_POLICY_FIX "trusted-for policy edit"

/*
 * config.c: what the next decision applies.  tf_config_check() is the check
 * policy and backend alone, for trusted_for(), from one atomic word;
 * tf_config_get() is everything a decision needs, read consistently, with the
 * securebits and the patched kernel's sysctl read now; problem, when not
 * NULL, gets why the policy file fails closed.
 */
struct tf_config {
	unsigned int check_policy;	/* 0..3 */
	enum trusted_for_source source; /* of the check policy */
	enum trusted_for_backend backend;
	unsigned int file_enforce, env_enforce, process_enforce;
	unsigned int securebits;
	bool securebits_known;
	unsigned int enforce; /* the four sources combined */
	bool audit;
	enum trusted_for_log_target log_target;
	enum trusted_for_file_state file_state;
};
void tf_config_check(unsigned int *check_policy, enum trusted_for_backend *backend);
void tf_config_get(struct tf_config *p, char *problem, size_t size);

#endif
